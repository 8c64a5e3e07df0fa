"""The teacher's page of a class table in real browsers, against the site's server: a student's
lost connection is told to the teacher first, at the top of the page, in view; and every
game the class played stays on the page with its replay, lesson and sheet."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.screens import serious_violations

pytestmark = pytest.mark.browser


def open_class(page, url: str, seats: str, turn_limit: str = "") -> str:
    page.goto(f"{url}/en/teach/class/")
    page.locator("#class_class_name").fill("Class 5C")
    page.locator("#class_seats").select_option(seats)
    page.locator("#class_fill").check()
    page.locator("#class_level").select_option("quick")
    page.locator("#class_turn_limit").fill(turn_limit)
    page.locator("form.open-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/en/teach/class/[A-Z0-9]{6}/$"))
    return page.locator("#class-code").inner_text().strip()


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_a_teacher_is_told_within_a_second_at_the_top_when_a_student_is_cut_off(chromium, site_url):
    teacher_context = chromium.new_context(viewport={"width": 1366, "height": 768})
    student_context = chromium.new_context(viewport={"width": 360, "height": 640}, locale="he")
    teacher, student = teacher_context.new_page(), student_context.new_page()
    errors: list[str] = []
    teacher.on("pageerror", lambda e: errors.append(str(e)))
    code = open_class(teacher, site_url, seats="3")
    student.goto(f"{site_url}/he/play/{code}/")
    student.locator("#join-name").fill("נועה")
    student.locator("#join-name").press("Enter")
    student.locator(".seat.learner").wait_for()
    teacher.locator("[data-control=start]:not([disabled])").click()
    teacher.locator("[data-control=pause]").wait_for()
    # the teacher reads down the page, to the seats and what happens
    teacher.locator("#told-log").scroll_into_view_if_needed()
    assert not teacher.locator("#class-alert").inner_text().strip()

    student.close()  # the student's tablet drops off the table
    closed = time.monotonic()
    expect(teacher.locator("#class-alert")).to_contain_text("נועה", timeout=1000)
    told_after = time.monotonic() - closed
    assert told_after < 1.0, told_after
    alert = teacher.locator("#class-alert").inner_text()
    assert "connection was lost" in alert and "pause" in alert
    assert in_view(teacher, "#class-alert")  # where the teacher is looking, not below
    teacher.evaluate("window.scrollTo(0, 0)")
    assert in_view(teacher, "#class-alert")
    # the seat says so too, and the log keeps it
    expect(teacher.locator("#class-seats tr").first).to_contain_text("connection lost")
    expect(teacher.locator("#told-log li.told-lost")).to_contain_text("נועה")
    assert serious_violations(teacher) == []

    # the teacher pauses: the alert stays, without asking for the pause again
    teacher.locator("[data-control=pause]").click()
    teacher.locator("[data-control=resume]").wait_for()
    expect(teacher.locator("#class-alert")).not_to_contain_text("pause the game")
    expect(teacher.locator("#class-alert")).to_contain_text("נועה")

    # the student comes back: the alert goes
    back = student_context.new_page()
    back.goto(f"{site_url}/he/play/{code}/")
    back.locator(".seat.learner").wait_for()
    expect(teacher.locator("#class-alert")).to_have_text("", timeout=3000)
    assert errors == []
    teacher_context.close()
    student_context.close()


def play_to_the_end(teacher) -> None:
    """Start the class's game (computer players only) and wait for its end."""
    teacher.locator("[data-control=start]:not([disabled])").click()
    teacher.locator("#class-over").wait_for(timeout=120_000)


def test_every_game_of_a_class_stays_on_the_teachers_page(page, site_url):
    first = open_class(page, site_url, seats="2", turn_limit="10")
    play_to_the_end(page)
    page.locator("[data-control=restart]:not([disabled])").click()
    page.wait_for_url(re.compile(rf"/en/teach/class/(?!{first})[A-Z0-9]{{6}}/$"))
    second = page.locator("#class-code").inner_text().strip()
    earlier = page.locator(".earlier-games li")
    expect(earlier).to_have_count(1)
    expect(earlier.first).to_contain_text(f"Game 1, table {first}")
    play_to_the_end(page)
    page.locator("[data-control=restart]:not([disabled])").click()
    page.wait_for_url(re.compile(rf"/en/teach/class/(?!{first}|{second})[A-Z0-9]{{6}}/$"))
    expect(earlier).to_have_count(2)
    for n, code in enumerate((first, second)):
        game = earlier.nth(n)
        expect(game).to_contain_text(f"Game {n + 1}, table {code}")
        links = {
            game.get_by_role("link", name=name).get_attribute("href")
            for name in ("Watch the replay", "Open the game as a lesson",
                         "Print the game as a sheet")
        }  # fmt: skip
        assert links == {
            f"/en/replay/{code}/",
            f"/en/replay/{code}/lesson/",
            f"/en/teach/sheet/?parts=game:{code}",
        }
    assert serious_violations(page) == []
    earlier.first.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/en/replay/{first}/")
    page.locator("#progress").wait_for()


def pot_off_centre(page) -> float:
    """How far the Snap Pot's middle is from the table's, as a share of its width."""
    pot = page.locator("#table-picture .pot").bounding_box()
    table = page.locator("#table-picture").bounding_box()
    middle = table["x"] + table["width"] / 2
    return abs(pot["x"] + pot["width"] / 2 - middle) / table["width"]


def test_the_projector_shows_the_table_the_code_and_the_outcome_not_the_students_words(
    chromium, site_url
):
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    teacher = context.new_page()
    code = open_class(teacher, site_url, seats="3", turn_limit="10")
    projector = context.new_page()
    projector.goto(f"{site_url}/en/teach/class/{code}/projector/")
    projector.locator("#table-picture .pot").wait_for()
    expect(projector.locator(".projector-join")).to_be_visible()  # before the start: how to join
    teacher.locator("[data-control=start]:not([disabled])").click()
    expect(projector.locator(".projector-join")).to_be_hidden()
    expect(projector.locator("#share-code")).to_have_text(code)
    assert "You are watching" not in projector.locator("main").inner_text()
    projector.locator("#finished").wait_for(timeout=120_000)
    outcome = projector.locator("#finished-text")
    expect(outcome).to_be_visible()
    assert outcome.bounding_box()["y"] + 10 < 720  # the outcome on the wall, not below it
    for students in ("Stay on this page", "How to play", "Walkthroughs"):
        assert projector.get_by_text(students).filter(visible=True).count() == 0, students
    expect(projector.get_by_role("link", name="Watch the replay")).to_be_visible()
    assert pot_off_centre(projector) < 0.05
    assert serious_violations(projector) == []
    context.close()
