"""One client cannot freeze a table, act through another page, or flood it:
each over the real consumer and its guards (snapsite.asgi)."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import tables
from games.engine import Options
from games.play.ws_guard import FLOOD_CLOSE_CODE
from games.tables import store

from .helpers import HOST, ORIGIN, application, connect, open_connection, player, stacked_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

create = database_sync_to_async(tables.table_create)


async def table_of_two(**settings):
    code = await create(
        players=2, options=Options(), deck=stacked_deck(2, ["7H", "7S"]), **settings
    )
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    assert (await ana.recv())["type"] == "seats"  # Ben sat down
    return code, ana, ben


async def seats_until_away(client, seat: int, timeout: float = 3) -> dict:
    """Frames until a ``seats`` frame shows ``seat`` away (a stand-in plays it)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, "no stand-in came"
        frame = await client.recv(timeout=left)
        if frame["type"] == "seats" and frame["seats"][seat]["away"]:
            return frame


async def test_a_deeply_nested_frame_is_bad_json_and_the_seat_is_still_given_back():
    code, ana, ben = await table_of_two(away_after_ms=100)
    await ana.send_text("[" * 970)
    assert (await ana.error())["code"] == "bad_json"
    await ana.send_text('{"type": "hello", "x": ' + "[" * 9 + "]" * 9 + "}")
    assert (await ana.error())["code"] == "bad_json"  # deeper than MAX_NESTING
    await ana.send(type="turn")  # the connection still works
    assert (await ben.until("card_turned"))[-1]["params"]["seat"] == 0
    await ana.close()
    await seats_until_away(ben, 0)  # her presence was given back: a stand-in plays


async def test_a_failing_handler_answers_server_error_and_presence_is_kept_right(monkeypatch):
    code, ana, ben = await table_of_two(away_after_ms=100)

    async def broken(**kwargs):
        raise RuntimeError("storage is down")

    monkeypatch.setattr(tables, "table_events_since", broken)
    await ana.send(type="resync", since=0)
    error = await ana.error()
    assert error["code"] == "server_error"
    assert error["message"] == "Something went wrong at the table. Try again."
    await ana.send(type="turn")
    assert (await ben.until("card_turned"))[-1]["params"]["seat"] == 0
    await ana.close()
    await seats_until_away(ben, 0)


async def test_a_name_with_a_lone_surrogate_is_bad_name_and_seats_nobody():
    code = await create(players=2, options=Options())
    from .helpers import session_new

    client = await connect(code, await session_new())
    await client.send_text(json.dumps({"type": "join", "name": "Ana\ud800"}))
    assert (await client.error())["code"] == "bad_name"
    await client.send(type="hello")
    assert (await client.recv())["seat"] is None


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e309"])
@pytest.mark.parametrize("kind", ["ping", "pong", "snap"])
async def test_non_finite_numbers_are_refused(kind, number):
    code, ana, ben = await table_of_two()
    field = "seen" if kind == "snap" else "t"
    await ana.send_text(f'{{"type": "{kind}", "{field}": {number}}}')
    assert (await ana.error())["code"] == "bad_json"
    assert await ben.nothing()


@pytest.mark.parametrize(
    "origin",
    [
        "http://testserver:9999",  # another port of the same host
        "https://testserver",  # another scheme
        "testserver",  # a bare host
        "http://testserver.evil.example",
        "null",
        "",
    ],
)
async def test_only_the_sites_own_origin_may_connect(origin):
    code = await create(players=2, options=Options())
    headers = [HOST] + ([(b"origin", origin.encode())] if origin else [])
    comm = WebsocketCommunicator(application(), f"/ws/play/{code}/", headers=headers)
    connected, _ = await comm.connect()
    assert not connected


async def test_the_sites_own_origin_with_its_port_and_a_configured_origin_connect(settings):
    code = await create(players=2, options=Options())
    for host, origin in [
        (b"testserver:8123", b"http://testserver:8123"),
        (b"testserver:80", b"http://testserver"),
    ]:
        comm = WebsocketCommunicator(
            application(), f"/ws/play/{code}/", headers=[(b"host", host), (b"origin", origin)]
        )
        assert (await comm.connect())[0], (host, origin)
        await comm.disconnect()
    settings.WEBSOCKET_ORIGINS = ["https://snap.example.org"]
    proxied = [(b"host", b"127.0.0.1:8000"), (b"origin", b"https://snap.example.org")]
    comm = WebsocketCommunicator(application(), f"/ws/play/{code}/", headers=proxied)
    assert (await comm.connect())[0]
    await comm.disconnect()


async def test_behind_a_tls_proxy_the_https_origin_is_the_sites_own(settings):
    code = await create(players=2, options=Options())
    headers = [HOST, (b"origin", b"https://testserver")]
    comm = WebsocketCommunicator(application(), f"/ws/play/{code}/", headers=headers)
    assert not (await comm.connect())[0]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    headers.append((b"x-forwarded-proto", b"https"))
    comm = WebsocketCommunicator(application(), f"/ws/play/{code}/", headers=headers)
    assert (await comm.connect())[0]
    await comm.disconnect()
    assert ORIGIN  # the helpers' plain http origin stays the test client's own


async def test_a_connection_that_keeps_flooding_after_its_warning_is_closed(settings):
    settings.WS_FLOOD_CLOSE_AFTER = 50
    code, ana, ben = await table_of_two(away_after_ms=100)
    for t in range(200):
        await ben.send(type="ping", t=t)
    frames = []
    while True:
        output = await ben.comm.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
        frames.append(json.loads(output["text"]))
    assert output["code"] == FLOOD_CLOSE_CODE
    assert [f["code"] for f in frames if f["type"] == "error"] == ["rate_limited"]
    assert 15 <= sum(f["type"] == "pong" for f in frames) <= 45
    await ben.close()
    await seats_until_away(ana, 1)  # the closed flooder's seat is given back
    await ana.send(type="turn")  # and the game goes on
    assert (await ana.until("card_turned"))[-1]["seq"] >= 1


async def test_a_short_flood_is_warned_and_the_connection_stays(settings):
    settings.WS_FLOOD_CLOSE_AFTER = 50
    code, ana, ben = await table_of_two()
    for t in range(60):  # 20 let through, 40 dropped: under the closing limit
        await ben.send(type="ping", t=t)
    await asyncio.sleep(0.5)
    await ben.send(type="ping", t=999)
    frames = []
    while not await ben.nothing(timeout=0.3):
        frames.append(await ben.recv())
    assert frames[-1] == {"type": "pong", "t": 999, "server_ms": frames[-1]["server_ms"]}


async def test_a_socket_that_never_says_hello_is_closed(settings):
    settings.WS_HELLO_TIMEOUT_S = 0.3
    code = await create(players=2, options=Options())
    client = await open_connection(code)
    output = await client.comm.receive_output(timeout=2)
    assert output == {"type": "websocket.close", "code": 4408}
    talker = await open_connection(code)
    await talker.send(type="hello")
    assert (await talker.recv())["type"] == "welcome"
    assert await talker.nothing(timeout=0.6)  # one that said hello stays open


async def long_table(turns: int) -> tuple[str, object]:
    """A table of two after ``turns`` card turns (about two events each)."""
    code, ana, ben = await table_of_two()
    for k in range(turns):
        mover = ana if k % 2 == 0 else ben
        await mover.send(type="turn")
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)
    return code, ana


async def test_catch_up_is_priced_by_the_events_it_sends(settings):
    code, _ana = await long_table(12)
    seq = (await connect(code)).welcome["seq"]
    assert seq >= 12
    settings.WS_CATCH_UP_EVENTS_PER_MINUTE = seq + 2  # one catch-up from 0, not two
    watcher = await connect(code)
    await watcher.send(type="resync", since=0)
    events = [await watcher.recv() for _ in range(seq)]
    assert [e["seq"] for e in events] == list(range(1, seq + 1))
    await watcher.send(type="resync", since=0)  # the budget is spent: no events again
    assert (await watcher.error())["code"] == "catch_up_limited"
    welcome = await watcher.recv()
    assert welcome["type"] == "welcome" and welcome["seq"] == seq
    assert await watcher.nothing()
    again = await connect(code, hello={"since": 0})  # a new connection, a new budget
    assert [(await again.recv())["seq"] for _ in range(seq)][-1] == seq


async def test_a_catch_up_beyond_the_budget_is_refused_without_reading_storage(
    settings, monkeypatch
):
    code, _ana = await long_table(12)
    seq = (await connect(code)).welcome["seq"]
    settings.WS_CATCH_UP_EVENTS_PER_MINUTE = seq - 2  # never the whole game at once
    watcher = await connect(code)
    reads = []
    real_read = tables.table_events_since

    async def counted_read(**kwargs):
        reads.append(kwargs["since"])
        return await real_read(**kwargs)

    monkeypatch.setattr(tables, "table_events_since", counted_read)
    await watcher.send(type="resync", since=0)
    assert (await watcher.error())["code"] == "catch_up_limited"
    assert (await watcher.recv())["type"] == "welcome"
    assert reads == []  # refused by the numbers: the stored events were not read
    await watcher.send(type="resync", since=seq - 3)  # within the budget: sent
    assert [(await watcher.recv())["seq"] for _ in range(3)] == [seq - 2, seq - 1, seq]
    assert reads == [seq - 3]


async def test_a_client_that_never_reads_is_cut_once_its_queue_passes_the_bound(settings):
    """The server's ``send`` waits for ever after the first frames (a socket whose buffer
    is full, as uvicorn does): the guard's own queue grows, and past
    ``WS_SEND_BACKLOG_BYTES`` the consumer is told the client has gone and ends, while
    the table goes on for the other player."""
    from games.play.ws_guard import ConnectionGuard

    code, ana = await long_table(30)
    settings.WS_SEND_BACKLOG_BYTES = 3000
    taken: list[dict] = []
    never = asyncio.Event()
    inbound: asyncio.Queue = asyncio.Queue()

    async def server_send(message):
        taken.append(message)
        if len(taken) > 2:  # the accept and one frame went; then the socket is full
            await never.wait()

    scope = {
        "type": "websocket", "path": f"/ws/play/{code}/", "headers": [HOST, ORIGIN],
        "client": ("127.0.0.9", 5000), "query_string": b"", "subprotocols": [],
    }  # fmt: skip
    from channels.routing import URLRouter
    from channels.sessions import SessionMiddlewareStack

    from games.play.routing import websocket_urlpatterns

    guarded = ConnectionGuard(SessionMiddlewareStack(URLRouter(websocket_urlpatterns)))
    await inbound.put({"type": "websocket.connect"})
    hello = {"type": "hello", "since": 0}  # the whole game again: more than the bound
    await inbound.put({"type": "websocket.receive", "text": json.dumps(hello)})
    handler = asyncio.ensure_future(guarded(scope, inbound.get, server_send))
    await asyncio.wait_for(handler, timeout=5)  # cut: its handler returned by itself
    assert len(taken) == 3  # nothing more was handed to the stuck socket
    await ana.send(type="ping", t=1)
    frames = [await ana.recv()]
    while frames[-1]["type"] != "pong":  # the table's own players go on
        frames.append(await ana.recv())


async def test_a_long_catch_up_is_read_in_slices_each_a_short_call_on_the_database_thread(
    monkeypatch,
):
    code, _ana = await long_table(12)
    everything = await database_sync_to_async(store.events_since)(code, 0, 5000)
    assert len(everything) >= 12
    monkeypatch.setattr(tables, "EVENTS_READ_SLICE", 5)
    calls = []
    real = store.events_since

    def counted(code, since, limit):
        calls.append((since, limit))
        return real(code, since, limit)

    monkeypatch.setattr(store, "events_since", counted)
    watcher = await connect(code, hello={"since": 0})
    sent = [(await watcher.recv())["seq"] for _ in range(len(everything))]
    assert sent == [e["seq"] for e in everything]  # every event once, in order
    assert all(limit <= 5 for _, limit in calls) and len(calls) >= len(everything) // 5
    assert [since for since, _ in calls[1:]] == sent[4::5][: len(calls) - 1]  # each after the last
    # a read that ends inside a slice needs no further call
    calls.clear()
    assert [e["seq"] for e in await tables.table_events_since(code=code, since=0, limit=7)] == (
        sent[:7]
    )
    assert calls == [(0, 5), (sent[4], 2)]
