"""Rule paths played over the WebSocket from set-up positions: running out (R15), a
blocked Snap Pot whose cards stay in it at the end (R18), winning and what comes after
the end (R17), a tie of three callers (R9) and a wrong call watched by a spectator
(R13)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.engine import Options, final_state

from .helpers import (
    assert_frames_safe,
    card_codes,
    connect,
    player,
    stacked_deck,
    stored_record,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

create = database_sync_to_async(tables.table_create)


async def seated(code: str, *names: str) -> list:
    """Players who sit down in seat order; each one has read every seats frame."""
    clients = []
    for name in names:
        clients.append(await player(code, name))
        for earlier in clients[:-1]:
            assert (await earlier.recv())["type"] == "seats"
    assert [c.welcome["seat"] for c in clients] == list(range(len(names)))
    return clients


def total(view: dict) -> int:
    return sum(view["face_down_counts"]) + sum(view["face_up_counts"]) + view["pot_count"]


async def test_an_empty_face_down_pile_is_turned_over_before_the_card_is_turned():
    position = {
        "face_down": [[], ["9H", "KH"]],
        "face_up": [["4S", "5S"], []],  # bottom to top: 4S at the bottom
        "pot": [],
        "to_play": 0,
    }
    code = await create(players=2, options=Options(), position=position)
    ana, ben = await seated(code, "Ana", "Ben")
    assert ana.welcome["view"]["face_down_counts"] == [0, 2]
    watcher = await connect(code)
    await ana.send(type="turn")
    events = await ben.until("card_turned")
    assert [(e["seq"], e["code"]) for e in events] == [(1, "pile_turned_over"), (2, "card_turned")]
    assert events[0]["params"] == {"seat": 0, "cards": 2} and events[0]["rules"] == ["R15"]
    # the pile was flipped as a whole: its bottom card, 4S, is turned first (R21)
    assert events[1]["params"] == {"seat": 0, "card": "4S"}
    view = events[1]["view"]
    assert view["face_down_counts"] == [1, 2] and view["face_up_counts"] == [1, 0]
    assert view["face_up_tops"] == ["4S", None] and view["to_play"] == 1
    assert events[0]["view"] == view  # the events of one action share its view
    assert [e["seq"] for e in await watcher.until("card_turned")] == [1, 2]
    record = await stored_record(code)
    assert_frames_safe(ana.frames + ben.frames + watcher.frames, record, cards=4)


async def test_a_blocked_snap_pot_stays_when_the_game_ends_with_one_player_holding_the_rest():
    position = {
        "face_down": [["2S", "7D"], ["2H", "7C"]],  # tops 7D and 7C
        "pot": ["7S", "7H"],
        "to_play": 0,
    }
    code = await create(players=2, options=Options(tie_window_ms=400), position=position)
    ana, ben = await seated(code, "Ana", "Ben")
    for client in (ana, ben):
        await client.send(type="turn")
        await ana.until("card_turned")
        await ben.until("card_turned")
    await ana.send(type="snap", seen=2)
    await ben.send(type="snap", seen=2)
    events = await ana.until("tie_to_pot")
    assert [e["code"] for e in events] == ["race_opened", "call_joined", "tie_to_pot"]
    tie = events[-1]
    assert tie["params"]["pot_cards"] == 4 and tie["pot_now_blocked"] is True
    assert tie["rules"] == ["R9"]
    assert tie["view"]["pot_blocked"] is True and tie["view"]["over"] is False
    assert "pot_now_blocked" not in events[0]  # only the step that blocked it says so
    await ben.until("tie_to_pot")
    # the rest: Ana turns 2S, Ben 2H, Ben wins the pair and Ana has nothing left
    await ana.send(type="turn")
    await ben.until("card_turned")
    await ben.send(type="turn")
    turned = (await ben.until("card_turned"))[-1]
    assert turned["view"]["valid"]["snap_pot"] == []  # a 2 can never match the pot's 7
    await ben.send(type="snap", seen=turned["seq"])
    events = await ana.until("game_over")
    assert [e["code"] for e in events][-4:] == [
        "race_opened",
        "piles_won",
        "player_out",
        "game_over",
    ]
    end = events[-1]
    assert end["params"] == {"winner": 1, "draw": False, "reason": "stuck_pot", "winners": [1]}
    assert end["rules"] == ["R18"] and "\u2068Ben\u2069" in end["text"]
    view = end["view"]
    assert (view["over"], view["winner"], view["end_reason"]) == (True, 1, "stuck_pot")
    assert view["pot_blocked"] is True and view["pot_count"] == 4
    assert view["face_down_counts"] == [0, 2] and total(view) == 6
    assert [e["seq"] for e in events] == list(range(events[0]["seq"], end["seq"] + 1))
    record = await stored_record(code)
    assert final_state(record).end_reason == "stuck_pot"
    assert_frames_safe(ana.frames + ben.frames, record, cards=6)


async def test_the_winner_is_named_and_nothing_moves_after_the_end():
    position = {"face_down": [["2S", "9D"], ["9C"]], "pot": [], "to_play": 0}
    code = await create(players=2, options=Options(tie_window_ms=50), position=position)
    ana, ben = await seated(code, "Ana", "Ben")
    await ana.send(type="turn")
    await ana.until("card_turned")
    await ben.until("card_turned")
    await ben.send(type="turn")
    turned = (await ana.until("card_turned"))[-1]
    assert turned["params"] == {"seat": 1, "card": "9C"}
    await ana.send(type="snap", seen=turned["seq"])
    await ben.until("game_over")
    events = [f for f in ben.frames if f["type"] == "event"]
    assert [(e["seq"], e["code"]) for e in events] == [
        (1, "card_turned"),
        (2, "card_turned"),
        (3, "race_opened"),
        (4, "piles_won"),
        (5, "player_out"),
        (6, "game_over"),
    ]
    end = events[-1]
    assert end["params"] == {"winner": 0, "draw": False, "reason": "all_cards", "winners": [0]}
    assert end["rules"] == ["R17"] and "Ana" in end["text"]
    assert end["view"]["face_down_counts"] == [3, 0] and total(end["view"]) == 3
    await ana.until("game_over")
    actions_before = len((await stored_record(code)).actions)
    for client, move in ((ana, {"type": "turn"}), (ana, {"type": "snap", "seen": 6}),
                         (ben, {"type": "snap_pot", "seen": 6})):  # fmt: skip
        await client.send(**move)
        refused = await client.error()
        assert refused["code"] == "game_over"
        assert refused["message"] == "The game is over, so nobody can play any more."
    assert await ana.nothing() and await ben.nothing()  # nobody was told of anything
    again = await connect(code, ben.session_key)
    assert again.welcome["seq"] == 6 and again.welcome["view"]["winner"] == 0
    assert again.welcome["view"]["face_down_counts"] == [3, 0]
    record = await stored_record(code)
    assert len(record.actions) == actions_before
    assert_frames_safe(ana.frames + ben.frames + again.frames, record, cards=3)


async def test_three_callers_inside_the_tie_window_send_all_three_piles_to_the_pot():
    code = await create(
        players=3, options=Options(tie_window_ms=400), deck=stacked_deck(3, ["7H", "7S", "7D"])
    )
    clients = await seated(code, "Ana", "Ben", "Cleo")
    for client in clients:
        await client.send(type="turn")
        for each in clients:
            await each.until("card_turned")
    turned = clients[0].frames[-1]
    assert turned["seq"] == 3 and turned["view"]["valid"]["snap"] == [2, 0, 1]
    for client in clients:
        await client.send(type="snap", seen=3)
    events = await clients[1].until("tie_to_pot")
    assert [(e["seq"], e["code"]) for e in events] == [
        (4, "race_opened"),
        (5, "call_joined"),
        (6, "call_joined"),
        (7, "tie_to_pot"),
    ]
    tie = events[-1]
    assert tie["params"]["callers"] == [0, 1, 2] and tie["params"]["pot_cards"] == 3
    view = tie["view"]
    assert view["pot_count"] == 3 and view["face_up_counts"] == [0, 0, 0]
    assert view["face_down_counts"] == [17, 16, 16] and total(view) == 52
    assert view["race_open"] is False and "pot_now_blocked" not in tie  # three 7s, not four
    assert_frames_safe(clients[1].frames, await stored_record(code))


async def test_a_spectator_watching_a_wrong_call_never_sees_the_card_paid():
    code = await create(players=3, options=Options(), deck=stacked_deck(3, ["7H", "8S", "2C"]))
    ana, ben, cleo = await seated(code, "Ana", "Ben", "Cleo")
    watcher = await connect(code)
    for client in (ana, ben):
        await client.send(type="turn")
        await watcher.until("card_turned")
    await ana.send(type="snap", seen=2)  # on Cleo's turn, after Ben played: to Ben (R13)
    wrong = (await watcher.until("wrong_call"))[-1]
    assert wrong["seq"] == 3 and wrong["rules"] == ["R13"]
    assert wrong["params"] == {"seat": 0, "kind": "snap", "penalty_to": 1, "paid": True}
    assert wrong["view"]["me"] is None and wrong["view"]["to_play"] == 2
    assert wrong["view"]["face_down_counts"] == [16, 17, 17] and total(wrong["view"]) == 52
    await cleo.send(type="turn")  # the game goes on: still Cleo's turn
    assert (await watcher.until("card_turned"))[-1]["params"] == {"seat": 2, "card": "2C"}
    record = await stored_record(code)
    paid = final_state(record).face_down[1][0]  # under Ben's face-down pile
    assert paid.code not in card_codes(watcher.frames)
    assert_frames_safe(watcher.frames, record)
