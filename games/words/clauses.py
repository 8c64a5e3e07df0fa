"""The rules (clause ids of RULES.md) that an engine event shows, for live tables and
replays: a page links each told event to its rule ("R13", "R9"), so a child who lost a
card can read why. Pure: needs the state before the event's action, nothing of Django.

>>> from games.engine import from_piles
>>> from games.engine.events import TieToPot, WrongCall
>>> before = from_piles([["2S"], ["3S"], ["4S"]], [["7H"], [], []], to_play=1)
>>> event_clauses(before, WrongCall(seat=2, kind="snap", penalty_to=0, paid=True))
('R13',)
>>> event_clauses(before, TieToPot(kind="snap", callers=(1, 2), piles=(0, 1), pot_top=None,
...                                pot_cards=2))
('R9',)
"""

from __future__ import annotations

from games.engine import SNAP, SNAP_POT, GameState
from games.engine import events as ev
from games.words.press_outcomes import penalty_clause

#: The rule of each way a game can end (GameOver.reason).
END_CLAUSES = {"all_cards": "R17", "stuck_pot": "R18", "turn_limit": "R19", "no_cards": "R23"}


def event_clauses(before: GameState, event: ev.Event) -> tuple[str, ...]:
    """The clauses ``event`` shows; ``before`` is the state before its action."""
    match event:
        case ev.PileTurnedOver():
            return ("R15",)
        case ev.RaceOpened(kind=kind) | ev.CallJoined(kind=kind):
            return ("R8",) if kind == SNAP else ("R10",)
        case ev.PilesWon(with_pot=with_pot):
            return ("R10",) if with_pot else ("R8",)
        case ev.TieToPot(kind=kind):
            return ("R9",) if kind == SNAP else ("R11",)
        case ev.WrongCall(kind=kind):
            # the wrong word is its own mistake (R14 D), wherever the card went
            other = SNAP_POT if kind == SNAP else SNAP
            valid = before.valid_now
            wrong_word = not valid.piles(kind) and bool(valid.piles(other))
            return tuple(
                dict.fromkeys((*(("R14",) if wrong_word else ()), penalty_clause(before, event)))
            )
        case ev.TooLate():
            return ("R9",)
        case ev.PlayerOut() | ev.PlayerBack():
            return ("R16",)
        case ev.GameOver(reason=reason):
            return (END_CLAUSES[reason],) if reason in END_CLAUSES else ()
    return ()
