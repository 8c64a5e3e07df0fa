"""What it would take to win the Snap Pot (R10, R18 D), worked out from a position.

A pot whose top rank is all inside it is *blocked*, not lost: a later tie lays new
piles on it (R9 D) and gives it a new top, and a card matching that top wins the whole
pot (R10). Only a table where no tie can ever happen again leaves it with no way to be
won; "stuck" is said only of the cards still in it when the game ends.

>>> from games.engine import from_piles
>>> pot_outlook(from_piles([["7D", "2S"], ["3S"]], pot=["7S"]))
'match'
>>> pot_outlook(from_piles([["2D", "2S"], ["3S", "3H"]], pot=["7S", "7H", "7D", "7C"]))
'after_tie'
"""

from __future__ import annotations

from collections import Counter

from .state import GameState

#: No Snap Pot on the table.
NO_POT = "no_pot"
#: A card of the pot's top rank is still outside the pot: turning it lets the first
#: "Snap Pot!" win the pot (R10).
MATCH = "match"
#: Blocked (R18 D): first a tie must lay new piles on the pot and give it a new top.
AFTER_TIE = "after_tie"
#: Blocked, and no tie can happen any more: no tie window (R12), or no two cards
#: outside the pot share a rank, so nothing can ever match again.
NEVER = "never"


def cards_of_top_rank_outside(state: GameState) -> int:
    """How many cards of the pot's top rank are not in the pot (0 to 3)."""
    top = state.pot_top
    if top is None:
        return 0
    return 4 - sum(1 for c in state.pot if c.rank == top.rank)


def a_tie_can_still_happen(state: GameState) -> bool:
    """Whether a tie is still possible: the table has a tie window (not the index card,
    R12) and two cards outside the pot share a rank, so two piles can match (R8, R9)."""
    if state.options.effective_tie_window_ms == 0:
        return False
    ranks = Counter(c.rank for pile in state.face_down + state.face_up for c in pile)
    return any(n >= 2 for n in ranks.values())


def pot_outlook(state: GameState) -> str:
    """``NO_POT``, ``MATCH``, ``AFTER_TIE`` or ``NEVER`` for ``state``'s Snap Pot."""
    if not state.pot:
        return NO_POT
    if not state.pot_blocked:
        return MATCH
    return AFTER_TIE if a_tie_can_still_happen(state) else NEVER
