"""The connection guards over the real server process (uvicorn, as `make run` and the
table processes run it): a client that never reads is let go once what waits for it
passes ``WS_SEND_BACKLOG_BYTES``; a flooding client is closed with 4429 and its
socket let go, and so is one that floods in bursts, each under the closing limit, once
it has been warned ``WS_FLOOD_WARNINGS_PER_MINUTE`` times."""

from __future__ import annotations

import subprocess
import time

import pytest

from tests.servers import free_port, start_site_server

from .test_table_server_restart import site_with_table
from .wsclient import WebSocketClosed, WSClient

pytestmark = pytest.mark.server

CREATE = """
from games import tables
from games.engine import BotLevel, Options
print(tables.table_create(
    players=4, options=Options(tie_window_ms=40, turn_limit=400), seed=5,
    bots={0: BotLevel.QUICK, 1: BotLevel.QUICK, 2: BotLevel.QUICK, 3: BotLevel.QUICK},
    bot_time_scale=0.005,
))
"""


@pytest.fixture
def served(tmp_path):
    """A function of the settings that starts the site's server (uvicorn, as `make run`
    and the table processes run it) on a site with a bot table and returns (port, code);
    the server is stopped after the test."""
    started = []

    def serve(**settings: str) -> tuple[int, str]:
        env, code = site_with_table(tmp_path, CREATE, **settings)
        port = free_port()
        log = open(tmp_path / "server.log", "w")
        started.append((start_site_server(env, port, log), log))
        return port, code

    yield serve
    for server, log in started:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:  # uvicorn waits for open connections
            server.kill()
            server.wait()
        log.close()


def connect(port: int, code: str, **kwargs) -> WSClient:
    client = WSClient(
        "127.0.0.1", port, f"/ws/play/{code}/", origin=f"http://127.0.0.1:{port}", **kwargs
    )
    client.send_json({"type": "hello"})
    return client


def socket_let_go(client: WSClient) -> bool:
    """The server closed the socket (an end of stream, or a reset when it closed with
    the flood still unread in its buffer), at the latest when uvicorn's wait for the
    client's answer to its close frame (10 s, not a setting) ran out."""
    client.sock.settimeout(15)
    try:
        return client.sock.recv(1) == b""
    except ConnectionResetError:
        return True


def frames_until_closed(client: WSClient) -> tuple[list[dict], int | None]:
    frames = []
    try:
        while True:
            frames.append(client.receive_json())
    except WebSocketClosed as closed:
        return frames, closed.code


def test_a_client_that_never_reads_is_dropped_when_its_backlog_passes_the_limit(served, tmp_path):
    # uvicorn compresses (permessage-deflate): the catch-up budget is lifted so that
    # the sleeper asks for enough to fill the kernel's buffers under every server
    port, code = served(WS_SEND_BACKLOG_BYTES="20000", WS_CATCH_UP_EVENTS_PER_MINUTE="10000000")
    reader = connect(port, code)
    while not reader.receive_json().get("view", {}).get("over"):
        pass  # the bots play the whole game
    sleeper = connect(port, code, receive_buffer=4096)
    log = tmp_path / "server.log"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "does not read" not in log.read_text():
        try:
            sleeper.send_json({"type": "resync", "since": 0})  # the game again
        except OSError:
            break  # the server no longer reads it either
        time.sleep(0.1)
    assert "does not read" in log.read_text(), "the client that never reads was kept"
    reader.send_json({"type": "ping", "t": 1})  # the server and the reader go on
    while reader.receive_json()["type"] != "pong":
        pass


def test_a_flooding_client_is_closed_with_4429_and_its_socket_let_go(served):
    port, code = served()
    flooder = connect(port, code)
    try:
        for _ in range(2000):  # far more than the burst and the closing limit
            flooder.send_json({"type": "ping", "t": 1})
    except ConnectionError:
        pass  # uvicorn closed the socket before the flood was all sent
    frames, close_code = frames_until_closed(flooder)
    assert close_code == 4429
    assert [f.get("code") for f in frames].count("rate_limited") == 1
    assert socket_let_go(flooder)
    other = connect(port, code)  # the server goes on for everyone else
    assert other.receive_json()["type"] == "welcome"


def test_a_flooder_that_comes_back_waits_and_nobody_else_does(served):
    port, code = served(WS_FLOOD_PENALTY_S="4")  # long beside a busy machine's delays
    flooder = connect(port, code, source="127.0.0.2")
    assert flooder.receive_json()["type"] == "welcome"
    try:
        for _ in range(2000):
            flooder.send_json({"type": "ping", "t": 1})
    except ConnectionError:
        pass
    assert frames_until_closed(flooder)[1] == 4429
    closed_at = time.monotonic()
    someone_else = connect(port, code, source="127.0.0.3")
    assert someone_else.receive_json()["type"] == "welcome"
    assert time.monotonic() - closed_at < 3.0  # another address: served at once
    back = connect(port, code, source="127.0.0.2")
    assert back.receive_json()["type"] == "welcome"  # served, after its wait
    assert time.monotonic() - closed_at >= 3.5


def test_a_client_flooding_in_bursts_is_closed_at_its_third_warning_in_a_minute(served):
    port, code = served()
    flooder = connect(port, code)
    assert flooder.receive_json()["type"] == "welcome"

    def burst(t: int) -> list[dict]:
        """40 pings at once (20 over the burst, far under WS_FLOOD_CLOSE_AFTER), then
        the frames that come back within 1.5 s (longer than a flood's quiet end)."""
        for _ in range(40):
            flooder.send_json({"type": "ping", "t": t})
        frames, until = [], time.monotonic() + 1.5
        flooder.sock.settimeout(0.2)
        while time.monotonic() < until:
            try:
                frames.append(flooder.receive_json())
            except TimeoutError:
                pass
        flooder.sock.settimeout(10)
        return frames

    for t in (1, 2):  # two floods: warned each time, still open
        frames = burst(t)
        assert [f.get("code") for f in frames if f["type"] == "error"] == ["rate_limited"]
        assert 15 <= sum(f["type"] == "pong" for f in frames) <= 25
    for _ in range(40):  # the third flood within the minute
        flooder.send_json({"type": "ping", "t": 3})
    frames, close_code = frames_until_closed(flooder)
    assert close_code == 4429
    assert [f.get("code") for f in frames if f["type"] == "error"] == ["rate_limited"]
    other = connect(port, code)
    assert other.receive_json()["type"] == "welcome"
