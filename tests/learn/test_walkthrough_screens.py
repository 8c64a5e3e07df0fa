"""The walkthrough player on the screens a class uses.

At projector, tablet and phone sizes, in all six languages, every step that
waits for a press shows the table, the narration and the button it needs on
the screen together; the keys a teacher uses work; the step survives a change
of language; projector mode fills the screen with large cards.

One browser and one page per test: the page is resized in place, as a window
or a turned tablet is, and the player brought into view as the page does when
it opens.
"""

import json
import math
import random

import pytest
from django.utils import translation

from games.engine import TurnCard, apply, new_game
from games.frames.walkthroughs import table_data
from tests.browsers import SCREENSHOTS
from tests.conftest import LANGUAGE_CODES
from tests.screens import FITTED, SETTLE, on_screen_problems, screen_shot, settled_problems

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "projector-1280x720": (1280, 720),
    "projector-1024x768": (1024, 768),
    "tablet-768x1024": (768, 1024),
    "phone-360x640": (360, 640),
}
PRESS_KEYS = {"turn": "t", "snap": "s", "snap_pot": "o"}


def slugs(page, site_url) -> list[str]:
    page.goto(f"{site_url}/en/learn/")
    return page.eval_on_selector_all(".walkthrough-item", "items => items.map(i => i.dataset.slug)")


def frames_of(page) -> list[dict]:
    return json.loads(page.text_content("#walkthrough-frames"))


def step_index(page) -> int:
    return int(page.get_attribute("#progress", "data-index"))


def open_player(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".player:not([hidden])")
    page.evaluate("document.fonts.ready.then(() => true)")
    page.evaluate(SETTLE)


@pytest.fixture(scope="module")
def screen(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    yield page
    context.close()


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_press_moment_fits_every_classroom_screen(site_url, screen, lang):
    page = screen
    failures = []
    for slug in slugs(page, site_url):
        open_player(page, f"{site_url}/{lang}/learn/{slug}/")
        frames = frames_of(page)
        loaded_at = page.viewport_size["width"], page.viewport_size["height"]
        for number, frame in enumerate(frames):
            assert step_index(page) == number, (slug, number)
            if not frame["expects"]:
                if number + 1 < len(frames):
                    page.keyboard.press("PageDown")
                continue
            # The size the page opened at first (its own scroll), then the others.
            sizes = sorted(VIEWPORTS.items(), key=lambda item: item[1] != loaded_at)
            for name, (width, height) in sizes:
                if (width, height) != (page.viewport_size["width"], page.viewport_size["height"]):
                    page.set_viewport_size({"width": width, "height": height})
                    page.wait_for_function(FITTED, timeout=5000)
                    page.evaluate(SETTLE)
                    page.evaluate("document.querySelector('.player').scrollIntoView()")
                problems = settled_problems(page, frame["expects"])
                failures += [f"{lang} {slug} step {number + 1} {name}: {p}" for p in problems]
            page.keyboard.press(PRESS_KEYS[frame["expects"]])
            assert step_index(page) == number + 1, (slug, number, "the key did not press")
    assert page.errors == []
    assert failures == [], "\n".join(failures)


def test_clicker_and_letter_keys_step_and_press(site_url, page):
    open_player(page, f"{site_url}/en/learn/tie/")
    assert step_index(page) == 0
    page.keyboard.press("PageDown")  # a presentation clicker's "next"
    assert step_index(page) == 1
    assert page.url.endswith("/en/learn/tie/?step=2")
    page.keyboard.press("PageDown")  # the example waits for "Snap!": no stepping over it
    assert step_index(page) == 1
    assert "Choose your move first." in page.text_content("#announcer")
    page.keyboard.press("s")  # the Snap key presses "Snap!"
    assert step_index(page) == 2
    page.keyboard.press("PageUp")
    assert step_index(page) == 1
    page.keyboard.press("o")  # "Snap Pot!" at a plain match: the engine's answer
    assert page.is_visible('[data-step="retry"]')
    assert page.evaluate("document.activeElement.dataset.step") == "retry"
    assert page.locator("#narration .mistake").count() == 1
    page.keyboard.press("Space")  # Space on the focused "Try again" is the button's own
    assert page.locator("#narration .mistake").count() == 0
    assert step_index(page) == 1
    # Keys are left alone outside the player: here, in the language switcher.
    page.focus('.language-switcher button[value="ms"]')
    page.keyboard.press("PageUp")
    page.keyboard.press("s")
    assert step_index(page) == 1
    # Enter on a focused "Next" steps once, not twice; when "Next" then waits
    # for a move, the focus goes to the moves, not to the page.
    page.click('[data-step="restart"]')
    assert step_index(page) == 0
    page.focus('[data-step="next"]')
    page.keyboard.press("Enter")
    assert step_index(page) == 1
    assert page.evaluate("document.activeElement.matches('[data-press]')")
    page.keyboard.press("s")
    page.keyboard.press("t")  # the Turn key turns the card
    assert step_index(page) == 3
    assert page.is_visible("#finished")


def test_arrows_follow_the_reading_direction_in_hebrew(site_url, page):
    open_player(page, f"{site_url}/he/learn/first-turns/")
    page.keyboard.press("ArrowLeft")
    assert step_index(page) == 1
    page.keyboard.press("ArrowRight")
    assert step_index(page) == 0
    page.keyboard.press("Space")
    assert step_index(page) == 1


def test_the_address_keeps_the_step_and_the_language_switch_keeps_it_too(site_url, page):
    open_player(page, f"{site_url}/en/learn/tie/?step=3")
    assert step_index(page) == 2
    page.keyboard.press("PageUp")
    # page.url follows the page's replaceState when its event reaches Playwright
    page.wait_for_url(lambda url: url.endswith("/en/learn/tie/?step=2"), timeout=5000)
    assert page.url.endswith("/en/learn/tie/?step=2")
    assert page.input_value('.language-switcher [name="next"]') == "/en/learn/tie/?step=2"
    with page.expect_navigation():
        page.click('.language-switcher button[value="he"]')
    page.wait_for_selector(".player:not([hidden])")
    assert "/he/learn/tie/" in page.url and "step=2" in page.url
    assert step_index(page) == 1
    # Nonsense in the address opens a real step and says which one.
    open_player(page, f"{site_url}/en/learn/tie/?step=99")
    assert step_index(page) == 3 and page.url.endswith("?step=4")
    open_player(page, f"{site_url}/en/learn/tie/?step=two")
    assert step_index(page) == 0 and page.url.endswith("?step=1")


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_projector_mode_fills_the_screen_with_large_cards(site_url, chromium, lang):
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    open_player(page, f"{site_url}/{lang}/learn/three-piles/?step=2")
    page.keyboard.press("p")
    page.wait_for_selector(".player.projector")
    page.evaluate(SETTLE)
    box = page.locator(".player").bounding_box()
    assert box["x"] <= 0 and box["y"] <= 0 and box["width"] >= 1280 and box["height"] >= 720
    sizes = page.evaluate(
        """() => ({
          rank: Math.min(...[...document.querySelectorAll('#table-picture .card .rank')]
            .map(e => parseFloat(getComputedStyle(e).fontSize))),
          name: Math.min(...[...document.querySelectorAll('#table-picture .seat-name')]
            .map(e => parseFloat(getComputedStyle(e).fontSize))),
          count: Math.min(...[...document.querySelectorAll('#table-picture .pile-count')]
            .map(e => parseFloat(getComputedStyle(e).fontSize))),
        })"""
    )
    # A four-player table on a 720-pixel projector: ranks, names and counts
    # stay large enough to read across a classroom.
    assert sizes["rank"] >= 40 and sizes["name"] >= 20 and sizes["count"] >= 18, sizes
    assert on_screen_problems(page, "snap") == []
    screen_shot(page, f"projector-{lang}-three-piles")
    page.keyboard.press("Escape")
    page.wait_for_selector(".player:not(.projector)")
    assert page.get_attribute('[data-action="projector"]', "aria-pressed") == "false"
    context.close()


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_phone_and_tablet_show_the_press_moment_on_one_screen(site_url, chromium, lang):
    for name, size in (("phone", (360, 640)), ("tablet", (768, 1024))):
        context = chromium.new_context(
            viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True
        )
        page = context.new_page()
        open_player(page, f"{site_url}/{lang}/learn/three-piles/?step=2")
        assert on_screen_problems(page, "snap") == []
        assert not page.is_visible(".key-hint")  # no keyboard talk on a touch screen
        screen_shot(page, f"{name}-{lang}-three-piles")
        context.close()


NAMES = "Alexandra Ben Chloe Dev Emma Farid Grace Hugo Isla Jamal Kofi Lena".split()

# Draw one table into a box of the given size with the page's own renderer;
# return each seat's centre and box, in seat order, and the box.
DRAW = """async ([table, width, height]) => {
  const src = document.querySelector('script[src*="walkthrough.js"]').src;
  const { drawTable } = await import(src.replace("walkthrough.js", "table.js"));
  let box = document.getElementById("test-table");
  if (!box) {
    box = document.createElement("div");
    box.id = "test-table";
    document.body.prepend(box);
  }
  box.style.cssText = `inline-size: ${width}px; block-size: ${height}px`;
  box.className = "table-picture";
  drawTable(box, table);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const b = box.getBoundingClientRect();
  const seats = [...box.querySelectorAll(".seat")].map((s) => {
    const r = s.getBoundingClientRect();
    return { x: r.x - b.x, y: r.y - b.y, w: r.width, h: r.height, seat: +s.dataset.seat };
  });
  return { seats, w: b.width, h: b.height };
}"""


def a_table(players: int, learner: int) -> dict:
    """A real dealt table after a round of turns, in the page's data shape."""
    state = new_game(players, random.Random(players))
    for _ in range(players):
        state = apply(state, TurnCard(seat=state.to_play, at_ms=0)).state
    with translation.override("en"):
        return table_data(state, NAMES[:players], learner, None)


def test_two_to_twelve_players_sit_round_the_table_clockwise(site_url, screen):
    """The learner at the near side; the next seat (the learner's left) to
    the screen-left, and so on round clockwise; no seat covers another; the
    same picture in Hebrew."""
    page = screen
    page.set_viewport_size({"width": 1280, "height": 720})
    pictures = {}
    for lang in ("en", "he"):
        open_player(page, f"{site_url}/{lang}/learn/tie/")
        for players in range(2, 13):
            learner = players // 2
            for width, height in ((1200, 620), (340, 420)):
                drawn = page.evaluate(DRAW, [a_table(players, learner), width, height])
                check_round_table(drawn, learner, f"{lang} {players} seats in {width}x{height}")
                pictures[lang, players, width] = [
                    ((s["x"] + s["w"] / 2) / drawn["w"], (s["y"] + s["h"] / 2) / drawn["h"])
                    for s in drawn["seats"]
                ]
        for width, height in ((1200, 620), (340, 420)):
            page.evaluate(DRAW, [a_table(12, 6), width, height])
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            path = SCREENSHOTS / f"table-12-seats-{width}-{lang}.png"
            page.locator("#test-table").screenshot(path=str(path))
    # Not mirrored: every seat in the same place (up to the badges' own words).
    for players in range(2, 13):
        for width in (1200, 340):
            pair = zip(pictures["en", players, width], pictures["he", players, width], strict=True)
            for en, he in pair:
                assert abs(en[0] - he[0]) < 0.08 and abs(en[1] - he[1]) < 0.08, (players, width)


def check_round_table(drawn: dict, learner: int, where: str) -> None:
    seats = drawn["seats"]
    players = len(seats)
    centre = [(s["x"] + s["w"] / 2, s["y"] + s["h"] / 2) for s in seats]
    me = centre[learner]
    assert me[1] == max(c[1] for c in centre), where  # nearest to the viewer
    assert abs(me[0] - drawn["w"] / 2) < 1, where
    if players > 2:
        assert centre[(learner + 1) % players][0] < me[0], where  # on the learner's left
        assert centre[(learner - 1) % players][0] > me[0], where
    # Clockwise on the screen: the angle round the middle grows seat by seat.
    order = centre[learner:] + centre[:learner]
    angles = [math.atan2(y - drawn["h"] / 2, x - drawn["w"] / 2) for x, y in order]
    steps = [(b - a) % (2 * math.pi) for a, b in zip(angles, angles[1:], strict=False)]
    assert players == 2 or all(0 < step < math.pi for step in steps), (where, steps)
    for i, a in enumerate(seats):
        assert a["x"] >= -0.5 and a["x"] + a["w"] <= drawn["w"] + 0.5, where
        assert a["y"] >= -0.5 and a["y"] + a["h"] <= drawn["h"] + 0.5, where
        for b in seats[i + 1 :]:
            apart = (
                a["x"] + a["w"] <= b["x"] + 0.5
                or b["x"] + b["w"] <= a["x"] + 0.5
                or a["y"] + a["h"] <= b["y"] + 0.5
                or b["y"] + b["h"] <= a["y"] + 0.5
            )
            assert apart, (where, a, b)
