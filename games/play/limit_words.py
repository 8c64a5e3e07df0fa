"""The lobby's sentence when a person may open no more tables (games.tables.limits)."""

from __future__ import annotations

from django.utils.translation import ngettext

from games.tables import TooManyTables

__all__ = ["too_many_tables_text"]


def too_many_tables_text(error: TooManyTables) -> str:
    """Which limit was reached, with its number, in the active language."""
    n = error.allowed
    if error.limit == "session":
        return ngettext(
            "You already have %(count)d table open. Finish that game before you open another.",
            "You already have %(count)d tables open. Finish one of those games before you "
            "open another.",
            n,
        ) % {"count": n}
    return ngettext(
        "%(count)d table is already open on this network. Try again when a game is over.",
        "%(count)d tables are already open on this network. Try again when a game is over.",
        n,
    ) % {"count": n}
