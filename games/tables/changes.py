"""Version numbers of what kept pages are made of from the tables (the lobby's open
tables; each table's seats, which its replay names), so that a kept page is checked
without the database: opening a connection for a request took 1.2 ms, far more than
the query (0.08 ms) or a read of the shared cache (0.05 ms).

They live in Django's default cache, shared by every process, as the content version
does (games.content.version). Every write of the store that changes the tables listed
or a table's seats bumps them, at once and again when the transaction commits: a page
made from the old rows in between is kept under the first number, and made again at
the second. A table deleted in any way (``purge_classes``, the admin) bumps its own.
"""

from __future__ import annotations

import time

from django.db import transaction

from games.content.version import bump, shared_cache, version_of

__all__ = [
    "seats_version",
    "table_changed",
    "tables_expire_at",
    "tables_version",
    "watch_deleted_tables",
]

TABLES = "snap:tables-version"
#: When the first of the tables last listed closes by the idle times (wall-clock ms):
#: the tables' version changes then, with no write to tell it.
EXPIRES = "snap:tables-expire"


def seats_key(code: str) -> str:
    return f"snap:seats-version:{code}"


def tables_version() -> int:
    """Changes whenever a table opens, closes, is deleted or a seat is taken or freed,
    and when the first of the tables last listed closes for want of anyone connected
    (:func:`tables_expire_at`). One read of the shared cache."""
    cache = shared_cache()
    found = cache.get_many([TABLES, EXPIRES])
    expires = found.get(EXPIRES)
    if expires is not None and expires <= time.time() * 1000:
        cache.delete(EXPIRES)
        return bump(TABLES)
    version = found.get(TABLES)
    return bump(TABLES) if version is None else version


def tables_expire_at(when_ms: int) -> None:
    """The first of the tables just listed closes at ``when_ms`` unless someone comes."""
    shared_cache().set(EXPIRES, when_ms, None)


def seats_version(code: str) -> int:
    """Changes whenever table ``code``'s seats change or it is deleted."""
    return version_of(seats_key(code))


def table_changed(code: str | None) -> None:
    """Table ``code`` (None: unknown) or its seats changed: bump now and, inside a
    transaction, again on its commit (a reader between the two may have kept the old)."""

    def bump_both() -> None:
        bump(TABLES)
        if code is not None:
            bump(seats_key(code))

    bump_both()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(bump_both)


def bump_deleted_table(sender, instance, **kwargs) -> None:
    table_changed(instance.code)


def watch_deleted_tables() -> None:
    """Bump a deleted table's numbers (connected by ``games.apps``)."""
    from django.db.models.signals import post_delete

    from games.models import Table

    post_delete.connect(bump_deleted_table, sender=Table, dispatch_uid="snap-table-deleted")
