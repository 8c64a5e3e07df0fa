"""A real site for browser tests (a pytest plugin that tests/conftest.py loads): the
site's server (uvicorn, as `make run` starts it) serving a file-based SQLite database
in its own process, and Debian's Chromium driven by Playwright."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from snapsite.serve import server_command

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
SCREENSHOTS = ROOT / "test-output" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def site_env(tmp_path_factory):
    """The environment the site under test runs in (its own SQLite file): a
    ``manage.py`` command run with it works on the site's database."""
    workdir = tmp_path_factory.mktemp("site")
    return {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{workdir / 'browser.sqlite3'}",
        "REDIS_URL": "",
        # every browser test comes from 127.0.0.1: the per-address limit of open tables
        # (tested in tests/tables/test_table_limits.py) would count them all together
        "TABLES_OPEN_PER_ADDRESS": "100000",
        "CLASS_TABLES_OPEN_PER_ADDRESS": "100000",
    }


@contextlib.contextmanager
def served(env: dict, log_path: Path):
    """The site's server with ``env`` on a free local port, until the block ends:
    yields its address once a page answers."""
    port = free_port()
    log = open(log_path, "w")
    server = subprocess.Popen(
        server_command("127.0.0.1", port),
        env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{url}/en/", timeout=2).read()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(f"the server did not start: {log_path.read_text()}") from None
            time.sleep(0.2)
    try:
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def site_url(site_env):
    """Migrate and load a fresh SQLite file, then serve it."""
    workdir = Path(site_env["DATABASE_URL"].removeprefix("sqlite:///")).parent
    for command in (["migrate", "--noinput", "-v", "0"], ["load_content"]):
        manage(site_env, *command)
    with served(site_env, workdir / "server.log") as url:
        yield url


def manage(env: dict, *command: str) -> str:
    """Run a ``manage.py`` command on the site under test (``env``: ``site_env``);
    return what it printed."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *command],
        env=env, cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout


def store_finished_game(env: dict, names: dict[int, str]) -> str:
    """Store a finished game of three (seed 2; the typed ``names`` by seat, a computer
    player on the others) in the served site's database; return its table code."""
    code = (
        "from tests.replay.replay_helpers import store_game; "
        f"print(store_game(players=3, seed=2, names={names!r}))"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def table_made(env: dict, call: str) -> str:
    """A table made in the served site's database by ``call`` (Python source calling
    ``tables``; ``BotLevel``, ``Options`` and ``stacked_deck`` at hand); return its code."""
    code = (
        "from games import tables; from games.engine import BotLevel, Options; "
        "from tests.tables.helpers import stacked_deck; "
        f"print({call})"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def loaded(page) -> None:
    """Wait until the page that a click or a key opened has loaded whole, its styles and
    fonts too. Call it once an element of the new page has shown: what the server wrote
    shows before its styles have loaded (a click waits for no load), and a busy machine
    measured such pages half styled (a sheet's columns out of place, a form wider than
    a phone). ``wait_for_url`` waits for the load already; a page's own scripts run only
    once its styles have loaded."""
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready.then(() => true)")


def join_by_code(page, url: str, lang: str, code: str, name: str, done=()) -> None:
    """A player types the code on the lobby of their language, then a name; ``done``:
    walkthroughs this device has finished (as walkthrough.js marks them)."""
    page.goto(f"{url}/{lang}/play/")
    for slug in done:
        page.evaluate("slug => localStorage.setItem('snap-walkthrough-done:' + slug, '1')", slug)
    page.locator("#join_code").fill(code.lower())
    page.locator("#join_code").press("Enter")
    page.wait_for_url(f"**/{lang}/play/{code}/")
    page.locator("#join-name").fill(name)
    page.locator("#join-name").press("Enter")
    page.locator(".seat.learner").wait_for()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
