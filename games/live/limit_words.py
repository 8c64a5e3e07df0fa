"""What a person is told when they may open no more tables (games.tables.limits):
which limit it is, how long until a table of theirs closes, and what they can do,
in the active language."""

from __future__ import annotations

import math

from django.conf import settings
from django.utils.translation import gettext, ngettext

from games.tables import TooManyTables

__all__ = ["too_many_tables_text"]


def _which(error: TooManyTables) -> str:
    """The limit reached, with its number."""
    n = error.allowed
    if (error.kind, error.limit) == ("lobby", "session"):
        text = ngettext(
            "You already have %(count)d table open: that is as many as one browser may "
            "have open at once.",
            "You already have %(count)d tables open: that is as many as one browser may "
            "have open at once.",
            n,
        )
    elif error.kind == "lobby":
        text = ngettext(
            "%(count)d table is already open on this network (a school's, for example): "
            "that is as many as one network may have open at once.",
            "%(count)d tables are already open on this network (a school's, for example): "
            "that is as many as one network may have open at once.",
            n,
        )
    else:  # class tables: a request may ask for several (a class's tablets)
        if error.limit == "session":
            text = ngettext(
                "One teacher may have %(count)d class table open at once.",
                "One teacher may have %(count)d class tables open at once.",
                n,
            )
        else:
            text = ngettext(
                "One network (a school's, for example) may have %(count)d class table "
                "open at once.",
                "One network (a school's, for example) may have %(count)d class tables "
                "open at once.",
                n,
            )
        if not error.free:
            return f"{text % {'count': n}} {gettext('That many are open already.')}"
    return text % {"count": n}


def _rule() -> str:
    """When a table closes (games.tables.closing)."""
    idle_s = settings.TABLE_IDLE_PAUSE_S + settings.TABLE_IDLE_CLOSE_S
    minutes = max(1, math.ceil(idle_s / 60))
    return ngettext(
        "A table closes when its game is over, or once nobody has been at it for "
        "%(minutes)d minute.",
        "A table closes when its game is over, or once nobody has been at it for "
        "%(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def _wait(error: TooManyTables) -> str:
    """How long until the first of the tables counted closes."""
    minutes = max(1, math.ceil(error.wait_s / 60))
    return ngettext(
        "If nobody plays at them, the first of them closes in %(minutes)d minute.",
        "If nobody plays at them, the first of them closes in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def _what_to_do(error: TooManyTables) -> str:
    if (error.kind, error.limit) == ("lobby", "session"):
        return gettext("To open a new table sooner, finish one of your games.")
    if error.kind == "lobby":
        return gettext("Until then you can join a table that is already open, with its code.")
    if error.limit == "session":
        return gettext(
            "To play again with the same students, use “New game with the same students” "
            "on a class table's page: the new table takes the old one's place."
        )
    return gettext("Each class game that ends makes room for a new table.")


def _fewer(error: TooManyTables) -> list[str]:
    """For a request of several tables (a class's tablets) of which some would fit."""
    if not error.free:
        return []
    return [
        ngettext(
            "%(count)d more class table can be opened now: choose fewer tablets.",
            "%(count)d more class tables can be opened now: choose fewer tablets.",
            error.free,
        )
        % {"count": error.free}
    ]


def too_many_tables_text(error: TooManyTables) -> str:
    """Which limit was reached, when a table closes, how long until the first of the
    person's closes, and what they can do; in the active language."""
    return " ".join([_which(error), *_fewer(error), _rule(), _wait(error), _what_to_do(error)])
