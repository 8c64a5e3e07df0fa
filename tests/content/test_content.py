import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.content import files as content_files
from games.models import GlossaryEntry, RulesSection, StartStep
from tests.conftest import LANGUAGE_CODES
from tests.content.content_tree import copy_content, make_consistent, untranslate_start

EXPECTED_SECTIONS = [
    "introduction", "players", "deck", "goal", "setup", "play", "ties-and-snap-pot",
    "index-card", "mistakes", "winning", "stuck-pot", "table-rules",
]  # fmt: skip


def test_every_section_and_glossary_entry_has_text_in_all_six_languages(content):
    sections = list(RulesSection.objects.all())
    assert [s.slug for s in sections] == EXPECTED_SECTIONS
    for section in sections:
        for lang in LANGUAGE_CODES:
            assert getattr(section, f"title_{lang}").strip(), (section.slug, lang)
            assert getattr(section, f"body_{lang}").strip(), (section.slug, lang)
    entries = list(GlossaryEntry.objects.all())
    assert len(entries) >= 20
    for entry in entries:
        for lang in LANGUAGE_CODES:
            assert getattr(entry, f"term_{lang}").strip(), (entry.slug, lang)
            assert getattr(entry, f"definition_{lang}").strip(), (entry.slug, lang)


def test_every_glossary_definition_is_one_sentence_as_the_glossary_page_says(content):
    # "The 31 words of the game, each in one sentence."
    # (games/rules/templates/rules/glossary.html)
    for entry in GlossaryEntry.objects.all():
        for lang in LANGUAGE_CODES:
            definition = getattr(entry, f"definition_{lang}")
            unquoted = re.sub(r"[“„\"][^”“\"]*[”\"]", "…", definition)  # “Snap!” is a word
            assert not re.search(r"[.!?]\s+\S", unquoted), (entry.slug, lang, definition)


def test_every_clause_of_the_rules_is_explained_by_some_section():
    shape = content_files.load_shape()
    covered = {c for s in shape.sections for c in s.clauses}
    assert covered == {f"R{n}" for n in range(1, 24)}


def test_languages_are_not_copies_of_english():
    shape = content_files.load_shape()
    english = content_files.load_language("en", shape)
    for lang in LANGUAGE_CODES[1:]:
        other = content_files.load_language(lang, shape)
        for slug, entry in other["sections"].items():
            assert entry["body"] != english["sections"][slug]["body"], (lang, slug)


def test_loading_content_twice_updates_in_place(content):
    section = RulesSection.objects.get(slug="goal")
    section.title_en = "Edited by staff"
    section.save()
    call_command("load_content", stdout=None)
    assert RulesSection.objects.count() == len(EXPECTED_SECTIONS)
    assert RulesSection.objects.get(slug="goal").title_en != "Edited by staff"


def test_a_broken_content_file_changes_nothing(content, tmp_path, settings):
    directory = copy_content(tmp_path)
    broken = (directory / "hr.toml").read_text(encoding="utf-8").replace("[sections.goal]", "[x]")
    (directory / "hr.toml").write_text(broken, encoding="utf-8")
    settings.SNAP_CONTENT_DIR = directory
    before = {s.slug: s.body_hr for s in RulesSection.objects.all()}
    with pytest.raises(CommandError, match="hr.toml"):
        call_command("load_content")
    assert {s.slug: s.body_hr for s in RulesSection.objects.all()} == before


def test_the_start_page_steps_are_loaded_in_all_six_languages(content):
    steps = list(StartStep.objects.all())
    assert [s.slug for s in steps] == ["deal", "turn", "snap", "win", "mistake", "winner"]
    for step in steps:
        for lang in LANGUAGE_CODES:
            assert all(text.strip() for text in step.texts(lang)), (step.slug, lang)


def test_loading_content_records_what_each_translation_was_made_from(content, tmp_path, settings):
    directory = copy_content(tmp_path)
    make_consistent(directory)
    settings.SNAP_CONTENT_DIR = directory
    call_command("load_content", stdout=StringIO())
    section = RulesSection.objects.get(slug="play")
    english = content_files.fingerprint(section.title_en, section.body_en)
    assert [getattr(section, f"source_{lang}") for lang in LANGUAGE_CODES[1:]] == [english] * 5
    assert all(section.translation_state(lang) == "current" for lang in LANGUAGE_CODES)


def test_a_start_step_marked_untranslated_loads_without_a_record(db, tmp_path):
    directory = copy_content(tmp_path)
    untranslate_start(directory, "ta")
    call_command("load_content", "--content-dir", str(directory), stdout=StringIO())
    step = StartStep.objects.get(slug="deal")
    assert step.source_ta == ""
    assert step.translation_state("ta") == "missing"
