"""The interface is translated in full, with real plurals, in every language."""

import html
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client

from games.context_processors import NATIVE_NAMES
from games.scenarios import load_all
from tests.conftest import LANGUAGE_CODES

NATIVE = set(NATIVE_NAMES.values())

LOCALE = Path(settings.BASE_DIR) / "locale"
WALKTHROUGHS = [scenario.slug for scenario in load_all()]
PAGES = (
    "/{}/",
    "/{}/rules/",
    "/{}/glossary/",
    "/{}/start/",
    "/{}/learn/",
    *(f"/{{}}/learn/{slug}/" for slug in WALKTHROUGHS),
    "/{}/play/",
    "/{}/teach/",
)
CATALOGS = ("django.po", "djangojs.po")


def catalog(lang: str, name: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / name))


@pytest.mark.parametrize("name", CATALOGS)
@pytest.mark.parametrize("lang", LANGUAGE_CODES[1:])
def test_every_catalog_entry_is_translated_and_not_fuzzy(lang, name):
    po = catalog(lang, name)
    assert len(po) > 0
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert [e.msgid for e in po.obsolete_entries()] == []


@pytest.mark.parametrize(("lang", "forms"), [("ms", 1), ("mr", 2), ("he", 4), ("ta", 2), ("hr", 3)])
def test_plural_entries_have_every_form_of_the_language(lang, forms):
    po = catalog(lang, "django.po")
    assert f"nplurals={forms};" in po.metadata["Plural-Forms"].replace(" ", "")
    plural_entries = [e for e in po if e.msgid_plural]
    assert plural_entries, "the interface has counted phrases"
    for entry in plural_entries:
        assert sorted(entry.msgstr_plural) == list(range(forms)), entry.msgid
        assert all(text.strip() for text in entry.msgstr_plural.values()), entry.msgid


def visible_text(page_html: str) -> str:
    page_html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page_html)
    page_html = re.sub(r"(?s)<[^>]+>", " ", page_html)
    return re.sub(r"\s+", " ", html.unescape(page_html))


def english_interface_strings(lang: str) -> set[str]:
    """English source texts that must not show on a page in ``lang``.

    Left out: texts the translation keeps (a name such as "Snap!" inside
    „Snap!”), and the language names the switcher shows in their own script.
    """
    po = catalog(lang, "django.po")
    translated = " ".join(e.msgstr for e in po if e.msgstr)
    texts = set()
    for entry in po:
        if entry.msgid_plural:
            continue
        for english in re.split(r"%\(\w+\)[sd]", entry.msgid):
            english = english.strip(" .,:;!?“”")
            if len(english) >= 4 and english not in translated and english not in NATIVE:
                texts.add(english)
    return texts


@pytest.mark.parametrize("lang", LANGUAGE_CODES[1:])
def test_no_non_english_page_shows_an_english_interface_string(content, lang):
    client = Client()
    english = english_interface_strings(lang)
    assert len(english) > 30
    for pattern in PAGES:
        text = visible_text(client.get(pattern.format(lang)).content.decode())
        leaked = sorted(s for s in english if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text))
        assert leaked == [], (pattern.format(lang), leaked)
