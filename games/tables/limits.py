"""How many tables one person may have open at once (docs/protocol.md, "Limits").

A table opened from the lobby (practice or not) counts as open for its opener (the
browser session on seat 0) and for the network address it was opened from until its
game is over or it was closed for want of anyone connected (for the session, also once
its opener is out of the game: the table plays on without them). Over
``TABLES_OPEN_PER_SESSION`` or ``TABLES_OPEN_PER_ADDRESS`` (settings) no table is
opened: :class:`TooManyTables` says which limit was reached. Class tables are not
counted (a teacher's "new game" opens a new one each time).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet

from games.models import Table, TableEvent

__all__ = ["TooManyTables", "tables_check", "tables_open_of"]


class TooManyTables(ValueError):
    """No table was opened: ``limit`` ("session" or "address") allows ``allowed``."""

    def __init__(self, limit: str, allowed: int) -> None:
        super().__init__(f"too many open tables for this {limit} (at most {allowed})")
        self.limit = limit
        self.allowed = allowed


def _open() -> QuerySet:
    return (
        Table.objects.filter(teacher_key="", idle_closed=None)
        .exclude(events__data__code="game_over")
        .distinct()
    )


def _opener_out() -> Exists:
    """The opener (seat 0) has gone out of the game (RULES R16): they have no move there
    any more, and a practice table's "Play again" must not find them at their limit."""
    return Exists(
        TableEvent.objects.filter(
            table=OuterRef("pk"), data__code="player_out", data__params__seat=0
        )
    )


def tables_open_of(*, session_key: str = "", address: str | None = None) -> int:
    """The open tables opened by ``session_key`` (on seat 0) where it is still in the
    game, or every open table opened from ``address``."""
    if session_key:
        return (
            _open()
            .filter(seats__number=0, seats__session_key=session_key, seats__is_bot=False)
            .exclude(_opener_out())
            .count()
        )
    if address:
        return _open().filter(opener_address=address).count()
    return 0


def tables_check(*, session_key: str, address: str | None) -> None:
    """Raise :class:`TooManyTables` when this session or address may open no more."""
    per_session = settings.TABLES_OPEN_PER_SESSION
    if tables_open_of(session_key=session_key) >= per_session:
        raise TooManyTables("session", per_session)
    per_address = settings.TABLES_OPEN_PER_ADDRESS
    if address and tables_open_of(address=address) >= per_address:
        raise TooManyTables("address", per_address)
