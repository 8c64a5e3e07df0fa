"""A call that waited for a table's owner while that owner lost the table (another
process took it over: the lease ran out under load) is asked again of the new owner,
never answered ``no_table`` ("This table does not exist any more": bench_tables
--processes 2 showed it to a player whose game went on elsewhere)."""

from __future__ import annotations

import asyncio

import pytest

from games.tables import lease, registry

from .test_table_play import two_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_forwarded_turn_that_waited_for_an_owner_that_lost_the_table_says_not_owner():
    code, ana, ben = await two_players(["2H", "5S", "9C", "KD"])
    owner = registry._owners[code]
    turn = {"seat": 0, "action_json": {"type": "turn"}, "received_ms": lease.wall_ms(), "lag_ms": 0}
    async with owner._lock:  # the owner is busy with another call
        answer = asyncio.ensure_future(registry._answer(code, "submit", turn))
        await asyncio.sleep(0.05)
        owner.lose()  # the renewal found the table held by another process
    assert await answer == {"ok": False, "error": "not_owner"}  # the caller looks again
    assert await ana.nothing(timeout=0.2)  # and nothing was played here
    registry.registry_drop()
    await ana.close()
    await ben.close()


async def test_an_owner_stopped_for_good_still_says_no_table():
    code, ana, ben = await two_players(["2H", "5S", "9C", "KD"])
    owner = registry._owners[code]
    owner.stop()  # the process is going away, or the table was closed
    outcome = await owner.submit(seat=0, action_json={"type": "turn"}, received_ms=lease.wall_ms())
    assert outcome.refused == "no_table"
    registry.registry_drop()
    await ana.close()
    await ben.close()
