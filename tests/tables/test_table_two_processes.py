"""Two server processes sharing Redis and PostgreSQL (the production shape at scale):
the players of one table on different processes play it to the end; a tablet's lost
connection comes back through the other process; the owning process killed in the
middle of a game, and the game finishes on the other."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import redis_test_url, require
from tests.servers import ROOT, free_port, start_site_server
from tests.snapsite.test_production_services import (  # noqa: F401 (a fixture)
    PG_HOST,
    PG_PORT,
    REDIS_HOST,
    REDIS_PORT,
    postgres_database,
    reachable,
)

from .wsclient import WebSocketClosed, WSClient

pytestmark = [pytest.mark.server, pytest.mark.redis, pytest.mark.postgres]

CREATE = """
from django.contrib.sessions.backends.db import SessionStore
from games import tables
from games.engine import BotLevel, Options
from games.tables import store
keys = []
for _ in range(2):
    session = SessionStore()
    session.create()
    keys.append(session.session_key)
code = tables.table_create(
    players=3, options=Options(tie_window_ms=40, turn_limit=90), seed=5,
    bots={2: BotLevel.QUICK}, bot_time_scale=0.05, away_after_ms=800,
)
store.seat_bind(store.table_id(code), 0, keys[0], "Ana")
store.seat_bind(store.table_id(code), 1, keys[1], "Ben")
teacher = SessionStore()
teacher.create()
lesson = tables.table_open_class(
    session_key=teacher.session_key, class_name="4B", players=3, fill_level=BotLevel.QUICK,
    options=Options(tie_window_ms=40, turn_limit=60), bot_time_scale=0.05,
)
store.seat_bind(store.table_id(lesson), 0, keys[0], "Ana")
store.seat_bind(store.table_id(lesson), 1, keys[1], "Ben")
print(code, *keys, lesson, teacher.session_key)
"""

RECORD = """
import json
from games import tables
from games.engine import final_state
from games.models import TableLease
record = tables.table_record(code="{code}")
end = final_state(record)
fence = TableLease.objects.get(table__code="{code}").fence
print(json.dumps({{"over": end.over, "seq": end.seq, "fence": fence}}))
"""


@pytest.fixture
def two_servers(postgres_database, tmp_path):  # noqa: F811 (the fixture above)
    """Two server processes on two ports, one PostgreSQL database and one Redis."""
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    require(reachable(PG_HOST, PG_PORT), f"PostgreSQL is not running on {PG_HOST}:{PG_PORT}")
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": postgres_database,
        "REDIS_URL": redis_test_url(0, REDIS_HOST, REDIS_PORT),
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(manage + ["migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True)
    made = subprocess.run(
        manage + ["shell", "-c", CREATE], env=env, cwd=ROOT, check=True, capture_output=True
    )
    code, ana_key, ben_key, lesson, teacher_key = made.stdout.decode().split()[-5:]
    log = open(tmp_path / "server.log", "w")
    ports = [free_port(), free_port()]
    servers = [start_site_server(env, port, log) for port in ports]

    def record() -> dict:
        import json

        out = subprocess.run(
            manage + ["shell", "-c", RECORD.format(code=code)],
            env=env, cwd=ROOT, check=True, capture_output=True,
        )  # fmt: skip
        return json.loads(out.stdout.decode().strip().splitlines()[-1])

    def record_of(table: str) -> dict:
        nonlocal code
        kept, code = code, table
        try:
            return record()
        finally:
            code = kept

    yield {
        "code": code,
        "keys": [ana_key, ben_key],
        "ports": ports,
        "servers": servers,
        "record": record,
        "record_of": record_of,
        "lesson": lesson,
        "teacher_key": teacher_key,
    }
    for server in servers:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
    log.close()


#: A tablet whose turn it is taps again after this long without news.
TAP_AGAIN_S = 1.0


class Tablet:
    """A player's tablet on one server: turns its card when it is its turn (again after
    :data:`TAP_AGAIN_S` without news, as a child does) and keeps every event number it
    was sent, until the game is over (in a thread of its own)."""

    def __init__(self, port: int, code: str, key: str, seat: int) -> None:
        self.code, self.key, self.seat = code, key, seat
        self.seqs: list[int] = []
        self.welcomed_at: int | None = None  # the seq of the first welcome
        self.last_frames: list[dict] = []  # told when something goes wrong
        self._turned_at: int | None = None  # the seq of the view it last turned on
        self.over = False
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connect(port)

    def connect(self, port: int) -> None:
        self.client = WSClient(
            "127.0.0.1", port, f"/ws/play/{self.code}/",
            origin=f"http://127.0.0.1:{port}", cookie=f"sessionid={self.key}", timeout=20,
        )  # fmt: skip
        self._turned_at = None  # a new connection: its turn may not have arrived
        since = self.seqs[-1] if self.seqs else None
        self.client.send_json(
            {"type": "hello"} if since is None else {"type": "hello", "since": since}
        )
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._stop.clear()
        self._thread.start()

    def drop(self) -> None:
        """The connection is lost (the tablet left the classroom's Wi-Fi)."""
        self._stop.set()
        self.client.close()
        self._thread.join(timeout=10)
        self.error = None  # a server that died closed the old connection: expected

    def _pending(self) -> bool:
        """More frames already waiting on the socket (unread)."""
        return bool(select.select([self.client.sock], [], [], 0)[0])

    def _waiting(self, seconds: float) -> bool:
        """Nothing came for ``seconds``."""
        return not select.select([self.client.sock], [], [], seconds)[0]

    def _run(self) -> None:
        shown: dict | None = None  # the newest view shown
        try:
            while not self._stop.is_set() and not self.over:
                if self._waiting(TAP_AGAIN_S):
                    # its turn and nothing happened (the move was dropped over the frame
                    # rate: only the first drop of a flood is told): tapped again
                    if shown and shown.get("to_play") == self.seat and not shown.get("over"):
                        self.client.send_json({"type": "turn"})
                    continue
                frame = self.client.receive_json()
                self.last_frames = [*self.last_frames[-4:], frame]
                if frame["type"] in ("welcome", "error"):  # a new screen, or a refused turn
                    self._turned_at = None
                if frame["type"] == "welcome":
                    assert frame["seat"] == self.seat, frame
                    if self.welcomed_at is None:
                        self.welcomed_at = frame["seq"]
                if frame["type"] == "event":
                    self.seqs.append(frame["seq"])
                    self.over = frame["code"] == "game_over"
                view = frame.get("view")
                shown = view or shown
                if self._pending():
                    continue  # a catch-up: act on the newest view only, as a page does
                if view and view.get("to_play") == self.seat and not view.get("over"):
                    if view.get("seq") != self._turned_at:  # once per screen shown
                        self._turned_at = view.get("seq")
                        self.client.send_json({"type": "turn"})
        except (WebSocketClosed, OSError) as error:
            if not self._stop.is_set():
                self.error = error
        except BaseException as error:  # an assertion in the thread: the test reports it
            self.error = error

    def wait_for(self, condition, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not condition() and time.monotonic() < deadline:
            if self.error is not None:
                raise AssertionError(
                    f"seat {self.seat}: {self.error!r} after {self.last_frames[-2:]}"
                )
            time.sleep(0.05)
        assert condition(), f"seat {self.seat}: timed out at {self.seqs[-1:]}"


def assert_every_event_once(tablet: Tablet, last: int) -> None:
    """Every event after the tablet's first welcome, once and in order, to the last."""
    assert tablet.seqs == list(range(tablet.welcomed_at + 1, last + 1))


def test_players_on_two_processes_play_to_the_end_and_a_lost_tablet_comes_back_through_the_other(
    two_servers,
):
    code, (ana_key, ben_key), (port_a, port_b) = (
        two_servers["code"], two_servers["keys"], two_servers["ports"],
    )  # fmt: skip
    ana = Tablet(port_a, code, ana_key, seat=0)  # the first connection: process A owns it
    ben = Tablet(port_b, code, ben_key, seat=1)
    ben.wait_for(lambda: len(ben.seqs) >= 15, timeout=60)
    ben.drop()  # a few seconds without a connection (a stand-in plays meanwhile)
    time.sleep(2)
    ben.connect(port_a)  # back through the other process, with the last event it saw
    for tablet in (ana, ben):
        tablet.wait_for(lambda t=tablet: t.over, timeout=120)
    end = two_servers["record"]()
    assert end["over"] and end["fence"] == 1  # one owner from the first move to the last
    assert_every_event_once(ana, end["seq"])
    assert_every_event_once(ben, end["seq"])  # every missed event once, in order


def test_the_owning_process_killed_mid_game_and_the_game_finishes_on_the_other(two_servers):
    code, (ana_key, ben_key), (port_a, port_b) = (
        two_servers["code"], two_servers["keys"], two_servers["ports"],
    )  # fmt: skip
    owner_server = two_servers["servers"][0]
    ana = Tablet(port_a, code, ana_key, seat=0)  # process A takes the table
    time.sleep(0.5)
    ben = Tablet(port_b, code, ben_key, seat=1)
    ben.wait_for(lambda: len(ben.seqs) >= 20, timeout=60)
    owner_server.send_signal(signal.SIGKILL)  # without warning, in the middle of the game
    owner_server.wait(timeout=10)
    killed_at = ben.seqs[-1]
    ana.drop()
    ana.connect(port_b)  # Ana's tablet finds the other process
    for tablet in (ana, ben):
        tablet.wait_for(lambda t=tablet: t.over, timeout=120)
    end = two_servers["record"]()
    assert end["over"] and end["seq"] > killed_at + 10  # it went on well after the kill
    assert end["fence"] == 2  # taken over once, by the process that was left
    assert_every_event_once(ben, end["seq"])
    assert_every_event_once(ana, end["seq"])


def test_a_class_table_started_by_the_teacher_on_one_process_is_played_on_both(two_servers):
    lesson, (ana_key, ben_key), (port_a, port_b) = (
        two_servers["lesson"], two_servers["keys"], two_servers["ports"],
    )  # fmt: skip
    ana = Tablet(port_a, lesson, ana_key, seat=0)  # process A takes the class table
    time.sleep(0.5)
    ben = Tablet(port_b, lesson, ben_key, seat=1)
    teacher = WSClient(
        "127.0.0.1", port_b, f"/ws/play/{lesson}/", origin=f"http://127.0.0.1:{port_b}",
        cookie=f"sessionid={two_servers['teacher_key']}",
    )  # fmt: skip
    teacher.send_json({"type": "hello"})
    assert teacher.receive_json()["class"]["teacher"] is True
    teacher.send_json({"type": "start"})  # forwarded from process B to the owner, A
    frame = teacher.receive_json()
    while frame["type"] != "control":
        frame = teacher.receive_json()
    assert frame["code"] == "started", frame
    for tablet in (ana, ben):
        tablet.wait_for(lambda t=tablet: t.over, timeout=120)
    teacher.close()
    end = two_servers["record_of"](lesson)
    assert end["over"] and end["fence"] == 1
    assert_every_event_once(ana, end["seq"])
    assert_every_event_once(ben, end["seq"])
