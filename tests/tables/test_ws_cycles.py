"""A closed WebSocket under daphne is freed by refcounting alone: it leaves no reference
cycle for the collector (snapsite/daphne_cycles.py, snapsite/admission.py). Before, every
closed connection left two (autobahn's protocol and its ``is_closed`` Deferred; the
handshake's HTTP channel and request, with the admission's ``makeConnection`` closure),
about 60 objects that only a collection freed: 170-290 ms after 1,000 sockets.

daphne runs with the collector off (``gc.disable()`` before it starts; nothing turns it on
again); on ``SIGUSR1`` it collects with ``DEBUG_SAVEALL`` and writes what the collection
found: every object it would have freed is in ``gc.garbage``."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_table_daphne_restart import CREATE, ROOT, free_port, site_with_table
from .wsclient import WebSocketClosed, WSClient

pytestmark = pytest.mark.server

PROBE = """
import collections, gc, json, os, signal, sys

gc.disable()
report = sys.argv[1]


def garbage(*_):
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    gc.set_debug(0)
    found = collections.Counter(
        f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
    )
    gc.garbage.clear()
    with open(report + ".tmp", "w") as out:
        json.dump(found, out)
    os.replace(report + ".tmp", report)


signal.signal(signal.SIGUSR1, garbage)
from daphne.cli import CommandLineInterface

sys.argv = ["daphne", *sys.argv[2:]]
CommandLineInterface.entrypoint()
"""

#: The modules whose objects a closed WebSocket is made of.
CONNECTION_MODULES = ("daphne.", "twisted.", "autobahn.", "games.play.", "channels.")


def garbage_found(pid: int, report: Path) -> dict[str, int]:
    report.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 20
    while not report.exists():
        assert time.monotonic() < deadline, "no report from the server"
        time.sleep(0.05)
    return json.loads(report.read_text())


@contextlib.contextmanager
def probed_daphne(tmp_path: Path, env: dict, probe: str = PROBE) -> Iterator[tuple]:
    """daphne serving the site under ``probe`` on a free port: ``(port, pid, report)``,
    stopped on leaving."""
    port = free_port()
    report = tmp_path / "garbage.json"
    (tmp_path / "probe.py").write_text(probe)
    log = open(tmp_path / "daphne.log", "w")
    server = subprocess.Popen(
        [sys.executable, str(tmp_path / "probe.py"), str(report), "-b", "127.0.0.1",
         "-p", str(port), "snapsite.asgi:application"],
        env={**env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield port, server, report
    finally:
        server.terminate()
        server.wait(timeout=15)
        log.close()


def closes(client: WSClient) -> int | None:
    try:
        while True:
            client.receive_json()
    except WebSocketClosed as closed:
        return closed.code
    finally:
        client.close()


def test_closed_websockets_leave_no_reference_cycle(tmp_path):
    env, code = site_with_table(tmp_path, CREATE, WS_HELLO_TIMEOUT_S="1")
    with probed_daphne(tmp_path, env) as (port, server, report):

        def connect() -> WSClient:
            return WSClient(
                "127.0.0.1", port, f"/ws/play/{code}/", origin=f"http://127.0.0.1:{port}"
            )

        deadline = time.monotonic() + 30
        while True:
            try:
                closes(connect())  # the first connection's imports and caches
                break
            except (OSError, WebSocketClosed):
                assert server.poll() is None and time.monotonic() < deadline, "no daphne"
                time.sleep(0.2)
        time.sleep(1.5)
        garbage_found(server.pid, report)  # start-up's

        idle = [connect() for _ in range(5)]  # closed by the hello timeout
        assert [closes(client) for client in idle] == [4408] * 5
        for _ in range(2):  # say hello, send a few frames, and leave
            client = connect()
            client.send_json({"type": "hello"})
            assert client.receive_json()["type"] == "welcome"
            client.send_json({"type": "ping", "t": 1})
            client.send_json({"type": "no such thing"})
            seen = set()
            while not {"pong", "error"} <= seen:  # (the bots' events may come between)
                seen.add(client.receive_json()["type"])
            client.close()
        time.sleep(2.5)  # daphne forgets a closed connection within a second or two
        found = garbage_found(server.pid, report)
    left = {name: n for name, n in found.items() if name.startswith(CONNECTION_MODULES)}
    assert left == {}, left
