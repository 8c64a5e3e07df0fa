"""A class table in real browsers, against the site's server: a teacher opens it in English, two
students join from a Hebrew and a Tamil page (each its own browser), the teacher sees
their names and finished walkthroughs, starts, pauses and resumes the game, shows it
on the projector view, after the end opens the game as a lesson, then starts a new
game with the same students, whose pages follow."""

from __future__ import annotations

import re
import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.words.controls import control_text
from tests.browsers import join_by_code

pytestmark = pytest.mark.browser

HEBREW = re.compile(r"[\u0590-\u05ff]")
TAMIL = re.compile(r"[\u0b80-\u0bff]")


def open_class(page, url: str) -> str:
    page.goto(f"{url}/en/teach/")
    page.get_by_role("link", name="A class table").click()
    page.wait_for_url("**/en/teach/class/")
    page.locator("#class_class_name").fill("Class 4B")
    page.locator("#class_seats").select_option("3")
    page.locator("#class_fill").check()
    page.locator("#class_level").select_option("quick")
    page.locator("#class_turn_limit").fill("12")
    page.locator("#class_turn_timer").select_option("5")
    page.locator("form.open-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/en/teach/class/[A-Z0-9]{6}/$"))
    return page.locator("#class-code").inner_text().strip()


def play_a_little(page) -> None:
    """What a child does: turn when it is their turn, call when two ranks match."""
    ranks = page.locator(".seat .card.face .rank").all_inner_texts()
    if len(ranks) != len(set(ranks)) and page.locator("[data-move=snap]").is_enabled():
        page.keyboard.press("s")
    elif page.locator("[data-move=turn]").is_enabled():
        page.keyboard.press("t")


def test_a_teacher_runs_a_class_game_with_a_hebrew_and_a_tamil_student(
    chromium, site_url, screenshot
):
    contexts = [
        chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
        for locale in ("en", "he", "ta")
    ]
    teacher, noa, kavin = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (teacher, noa, kavin):
        page.on("pageerror", lambda e: errors.append(str(e)))
    code = open_class(teacher, site_url)
    # the status is written once the table's first state has arrived
    teacher.locator("#class-status", has_text="Waiting for students: 0 of 3").wait_for()
    assert teacher.locator("#class-status").inner_text().startswith("Waiting for students: 0 of 3")

    join_by_code(noa, site_url, "he", code, "נועה", done=["first-turns", "snap-by-anyone"])
    join_by_code(kavin, site_url, "ta", code, "கவின்", done=[])
    rows = teacher.locator("#class-seats tr")
    rows.nth(1).locator(".seat-player").wait_for()
    assert rows.nth(0).locator(".seat-player").inner_text() == "נועה"
    assert rows.nth(1).locator(".seat-player").inner_text() == "கவின்"
    assert rows.nth(2).locator(".seat-free").count() == 1
    # "computer players for free seats" was ticked: the free seat says so, no "Add" button
    expect(rows.nth(2)).to_contain_text("A computer player (Quick) takes this seat at the start.")
    assert rows.nth(2).locator("button").count() == 0
    # Noa's page told the teacher what she had finished on her tablet
    teacher.wait_for_function(
        "() => document.querySelector('#class-seats tr .done-count').textContent.startsWith('2 of')"
    )
    assert rows.nth(0).locator(".done-list li").count() == 2
    assert rows.nth(1).locator(".done-count").inner_text().startswith("0 of")
    # the students wait for the teacher, each page in its own language
    assert noa.locator("[data-move=turn]").is_disabled()
    screenshot(teacher, "class-teacher-before-start")
    # the teacher's browser on the table page itself is offered no seat (a seat is free)
    own = contexts[0].new_page()
    own.goto(f"{site_url}/en/play/{code}/")
    own.locator(".seat").first.wait_for()
    own.wait_for_function("() => document.getElementById('table-status').textContent !== ''")
    assert own.locator("#join-seat").is_hidden()
    own.close()

    teacher.locator("[data-control=start]").click()
    teacher.locator("[data-control=pause]").wait_for()
    # the free seat got a computer player of the level the teacher chose
    expect(rows.nth(2)).to_contain_text("Quick")  # redrawn after the control: may lag
    projector = contexts[0].new_page()  # the teacher's own browser, on the projector
    projector.on("pageerror", lambda e: errors.append(str(e)))
    projector.goto(f"{site_url}/en/teach/class/{code}/projector/")
    projector.locator(".seat").first.wait_for()
    assert projector.locator("#live-table.class-projector.projector").count() == 1
    assert projector.locator("#share-code").inner_text() == code
    assert not projector.locator("[data-move=turn]").is_visible()

    deadline = time.monotonic() + 30
    while noa.locator("#told-log li").count() < 3:  # a few turns, then the pause
        assert time.monotonic() < deadline, "the game did not get going"
        play_a_little(noa)
        play_a_little(kavin)
        noa.wait_for_timeout(150)
    teacher.locator("[data-control=pause]").click()
    teacher.locator("[data-control=resume]").wait_for()
    expect(teacher.locator("#class-status")).to_contain_text("paused")
    for student in (noa, kavin):
        student.locator(".told-control").first.wait_for()  # told in the page's language
        student.wait_for_function("() => document.querySelector('[data-move=snap]').disabled")
    for student, lang in ((noa, "he"), (kavin, "ta")):
        with translation.override(lang):
            told = control_text("paused", {})
        expect(student.locator("#told-log li.told-control").first).to_have_text(told)
    # the game's own events too: Hebrew on Noa's page, Tamil on Kavin's
    assert HEBREW.search(noa.locator("#told-log li:not(.told-control)").first.inner_text())
    assert TAMIL.search(kavin.locator("#told-log li:not(.told-control)").first.inner_text())
    paused_log = noa.locator("#told-log").inner_text()
    noa.wait_for_timeout(1500)
    assert noa.locator("#told-log").inner_text() == paused_log  # nothing moves while paused
    projector.locator(".told-control").first.wait_for()
    screenshot(projector, "class-projector-paused")
    screenshot(teacher, "class-teacher-paused")

    teacher.locator("[data-control=resume]").click()
    teacher.locator("[data-control=pause]").wait_for()
    deadline = time.monotonic() + 90
    while not (noa.locator("#finished").is_visible() and kavin.locator("#finished").is_visible()):
        assert time.monotonic() < deadline, "the game did not end"
        play_a_little(noa)
        play_a_little(kavin)
        noa.wait_for_timeout(150)
    teacher.locator("#class-over").wait_for()
    expect(teacher.locator("#class-status")).to_have_text("The game is over.")
    # Replay and Lesson at the top of the page, in view; the big code gives way
    assert teacher.locator("#class-join").is_hidden()
    for link in ("#replay-link", "#lesson-link"):
        box = teacher.locator(link).bounding_box()
        assert box["y"] + box["height"] <= teacher.viewport_size["height"], link
    # the students stay in the class: no "Play again" to the public lobby
    assert noa.locator("#finished a[href='/he/play/']").count() == 0
    assert noa.locator("#finished .class-next").is_visible()
    projector.locator("#finished").wait_for()
    assert projector.locator(".projector-join").is_hidden()  # no "To join…" after the game
    assert "You are watching" not in projector.locator("#table-status").inner_text()
    assert re.search(r"[A-Za-z]", projector.locator("#told-log li").first.inner_text())
    screenshot(projector, "class-projector-over")
    screenshot(teacher, "class-teacher-over")

    teacher.locator("#lesson-link").click()
    teacher.wait_for_url(f"**/en/replay/{code}/lesson/")
    teacher.locator(".player .seat").first.wait_for()
    assert (
        "נועה" in teacher.locator("main").inner_text()
        or "கவின்" in teacher.locator("main").inner_text()
    )

    # A new game with the same students: every page follows the class to its new table
    teacher.go_back()
    teacher.locator("[data-control=restart]:not([disabled])").click()
    teacher.wait_for_url(re.compile(rf"/en/teach/class/(?!{code})[A-Z0-9]{{6}}/$"))
    new_code = teacher.locator("#class-code").inner_text().strip()
    for student, lang in ((noa, "he"), (kavin, "ta")):
        student.wait_for_url(f"**/{lang}/play/{new_code}/")
        student.locator(".seat.learner").wait_for()  # on the same seat, without typing
    projector.wait_for_url(f"**/en/teach/class/{new_code}/projector/")
    teacher.locator("[data-control=start]:not([disabled])").wait_for()
    names = teacher.locator("#class-seats .seat-player").all_inner_texts()
    assert names == ["נועה", "கவின்", "Computer 1"]
    assert errors == []
    for context in contexts:
        context.close()
