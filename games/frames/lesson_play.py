"""A lesson's steps played on the engine: what the teacher chose, what the engine did.

A step is one thing the teacher makes happen, kept as data:
``{"do": "turn", "seats": [1]}`` (a player turns a card), ``{"do": "snap", "seats":
[0]}`` or ``"snap_pot"`` (a player calls; two seats call at the very same moment, so the
table's tie window and index card decide, R9, R12), ``{"do": "close"}`` (the race
closes when its tie window ends). Each step starts one second after the previous
action (:data:`STEP_MS`); a call carries the last event its player had seen (the
step's start), as in the walkthroughs.

The engine is the judge: a step it refuses is a :class:`Refused` with the engine's
reason, and nothing is kept of it. "Let the computer go on" is :func:`go_on`: the
players turn in order until something can be called or the game ends; it becomes
plain turn steps, so every card is a step of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import CloseRace, GameState, Rejected, TurnCard, apply
from games.frames.steps import RecordStep
from games.scenarios.model import press_action
from games.words.press_outcomes import RIGHT, classify

__all__ = [
    "KINDS",
    "MAX_GO_ON",
    "Played",
    "Refused",
    "STEP_MS",
    "asked_press",
    "check_step",
    "go_on",
    "play",
    "play_step",
]

#: A step starts this long after the previous action.
STEP_MS = 1000
#: "Let the computer go on" turns at most this many cards in one go.
MAX_GO_ON = 52
KINDS = ("turn", "snap", "snap_pot", "close")


@dataclass(frozen=True)
class Refused(Exception):
    """The engine refused step ``number`` (from 1): ``reason`` is one of the engine's
    reject reasons (``games.engine.REJECT_REASONS``), ``seat`` who tried."""

    number: int
    reason: str
    seat: int | None


@dataclass(frozen=True)
class Played:
    """The steps that fit, played: one :class:`RecordStep` each; ``refused`` the first
    step that no longer fits, when one did not (the steps after it are not played)."""

    start: GameState
    steps: tuple[RecordStep, ...]
    refused: Refused | None = None

    @property
    def end(self) -> GameState:
        return self.steps[-1].state if self.steps else self.start


def check_step(step: dict, players: int) -> dict:
    """``step`` in its stored form, or ValueError when it is not a step at all."""
    kind = step.get("do")
    seats = step.get("seats", [])
    if kind not in KINDS or not isinstance(seats, list):
        raise ValueError("not a lesson step")
    if not all(type(s) is int and 0 <= s < players for s in seats):
        raise ValueError("not a seat")
    wanted = {"turn": (1,), "close": (0,), "snap": (1, 2), "snap_pot": (1, 2)}[kind]
    if len(seats) not in wanted or len(set(seats)) != len(seats):
        raise ValueError("wrong seats for this step")
    return {"do": kind, "seats": list(seats)}


def play_step(state: GameState, step: dict, number: int) -> RecordStep:
    """Play ``step`` (checked) from ``state``; :class:`Refused` when the engine says no."""
    begin = state.clock_ms + STEP_MS
    seen = state.seq
    before = state
    events: list = []
    if step["do"] == "close":
        if state.race is None:
            raise Refused(number, "no_race", None)
        actions = [CloseRace(max(state.race.closes_at_ms, state.clock_ms))]
    elif step["do"] == "turn":
        actions = [TurnCard(step["seats"][0], begin)]
    else:
        actions = [press_action(step["do"], seat, begin, seen) for seat in step["seats"]]
    for action in actions:
        result = apply(state, action)
        for event in result.events:
            if isinstance(event, Rejected):
                raise Refused(number, event.reason, getattr(action, "seat", None))
        state = result.state
        events.extend(result.events)
    return RecordStep(number, step, before, state, tuple(events))


def play(start: GameState, steps: list[dict]) -> Played:
    """Every step from ``start``, up to the first the engine refuses."""
    played: list[RecordStep] = []
    state = start
    for number, step in enumerate(steps, start=1):
        try:
            done = play_step(state, step, number)
        except Refused as refused:
            return Played(start, tuple(played), refused)
        played.append(done)
        state = done.state
    return Played(start, tuple(played))


def go_on(state: GameState, limit: int = MAX_GO_ON) -> list[dict]:
    """The turn steps of "let the computer go on": each player in turn turns a card,
    until a call is valid, the game ends, or ``limit`` cards (at least one card, unless
    the engine refuses it; then none)."""
    steps: list[dict] = []
    while len(steps) < limit and not state.over:
        step = {"do": "turn", "seats": [state.to_play]}
        try:
            state = play_step(state, step, len(steps) + 1).state
        except Refused:
            break
        steps.append(step)
        if state.valid_calls() or state.race is not None:
            break
    return steps


def asked_press(done: RecordStep, learner: int) -> str | None:
    """The press the class makes for step ``done`` when it is marked "the class decides
    here": the learner's own turn or call (first of the callers), counted right by the
    engine; None when the step cannot be asked for."""
    step = done.action
    if not step["seats"] or step["seats"][0] != learner:
        return None
    try:
        verdict = classify(done.before, learner, done.events, done.state)
    except ValueError:
        return None
    return step["do"] if verdict.outcome == RIGHT else None
