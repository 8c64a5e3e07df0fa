"""A table held by another process: while its holder answers, this process does not
read the table's lease again (such reads would fill the database thread's time);
once the holder stops answering, it does."""

from __future__ import annotations

import asyncio

import pytest

from games.tables import lease, registry
from tests.own_loop import run_in_own_loop as run

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

    async def this_endpoint():
        return endpoint

    def read_lease(code, holder):
        reads.append(code)
        return lease.Lease("other-process", 1, lease.wall_ms() + 50)

    monkeypatch.setattr(registry, "_endpoint", this_endpoint)
    monkeypatch.setattr(registry, "_take_or_read", read_lease)
    monkeypatch.setattr(registry, "TAKEOVER_WAIT_S", 0.5)
    monkeypatch.setattr(registry, "_remote", {})
    fresh = {"loop": None, "locks": None, "endpoint": endpoint, "renewer": None}
    monkeypatch.setattr(registry, "_state", fresh)

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
