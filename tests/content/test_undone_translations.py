"""`undone_translations` finds a mended text that a merge took back, in a real git
history, and leaves alone a text a commit changed back on purpose."""

import subprocess
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

CATALOG = "locale/ms/LC_MESSAGES/django.po"


def po(**texts: str) -> str:
    entries = "".join(f'\nmsgid "{msgid}"\nmsgstr "{text}"\n' for msgid, text in texts.items())
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    return header + entries


@pytest.fixture
def history(tmp_path):
    """main: the first catalog, a review mends "Your first name", a commit changes "Seat"
    and another changes it back on purpose; side (from the first commit) translates
    "Play"; the merge takes side's whole catalog."""

    def git(*args):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
            cwd=tmp_path,
            check=True,
            capture_output=True,
        )

    def commit(message, **texts):
        path = tmp_path / CATALOG
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(po(**texts), encoding="utf-8")
        git("add", "-A")
        git("commit", "-q", "-m", message)

    git("init", "-q", "-b", "main")
    first = dict(Your_first_name="Nama pertama kamu", Seat="Tempat", Play="Main")
    commit("first", **first)
    git("branch", "side")
    commit("review", **{**first, "Your_first_name": "Nama panggilan kamu"})
    commit("seat", **{**first, "Your_first_name": "Nama panggilan kamu", "Seat": "Kerusi"})
    commit("seat back", **{**first, "Your_first_name": "Nama panggilan kamu"})
    git("checkout", "-q", "side")
    commit("play", **{**first, "Play": "Bermain"})
    git("checkout", "-q", "main")
    git("merge", "-q", "--no-commit", "-s", "ours", "side")
    git("checkout", "side", "--", CATALOG)  # the whole catalog from one side
    git("commit", "-q", "-m", "merge side")
    return tmp_path


def test_a_mended_text_a_merge_took_back_is_listed_with_its_commit(history):
    out = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("undone_translations", repo=str(history), stdout=out)
    assert exit_.value.code == 1
    text = out.getvalue()
    assert "ms/django.po: 'Your_first_name'" in text
    assert "review" in text
    assert "made it: Nama panggilan kamu" in text
    assert "now:     Nama pertama kamu" in text
    assert "1 translation(s) changed back" in text
    # changed back on purpose by a commit, and changed on one branch only: not listed
    assert "'Seat'" not in text and "'Play'" not in text


def test_since_a_revision_only_reads_the_changes_after_it(history):
    out = StringIO()
    call_command("undone_translations", repo=str(history), since="main~1", stdout=out)
    assert "No translation is back" in out.getvalue()


def test_a_folder_outside_git_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="Cannot read the history"):
        call_command("undone_translations", repo=str(tmp_path))


def test_the_project_has_no_translation_taken_back():
    out = StringIO()
    call_command("undone_translations", stdout=out)
    assert "No translation is back" in out.getvalue()
