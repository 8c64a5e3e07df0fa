"""Shared fixtures: loaded content, the rule for optional components, and the marks
that say what a test needs.

On a laptop a test that needs Chromium, Redis or PostgreSQL may skip with a
reason; in CI (CI=true) it must fail instead, so a missing part is noticed.

The marks (declared in pyproject.toml) sort the tests into tiers: ``make test-fast``
runs the tests that carry none of ``browser``, ``server``, ``postgres``, ``redis``.
A test gets a mark from the fixtures it uses (:data:`MARKS_BY_FIXTURE`) or carries
it itself; a test that starts a Python process without the ``server`` mark fails, so
the quick tier stays quick.

Under pytest-xdist each worker keeps its own state: its file cache
(snapsite/test_settings.py), its SQLite test database and temporary folders
(pytest-django and pytest), and its Redis databases (:func:`redis_test_url`).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

#: The site's server and Chromium's pages for the browser tests, in whichever folder
#: they stand (tests mirror the code's folders, not the tools they use).
pytest_plugins = ["tests.browsers"]

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
LANGUAGE_CODES = ("en", "ms", "mr", "he", "ta", "hr")

#: The marks a test gets from a fixture it uses (directly or through another fixture).
MARKS_BY_FIXTURE = {
    "chromium": ("browser",),
    "site_url": ("server",),
    "two_servers": ("server",),
    "postgres_database": ("postgres",),
    "redis_layer": ("redis",),
}

#: This process's number among the xdist workers (0 without xdist).
WORKER_INDEX = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
#: The Redis databases the tests write into, two for each worker (0..4 are left to a
#: site on the same Redis, 12 to the benchmarks); past three workers they are shared.
REDIS_TEST_DBS = ((5, 6), (7, 8), (9, 10))


def redis_test_url(slot: int, host: str = "127.0.0.1", port: int = 6379) -> str:
    """The address of this worker's Redis database ``slot`` (0 or 1): the tests of
    two workers do not read each other's keys."""
    if slot not in (0, 1):
        raise ValueError(f"a worker has two Redis databases (0 and 1), not {slot!r}")
    db = REDIS_TEST_DBS[WORKER_INDEX % len(REDIS_TEST_DBS)][slot]
    return f"redis://{host}:{port}/{db}"


def pytest_collection_modifyitems(items):
    for item in items:
        for fixture, marks in MARKS_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()):
                for mark in marks:
                    item.add_marker(mark)


def require(condition: bool, reason: str) -> None:
    """Skip (laptop) or fail (CI) when a component a test needs is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{reason} (required in CI)")
    pytest.skip(reason)


@pytest.fixture
def content(db):
    call_command("load_content", stdout=open(os.devnull, "w"))


@pytest.fixture(scope="session", autouse=True)
def test_database_made_first(request):
    """The test database is made before any test of this process runs, when any of its
    tests needs it: made while a test module's Chromium is open (Playwright's sync API
    keeps an event loop running in the thread), Django would refuse to make it and
    every database test of the process would fail."""
    if any("django_db_setup" in item.fixturenames for item in request.session.items):
        request.getfixturevalue("django_db_setup")


@pytest.fixture(autouse=True)
def no_language_left_active():
    """Each test starts in the default language, whatever an earlier test of this
    process left active (in a parallel run the earlier tests differ from run to run)."""
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_caches():
    """Each test starts with empty caches: a page kept by one test (under a content
    version) must not be served to the next, whose database was rolled back. (The
    default cache is this test process's file cache, shared with the servers its tests
    start: snapsite/test_settings.py.)"""
    from django.core.cache import caches

    from games.content.version import forget

    for alias in ("default", "pages"):
        caches[alias].clear()
    forget()


def starts_python(args) -> bool:
    """Whether a command line (``Popen``'s first argument) runs a Python process."""
    words = args.split() if isinstance(args, str | bytes) else list(args)
    if not words:
        return False
    program = os.fsdecode(words[0])
    return program == sys.executable or Path(program).name.startswith(("python", "daphne"))


@pytest.fixture(autouse=True)
def processes_need_the_server_mark(request, monkeypatch):
    """A test that starts a Python process (a server, ``manage.py``, ``python -c``) must
    carry the ``server`` mark: the quick tier (``make test-fast``) leaves such tests out."""
    if request.node.get_closest_marker("server"):
        return
    start = subprocess.Popen.__init__

    def start_unless_python(self, args, *rest, **options):
        if starts_python(args):
            pytest.fail(
                f"{request.node.nodeid} starts a Python process ({args!r}) but has no "
                "server mark: add @pytest.mark.server (or pytestmark) to it"
            )
        start(self, args, *rest, **options)

    monkeypatch.setattr(subprocess.Popen, "__init__", start_unless_python)


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, one per test module that needs it. Not one per process:
    Playwright's sync API keeps an event loop running in the thread while it is open,
    and Django then refuses the database to the sync tests that follow in the same
    process ("You cannot call this from an async context"); closed with the module, it
    leaves none behind. (Two Playwright sync instances on one thread refuse to start.)"""
    from tests.browsers import CHROMIUM, CHROMIUM_ARGS

    require(
        shutil.which(CHROMIUM) is not None or Path(CHROMIUM).exists(),
        f"Chromium not found at {CHROMIUM} (apt-get install chromium)",
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
