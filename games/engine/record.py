"""Game records and replays.

A :class:`Record` holds everything needed to replay a game exactly: the players, the
options, the dealer and the dealt deck order (not only a seed), or the initial piles of a
:func:`~games.engine.state.from_piles` game, and every action with its time.
(JSON lives outside the engine.)

>>> import random
>>> from games.engine import new_game, TurnCard
>>> game = Game(new_game(2, random.Random(1)))
>>> _ = game.play(TurnCard(game.state.to_play, 0))
>>> final_state(game.record()) == game.state
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .options import Options
from .rules import Step, apply
from .state import GameState, deal, from_piles

__all__ = ["Game", "Record", "final_state", "record_start", "replay", "start_state"]


@dataclass(frozen=True, slots=True)
class Record:
    """A replayable game. Either a dealt game (``deck`` = the dealt order, top first, and
    ``dealer``) or a game from explicit piles (``face_down`` not None; piles bottom to
    top, as in :func:`~games.engine.state.from_piles`, with ``to_play`` and
    ``last_turned``, the player who turned the last card before the position, R20 D)."""

    players: int
    options: Options
    dealer: int | None
    deck: tuple[Card, ...]
    actions: tuple[Action, ...] = ()
    face_down: tuple[tuple[Card, ...], ...] | None = None
    face_up: tuple[tuple[Card, ...], ...] | None = None
    pot: tuple[Card, ...] = ()
    to_play: int = 0
    last_turned: int | None = None

    def with_actions(self, actions: tuple[Action, ...]) -> Record:
        """The same start with ``actions``."""
        return Record(
            self.players,
            self.options,
            self.dealer,
            self.deck,
            tuple(actions),
            self.face_down,
            self.face_up,
            self.pot,
            self.to_play,
            self.last_turned,
        )


def record_start(state: GameState) -> Record:
    """An empty record starting from ``state``, which must be a start position (no event
    yet): a dealt game or a game from piles."""
    if state.seq != 0 or state.turns != 0:
        raise ValueError("a record starts from a start position (seq 0)")
    if state.deck:
        return Record(state.players, state.options, state.dealer, state.deck)
    return Record(
        state.players,
        state.options,
        None,
        (),
        (),
        state.face_down,
        state.face_up,
        state.pot,
        state.to_play,
        state.last_turned,
    )


def start_state(record: Record) -> GameState:
    """The start position of ``record``."""
    if record.face_down is not None:
        return from_piles(
            record.face_down,
            record.face_up,
            record.pot,
            record.to_play,
            record.options,
            record.last_turned,
        )
    assert record.dealer is not None
    return deal(record.players, record.deck, record.dealer, record.options)


def replay(record: Record) -> Iterator[Step]:
    """Replay ``record``: one :class:`Step` per action, in order."""
    state = start_state(record)
    for action in record.actions:
        step = apply(state, action)
        state = step.state
        yield step


def final_state(record: Record) -> GameState:
    """The state after every action of ``record``."""
    state = start_state(record)
    for action in record.actions:
        state = apply(state, action).state
    return state


class Game:
    """A convenience holder: a current state plus the actions played (a mutable
    wrapper around the pure engine, for services and tests)."""

    __slots__ = ("start", "state", "actions")

    def __init__(self, start: GameState) -> None:
        self.start = record_start(start)
        self.state = start
        self.actions: list[Action] = []

    def play(self, action: Action) -> Step:
        """Apply ``action``; it is recorded (rejected actions too, so a replay is exact)."""
        step = apply(self.state, action)
        self.actions.append(action)
        self.state = step.state
        return step

    def record(self) -> Record:
        """The record of the game so far."""
        return self.start.with_actions(tuple(self.actions))
