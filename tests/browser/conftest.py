"""A real site for browser tests: daphne serving a file-based SQLite
database in its own process, and Debian's Chromium driven by Playwright."""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]
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
        # (tested in tests/pages/test_table_limits.py) would count them all together
        "TABLES_OPEN_PER_ADDRESS": "100000",
        "CLASS_TABLES_OPEN_PER_ADDRESS": "100000",
    }


@contextlib.contextmanager
def served(env: dict, log_path: Path):
    """daphne serving the site with ``env`` on a free local port, until the block ends:
    yields its address once a page answers."""
    port = free_port()
    log = open(log_path, "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "snapsite.asgi:application"],
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
                raise RuntimeError(f"daphne did not start: {log_path.read_text()}") from None
            time.sleep(0.2)
    try:
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def site_url(site_env):
    """Migrate and load a fresh SQLite file, then serve it with daphne."""
    workdir = Path(site_env["DATABASE_URL"].removeprefix("sqlite:///")).parent
    for command in (["migrate", "--noinput", "-v", "0"], ["load_content"]):
        manage(site_env, *command)
    with served(site_env, workdir / "daphne.log") as url:
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
        "from tests.pages.replay_helpers import store_game; "
        f"print(store_game(players=3, seed=2, names={names!r}))"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


@pytest.fixture(scope="session")
def chromium():
    require(
        shutil.which(CHROMIUM) is not None or Path(CHROMIUM).exists(),
        f"Chromium not found at {CHROMIUM} (apt-get install chromium)",
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


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
