"""A blocked Snap Pot is told true in both of its cases (RULES R18 D), in real games and
in the quiz: while some rank has three cards outside the pot, a tie can still free it;
once none has, it can never be won again and its cards stay there. Which case holds is
counted here by hand, not asked of the engine."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import translation

from games.engine import BotLevel, Options, play_bot_game
from games.frames.recorded import told_step
from games.frames.steps import record_steps
from games.tables.live_text import pot_blocked_text, pot_stuck_text
from games.teach.quiz.questions import make_quiz
from games.teach.quiz.text import verdict
from tests.conftest import LANGUAGE_CODES

NAMES = ["Ana", "Ben", "Chen", "Dara"]
#: Games from the deal (players, seed) where a step blocks the pot: in the first, some
#: rank still has three cards outside it; in the second, none has.
STILL_WINNABLE = (3, 1)
NEVER_AGAIN = (4, 2)


def ranks_with_three_outside(state) -> list[int]:
    outside = Counter(c.rank for pile in (*state.face_down, *state.face_up) for c in pile)
    return [rank for rank, n in outside.items() if n >= 3]


def blocked(state) -> bool:
    top = state.pot[-1] if state.pot else None
    return top is not None and sum(1 for c in state.pot if c.rank == top.rank) == 4


def first_blocking_step(players: int, seed: int):
    """The first step of a game between computer players that blocks the Snap Pot."""
    record = play_bot_game(players, seed, BotLevel.STEADY, Options(turn_limit=400))[1]
    _, steps = record_steps(record)
    return next(s for s in steps if blocked(s.state) and not blocked(s.before))


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_a_real_game_that_blocks_a_pot_a_tie_can_free_tells_how(lang):
    step = first_blocking_step(*STILL_WINNABLE)
    assert ranks_with_three_outside(step.state)
    with translation.override(lang):
        texts, _ = told_step(step, NAMES)
        told = " ".join(texts)
        assert pot_blocked_text() in told and pot_stuck_text() not in told
    assert lang == "en" or pot_blocked_text() not in told  # told in the reader's language


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_a_real_game_that_blocks_a_pot_for_good_says_it_can_never_be_won_again(lang):
    step = first_blocking_step(*NEVER_AGAIN)
    assert ranks_with_three_outside(step.state) == []
    with translation.override(lang):
        texts, _ = told_step(step, NAMES)
        told = " ".join(texts)
        assert pot_stuck_text() in told and pot_blocked_text() not in told
    with translation.override("en"):
        assert "can never be won again" in pot_stuck_text()
    assert lang == "en" or "can never be won again" not in told


def test_the_quiz_says_not_yet_only_where_a_rank_has_three_cards_outside_the_pot():
    asked = 0
    for seed in range(1, 400):
        for q in make_quiz(seed):
            if q.kind != "pot_win" or q.answer != "after_tie":
                continue
            asked += 1
            assert blocked(q.state) and ranks_with_three_outside(q.state)
            with translation.override("en"):
                said = verdict(q, NAMES)
            assert "some rank still has three cards outside the Snap Pot" in said
            assert "all the matching piles" in said and "the two matching piles" not in said
    assert asked > 50
