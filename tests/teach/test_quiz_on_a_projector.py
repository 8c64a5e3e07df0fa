"""The quiz on a projector: answered with the keyboard in Hebrew, one
question at a time, with screenshots at 1280x720 in en/he/ta."""

from __future__ import annotations

import json

import pytest

from tests.browsers import SCREENSHOTS

pytestmark = pytest.mark.browser

SEED = 31


@pytest.fixture
def projector(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    yield page
    context.close()


def questions(page) -> list[dict]:
    return json.loads(page.locator("#quiz-questions").text_content())


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    # Scrolling aligns to whole pixels: a fraction of a pixel over the edge is in view.
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= 721


def test_a_quiz_answered_by_keyboard_in_hebrew(site_url, projector):
    page = projector
    page.goto(f"{site_url}/he/teach/quiz/?seed={SEED}")
    data = questions(page)
    assert page.locator("#quiz-list").is_hidden()
    right = 0
    for i, q in enumerate(data):
        assert page.locator("#quiz-progress").text_content().strip()
        assert page.locator("#quiz-table .seat").count() == len(q["table"]["players"])
        keys = [c["key"] for c in q["choices"]]
        assert page.locator(".quiz-choice").count() == len(keys)
        # Right on even questions, wrong on odd ones.
        key = q["answer"] if i % 2 == 0 else next(k for k in keys if k != q["answer"])
        right += key == q["answer"]
        page.keyboard.press(str(keys.index(key) + 1))
        result = page.locator(".quiz-result")
        assert (
            "right" in result.get_attribute("class")
            if key == q["answer"]
            else "wrong" in (result.get_attribute("class"))
        )
        assert q["verdict"] in page.locator("#quiz-feedback").inner_text()
        assert page.locator(f"#quiz-feedback a[href='{q['clauses'][0]['url']}']").count() == 1
        assert page.locator(".quiz-choice.correct").count() == 1
        if i == 0:
            assert in_view(page, "#quiz-next") and in_view(page, "#quiz-table")
            page.screenshot(path=str(SCREENSHOTS / "quiz-he-answered.png"))
        page.keyboard.press("PageDown")
    score = page.locator("#quiz-score")
    assert score.is_visible()
    assert f"{right}" in score.text_content() and f"{len(data)}" in score.text_content()
    page.screenshot(path=str(SCREENSHOTS / "quiz-he-score.png"))


def test_page_down_before_an_answer_shows_it_then_goes_on(site_url, projector):
    page = projector
    page.goto(f"{site_url}/en/teach/quiz/?seed={SEED}")
    first = page.locator("#quiz-prompt").text_content()
    page.keyboard.press("PageDown")
    assert page.locator(".quiz-result.shown").is_visible()
    page.keyboard.press("PageDown")
    assert page.locator("#quiz-progress").text_content().startswith("Question 2 of 8")
    page.keyboard.press("PageUp")
    assert page.locator("#quiz-prompt").text_content() == first


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_quiz_screens_fit_a_projector(site_url, projector, lang):
    page = projector
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{site_url}/{lang}/teach/quiz/?seed={SEED}")
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(SCREENSHOTS / f"quiz-{lang}.png"))
    for selector in ("#quiz-table", "#quiz-prompt", "#quiz-choices"):
        assert in_view(page, selector), selector
    page.keyboard.press("1")
    page.screenshot(path=str(SCREENSHOTS / f"quiz-{lang}-answer.png"))
    assert in_view(page, "#quiz-next")
    page.goto(f"{site_url}/{lang}/teach/quiz/print/?seed={SEED}")
    page.emulate_media(media="print")
    page.screenshot(path=str(SCREENSHOTS / f"quiz-{lang}-print.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "ms", "mr", "he", "ta", "hr"])
def test_on_a_phone_each_question_and_all_its_answers_are_on_the_screen(chromium, site_url, lang):
    """At 360x640 (the trial found the answers below the first screen): for every
    question, once shown, the question and every answer button are in view."""
    context = chromium.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    page.goto(f"{site_url}/{lang}/teach/quiz/?seed={SEED}")
    page.evaluate("document.fonts.ready")
    for i, _question in enumerate(questions(page)):
        page.wait_for_function("n => document.activeElement.id === 'quiz-prompt'", arg=i)
        boxes = page.eval_on_selector_all(
            "#quiz-prompt, .quiz-choice",
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [e.textContent, r.top, r.bottom]; })",
        )
        assert len(boxes) >= 3  # the question and at least two answers
        off = [(text, top, bottom) for text, top, bottom in boxes if top < -1 or bottom > 641]
        assert not off, (lang, i + 1, off)
        if i == 2:
            page.screenshot(path=str(SCREENSHOTS / f"quiz-{lang}-phone-3.png"))
        page.locator(".quiz-choice").first.tap()
        page.locator("#quiz-next").tap()
    context.close()
