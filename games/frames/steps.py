"""A recorded game, step by step, and the same game as a lesson from one seat.

A replay has one step per action of the record (after the start position): the state
before and after it and the engine's events. A lesson adds, at every position, the
engine's answer to each of the learner's buttons, played with the walkthroughs' own
:func:`games.scenarios.runner.play_branch` and sorted by
:func:`games.words.press_outcomes.classify`, so a lesson answers a press exactly as a
walkthrough does. The recorded game is "the example": where the learner's seat made a
right move next, that move is the one the lesson asks for (``expects``); a recorded
mistake or late call is not asked for, it is only played on (Next) or tried (a branch).

A press is played at the moment of the position (the clock of its last action): "what
if you had pressed just then". Pure: engine, press outcomes and the scenario runner.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import CallSnap, CallSnapPot, GameState, Record, TurnCard, replay, start_state
from games.scenarios.model import LEARNER_PRESSES
from games.scenarios.runner import Branch, play_branch
from games.words.press_outcomes import RIGHT, classify

__all__ = ["Position", "RecordStep", "learner_press", "lesson_positions", "record_steps"]


@dataclass(frozen=True, slots=True)
class RecordStep:
    """Action ``number`` (from 1) of a record: the states around it and its events."""

    number: int
    action: object
    before: GameState
    state: GameState
    events: tuple


@dataclass(frozen=True, slots=True)
class Position:
    """A position of a lesson (the start, then after each action): the press the
    example makes next from the learner's seat, if it is a right one, and the engine's
    answer to every other press."""

    state: GameState
    expects: str | None
    branches: dict[str, Branch]


def record_steps(record: Record) -> tuple[GameState, tuple[RecordStep, ...]]:
    """The start position of ``record`` and one step per action."""
    start = before = start_state(record)
    steps = []
    played = zip(record.actions, replay(record), strict=True)
    for number, (action, step) in enumerate(played, start=1):
        steps.append(RecordStep(number, action, before, step.state, step.events))
        before = step.state
    return start, tuple(steps)


def learner_press(action: object, learner: int) -> str | None:
    """The button ``action`` stands for when ``learner`` made it, else None."""
    if getattr(action, "seat", None) != learner:
        return None
    return {TurnCard: "turn", CallSnap: "snap", CallSnapPot: "snap_pot"}.get(type(action))


def _asked_for(step: RecordStep, learner: int) -> str | None:
    """The press the lesson asks for before ``step``: the learner's own next move, when
    the engine counts it right (a recorded mistake is shown, never asked for)."""
    press = learner_press(step.action, learner)
    if press is None:
        return None
    try:
        verdict = classify(step.before, learner, step.events, step.state)
    except ValueError:  # the events do not tell a press of the learner's
        return None
    return press if verdict.outcome == RIGHT else None


def lesson_positions(
    start: GameState, steps: tuple[RecordStep, ...], learner: int
) -> list[Position]:
    """Every position of the game (the start, then after each step) from ``learner``'s
    seat, with the engine's answer to each press (none once the game is over)."""
    states = [start, *(s.state for s in steps)]
    positions = []
    for i, state in enumerate(states):
        following = steps[i] if i < len(steps) else None
        expects = _asked_for(following, learner) if following else None
        branches = {
            press: play_branch(
                state,
                learner,
                press,
                state.clock_ms,
                following=following.events if following else None,
                example_ends=following is None,
            )
            for press in LEARNER_PRESSES
            if press != expects and not state.over
        }
        positions.append(Position(state, expects, branches))
    return positions
