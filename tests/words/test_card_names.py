"""A card's name is said in the language asked, whichever language named it before
(games.words.texts keeps the names it made, per language)."""

from __future__ import annotations

from django.utils import translation

from games.engine import Card
from games.words.texts import card_name


def test_a_card_is_named_in_each_language_asked_in_turn():
    seven = Card.parse("7H")
    names = {}
    for lang in ("en", "hr", "ta", "en", "hr"):
        with translation.override(lang):
            names.setdefault(lang, set()).add(card_name(seven))
    assert names["en"] == {"7 of hearts"}
    assert len(names["hr"]) == len(names["ta"]) == 1
    assert len({*names["en"], *names["hr"], *names["ta"]}) == 3  # three languages, three names
