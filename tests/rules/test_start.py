"""“Play in two minutes” at /<lang>/start/: content, fallback, link from home."""

import re

import pytest

from games.content.files import fingerprint
from games.models import StartStep
from tests.conftest import LANGUAGE_CODES
from tests.locale.test_catalogs import visible_text

STEPS = ["deal", "turn", "snap", "win", "mistake", "winner"]


def english_sentences() -> list[str]:
    sentences = []
    for step in StartStep.objects.all():
        sentences.append(step.title_en)
        sentences += [s for s in re.split(r"(?<=[.!?])\s+", step.body_en) if len(s) > 20]
    return [re.sub(r"\*\*", "", s).strip() for s in sentences]


def translate(lang: str) -> None:
    """Stand-in translations, recorded against today's English."""
    for step in StartStep.objects.all():
        setattr(step, f"title_{lang}", f"({lang}) {step.slug}")
        setattr(step, f"body_{lang}", f"({lang}) text of {step.slug}.")
        setattr(step, f"source_{lang}", step.english_fingerprint())
        step.save()


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_home_page_links_to_the_start_page(client, content, lang):
    html = client.get(f"/{lang}/").content.decode()
    assert f'href="/{lang}/start/"' in html
    assert client.get(f"/{lang}/start/").status_code == 200


def test_the_english_start_page_shows_the_six_steps_in_order(client, content):
    html = client.get("/en/start/").content.decode()
    assert re.findall(r'<li class="start-step" id="([a-z-]+)"', html) == STEPS
    text = visible_text(html)
    for title in ("Deal the cards", "Take turns", "Call “Snap!”", "Win the piles"):
        assert title in text
    assert 'href="/en/rules/"' in html


def untranslate(lang: str) -> None:
    """The steps as a translator finds them: English copies with no record."""
    for step in StartStep.objects.all():
        setattr(step, f"title_{lang}", step.title_en)
        setattr(step, f"body_{lang}", step.body_en)
        setattr(step, f"source_{lang}", "")
        step.save()


@pytest.mark.parametrize("lang", LANGUAGE_CODES[1:])
def test_an_untranslated_start_page_shows_no_english_and_says_so(client, content, lang):
    untranslate(lang)
    html = client.get(f"/{lang}/start/").content.decode()
    text = visible_text(html)
    leaked = [s for s in english_sentences() if s in text]
    assert leaked == []
    assert 'class="start-untranslated"' in html
    assert 'href="/en/start/"' in html
    assert f'href="/{lang}/rules/"' in html


def test_a_translated_start_page_shows_its_own_steps(client, content):
    translate("ta")
    html = client.get("/ta/start/").content.decode()
    assert re.findall(r'<li class="start-step" id="([a-z-]+)"', html) == STEPS
    assert "(ta) text of mistake." in html
    assert 'class="start-untranslated"' not in html


def test_a_stale_start_page_still_shows_its_translation(client, content):
    translate("hr")
    StartStep.objects.filter(slug="win").update(source_hr=fingerprint("Older", "English."))
    html = client.get("/hr/start/").content.decode()
    assert "(hr) text of win." in html


def test_one_missing_step_is_enough_to_show_the_notice(client, content):
    translate("he")
    StartStep.objects.filter(slug="winner").update(source_he="")
    html = client.get("/he/start/").content.decode()
    assert 'class="start-untranslated"' in html
    assert "(he) text of deal." not in html
