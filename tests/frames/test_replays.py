"""A recorded game as a lesson (games/frames/steps.py): the presses a walkthrough never
meets (joining another player's call, a turn after the turn limit's last card) are
classified from the engine's events, and a lesson asks only for the learner's right
moves."""

from django.utils import translation

from games.engine import CallSnap, Options, TurnCard, from_piles, play_bot_game
from games.engine.events import WrongCall
from games.frames.narration import note_text
from games.frames.steps import learner_press, lesson_positions, record_steps
from games.scenarios.runner import play_branch
from games.words.press_outcomes import RIGHT
from games.words.texts import isolate
from tests.engine.helpers import play

NAMES = ["Ben", "נועה", "கவின்"]


def test_a_call_joining_an_open_race_is_right_and_ties():
    # Seat 1 turned the 9D onto seat 0's 9C; seat 2 has called; the learner (seat 0)
    # calls while the race is still open.
    start = from_piles(
        [["2S"], ["3S"], ["4S", "5S"]], [["9C"], ["9D"], []], to_play=2, last_turned=1
    )
    raced, _ = play(start, CallSnap(2, 100, start.seq))
    branch = play_branch(raced, 0, "snap", raced.clock_ms)
    assert [e.code for e in branch.events] == ["call_joined", "tie_to_pot"]
    assert branch.outcome.outcome == RIGHT and branch.outcome.clauses == ("R9",)
    assert branch.outcome.keys == ("right.tie",)


def test_a_turn_after_the_turn_limits_last_card_ends_the_game_and_says_so():
    # The limit is one card: seat 0 turns it, making a match nobody calls; seat 1's turn
    # then ends the game (R19 D).
    start = from_piles(
        [["2S", "9D"], ["3S"], ["4S"]], [[], ["9C"], []], options=Options(turn_limit=1)
    )
    limit, _ = play(start, TurnCard(0, 10))
    assert limit.turns == 1 and limit.valid_now and not limit.over
    branch = play_branch(limit, 1, "turn", limit.clock_ms)
    assert [e.code for e in branch.events] == ["game_over"]
    assert branch.outcome.outcome == RIGHT and branch.outcome.clauses == ("R19",)
    with translation.override("en"):
        note = note_text(branch.outcome.sentences, NAMES)
    assert note.startswith(f"It is your turn, {isolate('נועה')}, but the turn limit")


def test_a_lesson_asks_for_the_learners_right_moves_only():
    _end, record = play_bot_game(3, 7)
    start, steps = record_steps(record)
    assert len(steps) == len(record.actions) and steps[-1].state.over
    for learner in range(3):
        positions = lesson_positions(start, steps, learner)
        assert len(positions) == len(steps) + 1
        for position, step in zip(positions, steps, strict=False):
            press = learner_press(step.action, learner)
            wrong = any(isinstance(e, WrongCall) for e in step.events)
            if position.expects:
                assert position.expects == press and not wrong
            elif press and not wrong:  # a late call, or one refused: shown, not asked for
                assert [e.code for e in step.events][-1] in ("too_late", "rejected")
            presses = {"turn", "snap", "snap_pot"} - {position.expects}
            assert set(position.branches) == presses
        assert positions[-1].branches == {}
