"""The shape of a scenario file, parsed and checked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.engine import CallSnap, CallSnapPot, CloseRace, Options, TurnCard

LEARNER_PRESSES = ("turn", "snap", "snap_pot")
_ACTION = re.compile(r"^(turn|snap|pot|close)(?:\s+(\d+))?(?:\s+\+(\d+))?$")


def press_action(press: str, seat: int, at_ms: int, seen: int | None = None):
    """The engine action for a learner's button or a scripted move: turn, snap, snap_pot."""
    if press == "turn":
        return TurnCard(seat, at_ms)
    if press == "snap":
        return CallSnap(seat, at_ms, seen)
    return CallSnapPot(seat, at_ms, seen)


class ScenarioError(ValueError):
    """A scenario file is malformed, or the engine disagrees with it."""


@dataclass(frozen=True, slots=True)
class ScriptedAction:
    """``turn 0``, ``snap 2 +40``, ``pot 1``, ``close``: what, who, and how many ms
    after the step starts. ``pot`` is stored as the press it stands for, ``snap_pot``."""

    verb: str
    seat: int | None
    offset_ms: int

    @classmethod
    def parse(cls, text: str) -> ScriptedAction:
        """
        >>> ScriptedAction.parse("snap 2 +40")
        ScriptedAction(verb='snap', seat=2, offset_ms=40)
        >>> ScriptedAction.parse("close")
        ScriptedAction(verb='close', seat=None, offset_ms=0)
        >>> ScriptedAction.parse("pot 1").verb
        'snap_pot'
        """
        match = _ACTION.match(text.strip())
        if not match or (match[1] == "close") != (match[2] is None):
            raise ScenarioError(f"cannot read action {text!r}")
        seat = int(match[2]) if match[2] is not None else None
        verb = "snap_pot" if match[1] == "pot" else match[1]
        return cls(verb=verb, seat=seat, offset_ms=int(match[3] or 0))

    def to_engine(self, at_ms: int, closes_at_ms: int | None, seen: int | None = None):
        if self.verb == "close":
            return CloseRace(closes_at_ms if closes_at_ms is not None else at_ms)
        return press_action(self.verb, self.seat, at_ms, seen)


@dataclass(frozen=True, slots=True)
class Expectation:
    """An event code, optionally with fields it must have: ``piles_won winner=2``."""

    code: str
    fields: tuple[tuple[str, str], ...]

    @classmethod
    def parse(cls, text: str) -> Expectation:
        code, *pairs = text.split()
        fields = []
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep:
                raise ScenarioError(f"cannot read expectation {text!r}")
            fields.append((key, value))
        return cls(code=code, fields=tuple(fields))

    def matches(self, event) -> bool:
        if event.code != self.code:
            return False
        for key, value in self.fields:
            actual = getattr(event, key, None)
            shown = getattr(actual, "code", actual)
            if isinstance(shown, tuple):
                shown = ",".join(str(x) for x in shown)
            if str(shown) != value:
                return False
        return True

    def __str__(self) -> str:
        return " ".join([self.code, *(f"{k}={v}" for k, v in self.fields)])


@dataclass(frozen=True, slots=True)
class ScenarioStep:
    say: str
    actions: tuple[ScriptedAction, ...]
    expect: tuple[Expectation, ...]
    clauses: tuple[str, ...]
    learner: str | None  # what the learner must do first: turn, snap or snap_pot


@dataclass(frozen=True, slots=True)
class Scenario:
    slug: str
    order: int
    clauses: tuple[str, ...]
    players: int
    learner: int
    options: Options
    face_down: tuple[tuple[str, ...], ...]
    face_up: tuple[tuple[str, ...], ...]
    pot: tuple[str, ...]
    to_play: int
    last_turned: int | None  # who turned the last card before the position (R20 D)
    deck: tuple[str, ...]
    dealer: int | None
    steps: tuple[ScenarioStep, ...]
    #: Seats whose face-down piles hold, at the bottom, the cards of the deck the setup
    #: does not name (so the table holds all 52 cards, as every real game does, R2).
    rest_under: tuple[int, ...] = ()

    @property
    def interactive_steps(self) -> int:
        return sum(1 for step in self.steps if step.learner)
