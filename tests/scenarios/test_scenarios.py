"""Every walkthrough is played on the engine and must match its file."""

import dataclasses

import pytest

from games.scenarios import ScenarioError, load_all, play_scenario
from games.scenarios.model import Expectation

SCENARIOS = load_all()
REQUIRED = {
    "first-turns": {"R4", "R5", "R6", "R7"},
    "snap-by-anyone": {"R8"},
    "wrong-call": {"R13"},
    "wrong-call-own-turn": {"R14"},
    "tie": {"R9"},
    "snap-pot": {"R10"},
    "snap-pot-tie": {"R11"},
    "running-out": {"R15", "R16"},
    "index-card": {"R12"},
    "three-piles": {"R8"},
    "stuck-pot": {"R18"},
}


def by_slug(slug):
    return next(s for s in SCENARIOS if s.slug == slug)


def test_the_eleven_walkthroughs_exist_and_show_their_clauses():
    assert {s.slug: set(s.clauses) for s in SCENARIOS} == REQUIRED


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.slug)
def test_scenario_plays_on_the_engine_exactly_as_written(scenario):
    played = play_scenario(scenario)
    assert len(played.steps) == len(scenario.steps)
    for step in played.steps:
        assert [e.code for e in step.events] == [x.code for x in step.step.expect]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.slug)
def test_every_walkthrough_asks_the_learner_to_act(scenario):
    assert scenario.interactive_steps >= 1


def test_a_scenario_that_disagrees_with_the_engine_fails():
    scenario = by_slug("snap-by-anyone")
    steps = list(scenario.steps)
    steps[2] = dataclasses.replace(
        steps[2], expect=(Expectation.parse("race_opened"), Expectation.parse("piles_won winner=0"))
    )
    broken = dataclasses.replace(scenario, steps=tuple(steps))
    with pytest.raises(ScenarioError, match="step 3"):
        play_scenario(broken)


def test_a_wrong_press_is_answered_by_the_engine_with_the_penalty_rule():
    played = play_scenario(by_slug("snap-by-anyone"))
    # At the match, "Snap Pot!" is the wrong word (no pot): R13, someone else just played.
    branch = played.steps[1].branches["snap_pot"]
    assert [e.code for e in branch.events] == ["wrong_call"]
    assert branch.events[0].penalty_to == 1
    assert branch.clause == "R13"
    assert "snap" not in played.steps[1].branches  # that press is the scripted path


def test_a_wrong_call_on_the_learners_own_turn_cites_r14():
    played = play_scenario(by_slug("first-turns"))
    branch = played.steps[2].branches["snap"]  # the learner has just turned a card
    assert branch.events[0].code == "wrong_call"
    assert branch.events[0].penalty_to == 0  # the player on the learner's right
    assert branch.clause == "R14"


def test_the_stuck_pot_walkthrough_ends_with_cards_left_in_the_pot():
    played = play_scenario(by_slug("stuck-pot"))
    final = played.steps[-1].state
    assert final.over and final.winner == 0
    assert final.end_reason == "stuck_pot"
    assert len(final.pot) == 2
