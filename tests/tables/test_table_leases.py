"""Leases with a fencing number (games.tables.lease): one owner of a table at a time,
and an owner that lost its table can never write to it again."""

from __future__ import annotations

import pytest

from games import tables
from games.engine import Options
from games.models import Seat, TableAction, TableLease
from games.tables import lease, store

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_process():
    lease.held_forget()
    yield
    lease.held_forget()


def new_table() -> int:
    return store.table_id(tables.table_create(players=2, options=Options()))


def test_a_table_nobody_holds_is_taken_and_then_refused_to_another_until_it_expires():
    table = new_table()
    assert lease.lease_take(table, "process-a") == 1
    assert lease.lease_take(table, "process-b") is None
    TableLease.objects.filter(table_id=table).update(expires_ms=0)  # a silent process
    assert lease.lease_take(table, "process-b") == 2
    assert lease.lease_read(table).holder == "process-b"


def test_a_lease_without_a_process_name_is_refused_and_nothing_is_taken():
    table = new_table()
    with pytest.raises(ValueError):
        lease.lease_take(table, "")  # every process would share that name
    assert lease.lease_read(table) is None and table not in lease._held
    assert lease.lease_take(table, "process-a") == 1


def test_an_owner_that_lost_its_table_cannot_write_a_step_and_nothing_is_stored():
    table = new_table()
    fence_a = lease.lease_take(table, "process-a")
    TableLease.objects.filter(table_id=table).update(expires_ms=0)
    assert lease.lease_take(table, "process-b") == fence_a + 1
    lease._held[table] = fence_a  # process A's view: it still thinks it owns the table
    with pytest.raises(lease.LeaseLost):
        store.step_append(table, 0, {"type": "turn", "seat": 0, "at_ms": 0}, [])
    assert not TableAction.objects.filter(table_id=table).exists()
    assert lease._held[table] is None  # and it knows now


def test_renewing_keeps_a_lease_alive_and_tells_a_process_which_tables_it_lost():
    mine, lost = new_table(), new_table()
    lease.lease_take(mine, "process-a")
    lease.lease_take(lost, "process-a")
    TableLease.objects.filter(table_id=lost).update(holder="process-b", fence=9)
    before = lease.lease_read(mine).expires_ms
    held = lease.leases_renew("process-a")
    assert held == {mine: 1}
    assert lease.lease_read(mine).expires_ms >= before
    assert lease._held[lost] is None and lease._held[mine] == 1


def test_a_table_taken_on_another_thread_while_renewing_is_not_counted_lost(monkeypatch):
    mine, taken_meanwhile = new_table(), new_table()
    lease.lease_take(mine, "process-a")
    real_wall_ms = lease.wall_ms

    def taken_during_the_renewal() -> int:
        # the lease thread renews while the database thread takes another table: its
        # fence is in _held, its row not yet committed where the renewal looks
        lease._held[taken_meanwhile] = 1
        return real_wall_ms()

    monkeypatch.setattr(lease, "wall_ms", taken_during_the_renewal)
    assert lease.leases_renew("process-a") == {mine: 1}
    assert lease._held[taken_meanwhile] == 1  # judged at the next renewal, not lost now
    assert lease._held[mine] == 1


def test_writes_for_a_table_this_process_never_took_are_not_fenced():
    table = new_table()  # creating a table and seating its opener happen before any owner
    store.seat_bind(table, 0, "a-session", "Ana")
    assert Seat.objects.get(table_id=table, number=0).display_name == "Ana"
