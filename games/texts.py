"""Words for the engine's data, made at the edge in the reader's language.

The engine speaks in event codes and card values; this module turns them
into sentences with ``gettext``/``ngettext`` (whole sentences with
placeholders, never pieces glued together). ``names`` maps seats to the
players' names in the page's language.
"""

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine import Card
from games.engine.events import (
    CallJoined,
    CardTurned,
    Event,
    GameOver,
    PilesWon,
    PileTurnedOver,
    PlayerBack,
    PlayerOut,
    RaceCancelled,
    RaceOpened,
    Rejected,
    TieToPot,
    TooLate,
    WrongCall,
)


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


def card_name(card: Card) -> str:
    """The full name of a card, for text and screen readers ("7 of hearts")."""
    return pgettext("card name: rank, then suit", "%(rank)s of %(suit)s") % {
        "rank": rank_name(card.rank),
        "suit": suit_name(card.suit),
    }


def call_word(kind: str) -> str:
    return _("“Snap!”") if kind == "snap" else _("“Snap Pot!”")


REJECT_TEXTS = {
    "bad_action": lambda: _("That move is not part of the game."),
    "no_such_seat": lambda: _("There is no such seat at this table."),
    "game_over": lambda: _("The game is over."),
    "bad_time": lambda: _("That move arrived out of order."),
    "player_out": lambda: _("You have no cards, so you are out for now."),
    "no_cards": lambda: _("You have no cards, so you cannot call."),
    "not_your_turn": lambda: _("It is not your turn."),
    "race_open": lambda: _("Wait: someone has called, and the race is not over yet."),
    "already_called": lambda: _("You have already called."),
    "no_race": lambda: _("Nobody has called."),
    "too_early": lambda: _("The race is still open."),
}


def reject_text(reason: str) -> str:
    text = REJECT_TEXTS.get(reason)
    return text() if text else _("That move is not allowed now.")


def event_text(event: Event, names: Sequence[str]) -> str:
    """One sentence telling what ``event`` means, in the active language."""
    name = names.__getitem__
    match event:
        case CardTurned(seat=seat, card=card):
            return _("%(player)s turns over the %(card)s.") % {
                "player": name(seat),
                "card": card_name(card),
            }
        case PileTurnedOver(seat=seat, cards=cards):
            return ngettext(
                "%(player)s’s face-down pile is empty: %(player)s turns the face-up pile "
                "over (%(count)d card) to make a new face-down pile.",
                "%(player)s’s face-down pile is empty: %(player)s turns the face-up pile "
                "over (%(count)d cards) to make a new face-down pile.",
                cards,
            ) % {"player": name(seat), "count": cards}
        case RaceOpened(kind=kind, seat=seat):
            return _("%(player)s calls %(call)s") % {"player": name(seat), "call": call_word(kind)}
        case CallJoined(kind=kind, seat=seat):
            return _("%(player)s calls %(call)s at the same moment!") % {
                "player": name(seat),
                "call": call_word(kind),
            }
        case PilesWon(winner=winner, cards=cards, with_pot=True):
            return ngettext(
                "%(player)s wins the Snap Pot and the matching pile: %(count)d card in all.",
                "%(player)s wins the Snap Pot and the matching pile: %(count)d cards in all.",
                cards,
            ) % {"player": name(winner), "count": cards}
        case PilesWon(winner=winner, cards=cards):
            return ngettext(
                "%(player)s wins the matching piles: %(count)d card.",
                "%(player)s wins the matching piles: %(count)d cards.",
                cards,
            ) % {"player": name(winner), "count": cards}
        case TieToPot(kind="snap", pot_cards=pot_cards):
            return ngettext(
                "It is a tie! The matching piles go to the Snap Pot. It now has %(count)d card.",
                "It is a tie! The matching piles go to the Snap Pot. It now has %(count)d cards.",
                pot_cards,
            ) % {"count": pot_cards}
        case TieToPot(pot_cards=pot_cards):
            return ngettext(
                "It is a tie on the Snap Pot! The matching pile joins the Snap Pot. "
                "It now has %(count)d card.",
                "It is a tie on the Snap Pot! The matching pile joins the Snap Pot. "
                "It now has %(count)d cards.",
                pot_cards,
            ) % {"count": pot_cards}
        case RaceCancelled():
            return _("The match is no longer showing: nobody wins the race.")
        case WrongCall(seat=seat, penalty_to=receiver, paid=True) if receiver is not None:
            return _("Wrong call! %(player)s gives a penalty card to %(receiver)s.") % {
                "player": name(seat),
                "receiver": name(receiver),
            }
        case WrongCall(seat=seat):
            return _("Wrong call by %(player)s, but there is no card to give.") % {
                "player": name(seat)
            }
        case TooLate(seat=seat):
            return _("%(player)s called too late. That is not a mistake: no penalty.") % {
                "player": name(seat)
            }
        case PlayerOut(seat=seat):
            return _("%(player)s has no cards left and is out for now.") % {"player": name(seat)}
        case PlayerBack(seat=seat):
            return _("%(player)s gets a card and is back in the game.") % {"player": name(seat)}
        case GameOver(reason="stuck_pot", winner=winner) if winner is not None:
            return _(
                "%(player)s has won all the cards that are not stuck in the Snap Pot, "
                "and wins the game!"
            ) % {"player": name(winner)}
        case GameOver(reason="turn_limit", winners=winners) if len(winners) > 1:
            return _("The turn limit is reached. These players share the win: %(players)s.") % {
                "players": ", ".join(name(s) for s in winners)
            }
        case GameOver(reason="turn_limit", winner=winner) if winner is not None:
            return _("The turn limit is reached. %(player)s has the most cards and wins!") % {
                "player": name(winner)
            }
        case GameOver(winner=winner) if winner is not None:
            return _("%(player)s has won all the cards and wins the game!") % {
                "player": name(winner)
            }
        case GameOver():
            return _("Nobody has any cards outside the Snap Pot: the game is a draw.")
        case Rejected(reason=reason):
            return reject_text(reason)
    return ""
