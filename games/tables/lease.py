"""Leases: which process owns a live table, with a fencing number (synchronous ORM).

A process takes a table when nobody holds it or the holder's lease has expired; each
taking raises the table's ``fence`` by one. The process renews all its leases with one
statement every :data:`RENEW_S` seconds (:func:`leases_renew`); one that stops renewing
(it died, or stalled) loses its tables :data:`TTL_MS` after its last renewal, and the
next process that needs one of them takes it over from the stored log.

Fencing makes two writers impossible even for a moment: every write of an owner runs
:func:`fence_check` in its own transaction, an ``UPDATE`` that matches only while the
lease still names this process with the fence it took. Another process's taking changes
the fence first, so the stale owner's write finds no row, raises :class:`LeaseLost` and
is rolled back whole (the row lock of the ``UPDATE`` orders the two on PostgreSQL; on
SQLite every write transaction is serialised anyway).

The process-local table ``_held`` (table id -> fence) is what :func:`fence_check` checks
against; writes for a table this process never took (creating a table, seating its
opener) are not fenced. Clocks: expiry is wall-clock milliseconds, so the machines of a
deployment keep their clocks in step (NTP); a lease is a few seconds long.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db import IntegrityError, router, transaction
from django.db.models import F, Q

from games.models import TableLease

from .step_db import DjangoDb, LoopSqlite, transaction_without_waiting_for_disk

#: How long a lease lasts after its last renewal, and how often a process renews.
TTL_MS = 3000
RENEW_S = 1.0

_held: dict[int, int | None] = {}  # table id -> the fence this process took (None: lost)


class LeaseLost(RuntimeError):
    """This process no longer owns the table it tried to write to."""


@dataclass(frozen=True, slots=True)
class Lease:
    holder: str
    fence: int
    expires_ms: int

    def expired(self, now_ms: int | None = None) -> bool:
        return self.expires_ms < (now_ms if now_ms is not None else wall_ms())


def wall_ms() -> int:
    return int(time.time() * 1000)


def lease_read(table_id: int) -> Lease | None:
    row = TableLease.objects.filter(table_id=table_id).values_list("holder", "fence", "expires_ms")
    found = row.first()
    return None if found is None else Lease(*found)


def lease_take(table_id: int, holder: str) -> int | None:
    """Take table ``table_id`` for ``holder`` if nobody holds it, its lease has expired,
    or ``holder`` holds it already; return the new fence, or None (another holds it)."""
    if not holder:  # every process would be that holder
        raise ValueError("a lease needs the name of the process taking it")
    now = wall_ms()
    for _attempt in range(3):
        try:
            with transaction.atomic():
                TableLease.objects.get_or_create(table_id=table_id)
                taken = (
                    TableLease.objects.filter(table_id=table_id)
                    .filter(Q(expires_ms__lt=now) | Q(holder=holder))
                    .update(holder=holder, fence=F("fence") + 1, expires_ms=now + TTL_MS)
                )
                if not taken:
                    return None
                fence = TableLease.objects.values_list("fence", flat=True).get(table_id=table_id)
        except IntegrityError:  # two processes made the row at once: read it again
            continue
        _held[table_id] = fence
        return fence
    return None


def first_taking(table_id: int) -> bool:
    """This process holds table ``table_id`` by its first taking ever (fence 1): no
    process owned the table before."""
    return _held.get(table_id) == 1


def leases_renew(holder: str) -> dict[int, int]:
    """Renew every lease ``holder`` still has, in one statement; return them (table id
    -> fence). A table of ``_held`` missing here, or with another fence, is lost.
    Committed without waiting for the disk: the renewal holds the row locks of every
    lease of the process until its commit ends, and each step's fence check waits for
    them (a slow flush would stall every table of the process); a renewal lost in a
    crash of PostgreSQL only makes the leases expire sooner."""
    before = dict(_held)  # a table taken meanwhile (on another thread) is judged next time
    now = wall_ms()
    with transaction_without_waiting_for_disk(router.db_for_write(TableLease)):
        TableLease.objects.filter(holder=holder).update(expires_ms=now + TTL_MS)
        held = dict(TableLease.objects.filter(holder=holder).values_list("table_id", "fence"))
    for table_id, fence in before.items():
        if fence is not None and held.get(table_id) != fence and _held.get(table_id) == fence:
            _held[table_id] = None
    return held


def lease_release(table_id: int, holder: str) -> None:
    """Give the table up at once (a finished game forgotten, a process stopping)."""
    fence = _held.pop(table_id, None)
    if fence is not None:
        TableLease.objects.filter(table_id=table_id, holder=holder, fence=fence).update(
            expires_ms=0
        )


def fence_check(table_id: int) -> None:
    """Inside a write transaction of an owner: raise :class:`LeaseLost` unless this
    process still holds ``table_id`` with the fence it took (no-op for a table it never
    took)."""
    if table_id in fences_check([table_id]):
        raise LeaseLost(f"table {table_id}: another process owns it now")


def fences_check(table_ids, db: DjangoDb | LoopSqlite | None = None) -> set[int]:
    """:func:`fence_check` for several tables in one statement (the step writer's group
    commit): the ids among ``table_ids`` that this process no longer holds, each marked
    lost. One ``UPDATE … RETURNING`` takes the row locks of every held table's lease, as
    :func:`fence_check` does for one, so a taker that commits first is seen here and one
    that comes later waits for this transaction. ``db``: where the write transaction is
    open (Django's connection in this thread unless given: games.tables.step_db)."""
    held = {t: _held[t] for t in dict.fromkeys(table_ids) if t in _held}
    if not held:
        return set()
    asked = [t for t, fence in held.items() if fence is not None]
    found: dict[int, int] = {}
    if asked:
        db = db or DjangoDb(router.db_for_write(TableLease))
        lease_table = db.quote(TableLease._meta.db_table)
        column = db.quote(TableLease._meta.get_field("table").column)
        fence = db.quote("fence")
        marks = ", ".join(["%s"] * len(asked))
        rows = db.fetchall(
            f"UPDATE {lease_table} SET {fence} = {fence} WHERE {column} IN ({marks}) "
            f"RETURNING {column}, {fence}",
            asked,
        )
        found = dict(rows)
    lost = {t for t, fence in held.items() if fence is None or found.get(t) != fence}
    for t in lost:
        _held[t] = None
    return lost


def held_forget() -> None:
    """Forget which tables this process took (tests: a process started again)."""
    _held.clear()
