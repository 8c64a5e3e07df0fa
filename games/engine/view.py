"""What one seat (or a spectator) may see: :func:`view`.

A :class:`TableView` holds counts, the top card of every face-up pile and of the Snap
Pot, and public facts (turn, race, valid calls, result). No face-down card identity is
ever in it, not even the owner's (R5, R7).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .state import GameState, ValidCalls

__all__ = ["TableView", "view"]


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as seen from seat ``me`` (None for a spectator); per-seat tuples are
    indexed by seat."""

    me: int | None
    players: int
    dealer: int | None
    to_play: int
    last_turned: int | None
    face_down_counts: tuple[int, ...]
    face_up_counts: tuple[int, ...]
    face_up_tops: tuple[Card | None, ...]
    out: tuple[bool, ...]
    pot_count: int
    pot_top: Card | None
    pot_blocked: bool
    race_open: bool
    race_kind: str | None
    race_callers: tuple[int, ...]
    race_closes_at_ms: int | None
    valid: ValidCalls
    turns: int
    seq: int
    over: bool
    winner: int | None
    winners: tuple[int, ...]
    draw: bool
    end_reason: str | None

    def total(self, seat: int) -> int:
        """All cards of ``seat``."""
        return self.face_down_counts[seat] + self.face_up_counts[seat]

    def cards(self) -> tuple[Card, ...]:
        """Every card identity shown in this view (face-up tops and the pot top)."""
        shown = [c for c in self.face_up_tops if c is not None]
        if self.pot_top is not None:
            shown.append(self.pot_top)
        return tuple(shown)


def view(state: GameState, seat: int | None = None) -> TableView:
    """The view of ``state`` from ``seat`` (None: a spectator).

    >>> from games.engine import deal, full_deck, apply, TurnCard
    >>> s = apply(deal(2, full_deck(), dealer=1), TurnCard(0, 0)).state
    >>> v = view(s, 1)
    >>> v.face_down_counts, v.face_up_counts, v.face_up_tops
    ((25, 26), (1, 0), (Card(rank=12, suit='C'), None))
    >>> v.me, v.to_play, v.valid
    (1, 1, ValidCalls(snap=(), snap_pot=()))
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"no such seat: {seat!r}")
    race = state.race
    pot = state.pot
    return TableView(
        me=seat,
        players=state.players,
        dealer=state.dealer,
        to_play=state.to_play,
        last_turned=state.last_turned,
        face_down_counts=tuple(len(p) for p in state.face_down),
        face_up_counts=tuple(len(p) for p in state.face_up),
        face_up_tops=tuple(p[-1] if p else None for p in state.face_up),
        out=tuple(not d and not u for d, u in zip(state.face_down, state.face_up, strict=True)),
        pot_count=len(pot),
        pot_top=pot[-1] if pot else None,
        pot_blocked=state.pot_blocked,
        race_open=race is not None,
        race_kind=race.kind if race is not None else None,
        race_callers=race.callers if race is not None else (),
        race_closes_at_ms=race.closes_at_ms if race is not None else None,
        valid=state.valid_now,
        turns=state.turns,
        seq=state.seq,
        over=state.over,
        winner=state.winner,
        winners=state.winners,
        draw=state.draw,
        end_reason=state.end_reason,
    )
