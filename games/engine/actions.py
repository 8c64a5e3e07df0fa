"""Actions: what players (people and bots) and the table service can do.

Every action carries ``at_ms``, the server receive time in milliseconds; the engine
never reads a clock. Times must not go backwards (else ``Rejected("bad_time")``).

A call carries ``seen``: the number (``seq``) of the last event its player had seen.
It is how a call made on a match that has since been resolved or covered is judged
"too late" rather than "wrong" (R9): a call made while its player was looking at a
valid match of the called kind is never punished, however many cards have been turned
since. ``seen=None``: the call is taken as sent just before the last race was closed
when no card has been turned since that race; otherwise as sent when it arrives.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Action", "CallSnap", "CallSnapPot", "CloseRace", "TurnCard", "SNAP", "SNAP_POT"]

#: Kind of a call or race: "Snap!" (R8).
SNAP = "snap"
#: Kind of a call or race: "Snap Pot!" (R10).
SNAP_POT = "snap_pot"


@dataclass(frozen=True, slots=True)
class TurnCard:
    """``seat`` turns the top card of his face-down pile (R7, R15).

    >>> TurnCard(seat=0, at_ms=1000)
    TurnCard(seat=0, at_ms=1000)
    """

    seat: int
    at_ms: int


@dataclass(frozen=True, slots=True)
class CallSnap:
    """``seat`` calls "Snap!" (R8); ``seen`` is the seq of the last event he had seen."""

    seat: int
    at_ms: int
    seen: int | None = None

    kind = SNAP


@dataclass(frozen=True, slots=True)
class CallSnapPot:
    """``seat`` calls "Snap Pot!" (R10); ``seen`` as for :class:`CallSnap`."""

    seat: int
    at_ms: int
    seen: int | None = None

    kind = SNAP_POT


@dataclass(frozen=True, slots=True)
class CloseRace:
    """The service closes the open race once its tie window has passed (R9).

    Sent at (or after) ``race.closes_at_ms``; earlier is ``Rejected("too_early")``.
    """

    at_ms: int


Action = TurnCard | CallSnap | CallSnapPot | CloseRace
