"""On a phone (360x640) a seated child's moves stay where they are, in view: while long
lines come and go in the log, wherever the page is scrolled, and when the page comes
back after a lost connection with the missed lines told again."""

from __future__ import annotations

import pytest

from tests.play.test_out_of_a_practice_game import practice_page
from tests.play.test_trial_paths import MOVES_ON_SCREEN
from tests.site.test_new_pages_access import serious_violations

pytestmark = pytest.mark.browser

SNAP_TOP = """() => Math.round(
  document.querySelector('[data-move=snap]').getBoundingClientRect().top)"""


@pytest.mark.parametrize("lang", ["ta", "he"])
def test_on_a_phone_the_moves_stay_put_in_view(chromium, site_url, site_env, lang):
    page = practice_page(chromium, site_url, site_env, lang=lang, size=(360, 640))
    snap = page.locator("[data-move=snap]")
    snap.wait_for()
    page.wait_for_function("() => !document.querySelector('[data-move=snap]').disabled")
    assert page.evaluate(MOVES_ON_SCREEN) == []
    where = page.evaluate(SNAP_TOP)
    # long lines: each wrong call is told with its rule, two or three lines in Tamil
    for presses in range(1, 4):
        snap.tap()
        page.wait_for_function(
            "(n) => document.querySelectorAll('#told-log .told-wrong_call').length >= n",
            arg=presses,
        )
        assert page.evaluate(MOVES_ON_SCREEN) == [], presses
        assert page.evaluate(SNAP_TOP) == where, presses
    # wherever the page is scrolled, the moves are in the same place
    for y in (0, 10000):
        page.evaluate("(y) => window.scrollTo(0, y)", y)
        page.wait_for_timeout(100)
        assert page.evaluate(MOVES_ON_SCREEN) == [], y
        assert page.evaluate(SNAP_TOP) == where, y
    # the page comes back (a lost connection, the page opened again): the lines missed
    # are told again, and the moves are where they were
    page.reload()
    page.locator(".seat.learner").wait_for(timeout=10000)
    page.wait_for_function("() => document.querySelectorAll('#told-log li').length >= 3")
    page.wait_for_timeout(300)
    assert page.evaluate(MOVES_ON_SCREEN) == []
    assert page.evaluate(SNAP_TOP) == where
    # nothing of the page is hidden for good under the moves: its end scrolls above them
    page.evaluate("() => window.scrollTo(0, 10000)")
    covered = page.evaluate(
        """() => {
          const bar = document.querySelector('.controls').getBoundingClientRect();
          const last = document.querySelector('.player-tools').getBoundingClientRect();
          return last.bottom > bar.top + 0.5;
        }"""
    )
    assert not covered
    assert page.errors == []
    assert serious_violations(page) == []
    page.context.close()
