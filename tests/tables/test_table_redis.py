"""The same table over the Redis channel layer (the production shape): every message
the service puts on the layer survives Redis's serialisation."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer

from games import tables
from games.engine import Options
from games.tables import registry
from tests.conftest import redis_test_url, require
from tests.snapsite.test_production_services import REDIS_HOST, REDIS_PORT, reachable

from .helpers import assert_frames_safe, player, stacked_deck, stored_record

REDIS_TEST_URL = redis_test_url(1, REDIS_HOST, REDIS_PORT)


@pytest.fixture
def redis_layer(settings):
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_TEST_URL]},
        }
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_snap_over_the_redis_channel_layer(redis_layer):
    assert type(get_channel_layer()).__name__ == "RedisChannelLayer"
    code = await database_sync_to_async(tables.table_create)(
        players=2, options=Options(tie_window_ms=50), deck=stacked_deck(2, ["7H", "7S"])
    )
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    assert (await ana.recv())["type"] == "seats"
    await ana.send(type="turn")
    await ben.until("card_turned")
    await ben.send(type="turn")
    await ana.until("card_turned")  # her own
    seen = (await ana.until("card_turned"))[-1]["seq"]  # Ben's
    await ana.send(type="snap", seen=seen)
    won = (await ben.until("piles_won", timeout=5))[-1]
    assert won["params"]["winner"] == 0 and won["seq"] == 4
    assert_frames_safe(ana.frames + ben.frames, await stored_record(code))
    tables.registry_drop()
    await ana.close()
    await ben.close()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_first_calls_of_a_process_all_wait_for_its_name_on_the_layer(redis_layer):
    """The publish/subscribe layer waits on Redis for a new channel: the calls of a
    process's first moments (every connection of a table arriving at once) must not
    read the name before it is there, or they take tables under the empty name, which
    every process shares (two owners of one table, bench_tables --processes 2)."""
    names = await asyncio.gather(*(registry.process_channel() for _ in range(4)))
    assert names[0] and names == [names[0]] * 4
    tables.registry_drop()
