"""What one WebSocket costs this process before anything is sent on it (memory per live
table), and that the guard's light inbox keeps every message in order."""

from __future__ import annotations

import asyncio
import tracemalloc

import pytest

from games.play.consumer import TableConsumer
from games.play.ws_guard import _Connection, _Inbox
from tests.own_loop import run_in_own_loop as run


async def _receive():
    return {"type": "websocket.connect"}


async def _send(message):
    return None


def test_a_connections_guard_costs_under_a_kilobyte_before_any_message():
    async def open_many(count: int) -> int:
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            kept = [_Connection(_receive, _send, None) for _ in range(count)]
            after = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        assert len(kept) == count
        return (after - before) // count

    # an asyncio.Queue inbox, a deque of floods and an Event made it about 4.3 kB
    assert run(open_many(200)) < 1000


def test_a_table_consumer_keeps_its_own_state_out_of_its_instance_dict():
    consumer = TableConsumer()
    consumer.seat, consumer.last_seq, consumer.my_seats = 1, 7, [1]
    assert set(vars(consumer)) == {"groups"}  # Channels' own attribute, nothing of ours


def test_the_inbox_gives_messages_in_the_order_they_came_even_to_a_waiting_reader():
    async def scenario():
        inbox = _Inbox()
        inbox.put_nowait({"n": 1})
        assert await inbox.get() == {"n": 1}
        reader = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)  # the reader waits
        inbox.put_nowait({"n": 2})
        inbox.put_nowait({"n": 3})  # in the same pass: waits for the next get
        assert await reader == {"n": 2}
        assert await inbox.get() == {"n": 3}

    run(scenario())


def test_a_reader_cancelled_while_a_message_arrives_loses_nothing():
    async def scenario():
        inbox = _Inbox()
        reader = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        inbox.put_nowait({"n": 1})
        reader.cancel()  # before it could take the message
        with pytest.raises(asyncio.CancelledError):
            await reader
        assert await asyncio.wait_for(inbox.get(), 1) == {"n": 1}

    run(scenario())
