"""Replays kept rendered (games.content.page_cache): a finished game's record never
changes, but its names may, and a purged class table's must go at once.

So a replay (or lesson) is kept under its table's seats version (games.tables.changes),
read at each visit from the shared cache: a seat renamed or freed, a table purged or a
code used again by another table is a new version, in every process, and the page is
made again (or is a 404) at once; the pages kept under the older version are dropped
then. A table deleted in this process (``purge_classes``, a teacher opening a class,
the admin) drops its kept pages at once.
"""

from __future__ import annotations

from games.content.page_cache import drop
from games.tables.changes import seats_version
from games.tables.codes import normalise_code

__all__ = ["drop_deleted_tables", "replay_state"]


def group(code: str) -> str:
    return f"replay:{normalise_code(code)}"


def replay_state(request, code: str) -> tuple[str, str]:
    """The group of table ``code``'s replay pages and its seats' version."""
    return group(code), str(seats_version(normalise_code(code)))


def drop_deleted_table(sender, instance, **kwargs) -> None:
    drop(group(instance.code))


def drop_deleted_tables() -> None:
    """Drop a table's kept replays when it is deleted (connected by ``games.apps``)."""
    from django.db.models.signals import post_delete

    from games.models import Table

    post_delete.connect(drop_deleted_table, sender=Table, dispatch_uid="snap-kept-replays")
