"""The fence on PostgreSQL (games.tables.lease): a step being stored holds the lease
row's lock, so a process taking the table over waits for that step to be committed,
and the old owner's next step is refused with nothing stored. Run in a process of
its own on a fresh PostgreSQL database."""

from __future__ import annotations

import pytest

from tests.snapsite.test_production_services import (  # noqa: F401 (a fixture)
    postgres_database,
)

from .postgres_script import run_on_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.server]

RACE = r"""
import json, threading, time
import django
django.setup()
from django.db import connection, transaction
from games import tables
from games.engine import Options
from games.models import TableAction, TableLease
from games.tables import lease, store

table = store.table_id(tables.table_create(players=2, options=Options()))
fence_a = lease.lease_take(table, "process-a")
TableLease.objects.filter(table_id=table).update(expires_ms=0)  # A goes quiet...
locked, times = threading.Event(), {}

def owner_a():  # ...but is still storing a step: it checked its fence, then waits
    with transaction.atomic():
        lease.fence_check(table)
        locked.set()
        time.sleep(0.5)
        TableAction.objects.create(table_id=table, index=0, data={"type": "turn"})
        # the last moment A holds the row lock (taken after the commit, this time could
        # come later than B's on a busy machine: A's thread may wait for a core)
        times["a_last_locked"] = time.monotonic()
    connection.close()

def owner_b():
    locked.wait()
    fence = lease.lease_take(table, "process-b")
    times["b_took"] = time.monotonic()
    times["b_fence"] = fence
    connection.close()

a, b = threading.Thread(target=owner_a), threading.Thread(target=owner_b)
a.start(); b.start(); a.join(); b.join()
lease._held[table] = fence_a  # A's view: it still thinks it owns the table
try:
    store.step_append(table, 1, {"type": "turn", "seat": 1, "at_ms": 5}, [])
    refused = False
except lease.LeaseLost:
    refused = True
print(json.dumps({
    "b_waited_for_a": times["b_took"] >= times["a_last_locked"],
    "b_fence": times["b_fence"], "a_fence": fence_a, "a_refused": refused,
    "actions": sorted(TableAction.objects.filter(table_id=table).values_list("index", flat=True)),
}))
"""


def test_a_takeover_waits_for_the_step_being_stored_and_then_refuses_the_old_owner(
    postgres_database,  # noqa: F811 (the fixture above)
):
    result = run_on_postgres(RACE, postgres_database)
    assert result["b_waited_for_a"]  # the row lock ordered the takeover after the step
    assert result["b_fence"] == result["a_fence"] + 1
    assert result["a_refused"] and result["actions"] == [0]  # A's later step: nothing stored
