"""A table on one device in a real browser, against the site's server: one tablet lying
flat, each child at an edge of their own, read the right way up from there, in that
edge's language; real multi-touch (Chromium's touch events, several fingers at once)
on the edges' buttons, judged by the engine.

The screenshots go to /work/wt/shots/device-page/ (SHOTS overrides it) and are there to
be looked at; the checks on them are what a test can see: each edge turned towards its
side, its words in its language, every button big enough, wholly on screen and not
covered, and no two parts of the board overlapping."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
from pathlib import Path

import pytest

from tests.browsers import manage

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SHOTS", "/work/wt/shots/device-page"))
SIZES = {"tablet-portrait": (768, 1024), "tablet-landscape": (1024, 768), "laptop": (1280, 800)}
SCRIPTS = {
    "he": re.compile(r"[\u0590-\u05ff]"),
    "ta": re.compile(r"[\u0b80-\u0bff]"),
    "en": re.compile(r"^[^\u0590-\u05ff\u0b80-\u0bff]*[A-Za-z][^\u0590-\u05ff\u0b80-\u0bff]*$"),
}


def unnamed(text: str) -> str:
    """A told line without the names in it (each isolated in U+2068 .. U+2069)."""
    return re.sub("\u2068[^\u2069]*\u2069", "", text)


def new_session(env: dict) -> str:
    code = (
        "from django.contrib.sessions.backends.db import SessionStore; "
        "s = SessionStore(); s.create(); print(s.session_key)"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def device_table(env: dict, people: list[tuple[str, str]], **settings: str) -> tuple[str, str]:
    """A table on one device in the served site's database, opened as the lobby opens
    one for a new browser session: ``people`` (name, language) on its first seats, all
    held by that session; ``settings`` as for ``tables.table_open_device`` (Python
    source: ``levels="[BotLevel.STEADY]"``, ``beat_ms="None"`` for people turning their
    cards). Returns (session key, table code), made by one ``manage.py`` process."""
    source = ", ".join(f"{k}={v}" for k, v in settings.items())
    code = (
        "from django.contrib.sessions.backends.db import SessionStore; "
        "from games import tables; from games.engine import BotLevel, Options; "
        "from tests.tables.helpers import stacked_deck; "
        "s = SessionStore(); s.create(); "
        "print(s.session_key, "
        f"tables.table_open_device(session_key=s.session_key, people={people!r}, {source}))"
    )
    key, table = manage(env, "shell", "-c", code).strip().splitlines()[-1].split()
    return key, table


def stored_events(env: dict, code: str) -> list[dict]:
    """The table's events as the server stored them (code and params), in order: read
    from the site's SQLite file, as often as a test looks, without a Django process."""
    path = env["DATABASE_URL"].removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(path, timeout=20)) as conn:
        rows = conn.execute(
            "select e.data from games_tableevent e join games_table t on t.id = e.table_id"
            " where t.code = ? order by e.seq",
            (code,),
        ).fetchall()
    return [json.loads(data) for (data,) in rows]


def refused(text: str) -> bool:
    """A console message that says the Content-Security-Policy refused something."""
    return bool(re.search(r"Content Security Policy|Refused to", text))


@pytest.fixture
def tablet(chromium, site_url, site_env):
    """Opens a page on a touch screen whose session holds a device table's seats."""
    contexts = []

    def open_page(people, *, lang="en", size=(768, 1024), **settings):
        key, code = device_table(site_env, people, **settings)
        width, height = size
        context = chromium.new_context(
            viewport={"width": width, "height": height}, has_touch=True, locale=lang
        )
        contexts.append(context)
        context.add_cookies([{"name": "sessionid", "value": key, "url": site_url}])
        page = context.new_page()
        page.errors = []  # script errors, and anything the CSP refused
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("console", lambda m: refused(m.text) and page.errors.append(m.text))
        page.goto(f"{site_url}/{lang}/play/{code}/")
        page.locator(".edge .piles .card").first.wait_for(timeout=10000)
        page.code = code
        return page

    yield open_page
    for context in contexts:
        context.close()


#: What is wrong with the board as it is on screen now.
BOARD_PROBLEMS = """() => {
  const problems = [];
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const board = document.getElementById("device-table");
  const parts = [...board.querySelectorAll(".edge, .device-centre")];
  const rects = parts.map((p) => p.getBoundingClientRect());
  const name = (p) => p.dataset.seat ? `edge ${p.dataset.seat}` : "the middle";
  rects.forEach((r, i) => {
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5)
      problems.push(`${name(parts[i])} is off the screen`);
    rects.slice(i + 1).forEach((q, j) => {
      const apart = r.right <= q.left + 0.5 || q.right <= r.left + 0.5
        || r.bottom <= q.top + 0.5 || q.bottom <= r.top + 0.5;
      if (!apart)
        problems.push(`${name(parts[i])} overlaps ${name(parts[i + 1 + j])}`);
    });
  });
  // Everything in a part is inside it (nothing cut off by its overflow: hidden)
  for (const part of parts) {
    const box = part.getBoundingClientRect();
    const inner = "button:not([hidden]), .edge-name, .pile, .pot, .bot, .finished, .centre-tools a";
    for (const el of part.querySelectorAll(inner)) {
      const r = el.getBoundingClientRect();
      if (!r.width) continue;
      const inside = r.top >= box.top - 0.5 && r.left >= box.left - 0.5
        && r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5;
      if (!inside)
        problems.push(`${el.className || el.tagName} of ${name(part)} is cut off`);
    }
  }
  for (const button of board.querySelectorAll(".edge button")) {
    const style = getComputedStyle(button);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const r = button.getBoundingClientRect();
    const where = `${button.dataset.move} of edge ${button.closest(".edge").dataset.seat}`;
    if (r.width < 48 || r.height < 48) problems.push(`${where} is ${r.width | 0}x${r.height | 0}`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !button.contains(hit)) problems.push(`${where} is covered`);
    if (style.touchAction !== "none") problems.push(`${where} may pan`);
  }
  if (document.documentElement.scrollWidth > vw || document.documentElement.scrollHeight > vh)
    problems.push("the page scrolls");
  return problems;
}"""

#: Which way each edge's name reads on screen: where its first letter is against its
#: last ("down" = from the screen's top to its bottom), and which way its letters stand.
READING = """() => [...document.querySelectorAll(".edge")].map((edge) => {
  const text = edge.querySelector(".edge-name .name").firstChild;
  const range = document.createRange();
  const at = (i) => {
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    return range.getBoundingClientRect();
  };
  const first = at(0), last = at(text.length - 1);
  const dx = last.left + last.width / 2 - (first.left + first.width / 2);
  const dy = last.top + last.height / 2 - (first.top + first.height / 2);
  const flow = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up");
  const style = getComputedStyle(edge);
  const side = [...edge.classList].find((c) => c.startsWith("edge-"));
  return {seat: Number(edge.dataset.seat), edge: side, flow, dir: edge.dir, lang: edge.lang,
          writing: style.writingMode, transform: style.transform};
})"""

#: The lines of a told log that stick out of its box (it hides what sticks out).
LINES_CUT = """(log) => {
  const box = log.getBoundingClientRect();
  return [...log.children].map((li) => li.getBoundingClientRect()).filter((r) =>
    r.top < box.top - 0.5 || r.left < box.left - 0.5 || r.bottom > box.bottom + 0.5
    || r.right > box.right + 0.5).map((r) => [r.top | 0, r.bottom | 0, box.top | 0, box.bottom | 0]
  );
}"""

#: The way a name written left to right reads at each edge, for the person sitting there.
LTR_FLOW = {"edge-bottom": "right", "edge-top": "left", "edge-left": "down", "edge-right": "up"}
RTL_FLOW = {"edge-bottom": "left", "edge-top": "right", "edge-left": "up", "edge-right": "down"}

ANA, NOA, KAVIN, LUKA, URI, MEENA = (
    ("Ana", "en"), ("נועה", "he"), ("கவின்", "ta"), ("Luka", "en"), ("אורי", "he"), ("மீனா", "ta"),
)  # fmt: skip
BOARDS = {
    # page language: (the people at the tablet, how many computer players), ...
    "en": [([ANA, NOA], 0), ([ANA, NOA, LUKA, URI], 1)],
    "he": [([NOA, KAVIN], 0), ([NOA, KAVIN, URI], 1), ([URI, KAVIN, NOA, MEENA], 2)],
    "ta": [([KAVIN, NOA], 1), ([KAVIN, NOA, MEENA, URI], 0)],
}


def computers(count: int) -> str:
    """The ``levels`` of ``count`` computer players (Python source)."""
    return "[" + ", ".join(["BotLevel.STEADY"] * count) + "]"


@pytest.mark.parametrize("lang", list(BOARDS))
def test_each_edge_faces_its_child_in_its_language_at_every_size(tablet, lang):
    for people, bots in BOARDS[lang]:
        # the biggest board has the index card (longer words on its call buttons)
        card = len(people) + bots == 6
        options = {"options": "Options(index_card=True)"} if card else {}
        page = tablet(people, lang=lang, levels=computers(bots), **options)
        langs = "+".join(sorted({p[1] for p in people})) + ("-index-card" if card else "")
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(400)
            name = f"device-{lang}-{len(people)}p-{langs}-{size}.png"
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / name))  # before the checks: to see what failed
            assert page.evaluate(BOARD_PROBLEMS) == [], (lang, len(people), size)
        # each edge reads the right way up from its side, in its language
        readings = page.evaluate(READING)
        for reading, (_name, edge_lang) in zip(readings, people, strict=True):
            flows = RTL_FLOW if edge_lang == "he" else LTR_FLOW
            assert reading["lang"] == edge_lang
            assert reading["dir"] == ("rtl" if edge_lang == "he" else "ltr")
            assert reading["flow"] == flows[reading["edge"]], reading
        for seat, (_name, edge_lang) in enumerate(people):
            edge = page.locator(f'.edge[data-seat="{seat}"]')
            words = edge.locator("[data-move=snap_pot]").inner_text()
            words += edge.locator(".edge-moves").get_attribute("aria-label")
            assert SCRIPTS[edge_lang].search(words), (edge_lang, words)
        assert page.errors == []
        if len(people) == 4:  # four edges turned four ways: axe finds nothing serious
            from tests.site.test_new_pages_access import serious_violations

            assert serious_violations(page) == [], (lang, people)


#: Decks for two: Ana's first card, then Noa's, ...: two sevens, or no pair at first.
SEVENS = 'stacked_deck(2, ["7H", "7S", "2C", "9D"])'
NO_PAIR = 'stacked_deck(2, ["7H", "2S", "9C", "4D"])'


def centre(page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box, selector
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def touch(page, *selectors: str) -> None:
    """Fingers on the centres of ``selectors`` all at once (one touch event with a
    touch point each, as a tablet sends two children's fingers), then lifted."""
    cdp = page.context.new_cdp_session(page)
    points = [
        {**centre(page, s), "id": i, "radiusX": 8, "radiusY": 8} for i, s in enumerate(selectors)
    ]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


#: Presses the button ``[watched, pressed][1]`` (a pointer coming down) the moment the
#: edge of ``watched`` tells that the piles were won.
PRESS_ON_PILES_WON = """([watched, pressed]) => {
  const edge = document.querySelector(watched).closest(".edge");
  new MutationObserver((changes, observer) => {
    if (!edge.querySelector(".told-piles_won")) return;
    observer.disconnect();
    const down = {button: 0, pointerId: 7, pointerType: "touch", bubbles: true};
    document.querySelector(pressed).dispatchEvent(new PointerEvent("pointerdown", down));
  }).observe(edge, {childList: true, subtree: true});
}"""


def button(seat: int, move: str) -> str:
    return f'.edge[data-seat="{seat}"] [data-move="{move}"]'


def top_rank(seat: int) -> str:
    return f'.edge[data-seat="{seat}"] .piles .card.face .rank'


def wait_for_event(env: dict, code: str, event: str, timeout: float = 10) -> list[dict]:
    """The stored events once one of kind ``event`` is among them."""
    deadline = time.monotonic() + timeout
    while True:
        events = stored_events(env, code)
        if any(e["code"] == event for e in events):
            return events
        assert time.monotonic() < deadline, (event, events)
        time.sleep(0.3)


def fits_at_every_size(page, lang: str, shot: str) -> None:
    """At each size the board keeps its places and no told line is cut; a screenshot of
    each (``device-<lang>-<shot>-<size>.png``)."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        assert page.evaluate(BOARD_PROBLEMS) == [], (lang, size)
        for log in page.locator(".edge-told").all():
            assert log.evaluate(LINES_CUT) == [], (lang, size)
        page.screenshot(path=str(SHOTS / f"device-{lang}-{shot}-{size}.png"))


def turn_both(page) -> None:
    """Ana (seat 0) and Noa (seat 1) each turn a card, by touch, at their own edge: the
    turn button is only at the edge of whoever is to play."""
    for seat in (0, 1):
        other = 1 - seat
        page.locator(f"{button(seat, 'turn')}:not([disabled])").wait_for(timeout=5000)
        assert not page.locator(button(other, "turn")).is_visible()
        touch(page, button(seat, "turn"))
        page.locator(top_rank(seat)).wait_for(timeout=5000)


def test_two_fingers_at_once_on_two_edges_snap_buttons_are_a_tie(tablet, site_env):
    # people turn their own cards here (no beat): the sevens come up on the second turn
    page = tablet([ANA, NOA], beat_ms="None", deck=SEVENS)
    turn_both(page)
    assert page.locator(top_rank(0)).inner_text() == page.locator(top_rank(1)).inner_text() == "7"
    touch(page, button(0, "snap"), button(1, "snap"))
    events = wait_for_event(site_env, page.code, "tie_to_pot")
    calls = [e for e in events if e["code"] in ("race_opened", "call_joined")]
    assert sorted(e["params"]["seat"] for e in calls) == [0, 1]
    # the two fingers reached the server well inside the tie window (150 ms)
    gap = calls[1]["params"]["at_ms"] - calls[0]["params"]["at_ms"]
    print(f"two fingers at once: the second call came {gap} ms after the first")
    assert 0 <= gap < 150
    tie = next(e for e in events if e["code"] == "tie_to_pot")
    assert sorted(tie["params"]["callers"]) == [0, 1]
    assert not any(e["code"] == "piles_won" for e in events)
    # each edge is told the tie in its own language, the outcome first
    page.locator('.edge[data-seat="1"] .told-tie_to_pot').wait_for(timeout=5000)
    assert SCRIPTS["he"].search(
        page.locator('.edge[data-seat="1"] .edge-told li').first.inner_text()
    )
    english = page.locator('.edge[data-seat="0"] .edge-told li').first.inner_text()
    assert not SCRIPTS["he"].search(english) and "tie" in english
    assert page.errors == []


def test_a_press_at_one_edge_calls_for_that_edges_child_only(tablet, site_env):
    page = tablet([ANA, NOA], beat_ms="None", deck=SEVENS)
    turn_both(page)
    touch(page, button(1, "snap"))  # Noa, at the top edge
    events = wait_for_event(site_env, page.code, "piles_won")
    calls = [e for e in events if e["code"] in ("race_opened", "call_joined", "wrong_call")]
    assert [e["params"]["seat"] for e in calls] == [1]
    won = next(e for e in events if e["code"] == "piles_won")
    assert won["params"]["winner"] == 1
    # Noa's face-down pile took both piles: 25 + 2; Ana's is as it was
    page.wait_for_function(
        """() => document.querySelector('.edge[data-seat="1"] .pile-count').textContent === "27" """
    )
    assert page.locator('.edge[data-seat="0"] .pile-count').first.inner_text() == "25"
    assert page.errors == []


def test_a_wrong_press_at_one_edge_pays_the_player_who_had_just_played(tablet, site_env):
    page = tablet([ANA, NOA], beat_ms="None", deck=NO_PAIR)
    page.locator(f"{button(0, 'turn')}:not([disabled])").wait_for(timeout=5000)
    touch(page, button(0, "turn"))  # Ana turns the seven of hearts: nothing to call
    page.locator(top_rank(0)).wait_for(timeout=5000)
    touch(page, button(1, "snap"))  # Noa calls anyway
    events = wait_for_event(site_env, page.code, "wrong_call")
    wrong = next(e for e in events if e["code"] == "wrong_call")
    # R13: the caller pays a card to the player who has just played: Ana
    assert wrong["params"]["seat"] == 1 and wrong["params"]["penalty_to"] == 0
    page.wait_for_function(
        """() => document.querySelector('.edge[data-seat="0"] .pile-count').textContent === "26" """
    )
    assert page.locator('.edge[data-seat="1"] .pile-count').first.inner_text() == "25"
    told = page.locator('.edge[data-seat="1"] .edge-told li').first
    assert "told-wrong_call" in told.get_attribute("class")
    assert SCRIPTS["he"].search(told.inner_text())
    assert page.errors == []


def test_one_shared_line_in_the_middle_when_every_edge_reads_one_language(tablet, site_env):
    page = tablet([ANA, LUKA], lang="he", beat_ms="None", deck=NO_PAIR)
    page.locator(f"{button(0, 'turn')}:not([disabled])").wait_for(timeout=5000)
    touch(page, button(0, "turn"))
    line = page.locator("#centre-told li.told-card_turned")
    line.wait_for(timeout=5000)
    # the edges' language (English), not the page's (Hebrew); no line at the edges
    assert "Ana" in line.inner_text() and not SCRIPTS["he"].search(line.inner_text())
    assert (line.get_attribute("lang"), line.get_attribute("dir")) == ("en", "ltr")
    assert not page.locator(".edge-told").first.is_visible()
    page.screenshot(path=str(SHOTS / "device-he-shared-en+en-tablet-portrait.png"))
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_at_each_edge_the_races_outcome_is_first_and_largest_too_late_under_it(
    tablet, site_env, lang
):
    people = {"en": [ANA, NOA], "he": [NOA, KAVIN], "ta": [KAVIN, NOA]}[lang]
    page = tablet(people, lang=lang, size=(1024, 768), beat_ms="None", deck=SEVENS)
    turn_both(page)
    # Ana's finger comes down the moment the piles are won: after them, so too late,
    # and within a child's reaction time of the change, so not wrong (R9 (D)). Pressed
    # from the page itself: a press sent from here could come later than that.
    page.evaluate(PRESS_ON_PILES_WON, [button(1, "snap"), button(0, "snap")])
    touch(page, button(1, "snap"))
    page.locator('.edge[data-seat="1"] .told-piles_won').wait_for(timeout=5000)
    wait_for_event(site_env, page.code, "too_late")
    for seat, (_name, edge_lang) in enumerate(people):
        log = page.locator(f'.edge[data-seat="{seat}"] .edge-told li')
        log.locator("xpath=self::*[contains(@class, 'told-too_late')]").first.wait_for()
        classes = [log.nth(i).get_attribute("class") for i in range(2)]
        assert classes == ["told-piles_won", "told-too_late"], (seat, classes)
        sizes = [
            float(log.nth(i).evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
            for i in range(2)
        ]
        assert sizes[0] > sizes[1], (seat, sizes)
        # both lines wholly inside the edge's box for its words (nothing cut off)
        cut = page.locator(f'.edge[data-seat="{seat}"] .edge-told').evaluate(LINES_CUT)
        assert cut == [], (seat, cut)
        assert SCRIPTS[edge_lang].search(unnamed(log.first.inner_text())), (
            edge_lang,
            log.first.inner_text(),
        )
    # the turn button is at the edge of whoever is to play now, and only there
    page.locator(".edge [data-move=turn]:not([disabled])").wait_for(timeout=5000)
    shown = page.locator(".edge [data-move=turn]:visible")
    assert shown.count() == 1
    assert "to-play" in shown.locator("xpath=ancestor::section[1]").get_attribute("class")
    langs = "+".join(p[1] for p in people)
    fits_at_every_size(page, lang, f"race-{langs}")
    assert page.errors == []


def test_a_class_tablets_children_write_who_is_there_and_each_gets_an_edge(
    chromium, site_url, site_env
):
    teacher = new_session(site_env)
    code = manage(
        site_env, "shell", "-c",
        "from games import tables; "
        f"print(tables.table_open_class(session_key={teacher!r}, class_name='2B', players=3, "
        "on_device=True, beat_ms=3000))",
    ).strip().splitlines()[-1]  # fmt: skip
    context = chromium.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    key = new_session(site_env)
    context.add_cookies([{"name": "sessionid", "value": key, "url": site_url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: refused(m.text) and errors.append(m.text))
    page.goto(f"{site_url}/he/play/{code}/")
    form = page.locator("#device-join")
    assert page.locator("h1").inner_text() == "מי משחק בטאבלט הזה?"
    assert form.locator("fieldset").count() == 3  # the table's three free seats
    page.screenshot(path=str(SHOTS / "device-he-class-tablet-who-is-here-tablet-portrait.png"))
    page.wait_for_timeout(500)  # connected
    # one name is not a group: told, nothing sent
    form.locator("#device-name-1").fill("Ana")
    form.locator("button[type=submit]").tap()
    assert SCRIPTS["he"].search(page.locator("#move-refused").inner_text())
    assert form.locator("#device-name-2").get_attribute("aria-invalid") == "true"
    form.locator("#device-lang-1").select_option("en")
    form.locator("#device-name-2").fill("נועה")
    form.locator("button[type=submit]").tap()
    # seated: the page comes back with an edge for each, in each one's language
    page.locator(".edge").nth(1).wait_for(timeout=10000)
    edges = page.locator(".edge")
    assert [edges.nth(i).get_attribute("lang") for i in range(2)] == ["en", "he"]
    assert edges.nth(0).locator(".name").inner_text() == "Ana"
    assert edges.nth(1).locator(".name").inner_text() == "נועה"
    assert "edge-top" in edges.nth(1).get_attribute("class")
    assert edges.nth(0).locator("[data-move=snap]").inner_text() == "Snap!"
    # the class's teacher starts the game; a class's tablet does not set its own pace
    page.wait_for_function("() => document.getElementById('table-status').textContent")
    status = page.locator("#table-status").inner_text()
    assert SCRIPTS["he"].search(status) and "2" in status and "3" in status, status
    assert not page.locator('[data-action="pace"]').is_visible()
    page.screenshot(path=str(SHOTS / "device-he-class-tablet-seated-en+he-tablet-portrait.png"))
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_group_makes_the_table_turn_faster_and_slower(tablet, site_env, lang):
    # the edges read English and Tamil, whatever the page's language
    page = tablet([ANA, KAVIN], lang=lang)  # the table turns the cards, slowly at first
    pace = page.locator('[data-action="pace"]')
    pace.wait_for()
    slower, faster = pace.locator('[data-beat="slower"]'), pace.locator('[data-beat="faster"]')
    # symbols every edge reads: no word in any language on them; named for a reader
    assert pace.inner_text().strip() == ""
    assert slower.get_attribute("aria-pressed") == "true"
    assert faster.get_attribute("aria-pressed") == "false"
    if lang == "en":
        assert faster.get_attribute("aria-label") == "Turn the cards faster"
    else:
        assert SCRIPTS["he"].search(faster.get_attribute("aria-label"))
    for button in (slower, faster):
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert not page.locator(".edge [data-move=turn]").first.is_visible()  # the table turns
    faster.tap()
    page.locator("#centre-told .told-control").wait_for(timeout=5000)
    page.wait_for_function(
        """() => document.querySelector('[data-beat="faster"]').getAttribute("aria-pressed")
                 === "true" """
    )
    assert slower.get_attribute("aria-pressed") == "false"
    page.screenshot(path=str(SHOTS / f"device-{lang}-pace-faster-en+ta-tablet-portrait.png"))
    source = (
        "import json; from games.models import TableControl; "
        f"rows = TableControl.objects.filter(table__code={page.code!r}); "
        "print(json.dumps([c.data for c in rows]))"
    )
    controls = json.loads(manage(site_env, "shell", "-c", source).strip().splitlines()[-1])
    assert [c["code"] for c in controls] == ["players_pace"], controls
    assert controls[0]["params"]["beat_ms"] == 1800, controls
    assert page.errors == []


@pytest.mark.parametrize("lang", ["he", "ta"])
def test_the_end_of_a_game_is_told_at_each_edge_in_its_language(tablet, site_env, lang):
    from tests.site.test_new_pages_access import serious_violations

    people = [NOA, KAVIN] if lang == "he" else [KAVIN, NOA]
    # a short game: the table turns every card quickly, and stops after six
    page = tablet(people, lang=lang, beat_ms="500", options="Options(turn_limit=6)")
    page.locator("#finished").wait_for(timeout=20000)
    wait_for_event(site_env, page.code, "game_over")
    for seat, (_name, edge_lang) in enumerate(people):
        over = page.locator(f'.edge[data-seat="{seat}"] .edge-told li.told-game_over')
        over.wait_for(timeout=5000)
        assert SCRIPTS[edge_lang].search(unnamed(over.inner_text())), over.inner_text()
        assert page.locator(f'.edge[data-seat="{seat}"] [data-move=snap]').is_disabled()
    # the middle, in the page's language: the end, and the replay
    assert SCRIPTS[lang].search(unnamed(page.locator("#finished-text").inner_text()))
    replay = page.locator("#finished a").first.get_attribute("href")
    assert replay == f"/{lang}/replay/{page.code}/"
    assert not page.locator('[data-action="pace"]').is_visible()
    fits_at_every_size(page, lang, "game-over")
    assert page.errors == []  # before axe, whose own inline styles the CSP refuses
    assert serious_violations(page) == []


def test_a_refused_press_is_told_at_its_own_edge_in_its_language(tablet, site_env):
    page = tablet([ANA, NOA], beat_ms="None", deck=SEVENS)
    turn_both(page)
    # Noa's two fingers at once on her own two buttons: the second call is refused
    touch(page, button(1, "snap"), button(1, "snap_pot"))
    refused = page.locator('.edge[data-seat="1"] .edge-told li.told-refused')
    refused.wait_for(timeout=5000)
    assert SCRIPTS["he"].search(refused.inner_text()), refused.inner_text()
    page.screenshot(path=str(SHOTS / "device-en-refused-en+he-tablet-portrait.png"))
    assert page.locator('.edge[data-seat="0"] .edge-told li.told-refused').count() == 0
    assert page.locator('.edge[data-seat="0"] .edge-refused').inner_text() == ""
    # the engine took the first call only: Noa wins the sevens
    events = wait_for_event(site_env, page.code, "piles_won")
    calls = [e for e in events if e["code"] in ("race_opened", "call_joined")]
    assert [(e["params"]["seat"], e["params"]["kind"]) for e in calls] == [(1, "snap")]
    assert page.errors == []


def test_three_children_open_a_tablet_table_from_the_lobby_and_the_table_turns(chromium, site_url):
    context = chromium.new_context(
        viewport={"width": 1024, "height": 768}, has_touch=True, locale="ta"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: refused(m.text) and errors.append(m.text))
    page.goto(f"{site_url}/ta/play/")
    form = page.locator("form.device-form")
    for number, (name, lang) in enumerate([KAVIN, NOA, LUKA], start=1):
        form.locator(f"#device_name_{number}").fill(name)
        form.locator(f"#device_lang_{number}").select_option(lang)
    form.locator("#device_computers").select_option("1")
    form.locator("button[type=submit]").tap()
    page.wait_for_url(re.compile(r"/ta/play/[A-Z0-9]{6}/$"))
    edges = page.locator(".edge")
    assert edges.count() == 3
    sides = [edges.nth(i).get_attribute("class").split()[1] for i in range(3)]
    assert sides == ["edge-bottom", "edge-left", "edge-right"]  # clockwise
    assert [edges.nth(i).get_attribute("lang") for i in range(3)] == ["ta", "he", "en"]
    assert page.locator(".bot").count() == 1
    # nobody presses anything: the table turns the first card, told at each edge
    page.locator(".edge .edge-told li.told-card_turned").first.wait_for(timeout=8000)
    for i, (_name, lang) in enumerate([KAVIN, NOA, LUKA]):
        told = edges.nth(i).locator(".edge-told li").first
        told.wait_for(timeout=5000)
        assert SCRIPTS[lang].search(unnamed(told.inner_text())), (lang, told.inner_text())
    assert not page.locator(".edge [data-move=turn]").first.is_visible()  # the table turns
    assert page.evaluate(BOARD_PROBLEMS) == []
    page.screenshot(path=str(SHOTS / "device-ta-lobby-3p-ta+he+en-tablet-landscape.png"))
    assert errors == []
    context.close()


def test_four_children_drumming_at_once_never_cost_the_tablet_its_connection(tablet, site_env):
    """Eight buttons drummed for four seconds: far more presses than the connection's
    frame budget; the tablet drops the extra presses itself, so the server never warns
    (``rate_limited``) nor closes the shared connection, and play goes on."""
    page = tablet([ANA, NOA, LUKA, URI], deck=SEVENS)
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket))
    page.reload()  # the socket opened from now on is the one watched
    page.locator(".edge .piles .card").first.wait_for(timeout=10000)
    frames = []
    socket = sockets[-1]
    socket.on("framereceived", lambda payload: frames.append(payload))
    socket.on("framesent", lambda payload: frames.append("SENT " + payload))
    buttons = [button(seat, move) for seat in range(4) for move in ("snap", "snap_pot")]
    # Eight fingers every 40 ms, for 4 s and at least 20 times: the places are found
    # once, so a busy machine drums as hard as a quiet one.
    points = [
        {**centre(page, b), "id": i, "radiusX": 8, "radiusY": 8} for i, b in enumerate(buttons)
    ]
    cdp = page.context.new_cdp_session(page)
    deadline, rounds = time.monotonic() + 4, 0
    while time.monotonic() < deadline or rounds < 20:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        rounds += 1
        page.wait_for_timeout(40)
    cdp.detach()
    page.wait_for_timeout(1500)
    sent = [f for f in frames if isinstance(f, str) and f.startswith("SENT ") and '"seat"' in f]
    errors = [json.loads(f) for f in frames if isinstance(f, str) and '"type": "error"' in f]
    print(f"drumming: {len(sent)} moves sent in 4 s by the tablet, errors {errors[:3]}")
    assert len(sent) > 12  # the children's presses went out...
    assert not any(e.get("code") == "rate_limited" for e in errors)  # ...within the budget
    assert not socket.is_closed()
    before = len(stored_events(site_env, page.code))
    page.wait_for_timeout(4000)  # the table turns at its slow beat (3 s): play goes on
    assert len(stored_events(site_env, page.code)) > before
    assert page.errors == []


def teacher_sends(site_url: str, teacher: str, code: str, message: dict) -> None:
    """The class's teacher (browser session ``teacher``) sends one control over the
    table's WebSocket, as the teacher's pages do, and waits until the table takes it."""
    from urllib.parse import urlsplit

    from tests.tables.wsclient import WSClient

    where = urlsplit(site_url)
    ws = WSClient(
        where.hostname, where.port, f"/ws/play/{code}/", origin=site_url,
        cookie=f"sessionid={teacher}",
    )  # fmt: skip
    try:
        ws.send_json({"type": "hello", "lang": "en"})
        ws.receive_json()  # the teacher's welcome
        ws.send_json(message)
        while (frame := ws.receive_json())["type"] not in ("control", "error"):
            pass
        assert frame["type"] == "control", frame
    finally:
        ws.close()


def test_a_computer_that_takes_a_free_seat_at_a_class_tablets_start_is_drawn_at_once(
    chromium, site_url, site_env
):
    from tests.site.test_new_pages_access import serious_violations

    teacher = new_session(site_env)
    code = manage(
        site_env, "shell", "-c",
        "from games import tables; from games.engine import BotLevel; "
        f"print(tables.table_open_class(session_key={teacher!r}, class_name='2C', players=4, "
        "on_device=True, beat_ms=3000, fill_level=BotLevel.STEADY))",
    ).strip().splitlines()[-1]  # fmt: skip
    context = chromium.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    context.add_cookies([{"name": "sessionid", "value": new_session(site_env), "url": site_url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site_url}/en/play/{code}/")
    page.wait_for_timeout(500)  # connected
    page.locator("#device-name-1").fill("Sam")
    page.locator("#device-name-2").fill("נועה")
    page.locator("#device-lang-2").select_option("he")
    page.locator("#device-join button[type=submit]").tap()
    page.locator(".edge").nth(1).wait_for(timeout=10000)
    assert page.locator(".bot").count() == 0  # nobody in the middle before the start
    page.evaluate("() => { window.notReloaded = true; }")
    teacher_sends(site_url, teacher, code, {"type": "start"})
    # the two free seats' computer players come into the middle, with their piles, on
    # this page as it is (it was not drawn again by the server)
    page.locator(".bot .piles .card").nth(3).wait_for(timeout=10000)
    bots = page.locator(".bot")
    assert [bots.nth(i).locator(".name").inner_text() for i in range(2)] == [
        "Computer 1",
        "Computer 2",
    ]
    assert [bots.nth(i).get_attribute("data-seat") for i in range(2)] == ["2", "3"]
    assert page.evaluate("() => window.notReloaded") is True
    # when one of them is to play, its turn is shown on it
    page.locator(".bot.to-play").wait_for(timeout=15000)
    assert page.evaluate(BOARD_PROBLEMS) == []
    page.screenshot(path=str(SHOTS / "device-en-class-tablet-computers-at-start.png"))
    assert errors == []
    assert serious_violations(page) == []
    context.close()
