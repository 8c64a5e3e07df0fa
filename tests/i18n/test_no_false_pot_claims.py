"""No sentence in any language says that a blocked Snap Pot can no longer be won (RULES
R18 D): the phrases the catalogs and the rules used to say it with are gone everywhere,
and what the site says of a blocked pot says it can be won after a tie."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.utils import translation

from games.tables.live_text import pot_blocked_text
from tests.conftest import LANGUAGE_CODES

ROOT = Path(__file__).resolve().parents[2]

#: The words each language used for "stuck forever" / "nobody can ever match it".
FALSE_CLAIMS = {
    "en": ["stuck forever", "stuck for good", "can never be won", "Nobody can ever"],
    "ms": ["selamanya", "Tiada sesiapa dapat memadankan kad teratasnya lagi"],
    "mr": ["कायमचा अडकला", "कायमचा अडकलेला", "कधीच जुळू शकणार नाही", "कधीच उलटू शकणार नाही"],
    "he": ["לתמיד", "כבר לא יוכל להפוך קלף שתואם"],
    "ta": ["நிரந்தரமாக", "ஒருபோதும் திருப்ப முடியாது", "ஒருபோதும் வெல்ல முடியாத"],
    "hr": ["zauvijek", "Nitko više ne može naći par", "nitko više ne može osvojiti"],
}


def texts_of(lang: str) -> str:
    """Every catalog entry and every content file of ``lang``, as one text."""
    parts = []
    for name in ("django.po", "djangojs.po"):
        for entry in polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / name)):
            parts += [entry.msgstr, *entry.msgstr_plural.values()]
            if lang == "en":
                parts += [entry.msgid, entry.msgid_plural]
    content = ROOT / "games" / "content"
    parts += [
        (content / f"{lang}.toml").read_text(),
        (content / "start" / f"{lang}.toml").read_text(),
    ]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_no_text_says_a_blocked_pot_is_stuck_for_good(lang):
    text = texts_of(lang)
    assert [claim for claim in FALSE_CLAIMS[lang] if claim in text] == []


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_moment_a_pot_is_blocked_is_told_with_the_tie_that_frees_it(lang):
    with translation.override(lang):
        told = pot_blocked_text()
    assert told and not any(claim in told for claim in FALSE_CLAIMS[lang])
    with translation.override("en"):
        assert "Only a tie can change that" in pot_blocked_text()
