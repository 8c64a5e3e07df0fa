"""Steps and lease renewals on PostgreSQL are committed without waiting for the disk,
and only they (games.tables.step_db, lease): the setting in force while a step is
inserted, or the leases renewed, is read on the writing connection itself. Run in a
process of its own on a fresh PostgreSQL database."""

from __future__ import annotations

import pytest

from tests.snapsite.test_production_services import (  # noqa: F401 (a fixture)
    postgres_database,
)

from .postgres_script import run_on_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.server]

STORE_A_STEP = r"""
import json, os
import django
django.setup()
import psycopg
from django.db import connection, transaction
from games import tables
from games.engine import Options
from games.models import TableAction, TableLease
from games.tables import lease, store

table = store.table_id(tables.table_create(players=2, options=Options()))
lease.lease_take(table, "process-a")
in_force = {}

def reading_setting(name, statement, model):
    # an execute wrapper keeping, as name, the setting in force when statement
    # (INSERT, UPDATE) of model's table is executed
    def read_setting(execute, sql, params, many, context):
        if sql.startswith(statement) and model._meta.db_table in sql:
            raw = context["connection"].connection  # the psycopg connection writing
            in_force[name] = raw.execute("SHOW synchronous_commit").fetchone()[0]
        return execute(sql, params, many, context)
    return read_setting

with connection.execute_wrapper(reading_setting("step", "INSERT", TableAction)):
    store.step_append(table, 0, {"type": "turn", "seat": 0, "at_ms": 5}, [])
with connection.execute_wrapper(reading_setting("renewal", "UPDATE", TableLease)):
    renewed = lease.leases_renew("process-a")
in_force["renewed"] = list(renewed)
with transaction.atomic():  # another write of the same connection, as a page's
    TableAction.objects.create(table_id=table, index=1, data={"type": "turn"})
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        in_force["other_write"] = cursor.fetchone()[0]
with psycopg.connect(os.environ["DATABASE_URL"]) as other:  # committed: seen elsewhere
    seen = other.execute(
        f"SELECT index FROM {TableAction._meta.db_table} WHERE table_id = %s ORDER BY index",
        [table],
    ).fetchall()
print(json.dumps({**in_force, "seen_elsewhere": [row[0] for row in seen]}))
"""


def test_steps_and_lease_renewals_commit_without_waiting_for_the_disk_and_others_wait(
    postgres_database,  # noqa: F811 (the fixture above)
):
    result = run_on_postgres(STORE_A_STEP, postgres_database)
    assert result["step"] == "off"
    assert result["renewal"] == "off" and len(result["renewed"]) == 1
    assert result["other_write"] == "on"  # PostgreSQL's default, kept for everything else
    assert result["seen_elsewhere"] == [0, 1]
