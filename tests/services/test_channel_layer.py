"""The one-process channel layer (snapsite/channel_layer.py) keeps the semantics of
Channels' in-memory layer: capacity, message expiry (the channel leaves its groups),
group expiry, a copy per receiver, and group_send to the members only."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull

from snapsite.channel_layer import LazyExpiryChannelLayer
from tests.own_loop import in_own_loop


async def receive_soon(layer, channel: str, timeout: float = 0.2):
    return await asyncio.wait_for(layer.receive(channel), timeout)


@in_own_loop
async def test_a_message_sent_is_received_once_as_its_own_copy():
    layer = LazyExpiryChannelLayer()
    message = {"type": "table.event", "view": {"piles": [1, 2]}}
    await layer.send("one", message)
    message["view"]["piles"].append(3)
    assert await receive_soon(layer, "one") == {"type": "table.event", "view": {"piles": [1, 2]}}
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "one", 0.05)


@in_own_loop
async def test_a_full_channel_refuses_the_next_message():
    layer = LazyExpiryChannelLayer(capacity=2)
    await layer.send("one", {"type": "a"})
    await layer.send("one", {"type": "b"})
    with pytest.raises(ChannelFull):
        await layer.send("one", {"type": "c"})
    assert (await receive_soon(layer, "one"))["type"] == "a"


@in_own_loop
async def test_group_send_reaches_each_member_with_its_own_copy_and_skips_a_full_one():
    layer = LazyExpiryChannelLayer(capacity=1)
    for channel in ("a", "b", "c"):
        await layer.group_add("table.X", channel)
    await layer.group_add("table.Y", "d")
    await layer.send("c", {"type": "filler"})
    await layer.group_send("table.X", {"type": "event", "seq": 1, "params": {"seat": 0}})
    got_a, got_b = await receive_soon(layer, "a"), await receive_soon(layer, "b")
    assert got_a == got_b == {"type": "event", "seq": 1, "params": {"seat": 0}}
    got_a["params"]["seat"] = 9
    assert got_b["params"]["seat"] == 0
    assert (await receive_soon(layer, "c"))["type"] == "filler"  # full: skipped
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "d", 0.05)


@in_own_loop
async def test_an_expired_message_is_dropped_and_its_channel_leaves_its_groups():
    layer = LazyExpiryChannelLayer(expiry=0.05)
    await layer.group_add("table.X", "gone")
    await layer.group_add("table.X", "here")
    await layer.group_add("table.Y", "gone")
    await layer.send("gone", {"type": "unread"})
    await asyncio.sleep(0.1)
    await layer.group_send("table.X", {"type": "event", "seq": 2})
    assert (await receive_soon(layer, "here"))["seq"] == 2
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "gone", 0.05)  # the unread message expired, no event
    assert "gone" not in layer.groups.get("table.X", {}) and "table.Y" not in layer.groups


@in_own_loop
async def test_a_group_membership_ends_after_group_expiry_unless_joined_again():
    layer = LazyExpiryChannelLayer(group_expiry=0.1)
    await layer.group_add("table.X", "old")
    await layer.group_add("table.X", "renewed")
    await asyncio.sleep(0.06)
    await layer.group_add("table.X", "renewed")
    await asyncio.sleep(0.06)
    await layer.group_send("table.X", {"type": "event", "seq": 3})
    assert (await receive_soon(layer, "renewed"))["seq"] == 3
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "old", 0.05)


@in_own_loop
async def test_a_discarded_channel_gets_no_more_group_messages_and_flush_empties_all():
    layer = LazyExpiryChannelLayer()
    await layer.group_add("table.X", "a")
    await layer.group_add("table.X", "b")
    await layer.group_discard("table.X", "a")
    await layer.group_send("table.X", {"type": "event", "seq": 4})
    assert (await receive_soon(layer, "b"))["seq"] == 4
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "a", 0.05)
    await layer.send("b", {"type": "pending"})
    await layer.flush()
    await layer.group_send("table.X", {"type": "event", "seq": 5})
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "b", 0.05)


@in_own_loop
async def test_a_receiver_waiting_before_the_send_gets_the_message():
    layer = LazyExpiryChannelLayer()
    waiting = asyncio.create_task(layer.receive("late"))
    await asyncio.sleep(0.01)
    await layer.group_add("table.X", "late")
    await layer.group_send("table.X", {"type": "event", "seq": 6})
    assert (await asyncio.wait_for(waiting, 0.2))["seq"] == 6


@in_own_loop
async def test_a_cancelled_receiver_leaves_the_message_to_the_next_one():
    layer = LazyExpiryChannelLayer()
    gone = asyncio.create_task(layer.receive("seat"))
    await asyncio.sleep(0.01)
    gone.cancel()  # the connection closed while waiting
    await asyncio.sleep(0.01)
    await layer.send("seat", {"type": "event", "seq": 1})
    assert (await asyncio.wait_for(layer.receive("seat"), 0.2))["seq"] == 1
    assert gone.cancelled()


@in_own_loop
async def test_messages_wait_in_order_until_received():
    layer = LazyExpiryChannelLayer()
    for seq in range(1, 6):
        await layer.send("seat", {"type": "event", "seq": seq})
    got = [(await layer.receive("seat"))["seq"] for _ in range(5)]
    assert got == [1, 2, 3, 4, 5]
    assert "seat" not in layer.channels  # an empty channel is forgotten


@in_own_loop
async def test_a_receiver_still_waiting_when_its_first_message_would_have_expired_gets_later_ones():
    """A connection waits on its channel almost all the time. When the time its first
    message would have expired comes, the waiting receiver keeps its queue: later
    messages reach it (bench_abuse: every table stopped getting events 60 s in)."""
    layer = LazyExpiryChannelLayer(expiry=0.2)
    await layer.group_add("table.ABC", "one")
    await layer.group_send("table.ABC", {"type": "first"})
    assert (await receive_soon(layer, "one"))["type"] == "first"
    waiting = asyncio.ensure_future(layer.receive("one"))
    await asyncio.sleep(0.3)  # past the first message's expiry, the receiver waiting
    await layer.group_send("table.ABC", {"type": "second"})  # its expiry is looked at
    await layer.group_send("table.ABC", {"type": "third"})
    assert (await asyncio.wait_for(waiting, 0.5))["type"] == "second"
    assert (await receive_soon(layer, "one"))["type"] == "third"
