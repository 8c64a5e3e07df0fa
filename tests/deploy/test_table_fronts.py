"""The table processes' fronts (deploy/nginx/snap-stream.conf): nginx reads what one
client sends to a table process at most ``UPLOAD_RATE`` bytes a second, so that a
client writing as fast as it can never holds a table process's loop. Checked with
Debian's nginx and the configuration as rendered for production."""

from __future__ import annotations

import socket
import subprocess
import threading
import time

import pytest

from deploy.nginx_conf import FRONT_OFFSET, UPLOAD_RATE, render, render_stream
from deploy.stack import StackError, find_nginx, free_port, nginx_missing, stream_module
from tests.conftest import require

pytestmark = pytest.mark.server


def test_each_table_process_gets_a_front_and_the_http_part_sends_websockets_to_them():
    tables = ["127.0.0.1:8101", "10.0.0.7:8102"]
    http = render(listen="80", static_root="/srv/static", pages=["127.0.0.1:8001"], tables=tables)
    stream = render_stream(tables=tables)
    tables_upstream = http.split("upstream snap_tables {")[1].split("}")[0]
    assert "server 127.0.0.1:9101;" in tables_upstream
    assert "server 127.0.0.1:9102;" in tables_upstream  # fronts on nginx's machine
    assert "8101" not in tables_upstream  # never straight to a table process
    for table, front in zip(tables, ["127.0.0.1:9101", "127.0.0.1:9102"], strict=True):
        block = stream.split(f"listen {front};")[1].split("}")[0]
        assert f"proxy_pass {table};" in block
        assert f"proxy_upload_rate {UPLOAD_RATE};" in block
    assert FRONT_OFFSET == 1000


def test_fronts_named_by_hand_must_match_the_table_processes():
    with pytest.raises(ValueError, match="one front for each"):
        render_stream(tables=["127.0.0.1:8101", "127.0.0.1:8102"], fronts=["127.0.0.1:9000"])
    with pytest.raises(ValueError, match="host:port"):
        render_stream(tables=["8101"])
    with pytest.raises(ValueError, match="two fronts on one port"):
        render_stream(tables=["10.0.0.7:8101", "10.0.0.8:8101"])


def test_the_command_line_writes_the_stream_part(capsys):
    from deploy.nginx_conf import main

    main(["--part", "stream", "--tables", "127.0.0.1:8101", "--fronts", "127.0.0.1:7000"])
    written = capsys.readouterr().out
    assert "listen 127.0.0.1:7000;" in written and "proxy_pass 127.0.0.1:8101;" in written
    with pytest.raises(SystemExit):
        main(["--tables", "127.0.0.1:8101"])  # the http part needs its pages and static root


class _Sink:
    """A TCP server standing in for a table process: it reads every connection to the
    end and keeps when each byte came."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.received: list[tuple[float, int]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            connection, _ = self.server.accept()
            threading.Thread(target=self._read, args=(connection,), daemon=True).start()

    def _read(self, connection: socket.socket) -> None:
        with connection:
            while chunk := connection.recv(65536):
                self.received.append((time.monotonic(), len(chunk)))

    def bytes_by(self, moment: float) -> int:
        return sum(n for at, n in self.received if at <= moment)


@pytest.fixture
def front(tmp_path):
    """nginx with the rendered stream part alone, its one front before a :class:`_Sink`."""
    missing = nginx_missing()
    require(missing is None, missing)
    nginx = find_nginx()
    sink = _Sink()
    port = free_port()
    (tmp_path / "stream.conf").write_text(
        render_stream(tables=[f"127.0.0.1:{sink.port}"], fronts=[f"127.0.0.1:{port}"])
    )
    (tmp_path / "nginx.conf").write_text(
        f"{stream_module(nginx)}worker_processes 1; daemon off; pid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log warn; events {{}}\n"
        f"include {tmp_path}/stream.conf;\n"
    )
    process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise StackError((tmp_path / "error.log").read_text()) from None
                time.sleep(0.1)
        yield port, sink
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_client_writing_as_fast_as_it_can_reaches_its_table_process_at_the_fronts_rate(front):
    port, sink = front
    client = socket.create_connection(("127.0.0.1", port))
    client.setblocking(False)
    started = time.monotonic()
    sent = 0
    payload = b"x" * 65536
    while time.monotonic() - started < 3:  # as fast as the socket takes it, for 3 s
        try:
            sent += client.send(payload)
        except BlockingIOError:
            time.sleep(0.01)
    seen = time.monotonic()
    client.close()
    # nginx reads at most the rate a second plus one second's worth at the start (its
    # first second), and one buffer (16 KiB) may be on its way
    allowed = UPLOAD_RATE * (seen - started + 1) + 16384
    assert sink.bytes_by(seen) <= allowed, (sink.bytes_by(seen), allowed, sent)
    assert sent > 4 * allowed  # the client did write far more than got through
    assert sink.bytes_by(seen) >= UPLOAD_RATE  # and the front does pass what is within it
