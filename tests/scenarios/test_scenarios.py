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


#: Steps whose link used to name only the walkthrough's theme, and the clause that
#: decides what each one shows (none for a start frame that tells no rule).
DECIDING_CLAUSES = {
    ("snap-by-anyone", "snap_anyone.start"): (),
    ("wrong-call", "wrong_call.start"): (),
    ("wrong-call-own-turn", "own_turn.start"): (),
    ("wrong-call-own-turn", "own_turn.your_turn"): ("R7", "R14"),  # under your pile (R14 D)
    ("tie", "tie.start"): (),
    ("snap-pot", "snap_pot.start"): ("R9",),  # the earlier tie that made the pot
    ("snap-pot-tie", "pot_tie.start"): (),
    ("snap-pot-tie", "pot_tie.next"): ("R9",),  # play goes on where it stopped
    ("running-out", "running_out.start"): (),
    ("running-out", "running_out.after_out"): ("R8",),  # the player after the turner
    ("index-card", "index_card.goes_on"): ("R7",),  # an ordinary turn
}


@pytest.mark.parametrize(("slug", "say"), DECIDING_CLAUSES, ids="/".join)
def test_a_step_links_the_clause_that_decides_what_it_shows_or_none(slug, say):
    step = next(s for s in by_slug(slug).steps if s.say == say)
    assert step.clauses == DECIDING_CLAUSES[slug, say]


def test_a_start_frame_without_a_told_rule_links_no_clause():
    told = {"first-turns", "snap-pot", "index-card", "three-piles", "stuck-pot"}
    for scenario in SCENARIOS:
        first = scenario.steps[0]
        assert not first.expect
        assert bool(first.clauses) == (scenario.slug in told), scenario.slug


def test_the_stuck_pot_walkthrough_ends_with_cards_left_in_the_pot():
    played = play_scenario(by_slug("stuck-pot"))
    final = played.steps[-1].state
    assert final.over and final.winner == 0
    assert final.end_reason == "stuck_pot"
    assert len(final.pot) == 2


def test_a_wrong_call_before_the_first_move_pays_the_player_who_turned_last():
    scenario = by_slug("wrong-call")
    assert scenario.last_turned == 2
    played = play_scenario(scenario)
    assert played.start.last_turned == 2 and played.start.to_play == 0
    branch = played.steps[0].branches["snap"]  # the learner (seat 1) calls at once
    assert [e.code for e in branch.events] == ["wrong_call"]
    assert branch.events[0].penalty_to == 2  # Chloe has just played (R13, R20)
    assert branch.clause == "R13"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.slug)
def test_every_position_set_up_mid_game_says_who_turned_last(scenario):
    played = play_scenario(scenario)
    if scenario.deck:
        assert scenario.last_turned is None and played.start.last_turned is None
    else:
        assert scenario.last_turned is not None
        assert played.start.last_turned == scenario.last_turned


def _raw(**setup):
    return {
        "slug": "x",
        "order": 99,
        "clauses": ["R13"],
        "players": 3,
        "learner": 1,
        "setup": {"face_down": [["2S"], ["3S"], ["4S"]], "to_play": 0, **setup},
        "step": [{"say": "wrong_call.start"}],
    }


def test_last_turned_in_a_scenario_file_reaches_the_engine():
    from games.scenarios.runner import start_state
    from games.scenarios.store import parse_scenario

    assert start_state(parse_scenario(_raw())).last_turned == 2  # the engine's default
    assert parse_scenario(_raw(last_turned=2)).last_turned == 2


@pytest.mark.parametrize(
    "setup, message",
    [
        ({"last_turned": "2"}, "last_turned must be a seat number"),
        ({"last_turned": 1.0}, "last_turned must be a seat number"),
        ({"last_turned": 1, "deck": "AS"}, "a dealt game has no last_turned"),
    ],
)
def test_a_bad_last_turned_in_a_scenario_file_is_refused(setup, message):
    from games.scenarios.store import parse_scenario

    with pytest.raises(ScenarioError, match=message):
        parse_scenario(_raw(**setup))


@pytest.mark.parametrize("seat", [3, 1])
def test_a_last_turned_the_engine_refuses_is_a_bad_setup(seat):
    from games.scenarios.store import parse_scenario

    with pytest.raises(ScenarioError, match="bad setup: last_turned"):
        play_scenario(parse_scenario(_raw(last_turned=seat)))
