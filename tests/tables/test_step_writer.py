"""Group commit of the tables' steps (games.tables.step_writer, store.steps_append):
steps of many tables that arrive together are stored in fewer transactions, each
caller returns only once its own step is stored, and what goes wrong for one table's
step (a refused fence, a broken constraint) is told to that table only."""

from __future__ import annotations

import asyncio

import pytest
from django.db import IntegrityError

from games.models import TableAction, TableEvent, TableLease
from games.tables import lease, store
from games.tables.step_writer import StepWriter

from .test_table_leases import fresh_process, new_table  # noqa: F401 (an autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def a_step(table: int, index: int) -> tuple:
    data = {"code": "card_turned", "n": index}
    events = [{"seq": index + 1, "data": data, "view": {"seq": index + 1}}]
    return table, index, {"type": "turn", "seat": index % 2, "at_ms": index}, events


def stored(table: int) -> tuple[list[int], list[int]]:
    actions = list(TableAction.objects.filter(table_id=table).values_list("index", flat=True))
    events = list(TableEvent.objects.filter(table_id=table).values_list("seq", flat=True))
    return sorted(actions), sorted(events)


@pytest.mark.asyncio
async def test_steps_of_many_tables_arriving_together_go_in_fewer_transactions_and_all_are_stored():
    table_ids = [await asyncio.to_thread(new_table) for _ in range(12)]
    writer = StepWriter()
    for index in range(3):  # three rounds: each table's step waits for its last, as an owner's does
        await asyncio.gather(*(writer.append(*a_step(t, index)) for t in table_ids))
    assert writer.steps == 36
    assert writer.batches < 36 / 2  # the first of a round alone, the rest together
    for table in table_ids:
        assert await asyncio.to_thread(stored, table) == ([0, 1, 2], [1, 2, 3])


@pytest.mark.asyncio
async def test_a_caller_returns_only_once_its_step_is_stored():
    table = await asyncio.to_thread(new_table)
    writer = StepWriter()
    await writer.append(*a_step(table, 0))
    assert await asyncio.to_thread(stored, table) == ([0], [1])


@pytest.mark.asyncio
async def test_a_table_whose_lease_was_lost_is_refused_and_the_others_in_its_batch_are_stored():
    ours, lost = await asyncio.to_thread(new_table), await asyncio.to_thread(new_table)

    def lose_one() -> None:
        lease.lease_take(ours, "process-a")
        lease.lease_take(lost, "process-a")
        TableLease.objects.filter(table_id=lost).update(expires_ms=0)
        lease._held.pop(lost)
        lease.lease_take(lost, "process-b")  # the other process took it meanwhile
        lease._held[lost] = 1  # this process still thinks it holds it

    await asyncio.to_thread(lose_one)
    writer = StepWriter()
    results = await asyncio.gather(
        writer.append(*a_step(ours, 0)), writer.append(*a_step(lost, 0)), return_exceptions=True
    )
    assert results[0] is None and isinstance(results[1], lease.LeaseLost)
    assert await asyncio.to_thread(stored, ours) == ([0], [1])
    assert await asyncio.to_thread(stored, lost) == ([], [])


def test_a_step_that_breaks_a_constraint_is_refused_alone_and_the_rest_of_the_batch_is_stored():
    one, two = new_table(), new_table()
    store.step_append(*a_step(one, 0))
    errors = store.steps_append([a_step(two, 0), a_step(one, 0), a_step(two, 1)])  # one's 0 again
    assert errors[0] is None and errors[2] is None and isinstance(errors[1], IntegrityError)
    assert stored(one) == ([0], [1]) and stored(two) == ([0, 1], [1, 2])


def test_step_append_alone_still_raises_what_stopped_its_step():
    table = new_table()
    store.step_append(*a_step(table, 0))
    with pytest.raises(IntegrityError):
        store.step_append(*a_step(table, 0))
    assert stored(table) == ([0], [1])
