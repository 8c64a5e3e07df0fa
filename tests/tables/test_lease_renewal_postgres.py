"""A busy process keeps its tables: on PostgreSQL the leases are renewed on
a thread of their own, not queued behind the tables' work on Channels' one database
thread. Run in a process of its own on a fresh PostgreSQL database."""

from __future__ import annotations

import pytest

from tests.snapsite.test_production_services import (  # noqa: F401 (a fixture)
    postgres_database,
)

from .postgres_script import run_on_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.server]

BUSY = r"""
import asyncio, json, time
import django
django.setup()
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from games import tables
from games.engine import Options
from games.models import TableLease
from games.tables import lease, registry

def lease_row(table_id):
    return TableLease.objects.filter(table_id=table_id).values("holder", "expires_ms").get()

async def main():
    code = await database_sync_to_async(tables.table_create)(players=2, options=Options())
    owner = await registry.owner_for(code)
    table_id = owner.stored.id
    holder = await registry.process_channel()
    busy_s = lease.TTL_MS / 1000 * 2  # Channels' database thread busy for two leases
    busy = asyncio.ensure_future(database_sync_to_async(time.sleep)(busy_s))
    await asyncio.sleep(busy_s - 0.5)
    row = await sync_to_async(lease_row, thread_sensitive=False)(table_id)
    still_busy = not busy.done()
    await busy
    print(json.dumps({
        "still_busy": still_busy,
        "holder_is_us": row["holder"] == holder,
        "expires_in_ms": row["expires_ms"] - lease.wall_ms(),
        "held_here": lease._held.get(table_id) is not None,
        "owner_kept": (await registry.owner_for(code)) is owner,
    }))

asyncio.run(main())
"""


def test_a_process_whose_database_thread_is_busy_keeps_renewing_its_leases(
    postgres_database,  # noqa: F811 (the fixture above)
):
    result = run_on_postgres(BUSY, postgres_database)
    assert result["still_busy"]  # measured while the database thread was still held
    assert result["holder_is_us"] and result["held_here"] and result["owner_kept"]
    assert result["expires_in_ms"] > 1000  # renewed within the last second or two
