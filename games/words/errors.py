"""Sentences for the live-table errors that are not the engine's (``docs/protocol.md``,
"Errors"): the service's and the connection's refusals, told to a child of 8 or more.

The engine's refusals (``not_your_turn``, ``game_over``…) are in
:data:`games.words.texts.REJECT_TEXTS`; the protocol's (``bad_json``…) say the engine's
"That is not a move in this game." Texts are lazy: the consumer makes them in the
language of the client's ``hello``.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["TABLE_ERROR_TEXTS"]

TABLE_ERROR_TEXTS: dict[str, Promise] = {
    "bad_name": _("Names are 1 to 24 letters long, with no invisible characters."),
    "rate_limited": _("Too many messages at once: slow down a little."),
    "catch_up_limited": _(
        "You asked for the game so far too often. The table is shown as it is now."
    ),
    "server_error": _("Something went wrong at the table. Try again."),
    "no_session": _(
        "Your browser did not keep this site’s cookie, so you cannot take a seat. "
        "Allow cookies and reload the page."
    ),
    "table_full": _("This table is full. You can watch, or open a table of your own."),
    "not_seated": _("You are watching this table, so you cannot play at it."),
    "not_started": _("The game starts when every seat has a player."),
    "table_turns": _("At this table the cards are turned for you: just watch and call."),
    "no_table": _("This table does not exist any more."),
    "not_teacher": _("Only the teacher of this class can do that."),
    "not_opener": _("Only the player who opened this table can start it."),
    "is_teacher": _(
        "You are the teacher of this class, so you do not take a seat. "
        "To play, open the table on another device."
    ),
    "not_now": _("That is not possible at this moment of the game."),
    "bad_seat": _("That cannot be done with that seat."),
    "too_few_players": _("A game needs at least two players. Wait for more students."),
    "paused": _("The teacher has paused the game. Wait until it goes on."),
    "restarted": _("This game is closed: the class is playing a new game at another table."),
}
