"""The moments of a recorded game worth teaching, found in the engine's events: each
race (won, won with the Snap Pot, or a tie), each wrong call, and the Snap Pot becoming
blocked. A replay of 150-200 steps lets the teacher jump to them, on the projector too.

A race is shown where it opens (the match on the table, the first call): the next steps
show the calls that joined it and how it ended. Pure: engine events and step numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine import Record
from games.engine.events import PilesWon, RaceCancelled, RaceOpened, TieToPot, WrongCall
from games.frames.seat_names import SeatNames
from games.frames.steps import RecordStep, record_steps
from games.words.texts import fill

__all__ = ["KINDS", "Moment", "find_moments", "moments"]

#: The kinds of moment, in the words of :func:`moment_label`.
KINDS = ("race", "pot_won", "tie", "wrong_call", "pot_blocked")


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment at action ``step`` (from 1; the replay's frame ``step``, 0 being the
    start): its ``kind`` and the seats it is about (the winner, the tied callers, the
    caller of a wrong call)."""

    step: int
    kind: str
    seats: tuple[int, ...] = ()


def find_moments(steps: Sequence[RecordStep]) -> list[Moment]:
    """The moments of a game's ``steps`` (see :func:`games.frames.steps.record_steps`),
    in the order they happen."""
    found: list[Moment] = []
    opened_at: int | None = None
    for step in steps:
        for event in step.events:
            if isinstance(event, RaceOpened):
                opened_at = step.number
            elif isinstance(event, PilesWon | TieToPot | RaceCancelled):
                at = opened_at if opened_at is not None else step.number
                opened_at = None
                if isinstance(event, PilesWon):
                    kind = "pot_won" if event.with_pot else "race"
                    found.append(Moment(at, kind, (event.winner,)))
                elif isinstance(event, TieToPot):
                    found.append(Moment(at, "tie", tuple(event.callers)))
            elif isinstance(event, WrongCall):
                found.append(Moment(step.number, "wrong_call", (event.seat,)))
        if step.state.pot_blocked and not step.before.pot_blocked:
            found.append(Moment(step.number, "pot_blocked"))
    return sorted(found, key=lambda m: m.step)  # a race is placed back where it opened


def moment_label(moment: Moment, names: Sequence[str]) -> str:
    """The moment in words, with its step number as the player counts (the start is 1)."""
    number = moment.step + 1
    who = [names[s] for s in moment.seats]
    if moment.kind == "race":
        return fill(_("Step %(number)s: %(player)s wins a race"), number=number, player=who[0])
    if moment.kind == "pot_won":
        return fill(
            _("Step %(number)s: %(player)s wins the Snap Pot"), number=number, player=who[0]
        )
    if moment.kind == "tie":
        return fill(
            _("Step %(number)s: a tie between %(players)s"),
            number=number,
            players=", ".join(fill("%(p)s", p=n) for n in who),
        )
    if moment.kind == "wrong_call":
        return fill(_("Step %(number)s: a wrong call by %(player)s"), number=number, player=who[0])
    return _("Step %(number)s: the Snap Pot is blocked") % {"number": number}


def moments(record: Record, names: SeatNames) -> list[dict]:
    """The moments of ``record`` for the replay page: each its frame ``index`` (0: the
    start), ``kind`` and ``label`` in the page's language (the seats' labels at that
    step: "Computer for Luka" where a computer player stood in)."""
    _start, steps = record_steps(record)
    return [
        {"index": m.step, "kind": m.kind, "label": moment_label(m, names.at(m.step))}
        for m in find_moments(steps)
    ]
