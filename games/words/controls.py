"""Words for a class table's controls (and a lobby table's "start now"), told to each
connection in its own language (the ``text`` of a ``control`` frame, docs/protocol.md).
Names and codes are isolated for bidi (:func:`games.words.texts.fill`)."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words.texts import fill

__all__ = ["control_text", "pace_text"]


def pace_text(turn_timer_ms: int | None, beat_ms: int | None) -> str:
    """The pace of a table in one sentence."""
    if beat_ms:
        return _("The table turns the cards: one every %(seconds)s seconds.") % {
            "seconds": number_format(beat_ms / 1000, decimal_pos=1)
        }
    if turn_timer_ms:
        return _(
            "Each player turns their own card; after %(seconds)s seconds the table turns it."
        ) % {"seconds": number_format(turn_timer_ms / 1000, decimal_pos=0)}
    return _("Each player turns their own card, with no turn timer.")


def control_text(code: str, params: dict) -> str:
    """The sentence telling control ``code`` with its ``params``, in the active
    language."""
    if code == "started":
        return _("The teacher started the game.")
    if code == "started_now":  # the opener of a lobby table, with the players there
        count = params["players"]
        return ngettext(
            "The game starts now, with the %(count)d player at the table.",
            "The game starts now, with the %(count)d players at the table.",
            count,
        ) % {"count": count}
    if code == "paused":
        return _("The teacher paused the game. Nobody can play until it goes on.")
    if code == "resumed":
        return _("The game goes on.")
    if code == "pace_changed":
        return fill(
            _("The teacher changed the pace. %(pace)s"),
            pace=pace_text(params["turn_timer_ms"], params["beat_ms"]),
        )
    if code == "players_pace":  # the players at a table on one device: faster or slower
        return fill(
            _("The players changed the pace. %(pace)s"),
            pace=pace_text(params["turn_timer_ms"], params["beat_ms"]),
        )
    if code == "bot_added":
        return _("A computer player sits down at seat %(number)d.") % {"number": params["seat"] + 1}
    if code == "bot_removed":
        return _("The computer player at seat %(number)d leaves the table.") % {
            "number": params["seat"] + 1
        }
    if code == "player_removed":
        if params["replaced"]:
            return fill(
                _("%(name)s leaves the game. A computer player plays in their place."),
                name=params["name"],
            )
        return fill(_("%(name)s leaves the table."), name=params["name"])
    if code == "restarted":
        return fill(_("The teacher started a new game at table %(code)s."), code=params["code"])
    raise ValueError(f"unknown control {code!r}")
