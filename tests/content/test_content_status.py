"""`content_status`: what is missing or stale per language, and `--mark`."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.content.files import fingerprint, load_shape, load_sources
from games.models import GlossaryEntry, RulesSection
from tests.content.content_tree import (
    copy_content,
    edit_english,
    make_consistent,
    untranslate_start,
    write_catalogs,
)

ROOT = Path(__file__).resolve().parents[2]
FIVE = ("ms", "mr", "he", "ta", "hr")
SNAP_CASE = ", or two different matches are showing at once,"


@pytest.fixture
def tree(tmp_path):
    directory = copy_content(tmp_path)
    make_consistent(directory)
    return directory, write_catalogs(tmp_path)


def status(directory, locale, *args) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("content_status", *args, content_dir=directory, locale_dir=locale, stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def listed(output: str) -> set[tuple[str, str, str]]:
    """``(lang, state, where)`` for every line of the listing."""
    rows, lang = set(), None
    for line in output.splitlines():
        if not line.startswith(" ") and ":" in line:
            lang = line.split(":", 1)[0]
        elif line.startswith("  "):
            state, where = line.split()[:2]
            rows.add((lang, state, where))
    return rows


def test_content_status_is_clean_on_a_consistent_tree(tree):
    output, error = status(*tree)
    assert error is None, output
    for lang in FIVE:
        assert f"{lang}: everything translated and current" in output
    assert listed(output) == set()


@pytest.mark.server
def test_changing_an_english_unit_reports_the_five_translations_stale(tree):
    directory, locale = tree
    edit_english(directory, "- Anyone can call", "- Everyone may call. Anyone can call")
    result = subprocess.run(
        [sys.executable, "manage.py", "content_status"]
        + ["--content-dir", str(directory), "--locale-dir", str(locale)],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "1"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert listed(result.stdout) == {(lang, "stale", "sections.play") for lang in FIVE}
    assert "5 missing or stale" in result.stderr


def test_a_case_added_to_the_snap_rule_is_reported_in_every_translation(tmp_path):
    # As happened once: the translations were made from an English Snap rule
    # without its second case, and the case was added afterwards.
    directory = copy_content(tmp_path)
    edit_english(directory, SNAP_CASE, ",")
    make_consistent(directory)
    edit_english(
        directory,
        "If more than two face-up piles match,",
        f"If more than two face-up piles match{SNAP_CASE}",
    )
    output, error = status(directory, write_catalogs(tmp_path))
    assert error is not None and error.returncode == 1
    assert listed(output) == {(lang, "stale", "sections.play") for lang in FIVE}


def test_a_change_of_quote_style_or_line_breaks_is_not_a_change_of_wording(tree):
    directory, locale = tree
    edit_english(directory, "call “Snap!”", 'call\n"Snap!"')
    output, error = status(directory, locale)
    assert error is None, output


def test_a_fuzzy_or_empty_catalog_entry_is_reported_missing(tmp_path):
    directory = copy_content(tmp_path / "a")
    make_consistent(directory)
    locale = write_catalogs(tmp_path / "b", fuzzy="Rules", empty="Play in two minutes")
    output, error = status(directory, locale)
    assert error is not None and error.returncode == 1
    assert listed(output) == {("ta", "missing", "django.po"), ("ta", "missing", "djangojs.po")}
    assert "fuzzy: 'Rules'" in output
    assert "empty: 'Play in two minutes'" in output


def test_a_catalog_entry_absent_from_a_language_is_reported_missing(tree):
    directory, locale = tree
    path = locale / "hr" / "LC_MESSAGES" / "djangojs.po"
    path.write_text(path.read_text(encoding="utf-8").split('msgid "Play')[0], encoding="utf-8")
    output, error = status(directory, locale)
    assert listed(output) == {("hr", "missing", "djangojs.po")}
    assert "not in the catalog: 'Play in two minutes'" in output


def test_untranslated_start_steps_are_reported_missing(tmp_path):
    directory = copy_content(tmp_path)
    untranslate_start(directory, "ms")
    shape = load_shape(directory)
    output, error = status(directory, write_catalogs(tmp_path), "--language", "ms")
    assert error is not None
    missing = {where for lang, state, where in listed(output) if state == "missing"}
    assert missing == {f"start.{slug}" for slug in shape.start}


def test_marking_records_the_named_units_against_todays_english(tree):
    directory, locale = tree
    edit_english(directory, "- Anyone can call", "- Everyone may call. Anyone can call")
    out = StringIO()
    call_command("content_status", "sections.play", mark=["ta"], content_dir=directory, stdout=out)
    assert "sections.play" in out.getvalue()
    output, _error = status(directory, locale)
    assert listed(output) == {(lang, "stale", "sections.play") for lang in FIVE if lang != "ta"}


def test_bad_units_or_languages_mark_nothing(tree):
    directory, _locale = tree
    edit_english(directory, "- Anyone can call", "- Everyone may call. Anyone can call")
    before = {p.name: p.read_bytes() for p in (directory / "sources").glob("*.toml")}
    for units, langs, message in (
        (["sections.play", "sections.nowhere"], ["ta"], "not a unit"),
        (["index-card"], ["ta"], "ambiguous"),
        (["sections.play"], ["ta", "fr"], "not a translated language"),
        (["sections.play"], ["en"], "not a translated language"),
    ):
        with pytest.raises(CommandError, match=message):
            call_command(
                "content_status", *units, mark=langs, content_dir=directory, stdout=StringIO()
            )
    assert {p.name: p.read_bytes() for p in (directory / "sources").glob("*.toml")} == before


def test_a_unit_still_in_english_cannot_be_marked_translated(tmp_path):
    directory = copy_content(tmp_path)
    untranslate_start(directory, "he")
    with pytest.raises(CommandError, match="still the English text"):
        call_command(
            "content_status", "start.deal", mark=["he"], content_dir=directory, stdout=StringIO()
        )
    # Marking a whole language skips the copies instead of recording them.
    call_command("content_status", mark=["he"], content_dir=directory, stdout=StringIO())
    assert load_sources("he", load_shape(directory), directory)["start.deal"] == ""


def test_the_database_is_checked_with_the_database_option(db, tree, settings):
    directory, locale = tree
    settings.SNAP_CONTENT_DIR = directory
    call_command("load_content", stdout=StringIO())
    output, error = status(directory, locale, "--database")
    assert error is None, output
    assert "Content read from: database" in output

    # Staff edit the English of one glossary entry in the admin: every translation is stale.
    entry = GlossaryEntry.objects.get(slug="turn")
    entry.definition_en = "The moment when you turn over one card."
    entry.save()
    section = RulesSection.objects.get(slug="goal")
    section.body_mr = ""
    section.save()
    output, error = status(directory, locale, "--database")
    assert error is not None
    expected = {(lang, "stale", "glossary.turn") for lang in FIVE}
    assert listed(output) == expected | {("mr", "missing", "sections.goal")}
    # The files are unchanged, so the default check is still clean.
    assert status(directory, locale)[1] is None


def test_a_sources_record_that_is_not_a_fingerprint_is_a_clear_error(tree):
    directory, locale = tree
    path = directory / "sources" / "hr.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            f'play = "{load_sources("hr", load_shape(directory), directory)["sections.play"]}"',
            'play = "yesterday"',
        ),
        encoding="utf-8",
    )
    output, error = status(directory, locale)
    assert error is not None and "sections.play is not a fingerprint" in str(error)


def test_fingerprints_follow_the_english_wording_only():
    assert fingerprint("Tie", "Two “calls”.") == fingerprint("Tie", 'Two\n  "calls".')
    assert fingerprint("Tie", "Two calls.") != fingerprint("Tie", "Three calls.")
    assert fingerprint("Tie", "Two calls.") != fingerprint("Tie Two", "calls.")
