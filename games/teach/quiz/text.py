"""Words for the engine's quizzes (games.teach.quiz.questions), in the page's language.

Whole sentences with placeholders, every name and card through
:func:`games.words.texts.fill`; what happened is told with
:func:`games.words.texts.event_text` from the engine's own events.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine import SNAP, SNAP_POT, CardTurned
from games.engine.pot import AFTER_TIE, cards_of_top_rank_outside
from games.teach.quiz.questions import Question, key_seat
from games.words.texts import call_word, card_name, event_text, fill


def turned_card(q: Question):
    """The card turned to make the position (every quiz position turns one)."""
    return next(e.card for e in q.lead_in if isinstance(e, CardTurned))


def prompt(q: Question, names: Sequence[str]) -> str:
    """The question, as asked of the class."""
    if q.kind == "is_snap":
        return _("Is this a Snap?")
    if q.kind == "snap_or_pot":
        return _("“Snap!” or “Snap Pot!”? Which call wins cards now?")
    if q.kind == "penalty":
        return fill(
            _("%(player)s calls %(call)s, but it is the wrong time. Who gets the penalty card?"),
            player=names[q.caller],
            call=call_word(q.call_kind),
        )
    if q.kind == "who_wins":
        return _("Who wins the cards?")
    return _("Can a card turned over now win the Snap Pot?")


def details(q: Question, names: Sequence[str]) -> list[str]:
    """Sentences the question needs besides the picture (the calls and their times)."""
    if q.kind != "who_wins":
        return []
    (first, _zero), (second, delay) = q.calls
    call = call_word(q.call_kind)
    return [
        fill(
            ngettext(
                "%(first)s calls %(call)s first. %(second)s calls %(call)s %(ms)d millisecond "
                "later.",
                "%(first)s calls %(call)s first. %(second)s calls %(call)s %(ms)d milliseconds "
                "later.",
                delay,
            ),
            first=names[first],
            second=names[second],
            call=call,
            ms=delay,
        ),
        fill(
            ngettext(
                "At this table, calls at most %(ms)d millisecond apart count as at the same time.",
                "At this table, calls at most %(ms)d milliseconds apart count as at the same time.",
                q.tie_window_ms,
            ),
            ms=q.tie_window_ms,
        ),
    ]


def choice_label(q: Question, key: str, names: Sequence[str]) -> str:
    seat = key_seat(key)
    if seat is not None:
        return names[seat]
    labels = {
        "yes": lambda: pgettext("quiz answer", "Yes"),
        "no": lambda: pgettext("quiz answer", "No"),
        SNAP: lambda: call_word(SNAP),
        SNAP_POT: lambda: call_word(SNAP_POT),
        "neither": lambda: _("Neither: nothing matches"),
        "tie": lambda: _("A tie: the Snap Pot"),
        AFTER_TIE: lambda: _("Not yet: first a tie must give it a new top card"),
    }
    return labels[key]()


def verdict(q: Question, names: Sequence[str]) -> str:
    """The answer in one or two sentences, saying why (the deciding clause's words)."""
    card = card_name(turned_card(q))
    if q.kind == "is_snap":
        if q.answer == "yes":
            text = _(
                "Yes, it is a Snap: the %(card)s has the same rank as another player’s "
                "face-up card. Suits do not matter."
            )
        else:
            text = _(
                "No, it is not a Snap: no other face-up card has the same rank as the %(card)s. "
                "Suits do not matter."
            )
        return fill(text, card=card)
    if q.kind == "snap_or_pot":
        texts = {
            SNAP: _("“Snap!”: the %(card)s matches another player’s face-up card."),
            SNAP_POT: _("“Snap Pot!”: the %(card)s matches the card on top of the Snap Pot."),
            "neither": _(
                "Neither: the %(card)s matches no other face-up card and not the Snap Pot, "
                "so both calls are mistakes."
            ),
        }
        return fill(texts[q.answer], card=card)
    if q.kind == "penalty":
        receiver = names[key_seat(q.answer)]
        beside = (q.caller - 1) % q.state.players
        if q.clause == "R14" and key_seat(q.answer) != beside:
            return fill(
                _(
                    "%(receiver)s gets it: %(player)s has just turned over a card, so the "
                    "mistake is on their own turn. The player on the right of %(player)s, "
                    "%(skipped)s, has no cards and is skipped, so the penalty card goes to the "
                    "next player on the right who still has cards."
                ),
                receiver=receiver,
                player=names[q.caller],
                skipped=names[beside],
            )
        if q.clause == "R14":
            text = _(
                "%(receiver)s gets it: %(player)s has just turned over a card, so the mistake "
                "is on their own turn. The penalty card goes to the player on the right of "
                "%(player)s, who plays just before %(player)s."
            )
        else:
            text = _(
                "%(receiver)s gets it: the penalty card of %(player)s goes to the player who "
                "has just played."
            )
        return fill(text, receiver=receiver, player=names[q.caller])
    if q.kind == "who_wins":
        (first, _zero), (second, delay) = q.calls
        if q.answer == "tie":
            text = ngettext(
                "A tie: %(second)s called only %(ms)d millisecond after %(first)s, so both "
                "calls count as at the same time. The matching cards go to the Snap Pot.",
                "A tie: %(second)s called only %(ms)d milliseconds after %(first)s, so both "
                "calls count as at the same time. The matching cards go to the Snap Pot.",
                delay,
            )
        else:
            text = ngettext(
                "%(first)s wins: %(second)s called %(ms)d millisecond later, too late for a tie.",
                "%(first)s wins: %(second)s called %(ms)d milliseconds later, too late for a tie.",
                delay,
            )
        return fill(text, first=names[first], second=names[second], ms=delay)
    return pot_verdict(q)


def pot_verdict(q: Question) -> str:
    """Why a card turned now can win the pot (R10), or what must happen first (R18 D)."""
    pot_card = card_name(q.state.pot_top)
    if q.answer == AFTER_TIE:
        return fill(
            _(
                "Not yet: the Snap Pot shows the %(card)s, and all four cards of that rank are "
                "in it, so no card can match it now. But it can still be won, because some rank "
                "still has three cards outside the Snap Pot. When two or more players tie on a "
                "“Snap!”, all the matching piles go on top of the Snap Pot and give it a new top "
                "card. When a card matching that card is turned over, the first to call “Snap "
                "Pot!” wins the whole Snap Pot."
            ),
            card=pot_card,
        )
    inside = 4 - cards_of_top_rank_outside(q.state)
    return fill(
        ngettext(
            "Yes: the Snap Pot shows the %(card)s, and only %(count)d card of that rank is in "
            "it. The others are still in play: when one is turned over, the first to call "
            "“Snap Pot!” wins the Snap Pot.",
            "Yes: the Snap Pot shows the %(card)s, and only %(count)d cards of that rank are in "
            "it. The others are still in play: when one is turned over, the first to call "
            "“Snap Pot!” wins the Snap Pot.",
            inside,
        ),
        card=pot_card,
        count=inside,
    )


def events_intro(q: Question, names: Sequence[str]) -> str:
    """What the engine's events below the verdict show."""
    if q.kind in ("is_snap", "snap_or_pot") and q.caller is not None:
        call = call_word(q.answer if q.answer in (SNAP, SNAP_POT) else SNAP)
        return fill(
            _("What happens when %(player)s calls %(call)s now:"),
            player=names[q.caller],
            call=call,
        )
    return _("What happens at the table:")


def situation(q: Question, names: Sequence[str]) -> list[str]:
    """How the position came about (the card just turned; for the pot, the tie)."""
    return [event_text(e, names) for e in q.lead_in]


def explanation(q: Question, names: Sequence[str]) -> list[str]:
    """The engine's events that show the answer. For the pot, they are the tie that made
    the position, already told by :func:`situation`: not told twice."""
    if q.kind == "pot_win":
        return []
    return [event_text(e, names) for e in q.events]
