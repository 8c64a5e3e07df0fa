"""Reading scenario files (``games/scenarios/data/*.toml``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from games.engine import Options

from .model import LEARNER_PRESSES, Expectation, Scenario, ScenarioError, ScenarioStep
from .model import ScriptedAction as Action

DATA_DIR = Path(__file__).resolve().parent / "data"


def _cards(value) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    return tuple(value)


def _last_turned(setup: dict, name: str) -> int | None:
    """``last_turned = N`` in ``[setup]``: who turned the last card before a position set
    up mid-game (R20 D). Absent: the engine names the player on the right of the player
    to play. A dealt game has nobody (nobody has turned a card yet)."""
    value = setup.get("last_turned")
    if value is None:
        return None
    if type(value) is not int:
        raise ScenarioError(f"{name}: last_turned must be a seat number, not {value!r}")
    if "deck" in setup:
        raise ScenarioError(f"{name}: a dealt game has no last_turned (nobody has turned yet)")
    return value


def parse_scenario(raw: dict, name: str = "scenario") -> Scenario:
    try:
        players = int(raw["players"])
        setup = raw.get("setup", {})
        steps = []
        for i, step in enumerate(raw["step"], start=1):
            learner = step.get("learner")
            if learner is not None and learner not in LEARNER_PRESSES:
                raise ScenarioError(f"{name}: step {i}: learner must be one of {LEARNER_PRESSES}")
            steps.append(
                ScenarioStep(
                    say=step["say"],
                    actions=tuple(Action.parse(a) for a in step.get("do", ())),
                    expect=tuple(Expectation.parse(e) for e in step.get("expect", ())),
                    clauses=tuple(step.get("clauses", ())),
                    learner=learner,
                )
            )
        return Scenario(
            slug=raw["slug"],
            order=int(raw["order"]),
            clauses=tuple(raw["clauses"]),
            players=players,
            learner=int(raw["learner"]),
            options=Options(**raw.get("options", {})),
            face_down=tuple(_cards(p) for p in setup.get("face_down", ())),
            face_up=tuple(_cards(p) for p in setup.get("face_up", ())),
            pot=_cards(setup.get("pot", ())),
            to_play=int(setup.get("to_play", 0)),
            last_turned=_last_turned(setup, name),
            deck=_cards(setup.get("deck", ())),
            dealer=setup.get("dealer"),
            steps=tuple(steps),
            rest_under=tuple(int(seat) for seat in setup.get("rest_under", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise ScenarioError(f"{name}: {exc!r}") from exc


def load_scenario(path: Path) -> Scenario:
    with path.open("rb") as fh:
        try:
            raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ScenarioError(f"{path.name}: {exc}") from exc
    return parse_scenario(raw, path.name)


def load_all(data_dir: Path = DATA_DIR) -> tuple[Scenario, ...]:
    """Every scenario, in walkthrough order."""
    scenarios = [load_scenario(p) for p in sorted(data_dir.glob("*.toml"))]
    return tuple(sorted(scenarios, key=lambda s: s.order))
