"""Replays kept rendered (games.content.page_cache): a finished game's record never
changes, but its names may, and a purged class table's must go at once.

So each visit reads the table's seats (one quick query) and keeps the page under a
mark of them with the table's id: a renamed seat, a purged table or a code used again
by another table is a new mark, and the replay is made again (or is a 404) at once, in
every process. A table deleted in this process (``purge_classes``, a teacher opening a
class, the admin) drops its kept replays and lessons at once.
"""

from __future__ import annotations

from games import tables
from games.content.page_cache import drop
from games.tables.codes import normalise_code

__all__ = ["replay_state", "watch_deleted_tables"]


def group(code: str) -> str:
    return f"replay:{normalise_code(code)}"


def replay_state(request, code: str) -> tuple[str, str | None]:
    """The group of table ``code``'s replay pages and the mark of its seats (None when
    there is no such table: the view says so)."""
    seats = tables.table_seat_names(code=code)
    return group(code), repr(seats) if seats else None


def drop_deleted_table(sender, instance, **kwargs) -> None:
    drop(group(instance.code))


def watch_deleted_tables() -> None:
    """Drop a table's kept replays when it is deleted (connected by ``games.apps``)."""
    from django.db.models.signals import post_delete

    from games.models import Table

    post_delete.connect(drop_deleted_table, sender=Table, dispatch_uid="snap-kept-replays")
