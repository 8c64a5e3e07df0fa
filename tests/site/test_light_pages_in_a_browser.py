"""Light and steady pages in Chromium: a Tamil page fetches no Hebrew font (nor a Hebrew
page a Tamil one), a first visit stays under 150 KiB on the site as `make run` serves
it, the favicon answers, and the walkthrough, replay and quiz players start without
moving what is shown (layout shifts summed by a PerformanceObserver) on a phone."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browsers import ROOT, free_port, store_finished_game

pytestmark = pytest.mark.browser

FIRST_VISIT_LIMIT = 150 * 1024
CLS_LIMIT = 0.05
PHONE = {"width": 360, "height": 640}

#: Sums every layout shift not caused by input, from the page's first moment.
LAYOUT_SHIFTS = """
window.__shifts = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts += entry.value;
}).observe({ type: "layout-shift", buffered: true });
"""


@pytest.fixture(scope="module")
def finished(site_url, site_env):
    return store_finished_game(site_env, {0: "Ana", 1: "கவின்"})


@pytest.fixture(scope="module")
def run_site(site_url, site_env, tmp_path_factory):
    """The site as `make run` serves it (snapsite.serve: debug off, static files
    gathered under hashed names and compressed), on the browser tests' database."""
    folder = tmp_path_factory.mktemp("run-site")
    port = free_port()
    env = {
        **site_env,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "STATIC_ROOT": str(folder / "static"),
        "CACHE_DIR": str(folder / "cache"),
    }
    env.pop("PLAIN_STATIC", None)
    log_path = folder / "serve.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "snapsite.serve", "--port", str(port)],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 600  # collectstatic first: minutes on a busy machine
        try:
            while True:
                try:
                    urllib.request.urlopen(f"{url}/favicon.ico", timeout=5).read()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(Path(log_path).read_text()) from None
                    time.sleep(0.5)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)


def fetched_fonts(chromium, url: str) -> list[str]:
    """The font files a fresh browser fetches for the page at `url`."""
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    fonts: list[str] = []
    page.on("request", lambda r: "/fonts/" in r.url and fonts.append(r.url.rsplit("/", 1)[-1]))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    context.close()
    return fonts


@pytest.mark.parametrize(
    ("path", "own", "others"),
    [
        ("/ta/rules/", "tamil", ("hebrew", "devanagari", ".ttf")),
        ("/ta/learn/first-turns/", "tamil", ("hebrew", "devanagari", ".ttf")),
        ("/he/glossary/", "hebrew", ("tamil", "devanagari", ".ttf")),
        # the sheet builder lists the six languages, each in its own script
        ("/en/teach/", "latin", ("hebrew", "tamil", "devanagari", ".ttf")),
    ],
)
def test_a_page_fetches_only_its_own_scripts_fonts(chromium, site_url, path, own, others):
    fonts = fetched_fonts(chromium, site_url + path)
    assert any(own in f for f in fonts), fonts  # the test does see the fonts
    assert any("latin" in f for f in fonts), fonts
    assert not [f for f in fonts if any(o in f for o in others)], fonts


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_a_first_visit_transfers_under_150_kib(chromium, run_site, finished, lang):
    context = chromium.new_context(viewport=PHONE)
    try:
        for path in (f"/{lang}/", f"/{lang}/learn/first-turns/", f"/{lang}/replay/{finished}/"):
            page = context.new_page()
            page.goto(run_site + path)
            page.wait_for_load_state("networkidle")
            entries = page.evaluate(
                "performance.getEntriesByType('resource').concat("
                "performance.getEntriesByType('navigation'))"
                ".map(e => [e.name, e.transferSize])"
            )
            total = sum(size for _name, size in entries)
            assert 10_000 < total <= FIRST_VISIT_LIMIT, (path, total, entries)
            page.close()
            context.clear_cookies()
            # a new context next time: nothing cached from this page
            context.close()
            context = chromium.new_context(viewport=PHONE)
    finally:
        context.close()


def test_the_favicon_answers_on_a_first_visit(chromium, run_site):
    context = chromium.new_context()
    page = context.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(run_site + "/en/")
    response = page.request.get(run_site + "/favicon.ico")
    assert response.status == 200
    assert response.headers["content-type"] == "image/vnd.microsoft.icon"
    page.wait_for_load_state("networkidle")
    assert not errors
    context.close()


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_players_and_quiz_start_without_moving_what_is_shown(chromium, site_url, finished, lang):
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(LAYOUT_SHIFTS)
    try:
        pages = {
            "walkthrough": (f"/{lang}/learn/first-turns/", ".player:not([hidden]) .seat"),
            "replay": (f"/{lang}/replay/{finished}/", ".player:not([hidden]) .seat"),
            "quiz": (f"/{lang}/teach/quiz/?seed=4", "#quiz-app:not([hidden]) .seat"),
        }
        for kind, (path, drawn) in pages.items():
            page = context.new_page()
            page.goto(site_url + path)
            page.locator(drawn).first.wait_for()
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(500)  # a shift is reported after the frame it happened in
            shifts = page.evaluate("window.__shifts")
            assert shifts <= CLS_LIMIT, (kind, lang, shifts)
            page.close()
    finally:
        context.close()
