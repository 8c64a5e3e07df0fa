"""No sentence in any language says that a blocked Snap Pot can no longer be won unless it
says why (RULES R18 D): a blocked pot can never be won again only once no rank has three
cards outside it, so the phrases that say "never" appear only in texts that name those
three cards, and what the site says of a pot that a tie can still free says so."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.utils import translation

from games.tables.live_text import pot_blocked_text
from tests.conftest import LANGUAGE_CODES

ROOT = Path(__file__).resolve().parents[2]

#: The words each language used for "stuck forever" / "nobody can ever match it" / "the
#: Snap Pot is never lost".
FALSE_CLAIMS = {
    "en": [
        "stuck forever",
        "stuck for good",
        "can never be won",
        "Nobody can ever",
        "is never lost",
    ],
    "ms": [
        "selamanya",
        "Tiada sesiapa dapat memadankan kad teratasnya lagi",
        "tidak pernah hilang",
    ],
    "mr": [
        "कायमचा अडकला",
        "कायमचा अडकलेला",
        "कधीच जुळू शकणार नाही",
        "कधीच उलटू शकणार नाही",
        "कायमचा गमावलेला नसतो",
    ],
    "he": ["לתמיד", "כבר לא יוכל להפוך קלף שתואם", "אף פעם לא אבודה"],
    "ta": [
        "நிரந்தரமாக",
        "ஒருபோதும் திருப்ப முடியாது",
        "ஒருபோதும் வெல்ல முடியாத",
        "ஒருபோதும் முடிந்துபோவதில்லை",
    ],
    "hr": [
        "zauvijek",
        "Nitko više ne može naći par",
        "nitko više ne može osvojiti",
        "nikad nije izgubljen",
    ],
}


#: The word for "three" in each language: a text saying "never" must give the reason,
#: that no rank has three cards left outside the pot.
THREE = {"en": "three", "ms": "tiga", "mr": "तीन", "he": "שלושה", "ta": "மூன்று", "hr": " tri "}


def texts_of(lang: str) -> list[str]:
    """Every catalog entry and every paragraph of the content files of ``lang``."""
    parts = []
    for name in ("django.po", "djangojs.po"):
        for entry in polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / name)):
            parts += [entry.msgstr, *entry.msgstr_plural.values()]
            if lang == "en":
                parts += [entry.msgid, entry.msgid_plural]
    content = ROOT / "games" / "content"
    for path in (content / f"{lang}.toml", content / "start" / f"{lang}.toml"):
        parts += path.read_text().split("\n\n")
    return parts


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_no_text_says_a_blocked_pot_is_stuck_for_good_without_the_three_cards(lang):
    claims = [
        (claim, text)
        for text in texts_of(lang)
        for claim in FALSE_CLAIMS[lang]
        if claim in text and THREE[lang] not in text
    ]
    assert claims == []


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_moment_a_pot_is_blocked_is_told_with_the_tie_that_frees_it(lang):
    with translation.override(lang):
        told = pot_blocked_text()
    assert told and not any(claim in told for claim in FALSE_CLAIMS[lang])
    with translation.override("en"):
        assert "Only a tie can change that" in pot_blocked_text()
