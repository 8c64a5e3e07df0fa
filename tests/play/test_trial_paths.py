"""The paths of the browser trial (../shared/reviews/round2/trial.md), walked again in
real browsers against the site's server: two friends with the lobby's seats start and finish a
game; a child who joins by code has the moves on screen at the three classroom sizes;
a lost connection is told at once and the stand-in is named; a Snap! pressed just after
the screen changed is judged on the screen before (RULES R9 (D)); keys work on a Hebrew
layout; an English teacher makes a Hebrew + Tamil sheet; a shared link opens in the
device's language; axe finds nothing serious on a live table with a full log."""

from __future__ import annotations

import re
import time

import pytest

from tests.browsers import join_by_code, store_finished_game, table_made
from tests.play.test_live_table import open_table, play_a_little
from tests.site.test_new_pages_access import serious_violations

pytestmark = pytest.mark.browser

SIZES = {"projector": (1280, 720), "tablet": (768, 1024), "phone": (360, 640)}
NAMES = {"en": "Ana", "he": "נועה", "ta": "கவின்", "hr": "Luka", "ms": "Aisyah"}

#: Each move button wholly inside the window, as the page left it (the test never scrolls).
MOVES_ON_SCREEN = """() => [...document.querySelectorAll('[data-move]')]
  .filter((b) => !b.hidden)
  .map((b) => {
    const r = b.getBoundingClientRect();
    const inside = r.width > 0 && r.top >= -0.5 && r.left >= -0.5
      && r.bottom <= innerHeight + 0.5 && r.right <= document.documentElement.clientWidth + 0.5;
    return inside ? null : `${b.dataset.move} at ${r.top | 0}..${r.bottom | 0} of ${innerHeight}`;
  })
  .filter(Boolean)"""


def stored_table(env: dict, **settings: str) -> str:
    """A table made in the served site's database (``settings``: Python keyword source,
    e.g. ``away_after_ms="1500"``); return its code."""
    source = ", ".join(f"{k}={v}" for k, v in settings.items())
    return table_made(env, f"tables.table_create({source})")


def test_two_friends_with_the_lobbys_seats_start_now_and_finish_a_game(chromium, site_url):
    ms = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="ms")
    hr = chromium.new_context(viewport={"width": 768, "height": 1024}, locale="hr")
    aisyah, luka = ms.new_page(), hr.new_page()
    errors: list[str] = []
    for page in (aisyah, luka):
        page.on("pageerror", lambda e: errors.append(str(e)))
    # the lobby's seats and computer players as they are (4 seats, none), a short game
    code = open_table(aisyah, site_url, "ms", "Aisyah", turn_limit=14, turn_timer=0)
    start = aisyah.locator('[data-action="start-now"]')
    assert not start.is_visible()  # alone at the table: nothing to start with
    join_by_code(luka, site_url, "hr", code, "Luka")
    assert not luka.locator('[data-action="start-now"]').is_visible()  # the opener's only
    start.click()
    aisyah.locator(".seat").nth(1).wait_for()
    for page in (aisyah, luka):
        page.wait_for_function("() => document.querySelectorAll('.seat').length === 2")
    assert "2" in aisyah.locator("#told-log li").first.inner_text()  # "…with the 2 players"
    deadline = time.monotonic() + 90
    while not (aisyah.locator("#finished").is_visible() and luka.locator("#finished").is_visible()):
        assert time.monotonic() < deadline, "the game did not end"
        play_a_little(aisyah)
        play_a_little(luka)
        aisyah.wait_for_timeout(150)
    assert {"Aisyah", "Luka"} == set(aisyah.locator(".seat .name").all_inner_texts())
    # the end box links the rules and the walkthroughs, and another game
    links = luka.locator("#finished a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert {"/hr/rules/", "/hr/learn/", "/hr/play/", f"/hr/replay/{code}/"} <= set(hrefs)
    assert errors == []
    ms.close()
    hr.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_a_child_who_joins_by_code_has_the_moves_on_screen(chromium, site_url, lang, size):
    opener_context = chromium.new_context(viewport={"width": 1280, "height": 900})
    opener = opener_context.new_page()
    code = open_table(opener, site_url, "en", "Ms Tan", seats=3, turn_timer=0)
    width, height = SIZES[size]
    context = chromium.new_context(
        viewport={"width": width, "height": height}, locale=lang, has_touch=size != "projector"
    )
    child = context.new_page()
    join_by_code(child, site_url, lang, code, NAMES[lang])
    child.wait_for_timeout(300)  # the scroll, and a relayout when the fonts arrive
    assert child.evaluate(MOVES_ON_SCREEN) == [], (lang, size, "seated")
    opener.locator('[data-action="start-now"]').click()  # the table of three shrinks to two
    child.wait_for_function("() => document.querySelectorAll('.seat').length === 2")
    child.wait_for_timeout(300)
    assert child.evaluate(MOVES_ON_SCREEN) == [], (lang, size, "started")
    child.screenshot(path=f"/tmp/shots15/joined-{lang}-{size}.png")
    context.close()
    opener_context.close()


def test_a_lost_connection_is_told_at_once_and_the_stand_in_is_named(chromium, site_url, site_env):
    # away after 4 s: "at once" is told well before it, even on a busy machine
    code = stored_table(site_env, players="2", away_after_ms="4000", bot_time_scale="0.5")
    ana_context = chromium.new_context(viewport={"width": 1280, "height": 720})
    ben_context = chromium.new_context(viewport={"width": 1280, "height": 720})
    ana, ben = ana_context.new_page(), ben_context.new_page()
    for page, name in ((ana, "Ana"), (ben, "Ben")):
        page.goto(f"{site_url}/en/play/{code}/")
        page.locator("#join-name").fill(name)
        page.locator("#join-name").press("Enter")
        page.locator(".seat.learner").wait_for()
    ben_cookies = ben_context.storage_state()
    closed_at = time.monotonic()
    ben_context.close()
    status = ana.locator("#table-status")
    status.filter(has_text="Ben\u2069’s connection was lost").wait_for(timeout=3000)
    assert time.monotonic() - closed_at < 3  # told at once, not after the away time
    assert ana.locator(".seat .badge.lost").inner_text() == "connection lost"
    # after the away time a computer player plays for Ben, and is called so
    ana.locator(".seat .name", has_text="Computer for").wait_for(timeout=10000)
    assert "Ben" in ana.locator(".seat .name", has_text="Computer for").inner_text()
    deadline = time.monotonic() + 30
    while "Computer for" not in ana.locator("#told-log").inner_text():
        assert time.monotonic() < deadline, "the stand-in never played"
        play_a_little(ana)
        ana.wait_for_timeout(200)
    for line in ana.locator("#told-log li").all_inner_texts():
        assert not re.match(r"\u2068?Ben\u2069? (turns|calls|wins)", line), line  # never as Ben
    # Ben comes back: he is told what the computer did for him
    back_context = chromium.new_context(
        viewport={"width": 1280, "height": 720}, storage_state=ben_cookies
    )
    back = back_context.new_page()
    back.goto(f"{site_url}/en/play/{code}/")
    summary = back.locator("#told-log li", has_text="While you were away")
    summary.wait_for(timeout=5000)
    assert re.search(r"It turned over \d+ cards?\.", summary.inner_text())
    assert back.locator(".seat.learner .name").inner_text() == "Ben"
    ana.locator(".seat .name", has_text="Ben").wait_for(timeout=5000)
    assert ana.locator(".seat .name", has_text="Computer for").count() == 0
    back_context.close()
    ana_context.close()


#: Presses S the moment the page tells "piles won" (a Snap! 0-1 ms after the change).
PRESS_S_ON_PILES_WON = """() => {
  const log = document.getElementById("told-log");
  new MutationObserver((changes, observer) => {
    if (!log.querySelector(".told-piles_won")) return;
    observer.disconnect();
    const key = {key: "s", code: "KeyS", bubbles: true};
    document.body.dispatchEvent(new KeyboardEvent("keydown", key));
    window.pressedOnPilesWon = true;
  }).observe(log, {childList: true});
}"""


def test_a_snap_pressed_just_after_the_kings_were_won_is_too_late_not_wrong(
    chromium, site_url, site_env
):
    # Ana turns the king of hearts, the steady computer the king of spades and calls
    # Snap! 951 ms later (a seed fixes its draws), slowed three times here to ~2.9 s.
    # Events that arrive within 30 ms of each other are one change of the screen, so a
    # page or server stalled for the whole gap would draw that king and the call
    # together; the screen before the press would then show no match, and R9 (D) would
    # rightly make the press wrong.
    code = stored_table(
        site_env, players="2", bots="{1: BotLevel.STEADY}", bot_time_scale="3.0",
        deck='stacked_deck(2, ["KH", "KS", "2C", "9D"])', dealer="1", seed="12",
    )  # fmt: skip
    context = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="he")
    page = context.new_page()
    page.goto(f"{site_url}/en/play/{code}/")
    page.locator("#join-name").fill("Ana")
    page.locator("#join-name").press("Enter")
    page.locator("[data-move=turn]:not([disabled])").wait_for()
    page.evaluate(PRESS_S_ON_PILES_WON)
    # the T key of a Hebrew keyboard types "א": the key's place counts, not its letter
    page.evaluate(
        """() => document.body.dispatchEvent(
             new KeyboardEvent("keydown", {key: "א", code: "KeyT", bubbles: true}))"""
    )
    page.locator(".told-card_turned").first.wait_for(timeout=5000)
    page.wait_for_function("() => window.pressedOnPilesWon === true", timeout=20000)
    late = page.locator("#told-log li.told-too_late")
    try:
        late.wait_for(timeout=5000)
    except Exception:
        raise AssertionError(page.locator("#told-log").inner_text()) from None
    assert "Ana" in late.inner_text()
    assert page.locator("#told-log li.told-wrong_call").count() == 0
    # the race's outcome stays the first, largest line; "too late" follows, smaller
    first = page.locator("#told-log li").first
    assert "told-piles_won" in first.get_attribute("class")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#told-log li')].slice(0, 2)
             .map((li) => parseFloat(getComputedStyle(li).fontSize))"""
    )
    assert sizes[0] > sizes[1]
    context.close()


def test_an_english_teacher_makes_a_hebrew_and_tamil_sheet(page, site_url):
    page.goto(f"{site_url}/en/teach/")
    page.locator("#sheet-lang").select_option("he")
    page.locator("#sheet-also").select_option("ta")
    page.locator(".sheet-form button[type=submit]").click()
    # the page stays in the teacher's language; the sheet is in the two chosen
    page.wait_for_url(re.compile(r"/en/teach/sheet/\?(?=.*lang=he)(?=.*also=ta)"))
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator('[lang="he"]').count() and page.locator('[lang="ta"]').count()
    text = page.locator("main").inner_text()
    assert re.search("[\u05d0-\u05ea]", text) and re.search("[\u0b80-\u0bff]", text)


@pytest.mark.parametrize("locale", ["he", "ta"])
def test_a_shared_link_opens_in_the_devices_language(chromium, site_url, locale):
    opener_context = chromium.new_context(viewport={"width": 1280, "height": 900})
    opener = opener_context.new_page()
    open_table(opener, site_url, "en", "Ms Tan", seats=3)
    link = opener.locator("#share-url").input_value()
    code = link.rstrip("/").rsplit("/", 1)[1]
    assert link == f"{site_url}/play/{code}/"
    device = chromium.new_context(locale=locale)
    page = device.new_page()
    page.goto(link)
    assert page.url == f"{site_url}/{locale}/play/{code}/"
    assert page.locator("html").get_attribute("lang") == locale
    device.close()
    opener_context.close()


@pytest.mark.parametrize(("lang", "size"), [("ta", "phone"), ("he", "tablet"), ("en", "projector")])
def test_a_live_table_mid_game_with_a_full_log_has_no_serious_violations(
    chromium, site_url, lang, size
):
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    page.goto(f"{site_url}/{lang}/play/")
    page.locator("#practice_name").fill(NAMES[lang])
    page.locator("section[aria-labelledby=practice-title] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[A-Z0-9]{6}/$"))
    deadline = time.monotonic() + 60
    while page.locator("#told-log li").count() < 8:  # the log full (LOG_LENGTH)
        assert time.monotonic() < deadline, "the log did not fill"
        play_a_little(page)
        page.wait_for_timeout(150)
    told = page.locator("#told")
    assert told.get_attribute("tabindex") == "0" and told.get_attribute("role") == "region"
    assert serious_violations(page) == [], (lang, size)
    page.screenshot(path=f"/tmp/shots15/midgame-{lang}-{size}.png")
    # the newest line is wholly inside the log's box
    cut = page.evaluate(
        """() => { const box = document.getElementById('told').getBoundingClientRect();
                   const li = document.querySelector('#told-log li').getBoundingClientRect();
                   const out = li.top < box.top - 0.5 || li.bottom > box.bottom + 0.5;
                   return out ? [box.top, box.bottom, li.top, li.bottom] : null; }"""
    )
    assert cut is None
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_practice_button_is_on_the_play_pages_first_screen(chromium, site_url, size):
    """The trial found it below the first screen (y=1281 on a phone, 846 at 1280x720)."""
    width, height = SIZES[size]
    context = chromium.new_context(
        viewport={"width": width, "height": height}, has_touch=size != "projector"
    )
    page = context.new_page()
    below = {}
    for lang in ("en", "ms", "mr", "he", "ta", "hr"):
        page.goto(f"{site_url}/{lang}/play/")
        page.evaluate("document.fonts.ready")
        button = page.locator("section[aria-labelledby=practice-title] button[type=submit]")
        box = button.bounding_box()
        if box["y"] + box["height"] > height:
            below[lang] = round(box["y"] + box["height"])
        assert page.locator("h1").count() == 1  # the page's title is still there (read out)
    assert below == {}, (size, below)
    context.close()


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_a_finished_table_opened_on_a_phone_shows_the_outcome_and_the_replay_link(
    chromium, site_url, site_env, lang
):
    """A spectator (a shared link after the game): the trial found "Watch the replay"
    below the first screen of a phone."""
    code = store_finished_game(site_env, {0: NAMES[lang]})
    context = chromium.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    page.goto(f"{site_url}/{lang}/play/{code}/")
    page.locator("#finished").wait_for()
    page.wait_for_timeout(300)
    for selector in ("#finished .finished-text", f"#finished a[href='/{lang}/replay/{code}/']"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 640, (lang, selector, box)
    context.close()
