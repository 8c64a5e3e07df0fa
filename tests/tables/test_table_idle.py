"""A table nobody is connected to pauses, and is closed after a while with its record
kept (an abandoned practice table must not play on, stand-ins for nobody)."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import tables
from games.engine import BotLevel, Options
from games.models import Table, TableEvent

from .helpers import HOST, ORIGIN, application, connect, player, session_new

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def owners_stopped():
    yield
    tables.registry_drop()  # fast computer players write no more once the test is over


create = database_sync_to_async(tables.table_create)


@database_sync_to_async
def stored_events(code: str) -> int:
    return TableEvent.objects.filter(table__code=code).count()


@database_sync_to_async
def idle_closed(code: str) -> bool:
    return Table.objects.get(code=code).idle_closed is not None


async def abandoned_practice_table() -> str:
    """A person and two computer players; the person left (a stand-in plays at once)."""
    code = await create(
        players=3,
        options=Options(turn_limit=5000),
        bots={1: BotLevel.QUICK, 2: BotLevel.QUICK},
        bot_time_scale=0.05,
        away_after_ms=0,
    )
    ana = await player(code, "Ana")
    if ana.welcome["view"]["to_play"] == 0:
        await ana.send(type="turn")
    await ana.until("card_turned")
    await ana.close()
    return code


async def test_a_table_nobody_is_connected_to_stops_playing(settings):
    settings.TABLE_IDLE_PAUSE_S = 0.3
    settings.TABLE_IDLE_CLOSE_S = 60
    code = await abandoned_practice_table()
    await asyncio.sleep(0.6)  # paused by now
    paused_at = await stored_events(code)
    await asyncio.sleep(0.8)
    assert await stored_events(code) == paused_at  # no stand-in plays for nobody
    watcher = await connect(code)  # someone comes: it goes on where it stopped
    assert watcher.welcome["seq"] == paused_at
    events = await watcher.until("card_turned")
    assert events[0]["seq"] == paused_at + 1
    await watcher.close()


async def test_a_table_left_alone_is_closed_with_its_record_kept(settings):
    settings.TABLE_IDLE_PAUSE_S = 0.2
    settings.TABLE_IDLE_CLOSE_S = 0.3
    code = await abandoned_practice_table()
    await asyncio.sleep(1.0)
    assert await idle_closed(code)
    assert await stored_events(code) > 0  # the record stays, for the replay
    comm = WebsocketCommunicator(application(), f"/ws/play/{code}/", headers=[ORIGIN, HOST])
    connected, _ = await comm.connect()
    assert connected  # accepted, then closed: the browser sees the code
    assert await comm.receive_output(timeout=2) == {"type": "websocket.close", "code": 4404}


async def test_a_watched_table_plays_on(settings):
    settings.TABLE_IDLE_PAUSE_S = 0.2
    code = await abandoned_practice_table()
    watcher = await connect(code)
    await asyncio.sleep(0.5)
    before = await stored_events(code)
    await asyncio.sleep(0.5)
    assert await stored_events(code) > before
    await watcher.close()


@database_sync_to_async
def open_until(code: str) -> int:
    return Table.objects.get(code=code).open_until


async def test_a_table_nobody_ever_joined_is_gone_once_the_idle_times_have_passed(settings):
    settings.TABLE_IDLE_PAUSE_S = 0.2
    settings.TABLE_IDLE_CLOSE_S = 0.2
    code = await create(players=2, options=Options())
    await asyncio.sleep(0.5)  # nobody connected, no process loaded it
    comm = WebsocketCommunicator(application(), f"/ws/play/{code}/", headers=[ORIGIN, HOST])
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_output(timeout=2) == {"type": "websocket.close", "code": 4404}
    assert await idle_closed(code)  # closed with its record kept, as any idle table
    assert await open_until(code) == 0


async def test_a_table_someone_is_at_stays_open_past_the_idle_times(settings):
    settings.TABLE_IDLE_PAUSE_S = 0.3
    settings.TABLE_IDLE_CLOSE_S = 0.3
    code = await create(players=2, options=Options())
    ana = await player(code, "Ana")
    await asyncio.sleep(3)  # the moment it closes is moved on while Ana is here
    assert await open_until(code) > tables.wall_ms() + 600
    await ana.close()
    await asyncio.sleep(0.8)
    assert await idle_closed(code) and await open_until(code) == 0


async def test_a_finished_game_counts_as_open_no_more():
    from games.tables.limits import tables_open_of

    key = await session_new()
    code = await database_sync_to_async(tables.table_open_device)(
        session_key=key,
        people=[("Ana", ""), ("Ben", "")],
        beat_ms=20,
        options=Options(turn_limit=6),
        address="10.0.0.3",
    )
    assert await database_sync_to_async(tables_open_of)(session_key=key) == 1
    device = await connect(code, key)
    await device.until("game_over")
    for _ in range(50):  # stored just after the game's end
        if not await open_until(code):
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(tables_open_of)(session_key=key) == 0
    assert await database_sync_to_async(tables_open_of)(address="10.0.0.3") == 0


async def test_a_table_taken_over_by_a_new_owner_stays_open_while_its_players_are_there(
    settings,
):
    settings.TABLE_IDLE_PAUSE_S = 1
    settings.TABLE_IDLE_CLOSE_S = 1
    code = await create(players=2, options=Options())
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    first = (ana, ben)[ana.welcome["view"]["to_play"]]
    tables.registry_drop()  # its owner gone (as a process that died); the players stay
    await first.send(type="turn")  # the next call loads a new owner, which tells everyone
    await ana.until("card_turned")
    await asyncio.sleep(5)  # well past the idle times, and the stored moment
    assert not await idle_closed(code)
    await ana.send(type="hello")
    assert (await ana.recv())["type"] == "welcome"  # still there
