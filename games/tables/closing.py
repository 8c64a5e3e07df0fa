"""Until when a table counts as open: one number per table, kept in the database.

The rule (docs/protocol.md, "Limits"): a table closes when its game is over, when its
class goes on at a new table, or once nobody has been connected to it for
``TABLE_IDLE_PAUSE_S`` + ``TABLE_IDLE_CLOSE_S`` (:func:`unattended_ms`). Every table
stores the moment it closes by that rule, ``Table.open_until`` (wall-clock ms; 0 once
over or closed), so that whatever happened to it the limits, the lobby and a
connection see the same thing, in every process:

- opened: now + :func:`unattended_ms` (a table nobody ever joins closes then);
- someone connected: the owning process keeps it :func:`kept_ms` ahead of the rule
  (one statement for all its attended tables, about twice per :func:`kept_ms`), so a
  table whose process stops (a restart, a crash) closes at most that much later than
  the rule says, whoever comes back or not;
- the last one gone: the owner pauses it ``TABLE_IDLE_PAUSE_S`` later and stores the
  moment it closes, ``TABLE_IDLE_CLOSE_S`` after that;
- over, or closed: 0.

A table loaded after its moment has passed (it had no owner: never joined, or its
process had stopped) is closed there and then (:func:`games.tables.registry`).
"""

from __future__ import annotations

import time

from django.conf import settings

__all__ = ["kept_ms", "open_until_kept", "open_until_new", "unattended_ms", "wall_ms"]

#: Bounds of :func:`kept_ms`: an attended table's deadline is renewed about twice per
#: margin, and the lease renewal beat (one second) must fit in it.
KEPT_MIN_MS = 2_000
KEPT_MAX_MS = 60_000


def wall_ms() -> int:
    return int(time.time() * 1000)


def unattended_ms() -> int:
    """How long a table nobody is connected to stays open: paused, then closed."""
    return int((settings.TABLE_IDLE_PAUSE_S + settings.TABLE_IDLE_CLOSE_S) * 1000)


def kept_ms() -> int:
    """How far ahead of the rule an attended table's deadline is kept: the pause time,
    within 2 s and 60 s."""
    return min(max(int(settings.TABLE_IDLE_PAUSE_S * 1000), KEPT_MIN_MS), KEPT_MAX_MS)


def open_until_new(now_ms: int | None = None) -> int:
    """The deadline of a table opened now, or of one whose last person has just left."""
    return (wall_ms() if now_ms is None else now_ms) + unattended_ms()


def open_until_kept(now_ms: int) -> int:
    """The deadline an attended table is given now."""
    return now_ms + unattended_ms() + kept_ms()
