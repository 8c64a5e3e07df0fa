"""A table's messages reach this process's connections from the owner directly
(games/tables/fan_out.py): every player is sent a card within the owner's own step, no
connection holds a channel on the layer, a process is in a table's Redis group once
whatever its connections, and a connection that cannot keep up is closed, not waited
for."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from redis.asyncio import Redis

from games import tables
from games.engine import Options
from games.play import consumer
from games.replay.sample import store_sample_game
from games.tables import fan_out

from .helpers import connect, player, stacked_deck
from .test_table_redis import REDIS_TEST_URL, redis_layer  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def four_players():
    code = await database_sync_to_async(tables.table_create)(
        players=4, options=Options(tie_window_ms=50), deck=stacked_deck(4, ["2H", "5S", "9C", "KD"])
    )
    clients = [await player(code, name) for name in ("Ana", "Ben", "Cyd", "Dan")]
    for client in clients:  # each is told of those who sat down after it
        while not await client.nothing(timeout=0.1):
            await client.recv()
    return code, clients


def sent_now(client) -> list[dict]:
    """The frames the server has sent this client so far, without waiting for more."""
    queued = list(client.comm.output_queue._queue)
    return [json.loads(m["text"]) for m in queued if m.get("type") == "websocket.send"]


async def close_all(clients) -> None:
    for client in clients:
        await client.close()


async def test_every_player_is_sent_the_card_in_the_same_pass_of_the_loop():
    """Each connection's send queue hands its frames to the server in the pass after the
    owner's step: all four players have the card then, none a pass later than another."""
    code, clients = await four_players()
    outcome = await tables.table_submit(
        code=code, seat=0, action_json={"type": "turn"}, received_ms=tables.wall_ms(), lag_ms=0
    )
    assert outcome.seqs == (1,)
    await asyncio.sleep(0)  # one pass of the event loop
    for client in clients:  # not one of them waits for its own turn of the event loop
        events = [f for f in sent_now(client) if f["type"] == "event"]
        assert [(e["seq"], e["code"]) for e in events] == [(1, "card_turned")]
    await close_all(clients)


async def test_connections_hold_no_channel_and_no_group_on_the_one_process_layer():
    code, clients = await four_players()
    await clients[0].send(type="turn")
    for client in clients:
        await client.until("card_turned")
    layer = get_channel_layer()
    assert layer.groups == {}  # nothing of the table goes over the layer
    assert set(layer.channels) <= {await tables.process_channel()}  # the process's own only
    assert fan_out.listening(code) == 4
    await close_all(clients)
    assert fan_out.listening(code) == 0


@pytest.mark.redis
async def test_a_process_is_in_a_tables_redis_group_once_whatever_its_connections(redis_layer):  # noqa: F811
    code, clients = await four_players()
    # channels_redis keeps a group as a sorted set of its channels in Redis
    group_key = f"asgi:group:{tables.group_name(code)}"
    redis = Redis.from_url(REDIS_TEST_URL)

    async def members() -> list[bytes]:
        return await redis.zrange(group_key, 0, -1)

    # four connections here, one member: this process's own channel
    assert await members() == [(await tables.process_channel()).encode()]
    await clients[1].send(type="turn")  # out of turn: refused, nothing told
    assert (await clients[1].error())["code"] == "not_your_turn"
    await clients[0].send(type="turn")
    for client in clients:  # told here once
        events = await client.until("card_turned")
        assert [e["seq"] for e in events] == [1]
        assert await client.nothing(timeout=0.2)
    await close_all(clients)
    await asyncio.sleep(0.1)
    assert await members() == []  # left with its last connection
    await redis.aclose()
    tables.registry_drop()


async def test_a_relay_from_another_process_is_told_here_and_ones_own_is_not():
    told = []

    class Listener:
        async def table_message(self, message):
            told.append(message["seq"])

    listener = Listener()
    await fan_out.listen("ABCDEF", listener, "me")
    message = {"type": "table.event", "seq": 7}
    await fan_out.relayed({"code": "ABCDEF", "origin": "me", "message": message}, "me")
    await fan_out.relayed({"code": "ABCDEF", "origin": "other", "message": message}, "me")
    await fan_out.unlisten("ABCDEF", listener, "me")
    await fan_out.relayed({"code": "ABCDEF", "origin": "other", "message": message}, "me")
    assert told == [7]


async def test_a_connection_that_cannot_keep_up_is_closed_and_the_table_goes_on(monkeypatch):
    code, (ana, ben, cyd, dan) = await four_players()
    monkeypatch.setattr(consumer, "INBOX_LIMIT", 3)
    events_since = tables.table_events_since
    slow_storage = asyncio.Event()

    async def held_events_since(**kwargs):
        await slow_storage.wait()  # Ben's catch-up waits on storage for a long time
        return await events_since(**kwargs)

    monkeypatch.setattr(tables, "table_events_since", held_events_since)
    await ben.send(type="resync", since=0)
    await asyncio.sleep(0.1)
    for number in range(5):  # the others take each one in their turn
        await fan_out.tell_here(code, {"type": "table.class", "class": {"n": number}})
        await asyncio.sleep(0.05)
    frame = await ben.comm.receive_output(timeout=2)
    assert frame == {"type": "websocket.close", "code": consumer.STUCK_CLOSE_CODE}
    assert fan_out.listening(code) == 4  # until its own task comes back
    slow_storage.set()
    await ana.send(type="turn")
    for client in (ana, cyd, dan):
        await client.until("card_turned")
    await ben.close()
    assert fan_out.listening(code) == 3
    await close_all((ana, cyd, dan))


async def test_a_long_catch_up_is_paced_with_other_work_between_its_events():
    code = await database_sync_to_async(store_sample_game)()
    watcher = await connect(code)
    listener = next(iter(fan_out._listeners[code]))
    passes, ticks = [0], []
    loop = asyncio.get_running_loop()

    async def count_passes():
        while True:
            passes[0] += 1
            await asyncio.sleep(0)

    counting = asyncio.ensure_future(count_passes())
    send_event = listener.send_event

    async def counted_send_event(event):
        ticks.append((passes[0], loop.time()))
        await send_event(event)

    listener.send_event = counted_send_event
    await watcher.send(type="resync", since=0)
    events = []
    while len(events) < watcher.welcome["seq"]:
        frame = await watcher.recv()
        if frame["type"] == "event":
            events.append(frame["seq"])
    counting.cancel()
    assert events == list(range(1, watcher.welcome["seq"] + 1))
    assert len(ticks) == len(events) > 10
    passes_seen = [p for p, _ in ticks]
    assert len(set(passes_seen)) == len(passes_seen)  # other work between any two events
    took = ticks[-1][1] - ticks[0][1]
    assert took >= (len(ticks) - 1) / consumer.CATCH_UP_EVENTS_PER_SECOND - 0.002  # paced
    await watcher.close()


async def test_a_connection_waits_on_one_inbox_for_its_frames_and_its_tables_messages():
    code, clients = await four_players()
    before = len(asyncio.all_tasks())
    extra = await connect(code)  # a spectator
    await asyncio.sleep(0.05)
    tasks = len(asyncio.all_tasks()) - before
    # the communicator's application, the guard's pump and the hello deadline: no task
    # waiting on a second queue beside the frames (Channels' await_many_dispatch made two)
    assert tasks <= 3, tasks
    await clients[0].send(type="turn")
    for client in (*clients, extra):
        await client.until("card_turned")
    await close_all((*clients, extra))


def turn_a_card_while_the_watcher_is_welcomed(monkeypatch, turner) -> None:
    """The watcher's next welcome (the one without a session) is made while ``turner``
    turns a card and the card is told."""
    real_welcome = tables.table_welcome

    async def welcome_while_a_card_is_turned(**kwargs):
        if kwargs.get("session_key") is None:
            await turner.send(type="turn")
            await turner.until("card_turned")
        return await real_welcome(**kwargs)

    monkeypatch.setattr(tables, "table_welcome", welcome_while_a_card_is_turned)


async def test_a_second_welcome_is_preceded_by_the_events_that_came_while_it_was_made(monkeypatch):
    code, clients = await four_players()
    watcher = await connect(code)  # welcomed at seq 0
    turn_a_card_while_the_watcher_is_welcomed(monkeypatch, clients[0])  # its second welcome
    await watcher.send(type="hello")
    frames = [await watcher.recv(), await watcher.recv()]
    assert [(f["type"], f.get("seq")) for f in frames] == [("event", 1), ("welcome", 1)]
    assert frames[0]["code"] == "card_turned"
    assert await watcher.nothing()  # the card once, not again after the welcome
    await close_all((*clients, watcher))


async def test_a_new_welcome_after_a_reseat_sends_the_events_made_meanwhile_once(monkeypatch):
    code, clients = await four_players()
    watcher = await connect(code)  # welcomed at seq 0
    turn_a_card_while_the_watcher_is_welcomed(monkeypatch, clients[0])  # after the reseat
    await fan_out.tell_here(code, {"type": "table.reseat"})  # as the teacher's start does
    frames = [await watcher.recv(), await watcher.recv()]
    assert [(f["type"], f.get("seq")) for f in frames] == [("event", 1), ("welcome", 1)]
    assert await watcher.nothing()  # the card once (a catch-up after the welcome sent it again)
    await close_all((*clients, watcher))
