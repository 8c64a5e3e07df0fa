"""Words for live tables and replays, made for each client in its own language.

A live table sends every client the same numbered events; each connection tells them
in the language its page asked for (``hello`` ``lang``), with the same sentence
builder as the walkthroughs (:func:`games.words.texts.event_text`). Computer players have
no typed name: they are called "Computer 1", "Computer 2"… in the reader's language,
numbered in seat order.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.tables.protocol import event_from_json
from games.tables.stand_in import stood_in_seats
from games.words.texts import event_text, isolate


def seat_labels(seats: Sequence[dict]) -> list[str]:
    """What to call each seat (``seats`` as in a ``seats`` frame), in the active
    language: the typed name of a person, "Computer for <name>" while a computer
    player stands in for that person, "Computer N" for a computer player, and
    "Free seat" for a seat nobody has taken yet."""
    labels, computers = [], 0
    for seat in seats:
        if seat["bot"]:
            computers += 1
            labels.append(_("Computer %(number)d") % {"number": computers})
        elif seat["taken"] and seat.get("away"):  # never the absent person's own name
            labels.append(_("Computer for %(name)s") % {"name": isolate(seat["name"])})
        elif seat["taken"]:
            labels.append(seat["name"])
        else:
            labels.append(_("Free seat"))
    return labels


def event_labels(seats: Sequence[dict], event: dict) -> list[str]:
    """The seats' labels for telling a stored ``event`` (``seats`` as in a ``seats``
    frame): "Computer for Luka" for each seat a computer player stood in for when it
    happened (the event's stand-in mark), even when Luka is back by the time it is told
    (a catch-up); each person's own name otherwise."""
    stood_in = stood_in_seats(event)
    return seat_labels([{**seat, "away": seat["seat"] in stood_in} for seat in seats])


def with_labels(seats: Sequence[dict]) -> list[dict]:
    """``seats`` with each seat's ``label`` (see :func:`seat_labels`)."""
    return [{**seat, "label": label} for seat, label in zip(seats, seat_labels(seats), strict=True)]


def pot_blocked_text() -> str:
    """What is true when the fourth card of the pot's top rank goes in while some rank
    still has three cards outside the pot (R18 D): the pot is blocked, not lost."""
    return _(
        "All four cards of this rank are now in the Snap Pot, so for now no card can match "
        "its top card. Only a tie can change that: the tied piles go on top of the Snap Pot "
        "and give it a new top card. Then, when a card matching that top card is turned over, "
        "the first to call “Snap Pot!” wins the whole Snap Pot."
    )


def pot_stuck_text() -> str:
    """What is true when the fourth card of the pot's top rank goes in and no rank has
    three cards left outside the pot (R18 D): it can never be won again."""
    return _(
        "All four cards of this rank are now in the Snap Pot, so no card can match its top "
        "card. No rank has three cards left outside the Snap Pot (two for a tie and one to "
        "match), so the Snap Pot can never be won again. Its cards stay there until the end "
        "of the game."
    )


def told_event(event: dict, labels: Sequence[str]) -> str:
    """The sentence(s) telling a stored event (``code``, ``params``, and the marks of
    :func:`games.tables.protocol.pot_marks` when this step blocked the Snap Pot, R18 D),
    in the active language, names isolated for bidi."""
    text = event_text(event_from_json(event), labels)
    if event.get("pot_stuck"):
        text = f"{text} {pot_stuck_text()}"
    elif event.get("pot_now_blocked"):
        text = f"{text} {pot_blocked_text()}"
    return text
