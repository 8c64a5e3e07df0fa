"""A process that finds a table its connections are at held by a new owner tells them so
itself (``table.owner``: they say again that they are there, and fill any gap), as the
new owner's relay does: that relay can be lost, and then the new owner, not knowing
them, would stop relaying to them and give their seats stand-ins."""

from __future__ import annotations

import asyncio

import pytest

from games.tables import fan_out, lease, registry
from tests.own_loop import run_in_own_loop as run

from .helpers import registry_reaching

# nothing is read (the lease read is replaced), but Channels' database thread checks
# its connection before each call
pytestmark = pytest.mark.django_db(transaction=True)

CODE = "NEWOWN"


class Holders:
    """The processes that hold the table, one after another, as the lease says; only
    the one holding it now answers a forwarded call (the one before has died)."""

    channel = "this-process"

    def __init__(self) -> None:
        self.now = lease.Lease("process-a", 1, 0)
        self.reads = 0
        self.silent_once = False

    def hand_over(self, holder: str) -> None:
        self.now = lease.Lease(holder, self.now.fence + 1, 0)

    def read_lease(self, code, holder):
        self.reads += 1
        return lease.Lease(self.now.holder, self.now.fence, lease.wall_ms() + lease.TTL_MS)

    async def call(self, channel, code, op, kwargs, timeout_s):
        if channel != self.now.holder or self.silent_once:
            self.silent_once = False
            return None
        return {"ok": True, "result": "done"}


class Connection:
    """A connection of this process at the table: what it is told."""

    def __init__(self) -> None:
        self.told: list[dict] = []

    async def table_message(self, message: dict) -> None:
        self.told.append(message)


@pytest.fixture
def holders(monkeypatch):
    holders = Holders()
    registry_reaching(monkeypatch, holders, holders.read_lease)
    return holders


async def told_after_a_moment(connection: Connection) -> list[str]:
    await asyncio.sleep(0.05)  # the telling runs in a task of its own
    return [message["type"] for message in connection.told]


def test_a_table_found_with_a_new_owner_is_told_to_this_processs_connections_once(holders):
    async def calls():
        connection = Connection()
        await fan_out.listen(CODE, connection, holders.channel)
        try:
            assert await registry.owner_call(CODE, "exists") == "done"
            assert await told_after_a_moment(connection) == []  # the first owner seen
            holders.hand_over("process-c")  # process-a died; its relay of that was lost
            assert await registry.owner_call(CODE, "exists") == "done"
            assert await told_after_a_moment(connection) == ["table.owner"]
            reads = holders.reads
            holders.silent_once = True  # read again, the same owner: nothing more told
            assert await registry.owner_call(CODE, "exists") == "done"
            assert holders.reads > reads
            assert await told_after_a_moment(connection) == ["table.owner"]
        finally:
            await fan_out.unlisten(CODE, connection, holders.channel)

    run(calls())
