"""A real daphne process and a client that never reads: the server drops it once its
unsent frames pass ``WS_SEND_BACKLOG_BYTES``, instead of buffering them without end."""

from __future__ import annotations

import time

from .test_table_daphne_restart import free_port, site_with_table, start_daphne
from .wsclient import WebSocketClosed, WSClient

CREATE = """
from games import tables
from games.engine import BotLevel, Options
print(tables.table_create(
    players=4, options=Options(tie_window_ms=40, turn_limit=400), seed=5,
    bots={0: BotLevel.QUICK, 1: BotLevel.QUICK, 2: BotLevel.QUICK, 3: BotLevel.QUICK},
    bot_time_scale=0.005,
))
"""


def test_a_client_that_never_reads_is_dropped_when_its_backlog_passes_the_limit(tmp_path):
    env, code = site_with_table(tmp_path, CREATE, WS_SEND_BACKLOG_BYTES="20000")
    port = free_port()
    with open(tmp_path / "daphne.log", "w") as log:
        server = start_daphne(env, port, log)
        try:
            origin = f"http://127.0.0.1:{port}"
            reader = WSClient("127.0.0.1", port, f"/ws/play/{code}/", origin=origin)
            reader.send_json({"type": "hello"})
            while not reader.receive_json().get("view", {}).get("over"):
                pass  # the bots play the whole game
            sleeper = WSClient(
                "127.0.0.1", port, f"/ws/play/{code}/", origin=origin, receive_buffer=4096
            )
            sleeper.send_json({"type": "hello"})
            dropped = False
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not dropped:
                try:
                    sleeper.send_json({"type": "resync", "since": 0})  # the game again
                except OSError:
                    dropped = True
                time.sleep(0.2)
            assert dropped, "the client that never reads was kept"
            reader.send_json({"type": "ping", "t": 1})  # the server and the reader go on
            while reader.receive_json()["type"] != "pong":
                pass
        finally:
            server.terminate()
            server.wait(timeout=10)
    assert "does not read" in (tmp_path / "daphne.log").read_text()


def test_a_flooding_client_is_closed_with_4429_and_its_socket_let_go(tmp_path):
    env, code = site_with_table(tmp_path, CREATE)
    port = free_port()
    with open(tmp_path / "daphne.log", "w") as log:
        server = start_daphne(env, port, log)
        try:
            origin = f"http://127.0.0.1:{port}"
            flooder = WSClient("127.0.0.1", port, f"/ws/play/{code}/", origin=origin)
            flooder.send_json({"type": "hello"})
            for _ in range(2000):  # far more than the burst and the closing limit
                flooder.send_json({"type": "ping", "t": 1})
            kinds, close_code = [], None
            try:
                while True:
                    kinds.append(flooder.receive_json().get("code"))
            except WebSocketClosed as closed:
                close_code = closed.code
            assert close_code == 4429
            assert kinds.count("rate_limited") == 1
            flooder.sock.settimeout(5)
            assert flooder.sock.recv(1) == b""  # the server let the socket go
            other = WSClient("127.0.0.1", port, f"/ws/play/{code}/", origin=origin)
            other.send_json({"type": "hello"})  # the server goes on for everyone else
            assert other.receive_json()["type"] == "welcome"
        finally:
            server.terminate()
            server.wait(timeout=10)
