"""Words for the engine's data, made at the edge in the reader's language.

The engine speaks in event codes and card values; this module turns them
into sentences with ``gettext``/``ngettext`` (whole sentences with
placeholders, never pieces glued together). ``names`` maps seats to the
players' names in the page's language.

Every value put into a sentence goes through :func:`fill`, the one place
where names and card names are isolated for bidi (U+2068 FIRST STRONG
ISOLATE … U+2069 POP DIRECTIONAL ISOLATE), so that a Latin name on a Hebrew
page, or a Hebrew name on an English page, never reorders the sentence
around it. The catalogs never contain these marks.
"""

from collections.abc import Sequence

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engine import Card
from games.engine import events as ev

FSI = "\u2068"  # FIRST STRONG ISOLATE
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE


def isolate(text: str) -> str:
    """``text`` as a bidi isolate: it keeps its own direction inside any sentence."""
    return f"{FSI}{text}{PDI}"


def fill(sentence: str, **values: str | int) -> str:
    """``sentence % values``, with every text value (a name, a card name, a call word)
    isolated for bidi; numbers stay as they are."""
    return sentence % {k: isolate(v) if isinstance(v, str) else v for k, v in values.items()}


def rank_name(rank: int) -> str:
    names = {
        1: pgettext("card rank", "Ace"),
        11: pgettext("card rank", "Jack"),
        12: pgettext("card rank", "Queen"),
        13: pgettext("card rank", "King"),
    }
    return names.get(rank, str(rank))


def suit_name(suit: str) -> str:
    return {
        "S": pgettext("card suit", "spades"),
        "H": pgettext("card suit", "hearts"),
        "D": pgettext("card suit", "diamonds"),
        "C": pgettext("card suit", "clubs"),
    }[suit]


#: (language, card code) -> the card's name: a replay names ~950 cards a page, each
#: nine catalog look-ups (52 cards x 6 languages at most; emptied when the settings
#: that choose the catalogs change, as in tests).
_card_names: dict[tuple[str | None, str], str] = {}


def card_name(card: Card) -> str:
    """The full name of a card, for text and screen readers ("7 of hearts")."""
    key = (get_language(), card.code)
    name = _card_names.get(key)
    if name is None:
        name = _card_names[key] = pgettext("card name: rank, then suit", "%(rank)s of %(suit)s") % {
            "rank": rank_name(card.rank),
            "suit": suit_name(card.suit),
        }
    return name


@receiver(setting_changed)
def _forget_card_names(setting: str, **kwargs) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"):
        _card_names.clear()


def call_word(kind: str) -> str:
    return _("“Snap!”") if kind == "snap" else _("“Snap Pot!”")


# Why a move changed nothing, said to the player who made it (aged 8 and up).
REJECT_TEXTS = {
    "bad_action": lambda: _("That is not a move in this game."),
    "no_such_seat": lambda: _("There is no such seat at this table."),
    "game_over": lambda: _("The game is over, so nobody can play any more."),
    "bad_time": lambda: _("That move came out of order, so it does not count."),
    "player_out": lambda: _("You have no cards left, so you are out for now: you miss your turns."),
    "no_cards": lambda: _("You have no cards left, so you may not call."),
    "not_your_turn": lambda: _("It is not your turn, so you may not turn over a card now."),
    "race_open": lambda: _(
        "Wait! Someone has called, and we do not know yet who was first. "
        "Nobody may turn over a card until then."
    ),
    "already_called": lambda: _("You have already called. Wait to see who was first."),
    "no_race": lambda: _("Nobody has called, so there is no race to end."),
    "too_early": lambda: _("The race is not over yet: other players may still call."),
}


def reject_text(reason: str) -> str:
    text = REJECT_TEXTS.get(reason)
    return text() if text else _("That move is not allowed now.")


def event_text(event: ev.Event, names: Sequence[str]) -> str:
    """One sentence telling what ``event`` means, in the active language."""
    name = names.__getitem__
    match event:
        case ev.CardTurned(seat=seat, card=card):
            return fill(
                _("%(player)s turns over the %(card)s."), player=name(seat), card=card_name(card)
            )
        case ev.PileTurnedOver(seat=seat, cards=cards):
            return fill(
                ngettext(
                    "%(player)s’s face-down pile is empty: %(player)s turns the face-up pile "
                    "over (%(count)d card) to make a new face-down pile.",
                    "%(player)s’s face-down pile is empty: %(player)s turns the face-up pile "
                    "over (%(count)d cards) to make a new face-down pile.",
                    cards,
                ),
                player=name(seat),
                count=cards,
            )
        case ev.RaceOpened(kind=kind, seat=seat):
            return fill(_("%(player)s calls %(call)s"), player=name(seat), call=call_word(kind))
        case ev.CallJoined(kind=kind, seat=seat):
            return fill(
                _("%(player)s calls %(call)s at the same time!"),
                player=name(seat),
                call=call_word(kind),
            )
        case ev.PilesWon(winner=winner, cards=cards, with_pot=True):
            # Several face-up piles may show the pot's rank (R10 D): true for any number.
            return fill(
                ngettext(
                    "%(player)s wins the Snap Pot and every pile that matches it: "
                    "%(count)d card in all.",
                    "%(player)s wins the Snap Pot and every pile that matches it: "
                    "%(count)d cards in all.",
                    cards,
                ),
                player=name(winner),
                count=cards,
            )
        case ev.PilesWon(winner=winner, cards=cards):
            return fill(
                ngettext(
                    "%(player)s wins the matching piles: %(count)d card.",
                    "%(player)s wins the matching piles: %(count)d cards.",
                    cards,
                ),
                player=name(winner),
                count=cards,
            )
        case ev.TieToPot(kind="snap", pot_cards=pot_cards):
            return fill(
                ngettext(
                    "It is a tie! The matching piles go to the Snap Pot. "
                    "It now has %(count)d card.",
                    "It is a tie! The matching piles go to the Snap Pot. "
                    "It now has %(count)d cards.",
                    pot_cards,
                ),
                count=pot_cards,
            )
        case ev.TieToPot(pot_cards=pot_cards):
            return fill(
                ngettext(
                    "It is a tie on the Snap Pot! Each matching pile joins the Snap Pot. "
                    "It now has %(count)d card.",
                    "It is a tie on the Snap Pot! Each matching pile joins the Snap Pot. "
                    "It now has %(count)d cards.",
                    pot_cards,
                ),
                count=pot_cards,
            )
        case ev.RaceCancelled():
            return _("The match is no longer showing: nobody wins the race.")
        case ev.WrongCall(seat=seat, penalty_to=receiver, paid=True) if receiver is not None:
            return fill(
                _("Wrong call! %(player)s gives a penalty card to %(receiver)s."),
                player=name(seat),
                receiver=name(receiver),
            )
        case ev.WrongCall(seat=seat):
            return fill(
                _("Wrong call by %(player)s, but there is no card to give."), player=name(seat)
            )
        case ev.TooLate(seat=seat):
            return fill(
                _("%(player)s called too late. That is not a mistake: no penalty."),
                player=name(seat),
            )
        case ev.PlayerOut(seat=seat):
            return fill(_("%(player)s has no cards left and is out for now."), player=name(seat))
        case ev.PlayerBack(seat=seat):
            return fill(_("%(player)s gets a card and is back in the game."), player=name(seat))
        case ev.GameOver(reason="stuck_pot", winner=winner) if winner is not None:
            return fill(
                _(
                    "%(player)s has won all the cards that are not stuck in the Snap Pot, "
                    "and wins the game!"
                ),
                player=name(winner),
            )
        case ev.GameOver(reason="turn_limit", winners=winners) if len(winners) > 1:
            return fill(
                _("The turn limit has been reached. These players share the win: %(players)s."),
                players=", ".join(isolate(name(s)) for s in winners),
            )
        case ev.GameOver(reason="turn_limit", winner=winner) if winner is not None:
            return fill(
                _("The turn limit has been reached. %(player)s has the most cards and wins!"),
                player=name(winner),
            )
        case ev.GameOver(winner=winner) if winner is not None:
            return fill(
                _("%(player)s has won all the cards and wins the game!"), player=name(winner)
            )
        case ev.GameOver():
            return _("Nobody has any cards outside the Snap Pot: the game is a draw.")
        case ev.Rejected(reason=reason):
            return reject_text(reason)
    return ""
