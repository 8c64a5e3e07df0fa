"""A table nobody is connected to pauses, and is closed after a while with its record
kept (issue 14: abandoned practice tables kept playing, stand-ins for nobody)."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import tables
from games.engine import BotLevel, Options
from games.models import Table, TableEvent

from .helpers import HOST, ORIGIN, application, connect, player

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
