"""A table's owner relays over Redis only while a connection of another process listens
(games/tables/fan_out.py, ``ListenersElsewhere``): a table whose players all share the
owner's process costs Redis nothing per event; a connection of another process is sent
every event after its welcome until it leaves; a new owner relays everything until the
others have had time to say again that they are there."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
from channels.layers import get_channel_layer

from games import tables
from games.tables import fan_out

from .test_table_fan_out import close_all, four_players
from .test_table_redis import redis_layer  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.redis]

#: A connection's name as another process names them (its tag is not this process's).
ELSEWHERE = "conn.0123456789ab.1"


@pytest_asyncio.fixture
async def table_here(redis_layer):  # noqa: F811
    """A new table of four players, all on this process (its first owner), over Redis:
    (code, clients); closed and dropped afterwards."""
    code, clients = await four_players()
    yield code, clients
    await close_all(clients)
    tables.registry_drop()


def relays_sent(monkeypatch) -> list[dict]:
    """The table relays this process sends to Redis from now on (each a ``group_send``)."""
    layer = get_channel_layer()
    sent: list[dict] = []
    group_send = layer.group_send

    async def counted(group, message):
        sent.append(message)
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", counted)
    return sent


async def turn(clients, seat: int) -> int:
    """``seat`` turns its card; every player has it told; its event's number."""
    await clients[seat].send(type="turn")
    seqs = [(await client.until("card_turned"))[-1]["seq"] for client in clients]
    assert len(set(seqs)) == 1
    return seqs[0]


async def test_a_table_whose_players_are_all_on_the_owners_process_sends_nothing_to_redis(
    table_here, monkeypatch
):
    code, clients = table_here
    sent = relays_sent(monkeypatch)
    await turn(clients, 0)
    await turn(clients, 1)
    assert sent == []


async def test_a_connection_of_another_process_is_relayed_every_event_after_its_welcome(
    table_here, monkeypatch
):
    code, clients = table_here
    sent = relays_sent(monkeypatch)
    welcome = await tables.table_welcome(code=code, session_key=None, connection=ELSEWHERE)
    first = await turn(clients, 0)
    assert first == welcome["seq"] + 1
    await tables.table_attend(code=code, connection=ELSEWHERE, here=True)
    second = await turn(clients, 1)
    assert [relay["message"]["seq"] for relay in sent] == [first, second]
    assert {relay["code"] for relay in sent} == {code}
    await tables.table_attend(code=code, connection=ELSEWHERE, here=False)  # it has left
    await turn(clients, 2)
    assert len(sent) == 2


async def test_a_connection_of_another_process_that_leaves_before_attending_is_relayed_no_more(
    table_here, monkeypatch
):
    code, clients = table_here
    sent = relays_sent(monkeypatch)
    await tables.table_welcome(code=code, session_key=None, connection=ELSEWHERE)
    await tables.table_attend(code=code, connection=ELSEWHERE, here=False)
    await turn(clients, 0)
    assert sent == []


async def test_a_new_owner_relays_everything_until_the_others_have_said_they_are_there(
    table_here, monkeypatch
):
    monkeypatch.setattr(fan_out, "RELAY_ALL_AFTER_LOAD_S", 0.5)
    code, clients = table_here
    await tables.table_attend(code=code, connection=ELSEWHERE, here=True)  # known to the first
    tables.registry_drop()  # this process's owner gone: the table is loaded again
    sent = relays_sent(monkeypatch)
    first = await turn(clients, 0)  # a new owner: it cannot know who listens elsewhere
    assert first in [relay["message"].get("seq") for relay in sent]
    assert "table.owner" in [relay["message"]["type"] for relay in sent]
    await asyncio.sleep(0.6)
    sent.clear()
    await turn(clients, 1)  # nobody elsewhere has said so to the new owner
    assert sent == []
    await tables.table_attend(code=code, connection=ELSEWHERE, here=True)  # as told of it
    third = await turn(clients, 2)
    assert [relay["message"]["seq"] for relay in sent] == [third]


async def test_this_processs_own_connections_never_count_as_elsewhere():
    listeners = fan_out.ListenersElsewhere(first_owner=True)
    listeners.listening(fan_out.connection_name())
    assert not listeners.relay_needed()
    listeners.listening("a name no process gives")  # unknown: counted, to be safe
    assert listeners.relay_needed()
