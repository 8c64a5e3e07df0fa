"""What it would take to win the Snap Pot (R10, R18 D), worked out from a position.

A pot whose top rank is all inside it is *blocked*: no card can match its top now. A
later tie lays new piles on it (R9 D) and gives it a new top, and a card matching that
top wins the whole pot (R10). A tie and then a match take three cards of one rank
outside the pot, so a blocked pot may still be won only while some rank has three cards
outside it (and the table has ties at all, R12). Once none has, any tie would block it
again: it can never be won again, and its cards stay there until the game ends.

>>> from games.engine import from_piles
>>> pot_outlook(from_piles([["7D", "2S"], ["3S"]], pot=["7S", "7H"]))
'match'
>>> pot_outlook(from_piles([["2D", "2S"], ["2H", "3H"]], pot=["7S", "7H", "7D", "7C"]))
'after_tie'
>>> pot_outlook(from_piles([["2D", "2S"], ["3S", "3H"]], pot=["7S", "7H", "7D", "7C"]))
'never'
"""

from __future__ import annotations

from collections import Counter

from .state import GameState

#: No Snap Pot on the table.
NO_POT = "no_pot"
#: A card of the pot's top rank is still outside the pot: turning it lets the first
#: "Snap Pot!" win the pot (R10).
MATCH = "match"
#: Blocked (R18 D), but some rank still has three cards outside the pot: a tie on two
#: of them gives the pot a new top, and the third can then win it.
AFTER_TIE = "after_tie"
#: Blocked, and no rank has three cards outside the pot (or the table has no ties,
#: R12): it can never be won again; its cards stay there until the game ends.
NEVER = "never"
#: Cards of one rank outside the pot that a blocked pot needs: two to tie, one to match.
CARDS_TO_FREE_A_BLOCKED_POT = 3


def cards_of_top_rank_outside(state: GameState) -> int:
    """How many cards of the pot's top rank are not in the pot (0 to 3)."""
    top = state.pot_top
    if top is None:
        return 0
    return 4 - sum(1 for c in state.pot if c.rank == top.rank)


def ranks_that_can_free_it(state: GameState) -> tuple[int, ...]:
    """The ranks with at least three cards outside the pot, when the table has ties
    (not the index card, R12): a tie on two of them and a match on the third could still
    win a blocked pot. Empty when no tie can ever free it."""
    if state.options.effective_tie_window_ms == 0:
        return ()
    outside = Counter(c.rank for pile in state.face_down + state.face_up for c in pile)
    return tuple(sorted(rank for rank, n in outside.items() if n >= CARDS_TO_FREE_A_BLOCKED_POT))


def pot_outlook(state: GameState) -> str:
    """``NO_POT``, ``MATCH``, ``AFTER_TIE`` or ``NEVER`` for ``state``'s Snap Pot."""
    if not state.pot:
        return NO_POT
    if not state.pot_blocked:
        return MATCH
    return AFTER_TIE if ranks_that_can_free_it(state) else NEVER


def pot_news(before: GameState, after: GameState) -> str | None:
    """What a step from ``before`` to ``after`` makes worth telling about the pot, told
    once, when it happens: ``AFTER_TIE`` or ``NEVER`` when the step blocked the pot (it
    was not blocked, or showed another top rank, before), or when a blocked pot could
    still be won before and never can now; else None. Nothing on the step that ends the
    game: no tie can come any more, and the end of the game is told instead.

    >>> from games.engine import from_piles
    >>> blocked = from_piles([["2D", "2S"], ["2H", "3H"]], pot=["7S", "7H", "7D", "7C"])
    >>> open_pot = from_piles([["2D", "2S"], ["2H", "3H"]], pot=["7S", "7H"])
    >>> pot_news(open_pot, blocked), pot_news(blocked, blocked), pot_news(blocked, open_pot)
    ('after_tie', None, None)
    """
    if after.over:
        return None
    now = pot_outlook(after)
    if now not in (AFTER_TIE, NEVER):
        return None
    was = pot_outlook(before)
    if was != now or before.pot_top.rank != after.pot_top.rank:
        return now
    return None
