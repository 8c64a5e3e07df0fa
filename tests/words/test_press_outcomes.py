"""The press classifier reads what the engine did, including cases the walkthroughs
never reach (a late call, a tie, a pot won with several piles, no card to pay)."""

import pytest
from django.utils import translation

from games.engine import (
    CallSnap,
    CallSnapPot,
    CloseRace,
    Options,
    TurnCard,
    deal,
    from_piles,
    full_deck,
)
from games.frames.narration import note_text
from games.scenarios.runner import play_branch
from games.words.press_outcomes import TRY_AGAIN, classify
from games.words.texts import event_text, isolate
from tests.engine.helpers import play

NAMES = ["Ben", "נועה", "கவின்", "Sam Kim"]


def test_a_call_on_a_race_already_over_is_too_late_without_penalty():
    # Seat 1 turned the 9D onto seat 0's 9C: seat 2 calls first, seat 0 calls after the
    # race closed, having seen only the match.
    start = from_piles(
        [["2S"], ["3S"], ["4S", "5S"]], [["9C"], ["9D"], []], to_play=2, last_turned=1
    )
    seen = start.seq
    won, _ = play(start, CallSnap(2, 100, seen), CloseRace(250))
    after, events = play(won, CallSnap(0, 300, seen))
    verdict = classify(won, 0, events, after)
    assert [e.code for e in events] == ["too_late"]
    assert verdict.outcome == "too_late" and verdict.clauses == ("R9",)
    assert TRY_AGAIN not in verdict.keys
    with translation.override("en"):
        assert "no penalty" in note_text(verdict.sentences, NAMES)


def test_a_right_call_that_ties_is_right_and_says_nobody_wins_the_piles():
    start = from_piles([["2S"], ["3S"], ["4S"]], [["9C"], ["9D"], ["KS"]], to_play=2, last_turned=1)
    after, events = play(start, CallSnap(2, 100), CallSnap(0, 160), CloseRace(250))
    verdict = classify(start, 2, events, after)
    assert verdict.outcome == "right" and verdict.keys == ("right.tie",)
    assert verdict.clauses == ("R9",)
    with translation.override("en"):
        note = note_text(verdict.sentences, NAMES)
    assert isolate("கவின்") in note and "Nobody wins the piles" in note


def test_winning_the_pot_with_two_matching_piles_says_every_pile_and_the_card_count():
    start = from_piles(
        [["2S"], ["3S"], ["4S"]],
        [["8C"], ["8D"], ["KS"]],
        pot=["5H", "8H"],
        to_play=2,
        last_turned=1,
    )
    branch = play_branch(start, 2, "snap_pot", 100)
    won = branch.events[-1]
    assert won.code == "piles_won" and won.with_pot and len(won.piles) == 2
    assert branch.outcome.outcome == "right" and branch.outcome.clauses == ("R10",)
    with translation.override("en"):
        note = note_text(branch.outcome.sentences, NAMES)
        told = event_text(won, NAMES)
    assert f"{won.cards} cards in all" in note and isolate("கவின்") in note
    assert "every pile that matches it" in told


def test_a_wrong_call_with_no_card_to_give_says_so_and_names_no_receiver():
    options = Options(penalty_from_face_up_when_empty=False)
    start = from_piles([["2S"], [], ["4S"]], [["9C"], ["5D"], ["KS"]], options=options)
    branch = play_branch(start, 1, "snap", 100)
    assert branch.events[0].code == "wrong_call" and not branch.events[0].paid
    assert branch.outcome.outcome == "mistake"
    assert "penalty.none" in branch.outcome.keys and TRY_AGAIN in branch.outcome.keys


def test_a_wrong_call_before_anyone_has_turned_goes_to_the_right_under_r14():
    start = deal(3, full_deck(), dealer=2)  # seat 0 plays first; nobody has turned yet
    branch = play_branch(start, 1, "snap", 100)
    assert branch.events[0].penalty_to == 0
    assert branch.outcome.keys == ("mistake.nobody_turned", "penalty.to_right", TRY_AGAIN)
    assert branch.outcome.clauses == ("R14",) and branch.clause == "R14"


def test_a_wrong_call_on_your_own_turn_skips_the_right_hand_neighbour_who_is_out():
    # Seat 2 has just turned; seat 1, on its right, has no cards (R14 D): seat 0 gets it.
    start = from_piles([["2S"], [], ["4S"]], [["9C"], [], ["KS"]], to_play=0, last_turned=2)
    branch = play_branch(start, 2, "snap", 100)
    assert branch.events[0].penalty_to == 0
    assert branch.outcome.keys == ("mistake.no_match", "penalty.own_turn_skipping", TRY_AGAIN)
    assert branch.clause == "R14"
    with translation.override("en"):
        note = note_text(branch.outcome.sentences, NAMES)
    assert f"goes to {isolate('Ben')}: the nearest player on your right who still has" in note
    assert isolate("נועה") not in note


def test_turning_with_an_empty_face_down_pile_tells_the_pile_was_turned_over():
    start = from_piles([[], ["3S"]], [["2C", "JD"], ["5H"]], to_play=0)
    branch = play_branch(start, 0, "turn", 100)
    assert branch.outcome.outcome == "right"
    assert branch.outcome.keys[0] == "right.turned_pile_over"
    assert branch.outcome.clauses[0] == "R15"


def test_turning_over_your_own_matching_pile_says_the_match_is_covered():
    start = from_piles([["2S", "KH"], ["3S"]], [["9C"], ["9D"]], to_play=0)
    branch = play_branch(start, 0, "turn", 100)
    assert branch.outcome.keys == ("right.turned", "match.covered")
    assert "R8" in branch.outcome.clauses


def test_turning_while_someone_has_called_is_refused_with_the_reason():
    start = from_piles([["2S"], ["3S"], ["4S"]], [["9C"], ["9D"], ["KS"]], to_play=2, last_turned=1)
    racing, _ = play(start, CallSnapPot(2, 100), CallSnap(0, 100))
    assert racing.race is not None
    after, events = play(racing, TurnCard(2, 120))
    verdict = classify(racing, 2, events, after)
    assert verdict.outcome == "refused" and verdict.keys == ("refused.race_open",)
    assert after is racing


def test_a_press_the_events_do_not_explain_is_an_error_not_a_guess():
    start = from_piles([["2S"], ["3S"]], [["9C"], ["9D"]])
    with pytest.raises(ValueError, match="cannot tell"):
        classify(start, 0, [], start)
