"""Walkthroughs on paper and without JavaScript, and the player's accessibility:
focus after every press, one polite announcement per change, forced colours,
and axe on the states a learner reaches (the accessibility review)."""

import json

import pytest

pytestmark = pytest.mark.browser


def step_index(page) -> int:
    return int(page.get_attribute("#progress", "data-index"))


def open_player(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".player:not([hidden])")


def pdf_pages(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_a_walkthrough_prints_every_step_as_a_small_table_several_to_a_page(site_url, page, lang):
    open_player(page, f"{site_url}/{lang}/learn/running-out/")
    frames = json.loads(page.text_content("#walkthrough-frames"))
    assert page.evaluate("document.querySelector('.steps-text').open") is False
    page.emulate_media(media="print")
    assert not page.is_visible(".player")
    assert page.locator("main button:visible, main a.button:visible").count() == 0
    steps = page.locator(".walkthrough-step")
    assert steps.count() == len(frames)
    for number, frame in enumerate(frames):
        step = steps.nth(number)
        assert step.is_visible()  # printed although the list is closed on screen
        seats = step.locator(".mini-seat")
        assert seats.count() == len(frame["table"]["players"])
        assert all(seats.nth(i).is_visible() for i in range(seats.count()))
        assert frame["caption"] in step.inner_text()
    # The learner sits at the near side of every picture, the next seat to
    # the left of the learner (seen on paper: the same in Hebrew).
    learner, after = page.evaluate(
        """() => {
          const table = document.querySelector('.walkthrough-step .mini-table');
          const seats = [...table.querySelectorAll('.mini-seat')];
          const me = seats.find((s) => s.classList.contains('learner'));
          const next = seats[(seats.indexOf(me) + 1) % seats.length];
          const box = (e) => e.getBoundingClientRect();
          return [box(me), box(next)].map((b) => [b.x + b.width / 2, b.y + b.height / 2]);
        }"""
    )
    assert learner[1] > after[1] and after[0] < learner[0]
    pages = pdf_pages(page.pdf(format="A4"))
    assert pages <= (len(frames) + 1) // 2, pages


def test_the_rules_print_without_links_that_mean_nothing_on_paper(site_url, page):
    page.goto(f"{site_url}/en/rules/")
    assert page.is_visible('[data-action="print"]')  # with JavaScript the button works
    page.emulate_media(media="print")
    assert page.locator(".section-walkthroughs:visible").count() == 0
    assert not page.is_visible('[data-action="print"]')
    assert page.locator(".rules-section .clauses:visible").count() > 0  # rule numbers stay


def test_without_javascript_the_steps_read_with_their_tables(site_url, chromium):
    context = chromium.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/en/learn/tie/")
    assert not page.is_visible(".player")
    assert page.is_visible(".no-js-note")
    steps = page.locator(".walkthrough-step")
    assert steps.count() == 4
    assert all(steps.nth(i).locator(".mini-table").is_visible() for i in range(4))
    # Step 2 names Alexandra's 8 of clubs in words, not only in its picture.
    assert "8 of clubs" in steps.nth(1).locator(".mini-table").evaluate(
        "t => [...t.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label'))"
        ".join(' ')"
    )
    page.goto(f"{site_url}/en/rules/")
    assert not page.is_visible('[data-action="print"]')  # it would do nothing here
    context.close()


def test_focus_is_never_dropped_and_each_change_is_announced_once(site_url, page):
    open_player(page, f"{site_url}/en/learn/first-turns/")
    page.focus('[data-step="next"]')
    page.keyboard.press("Enter")  # into "your move": Next is disabled now
    assert step_index(page) == 1
    assert page.evaluate("document.activeElement.matches('[data-press]:not(:disabled)')")
    announced = page.text_content("#announcer")
    assert announced.startswith("Step 2 of 5.") and announced.count("Step") == 1
    assert page.get_attribute("#narration", "aria-live") is None  # one live region only
    page.focus('[data-press="turn"]')
    page.keyboard.press("Enter")
    page.focus('[data-step="next"]')
    for _ in range(2):
        page.keyboard.press("Enter")
    assert step_index(page) == 4  # the last step: Next is disabled
    assert page.evaluate("document.activeElement.matches('#finished [tabindex]')")
    assert "You have finished this walkthrough" in page.text_content("#announcer")
    page.focus('[data-step="back"]')
    for _ in range(4):
        page.keyboard.press("Enter")
    assert step_index(page) == 0  # Back is disabled at the start: focus on Next
    assert page.evaluate("document.activeElement.dataset.step") == "next"


def test_a_double_tap_does_not_fall_through_to_the_next_step(site_url, page):
    open_player(page, f"{site_url}/en/learn/tie/?step=2")
    page.dblclick('[data-press="snap"]')
    assert step_index(page) == 2  # the second tap is not a call on step 3
    assert page.locator("#narration .mistake").count() == 0


def test_forced_colours_keep_every_cue_as_a_border(site_url, page):
    page.emulate_media(forced_colors="active")
    open_player(page, f"{site_url}/en/learn/snap-pot/?step=2")
    style = page.evaluate(
        """() => {
          const css = (s, p) => getComputedStyle(document.querySelector(s))[p];
          return {
            toPlay: css('.seat.to-play', 'borderTopStyle'),
            learner: css('.seat.learner', 'borderTopStyle'),
            changed: css('.seat.changed', 'outlineStyle'),
            expected: css('.button.expected', 'outlineStyle'),
          };
        }"""
    )
    assert style == {
        "toPlay": "double",
        "learner": "dashed",
        "changed": "dotted",
        "expected": "dashed",
    }


@pytest.mark.parametrize("lang", ["en", "he"])
def test_no_serious_accessibility_violations_at_the_moments_a_learner_reaches(site_url, page, lang):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()

    def serious():
        results = axe.run(page)
        return [
            (v["id"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]

    open_player(page, f"{site_url}/{lang}/learn/running-out/?step=5")  # a player is out
    assert serious() == []
    page.keyboard.press("s")  # a wrong call: the engine's answer is shown
    assert serious() == []
    open_player(page, f"{site_url}/{lang}/learn/tie/?step=2")
    page.keyboard.press("p")
    page.wait_for_selector(".player.projector")
    assert serious() == []


def test_a_right_move_off_the_example_is_praised_and_leads_back_to_the_example(site_url, page):
    open_player(page, f"{site_url}/en/learn/snap-by-anyone/?step=2")
    frame = json.loads(page.text_content("#walkthrough-frames"))[1]
    answer = frame["branches"]["turn"]
    assert answer["outcome"] == "right"  # your turn: turning is right, not the example
    table_before = page.inner_text("#table-picture")
    page.click('[data-press="turn"]')
    assert page.locator("#narration .right").inner_text() == answer["note"]
    assert page.locator("#narration .mistake").count() == 0
    assert not page.is_visible('[data-step="retry"]')
    assert page.inner_text("#table-picture") != table_before  # the played-out result
    assert page.evaluate("document.activeElement.dataset.step") == "example"
    assert page.text_content("#announcer").strip().startswith(answer["note"])
    page.keyboard.press("Enter")  # "Back to the example"
    assert step_index(page) == 1
    assert page.inner_text("#table-picture") == table_before
    assert page.evaluate("document.activeElement.dataset.press") == "snap"


def test_a_refused_press_keeps_the_table_and_the_focus(site_url, page):
    open_player(page, f"{site_url}/en/learn/tie/")
    frame = json.loads(page.text_content("#walkthrough-frames"))[0]
    answer = frame["branches"]["turn"]
    assert answer["outcome"] == "refused"  # it is Ben's turn
    table_before = page.inner_text("#table-picture")
    page.focus('[data-press="turn"]')
    page.keyboard.press("Enter")
    assert page.locator("#narration .refused").inner_text() == answer["note"]
    assert page.inner_text("#table-picture") == table_before
    assert page.evaluate("document.activeElement.dataset.press") == "turn"
    assert page.text_content("#announcer").strip() == answer["note"]
    assert page.is_enabled('[data-step="next"]')
    page.keyboard.press("PageDown")  # and the example goes on from here
    assert step_index(page) == 1
    assert page.locator("#narration .refused").count() == 0
