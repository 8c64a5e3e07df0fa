"""A computer player standing in for a person whose connection was lost: the stored
steps say so, and the replay, the lesson and a catch-up name it "Computer for
Ben" for those steps, as the live table did, never Ben (games/tables/stand_in.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client as PageClient
from django.utils import translation
from django.utils.translation import gettext

from games import tables
from games.engine import Options
from games.models import TableAction, TableEvent
from games.words.texts import isolate
from tests.conftest import LANGUAGE_CODES
from tests.replay.replay_helpers import page_frames
from tests.tables.helpers import connect, player, stacked_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

#: No two cards match: Ana 7H, Ben 8S (Ben there), then Ben's connection is lost and
#: the stand-in turns 9D and JS for him; the sixth card ends the game (turn limit).
PLAYS = ["7H", "8S", "2C", "9D", "4H", "JS"]
#: The computer players' dice: with this seed the stand-in makes no wrong call here.
SEED = 1


def stand_in_label(name: str) -> str:
    return gettext("Computer for %(name)s") % {"name": isolate(name)}


async def game_with_a_stand_in() -> tuple[str, object]:
    """Ana and Ben turn a card each; Ben's connection is lost; a computer player turns
    Ben's next two cards; the game is over after six cards. Returns the code and Ben."""
    code = await database_sync_to_async(tables.table_create)(
        players=2,
        options=Options(turn_limit=len(PLAYS)),
        deck=stacked_deck(2, PLAYS),
        seed=SEED,
        away_after_ms=100,
        bot_time_scale=0.01,
    )
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    await ana.send(type="turn")
    await ben.until("card_turned")
    await ben.send(type="turn")
    await ana.until("card_turned")
    await ana.until("card_turned")
    await ben.close()
    while True:  # told at once that Ben's connection is lost, then the stand-in
        frame = await ana.recv(timeout=2)
        if frame["type"] == "seats" and frame["seats"][1]["away"]:
            break
    for _turn in range(2):
        await ana.send(type="turn")
        stood_in = (await ana.until("card_turned"))[-1]
        assert stood_in["params"]["seat"] == 0
        stood_in = (await ana.until("card_turned"))[-1]
        assert stood_in["params"]["seat"] == 1  # the stand-in turned Ben's card
        assert stood_in["stand_in_for"] == [1]  # sent as stored (docs/protocol.md)
        assert stood_in["text"].startswith(isolate(stand_in_label("Ben")) + " ")
    await ana.until("game_over")
    await ana.close()
    return code, ben


def stored(code: str) -> tuple[list[dict], list[dict]]:
    actions = TableAction.objects.filter(table__code=code).order_by("index")
    events = TableEvent.objects.filter(table__code=code).order_by("seq")
    return [a.data for a in actions], [e.data for e in events]


async def test_the_stand_ins_moves_are_stored_marked_and_replayed_as_computer_for_ben():
    code, ben = await game_with_a_stand_in()
    actions, events = await database_sync_to_async(stored)(code)
    # the two turns made while Ben was there carry no mark; the other four do
    assert ["stand_in_for" in a for a in actions] == [False, False, True, True, True, True]
    assert all(a["stand_in_for"] == [1] for a in actions[2:])
    turned = [e for e in events if e["code"] == "card_turned"]
    assert [e.get("stand_in_for") for e in turned] == [None, None, [1], [1], [1], [1]]
    assert events[-1]["code"] == "game_over" and events[-1]["stand_in_for"] == [1]

    # Ben comes back after the game: the catch-up tells the stand-in's turns as its own
    back = await connect(code, ben.session_key, hello={"since": 0})
    caught_up = [f for f in back.frames if f["type"] == "event"]
    while len(caught_up) < len(events):
        caught_up.append(await back.recv())
    texts = [f["text"] for f in caught_up if f["code"] == "card_turned"]
    assert texts[1].startswith("\u2068Ben\u2069 turns")  # Ben's own turn, before
    assert texts[3].startswith(isolate(stand_in_label("Ben")) + " turns")
    assert all("\u2068Ben\u2069 turns" not in t for t in texts[2:])
    await back.close()

    pages = await database_sync_to_async(replay_pages)(code)
    for lang, (replay_html, lesson_html) in pages.items():
        with translation.override(lang):
            computer_for_ben = stand_in_label("Ben")
        for html in (replay_html, lesson_html):
            frames = page_frames(html)
            # frame 1 is the deal; frames 2-3 the turns made while Ben was there; then
            # Ana's turns (4, 6) and the stand-in's (5, 7)
            assert all(computer_for_ben not in f["caption"] for f in frames[:3]), lang
            assert frames[2]["table"]["players"][1]["name"] == "Ben"
            for number in (5, 7):  # the stand-in's turns: its sentence and its label
                assert computer_for_ben in frames[number - 1]["caption"], (lang, number)
                assert frames[number - 1]["table"]["players"][1]["name"] == computer_for_ben
            assert computer_for_ben in html.split('id="step-5"', 1)[1].split('id="step-6"', 1)[0]
        lesson = page_frames(lesson_html)
        # the learner's own presses in a lesson from Ben's seat stay the learner's
        assert lesson[4]["stood_in"] == [1] and lesson[4]["branches"]
        for answer in lesson[4]["branches"].values():
            if answer["table"] is not None:
                assert answer["table"]["players"][1]["name"] == "Ben"


def replay_pages(code: str) -> dict[str, tuple[str, str]]:
    client = PageClient()
    pages = {}
    for lang in LANGUAGE_CODES:
        replay = client.get(f"/{lang}/replay/{code}/")
        lesson = client.get(f"/{lang}/replay/{code}/lesson/?seat=1")
        assert replay.status_code == lesson.status_code == 200
        pages[lang] = (replay.content.decode(), lesson.content.decode())
    return pages


def unmark(code: str) -> None:
    """The record as it was stored before stand-ins were marked."""
    for action in TableAction.objects.filter(table__code=code):
        action.data.pop("stand_in_for", None)
        action.save()


async def test_a_record_without_marks_replays_under_the_seats_own_names():
    code, _ben = await game_with_a_stand_in()
    await database_sync_to_async(unmark)(code)
    pages = await database_sync_to_async(replay_pages)(code)
    replay_html, lesson_html = pages["en"]
    for html in (replay_html, lesson_html):
        frames = page_frames(html)
        words = html.split('class="step-list"', 1)[1].split("</ol>", 1)[0]
        assert "Computer for" not in words  # the steps in words
        assert not any("Computer for" in f["caption"] for f in frames)
        assert {p["name"] for f in frames for p in f["table"]["players"]} == {"Ana", "Ben"}
        assert frames[4]["caption"].startswith("\u2068Ben\u2069 turns")
        assert all(not f["stood_in"] for f in frames)
