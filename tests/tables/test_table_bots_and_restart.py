"""Computer players to the end of a game, and a table that survives a restart."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.engine import BotLevel, Options, final_state, view
from games.tables.protocol import view_for_seat, view_to_json

from .helpers import assert_frames_safe, connect, session_new, states_by_seq, stored_record

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

create = database_sync_to_async(tables.table_create)

#: Computer players 100 times quicker than people, a short tie window: seconds per game.
FAST = {"bot_time_scale": 0.01}


async def bot_table(levels: list[BotLevel], seed: int, turn_limit: int) -> str:
    return await create(
        players=len(levels),
        options=Options(tie_window_ms=25, turn_limit=turn_limit),
        bots=dict(enumerate(levels)),
        seed=seed,
        **FAST,
    )


def event_frames(frames: list[dict]) -> list[dict]:
    return [f for f in frames if f["type"] == "event"]


async def test_computer_players_play_a_game_to_the_end_and_the_record_replays_it():
    levels = [BotLevel.BEGINNER, BotLevel.STEADY, BotLevel.QUICK]
    code = await bot_table(levels, seed=12, turn_limit=90)
    watcher = await connect(code, hello={"since": 0})  # the bots may have turned before it came
    await watcher.until("game_over", timeout=60)
    events = event_frames(watcher.frames)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # each once, in order
    codes = {e["code"] for e in events}
    assert {"card_turned", "race_opened", "piles_won"} <= codes, sorted(codes)
    record = await stored_record(code)
    assert await database_sync_to_async(tables.table_record)(code=code.lower()) == record
    end = final_state(record)
    assert end.over and end.seq == events[-1]["seq"]
    assert events[-1]["view"] == view_to_json(view(end, None))
    assert_frames_safe(watcher.frames, record)  # 52 cards and no face-down card, every frame


async def test_the_view_of_every_seat_is_the_public_view_with_its_seat():
    code = await bot_table([BotLevel.QUICK, BotLevel.QUICK], seed=3, turn_limit=20)
    watcher = await connect(code)
    await watcher.until("game_over", timeout=30)
    for state in states_by_seq(await stored_record(code)).values():
        public = view_to_json(view(state, None))
        for seat in range(state.players):
            assert view_for_seat(public, seat) == view_to_json(view(state, seat))


async def test_a_table_rebuilt_from_storage_after_a_restart_goes_on_where_it_was():
    code = await bot_table([BotLevel.STEADY] * 4, seed=5, turn_limit=120)
    watcher = await connect(code, hello={"since": 0})  # the bots may have turned before it came
    while len(event_frames(watcher.frames)) < 25:
        await watcher.until("card_turned")
    tables.registry_drop()  # the process "restarts": every owner and timer is gone
    while not await watcher.nothing(timeout=0.3):  # what was already on its way...
        await watcher.recv()
    # ...and then nothing: nobody owns the table, it stands still
    dropped_at = event_frames(watcher.frames)[-1]["seq"]
    # the next client to come rebuilds the owner from storage, and play goes on
    late = await connect(code, hello={"since": dropped_at})
    assert late.welcome["seq"] >= dropped_at
    caught_up = [await late.recv() for _ in range(late.welcome["seq"] - dropped_at)]
    assert [f["seq"] for f in caught_up] == list(range(dropped_at + 1, late.welcome["seq"] + 1))
    await watcher.until("game_over", timeout=60)
    events = event_frames(watcher.frames)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # nothing lost
    record = await stored_record(code)
    assert final_state(record).seq == events[-1]["seq"] and final_state(record).over
    assert events[-1]["seq"] > dropped_at + 10  # it went on, well past the restart
    assert_frames_safe(watcher.frames + late.frames, record)


async def test_a_finished_table_leaves_memory_and_is_read_back_from_storage(monkeypatch):
    from games.tables import registry

    monkeypatch.setattr(registry, "FINISHED_KEEP_S", 0.05)
    code = await bot_table([BotLevel.QUICK, BotLevel.QUICK], seed=8, turn_limit=10)
    watcher = await connect(code)
    over = (await watcher.until("game_over", timeout=30))[-1]
    await watcher.nothing(timeout=0.2)
    assert code not in registry._owners
    again = await connect(code)  # rebuilt from storage, still over
    assert again.welcome["seq"] == over["seq"] and again.welcome["view"]["over"] is True


async def test_public_tables_with_a_free_seat_are_listed_for_the_lobby():
    open_code = await create(players=3, options=Options(), bots={2: BotLevel.STEADY}, public=True)
    await create(players=2, options=Options(), public=False)
    await create(
        players=2, options=Options(), bots={0: BotLevel.QUICK, 1: BotLevel.QUICK}, public=True
    )
    listed = await database_sync_to_async(tables.tables_open)()
    assert listed == [{"code": open_code, "players": 3, "free": 2}]


async def test_a_practice_table_seats_the_learner_and_starts_with_computer_players():
    key = await session_new()
    code = await database_sync_to_async(tables.table_create_practice)(
        session_key=key, name=" Mina ", levels=[BotLevel.BEGINNER, BotLevel.QUICK], **FAST
    )
    me = await connect(code, key)
    assert me.welcome["seat"] == 0 and me.welcome["started"] is True
    assert [(s["name"], s["bot"], s["level"]) for s in me.welcome["seats"]] == [
        ("Mina", False, None),
        ("", True, "beginner"),
        ("", True, "quick"),
    ]
    if me.welcome["view"]["to_play"] == 0:
        await me.send(type="turn")
    turned: list[dict] = []
    while not [e for e in turned if e["code"] == "card_turned" and e["params"]["seat"] != 0]:
        turned += await me.until("card_turned")  # the computer players play their turns


async def test_an_owner_dropped_at_a_restart_never_writes_again():
    from games.models import TableEvent
    from games.tables.registry import owner_for

    code = await create(players=2, options=Options())
    old = await owner_for(code)
    tables.registry_drop()
    outcome = await old.submit(seat=0, action_json={"type": "turn"}, received_ms=tables.wall_ms())
    assert outcome.refused == "no_table"
    assert await database_sync_to_async(TableEvent.objects.count)() == 0
