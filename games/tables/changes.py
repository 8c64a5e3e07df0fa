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

from django.db import transaction

from games.content.version import bump, version_of

__all__ = ["seats_version", "table_changed", "tables_version", "watch_deleted_tables"]

TABLES = "snap:tables-version"


def seats_key(code: str) -> str:
    return f"snap:seats-version:{code}"


def tables_version() -> int:
    """Changes whenever a table opens, closes, is deleted or a seat is taken or freed."""
    return version_of(TABLES)


def seats_version(code: str) -> int:
    """Changes whenever table ``code``'s seats change or it is deleted."""
    return version_of(seats_key(code))


def table_changed(code: str | None) -> None:
    """Table ``code`` (None: unknown) or its seats changed: bump now and on commit."""

    def bump_both() -> None:
        bump(TABLES)
        if code is not None:
            bump(seats_key(code))

    bump_both()
    transaction.on_commit(bump_both)


def bump_deleted_table(sender, instance, **kwargs) -> None:
    table_changed(instance.code)


def watch_deleted_tables() -> None:
    """Bump a deleted table's numbers (connected by ``games.apps``)."""
    from django.db.models.signals import post_delete

    from games.models import Table

    post_delete.connect(bump_deleted_table, sender=Table, dispatch_uid="snap-table-deleted")
