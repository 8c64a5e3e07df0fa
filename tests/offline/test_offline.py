"""The site without a network, in Chromium against the site's own server (a service
worker needs a real one; http://127.0.0.1 counts as a secure address): a Tamil tablet
keeps the walkthroughs and finishes one offline, pressing and being answered; the
rules read offline in Hebrew; the lobby says it needs the network and comes back by
itself; a new version of the site replaces what a device kept."""

from __future__ import annotations

import contextlib
import re
import urllib.request
from pathlib import Path

import pytest

from tests.servers import free_port, start_site_server

pytestmark = [pytest.mark.browser, pytest.mark.server]

SHOTS = Path("/tmp/shots-offline")
TAMIL = re.compile(r"[\u0b80-\u0bff]")
HEBREW = re.compile(r"[\u0590-\u05ff]")


@contextlib.contextmanager
def serving(env: dict, port: int, log_path: Path, **settings: str):
    """The site on 127.0.0.1:``port`` with ``settings`` added to ``env``, until the
    block ends (the same port again gives the same origin: the same service worker)."""
    with open(log_path, "a") as log:
        server = start_site_server({**env, **settings}, port, log)
        url = f"http://127.0.0.1:{port}"
        try:
            urllib.request.urlopen(f"{url}/en/", timeout=10).read()
            yield url
        finally:
            server.terminate()
            server.wait(timeout=10)


@pytest.fixture
def site(site_url, site_env, tmp_path):
    """A server of its own for the test (site_url has migrated and loaded the database):
    a fresh origin, so no service worker or kept page comes from another test."""
    with serving(site_env, free_port(), tmp_path / "server.log") as url:
        yield url


@pytest.fixture
def device(chromium):
    contexts = []

    def open_page(*, lang: str, size=(768, 1024)):
        context = chromium.new_context(
            viewport={"width": size[0], "height": size[1]}, locale=lang, has_touch=True
        )
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield open_page
    for context in contexts:
        context.close()


def kept(page) -> None:
    """Wait until the service worker runs this page and has kept what it loaded."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
    page.wait_for_function("() => document.documentElement.dataset.kept === 'true'", timeout=15000)


def cache_names(page) -> list[str]:
    return page.evaluate("caches.keys()")


def finish_walkthrough(page, *, wrong_first: bool = True) -> list[str]:
    """Step through the walkthrough on screen to its end, each expected press pressed
    (after a wrong one the first time, answered and tried again); the notes seen."""
    notes = []
    for _ in range(60):
        if page.is_visible("#finished"):
            return notes
        expected = page.locator(".play-buttons .move.expected")
        if expected.count():
            kind = expected.get_attribute("data-press")
            if wrong_first:
                other = next(k for k in ("turn", "snap", "snap_pot") if k != kind)
                page.locator(f'[data-press="{other}"]').click()
                page.wait_for_timeout(450)  # a tap right after a change is ignored
                note = page.locator("#narration .note")
                if note.count():
                    notes.append(note.first.inner_text())
                retry = page.locator('[data-step="retry"]:visible, [data-step="example"]:visible')
                if retry.count():
                    retry.first.click()
                    page.wait_for_timeout(450)
                wrong_first = False
            page.locator(f'[data-press="{kind}"]').click()
        else:
            page.locator('[data-step="next"]').click()
        page.wait_for_timeout(450)
    raise AssertionError("the walkthrough never ended")


def test_a_tamil_tablet_keeps_the_walkthroughs_and_finishes_one_without_a_network(site, device):
    page = device(lang="ta")
    page.goto(f"{site}/ta/learn/")
    kept(page)
    button = page.locator('[data-action="keep-offline"]')
    assert TAMIL.search(button.inner_text())
    button.click()
    page.wait_for_selector(".keep-offline[data-kept=true]", timeout=60000)
    status = page.inner_text(".keep-offline-status")
    assert "11" in status and TAMIL.search(status), status
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "learn-kept-ta-768x1024.png"))

    page.context.set_offline(True)
    page.goto(f"{site}/ta/learn/tie/?step=1")
    page.wait_for_selector(".player:not([hidden])")
    assert TAMIL.search(page.inner_text("#narration"))
    # the page's styles came from the kept copy too
    radius = "getComputedStyle(document.querySelector('.button')).borderRadius"
    assert page.evaluate(radius) != "0px"
    notes = finish_walkthrough(page)
    assert notes and TAMIL.search(notes[0]), notes  # the engine's answer, in Tamil
    assert page.is_visible("#finished")
    page.screenshot(path=str(SHOTS / "walkthrough-offline-ta-768x1024.png"))
    # every walkthrough of the language opens, not only those opened before
    for slug in ("snap-pot", "snap-by-anyone"):
        page.goto(f"{site}/ta/learn/{slug}/")
        page.wait_for_selector(".player:not([hidden])")
        assert TAMIL.search(page.inner_text("h1"))
    assert page.errors == []


def test_the_rules_read_offline_in_hebrew(site, device):
    page = device(lang="he", size=(360, 640))
    page.goto(f"{site}/he/rules/")
    kept(page)
    page.context.set_offline(True)
    page.goto(f"{site}/he/rules/")
    assert page.evaluate("document.documentElement.lang") == "he"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.locator(".rules-section").count() > 5
    assert HEBREW.search(page.inner_text(".rules-section h2 >> nth=0"))
    assert page.evaluate("document.fonts.check('16px \"Snap Hebrew\"', 'א')")
    # a page never opened: the offline page, in Hebrew, with the kept ones to read
    page.goto(f"{site}/he/glossary/")

    assert HEBREW.search(page.inner_text("h1"))
    assert page.locator(".offline-links a").count() == 4
    page.screenshot(path=str(SHOTS / "offline-page-he-360x640.png"), full_page=True)
    assert page.errors == []


def test_the_lobby_says_it_needs_the_network_and_comes_back_by_itself(site, device):
    page = device(lang="ta", size=(1280, 720))
    page.goto(f"{site}/ta/play/")
    kept(page)
    note = page.locator(".network-note")
    assert not note.is_visible()
    page.context.set_offline(True)
    note.wait_for(state="visible")
    assert TAMIL.search(note.inner_text())
    page.screenshot(path=str(SHOTS / "lobby-offline-ta-1280x720.png"))
    page.reload()  # opened again without a network: the offline page, at the same address
    assert page.url.endswith("/ta/play/")
    assert page.locator("body[data-network=retry]").count() == 1
    assert TAMIL.search(page.inner_text("h1"))
    page.context.set_offline(False)  # and back by itself, with no press
    page.wait_for_selector("#join_code", timeout=15000)
    assert not page.locator(".network-note").is_visible()
    page.context.set_offline(True)
    page.locator(".network-note").wait_for(state="visible")
    page.context.set_offline(False)
    page.wait_for_load_state()
    page.locator("#join_code").wait_for()
    assert page.errors == []


def test_a_new_version_of_the_site_replaces_the_kept_pages(site_url, site_env, device, tmp_path):
    port = free_port()
    page = device(lang="he", size=(1280, 720))
    with serving(site_env, port, tmp_path / "one.log", SITE_VERSION="one") as url:
        page.goto(f"{url}/he/rules/")
        kept(page)
        assert cache_names(page) == ["snap-one"]
        page.context.set_offline(True)
        page.goto(f"{url}/he/rules/")
        assert page.evaluate("document.body.dataset.siteVersion") == "one"
        page.context.set_offline(False)
    with serving(site_env, port, tmp_path / "two.log", SITE_VERSION="two") as url:
        page.goto(f"{url}/he/")  # any page: the browser finds the new worker
        for _ in range(120):
            if cache_names(page) == ["snap-two"]:
                break
            page.wait_for_timeout(250)
        assert cache_names(page) == ["snap-two"]
        page.context.set_offline(True)
        page.goto(f"{url}/he/rules/")  # kept again by the new version, not opened since
        assert page.evaluate("document.body.dataset.siteVersion") == "two"
        assert page.locator(".rules-section").count() > 5
        assert HEBREW.search(page.inner_text("h1"))
        page.context.set_offline(False)
    assert page.errors == []
