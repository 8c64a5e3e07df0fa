"""How many tables one person, and one network address, may have open at once
(docs/protocol.md, "Limits").

Tables are counted in two kinds that never take from each other: those opened from
the lobby (practice, a table to share, a table on one device), against
``TABLES_OPEN_PER_SESSION`` and ``TABLES_OPEN_PER_ADDRESS``; and class tables,
against ``CLASS_TABLES_OPEN_PER_SESSION`` and ``CLASS_TABLES_OPEN_PER_ADDRESS`` (so
that children at a school's address never use up their teachers' tables). A table
counts for the browser session and the address that opened it while it is open by
the rule of :mod:`games.tables.closing` (stored with it: every process counts the
same); an index on (opener, deadline) makes a count read only the opener's open
tables, however many were ever played. A lobby table no longer counts for its
opener's session once the opener is out of the game (it plays on without them, and a
practice table's "Play again" must not find them at their limit).

Over a limit nothing is opened: :class:`TooManyTables` says which limit, how many
it allows, how many more could be opened now, and how long until the first of the
tables counted closes if nobody comes back to it.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.db.models import Exists, OuterRef

from games.models import Table, TableEvent

from .closing import wall_ms

__all__ = ["KINDS", "TooManyTables", "tables_check", "tables_open_of"]

#: The kinds of tables counted apart.
KINDS = ("lobby", "class")


class TooManyTables(ValueError):
    """No table was opened: ``kind`` ("lobby" or "class") at ``limit`` ("session" or
    "address"), which allows ``allowed`` open tables; ``free`` more could be opened now
    (fewer than asked); the first that would make room closes in ``wait_s`` seconds,
    if nobody comes back to it."""

    def __init__(self, kind: str, limit: str, allowed: int, free: int, wait_s: int) -> None:
        super().__init__(
            f"too many open {kind} tables for this {limit} (at most {allowed}; "
            f"{free} more now; room in {wait_s} s)"
        )
        self.kind = kind
        self.limit = limit
        self.allowed = allowed
        self.free = free
        self.wait_s = wait_s


def _allowed(kind: str, limit: str) -> int:
    prefix = "CLASS_TABLES" if kind == "class" else "TABLES"
    return getattr(settings, f"{prefix}_OPEN_PER_{limit.upper()}")


def _opener_out() -> Exists:
    """The opener (seat 0) has gone out of the game (RULES R16)."""
    return Exists(
        TableEvent.objects.filter(
            table=OuterRef("pk"), data__code="player_out", data__params__seat=0
        )
    )


def _closing_times(kind: str, limit: str, opener: str, now_ms: int) -> list[int]:
    """When each open table of ``kind`` opened by ``opener`` (a session key, or an
    address) closes unless someone comes, soonest first."""
    field = "opener_key" if limit == "session" else "opener_address"
    rows = Table.objects.filter(**{field: opener}, open_until__gt=now_ms, idle_closed=None)
    if limit == "session":
        rows = rows.exclude(_opener_out())
    rows = rows.values_list("teacher_key", "open_until")
    return sorted(until for teacher, until in rows if bool(teacher) == (kind == "class"))


def tables_open_of(
    *, session_key: str = "", address: str | None = None, kind: str = "lobby"
) -> int:
    """The open tables of ``kind`` opened by ``session_key``, or from ``address``."""
    if session_key:
        return len(_closing_times(kind, "session", session_key, wall_ms()))
    if address:
        return len(_closing_times(kind, "address", address, wall_ms()))
    return 0


def tables_check(
    *, session_key: str, address: str | None, kind: str = "lobby", tables: int = 1
) -> None:
    """Raise :class:`TooManyTables` when this session or address may not open
    ``tables`` more tables of ``kind``."""
    if kind not in KINDS:
        raise ValueError(f"not a kind of table: {kind!r}")
    now = wall_ms()
    for limit, opener in (("session", session_key), ("address", address)):
        if not opener:
            continue
        allowed = _allowed(kind, limit)
        closing = _closing_times(kind, limit, opener, now)
        over = len(closing) + tables - allowed
        if over > 0:
            room_at = closing[min(over, len(closing)) - 1] if closing else now
            wait_s = max(1, math.ceil((room_at - now) / 1000))
            raise TooManyTables(kind, limit, allowed, max(0, allowed - len(closing)), wait_s)
