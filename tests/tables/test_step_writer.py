"""Group commit of the tables' steps (games.tables.step_writer, store.steps_append):
steps of many tables that arrive together are stored in fewer transactions, each
caller returns only once its own step is stored, and what goes wrong for one table's
step (a refused fence, a broken constraint) is told to that table only. Each holds
for both writers: the database thread's, and the event loop's own SQLite connection
(games.tables.step_db) that a site on an SQLite file uses."""

from __future__ import annotations

import asyncio

import pytest
from django.db import IntegrityError, connections

from games.models import TableAction, TableEvent, TableLease
from games.tables import lease, store
from games.tables.step_db import LoopSqlite, loop_sqlite_for_default_database
from games.tables.step_writer import StepWriter

from .test_table_leases import fresh_process, new_table  # noqa: F401 (an autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["database thread", "event loop"])
def writer(request):
    """A step writer of each kind; the loop's connection opens the test database."""
    if request.param == "database thread":
        yield StepWriter()
        return
    on_loop = LoopSqlite(str(connections["default"].settings_dict["NAME"]))
    yield StepWriter(on_loop)
    on_loop.close()


def a_step(table: int, index: int) -> tuple:
    data = {"code": "card_turned", "n": index}
    events = [{"seq": index + 1, "data": data, "view": {"seq": index + 1}}]
    return table, index, {"type": "turn", "seat": index % 2, "at_ms": index}, events


def stored(table: int) -> tuple[list[int], list[int]]:
    actions = list(TableAction.objects.filter(table_id=table).values_list("index", flat=True))
    events = list(TableEvent.objects.filter(table_id=table).values_list("seq", flat=True))
    return sorted(actions), sorted(events)


@pytest.mark.asyncio
async def test_steps_of_many_tables_arriving_together_go_in_fewer_transactions_and_all_are_stored(
    writer,
):
    table_ids = [await asyncio.to_thread(new_table) for _ in range(12)]
    for index in range(3):  # three rounds: each table's step waits for its last, as an owner's does
        await asyncio.gather(*(writer.append(*a_step(t, index)) for t in table_ids))
    assert writer.steps == 36
    assert writer.batches < 36 / 2  # the first of a round alone, the rest together
    for table in table_ids:
        assert await asyncio.to_thread(stored, table) == ([0, 1, 2], [1, 2, 3])


@pytest.mark.asyncio
async def test_a_caller_returns_only_once_its_step_is_stored(writer):
    table = await asyncio.to_thread(new_table)
    await writer.append(*a_step(table, 0))
    assert await asyncio.to_thread(stored, table) == ([0], [1])


@pytest.mark.asyncio
async def test_a_table_whose_lease_was_lost_is_refused_and_the_others_in_its_batch_are_stored(
    writer,
):
    ours, lost = await asyncio.to_thread(new_table), await asyncio.to_thread(new_table)

    def lose_one() -> None:
        lease.lease_take(ours, "process-a")
        lease.lease_take(lost, "process-a")
        TableLease.objects.filter(table_id=lost).update(expires_ms=0)
        lease._held.pop(lost)
        lease.lease_take(lost, "process-b")  # the other process took it meanwhile
        lease._held[lost] = 1  # this process still thinks it holds it

    await asyncio.to_thread(lose_one)
    results = await asyncio.gather(
        writer.append(*a_step(ours, 0)), writer.append(*a_step(lost, 0)), return_exceptions=True
    )
    assert results[0] is None and isinstance(results[1], lease.LeaseLost)
    assert await asyncio.to_thread(stored, ours) == ([0], [1])
    assert await asyncio.to_thread(stored, lost) == ([], [])


def test_a_step_that_breaks_a_constraint_is_refused_alone_and_the_rest_of_the_batch_is_stored(
    writer,
):
    one, two = new_table(), new_table()
    store.step_append(*a_step(one, 0))
    steps = [a_step(two, 0), a_step(one, 0), a_step(two, 1)]  # one's 0 again
    errors = store.steps_append(steps, writer.on_loop)
    assert errors[0] is None and errors[2] is None and isinstance(errors[1], IntegrityError)
    assert stored(one) == ([0], [1]) and stored(two) == ([0, 1], [1, 2])


@pytest.mark.asyncio
async def test_on_the_loop_the_steps_of_one_pass_go_in_one_transaction():
    table_ids = [await asyncio.to_thread(new_table) for _ in range(12)]
    writer = StepWriter(LoopSqlite(str(connections["default"].settings_dict["NAME"])))
    await asyncio.gather(*(writer.append(*a_step(t, 0)) for t in table_ids))
    assert (writer.batches, writer.steps) == (1, 12)
    writer.on_loop.close()
    for table in table_ids:
        assert await asyncio.to_thread(stored, table) == ([0], [1])


@pytest.mark.asyncio
async def test_on_the_loop_a_caller_cancelled_while_waiting_still_has_its_step_stored():
    table = await asyncio.to_thread(new_table)
    writer = StepWriter(LoopSqlite(str(connections["default"].settings_dict["NAME"])))
    waiting = asyncio.ensure_future(writer.append(*a_step(table, 0)))
    await asyncio.sleep(0)  # queued; the write is due at the loop's next pass
    waiting.cancel()
    await asyncio.sleep(0.01)
    assert writer.steps == 1
    writer.on_loop.close()
    assert await asyncio.to_thread(stored, table) == ([0], [1])


def test_a_site_on_an_sqlite_file_writes_steps_on_the_loop_and_others_on_the_database_thread(
    monkeypatch, tmp_path
):
    connection = connections["default"]
    assert loop_sqlite_for_default_database() is None  # the tests' in-memory database
    monkeypatch.setitem(connection.settings_dict, "NAME", str(tmp_path / "site.sqlite3"))
    assert loop_sqlite_for_default_database().name == str(tmp_path / "site.sqlite3")
    monkeypatch.setenv("STEPS_IN_THREAD", "1")
    assert loop_sqlite_for_default_database() is None


def test_step_append_alone_still_raises_what_stopped_its_step():
    table = new_table()
    store.step_append(*a_step(table, 0))
    with pytest.raises(IntegrityError):
        store.step_append(*a_step(table, 0))
    assert stored(table) == ([0], [1])
