"""A finished game's replay and its lesson in a real browser, against the site's server: stepping by
keyboard in Hebrew (the arrows follow the reading direction), a lesson's presses answered
as the page's data says, and screenshots in English, Hebrew and Tamil."""

from __future__ import annotations

import pytest

from games.replay.views import STEPS_PER_PAGE
from tests.browsers import store_finished_game
from tests.replay.replay_helpers import page_frames
from tests.screens import serious_violations

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def code(site_url, site_env):
    """A finished game of three stored in the site's database: two people, a computer."""
    return store_finished_game(site_env, {0: "נועה", 1: "Sam <i>Kim</i>"})


def open_player(page, url: str) -> list[dict]:
    page.goto(url)
    page.wait_for_selector(".player:not([hidden]) .seat")
    return page_frames(page.content())


def step_index(page) -> int:
    return int(page.get_attribute("#progress", "data-index"))


def caption(page) -> str:
    return page.inner_text("#narration .caption")


def same_words(shown: str, caption_text: str) -> bool:
    """The caption as shown (rule links after it, no bidi marks) starts with the words."""
    return (
        shown.replace("\u2068", "")
        .replace("\u2069", "")
        .startswith(caption_text.replace("\u2068", "").replace("\u2069", ""))
    )


def test_a_replay_steps_by_keyboard_in_hebrew(page, site_url, code, screenshot):
    frames = open_player(page, f"{site_url}/he/replay/{code}/")
    assert page.get_attribute("html", "dir") == "rtl"
    assert step_index(page) == 0 and same_words(caption(page), frames[0]["caption"])
    assert page.locator("[data-press]").count() == 0  # a replay has no moves to press
    page.keyboard.press("t")  # and the move keys do nothing
    for _ in range(5):
        page.keyboard.press("ArrowLeft")  # forward, in a right-to-left page
    assert step_index(page) == 5
    assert same_words(caption(page), frames[5]["caption"])
    assert page.url.endswith("?step=6")
    page.keyboard.press("ArrowRight")  # back
    assert step_index(page) == 4
    page.keyboard.press("PageDown")
    page.keyboard.press("Space")
    assert step_index(page) == 6
    assert frames[6]["caption"].replace("\u2068", "").replace("\u2069", "")[:20] in (
        page.inner_text("#announcer").replace("\u2068", "").replace("\u2069", "")
    )
    names = page.locator(".seat .name").all_inner_texts()
    assert "Sam <i>Kim</i>" in names and "נועה" in names  # a typed name stays text
    screenshot(page, "replay-he-step-7")
    # The last step: the game is over, the winner named, the lesson offered.
    last = len(frames)
    open_player(page, f"{site_url}/he/replay/{code}/?step={last}")
    assert step_index(page) == last - 1
    assert page.is_visible("#finished")
    assert page.is_enabled(".finished-links a[href*='/lesson/?seat=']")
    page.keyboard.press("ArrowLeft")  # no step after the last
    assert step_index(page) == last - 1
    screenshot(page, "replay-he-finished")


@pytest.mark.parametrize("lang", ["en", "ta"])
def test_a_replay_in_english_and_tamil(page, site_url, code, screenshot, lang):
    frames = open_player(page, f"{site_url}/{lang}/replay/{code}/?step=12")
    assert step_index(page) == 11 and same_words(caption(page), frames[11]["caption"])
    screenshot(page, f"replay-{lang}-step-12")


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_a_lesson_answers_presses_as_its_data_says(page, site_url, code, screenshot, lang):
    frames = open_player(page, f"{site_url}/{lang}/replay/{code}/lesson/?seat=1")
    asked = next(i for i, f in enumerate(frames) if f["expects"] == "snap")
    open_player(page, f"{site_url}/{lang}/replay/{code}/lesson/?seat=1&step={asked + 1}")
    assert page.is_visible("[data-press='snap'].expected")
    screenshot(page, f"replay-lesson-{lang}-asked")
    # A wrong move first: the engine's answer, as the page's data has it.
    wrong = next(p for p, b in frames[asked]["branches"].items() if b["outcome"] != "refused")
    page.click(f"[data-press='{wrong}']")
    answer = frames[asked]["branches"][wrong]
    assert page.get_attribute("#narration", "data-outcome") == answer["outcome"]
    note = page.inner_text("#narration .note").replace("\u2068", "").replace("\u2069", "")
    assert note == answer["note"].replace("\u2068", "").replace("\u2069", "")
    screenshot(page, f"replay-lesson-{lang}-answer")
    # Back to the game, and the move it asks for takes the lesson on.
    page.click("[data-step='retry'], [data-step='example'] >> visible=true")
    page.keyboard.press("s")
    assert step_index(page) == asked + 1
    assert page.url.endswith(f"seat=1&step={asked + 2}")


def test_a_replay_prints_its_steps_in_words_without_the_player(page, site_url, code, screenshot):
    open_player(page, f"{site_url}/en/replay/{code}/?step=3")
    page.emulate_media(media="print")
    assert not page.is_visible(".player")
    assert not page.is_visible(".lesson-box") and not page.is_visible(".step-pages")
    assert page.is_visible("#step-1 .mini-table")
    assert page.is_visible(f"#step-{STEPS_PER_PAGE}")
    assert not page.locator(f"#step-{STEPS_PER_PAGE + 1}").count()  # a page of steps at a time
    screenshot(page, "replay-en-print")


def test_next_clicked_twice_quickly_goes_two_steps_on(page, site_url, code):
    open_player(page, f"{site_url}/en/replay/{code}/")
    next_button = page.locator("[data-step='next']")
    next_button.click()
    page.wait_for_timeout(100)  # a teacher clicking on fast: well under the 400 ms guard
    next_button.click()
    assert step_index(page) == 2


@pytest.fixture(scope="module")
def computers_code(site_url, site_env):
    """A finished game of three: Luka and two computer players ("Computer 2" on seat 2)."""
    return store_finished_game(site_env, {0: "Luka"})


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_names_in_the_lesson_narration_never_break_across_two_lines(
    chromium, site_url, computers_code, screenshot, lang
):
    """At 360x640 a name ("Computer 2", "מחשב 2", …) stays on one line of the narration
    (the trial saw "מחשב 2" broken after its first word)."""
    context = chromium.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    open_player(page, f"{site_url}/{lang}/replay/{computers_code}/lesson/?seat=2")
    learner = page.locator(".seat.learner .name").first.inner_text().strip("\u2068\u2069 ")
    seen: set[str] = set()
    for _step in range(12):
        names = page.eval_on_selector_all(
            "#narration .name",
            # the lines a name's boxes are on (a bidi name has several boxes on one line)
            "els => els.map(e => [e.textContent,"
            " new Set([...e.getClientRects()].map(r => Math.round(r.bottom))).size])",
        )
        broken = [name for name, lines in names if lines != 1]
        assert not broken, broken
        seen |= {name.strip("\u2068\u2069") for name, _lines in names}
        page.wait_for_timeout(450)  # past the player's guard against a double tap
        if page.is_enabled("[data-step='next']"):
            page.click("[data-step='next']")
        else:
            page.click("[data-press].expected")
    assert learner in seen  # "In this lesson you play as Computer 2."
    screenshot(page, f"lesson-names-{lang}-phone")
    context.close()


def race_steps(players: int, seed: int) -> list[int]:
    """The actions (from 1, as stored: accepted ones only) at which a race opened in the
    game ``store_finished_game`` stores, replayed on the engine here."""
    from games.engine import DEFAULT_OPTIONS, apply, play_bot_game, start_state
    from games.engine.events import RaceOpened
    from games.replay.sample import LEVELS

    _end, record = play_bot_game(players, seed, list(LEVELS[:players]), DEFAULT_OPTIONS)
    state, number, opened = start_state(record), 0, []
    for action in record.actions:
        step = apply(state, action)
        if step.rejected:
            continue
        number += 1
        if any(isinstance(e, RaceOpened) for e in step.events):
            opened.append(number)
        state = step.state
    return opened


def test_the_replay_jumps_to_each_race_on_the_projector_too(page, site_url, code):
    open_player(page, f"{site_url}/en/replay/{code}/")
    races = race_steps(players=3, seed=2)
    assert races  # the game has races to jump to
    nxt = page.get_by_role("button", name="Next moment")
    seen: list[tuple[int, str]] = []
    while nxt.is_enabled():
        nxt.click()
        at = step_index(page)
        kind = page.locator(f"#moment-choice option[value='{at}']").get_attribute("data-kind")
        assert page.locator("#moment-choice").input_value() == str(at)
        seen.append((at, kind))
    assert [at for at, kind in seen if kind in ("race", "pot_won", "tie")] == races
    assert all(b > a for (a, _), (b, _) in zip(seen, seen[1:], strict=False))
    assert page.get_by_role("button", name="Previous moment").is_enabled()
    assert serious_violations(page) == []
    # on the projector: the same buttons, in view, and the list to choose from
    page.locator("[data-step=restart]").click()
    page.keyboard.press("p")
    page.wait_for_selector(".player.projector")
    assert nxt.is_visible() and nxt.bounding_box()["y"] + 10 < page.viewport_size["height"]
    nxt.click()
    assert step_index(page) == seen[0][0]
    page.locator("#moment-choice").select_option(str(races[-1]))
    assert step_index(page) == races[-1]
    assert f"step={races[-1] + 1}" in page.url
