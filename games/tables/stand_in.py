"""A computer player standing in for an absent person: what it did, counted from the
table's events while it plays for the seat and told to the person when they are back
(the ``stood_in`` of their welcome), and the mark on every step it was there for.

Each action and event applied while a computer player stands in for someone is stored
(and sent) with ``"stand_in_for": [seats]``, the seats it plays for at that moment, so a
replay or a catch-up tells those moves as "Computer for Luka", as the live table did,
never as Luka (docs/protocol.md). A record without the mark had no stand-in (or was
stored before the mark existed): its seats keep their names.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["STAND_IN_FOR", "StandInTally", "stand_in_mark", "stood_in_seats"]

#: The key of the mark in a stored action's or event's data.
STAND_IN_FOR = "stand_in_for"


def stand_in_mark(seats) -> dict:
    """The mark of a step applied while computer players stand in for ``seats``."""
    return {STAND_IN_FOR: sorted(seats)}


def stood_in_seats(data: dict) -> frozenset[int]:
    """The seats a computer player stood in for when the step of ``data`` (a stored
    action or event) was applied; none for a step without the mark."""
    return frozenset(data.get(STAND_IN_FOR) or ())


@dataclass(slots=True)
class StandInTally:
    """The seat's cards turned, cards won, ties joined and wrong calls since the
    stand-in began (whoever's action caused the event: a turn timer turns for it too)."""

    seat: int
    turned: int = 0
    won: int = 0
    ties: int = 0
    wrong_calls: int = 0

    def add(self, event: dict) -> None:
        """Count one stored event (``code`` and ``params``, as sent)."""
        code, params = event["code"], event["params"]
        if code == "card_turned" and params["seat"] == self.seat:
            self.turned += 1
        elif code == "piles_won" and params["winner"] == self.seat:
            self.won += params["cards"]
        elif code == "tie_to_pot" and self.seat in params["callers"]:
            self.ties += 1
        elif code == "wrong_call" and params["seat"] == self.seat:
            self.wrong_calls += 1

    def as_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "seat"}
