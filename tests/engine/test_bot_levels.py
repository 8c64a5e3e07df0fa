"""Computer players' levels: a beginner errs now and then (its mistakes should teach,
not fill the log), and each level is told by what it does."""

from __future__ import annotations

from games.engine import BotLevel, Options, replay
from games.engine.bots import play_bot_game
from games.engine.events import CardTurned, WrongCall


def wrong_calls_and_cards(level: BotLevel, games: int = 12) -> tuple[int, int]:
    """Seat 0 plays at ``level`` against two steady players, ``games`` seeded games of
    up to 150 cards: (its wrong calls, the cards turned at the table)."""
    wrong = cards = 0
    for seed in range(games):
        levels = [level, BotLevel.STEADY, BotLevel.STEADY]
        _state, record = play_bot_game(3, seed, levels, Options(turn_limit=150))
        for step in replay(record):
            for event in step.events:
                cards += isinstance(event, CardTurned)
                wrong += isinstance(event, WrongCall) and event.seat == 0
    return wrong, cards


def test_a_beginner_calls_wrongly_now_and_then_not_every_few_cards():
    wrong, cards = wrong_calls_and_cards(BotLevel.BEGINNER)
    assert wrong >= 3  # it does err, so a child sees what a wrong call costs
    assert cards / wrong >= 50  # one in 50 cards or fewer (a minute or more of play)


def test_the_levels_err_less_as_they_go_up():
    """From Beginner up; Gentle, made for a young child to beat by being slow, rarely
    calls wrongly (a wrong call gives the child cards for nothing they did)."""
    levels = [level for level in BotLevel if level is not BotLevel.GENTLE]
    counts = [wrong_calls_and_cards(level, games=30) for level in levels]
    rates = [wrong / cards for wrong, cards in counts]
    assert rates == sorted(rates, reverse=True) and rates[0] > rates[-1]
    gentle_wrong, gentle_cards = wrong_calls_and_cards(BotLevel.GENTLE, games=30)
    assert gentle_wrong / gentle_cards <= rates[0]
