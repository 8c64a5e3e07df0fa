"""The second language reviews' decisions stay in the catalogs.

Merges that made the catalogs again from the source once put back the older texts of
109 entries the reviewers had mended (round 2: Malay "anda" for the teacher and "nama
panggilan", Tamil's polite buttons, Croatian's neutral teacher lines, Marathi's key
names, Hebrew's "one" after the noun). Each case below is one of those decisions, read
from the catalog the site compiles: it fails if a merge takes the old text again.
"""

from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"

# (language, catalog, msgid, a text the entry must hold, a text it must not hold)
DECISIONS = [
    ("ms", "django.po", "Your first name", "Nama panggilan", "pertama"),
    ("ms", "django.po", "Your class table", "anda", "kamu"),
    ("ms", "django.po", "Your controls", "anda", "kamu"),
    ("ms", "django.po", "to play", "giliran bermain", None),
    ("ms", "djangojs.po", "to play", "giliran bermain", None),
    ("ms", "djangojs.po", "The game is paused: nobody can play until you go on.", "anda", "kamu"),
    ("ms", "django.po", "There is no such seat at this table.", "Tempat duduk itu tiada", None),
    # "first name" said as the name without the initial / surname (2026-12-05)
    ("ta", "django.po", "Your first name", "முன்னெழுத்து இல்லாமல்", "முதல்"),
    ("mr", "django.po", "Your first name", "आडनावाशिवाय", "पहिले"),
    ("ta", "django.po", "Start the game", "தொடங்குங்கள்", None),
    ("ta", "django.po", "Try again", "முயலுங்கள்", None),
    ("ta", "django.po", "Change", "செயல்", "மாற்றம்"),
    ("ta", "djangojs.po", "Add a computer player", "சேருங்கள்", None),
    ("hr", "django.po", "The teacher started the game.", "Igra počinje", "Učitelj"),
    ("hr", "django.po", "Steady", "Srednje", None),
    ("hr", "django.po", "Tie window (milliseconds)", "Vrijeme za neriješeno", None),
    ("hr", "djangojs.po", "Remove from the table", "Uklonite sa stola", "Udaljite"),
    (
        "hr",
        "djangojs.po",
        "The teacher has paused the game. Wait until it goes on.",
        "pauzirana",
        "učitelj",
    ),
    (
        "mr",
        "django.po",
        "Keys: T turn over a card, S “Snap!”, O “Snap Pot!”, P projector.",
        "कीबोर्डवरच्या कळा",
        None,
    ),
    ("mr", "django.po", "Give the class a name, with no special characters.", "@ किंवा #", None),
    ("he", "django.po", "Tie window (milliseconds)", "חלון התיקו", None),
    (
        "he",
        "djangojs.po",
        "Play goes clockwise: on to the next player on the left.",
        "שיושב משמאל",
        None,
    ),
]

# Counted phrases whose singular the reviewers said in words, with "one" after the noun.
HEBREW_ONE_IN_WORDS = [
    "%(count)s card face up",
    "%(count)s card face down",
    "Snap Pot: %(count)s card",
]


def texts_of(lang: str, name: str, msgid: str) -> list[str]:
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / name))
    entries = [e for e in po if e.msgid == msgid and not e.obsolete]
    assert entries, f"{msgid!r} is no longer in {lang}/{name}"
    return [
        t for e in entries for t in (e.msgstr_plural.values() if e.msgid_plural else [e.msgstr])
    ]


@pytest.mark.parametrize(("lang", "name", "msgid", "holds", "not_holds"), DECISIONS)
def test_a_reviewed_translation_keeps_the_reviewers_text(lang, name, msgid, holds, not_holds):
    for text in texts_of(lang, name, msgid):
        assert holds in text, (lang, msgid, text)
        if not_holds:
            assert not_holds not in text, (lang, msgid, text)


@pytest.mark.parametrize("name", ["django.po", "djangojs.po"])
def test_malay_never_asks_for_a_first_name(name):
    po = polib.pofile(str(LOCALE / "ms" / "LC_MESSAGES" / name))
    assert [e.msgid for e in po if "nama pertama" in e.msgstr.lower()] == []


@pytest.mark.parametrize("msgid", HEBREW_ONE_IN_WORDS)
def test_hebrew_says_one_card_in_words_after_the_noun(msgid):
    po = polib.pofile(str(LOCALE / "he" / "LC_MESSAGES" / "djangojs.po"))
    (entry,) = [e for e in po if e.msgid == msgid]
    assert entry.msgstr_plural[0].endswith("אחד"), entry.msgstr_plural[0]
    assert "%(count)s" not in entry.msgstr_plural[0]
    assert "%(count)s" in entry.msgstr_plural[1]
