"""The real server process killed in the middle of a game and started again: the game
finishes, and every event reaches the client once, in order."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Card, Record, final_state
from games.tables.protocol import options_from_json
from games.tables.store import stored_action
from tests.servers import ROOT, free_port, start_site_server

from .wsclient import WebSocketClosed, WSClient

pytestmark = pytest.mark.server

CREATE = """
from games import tables
from games.engine import BotLevel, Options
print(tables.table_create(
    players=3, options=Options(tie_window_ms=40, turn_limit=120), seed=21,
    bots={0: BotLevel.BEGINNER, 1: BotLevel.STEADY, 2: BotLevel.QUICK}, bot_time_scale=0.03,
))
"""


def site_with_table(tmp_path: Path, create: str, **settings: str) -> tuple[dict, str]:
    """The environment of a site on a file SQLite database in ``tmp_path`` (``settings``
    added to it), migrated, with one table made by the ``create`` script: (env, code)."""
    db = tmp_path / "live.sqlite3"
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{db}", "REDIS_URL": ""}
    env.update(settings)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(manage + ["migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True)
    made = subprocess.run(
        manage + ["shell", "-c", create], env=env, cwd=ROOT, check=True, capture_output=True
    )
    return env, made.stdout.decode().split()[-1]


def open_table(port: int, code: str, since: int | None) -> tuple[WSClient, dict]:
    client = WSClient("127.0.0.1", port, f"/ws/play/{code}/", origin=f"http://127.0.0.1:{port}")
    client.send_json({"type": "hello"} if since is None else {"type": "hello", "since": since})
    welcome = client.receive_json()
    assert welcome["type"] == "welcome", welcome
    return client, welcome


def stored_record(db: Path, code: str) -> Record:
    with sqlite3.connect(db) as conn:
        table_id, players, options, dealer, deck = conn.execute(
            "select id, players, options, dealer, deck from games_table where code = ?", (code,)
        ).fetchone()
        rows = conn.execute(
            'select data from games_tableaction where table_id = ? order by "index"', (table_id,)
        ).fetchall()
    return Record(
        players,
        options_from_json(json.loads(options)),
        dealer,
        tuple(Card.parse(c) for c in json.loads(deck)),
        tuple(stored_action(json.loads(r[0])) for r in rows),
    )


def test_a_killed_server_started_again_finishes_the_game_delivering_every_event_once(tmp_path):
    env, code = site_with_table(tmp_path, CREATE)
    db = tmp_path / "live.sqlite3"
    log = open(tmp_path / "server.log", "w")
    port = free_port()
    server = start_site_server(env, port, log)
    seqs: list[int] = []
    try:
        client, welcome = open_table(port, code, None)
        assert welcome["seq"] == 0
        while len(seqs) < 30:
            frame = client.receive_json()
            if frame["type"] == "event":
                seqs.append(frame["seq"])
        server.send_signal(signal.SIGKILL)  # in the middle of the game, without warning
        server.wait(timeout=10)
        try:
            while True:  # what was already on its way
                frame = client.receive_json()
                if frame["type"] == "event":
                    seqs.append(frame["seq"])
        except (WebSocketClosed, OSError):
            client.close()
        killed_at = seqs[-1]
        server = start_site_server(env, port, log)
        client, welcome = open_table(port, code, since=seqs[-1])
        assert welcome["seq"] >= seqs[-1]
        over = False
        while not over:
            frame = client.receive_json()
            if frame["type"] == "event":
                seqs.append(frame["seq"])
                over = frame["code"] == "game_over"
        client.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
    assert seqs == list(range(1, len(seqs) + 1))  # every event once, in order
    assert seqs[-1] > killed_at + 10  # the game went on well after the restart
    end = final_state(stored_record(db, code))
    assert end.over and end.seq == seqs[-1]
