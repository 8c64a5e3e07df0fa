"""The game a live table played, loaded for the pages that show it again: a replay, a
lesson from one seat, a lesson sheet's pictures. Each seat is named as the live table
named it, at each step ("Computer for Luka" where a computer player stood in).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import tables
from games.engine import GameState, Record, final_state
from games.frames.seat_names import SeatNames
from games.tables.codes import normalise_code
from games.tables.live_text import seat_labels

__all__ = ["Game", "Missing", "load_game"]


@dataclass(frozen=True)
class Game:
    code: str
    record: Record
    end: GameState
    names: list[str]
    bots: tuple[bool, ...] = ()
    seat_names: SeatNames | None = None  # the labels at each step (stand-ins named)

    @property
    def labels(self) -> SeatNames:
        return self.seat_names or SeatNames.plain(self.names)

    @property
    def winner(self) -> int:
        """The winner (the first of a shared win; seat 0 in a draw)."""
        if self.end.winner is not None:
            return self.end.winner
        return self.end.winners[0] if self.end.winners else 0

    @property
    def lesson_seat(self) -> int:
        """The seat a lesson is seen from unless another is chosen: a person's, never a
        computer player's when a person played: the winner if a person won, else the
        person who ended with the most cards (the first such seat on a tie)."""
        people = [n for n in range(self.record.players) if not self.bots or not self.bots[n]]
        if not people:
            return self.winner
        if self.winner in people:
            return self.winner
        cards = [len(self.end.face_down[n]) + len(self.end.face_up[n]) for n in people]
        return people[cards.index(max(cards))]


class Missing(Exception):
    """No page to show: the reason, said on a 404 page in the page's language."""


def load_game(code: str) -> Game:
    code = normalise_code(code)
    record = tables.table_record(code=code)
    if record is None:
        raise Missing(_("There is no table with that code. Check the letters."))
    seats = [
        {"bot": bot, "taken": bot or taken, "name": name}
        for _table, bot, taken, name in tables.table_seat_names(code=code)
    ]
    bots = tuple(s["bot"] for s in seats)
    names = seat_labels(seats)
    seat_names = SeatNames(
        tuple(names),
        tuple(seat_labels([{**s, "away": True} for s in seats])),
        tuple(tables.table_stand_ins(code=code)),
    )
    return Game(code, record, final_state(record), names, bots, seat_names)
