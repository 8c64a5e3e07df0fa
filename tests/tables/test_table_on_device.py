"""A table on one device over the real consumer (docs/protocol.md, "A table on one
device"): one browser session holds the seats of the people around a tablet; its moves
name the seat, only one of its own; its events and errors come in each edge's
language; the players switch the pace; a lost tablet gets a stand-in for every seat."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from games import tables
from games.engine import BotLevel, Options
from games.models import Seat, Table
from games.tables.live_text import seat_labels, told_event
from games.words.texts import reject_text

from .helpers import connect, player, session_new, stacked_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HE_TA = [("Ana", "he"), ("Ravi", "ta")]


async def device_table(people=HE_TA, levels=(), plays=("7H", "7S", "2C", "9D"), **settings):
    """A table on one device opened from the lobby by a new session: ``(code, key)``."""
    key = await session_new()
    settings.setdefault("beat_ms", None)  # people turn (the slow beat: its own test)
    players = len(people) + len(levels)
    code = await database_sync_to_async(tables.table_open_device)(
        session_key=key,
        people=list(people),
        levels=list(levels),
        options=Options(tie_window_ms=150),
        deck=stacked_deck(players, list(plays)),
        **settings,
    )
    return code, key


async def tablet(code: str, key: str | None = None, lang: str = "en"):
    """A tablet's connection (a new session unless ``key``), welcomed."""
    key = key or await session_new()
    client = await connect(code, key, {"lang": lang})
    client.session_key = key
    return client


async def next_of(client, kind: str) -> dict:
    """The next frame of type ``kind`` (``seats`` frames of others' joins may come first)."""
    while True:
        frame = await client.recv()
        if frame["type"] == kind:
            return frame


async def device_class(players: int = 4, **settings) -> tuple[str, object]:
    teacher_key = await session_new()
    code = await database_sync_to_async(tables.table_open_class)(
        session_key=teacher_key,
        class_name="4B",
        players=players,
        on_device=True,
        **settings,
    )
    teacher = await connect(code, teacher_key)
    teacher.session_key = teacher_key
    return code, teacher


def seat_rows(code: str) -> list[tuple]:
    return list(
        Seat.objects.filter(table__code=code)
        .order_by("number")
        .values_list("number", "session_key", "display_name", "lang")
    )


async def test_the_welcome_gives_the_device_session_every_seat_it_holds_with_their_languages():
    code, key = await device_table(levels=[BotLevel.BEGINNER])
    pad = await tablet(code, key)
    welcome = pad.welcome
    assert welcome["device"] is True
    assert welcome["my_seats"] == [0, 1]
    assert welcome["seat"] == 0 and welcome["view"]["me"] == 0
    assert [s["lang"] for s in welcome["seats"]] == ["he", "ta", ""]
    assert [s["name"] for s in welcome["seats"]] == ["Ana", "Ravi", ""]
    assert welcome["started"] is True
    watcher = await tablet(code)
    assert watcher.welcome["device"] is True and watcher.welcome["my_seats"] == []
    assert watcher.welcome["seat"] is None


async def test_a_table_on_one_device_turns_the_cards_at_the_slow_beat_by_default():
    key = await session_new()
    code = await database_sync_to_async(tables.table_open_device)(session_key=key, people=HE_TA)
    pad = await tablet(code, key)
    assert pad.welcome["pace"] == {"turn_timer_ms": None, "beat_ms": 3000}
    assert await database_sync_to_async(lambda: Table.objects.get(code=code).beat_ms)() == 3000


async def test_moves_name_the_seat_and_act_for_that_seat_only():
    code, key = await device_table()
    pad = await tablet(code, key)
    await pad.send(type="turn", seat=0)
    turned = (await pad.until("card_turned"))[-1]
    assert turned["params"] == {"seat": 0, "card": "7H"}
    await pad.send(type="turn", seat=1)
    turned = (await pad.until("card_turned"))[-1]
    assert turned["params"] == {"seat": 1, "card": "7S"}
    await pad.send(type="snap", seat=1, seen=turned["seq"])
    opened = (await pad.until("race_opened"))[-1]
    assert opened["params"]["seat"] == 1
    won = (await pad.until("piles_won"))[-1]
    assert won["params"]["winner"] == 1


async def test_a_session_cannot_name_a_seat_it_was_not_given():
    code, teacher = await device_class(players=4)
    first, second = await tablet(code), await tablet(code)
    await first.send(type="join", players=[{"name": "Ana", "lang": "he"}, {"name": "Ben"}])
    assert (await first.recv())["my_seats"] == [0, 1]
    await second.send(type="join", players=[{"name": "Chen", "lang": "en"}, {"name": "Dev"}])
    assert (await next_of(second, "welcome"))["my_seats"] == [2, 3]
    await teacher.send(type="start")
    for client in (first, second, teacher):
        await next_of(client, "welcome")  # the start's control, then a new welcome
    for named in (2, 3, 11):  # the other tablet's seats, a seat the table does not have
        await first.send(type="turn", seat=named)
        refused = await first.error()
        assert refused["code"] == "not_your_seat" and refused["seat"] == named
    await first.send(type="turn")  # holding two seats, a move must say which
    assert (await first.error())["code"] == "not_your_seat"
    watcher = await tablet(code)
    await watcher.send(type="turn", seat=0)
    assert (await watcher.error())["code"] == "not_your_seat"
    assert await second.nothing() and await teacher.nothing()
    await first.send(type="hello")
    welcome = await next_of(first, "welcome")
    assert welcome["seq"] == 0  # nothing was played
    to_play = welcome["view"]["to_play"]
    mover, other = (first, second) if to_play in (0, 1) else (second, first)
    await mover.send(type="turn", seat=to_play)  # its own seat: taken
    assert (await other.until("card_turned"))[-1]["params"]["seat"] == to_play


async def test_a_seat_field_is_still_refused_at_a_table_not_on_one_device():
    code = await database_sync_to_async(tables.table_create)(players=2)
    ana = await player(code, "Ana")
    await player(code, "Ben")
    assert (await ana.recv())["type"] == "seats"
    await ana.send(type="turn", seat=0)  # her own seat, but this table is not on one device
    refused = await ana.error()
    assert refused["code"] == "not_your_seat" and "seat" not in refused


async def test_an_error_carries_the_seat_and_is_told_in_that_seats_language():
    code, key = await device_table()
    pad = await tablet(code, key, lang="en")
    await pad.send(type="turn", seat=1)  # Ravi (Tamil) out of turn
    refused = await pad.error()
    assert refused["code"] == "not_your_turn" and refused["seat"] == 1
    with translation.override("ta"):
        assert refused["message"] == reject_text("not_your_turn")
    await pad.send(type="turn", seat=0)
    await pad.until("card_turned")
    await pad.send(type="turn", seat=0)  # Ana (Hebrew) out of turn
    refused = await pad.error()
    with translation.override("he"):
        assert refused["seat"] == 0 and refused["message"] == reject_text("not_your_turn")


async def test_every_event_is_told_in_each_language_of_the_seats_held():
    code, key = await device_table()
    pad = await tablet(code, key, lang="hr")
    watcher = await tablet(code)
    await pad.send(type="turn", seat=0)
    event = (await pad.until("card_turned"))[-1]
    assert set(event["texts"]) == {"he", "ta"}
    labels_of = pad.welcome["seats"]
    for lang in ("he", "ta", "hr"):
        with translation.override(lang):
            told = told_event(event, seat_labels(labels_of))
        assert (event["texts"].get(lang) if lang != "hr" else event["text"]) == told
    assert event["texts"]["he"] != event["texts"]["ta"]
    seen = (await watcher.until("card_turned"))[-1]
    assert "texts" not in seen  # a spectator holds no seat


async def test_the_people_of_one_tablet_join_a_class_table_together():
    code, teacher = await device_class(players=4)
    pad = await tablet(code, lang="en")
    assert pad.welcome["my_seats"] == [] and pad.welcome["device"] is True
    players = [{"name": "Ana", "lang": "he"}, {"name": "Ravi", "lang": "ta"}]
    await pad.send(type="join", players=players)
    welcome = await pad.recv()
    assert welcome["type"] == "welcome" and welcome["my_seats"] == [0, 1]
    assert welcome["seat"] == 0
    assert [(s["name"], s["lang"], s["taken"]) for s in welcome["seats"][:3]] == [
        ("Ana", "he", True),
        ("Ravi", "ta", True),
        ("", "", False),
    ]
    told = await teacher.recv()
    assert told["type"] == "seats" and [s["name"] for s in told["seats"]] == ["Ana", "Ravi", "", ""]
    rows = await database_sync_to_async(seat_rows)(code)
    assert rows[0][1:] == (pad.session_key, "Ana", "he") and rows[1][1:] == (
        pad.session_key,
        "Ravi",
        "ta",
    )


async def test_a_tablet_whose_people_do_not_all_fit_or_have_a_bad_name_seats_nobody():
    code, teacher = await device_class(players=4)
    first = await tablet(code)
    await first.send(type="join", players=[{"name": n} for n in ("Ana", "Ben", "Chen")])
    assert (await next_of(first, "welcome"))["my_seats"] == [0, 1, 2]
    await next_of(first, "seats")
    second = await tablet(code)
    await second.send(type="join", players=[{"name": "Dev"}, {"name": "Eli"}])
    assert (await second.error())["code"] == "table_full"
    assert await first.nothing()  # nobody sat down: no seats frame
    await second.send(type="join", players=[{"name": "Dev"}, {"name": "\u202eEli"}])
    assert (await second.error())["code"] == "bad_name"
    await second.send(type="join", players=[{"name": "Dev", "lang": "xx"}])
    assert (await second.error())["code"] == "bad_message"
    await second.send(type="join", name="Dev", players=[{"name": "Eli"}])
    assert (await second.error())["code"] == "bad_message"
    rows = await database_sync_to_async(seat_rows)(code)
    assert rows[3][1:] == ("", "", "")  # still free
    await first.send(type="join", players=[{"name": "Dev"}, {"name": "Eli"}])
    assert (await first.error())["code"] == "table_full"  # four seats at most, and no room


async def test_players_are_refused_at_a_table_not_on_one_device_and_at_a_full_lobby_device_table():
    plain = await database_sync_to_async(tables.table_create)(players=3)
    someone = await tablet(plain)
    await someone.send(type="join", players=[{"name": "Ana"}, {"name": "Ben"}])
    assert (await someone.error())["code"] == "bad_message"
    code, key = await device_table()
    pad = await tablet(code, key)
    await pad.send(type="join", players=[{"name": "Chen"}])
    assert (await pad.error())["code"] == "table_full"
    assert (await tablet(code, key)).welcome["my_seats"] == [0, 1]


async def test_the_teacher_does_not_sit_down_at_a_tablets_table():
    code, teacher = await device_class(players=2)
    await teacher.send(type="join", players=[{"name": "Ms Tan"}, {"name": "Mr Lee"}])
    assert (await teacher.error())["code"] == "is_teacher"


async def test_the_players_at_one_device_switch_between_the_slow_and_the_steady_beat():
    code, key = await device_table(beat_ms=3000)
    pad = await tablet(code, key)
    watcher = await tablet(code)
    await pad.send(type="pace", beat_ms=1800)
    control = await pad.recv()
    assert control["type"] == "control" and control["code"] == "players_pace"
    assert control["params"] == {"turn_timer_ms": None, "beat_ms": 1800}
    assert control["class"] is None
    assert control["text"] == (
        "The players changed the pace. "
        "\u2068The table turns the cards: one every 1.8 seconds.\u2069"
    )
    assert (await watcher.recv())["code"] == "players_pace"
    await pad.send(type="pace", turn_timer_ms=None, beat_ms=3000)
    assert (await pad.recv())["params"]["beat_ms"] == 3000
    assert (await watcher.recv())["params"]["beat_ms"] == 3000
    for bad in ({"beat_ms": 500}, {"beat_ms": None}, {"turn_timer_ms": 5000, "beat_ms": None}):
        await pad.send(type="pace", **bad)
        assert (await pad.error())["code"] == "bad_message", bad
    await watcher.send(type="pace", beat_ms=1800)
    assert (await watcher.error())["code"] == "not_seated"
    assert (await tablet(code, key)).welcome["pace"] == {"turn_timer_ms": None, "beat_ms": 3000}


async def test_at_a_class_tablets_table_only_the_teacher_sets_the_pace():
    code, teacher = await device_class(players=2, beat_ms=3000)
    pad = await tablet(code)
    await pad.send(type="join", players=[{"name": "Ana"}, {"name": "Ben"}])
    await next_of(pad, "seats")
    await pad.send(type="pace", beat_ms=1800)
    assert (await pad.error())["code"] == "not_teacher"


async def test_a_lost_tablet_gets_a_stand_in_for_every_seat_and_all_come_back_with_it():
    code, key = await device_table(away_after_ms=150)
    pad = await tablet(code, key)
    watcher = await tablet(code)
    await pad.close()
    lost = await watcher.recv()
    assert lost["type"] == "seats" and [s["lost"] for s in lost["seats"]] == [True, True]
    away = []
    deadline = asyncio.get_running_loop().time() + 3
    while not (away and all(away[-1])):
        assert asyncio.get_running_loop().time() < deadline
        frame = await watcher.recv()
        if frame["type"] == "seats":
            away.append([s["away"] for s in frame["seats"]])
    again = await tablet(code, key)
    assert again.welcome["my_seats"] == [0, 1]
    back = None
    deadline = asyncio.get_running_loop().time() + 3
    while back is None or any(s["away"] or s["lost"] for s in back):
        assert asyncio.get_running_loop().time() < deadline
        frame = await watcher.recv()
        if frame["type"] == "seats":
            back = frame["seats"]
    assert [s["label"] for s in back] == ["Ana", "Ravi"]


async def test_a_restarted_tablets_table_keeps_its_people_their_languages_and_its_group():
    code, teacher = await device_class(players=2, device_group="GROUP1")
    pad = await tablet(code)
    await pad.send(type="join", players=[{"name": "Noa", "lang": "he"}, {"name": "Ravi"}])
    await next_of(pad, "seats")
    await teacher.send(type="start")
    await next_of(teacher, "welcome")
    await teacher.send(type="restart")
    restarted = await next_of(teacher, "control")
    new_code = restarted["params"]["code"]
    again = await tablet(new_code, pad.session_key)
    assert again.welcome["device"] is True and again.welcome["my_seats"] == [0, 1]
    assert [s["lang"] for s in again.welcome["seats"]] == ["he", ""]
    row = await database_sync_to_async(
        lambda: Table.objects.values("on_device", "device_group").get(code=new_code)
    )()
    assert row == {"on_device": True, "device_group": "GROUP1"}
