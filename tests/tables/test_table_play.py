"""Rule paths played over the WebSocket: snap, tie, wrong call, too late, reconnect."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.engine import Options, final_state

from .helpers import (
    assert_frames_safe,
    connect,
    player,
    session_new,
    stacked_deck,
    stored_record,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

create = database_sync_to_async(tables.table_create)


async def two_players(plays: list[str], **options):
    code = await create(players=2, options=Options(**options), deck=stacked_deck(2, plays))
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    assert (ana.welcome["seat"], ben.welcome["seat"]) == (0, 1)
    assert ben.welcome["started"] is True
    assert (await ana.recv())["type"] == "seats"  # Ben sat down
    return code, ana, ben


async def turn_both(ana, ben):
    await ana.send(type="turn")
    await ana.until("card_turned")
    await ben.until("card_turned")
    await ben.send(type="turn")
    await ana.until("card_turned")
    await ben.until("card_turned")


async def test_snap_wins_both_piles_after_the_tie_window():
    code, ana, ben = await two_players(["7H", "7S", "2C", "9D"], tie_window_ms=60)
    await turn_both(ana, ben)
    await ana.send(type="snap", seen=2)
    events = await ben.until("piles_won")
    assert [(e["seq"], e["code"]) for e in events] == [(3, "race_opened"), (4, "piles_won")]
    won = events[-1]
    assert won["params"] == {
        "winner": 0,
        "piles": [1, 0],
        "cards": 2,
        "with_pot": False,
        "pot_cards": 0,
    }
    assert won["view"]["face_down_counts"] == [27, 25] and won["view"]["me"] == 1
    assert (await ana.until("piles_won"))[-1]["view"]["me"] == 0
    assert_frames_safe(ana.frames + ben.frames, await stored_record(code))


async def test_two_calls_inside_the_tie_window_tie_and_go_to_the_pot():
    code, ana, ben = await two_players(["7H", "7S", "2C", "9D"], tie_window_ms=400)
    await turn_both(ana, ben)
    await ana.send(type="snap", seen=2)
    await ben.send(type="snap", seen=2)
    events = await ana.until("tie_to_pot")
    assert [e["code"] for e in events] == ["race_opened", "call_joined", "tie_to_pot"]
    tie = events[-1]["params"]
    assert tie["callers"] == [0, 1] and tie["pot_cards"] == 2
    assert events[-1]["view"]["pot_count"] == 2 and events[-1]["view"]["face_up_counts"] == [0, 0]
    # the service closed the race itself, once the window had passed
    opened = events[0]["params"]
    assert opened["closes_at_ms"] - opened["at_ms"] == 400
    assert_frames_safe(ana.frames, await stored_record(code))


async def test_a_wrong_call_gives_the_top_card_to_the_player_who_just_played():
    code, ana, ben = await two_players(["7H", "8S"], tie_window_ms=60)
    await ana.send(type="turn")
    await ana.until("card_turned")
    await ben.until("card_turned")
    await ben.send(type="snap", seen=1)
    wrong = (await ana.until("wrong_call"))[-1]
    assert wrong["params"] == {"seat": 1, "kind": "snap", "penalty_to": 0, "paid": True}
    assert wrong["view"]["face_down_counts"] == [26, 25]
    assert_frames_safe(ana.frames, await stored_record(code))


async def test_a_call_on_a_match_already_won_is_too_late_not_wrong():
    code, ana, ben = await two_players(["7H", "7S", "2C", "9D"], tie_window_ms=0)
    await turn_both(ana, ben)
    await ana.send(type="snap", seen=2)  # a tie window of 0: won at once
    await ben.until("piles_won")
    await ben.send(type="snap", seen=2)  # Ben was looking at the match too
    late = (await ana.until("too_late"))[-1]
    assert late["params"] == {"seat": 1, "kind": "snap"}
    assert late["view"]["face_down_counts"] == [27, 25]  # no penalty
    await ben.until("too_late")
    await ben.send(type="snap", seen=late["seq"])  # now nothing matches on his screen
    wrong = (await ana.until("wrong_call"))[-1]
    assert wrong["params"]["seat"] == 1 and wrong["params"]["paid"] is True


async def test_a_reconnecting_player_gets_exactly_the_missed_events_and_keeps_the_seat():
    code, ana, ben = await two_players(["7H", "7S", "2C", "9D"], tie_window_ms=30)
    await turn_both(ana, ben)
    await ben.close()
    await ana.send(type="snap", seen=2)
    await ana.until("piles_won")
    await ana.send(type="turn")
    await ana.until("card_turned")
    back = await connect(code, ben.session_key, hello={"since": 2})
    assert back.welcome["seat"] == 1 and back.welcome["seq"] == 5
    missed = [await back.recv() for _ in range(3)]
    assert [(f["type"], f["seq"], f["code"]) for f in missed] == [
        ("event", 3, "race_opened"),
        ("event", 4, "piles_won"),
        ("event", 5, "card_turned"),
    ]
    told_back = await back.recv()  # everyone, Ben too, is told his connection is back
    assert told_back["type"] == "seats" and [s["lost"] for s in told_back["seats"]] == [
        False,
        False,
    ]
    assert await back.nothing()
    await back.send(type="resync", since=4)  # a resync answers the same way
    assert [(await back.recv())["seq"]] == [5]
    await back.send(type="turn")  # his seat is still his
    turned = (await ana.until("card_turned"))[-1]
    assert turned["params"]["seat"] == 1 and turned["seq"] == 6
    assert_frames_safe(back.frames + ana.frames, await stored_record(code))


async def test_a_spectator_sees_public_views_and_may_not_act():
    code, ana, ben = await two_players(["7H", "7S"], tie_window_ms=30)
    watcher = await connect(code)
    assert watcher.welcome["seat"] is None and watcher.welcome["view"]["me"] is None
    await watcher.send(type="turn")
    assert (await watcher.error())["code"] == "not_seated"
    await ana.send(type="turn")
    turned = (await watcher.until("card_turned"))[-1]
    assert turned["view"]["me"] is None and turned["params"] == {"seat": 0, "card": "7H"}
    await asyncio.sleep(0)


async def test_snap_pot_wins_the_pot_and_the_matching_pile():
    plays = ["7H", "7S", "2C", "9D", "7C"]
    code, ana, ben = await two_players(plays, tie_window_ms=200)
    await turn_both(ana, ben)
    await ana.send(type="snap", seen=2)
    await ben.send(type="snap", seen=2)
    tie = (await ben.until("tie_to_pot"))[-1]
    assert tie["params"]["pot_top"] in ("7H", "7S") and tie["view"]["pot_count"] == 2
    await turn_both(ana, ben)  # 2C, 9D
    await ana.send(type="turn")  # 7C: matches the pot's 7
    turned = (await ben.until("card_turned"))[-1]
    assert turned["view"]["valid"] == {"snap": [], "snap_pot": [0]}
    await ben.send(type="snap_pot", seen=turned["seq"])
    events = await ana.until("piles_won")
    assert [e["code"] for e in events] == ["card_turned", "race_opened", "piles_won"]
    assert events[1]["params"]["kind"] == "snap_pot" and events[1]["params"]["seat"] == 1
    won = events[-1]["params"]
    assert (won["winner"], won["with_pot"], won["pot_cards"], won["piles"]) == (1, True, 2, [0])
    assert events[-1]["view"]["pot_count"] == 0 and events[-1]["view"]["face_up_counts"] == [0, 1]
    assert_frames_safe(ana.frames + ben.frames, await stored_record(code))


async def test_a_computer_player_stands_in_for_an_absent_player_until_they_return():
    plays = ["7H", "8S", "2C", "9D", "4H", "JS"]
    code = await create(
        players=2,
        options=Options(),
        deck=stacked_deck(2, plays),
        away_after_ms=100,
        bot_time_scale=0.01,
    )
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    assert (await ana.recv())["type"] == "seats"  # Ben sat down
    await ben.close()
    lost = await ana.recv(timeout=2)  # told first, before any stand-in
    assert lost["type"] == "seats" and [s["lost"] for s in lost["seats"]] == [False, True]
    assert [s["away"] for s in lost["seats"]] == [False, False]
    away = await ana.recv(timeout=2)  # 100 ms later, a stand-in takes Ben's seat
    assert away["type"] == "seats" and [s["away"] for s in away["seats"]] == [False, True]
    assert away["seats"][1]["label"] == "Computer for \u2068Ben\u2069"  # never "Ben"
    await ana.send(type="turn")
    await ana.until("card_turned")
    events = await ana.until("card_turned")  # the stand-in turns Ben's card by itself
    assert events[-1]["params"] == {"seat": 1, "card": "8S"}
    assert events[-1]["text"].startswith("\u2068Computer for \u2068Ben\u2069\u2069 turns")
    back = await connect(code, ben.session_key, hello={"since": 2})
    assert back.welcome["seat"] == 1
    # Ben is told what his stand-in did: one card turned, nothing else
    assert back.welcome["stood_in"] == {"turned": 1, "won": 0, "ties": 0, "wrong_calls": 0}
    given_back = await ana.recv()
    assert given_back["type"] == "seats" and [s["away"] for s in given_back["seats"]] == [
        False,
        False,
    ]
    assert [s["lost"] for s in given_back["seats"]] == [False, False]
    assert given_back["seats"][1]["label"] == "Ben"
    await ana.send(type="turn")
    assert (await back.until("card_turned"))[-1]["params"] == {"seat": 0, "card": "2C"}
    await ana.until("card_turned")
    assert await ana.nothing(timeout=0.3)  # Ben's seat waits for Ben again
    await back.send(type="turn")
    assert (await ana.until("card_turned"))[-1]["params"] == {"seat": 1, "card": "9D"}
    assert_frames_safe(ana.frames + back.frames, await stored_record(code))


async def test_a_wrong_call_on_your_own_turn_gives_the_top_card_to_the_right():
    code = await create(players=3, options=Options(), deck=stacked_deck(3, ["7H", "8S", "2C"]))
    ana, ben, cleo = [await player(code, name) for name in ("Ana", "Ben", "Cleo")]
    await ana.send(type="turn")
    await ben.until("card_turned")
    await ben.send(type="turn")
    await cleo.until("card_turned")
    turned = (await cleo.until("card_turned"))[-1]
    assert turned["seq"] == 2
    await cleo.send(type="snap", seen=2)  # wrong, after Ben played: to Ben (R13)
    wrong = (await ana.until("wrong_call"))[-1]
    assert wrong["params"] == {"seat": 2, "kind": "snap", "penalty_to": 1, "paid": True}
    await ben.send(type="snap_pot", seen=3)  # wrong, on his own turn: to his right (R14)
    wrong = (await ana.until("wrong_call"))[-1]
    assert wrong["params"] == {"seat": 1, "kind": "snap_pot", "penalty_to": 0, "paid": True}
    assert wrong["view"]["face_down_counts"] == [18, 16, 16]  # dealt 18, 17, 17


async def test_two_snap_pot_calls_inside_the_window_add_the_pile_to_the_pot():
    plays = ["7H", "7S", "2C", "9D", "7C"]
    code, ana, ben = await two_players(plays, tie_window_ms=300)
    await turn_both(ana, ben)
    await ana.send(type="snap", seen=2)
    await ben.send(type="snap", seen=2)
    await ana.until("tie_to_pot")
    await ben.until("tie_to_pot")
    await turn_both(ana, ben)
    await ana.send(type="turn")  # 7C on the pot's 7
    turned = (await ben.until("card_turned"))[-1]
    await ana.until("card_turned")
    await ben.send(type="snap_pot", seen=turned["seq"])
    await ana.send(type="snap_pot", seen=turned["seq"])
    tie = (await ana.until("tie_to_pot"))[-1]
    assert tie["params"]["kind"] == "snap_pot" and tie["params"]["callers"] == [1, 0]
    assert tie["params"]["pot_top"] == "7C" and tie["params"]["pot_cards"] == 4
    assert_frames_safe(ana.frames, await stored_record(code))


async def test_the_turn_timer_turns_the_card_of_an_idle_player():
    code = await create(
        players=2, options=Options(), deck=stacked_deck(2, ["7H", "8S"]), turn_timer_ms=150
    )
    ana = await player(code, "Ana")
    loop = asyncio.get_running_loop()
    before_start = loop.time()
    ben = await player(code, "Ben")  # the table starts: Ana's turn timer runs
    assert ben.welcome["pace"] == {"turn_timer_ms": 150, "beat_ms": None}
    first = (await ben.until("card_turned"))[-1]  # nobody turned: the table did, for Ana
    assert first["params"] == {"seat": 0, "card": "7H"} and loop.time() - before_start >= 0.14
    await ana.until("card_turned")
    await ben.send(type="turn")  # Ben turns his own in time
    second = (await ana.until("card_turned"))[-1]
    assert second["params"] == {"seat": 1, "card": "8S"}


async def test_at_a_steady_beat_the_table_turns_every_card_and_players_call():
    code = await create(
        players=2, options=Options(tie_window_ms=30), deck=stacked_deck(2, ["7H", "7S"]),
        beat_ms=300,
    )  # fmt: skip
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    await ana.recv()  # Ben sat down
    await ana.send(type="turn")
    assert (await ana.error())["code"] == "table_turns"
    events = await ana.until("card_turned")
    events = await ana.until("card_turned")
    assert events[-1]["params"] == {"seat": 1, "card": "7S"}
    await ana.send(type="snap", seen=events[-1]["seq"])
    won = (await ben.until("piles_won"))[-1]
    assert won["params"]["winner"] == 0


@pytest.mark.parametrize(
    ("lag_cap_ms", "outcome"),
    [(300, ["race_opened", "call_joined", "tie_to_pot"]), (0, ["race_opened", "piles_won"])],
)
async def test_lag_compensation_lets_a_slow_connections_call_join_the_race(lag_cap_ms, outcome):
    code = await create(
        players=2, options=Options(tie_window_ms=50), deck=stacked_deck(2, ["7H", "7S"]),
        lag_cap_ms=lag_cap_ms,
    )  # fmt: skip
    ana = await player_measured(code, "Ana", delay=0)
    ben = await player_measured(code, "Ben", delay=0.4)  # a round trip of 400 ms: 200 each way
    await turn_both(ana, ben)
    await ana.send(type="snap", seen=2)
    await ben.until("race_opened")
    await asyncio.sleep(0.12)  # Ben's call arrives 120 ms after Ana's, past the window...
    await ben.send(type="snap", seen=2)
    events = await ana.until(outcome[-1])  # ...but with compensation counts 200 ms earlier
    assert [e["code"] for e in events] == outcome
    if lag_cap_ms:
        await ben.until("tie_to_pot")
        await ben.send(type="pong", t=0)  # a pong that answers no ping of this connection
        assert (await ben.error())["code"] == "bad_message"
    else:
        assert (await ana.until("too_late"))[-1]["params"]["seat"] == 1


async def player_measured(code: str, name: str, delay: float):
    """A player who answers the server's ping (if the table pings) after ``delay``."""
    client = await connect(code, await session_new())
    if client.welcome["lag_cap_ms"]:
        ping = await client.recv()
        assert ping["type"] == "ping"
    await client.send(type="join", name=name)
    assert (await client.recv())["type"] == "welcome"
    assert (await client.recv())["type"] == "seats"
    if client.welcome["lag_cap_ms"]:
        await asyncio.sleep(delay)
        await client.send(type="pong", t=ping["t"])
    return client


async def test_with_the_index_card_the_first_hand_wins_at_once():
    code, ana, ben = await two_players(["7H", "7S"], tie_window_ms=300, index_card=True)
    await turn_both(ana, ben)
    await ben.send(type="snap", seen=2)
    await ana.send(type="snap", seen=2)
    events = await ana.until("too_late")
    assert [e["code"] for e in events] == ["race_opened", "piles_won", "too_late"]
    assert events[1]["params"]["winner"] == 1 and events[1]["seq"] == events[0]["seq"] + 1


async def test_the_wrong_word_on_a_match_is_a_wrong_call():
    code, ana, ben = await two_players(["7H", "7S"], tie_window_ms=60)
    await turn_both(ana, ben)
    await ana.send(type="snap_pot", seen=2)  # a pair shows, but there is no Snap Pot
    wrong = (await ben.until("wrong_call"))[-1]
    assert wrong["params"] == {"seat": 0, "kind": "snap_pot", "penalty_to": 1, "paid": True}
    assert wrong["view"]["valid"] == {"snap": [1, 0], "snap_pot": []}  # still there to win


@pytest.mark.parametrize(
    ("pot", "reason"), [([], "all_cards"), (["9H", "9S"], "stuck_pot")]
)  # fmt: skip
async def test_paying_the_last_card_puts_a_player_out_and_ends_the_game(pot, reason):
    position = {
        "face_down": [["2S"], ["3S", "4S", "5S"]],
        "pot": pot,
        "to_play": 1,
        "last_turned": 0,
    }
    code = await create(players=2, options=Options(), position=position)
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    await ben.send(type="turn")
    turned = (await ana.until("card_turned"))[-1]
    assert turned["params"] == {"seat": 1, "card": "5S"}
    await ana.send(type="snap", seen=turned["seq"])  # wrong: she pays her last card
    events = await ben.until("game_over")
    assert [e["code"] for e in events][-3:] == ["wrong_call", "player_out", "game_over"]
    assert events[-2]["params"] == {"seat": 0}
    end = events[-1]
    assert end["params"] == {"winner": 1, "draw": False, "reason": reason, "winners": [1]}
    assert end["view"]["over"] is True and end["view"]["pot_count"] == len(pot)
    await ben.send(type="turn")
    assert (await ben.error())["code"] == "game_over"
    record = await stored_record(code)
    assert final_state(record).over
    assert_frames_safe(ana.frames + ben.frames, record, cards=4 + len(pot))
