"""The tests stand where the code they test stands (docs/architecture.md, "Tests"): a
folder of ``tests/`` is named after a folder of ``games/``, or after one of the
project's own top-level folders, so a newcomer finds a module's tests by its path."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Folders of tests that are not named after a folder of ``games/``: the project's
#: top-level folders, ``games/``' own modules and the shared templates (``site``), and
#: the house itself (``layout``).
OWN_FOLDERS = {"snapsite", "deploy", "locale", "site", "layout"}


def test_every_folder_of_tests_is_named_after_a_folder_of_the_code():
    code_folders = {p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists()}
    test_folders = {
        p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name != "__pycache__"
    }
    strays = sorted(test_folders - code_folders - OWN_FOLDERS)
    assert strays == [], f"folders of tests named after no folder of the code: {strays}"
    for name in OWN_FOLDERS - {"site", "layout"}:
        assert (ROOT / name).is_dir(), name


def test_no_test_file_stands_at_the_top_of_the_tests():
    loose = sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))
    assert loose == []
