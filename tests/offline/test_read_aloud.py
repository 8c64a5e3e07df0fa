"""Read aloud with the device's own voices, in Chromium: a recording speechSynthesis is
put in the page before its scripts run (the text and lang of every utterance, in the
order read; the voices a test chooses), on a walkthrough in Tamil, the rules in
Hebrew and English, and a table on one device whose edges read English, Hebrew and
Tamil; no button where the device has no voice, and a note that says so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.play.test_device_table import KAVIN, NOA, button, device_table, touch

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-offline")
SCRIPTS = {
    "he": re.compile(r"[\u0590-\u05ff]"),
    "ta": re.compile(r"[\u0b80-\u0bff]"),
    "en": re.compile(r"[A-Za-z]"),
}
SYMBOLS = re.compile(r"[♠♥♦♣✓→←\u2068\u2069]")

#: A speechSynthesis that records instead of speaking; `window.addVoice(lang)` adds a
#: voice later, as browsers whose voices load late do (with `voiceschanged`).
RECORDER = """
(() => {
  const voice = (lang) => ({ lang, name: `Voice ${lang}`, voiceURI: lang, localService: true });
  const voices = %s.map(voice);
  const listeners = [];
  window.__spoken = [];
  window.SpeechSynthesisUtterance = class {
    constructor(text) { this.text = text; this.lang = ""; this.voice = null; }
  };
  const synth = {
    speaking: false, pending: false, paused: false, onvoiceschanged: null,
    getVoices: () => voices.slice(),
    speak: (u) => window.__spoken.push({ text: u.text, lang: u.lang, voice: u.voice?.lang }),
    cancel: () => window.__spoken.push({ cancel: true }),
    pause() {}, resume() {},
    addEventListener: (type, f) => type === "voiceschanged" && listeners.push(f),
    removeEventListener() {},
  };
  window.addVoice = (lang) => {
    voices.push(voice(lang));
    listeners.forEach((f) => f(new Event("voiceschanged")));
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
})();
"""


@pytest.fixture
def listener(chromium):
    """A page whose device has voices for ``voices`` (language tags)."""
    contexts = []

    def open_page(voices: list[str], *, size=(1280, 720), lang="en", cookies=()):
        context = chromium.new_context(
            viewport={"width": size[0], "height": size[1]}, locale=lang, has_touch=True
        )
        contexts.append(context)
        context.add_init_script(RECORDER % json.dumps(voices))
        if cookies:
            context.add_cookies(list(cookies))
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield open_page
    for context in contexts:
        context.close()


def spoken(page) -> list[dict]:
    """What was read, in order (the cancels between readings left out)."""
    return [u for u in page.evaluate("window.__spoken") if not u.get("cancel")]


def forget(page) -> None:
    page.evaluate("window.__spoken.length = 0")


def test_a_walkthrough_reads_its_caption_its_events_and_each_step_by_itself_in_tamil(
    site_url, listener
):
    page = listener(["ta-IN", "en-US"], lang="ta", size=(768, 1024))
    page.goto(f"{site_url}/ta/learn/tie/")
    page.wait_for_selector(".player:not([hidden])")
    caption = page.locator("#narration p.caption")
    caption.locator(".speak-button").click()
    said = spoken(page)
    assert len(said) == 1 and said[0]["lang"] == "ta" and said[0]["voice"] == "ta-IN"
    text = said[0]["text"]
    assert TAMIL_IN(text) and not SYMBOLS.search(text)
    # the words on screen, without the rule numbers
    on_screen = caption.inner_text().replace("\u2068", "").replace("\u2069", "")
    assert text in re.sub(r"\s+", " ", on_screen)

    forget(page)
    toggle = page.locator(".read-steps")
    assert SCRIPTS["ta"].search(toggle.inner_text())
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    first = spoken(page)
    assert first and all(u["lang"] == "ta" for u in first)
    forget(page)
    page.locator('[data-step="next"]').click()  # each step read by itself as it comes
    page.wait_for_timeout(100)
    steps = spoken(page)
    assert steps and steps[0]["text"] != first[0]["text"]
    assert all(u["lang"] == "ta" and not SYMBOLS.search(u["text"]) for u in steps)
    # a wrong press: the engine's answer and what happened, each line read
    for _ in range(20):
        if page.locator(".play-buttons .move.expected").count():
            break
        page.locator('[data-step="next"]').click()
        page.wait_for_timeout(450)
    expected = page.locator(".play-buttons .move.expected").get_attribute("data-press")
    wrong = next(k for k in ("turn", "snap", "snap_pot") if k != expected)
    forget(page)
    page.wait_for_timeout(450)
    page.locator(f'[data-press="{wrong}"]').click()
    page.locator("#narration .note").wait_for()
    answer = spoken(page)
    lines = page.locator("#narration > p, #narration .step-events > li")
    assert len(answer) == lines.count() >= 2
    assert all(u["lang"] == "ta" for u in answer)
    # every event line has its own button
    events = page.locator("#narration .step-events > li")
    for i in range(events.count()):
        assert events.nth(i).locator(".speak-button").is_visible()
    # a card as words ("the seven of ..."), never a symbol; a name as it was typed
    assert not any(SYMBOLS.search(u["text"]) for u in answer)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "read-aloud-walkthrough-ta-768x1024.png"))
    assert page.errors == []


def TAMIL_IN(text: str) -> bool:  # noqa: N802
    return bool(SCRIPTS["ta"].search(text))


@pytest.mark.parametrize("lang", ["he", "en"])
def test_each_rules_section_and_glossary_entry_is_read_in_the_pages_language(
    site_url, listener, lang
):
    page = listener([f"{lang}-XX"], lang=lang)
    page.goto(f"{site_url}/{lang}/rules/")
    sections = page.locator(".rules-section")
    buttons = page.locator(".rules-section > .speak-button")
    assert buttons.count() == sections.count() > 5
    assert buttons.first.is_visible()
    for i in range(3):
        buttons.nth(i).click()
    said = spoken(page)
    assert [u["lang"] for u in said] == [lang] * 3
    for i, utterance in enumerate(said):
        title = sections.nth(i).locator("h2").inner_text().strip()
        assert utterance["text"].startswith(title), (title, utterance["text"][:80])
        assert SCRIPTS[lang].search(utterance["text"])
    everything = [buttons.nth(i) for i in range(buttons.count())]
    forget(page)
    for b in everything:
        b.click()
    texts = [u["text"] for u in spoken(page)]
    assert not any(SYMBOLS.search(t) for t in texts)
    assert not any(re.search(r"\bR\d+\b", t) for t in texts)  # no rule numbers read
    if lang == "en":  # the suits as words, their symbols left out
        assert any("hearts, diamonds, clubs and spades" in t for t in texts), texts
    page.screenshot(path=str(SHOTS / f"read-aloud-rules-{lang}-1280x720.png"))

    page.goto(f"{site_url}/{lang}/glossary/")
    entry = page.locator(".glossary-entry").nth(0)
    forget(page)
    entry.locator(".speak-button").click()
    (said,) = spoken(page)
    assert said["lang"] == lang
    assert said["text"].startswith(entry.locator("dt").inner_text().strip())
    assert page.errors == []


def test_no_button_where_the_device_has_no_voice_and_a_note_says_so(site_url, listener):
    page = listener(["en-US"], lang="ta")
    page.goto(f"{site_url}/ta/start/")
    page.locator(".speech-note").wait_for(state="visible", timeout=5000)
    assert SCRIPTS["ta"].search(page.inner_text(".speech-note"))
    assert page.locator(".start-step").count() > 3
    assert page.locator(".speak-button:visible").count() == 0
    page.screenshot(path=str(SHOTS / "read-aloud-no-voice-ta-1280x720.png"))
    # a Tamil voice arriving late (voiceschanged): the buttons come, the note goes
    page.evaluate("window.addVoice('ta-LK')")
    assert page.locator(".speak-button:visible").count() == page.locator(".start-step").count()
    assert not page.locator(".speech-note").is_visible()
    page.locator(".start-step .speak-button").first.click()
    (said,) = spoken(page)
    assert said["lang"] == "ta" and said["voice"] == "ta-LK"
    assert page.errors == []


def test_a_walkthrough_with_no_voice_has_no_listen_button_nor_reading_mode(site_url, listener):
    page = listener([], lang="he")
    page.goto(f"{site_url}/he/learn/tie/")
    page.wait_for_selector(".player:not([hidden])")
    page.locator(".speech-note").wait_for(state="visible", timeout=5000)
    assert page.locator(".speak-button:visible").count() == 0
    assert not page.locator(".read-steps").is_visible()
    assert page.errors == []


ANA_EN = ("Ana", "en")
THREE = 'stacked_deck(3, ["7H", "7S", "2C", "9D", "4S", "5C"])'


def test_on_a_table_on_one_device_each_edge_reads_in_its_own_language(site_url, site_env, listener):
    people = [ANA_EN, NOA, KAVIN]
    key, code = device_table(site_env, people, beat_ms="None", deck=THREE)
    page = listener(
        ["en-GB", "he-IL", "ta-IN"],
        size=(1024, 768),
        cookies=[{"name": "sessionid", "value": key, "url": site_url}],
    )
    page.goto(f"{site_url}/en/play/{code}/")
    page.locator(".edge .piles .card").first.wait_for(timeout=10000)
    for seat in (0, 1):  # Ana's seven, then Noa's seven: a match
        page.locator(f"{button(seat, 'turn')}:not([disabled])").wait_for(timeout=5000)
        touch(page, button(seat, "turn"))
        page.locator(f'.edge[data-seat="{seat}"] .piles .card.face .rank').wait_for(timeout=5000)
    touch(page, button(2, "snap"))  # Kavin calls first
    for seat, (_name, lang) in enumerate(people):
        line = page.locator(f'.edge[data-seat="{seat}"] .edge-told li.told-piles_won')
        line.wait_for(timeout=5000)
        listen = line.locator(".speak-button")
        assert listen.is_visible()
        assert SCRIPTS[lang].search(listen.get_attribute("aria-label")), lang
        forget(page)
        listen.click()
        (said,) = spoken(page)
        assert said["lang"] == lang and said["voice"].startswith(lang)
        assert SCRIPTS[lang].search(said["text"].replace(KAVIN[0], "")), (lang, said)
        assert KAVIN[0] in said["text"]  # the winner's name, as typed
        assert not SYMBOLS.search(said["text"])
    page.screenshot(path=str(SHOTS / "read-aloud-device-en+he+ta-1024x768.png"))
    assert page.errors == []
