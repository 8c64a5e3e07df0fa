"""Play a scenario on the engine, checking every step's expected events.

Each step starts one second after the previous one (``STEP_MS``); its
actions happen at the step's start plus their offset, and ``close`` closes
the open race at the moment its tie window ends. For every position the
learner sees, the runner also plays what each of the learner's buttons
would do there (the *branches*), so the walkthrough page can answer any
press with the engine's own result, never a result made up in the browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import (
    Card,
    CloseRace,
    GameState,
    apply,
    deal,
    from_piles,
    full_deck,
)
from games.words.press_outcomes import PressOutcome, classify

from .model import LEARNER_PRESSES, Scenario, ScenarioError, ScenarioStep, press_action

STEP_MS = 1000


@dataclass(frozen=True, slots=True)
class Branch:
    """What one press of the learner does in a position (played on the engine), and
    what kind of move that was (:mod:`games.words.press_outcomes`)."""

    press: str
    events: tuple
    state: GameState
    outcome: PressOutcome

    @property
    def clause(self) -> str | None:
        """For a wrong call, the rule that sent the penalty card where it went."""
        return self.outcome.penalty_clause


@dataclass(frozen=True, slots=True)
class PlayedStep:
    index: int
    step: ScenarioStep
    state: GameState  # after the step
    events: tuple
    branches: dict[str, Branch] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayedScenario:
    scenario: Scenario
    start: GameState
    steps: tuple[PlayedStep, ...]


def with_the_rest(scenario: Scenario) -> list[list[Card]]:
    """The setup's face-down piles, with the cards of the deck it does not name laid at
    the bottom of the ``rest_under`` seats' piles, one at a time in turn (in the deck's
    order: face down, nobody sees them before the walkthrough ends)."""
    piles = [[Card.parse(c) for c in p] for p in scenario.face_down]
    if not scenario.rest_under:
        return piles
    for seat in scenario.rest_under:
        if not 0 <= seat < len(piles):
            raise ValueError(f"rest_under names seat {seat}, not at this table")
    named = {Card.parse(c) for p in (*scenario.face_down, *scenario.face_up) for c in p}
    named |= {Card.parse(c) for c in scenario.pot}
    rest = [c for c in full_deck() if c not in named]
    under: list[list[Card]] = [[] for _ in piles]
    for i, card in enumerate(rest):
        under[scenario.rest_under[i % len(scenario.rest_under)]].append(card)
    return [below + pile for below, pile in zip(under, piles, strict=True)]


def start_state(scenario: Scenario) -> GameState:
    if scenario.deck:
        deck = [Card.parse(c) for c in scenario.deck]
        return deal(scenario.players, deck, scenario.dealer or 0, scenario.options)
    return from_piles(
        with_the_rest(scenario),
        [list(p) for p in scenario.face_up] if scenario.face_up else None,
        list(scenario.pot),
        scenario.to_play,
        scenario.options,
        last_turned=scenario.last_turned,
    )


def _apply_all(state: GameState, actions) -> tuple[GameState, list]:
    events: list = []
    for make in actions:
        step = apply(state, make(state))
        state = step.state
        events.extend(step.events)
    return state, events


def play_branch(
    state: GameState,
    seat: int,
    press: str,
    at_ms: int,
    *,
    following: tuple | None = None,
    example_ends: bool = False,
) -> Branch:
    """The engine's answer to one press, with the race closed if it opened one.

    ``following`` (the example's next step's events) and ``example_ends`` let the
    verdict say how a right move relates to the example (see ``classify``).
    """
    step = apply(state, press_action(press, seat, at_ms, state.seq))
    events = list(step.events)
    after = step.state
    if after.race is not None:
        closing = apply(after, CloseRace(after.race.closes_at_ms))
        after = closing.state
        events.extend(closing.events)
    outcome = classify(state, seat, events, after, following=following, example_ends=example_ends)
    return Branch(press=press, events=tuple(events), state=after, outcome=outcome)


def play_scenario(scenario: Scenario) -> PlayedScenario:
    """Play every step; raise ScenarioError where the engine disagrees with the file."""
    try:
        state = start_state(scenario)
    except ValueError as exc:
        raise ScenarioError(f"{scenario.slug}: bad setup: {exc}") from exc
    start = state
    played: list[PlayedStep] = []
    for index, step in enumerate(scenario.steps, start=1):
        begin = index * STEP_MS
        seen = state.seq  # every call in a step is made looking at the step's start
        actions = []
        if step.learner:
            press = step.learner
            actions.append(
                lambda s, p=press, t=begin, n=seen: press_action(p, scenario.learner, t, n)
            )
        for scripted in step.actions:
            at = begin + scripted.offset_ms

            def make(s, scripted=scripted, at=at, seen=seen):
                closes = s.race.closes_at_ms if s.race else None
                return scripted.to_engine(at, closes, seen)

            actions.append(make)
        state, events = _apply_all(state, actions)
        codes = [e.code for e in events]
        if "rejected" in codes:
            raise ScenarioError(f"{scenario.slug}: step {index}: engine rejected: {events}")
        if len(events) != len(step.expect) or not all(
            exp.matches(ev) for exp, ev in zip(step.expect, events, strict=False)
        ):
            wanted = [str(e) for e in step.expect]
            raise ScenarioError(
                f"{scenario.slug}: step {index}: expected {wanted}, engine said {events}"
            )
        played.append(PlayedStep(index=index, step=step, state=state, events=tuple(events)))

    # Branches: from each position, every press except the one the script expects next.
    with_branches = []
    for i, p in enumerate(played):
        following = played[i + 1] if i + 1 < len(played) else None
        at = (p.index + 1) * STEP_MS
        branches = {
            press: play_branch(
                p.state,
                scenario.learner,
                press,
                at,
                following=following.events if following else None,
                example_ends=following is None,
            )
            for press in LEARNER_PRESSES
            if not (following and press == following.step.learner) and not p.state.over
        }
        with_branches.append(
            PlayedStep(p.index, p.step, p.state, p.events, branches)
        )  # fmt: skip
    return PlayedScenario(scenario=scenario, start=start, steps=tuple(with_branches))
