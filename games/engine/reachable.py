"""The invariants every table of a real game keeps, stated so any position can be checked.

A position shown as part of a game (a quiz question, a lesson sheet, a walkthrough, a
replay) must be one a game dealt from a whole deck can reach. Every such table keeps:

- the 52 cards of one deck, each exactly once (R2, R4), in the piles and the pot;
- a Snap Pot that is empty or was made by ties: a tie lays at least two matching piles
  (R9), and every later tie lays piles whose top matches (R9 D, R11), so the pot holds
  at least two cards and its top card's rank at least twice; with no tie window (the
  index card, R12) there is never a pot;
- counts and turn as the rules leave them: a game not over has at least two players
  with cards (R17), the player to play is one of them (R16), and play has moved on
  clockwise from the player who turned the last card (R6, R20 D); only a game where no
  card has been turned yet names no such player, and then no card is face up;
- an open race only while a call is valid (R8-R11).

>>> from games.engine import from_piles, full_deck
>>> deck = list(full_deck())
>>> table_problems(from_piles([deck[:26], deck[26:51]], pot=[deck[51]]))
['the Snap Pot holds one card: a tie lays at least two piles (R9)']
>>> problems = table_problems(from_piles([deck[:20], deck[20:40]], pot=["7C", "2C"]))
>>> [problem.split(":")[0] for problem in problems]
['the 52 cards are not each once in the game', 'the Snap Pot shows the 2C, whose rank is in it \
once only']
>>> rest = [c for c in deck if c.code not in ("KS", "QC", "KC")]
>>> table_problems(from_piles([rest[:25], rest[25:]], pot=["KS", "QC", "KC"]))
[]
"""

from __future__ import annotations

from collections import Counter

from .cards import full_deck
from .state import GameState

__all__ = ["table_problems"]

_DECK = frozenset(full_deck())


def table_problems(state: GameState) -> list[str]:
    """Every invariant of a reachable table that ``state`` breaks, one sentence each (in
    English, for tests and developers); empty when the table is one a game can reach."""
    return [
        *_deck_problems(state),
        *_pot_problems(state),
        *_turn_problems(state),
        *_race_problems(state),
    ]


def _deck_problems(state: GameState) -> list[str]:
    cards = state.all_cards()
    counted = Counter(cards)
    twice = sum(1 for n in counted.values() if n > 1)
    missing = len(_DECK - counted.keys())
    if len(cards) == 52 and not twice and not missing:
        return []
    return [
        f"the 52 cards are not each once in the game: {len(cards)} cards, {twice} twice, "
        f"{missing} missing (R2)"
    ]


def _pot_problems(state: GameState) -> list[str]:
    pot = state.pot
    if not pot:
        return []
    if state.options.effective_tie_window_ms == 0:
        return ["a table without ties (no tie window, R12) has a Snap Pot"]
    if len(pot) == 1:
        return ["the Snap Pot holds one card: a tie lays at least two piles (R9)"]
    top = pot[-1]
    if sum(1 for c in pot if c.rank == top.rank) < 2:
        return [
            f"the Snap Pot shows the {top.code}, whose rank is in it once only: a tie lays "
            "two matching cards (R9)"
        ]
    return []


def _turn_problems(state: GameState) -> list[str]:
    n = state.players
    having = [s for s in range(n) if not state.is_out(s)]
    problems = []
    if not state.over and len(having) < 2:
        problems.append("the game is not over, yet fewer than two players have cards (R17)")
    if state.over:
        return problems
    if state.is_out(state.to_play):
        problems.append(f"seat {state.to_play} is to play but has no cards (R16)")
    if state.last_turned is None:
        if state.pot or any(state.face_up):
            problems.append("no card has been turned, yet cards are face up (R7, R20 D)")
        return problems
    after = state.last_turned
    for i in range(1, n + 1):
        after = (state.last_turned + i) % n
        if not state.is_out(after):
            break
    if after != state.to_play:
        problems.append(
            f"seat {state.last_turned} turned the last card, so seat {after} plays next, "
            f"not seat {state.to_play} (R6, R20 D)"
        )
    return problems


def _race_problems(state: GameState) -> list[str]:
    if state.race is not None and not state.valid_calls().piles(state.race.kind):
        return [f"a race of {state.race.kind!r} is open with nothing to call (R8-R11)"]
    return []
