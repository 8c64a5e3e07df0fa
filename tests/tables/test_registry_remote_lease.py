"""A table held by another process: while its holder answers, this process does not
read the table's lease again (such reads would fill the database thread's time);
once the holder stops answering, it does."""

from __future__ import annotations

import asyncio

import pytest

from games.tables import lease, registry
from tests.own_loop import run_in_own_loop as run

from .helpers import registry_reaching

# nothing is read (the lease read is replaced), but Channels' database thread checks
# its connection before each call
pytestmark = pytest.mark.django_db(transaction=True)


class AnsweringEndpoint:
    channel = "this-process"

    def __init__(self) -> None:
        self.answering = True
        self.calls = 0

    async def call(self, channel, code, op, kwargs, timeout_s):
        self.calls += 1
        return {"ok": True, "result": "done"} if self.answering else None


def test_a_holder_that_answers_is_not_looked_up_again_until_it_stops(monkeypatch):
    endpoint = AnsweringEndpoint()
    reads = []

    def read_lease(code, holder):
        reads.append(code)
        return lease.Lease("other-process", 1, lease.wall_ms() + 50)

    registry_reaching(monkeypatch, endpoint, read_lease)
    monkeypatch.setattr(registry, "TAKEOVER_WAIT_S", 0.5)

    async def calls():
        assert await registry.owner_call("ABCDEF", "exists") == "done"
        assert reads == ["ABCDEF"]
        await asyncio.sleep(0.1)  # the lease first read would have expired by now
        assert await registry.owner_call("ABCDEF", "exists") == "done"
        assert reads == ["ABCDEF"]  # the answer kept it: not read again
        endpoint.answering = False
        registry._remote["ABCDEF"] = lease.Lease("other-process", 1, lease.wall_ms() - 1)
        try:
            await registry.owner_call("ABCDEF", "exists")
        except TimeoutError:
            pass
        assert len(reads) > 1  # a holder that does not answer is looked up again

    run(calls())
