"""The channel layer between processes over real Redis: one PUBLISH a message, and
what waits for a process that does not read is bounded (snapsite/redis_layer.py)."""

from __future__ import annotations

import asyncio
import logging
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from snapsite.redis_layer import BoundedPubSubChannelLayer
from tests.conftest import redis_test_url, require
from tests.services.test_production_services import REDIS_HOST, REDIS_PORT, reachable

pytestmark = pytest.mark.redis
URL = redis_test_url(0, REDIS_HOST, REDIS_PORT)


def run_in_thread(work):
    """Its own thread and loop: Playwright's sync API may hold an event loop in this one."""
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result(timeout=60)


def test_a_channel_that_is_not_read_keeps_its_capacity_and_drops_the_rest(caplog):
    async def flood():
        sender = BoundedPubSubChannelLayer(hosts=[URL], capacity=50)
        receiver = BoundedPubSubChannelLayer(hosts=[URL], capacity=50)
        channel = await receiver.new_channel()
        for n in range(80):
            await sender.send(channel, {"type": "table.relay", "n": n})
        await sender.send(channel, {"type": "last"})
        await asyncio.sleep(0.5)  # the receiver's reader has taken every message
        kept = [await asyncio.wait_for(receiver.receive(channel), 5) for _ in range(50)]
        await sender.send(channel, {"type": "after", "n": 99})
        after = await asyncio.wait_for(receiver.receive(channel), 5)
        await sender.flush()
        await receiver.flush()
        return kept, after

    with caplog.at_level(logging.WARNING, logger="snapsite.redis_layer"):
        kept, after = run_in_thread(flood())
    assert [m["n"] for m in kept] == list(range(50))  # the first 50, in order
    assert after == {"type": "after", "n": 99}  # read again, the channel takes more
    assert "50 messages waiting, 1 dropped so far" in caplog.text


def test_a_group_message_reaches_each_subscribed_process_once():
    async def relay():
        one = BoundedPubSubChannelLayer(hosts=[URL])
        two = BoundedPubSubChannelLayer(hosts=[URL])
        a, b = await one.new_channel(), await two.new_channel()
        group = f"table.{uuid.uuid4().hex[:6]}"
        await one.group_add(group, a)
        await two.group_add(group, b)
        await asyncio.sleep(0.2)  # both subscriptions taken by Redis
        await one.group_send(group, {"type": "table.relay", "seq": 7})
        got = [await asyncio.wait_for(layer.receive(ch), 5) for layer, ch in ((one, a), (two, b))]
        extra = []
        for layer, ch in ((one, a), (two, b)):
            try:
                extra.append(await asyncio.wait_for(layer.receive(ch), 0.3))
            except TimeoutError:
                pass
        await one.flush()
        await two.flush()
        return got, extra

    got, extra = run_in_thread(relay())
    assert got == [{"type": "table.relay", "seq": 7}] * 2
    assert extra == []
