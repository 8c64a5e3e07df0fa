"""Every table the site shows as a position of a game is one a real game can reach: the
quiz's questions (the position asked about and the one before its card was turned), the
games drawn on lesson sheets and replayed as lessons (every step, and the engine's answer
to every press a learner could make), and the walkthroughs' frames. Checked with the
engine's own statement of what every real game keeps (``table_problems``), itself checked
on thousands of positions of games played from the deal."""

from __future__ import annotations

import pytest

from games.engine import BotLevel, Options, from_piles, full_deck, play_bot_game
from games.engine.reachable import table_problems
from games.frames.steps import lesson_positions, record_steps
from games.scenarios.runner import play_scenario
from games.scenarios.store import load_all
from games.teach.quiz.questions import make_quiz

QUIZ_SEEDS = range(1, 1501)
GAME_SEEDS = range(80)
LESSON_SEEDS = range(12)


def problems_of(states) -> list[tuple[str, list[str]]]:
    return [(where, found) for where, state in states if (found := table_problems(state))]


def game(seed: int):
    """A game of 2 to 6 computer players from the deal, ended by a turn limit."""
    levels = [BotLevel.STEADY, BotLevel.QUICK, BotLevel.BEGINNER][seed % 3]
    return play_bot_game(2 + seed % 5, seed, levels, Options(turn_limit=500))[1]


def test_the_engine_names_a_snap_pot_no_tie_could_have_made():
    deck = list(full_deck())
    one_card = from_piles([deck[:26], deck[26:51]], pot=[deck[51]])
    rest = [c for c in deck if c.code not in ("7S", "2H")]
    top_once = from_piles([rest[:25], rest[25:]], pot=["7S", "2H"])
    rest = [c for c in deck if c.code not in ("7S", "2H", "7H")]
    tied = from_piles([rest[:25], rest[25:]], pot=["7S", "2H", "7H"])
    assert table_problems(one_card) == [
        "the Snap Pot holds one card: a tie lays at least two piles (R9)"
    ]
    assert [p[:30] for p in table_problems(top_once)] == ["the Snap Pot shows the 2H, who"]
    assert table_problems(tied) == []


def test_the_engine_names_a_table_of_missing_cards_and_a_turn_out_of_order():
    deck = list(full_deck())
    assert table_problems(from_piles([deck[:10], deck[10:20]]))[0].startswith(
        "the 52 cards are not each once in the game: 20 cards"
    )
    state = from_piles([deck[:20], deck[20:40], deck[40:]], to_play=1)
    assert table_problems(state) == []
    assert table_problems(state.__class__(**{**_fields(state), "to_play": 2})) == [
        "seat 0 turned the last card, so seat 1 plays next, not seat 2 (R6, R20 D)"
    ]


def _fields(state) -> dict:
    return {name: getattr(state, name) for name in state.__dataclass_fields__}


def test_every_position_of_real_games_keeps_the_invariants():
    checked = 0
    for seed in GAME_SEEDS:
        start, steps = record_steps(game(seed))
        states = [(f"game {seed} start", start)]
        states += [(f"game {seed} step {s.number}", s.state) for s in steps]
        assert problems_of(states) == []
        checked += len(states)
    assert checked > 15_000


def test_no_quiz_question_shows_a_table_no_game_can_reach():
    shown = []
    for seed in QUIZ_SEEDS:
        for number, q in enumerate(make_quiz(seed), start=1):
            shown.append((f"seed {seed} question {number}", q.state))
            shown.append((f"seed {seed} question {number}, before the turn", q.before))
    assert problems_of(shown) == []
    assert sum(1 for _, state in shown if state.pot) > 1500  # pots are asked about


def test_seed_10_question_8_no_longer_shows_a_snap_pot_of_one_card():
    q = make_quiz(10)[7]
    assert len(q.state.pot) != 1 and table_problems(q.state) == []


def test_games_as_lessons_show_only_reachable_tables_at_every_press():
    for seed in LESSON_SEEDS:
        start, steps = record_steps(game(seed))
        learner = seed % start.players
        shown = []
        for i, position in enumerate(lesson_positions(start, steps, learner)):
            shown.append((f"lesson {seed} position {i}", position.state))
            shown += [
                (f"lesson {seed} position {i} press {press}", branch.state)
                for press, branch in position.branches.items()
            ]
        assert problems_of(shown) == []


@pytest.mark.parametrize("scenario", load_all(), ids=lambda s: s.slug)
def test_walkthrough_frames_show_only_reachable_tables(scenario):
    played = play_scenario(scenario)
    shown = [("start", played.start)]
    for step in played.steps:
        shown.append((f"step {step.index}", step.state))
        shown += [
            (f"step {step.index} press {press}", branch.state)
            for press, branch in step.branches.items()
        ]
    assert problems_of(shown) == []
