"""What a computer player did while standing in for an absent person: counted from the
table's events while it plays for the seat, and told to the person when they are back
(the ``stood_in`` of their welcome, docs/protocol.md)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["StandInTally"]


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
