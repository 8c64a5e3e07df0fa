"""What a replay calls each seat at each step: what the live table called it then.

A person's seat is "Luka", but "Computer for Luka" in the steps a computer player made
while standing in for Luka (the stand-in mark of the stored actions, see
:mod:`games.tables.stand_in`): a replay, a lesson or a sheet never says that Luka did
what the computer player did. A record without marks keeps every seat's own name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SeatNames"]


@dataclass(frozen=True)
class SeatNames:
    """``own``: each seat's label ("Luka", "Computer 2"); ``standing_in``: its label
    while a computer player stands in for it ("Computer for Luka"); ``marks``: for each
    action of the record, in order, the seats a computer player stood in for then."""

    own: tuple[str, ...]
    standing_in: tuple[str, ...]
    marks: tuple[frozenset[int], ...] = ()

    @classmethod
    def plain(cls, names: Sequence[str]) -> SeatNames:
        """Every seat under its own name at every step (no stand-in)."""
        return cls(tuple(names), tuple(names))

    def stood_in(self, number: int) -> frozenset[int]:
        """The seats stood in for at action ``number`` (from 1; 0, the start: none)."""
        if not 0 < number <= len(self.marks):
            return frozenset()
        return self.marks[number - 1]

    def at(self, number: int, keep: int | None = None) -> list[str]:
        """The labels at action ``number`` (0: the start); seat ``keep`` (a lesson's
        learner pressing a button of their own) under its own name."""
        stood_in = self.stood_in(number) - {keep}
        return [
            self.standing_in[seat] if seat in stood_in else name
            for seat, name in enumerate(self.own)
        ]
