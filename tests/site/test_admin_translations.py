"""The admin shows the English beside each translation and records what it was made from."""

import re

import pytest
from django.contrib.auth import get_user_model

from games.content.files import fingerprint
from games.models import GlossaryEntry, RulesSection

FIVE = ("ms", "mr", "he", "ta", "hr")


@pytest.fixture
def staff(client, content):
    get_user_model().objects.create_superuser("editor", "editor@example.org", "pw-for-tests")
    client.login(username="editor", password="pw-for-tests")
    return client


def change_url(unit) -> str:
    return f"/en/admin/games/{unit._meta.model_name}/{unit.pk}/change/"


def help_text(html: str, field: str) -> str:
    match = re.search(rf'id="id_{field}_helptext">\s*<div>(.*?)</div>\s*</div>', html, re.S)
    assert match, field
    return match.group(1)


def form_data(unit, **changes) -> dict:
    data = {"slug": unit.slug, "order": unit.order}
    if isinstance(unit, RulesSection):
        data["clauses"] = unit.clauses
    for field in unit.text_fields():
        for lang in ("en", *FIVE):
            data[f"{field}_{lang}"] = getattr(unit, f"{field}_{lang}")
    data.update(changes)
    return data


def test_the_change_page_shows_the_english_beside_each_translation_and_marks_stale_ones(staff):
    entry = GlossaryEntry.objects.get(slug="tie")
    english = fingerprint(entry.term_en, entry.definition_en)
    for lang in FIVE:
        setattr(entry, f"source_{lang}", english)
    entry.source_he = fingerprint("Tie", "An older English definition.")
    entry.save()
    html = staff.get(change_url(entry)).content.decode()
    for lang in FIVE:
        beside = help_text(html, f"definition_{lang}")
        assert 'class="english-source" lang="en" dir="ltr"' in beside
        assert entry.definition_en.split(",")[0] in beside
        assert ("translation-stale" in beside) == (lang == "he"), lang
    assert f'name="english_seen" value="{english}"' in html


def test_the_list_says_which_translations_need_checking(staff):
    GlossaryEntry.objects.update(
        source_ms="", source_mr="", source_he="", source_ta="", source_hr=""
    )
    entry = GlossaryEntry.objects.get(slug="tie")
    current = fingerprint(entry.term_en, entry.definition_en)
    GlossaryEntry.objects.filter(pk=entry.pk).update(
        source_ms=current, source_mr=current, source_he=current, source_hr=current,
        source_ta=fingerprint("Tie", "An older English definition."),
    )  # fmt: skip
    html = staff.get("/en/admin/games/glossaryentry/").content.decode()
    row = next(r for r in html.split("<tr") if f"/glossaryentry/{entry.pk}/change/" in r)
    assert "ta: stale" in row
    assert "ms:" not in row


def test_saving_a_translation_records_the_english_shown_not_a_later_one(staff):
    section = RulesSection.objects.get(slug="goal")
    html = staff.get(change_url(section)).content.decode()
    shown = re.search(r'name="english_seen" value="([0-9a-f]+)"', html).group(1)
    assert shown == section.english_fingerprint()
    before_ms = section.source_ms

    # Meanwhile another editor changes the English.
    RulesSection.objects.filter(pk=section.pk).update(body_en="Win every card in the deck.")
    section.refresh_from_db()

    data = form_data(section, body_ta="எல்லாச் சீட்டுகளையும் வெல்லுங்கள்.", english_seen=shown)
    response = staff.post(change_url(section), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    section.refresh_from_db()
    assert section.body_ta == "எல்லாச் சீட்டுகளையும் வெல்லுங்கள்."
    assert section.source_ta == shown
    assert section.translation_state("ta") == "stale"  # made from the English shown, since changed
    assert section.source_ms == before_ms  # untouched language, untouched record


def test_ticking_still_matches_records_an_unchanged_translation(staff):
    section = RulesSection.objects.get(slug="players")
    RulesSection.objects.filter(pk=section.pk).update(source_hr="", source_mr="")
    section.refresh_from_db()
    shown = section.english_fingerprint()
    response = staff.post(
        change_url(section), form_data(section, english_seen=shown, still_current=["hr"])
    )
    assert response.status_code == 302
    section.refresh_from_db()
    assert section.source_hr == shown
    assert section.translation_state("hr") == "current"
    assert section.source_mr == ""  # not ticked, not edited: still no record


def test_a_form_that_lost_the_english_it_showed_saves_nothing(staff):
    section = RulesSection.objects.get(slug="goal")
    data = form_data(section, body_hr="Osvojite sve karte, baš sve.", english_seen="")
    response = staff.post(change_url(section), data)
    assert response.status_code == 200
    assert "lost track of the English" in response.content.decode()
    section.refresh_from_db()
    assert section.body_hr != "Osvojite sve karte, baš sve."
