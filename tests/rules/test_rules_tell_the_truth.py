"""The rules page says the true thing in every language: a penalty on one's own turn skips
players who are out (RULES R14 D), and a blocked Snap Pot can still be won only while
some rank has three cards outside it; once none has, it never can (R18 D). The glossary
says that second case too, with the same words."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.conftest import LANGUAGE_CODES

#: Each language's words for "skip players who are out: the next player on your right
#: who still has cards", as the Mistakes section says them.
SKIPS_PLAYERS_WHO_ARE_OUT = {
    "en": [
        "If that player is out (has no cards left), skip them",
        "the next player on your right who still has cards",
    ],
    "ms": ["Jika pemain itu sudah terkeluar", "pemain seterusnya di sebelah kanan kamu yang masih"],
    "mr": ["त्या खेळाडूकडे एकही पत्ता उरला नसेल", "उजवीकडच्या पुढच्या, अजून पत्ते असलेल्या"],
    "he": ["אם לשחקן שמימינכם לא נשארו קלפים", "הקרוב ביותר מימינכם שעדיין יש לו קלפים"],
    "ta": ["அந்த வீரரிடம் சீட்டுகள் எதுவும் இல்லையென்றால்", "இன்னும் சீட்டுகள் உள்ள அடுத்த வீரருக்கு"],
    "hr": ["Ako je taj igrač izvan igre (nema više karata), preskače se", "koji još ima karte"],
}

#: The two cases of a blocked pot (R18 D): it can still be won (three cards of one rank
#: outside it), and it can never be won again (no rank has three outside).
BLOCKED_POT_CASES = {
    "en": ["This needs three cards of one rank outside", "can never be won again"],
    "ms": ["mesti ada tiga kad yang sama nilai di luar", "tidak boleh dimenangi lagi"],
    "mr": ["एकाच किमतीचे तीन पत्ते असायला हवेत", "पुन्हा कधीच जिंकता येत नाही"],
    "he": ["צריך שלושה קלפים מאותו ערך מחוץ", "אי אפשר לזכות יותר בקופה החסומה"],
    "ta": ["ஒரே மதிப்புள்ள மூன்று சீட்டுகள்", "இனி யாராலும் வெல்ல முடியாது"],
    "hr": ["moraju biti tri karte iste vrijednosti", "više se nikad ne može osvojiti"],
}


def rules_section(client, lang: str, slug: str) -> str:
    """The text of the rules section ``slug`` on the ``lang`` rules page, tags taken out
    (the language the page turned on is turned off again afterwards)."""
    with translation.override(lang):
        html = client.get(f"/{lang}/rules/").content.decode()
    match = re.search(rf'<section class="rules-section" id="{slug}">(.*?)</section>', html, re.S)
    assert match, slug
    return re.sub(r"<[^>]+>", "", match.group(1))


def glossary_entry(client, lang: str, slug: str) -> str:
    """The text of the glossary entry ``slug`` on the ``lang`` glossary page, tags taken out
    (the language the page turned on is turned off again afterwards)."""
    with translation.override(lang):
        html = client.get(f"/{lang}/glossary/").content.decode()
    match = re.search(rf'<div class="glossary-entry" id="{slug}">(.*?)</div>', html, re.S)
    assert match, slug
    return re.sub(r"<[^>]+>", "", match.group(1))


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_mistakes_section_says_a_penalty_on_ones_own_turn_skips_players_who_are_out(
    client, content, lang
):
    mistakes = rules_section(client, lang, "mistakes")
    assert [words for words in SKIPS_PLAYERS_WHO_ARE_OUT[lang] if words not in mistakes] == []


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_stuck_pot_section_tells_both_cases_of_a_blocked_pot(client, content, lang):
    stuck_pot = rules_section(client, lang, "stuck-pot")
    assert [words for words in BLOCKED_POT_CASES[lang] if words not in stuck_pot] == []
    assert "never lost" not in stuck_pot


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_glossary_says_when_a_blocked_pot_can_never_be_won_again(client, content, lang):
    blocked_pot = glossary_entry(client, lang, "blocked-pot")
    never_again = BLOCKED_POT_CASES[lang][1]
    assert never_again in blocked_pot
