"""The two lessons the builder offers to start from, made of plain steps on the engine.

- **The stuck pot** (R9, R18): two ties on the 10s put all four in the Snap Pot, and the
  turn limit (R19) ends the game with them still inside.
- **The blocked pot a tie frees** (R18 D, R10): the same blocked pot, then a tie on the
  7s lays new piles on it, and the third 7 wins the whole pot with "Snap Pot!".

The class plays seat 0 and decides its own moves at the marked steps. The names are
the walkthroughs' cast in the page's language; the notes are left to the teacher.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.frames.lesson_draft import Draft
from games.frames.lesson_setup import Setup
from games.frames.walkthroughs import names_for

__all__ = ["EXAMPLES", "example"]


def _turn(seat: int) -> dict:
    return {"do": "turn", "seats": [seat]}


def _call(kind: str, *seats: int) -> dict:
    return {"do": kind, "seats": list(seats)}


_CLOSE = {"do": "close", "seats": []}
#: Two ties on the 10s: the pot is blocked (its four 10s inside).
_TWO_TIES = (
    _turn(0), _turn(1), _call("snap", 0, 1), _CLOSE,
    _turn(2), _turn(0), _call("snap", 0, 2), _CLOSE,
)  # fmt: skip


def stuck_pot() -> Draft:
    setup = Setup(
        names=tuple(names_for()[:3]),
        turn_limit=4,
        seed=1,
        arranged=(("10H", "10C"), ("10S",), ("10D",)),
    )
    draft = Draft.new(setup, _("The stuck Snap Pot"))
    return Draft(draft.setup, draft.deck, _TWO_TIES, marks=frozenset({1, 3}), title=draft.title)


def blocked_pot_freed() -> Draft:
    setup = Setup(
        names=tuple(names_for()[:3]),
        seed=1,
        arranged=(("10H", "10C", "7D"), ("10S", "7H"), ("10D", "7S")),
    )
    draft = Draft.new(setup, _("A tie frees the blocked Snap Pot"))
    steps = _TWO_TIES + (
        _turn(1), _turn(2), _call("snap", 0, 2), _CLOSE, _turn(0), _call("snap_pot", 0), _CLOSE,
    )  # fmt: skip
    return Draft(draft.setup, draft.deck, steps, marks=frozenset({3, 14}), title=draft.title)


#: The examples by name, as the builder's buttons send them.
EXAMPLES = {"stuck-pot": stuck_pot, "blocked-pot": blocked_pot_freed}


def example(name: str) -> Draft | None:
    make = EXAMPLES.get(name)
    return make() if make else None
