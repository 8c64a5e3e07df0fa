"""A teacher builds a lesson in the builder (English), and children play it on a Hebrew
tablet and a Tamil phone: both marked moments answered wrongly, then rightly, each
answer the engine's, in the child's language; the teacher then changes an early step
and the rest of the lesson is played again on the engine."""

import os
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext

from tests.screens import serious_violations

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("LESSON_SHOTS", "/tmp/shots-lessons"))
SIZES = {"wide": (1280, 720), "tablet": (768, 1024), "phone": (360, 640)}


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def words_of(lang: str, msgid: str, plural: str = "", count: int = 2) -> str:
    """The longest piece of ``msgid``'s translation between its placeholders."""
    with translation.override(lang):
        text = ngettext(msgid, plural, count) if plural else gettext(msgid)
    return max(re.split(r"%\(\w+\)[sd]", text), key=len).strip()


def press_step(page, form: str, do: str) -> None:
    page.locator(f'{form} button[value="{do}"]').click()
    page.wait_for_load_state()


def build(page, site_url) -> str:
    """The teacher's stuck-pot lesson: an arranged deal, eight steps, two moments."""
    for lang in ("he", "ta", "en"):
        page.goto(f"{site_url}/{lang}/teach/lessons/")
        shot(page, f"lessons-{lang}-1280x720")
        assert serious_violations(page) == []
    fields = {
        "#id_title": "Our stuck pot",
        "#id_name_0": "Ana",
        "#id_pile_0": "10H 10C",
        "#id_name_1": "Ben",
        "#id_pile_1": "10S",
        "#id_name_2": "Chen",
        "#id_pile_2": "10D",
        "#id_turn_limit": "4",
    }
    for selector, value in fields.items():
        page.locator(f".lesson-setup {selector}").fill(value)
    page.get_by_role("button", name="Make the lesson").click()
    page.wait_for_url("**/edit/**?new=1")
    edit_link = page.locator("#edit-link").input_value()
    assert "/edit/" in edit_link
    code = page.locator("#lesson-keep").get_attribute("data-code")
    kept = page.evaluate(f"localStorage.getItem('snap-lesson-edit:{code}')")
    assert kept and "/edit/" in kept

    press_step(page, 'form[data-seat="0"]', "turn")
    press_step(page, 'form[data-seat="1"]', "turn")
    page.select_option("#both-seat", "0")
    page.select_option("#both-also", "1")
    press_step(page, ".builder-both", "snap")
    press_step(page, ".builder-more", "close")
    # A refused step: Ana cannot turn on Chen's turn; the engine says why, nothing changes.
    press_step(page, 'form[data-seat="0"]', "turn")
    assert "It is not your turn" in page.inner_text("#refused")
    press_step(page, 'form[data-seat="2"]', "turn")
    press_step(page, 'form[data-seat="0"]', "turn")
    page.select_option("#both-seat", "0")
    page.select_option("#both-also", "2")
    press_step(page, ".builder-both", "snap")
    press_step(page, ".builder-more", "close")
    assert "The game is over with 4 cards in the Snap Pot" in page.inner_text("#builder-said")
    assert serious_violations(page) == []

    # Two moments: Ana's first turn, and Ana's call in the tie (with a note).
    page.get_by_role("link", name="The start").click()
    page.locator("#id_ask").check()
    page.get_by_role("button", name="Save this step").click()
    page.locator(".builder-step-list li").nth(2).get_by_role("link").click()
    page.locator("#id_note").fill("Who calls first? <b>Look</b> at the two 10s.")
    page.locator("#id_ask").check()
    page.get_by_role("button", name="Save this step").click()
    assert page.locator(".builder-step-list .marked").count() == 2
    for lang in ("en", "he", "ta"):
        page.goto(re.sub(r"^(https?://[^/]+)/\w+/", rf"\1/{lang}/", page.url))
        assert f"/{lang}/teach/lessons/" in page.url
        for width, height in SIZES.values():
            page.set_viewport_size({"width": width, "height": height})
            shot(page, f"builder-{lang}-{width}x{height}")
        assert serious_violations(page) == []
    page.set_viewport_size({"width": 1280, "height": 720})
    return code


def answer(page, wrong: str, right: str, lang: str, name: str) -> str:
    """At a marked moment: the wrong press first (the engine's answer in ``lang``),
    try again, then the right one."""
    assert page.locator(f'[data-press="{right}"].expected').count() == 1
    page.wait_for_timeout(450)
    page.locator(f'[data-press="{wrong}"]').click()
    page.wait_for_selector('[data-step="retry"]:not([hidden])')
    told = page.inner_text("#narration")
    assert page.locator("#narration .mistake").count() == 1
    assert page.locator("#narration .clauses a").count() >= 1  # the rule, linked
    shot(page, name)
    page.locator('[data-step="retry"]').click()
    page.wait_for_timeout(450)  # a second tap this soon after a step change is ignored
    page.locator(f'[data-press="{right}"]').click()
    page.wait_for_timeout(450)
    return told


def play_as_child(chromium, site_url, code: str, lang: str, size: str) -> None:
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    page.goto(f"{site_url}/lesson/{code}/")
    assert page.url.endswith(f"/{lang}/lesson/{code}/")
    page.wait_for_selector(".player:not([hidden])")
    # Moment 1 (the start): Ana turns. "Snap!" before any card is turned is wrong.
    told = answer(page, "snap", "turn", lang, f"lesson-{lang}-{size}-moment1-wrong")
    assert words_of(lang, "That was a wrong call, %(player)s: nobody has turned over a card yet, "
                    "so there is nothing to match.") in told  # fmt: skip
    assert page.locator('[data-press="snap"].expected').count() == 0  # on, past the moment
    page.locator('[data-step="next"]').click()  # Ben turns the 10 of spades
    page.wait_for_timeout(450)
    # Moment 2: the two 10s match. "Snap Pot!" is the wrong word: there is no pot yet.
    note = page.inner_text("#narration .teacher-note")
    assert "<b>Look</b>" in note  # the teacher's markup is text
    told = answer(page, "snap_pot", "snap", lang, f"lesson-{lang}-{size}-moment2-wrong")
    assert (
        words_of(
            lang,
            "Wrong word, %(player)s! The top card of %(count)d face-up pile matches, and there is "
            "no Snap Pot yet, so the call is “Snap!”, not “Snap Pot!”",
            "Wrong word, %(player)s! The top cards of %(count)d face-up piles match, and there is "
            "no Snap Pot yet, so the call is “Snap!”, not “Snap Pot!”",
        )
        in told
    )
    shot(page, f"lesson-{lang}-{size}-after-right")
    for _ in range(8):
        if page.is_visible("#finished"):
            break
        page.locator('[data-step="next"]').click()
        page.wait_for_timeout(450)
    assert page.is_visible("#finished")
    shot(page, f"lesson-{lang}-{size}-end")
    context.close()


def test_a_teacher_builds_a_lesson_and_children_play_it_in_their_languages(
    site_url, chromium, page
):
    page.set_viewport_size({"width": 1280, "height": 720})
    code = build(page, site_url)
    edit_url = re.sub(r"^(https?://[^/]+)/\w+/", r"\1/en/", page.url)

    play_as_child(chromium, site_url, code, "he", "tablet")
    play_as_child(chromium, site_url, code, "ta", "phone")

    # The teacher changes step 3: Ana alone calls "Snap!" and wins the 10s; the rest is
    # played again, and the pot ends with two 10s instead of four.
    page.goto(re.sub(r"\?.*", "", edit_url) + "?at=2")
    page.locator('form[data-seat="0"] button[value="snap"]').click()
    page.wait_for_load_state()
    page.goto(re.sub(r"\?.*", "", edit_url) + "?at=8")
    assert "The game is over with 2 cards in the Snap Pot" in page.inner_text("#builder-said")
    assert page.locator(".builder-step-list .marked").count() == 2
    shot(page, "builder-en-1280x720-edited")

    # Anyone else's browser: the plain link shows the lesson, the edit page is refused.
    other = chromium.new_context(locale="en")
    stranger = other.new_page()
    wrong = re.sub(r"/edit/[^/]+/", "/edit/guess/", edit_url)
    assert stranger.goto(wrong).status == 403
    other.close()
