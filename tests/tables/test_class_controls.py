"""A class table's teacher controls over the WebSocket: only the teacher's browser may
use them; start, pause and resume, pace, computer players, removing a player,
restarting with the same students, and a server restart that keeps the pause."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.engine import BotLevel, Options
from games.models import Seat, Table, TableControl
from games.tables.protocol import walkthrough_slugs

from .helpers import connect, player, session_new, stacked_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FAST = {"bot_time_scale": 0.01}
#: Every control, as a teacher's page sends it (seat 0 is a student, seat 1 free).
CONTROL_MESSAGES = [
    {"type": "start"},
    {"type": "pause"},
    {"type": "resume"},
    {"type": "pace", "turn_timer_ms": None, "beat_ms": 1800},
    {"type": "add_bot", "seat": 1, "level": "quick"},
    {"type": "remove_bot", "seat": 1},
    {"type": "remove_player", "seat": 0},
    {"type": "restart"},
]


async def open_class(players: int = 3, fill: BotLevel | None = None, **settings) -> tuple:
    """A class table and its teacher's connection (the teacher's own session)."""
    key = await session_new()
    code = await database_sync_to_async(tables.table_open_class)(
        session_key=key, class_name="Class 4B", players=players, fill_level=fill, **settings
    )
    teacher = await connect(code, key)
    teacher.session_key = key
    return code, teacher


async def started_class_of_two(plays: list[str], options: Options) -> tuple:
    """A class table of two whose first turned cards are ``plays`` (a stacked deal),
    Ana and Ben seated, started by the teacher: ``(code, teacher, ana, ben)``."""
    code, teacher = await open_class(players=2, options=options)
    await database_sync_to_async(
        lambda: Table.objects.filter(code=code).update(
            deck=[c.code for c in stacked_deck(2, plays)], dealer=1
        )
    )()
    tables.registry_drop()  # the owner is rebuilt from storage, with the stacked deal
    ana, ben = await player(code, "Ana"), await player(code, "Ben")
    await control(teacher, type="start")
    return code, teacher, ana, ben


async def until_type(client, kind: str, timeout: float = 5) -> dict:
    """Receive frames until one of type ``kind``; return it."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"no {kind} frame; got {[f['type'] for f in client.frames[-8:]]}"
        frame = await client.recv(timeout=left)
        if frame["type"] == kind:
            return frame


async def until_control(client, code: str, timeout: float = 5) -> dict:
    """Receive frames until the ``control`` frame of ``code``; return it."""
    while True:
        frame = await until_type(client, "control", timeout)
        if frame["code"] == code:
            return frame


async def control(teacher, **message) -> dict:
    """The teacher sends a control; the ``control`` frame that answers it."""
    await teacher.send(**message)
    frame = await until_type(teacher, "control")
    return frame


@database_sync_to_async
def table_row(code: str) -> dict:
    table = Table.objects.get(code=code)
    return {
        "started": table.teacher_started,
        "paused": table.paused,
        "pace": (table.turn_timer_ms, table.beat_ms),
        "players": table.players,
        "next": table.next_code,
        "controls": TableControl.objects.filter(table=table).count(),
        "seats": [
            (s.number, s.display_name, s.is_bot, s.bot_level, s.session_key)
            for s in Seat.objects.filter(table=table).order_by("number")
        ],
        "events": table.events.count(),
    }


async def test_every_control_is_refused_for_a_student_and_a_spectator_and_changes_nothing():
    code, teacher = await open_class(players=3)
    ana = await player(code, "Ana")
    await until_type(teacher, "seats")
    watcher = await connect(code)
    before = await table_row(code)
    for client in (ana, watcher):
        for message in CONTROL_MESSAGES:
            await client.send(**message)
            error = await client.error()
            assert error["code"] == "not_teacher", (message, error)
            assert error["message"] == "Only the teacher of this class can do that."
    assert await table_row(code) == before
    assert await teacher.nothing() and await watcher.nothing()


async def test_nobody_is_the_teacher_of_a_table_opened_from_the_lobby():
    key = await session_new()
    code = await database_sync_to_async(tables.table_open)(
        session_key=key, name="Ana", players=2, options=Options()
    )
    opener = await connect(code, key)
    assert opener.welcome["class"] is None
    for message in CONTROL_MESSAGES[1:]:  # "start" is the opener's (test_opener_start.py)
        await opener.send(**message)
        assert (await opener.error())["code"] == "not_teacher"


async def test_the_teacher_does_not_sit_down_and_the_class_waits_for_the_start():
    code, teacher = await open_class(players=2)
    assert teacher.welcome["seat"] is None and teacher.welcome["started"] is False
    assert teacher.welcome["class"] == {
        "name": "Class 4B",
        "teacher": True,
        "started": False,
        "paused": False,
        "pausing": False,
        "next_code": None,
        "fill_level": None,
        "controls": 0,
        "done": [[], []],
    }
    await teacher.send(type="join", name="Teacher")
    assert (await teacher.error())["code"] == "is_teacher"
    ana, ben = await player(code, "Ana"), await player(code, "Ben")
    assert ben.welcome["started"] is False  # every seat taken, and still waiting
    assert ben.welcome["class"]["teacher"] is False and "done" not in ben.welcome["class"]
    mover = ana if ana.welcome["view"]["to_play"] == ana.welcome["seat"] else ben
    await mover.send(type="turn")
    assert (await until_type(mover, "error"))["code"] == "not_started"
    started = await control(teacher, type="start")
    assert (started["code"], started["number"], started["class"]["started"]) == (
        "started",
        1,
        True,
    )
    assert started["text"] == "The teacher started the game."
    for client in (ana, ben):
        assert (await until_type(client, "control"))["code"] == "started"
        assert (await until_type(client, "welcome"))["started"] is True
    await mover.send(type="turn")
    assert (await mover.until("card_turned"))[-1]["params"]["seat"] == mover.welcome["seat"]
    await teacher.send(type="start")
    assert (await until_type(teacher, "error"))["code"] == "not_now"


async def test_at_the_start_free_seats_get_computer_players_of_the_chosen_level():
    code, teacher = await open_class(players=4, fill=BotLevel.QUICK, turn_timer_ms=200, **FAST)
    await player(code, "Ana")
    await until_type(teacher, "seats")
    await control(teacher, type="start")
    welcome = await until_type(teacher, "welcome")
    assert [(s["name"], s["bot"], s["level"]) for s in welcome["seats"]] == [
        ("Ana", False, None),
        ("", True, "quick"),
        ("", True, "quick"),
        ("", True, "quick"),
    ]
    events: list[dict] = []  # the computer players play their turns (Ana's: the turn timer)
    while not any(e["code"] == "card_turned" and e["params"]["seat"] == 3 for e in events):
        events += await teacher.until("card_turned", timeout=10)


async def test_without_computer_players_the_table_shrinks_to_the_students_at_the_start():
    code, teacher = await open_class(players=5)
    lone = await player(code, "Ana")
    await teacher.send(type="start")
    assert (await until_type(teacher, "error"))["code"] == "too_few_players"
    ben = await player(code, "Ben")
    await control(teacher, type="start")
    for client in (lone, ben):
        welcome = await until_type(client, "welcome")
        assert [s["name"] for s in welcome["seats"]] == ["Ana", "Ben"]
        assert welcome["view"]["face_down_counts"] == [26, 26]
    row = await table_row(code)
    assert row["players"] == 2 and [s[1] for s in row["seats"]] == ["Ana", "Ben"]
    record = await database_sync_to_async(tables.table_record)(code=code)
    assert record.players == 2 and len(record.deck) == 52


async def test_pause_stops_every_timer_and_refuses_moves_and_resume_goes_on():
    code, teacher = await open_class(
        players=4, fill=BotLevel.QUICK, turn_timer_ms=300, options=Options(tie_window_ms=20), **FAST
    )
    ana, ben = await player(code, "Ana"), await player(code, "Ben")
    await control(teacher, type="start")
    await teacher.until("card_turned", timeout=10)  # timers and computer players at work
    paused = await control(teacher, type="pause")  # during a race: when it has closed
    assert paused["code"] == "paused" and paused["class"]["paused"] is True
    for client in (ana, ben):
        await until_type(client, "control")
    for client in (ana, ben, teacher):  # what was on its way before the pause
        while not await client.nothing(timeout=0.3):
            await client.recv()
    events_at_pause = (await table_row(code))["events"]
    await asyncio.sleep(1.2)  # four turn timers' worth, and many computer players' moves
    assert (await table_row(code))["events"] == events_at_pause
    for client in (ana, ben):
        for move in ({"type": "turn"}, {"type": "snap", "seen": 1}):
            await client.send(**move)
            error = await client.error()
            assert error["code"] == "paused"
            assert error["message"] == "The teacher has paused the game. Wait until it goes on."
    assert await teacher.nothing(timeout=0.3)
    resumed = await control(teacher, type="resume")
    assert resumed["code"] == "resumed" and resumed["class"]["paused"] is False
    await teacher.until("card_turned", timeout=10)
    assert (await table_row(code))["events"] > events_at_pause


async def test_a_pause_asked_during_a_race_waits_for_the_race_to_close():
    # a stacked deal: the first two cards turned are a pair of sevens
    code, teacher, ana, ben = await started_class_of_two(
        ["7H", "7S", "2C", "9D"], Options(tie_window_ms=400)
    )
    await ana.send(type="turn")
    await ben.until("card_turned")
    await ben.send(type="turn")
    await ana.until("card_turned")
    await ana.until("card_turned")
    await ana.send(type="snap", seen=2)
    await ben.until("race_opened")
    await teacher.send(type="pause")
    pausing = await until_type(teacher, "class")
    assert pausing["class"]["pausing"] is True and pausing["class"]["paused"] is False
    await ben.send(type="snap", seen=3)  # in the tie window: it still counts
    events = await ben.until("tie_to_pot", timeout=3)
    assert "call_joined" in [e["code"] for e in events]
    paused = await until_type(ben, "control")
    assert paused["code"] == "paused" and paused["class"]["pausing"] is False
    await ana.send(type="turn")
    assert (await until_type(ana, "error"))["code"] == "paused"


async def test_the_teacher_changes_the_pace_to_a_steady_beat():
    code, teacher = await open_class(players=2)
    ana = await player(code, "Ana")
    await player(code, "Ben")
    await control(teacher, type="start")
    changed = await control(teacher, type="pace", turn_timer_ms=None, beat_ms=500)
    assert changed["params"] == {"turn_timer_ms": None, "beat_ms": 500}
    assert changed["text"] == (
        "The teacher changed the pace. "
        "\u2068The table turns the cards: one every 0.5 seconds.\u2069"
    )
    assert (await table_row(code))["pace"] == (None, 500)
    await ana.send(type="turn")
    assert (await until_type(ana, "error"))["code"] == "table_turns"
    turned = await teacher.until("card_turned", timeout=3)  # the table turns them itself
    assert turned[-1]["params"]["seat"] in (0, 1)
    await teacher.send(type="pace", turn_timer_ms=1000, beat_ms=500)
    assert (await until_type(teacher, "error"))["code"] == "bad_message"


async def test_computer_players_are_added_and_removed_before_the_start_and_while_paused():
    code, teacher = await open_class(players=3, **FAST)
    await player(code, "Ana")
    added = await control(teacher, type="add_bot", seat=1, level="beginner")
    assert added["params"] == {"seat": 1, "level": "beginner"}
    assert added["text"] == "A computer player sits down at seat 2."
    welcome = await until_type(teacher, "welcome")
    assert [(s["bot"], s["level"]) for s in welcome["seats"]] == [
        (False, None),
        (True, "beginner"),
        (False, None),
    ]
    for bad in ({"type": "add_bot", "seat": 0}, {"type": "remove_bot", "seat": 2}):
        await teacher.send(**bad)
        assert (await until_type(teacher, "error"))["code"] == "bad_seat"
    await control(teacher, type="remove_bot", seat=1)
    assert not (await until_type(teacher, "welcome"))["seats"][1]["taken"]
    await control(teacher, type="add_bot", seat=2)
    await player(code, "Ben")  # the free seat 1
    await control(teacher, type="start")
    await teacher.send(type="add_bot", seat=2)
    assert (await until_type(teacher, "error"))["code"] == "not_now"
    await control(teacher, type="pause")
    await control(teacher, type="remove_bot", seat=2)
    late = await player(code, "Cleo")  # a late student takes the freed seat
    assert late.welcome["seat"] == 2 and late.welcome["class"]["paused"] is True
    await control(teacher, type="resume")
    row = await table_row(code)
    assert [s[1:3] for s in row["seats"]] == [("Ana", False), ("Ben", False), ("Cleo", False)]


async def test_a_seat_still_free_at_resume_gets_a_computer_player():
    code, teacher = await open_class(players=3, fill=BotLevel.STEADY, **FAST)
    await player(code, "Ana")
    await player(code, "Ben")
    await control(teacher, type="start")
    await control(teacher, type="pause")
    await control(teacher, type="remove_bot", seat=2)
    resumed = await control(teacher, type="resume")
    assert resumed["params"] == {"filled": [2]}
    assert (await table_row(code))["seats"][2][2:4] == (True, "steady")


async def test_a_removed_player_watches_and_a_computer_player_takes_the_seat_in_a_game():
    code, teacher = await open_class(players=3, turn_timer_ms=200, **FAST)
    await player(code, "Ana")
    ben = await player(code, "Ben")
    removed = await control(teacher, type="remove_player", seat=1)
    assert removed["params"] == {"seat": 1, "name": "Ben", "replaced": False}
    assert removed["text"] == "\u2068Ben\u2069 leaves the table."
    assert (await until_type(ben, "welcome"))["seat"] is None  # Ben watches now
    await player(code, "Ben")  # and may sit down again before the start
    cleo = await player(code, "Cleo")
    await control(teacher, type="start")
    removed = await control(teacher, type="remove_player", seat=2)
    assert removed["params"]["replaced"] is True
    assert removed["text"] == (
        "\u2068Cleo\u2069 leaves the game. A computer player plays in their place."
    )
    await until_control(cleo, "player_removed")
    welcome = await until_type(cleo, "welcome")
    assert welcome["seat"] is None and welcome["seats"][2]["bot"] is True
    await cleo.send(type="turn")
    assert (await until_type(cleo, "error"))["code"] == "not_seated"
    row = await table_row(code)
    assert row["seats"][2][1:] == ("", True, "steady", "")  # no name, no session kept
    events: list[dict] = []  # the turn timer turns Ana's and Ben's cards; seat 2 plays its own
    while not any(e["code"] == "card_turned" and e["params"]["seat"] == 2 for e in events):
        events += await teacher.until("card_turned", timeout=10)


async def test_restart_opens_a_new_table_with_the_same_students_in_the_same_seats():
    code, teacher = await open_class(players=3, fill=BotLevel.QUICK, turn_timer_ms=200, **FAST)
    ana, ben = await player(code, "Ana"), await player(code, "Ben")
    await control(teacher, type="start")
    await teacher.until("card_turned", timeout=10)
    restarted = await control(teacher, type="restart")
    new_code = restarted["params"]["code"]
    assert new_code != code and restarted["class"]["next_code"] == new_code
    assert restarted["text"] == f"The teacher started a new game at table \u2068{new_code}\u2069."
    for client in (ana, ben):
        assert (await until_control(client, "restarted"))["params"]["code"] == new_code
    await ana.send(type="turn")
    assert (await until_type(ana, "error"))["code"] == "restarted"
    late = await connect(code)  # a page that comes later is told where the class went
    assert late.welcome["class"]["next_code"] == new_code
    for client in (ana, ben):
        again = await connect(new_code, client.session_key)
        assert again.welcome["seat"] == client.welcome["seat"]
        assert again.welcome["started"] is False
    new_teacher = await connect(new_code, teacher.session_key)
    assert new_teacher.welcome["class"]["teacher"] is True
    new_row, old_row = await table_row(new_code), await table_row(code)
    assert [s[1:] for s in new_row["seats"]] == [s[1:] for s in old_row["seats"]]
    assert new_row["events"] == 0 and old_row["next"] == new_code
    await control(new_teacher, type="start")


async def test_a_server_restart_keeps_the_class_paused():
    code, teacher = await open_class(
        players=3, fill=BotLevel.QUICK, turn_timer_ms=300, options=Options(tie_window_ms=20), **FAST
    )
    ana = await player(code, "Ana")
    await control(teacher, type="start")
    await control(teacher, type="pace", turn_timer_ms=2000, beat_ms=None)
    await control(teacher, type="pause")
    tables.registry_drop()  # the process "restarts"
    await asyncio.sleep(0.1)
    events_at_pause = (await table_row(code))["events"]
    again = await connect(code, ana.session_key)  # rebuilds the owner from storage
    assert again.welcome["class"]["paused"] is True and again.welcome["class"]["controls"] == 3
    assert again.welcome["pace"] == {"turn_timer_ms": 2000, "beat_ms": None}
    await again.send(type="turn")
    assert (await again.error())["code"] == "paused"
    await asyncio.sleep(0.8)  # a rebuilt owner runs no timer while paused
    assert (await table_row(code))["events"] == events_at_pause
    teacher_again = await connect(code, teacher.session_key)
    resumed = await control(teacher_again, type="resume")
    assert resumed["number"] == 4
    await teacher_again.until("card_turned", timeout=10)


async def test_students_done_marks_reach_the_teacher_only():
    code, teacher = await open_class(players=2)
    ana = await player(code, "Ana")
    watcher = await connect(code)
    slugs = list(walkthrough_slugs())
    await ana.send(type="done", walkthroughs=[slugs[2], slugs[0]])
    progress = await until_type(teacher, "progress")
    assert progress == {"type": "progress", "seat": 0, "done": [slugs[0], slugs[2]]}
    await ana.send(type="done", walkthroughs=["no-such-walkthrough"])
    assert (await until_type(ana, "error"))["code"] == "bad_message"
    await watcher.send(type="done", walkthroughs=[slugs[1]])
    assert (await watcher.error())["code"] == "not_seated"
    assert await watcher.nothing() and await ana.nothing()
    teacher_again = await connect(code, teacher.session_key)
    assert teacher_again.welcome["class"]["done"] == [[slugs[0], slugs[2]], []]


async def test_a_student_cannot_be_removed_from_a_finished_game_whose_replay_keeps_the_name():
    code, teacher, ana, ben = await started_class_of_two(
        ["7H", "8S", "2C", "9D"], Options(turn_limit=2)
    )
    await ana.send(type="turn")
    await ben.until("card_turned")
    await ben.send(type="turn")
    await teacher.until("game_over")
    before = await table_row(code)
    await teacher.send(type="remove_player", seat=0)
    assert (await until_type(teacher, "error"))["code"] == "not_now"
    assert await table_row(code) == before  # Ana's name stays with the finished game
    late = await connect(code, await session_new())  # nobody can take her seat afterwards
    await late.send(type="join", name="Zed")
    assert (await late.error())["code"] == "table_full"


async def test_the_class_lesson_done_reaches_the_teacher_and_no_other_lesson_counts():
    code, teacher = await open_class(players=2)
    await database_sync_to_async(tables.class_lesson_assign)(code=code, lesson="ACEFHJ")
    ana = await player(code, "Ana")
    slugs = list(walkthrough_slugs())
    await ana.send(type="done", walkthroughs=["lesson:KMNPRT", slugs[0]])  # not this class's
    progress = await until_type(teacher, "progress")
    assert progress["done"] == [slugs[0]]
    await ana.send(type="done", walkthroughs=["lesson:ACEFHJ"])
    progress = await until_type(teacher, "progress")
    assert progress["done"] == [slugs[0], "lesson:ACEFHJ"]
    await ana.send(type="done", walkthroughs=["lesson:<b>"])
    assert (await until_type(ana, "error"))["code"] == "bad_message"
