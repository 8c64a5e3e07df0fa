"""The "Play again" of a practice table: the same game against the same computer players,
in one press, for its person once they are out (or at the end).

A practice table is one person, on this browser session, against 1 to 3 computer
players (``games.tables.table_create_practice``); its "Play again" is the lobby's
practice form filled in as it was, so the new table is made and checked as any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Seat, Table

__all__ = ["PracticeAgain", "practice_again"]

#: The most computer players the practice form takes.
MOST_COMPUTERS = 3


@dataclass(frozen=True)
class PracticeAgain:
    """The practice form's fields for the same game: the person's name and each
    computer player's level, in seat order."""

    name: str
    levels: tuple[str, ...]

    @property
    def fields(self) -> list[tuple[str, str]]:
        """(field, value) pairs of ``games.play.forms.PracticeForm``."""
        levels = [(f"level_{n}", level) for n, level in enumerate(self.levels, start=1)]
        return [("name", self.name), ("computers", str(len(self.levels))), *levels]


def practice_again(table: Table, held: list[Seat]) -> PracticeAgain | None:
    """The same practice game for the session holding ``held`` at ``table``, or None
    when ``table`` is not a practice table of that session (a class's, one on a device,
    other people at it, or more computer players than the form has)."""
    if table.teacher_key or table.on_device or len(held) != 1:
        return None
    others = [s for s in table.seats.order_by("number") if s.number != held[0].number]
    if not others or len(others) > MOST_COMPUTERS or not all(s.is_bot for s in others):
        return None
    return PracticeAgain(name=held[0].display_name, levels=tuple(s.bot_level for s in others))
