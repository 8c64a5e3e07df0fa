"""What offline and read aloud add to the pages, at a desktop, a tablet and a phone, in
English, Hebrew and Tamil: nothing wider than the screen, every Listen button whole on
screen and big enough to tap. The screenshots (SHOTS, /tmp/shots-offline by default)
are there to be looked at."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.offline.test_read_aloud import RECORDER

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SHOTS", "/tmp/shots-offline"))
SIZES = {"1280x720": (1280, 720), "768x1024": (768, 1024), "360x640": (360, 640)}
VOICES = ["en-US", "he-IL", "ta-IN"]

#: Problems on screen: a page wider than the screen, a visible Listen button cut off
#: or smaller than 24 px (WCAG 2.2 target size).
PROBLEMS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const wide = document.documentElement.scrollWidth;
  if (wide > width + 1) problems.push(`page ${wide} wide`);
  const parts = ".speak-button, .read-steps, [data-action=keep-offline], .network-note";
  for (const b of document.querySelectorAll(parts)) {
    if (b.hidden || !b.offsetParent) continue;
    const r = b.getBoundingClientRect();
    if (r.left < -0.5 || r.right > width + 0.5) problems.push(`${b.className} off screen`);
    const small = r.width < 24 || r.height < 24;
    if (b.matches(".speak-button") && small) problems.push("small button");
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def context(chromium):
    context = chromium.new_context(has_touch=True)
    context.add_init_script(RECORDER % json.dumps(VOICES))
    yield context
    context.close()


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_offline_and_read_aloud_fit_every_screen(site_url, context, lang):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for name, path, shown in [
        ("learn", "learn/", ".keep-offline"),
        ("walkthrough", "learn/tie/?step=2", None),
        ("rules", "rules/", ".rules-section"),
        ("glossary", "glossary/", ".glossary-entry"),
        ("start", "start/", ".start-step"),
        ("lobby-offline", "play/", None),
    ]:
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{site_url}/{lang}/{path}")
            if name == "learn":
                page.locator(".keep-offline").wait_for()
            if name == "walkthrough":
                page.wait_for_selector(".player:not([hidden])")
            if name == "lobby-offline":
                page.context.set_offline(True)
                page.locator(".network-note").wait_for(state="visible")
            if shown:  # the part that changed, in view
                page.locator(shown).first.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(150)
            assert page.evaluate(PROBLEMS) == [], (lang, name, size)
            page.screenshot(path=str(SHOTS / f"{name}-{lang}-{size}.png"))
            if name == "lobby-offline":  # back by itself: the lobby opens again
                with page.expect_navigation():
                    page.context.set_offline(False)
                page.locator("#join_code").wait_for()
                assert not page.locator(".network-note").is_visible()
    assert errors == []
    page.close()
