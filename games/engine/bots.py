"""Computer players: seeded policies that act only through the players' actions.

Interface (pure, no clock): a live-table service, or :func:`play_bot_game`, drives a bot
like this:

1. after every step of the table (accepted or rejected), call
   ``bot.react(view(state, bot.seat), now_ms)``, where ``now_ms`` is the table's time;
2. if it returns a :class:`Planned`, it **replaces** that bot's pending plan (a bot has at
   most one pending plan); None means "keep the pending plan, if any";
3. when the table's clock reaches ``planned.at_ms``, apply ``planned.action`` (like any
   player's action) and drop the plan.

A bot decides once per situation and remembers its decision, so calling ``react`` again
with the same view gives no new call. Reaction times are drawn from a normal
distribution per level (clipped at a minimum); the chance to miss a match, to call when
nothing matches, and to call the wrong word also depend on the level.

>>> import random
>>> state, record = play_bot_game(3, seed=5, options=Options(turn_limit=60))
>>> state.over, state.card_total(), final_state(record) == state
(True, 52, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .actions import SNAP, SNAP_POT, Action, CallSnap, CallSnapPot, CloseRace, TurnCard
from .options import DEFAULT_OPTIONS, Options
from .record import Game, Record, final_state
from .state import GameState, new_game
from .view import TableView, view

__all__ = ["Bot", "BotLevel", "LevelSpec", "Planned", "play_bot_game"]


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """How a level plays: reaction time ``react_mean_ms`` +- ``react_sd_ms`` (normal,
    at least ``react_min_ms``), chance to notice a match ``notice``, chance per turned
    card of a false call ``false_call``, chance to say the wrong word ``wrong_word``,
    and the time to turn a card ``turn_mean_ms`` +- ``turn_sd_ms``."""

    react_mean_ms: float
    react_sd_ms: float
    react_min_ms: int
    notice: float
    false_call: float
    wrong_word: float
    turn_mean_ms: float
    turn_sd_ms: float


class BotLevel(Enum):
    """Bot levels, from the gentle one a young child can beat (it calls 1.15 s or more
    after a match, later than most children of six, and misses four in ten) and the
    slow, error-prone beginner to the quick player."""

    GENTLE = LevelSpec(1400, 150, 1150, 0.6, 0.01, 0.1, 1600, 400)
    BEGINNER = LevelSpec(900, 300, 350, 0.7, 0.02, 0.15, 1400, 400)
    STEADY = LevelSpec(550, 150, 250, 0.9, 0.01, 0.04, 1000, 250)
    QUICK = LevelSpec(320, 80, 180, 0.98, 0.004, 0.01, 800, 150)

    @property
    def spec(self) -> LevelSpec:
        return self.value


@dataclass(frozen=True, slots=True)
class Planned:
    """An action a bot intends to take at ``at_ms``."""

    at_ms: int
    action: Action


class Bot:
    """A seeded bot for ``seat``. All randomness comes from ``rng``.

    >>> from games.engine import from_piles
    >>> s = from_piles([["2S"], ["3S"]], [["5H"], ["5D"]])
    >>> bot = Bot(1, BotLevel.QUICK, random.Random(3))
    >>> plan = bot.react(view(s, 1), now_ms=1000)
    >>> type(plan.action).__name__, plan.at_ms > 1000
    ('CallSnap', True)
    >>> bot.react(view(s, 1), now_ms=1100) is None  # already decided
    True
    """

    __slots__ = ("seat", "level", "rng", "_decided", "_false_turn", "_turn_key", "_turn_at")

    def __init__(self, seat: int, level: BotLevel, rng: random.Random) -> None:
        self.seat = seat
        self.level = level
        self.rng = rng
        self._decided: tuple | None = None  # key of the match last decided on
        self._false_turn = -1  # the turn count last considered for a false call
        self._turn_key: tuple | None = None
        self._turn_at = 0

    def _delay(self, mean: float, sd: float, minimum: int) -> int:
        return max(minimum, int(self.rng.gauss(mean, sd)))

    def react(self, v: TableView | GameState, now_ms: int) -> Planned | None:
        """What the bot intends to do after seeing ``v`` at ``now_ms`` (see module doc)."""
        if isinstance(v, GameState):
            v = view(v, self.seat)
        me = self.seat
        if v.over or v.out[me]:
            return None
        spec = self.level.value
        if v.race_open:
            if me in v.race_callers:
                return None
            kind = v.race_kind
            key = (v.face_up_tops, v.pot_top, v.pot_count, v.turns)
            if key == self._decided:
                return None
            self._decided = key
            if self.rng.random() < spec.notice:
                at = now_ms + self._delay(spec.react_mean_ms, spec.react_sd_ms, spec.react_min_ms)
                return Planned(at, self._call(kind, at, v.seq))
            return None
        valid = v.valid
        if valid:
            key = (v.face_up_tops, v.pot_top, v.pot_count, v.turns)
            if key != self._decided:
                self._decided = key
                if self.rng.random() < spec.notice:
                    kind = SNAP_POT if valid.snap_pot else SNAP
                    if self.rng.random() < spec.wrong_word:
                        kind = SNAP if kind == SNAP_POT else SNAP_POT
                    delay = self._delay(spec.react_mean_ms, spec.react_sd_ms, spec.react_min_ms)
                    at = now_ms + delay
                    return Planned(at, self._call(kind, at, v.seq))
                return self._turn(v, now_ms)
            if v.to_play == me:
                return self._turn(v, now_ms)
            return None
        if v.turns != self._false_turn:
            self._false_turn = v.turns
            if v.turns and self.rng.random() < spec.false_call:
                kind = SNAP if self.rng.random() < 0.7 else SNAP_POT
                delay = self._delay(spec.react_mean_ms, spec.react_sd_ms, spec.react_min_ms)
                at = now_ms + delay
                return Planned(at, self._call(kind, at, v.seq))
        return self._turn(v, now_ms)

    def _call(self, kind: str, at: int, seen: int) -> Action:
        if kind == SNAP:
            return CallSnap(self.seat, at, seen)
        return CallSnapPot(self.seat, at, seen)

    def _turn(self, v: TableView, now_ms: int) -> Planned | None:
        if v.to_play != self.seat or v.race_open:
            return None
        key = (v.turns, v.to_play)
        if key != self._turn_key:
            self._turn_key = key
            spec = self.level.value
            self._turn_at = now_ms + self._delay(spec.turn_mean_ms, spec.turn_sd_ms, 100)
        return Planned(max(self._turn_at, now_ms), TurnCard(self.seat, max(self._turn_at, now_ms)))


def play_bot_game(
    players: int,
    seed: int,
    levels: Sequence[BotLevel] | BotLevel = BotLevel.STEADY,
    options: Options = DEFAULT_OPTIONS,
    max_actions: int = 200_000,
) -> tuple[GameState, Record]:
    """Play a whole game between bots with a simulated clock; return the final state and
    the record. Deterministic for a given seed. Stops after ``max_actions`` actions even
    if the game is not over (use ``options.turn_limit`` to make every game end).
    """
    master = random.Random(seed)
    if isinstance(levels, BotLevel):
        levels = [levels] * players
    game = Game(new_game(players, master, options))
    bots = [Bot(s, levels[s], random.Random(master.getrandbits(64))) for s in range(players)]
    plans: list[Planned | None] = [None] * players
    now = 0
    for _ in range(max_actions):
        state = game.state
        if state.over:
            break
        for bot in bots:
            p = bot.react(view(state, bot.seat), now)
            if p is not None:
                plans[bot.seat] = p
        best: Planned | None = None
        best_seat = -1
        for seat, p in enumerate(plans):
            if p is not None and (best is None or p.at_ms < best.at_ms):
                best, best_seat = p, seat
        race = state.race
        if race is not None and (best is None or best.at_ms > race.closes_at_ms):
            now = max(now, race.closes_at_ms)
            game.play(CloseRace(now))
            continue
        if best is None:
            break  # nobody wants to act (cannot happen with bots on every seat)
        plans[best_seat] = None
        now = max(now, best.at_ms)
        game.play(best.action)
    return game.state, game.record()


# final_state is re-exported for the doctest above.
_ = final_state
