"""A child out of a practice game (no cards left, RULES R16) while the computer players
play on: told at once, where the moves were, with "Play again" (the same game, one
press) and "Watch to the end"; never left reading "You play as …"."""

from __future__ import annotations

import re
import time

import pytest

from tests.browsers import manage
from tests.play.test_device_table import new_session, refused
from tests.play.test_trial_paths import MOVES_ON_SCREEN
from tests.site.test_new_pages_access import serious_violations

pytestmark = pytest.mark.browser

#: The out box and each of its buttons wholly in the window, as the page left it.
OUT_BOX_ON_SCREEN = """() => [...document.querySelectorAll('#out-box, #out-box .button')]
  .map((b) => {
    const r = b.getBoundingClientRect();
    const inside = r.width > 0 && r.top >= -0.5 && r.bottom <= innerHeight + 0.5;
    return inside ? null : `${b.id || b.textContent.trim()} at ${r.top | 0}..${r.bottom | 0}`;
  })
  .filter(Boolean)"""


def practice_page(chromium, site_url, site_env, *, lang: str, size: tuple[int, int]):
    """A practice table (Ana against two beginners) opened as the lobby opens one, and
    its page on a touch screen of ``size``."""
    key = new_session(site_env)
    code = manage(
        site_env, "shell", "-c",
        "from games import tables; from games.engine import BotLevel; "
        f"print(tables.table_create_practice(session_key={key!r}, name='Ana', "
        "levels=[BotLevel.BEGINNER, BotLevel.STEADY]))",
    ).strip().splitlines()[-1]  # fmt: skip
    width, height = size
    context = chromium.new_context(
        viewport={"width": width, "height": height}, has_touch=True, locale=lang
    )
    context.add_cookies([{"name": "sessionid", "value": key, "url": site_url}])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: refused(m.text) and page.errors.append(m.text))
    page.goto(f"{site_url}/{lang}/play/{code}/")
    page.locator(".seat.learner").wait_for(timeout=10000)
    page.code = code
    return page


def go_out(page) -> None:
    """Ana calls "Snap!" before any card is turned, again and again: each wrong call pays
    one of her cards (RULES R13, R14 (D)), until she has none."""
    snap = page.locator('[data-move="snap"]')
    deadline = time.monotonic() + 60
    while not page.locator("#out-box").is_visible():
        assert time.monotonic() < deadline, "Ana never went out"
        if snap.is_visible() and snap.is_enabled():
            snap.tap()
        page.wait_for_timeout(200)


def test_a_practice_child_who_goes_out_is_told_and_can_play_again_at_once(
    chromium, site_url, site_env
):
    page = practice_page(chromium, site_url, site_env, lang="en", size=(360, 640))
    go_out(page)
    # told at once, in view, where the moves were; the moves are gone
    assert page.locator("#out-text").inner_text() == (
        "You have no cards left: you are out of this game."
    )
    assert page.evaluate(OUT_BOX_ON_SCREEN) == []
    assert not page.locator('[data-move="snap"]').is_visible()
    status = page.locator("#table-status").inner_text()
    assert "You play as" not in status and "out of this game" in status, status
    page.wait_for_function("() => document.activeElement.id === 'out-text'", timeout=5000)
    assert not page.locator("#finished").is_visible()  # the computers play on
    assert page.errors == []  # before axe, whose own inline styles the CSP refuses
    assert serious_violations(page) == []
    page.errors.clear()
    # "Play again": the same game at a new table, at once, seated, with its moves on screen
    page.locator("#out-box").get_by_role("button", name="Play again").tap()
    page.wait_for_url(lambda url: page.code not in url)
    assert re.search(r"/en/play/[A-Z0-9]{6}/$", page.url), page.url
    page.locator(".seat.learner").wait_for(timeout=10000)
    assert page.locator(".seat").count() == 3
    assert "Ana" in page.locator(".seat.learner").inner_text()
    assert page.evaluate(MOVES_ON_SCREEN) == []
    assert not page.locator("#out-box").is_visible()
    assert page.errors == []
    page.context.close()


def test_a_practice_child_who_goes_out_may_watch_to_the_end(chromium, site_url, site_env):
    page = practice_page(chromium, site_url, site_env, lang="he", size=(768, 1024))
    go_out(page)
    assert page.locator("#out-text").inner_text() == "לא נשארו לכם קלפים, ולכן אתם מחוץ למשחק הזה."
    page.locator("#out-box").get_by_role("button", name="לצפות עד הסוף").tap()
    assert not page.locator("#out-box").is_visible()
    # still told why there is nothing to press, while the computers play on
    status = page.locator("#table-status").inner_text()
    assert "לא נשארו לכם קלפים" in status, status
    before = page.locator("#told-log li").first.inner_text()
    page.wait_for_function(
        "(before) => document.querySelector('#told-log li').textContent !== before",
        arg=before,
        timeout=15000,
    )
    assert not page.locator("#out-box").is_visible()
    assert page.errors == []
    page.context.close()
