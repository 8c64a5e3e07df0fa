"""What a step tells about the Snap Pot (R18 D) is true on the step that ends the game
too: a finished game is told no future for its pot."""

from games.engine import CallSnap, CloseRace, Options, TurnCard, apply, from_piles
from games.engine.pot import AFTER_TIE, pot_news


def play(state, *actions):
    for action in actions:
        state = apply(state, action).state
    return state


def tie_of_tens(turn_limit):
    """Ana, Ben and Chen; Ana and Ben tie twice on tens, so all four tens go into the
    pot; threes stay outside (three of them: a tie and a match could still free it)."""
    state = from_piles(
        [["3S", "3H", "2S", "10C", "10H"], ["3D", "2H", "10S"], ["4C", "2D", "10D"]],
        options=Options(turn_limit=turn_limit),
    )
    state = play(state, TurnCard(0, 0), TurnCard(1, 100), CallSnap(0, 200), CallSnap(1, 210))
    state = play(state, CloseRace(state.race.closes_at_ms))
    state = play(state, TurnCard(2, 2000), TurnCard(0, 2100))
    return state


def test_a_pot_blocked_mid_game_is_told_a_tie_can_still_free_it():
    before = tie_of_tens(turn_limit=None)
    during = play(before, CallSnap(0, 2200), CallSnap(2, 2210))
    after = play(during, CloseRace(during.race.closes_at_ms))
    assert not after.over and after.pot_blocked
    assert pot_news(before, after) == AFTER_TIE


def test_a_pot_blocked_on_the_step_that_ends_the_game_is_told_nothing_more():
    before = tie_of_tens(turn_limit=4)  # the fourth card turned: the last race ends it
    during = play(before, CallSnap(0, 2200), CallSnap(2, 2210))
    after = play(during, CloseRace(during.race.closes_at_ms))
    assert after.over and after.pot_blocked
    assert pot_news(before, after) is None
