"""Each client hears the table's events in its own language, with the rule they show."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.engine import BotLevel, Options, full_deck
from games.words.texts import isolate

from .helpers import connect, player, session_new, stacked_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

create = database_sync_to_async(tables.table_create)


async def test_events_carry_their_rules_and_a_sentence_naming_the_players():
    code = await create(players=2, options=Options(), deck=stacked_deck(2, ["7H", "8S", "2C"]))
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    await ana.recv()  # Ben's seats frame
    await ana.send(type="turn")
    turned = (await ben.until("card_turned"))[-1]
    assert turned["rules"] == []
    assert turned["text"] == f"{isolate('Ana')} turns over the {isolate('7 of hearts')}."
    await ana.send(type="snap", seen=1)  # nothing matches, and Ana has just played
    wrong = (await ben.until("wrong_call"))[-1]
    assert wrong["params"]["penalty_to"] == 1
    assert wrong["rules"] == ["R14"]  # her own turn: the card goes to her right
    assert (
        wrong["text"] == f"Wrong call! {isolate('Ana')} gives a penalty card to {isolate('Ben')}."
    )
    await ana.until("wrong_call")
    await ben.send(type="turn")
    await ana.until("card_turned")
    await ana.send(type="snap", seen=3)  # Ben has just played: the card goes to him
    assert (await ana.until("wrong_call"))[-1]["rules"] == ["R13"]


async def test_computer_players_are_labelled_in_the_language_of_each_client():
    code = await create(
        players=3, bots={1: BotLevel.STEADY, 2: BotLevel.QUICK}, bot_time_scale=0.01
    )
    english = await connect(code, await session_new(), {"lang": "en"})
    labels = [s["label"] for s in english.welcome["seats"]]
    assert labels == ["Free seat", "Computer 1", "Computer 2"]
    assert [s["name"] for s in english.welcome["seats"]] == ["", "", ""]


async def blocking_tie(face_down_bottoms: list[list[str]]) -> list[dict]:
    """Seat 1 turns the 7C: it matches seat 0's 7D and the pot's 7H; both call "Snap!" at
    once, the tied piles join the pot, and all four 7s are in it. ``face_down_bottoms``:
    more cards under each face-down pile. Returns the events up to the tie."""
    position = {
        "face_down": [face_down_bottoms[0] + ["2S", "3S"], face_down_bottoms[1] + ["4S", "7C"]],
        "face_up": [["7D"], []],
        "pot": ["7S", "7H"],
        "to_play": 1,
        "last_turned": 0,
    }
    code = await create(players=2, options=Options(tie_window_ms=300), position=position)
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    await ana.recv()
    await ben.send(type="turn")
    seen = (await ana.until("card_turned"))[-1]["seq"]
    await ana.send(type="snap", seen=seen)
    await ben.send(type="snap", seen=seen)
    return await ana.until("tie_to_pot")


async def test_the_step_that_blocks_the_snap_pot_says_a_tie_can_still_free_it():
    # The rest of the deck is still in the piles: every other rank has three cards or more
    # outside the pot, so a tie and a match can still win it (R18 D).
    named = {"2S", "3S", "4S", "7C", "7D", "7S", "7H"}
    rest = [c.code for c in full_deck() if c.code not in named]
    events = await blocking_tie([rest[:22], rest[22:]])
    tie = events[-1]
    assert tie["view"]["pot_blocked"] is True and tie["pot_now_blocked"] is True
    assert "pot_stuck" not in tie and tie["rules"] == ["R9"]
    assert "Only a tie can change that" in tie["text"] and "never" not in tie["text"]
    assert not any(e.get("pot_now_blocked") for e in events[:-1])


async def test_the_step_that_blocks_the_snap_pot_for_good_says_it_can_never_be_won_again():
    # Outside the pot only the 2S, 3S and 4S are left: no rank has three cards outside it,
    # so no tie and match can ever win it again (R18 D), and the words say so.
    events = await blocking_tie([[], []])
    tie = events[-1]
    assert tie["pot_now_blocked"] is True and tie["pot_stuck"] is True
    assert "the Snap Pot can never be won again" in tie["text"]
    assert "Only a tie can change that" not in tie["text"]
    assert not any(e.get("pot_now_blocked") for e in events[:-1])
