import json
import re

import pytest

from games.scenarios import load_all
from games.words.texts import isolate
from tests.conftest import LANGUAGE_CODES

SLUGS = [s.slug for s in load_all()]


def frames_of(html: str) -> list[dict]:
    match = re.search(
        r'<script id="walkthrough-frames" type="application/json">(.*?)</script>', html, re.S
    )
    return json.loads(match.group(1))


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_learn_page_lists_every_walkthrough_with_a_summary(client, content, lang):
    html = client.get(f"/{lang}/learn/").content.decode()
    for slug in SLUGS:
        assert f'href="/{lang}/learn/{slug}/"' in html
    assert html.count('class="walkthrough-summary"') == len(SLUGS)


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
@pytest.mark.parametrize("slug", SLUGS)
def test_walkthrough_reads_as_numbered_steps_without_javascript(client, content, lang, slug):
    response = client.get(f"/{lang}/learn/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    frames = frames_of(html)
    assert html.count('class="walkthrough-step"') == len(frames)
    for frame in frames:
        assert "%(" not in frame["caption"]
        for text in frame["events"]:
            assert "%(" not in text
    # The interactive player is there for browsers with JavaScript, hidden without it.
    assert '<section class="player"' in html and "hidden>" in html
    assert '<details class="steps-text" open>' in html


@pytest.mark.parametrize("lang", ["en", "he"])
def test_no_step_says_the_same_sentence_in_its_caption_and_its_event_lines(client, content, lang):
    for slug in SLUGS:
        for frame in frames_of(client.get(f"/{lang}/learn/{slug}/").content.decode()):
            for line in frame["events"]:
                assert line not in frame["caption"], (slug, frame["number"], line)
    step = frames_of(client.get(f"/{lang}/learn/wrong-call-own-turn/").content.decode())[2]
    assert step["caption"] and step["events"] == []  # "Alexandra turns over…" said once


def test_steps_name_cards_in_words_in_the_pages_language(client, content):
    html = client.get("/en/learn/snap-by-anyone/").content.decode()
    assert f"{isolate('Ben')} turns over the {isolate('7 of diamonds')}." in html
    hr = client.get("/hr/learn/snap-by-anyone/").content.decode()
    assert "Luka" in hr and "Ben" not in hr


def test_each_step_links_to_the_rules_section_it_shows(client, content):
    frames = frames_of(client.get("/en/learn/tie/").content.decode())
    urls = {c["url"] for f in frames for c in f["clauses"]}
    assert "/en/rules/#ties-and-snap-pot" in urls


def test_each_rules_section_links_to_the_walkthroughs_that_show_it(client, content):
    html = client.get("/en/rules/").content.decode()
    section = html.split('id="mistakes"')[1].split("</section>")[0]
    assert 'href="/en/learn/wrong-call/"' in section
    assert 'href="/en/learn/wrong-call-own-turn/"' in section


def test_a_wrong_press_shows_the_engines_penalty(client, content):
    frames = frames_of(client.get("/en/learn/snap-by-anyone/").content.decode())
    at_match = frames[1]
    assert at_match["expects"] == "snap"
    wrong = at_match["branches"]["snap_pot"]
    assert wrong["events"] == [
        f"Wrong call! {isolate('Chloe')} gives a penalty card to {isolate('Ben')}."
    ]
    # The wrong word (R14 D); the card goes to the player who has just played (R13).
    assert wrong["outcome"] == "mistake"
    assert [c["id"] for c in wrong["clauses"]] == ["R14", "R13"]
    chloe = wrong["table"]["players"][2]
    assert chloe["face_down"] == frames[1]["table"]["players"][2]["face_down"] - 1


def test_an_unknown_walkthrough_is_a_404(client, content):
    assert client.get("/en/learn/no-such-thing/").status_code == 404


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_rule_links_name_the_rules_section_in_the_pages_language(client, content, lang):
    from django.utils import translation

    from games.models import RulesSection

    with translation.override(lang):
        ties = RulesSection.objects.get(slug="ties-and-snap-pot").title
    html = client.get(f"/{lang}/learn/tie/").content.decode()
    links = [link for frame in frames_of(html) for link in frame["clauses"]]
    assert {"id": "R9", "section": ties} in [
        {k: link[k] for k in ("id", "section")} for link in links
    ]
    assert f'#ties-and-snap-pot">{ties} (<bdi>R9</bdi>)</a>' in html
