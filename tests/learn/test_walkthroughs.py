"""Finishing walkthroughs with the keyboard only, in three languages."""

import pytest

pytestmark = pytest.mark.browser


def tab_to(page, selector: str, limit: int = 60) -> None:
    """Press Tab until the element matching ``selector`` has the focus."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def narration(page) -> str:
    return page.inner_text("#narration")


def progress(page) -> str:
    return page.inner_text("#progress")


CASES = [
    # lang, walkthrough, forward key, the wrong press, the right press, the penalty rule
    ("en", "snap-by-anyone", "ArrowRight", "snap_pot", "snap", "R13"),
    ("he", "tie", "ArrowLeft", "snap_pot", "snap", "R13"),
    ("ta", "snap-pot", "ArrowRight", "snap", "snap_pot", "R13"),
]


@pytest.mark.parametrize(("lang", "slug", "forward", "wrong", "right", "rule"), CASES)
def test_finish_a_walkthrough_by_keyboard_with_a_mistake_first(
    site_url, page, screenshot, lang, slug, forward, wrong, right, rule
):
    page.goto(f"{site_url}/{lang}/learn/{slug}/")
    page.wait_for_selector(".player:not([hidden])")
    first_step = progress(page)
    page.keyboard.press(forward)  # step 1 -> 2: the match appears
    assert progress(page) != first_step
    table_before = page.inner_text("#table-picture")

    tab_to(page, f'[data-press="{wrong}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-step="retry"]:not([hidden])')
    assert page.locator("#narration .mistake").count() == 1
    assert page.locator(f'#narration a:has-text("{rule}")').count() == 1
    assert page.inner_text("#table-picture") != table_before  # the penalty card moved
    screenshot(page, f"walkthrough-{slug}-{lang}-mistake")
    assert page.evaluate("document.activeElement.dataset.step") == "retry"
    page.keyboard.press("Enter")  # try again: back to the same moment
    assert page.inner_text("#table-picture") == table_before

    tab_to(page, f'[data-press="{right}"]')
    page.keyboard.press("Enter")
    assert page.locator("#narration .mistake").count() == 0
    for _ in range(10):  # on to the end, by keyboard
        if page.is_visible("#finished"):
            break
        expects = page.evaluate(
            "() => { const f = JSON.parse(document.getElementById('walkthrough-frames')"
            ".textContent); const n = parseInt(document.getElementById('progress')"
            ".dataset.index || '0'); return f[n] ? f[n].expects : null; }"
        )
        if expects:
            tab_to(page, f'[data-press="{expects}"]')
            page.keyboard.press("Enter")
        else:
            page.keyboard.press(forward)
    assert page.is_visible("#finished")
    assert not page.is_visible('[data-step="retry"]')
    screenshot(page, f"walkthrough-{slug}-{lang}-finished")

    page.goto(f"{site_url}/{lang}/learn/")
    item = page.locator(f'.walkthrough-item[data-slug="{slug}"]')
    assert item.locator(".done-mark").is_visible()
    screenshot(page, f"learn-{lang}-done")


def test_pressing_snap_before_any_card_is_turned_costs_a_card_to_the_right(site_url, page):
    page.goto(f"{site_url}/en/learn/first-turns/")
    page.wait_for_selector(".player:not([hidden])")
    tab_to(page, '[data-press="snap"]')
    page.keyboard.press("Enter")
    # Names are bidi-isolated (U+2068 … U+2069) wherever a sentence carries them.
    assert (
        "Wrong call! \u2068Ben\u2069 gives a penalty card to \u2068Alexandra\u2069."
        in narration(page)
    )
    assert page.locator('#narration a:has-text("R14")').count() == 1


@pytest.mark.parametrize("lang", ["en", "ms", "mr", "he", "ta", "hr"])
def test_learn_pages_have_no_serious_accessibility_violations(site_url, page, lang):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    for path in (f"/{lang}/learn/", f"/{lang}/learn/tie/"):
        page.goto(site_url + path)
        results = axe.run(page)
        serious = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], (path, serious)
