"""The words a table on one device needs at one edge, in the language active where the
tag is used (``{% language edge.lang %}``): the page's script is given one language
(Django's JavaScript catalog), but each edge of the tablet reads its own. So each
edge carries what its script puts on the piles as the counts change, with that
language's own plural forms, and the cards' names for its screen reader."""

from django import template
from django.utils.translation import get_language, ngettext

from games.engine import full_deck
from games.words.texts import card_name

register = template.Library()

#: The most cards a pile can hold: the whole deck.
MOST = len(full_deck())


@register.simple_tag
def edge_words() -> dict:
    def counted(one: str, many: str) -> list[str]:
        return [ngettext(one, many, n) % {"count": n} for n in range(MOST + 1)]

    return {
        "lang": get_language(),
        "down": counted("%(count)s card face down", "%(count)s cards face down"),
        "up": counted("%(count)s card face up", "%(count)s cards face up"),
        "cards": {card.code: card_name(card) for card in full_deck()},
    }
