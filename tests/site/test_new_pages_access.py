"""Accessibility of the pages that came with live tables, replays, the quiz, lesson
sheets and class tables, in English, Hebrew and Tamil, against the site's server: axe finds
nothing serious or critical, headings go down one level at a time, each page fits a
360 px phone without sideways scrolling, and the keyboard works where it matters (the
live table's moves, focus that shows, form errors tied to their fields)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browsers import loaded, served, store_finished_game
from tests.screens import BROKEN_WORDS

pytestmark = pytest.mark.browser

LANGS = ["en", "he", "ta"]


@pytest.fixture(scope="module")
def finished(site_url, site_env):
    """The code of a finished game of three stored in the site's database."""
    return store_finished_game(site_env, {0: "נועה", 1: "Kavin"})


@pytest.fixture(scope="module")
def plain_site_url(site_url, site_env):
    """The same site with debug pages off, as a classroom runs it: a wrong address
    shows the site's own "Page not found" (the debug server shows Django's)."""
    env = {
        **site_env,
        "DEBUG": "",
        "SECRET_KEY": "browser-tests-only",
        "PLAIN_STATIC": "1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    log_path = Path(env["DATABASE_URL"].removeprefix("sqlite:///")).parent / "plain.log"
    with served(env, log_path) as url:
        yield url


# --- Opening each page ----------------------------------------------------------------


def open_practice_table(page, url: str, lang: str) -> None:
    """A live table, made as a child makes one: the lobby's practice form."""
    page.goto(f"{url}/{lang}/play/")
    page.locator("#practice_name").fill("Sam")
    page.locator(".practice-choices summary").click()  # the choices are folded
    page.locator("#practice_computers").select_option("1")
    page.locator("form[action$='/play/practice/'] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[A-Z0-9]{6}/$"))
    page.locator(".seat").first.wait_for()


def open_class_page(page, url: str, lang: str) -> None:
    """The teacher's page of a new class table, opened from the class form."""
    page.goto(f"{url}/{lang}/teach/class/")
    page.locator("#class_class_name").fill("Class 4B")
    page.locator("#class_seats").select_option("3")
    page.locator("form.open-form button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/{lang}/teach/class/[A-Z0-9]{{6}}/$"))
    page.locator("#class-seats tr").first.wait_for()


def open_player(page, address: str) -> None:
    page.goto(address)
    page.locator(".player:not([hidden]) .seat").first.wait_for()


def open_page(name: str, page, lang: str, urls: dict) -> None:
    url = urls["site"]
    if name == "lobby":
        page.goto(f"{url}/{lang}/play/")
    elif name == "lobby-errors":  # a code that is no table: the join form says so
        page.goto(f"{url}/{lang}/play/?code=ZZZZZZ")
    elif name == "table":
        open_practice_table(page, url, lang)
    elif name == "replay":
        open_player(page, f"{url}/{lang}/replay/{urls['finished']}/")
    elif name == "lesson":
        open_player(page, f"{url}/{lang}/replay/{urls['finished']}/lesson/")
    elif name == "teach":
        page.goto(f"{url}/{lang}/teach/")
    elif name == "quiz":
        page.goto(f"{url}/{lang}/teach/quiz/?seed=1")
        page.locator("#quiz-app:not([hidden]) .quiz-choice").first.wait_for()
    elif name == "quiz-print":
        page.goto(f"{url}/{lang}/teach/quiz/print/?seed=1")
    elif name == "sheet":
        page.goto(f"{url}/{lang}/teach/sheet/?parts=start,glossary")
    elif name == "class-form":
        page.goto(f"{url}/{lang}/teach/class/")
    elif name == "class-form-errors":  # sent without a class name
        page.goto(f"{url}/{lang}/teach/class/")
        page.locator("form.open-form button[type=submit]").click()
        page.locator(".errorlist").first.wait_for()
    elif name == "class-teacher":
        open_class_page(page, url, lang)
    elif name == "not-found":
        response = page.goto(f"{urls['plain']}/{lang}/no-such-page/")
        assert response.status == 404
    else:
        raise ValueError(name)


PAGES = [
    "lobby",
    "lobby-errors",
    "table",
    "replay",
    "lesson",
    "teach",
    "quiz",
    "quiz-print",
    "sheet",
    "class-form",
    "class-form-errors",
    "class-teacher",
    "not-found",
]


@pytest.fixture
def urls(site_url, finished, plain_site_url):
    return {"site": site_url, "finished": finished, "plain": plain_site_url}


# --- What is checked on each page -------------------------------------------------------


def serious_violations(page) -> list[tuple]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


HEADINGS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter(h => !h.closest('[hidden]'))
  .map(h => Number(h.tagName[1]))"""


def heading_jumps(levels: list[int]) -> list[tuple[int, int]]:
    """Each place where a heading goes down more than one level (h2 straight to h4)."""
    return [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]


def sideways_overflow(page) -> int:
    """How far the page scrolls sideways (0 when it fits its window)."""
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


#: The elements whose box reaches past the window's left or right edge (at most five,
#: outermost first, with their left and right edges): what a failure of "fits a phone"
#: names.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className.trim()
       ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  return [...document.body.querySelectorAll("*")]
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, box]) => box.width > 1 && (box.right > width + 0.5 || box.left < -0.5))
    .slice(0, 5)
    .map(([el, box]) => `${name(el)} ${Math.round(box.left)}..${Math.round(box.right)}`);
}"""


def settled(page) -> None:
    """Wait until the page is whole before it is measured: loaded with its styles and
    fonts (a form sent by a click shows its error list before), and a moment for what
    its scripts draw (the table picture, the class seats)."""
    loaded(page)
    page.wait_for_timeout(200)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PAGES)
def test_new_pages_fit_a_phone_and_have_no_serious_violations_and_headings_in_order(
    chromium, urls, name, lang, screenshot
):
    """Each page opened once (a table or a class made once): on a 360 px phone nothing
    scrolls sideways; in a window widened to a laptop's, axe finds nothing serious or
    critical and the headings go down one level at a time."""
    context = chromium.new_context(viewport={"width": 360, "height": 640}, locale=lang)
    page = context.new_page()
    open_page(name, page, lang, urls)
    settled(page)
    if name in ("lobby", "class-teacher") and lang in ("he", "ta"):
        screenshot(page, f"access-360-{name}-{lang}")
    assert sideways_overflow(page) <= 0, (name, lang, page.evaluate(STICKING_OUT))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(200)  # drawn again for the wider window
    assert serious_violations(page) == [], (name, lang)
    levels = page.evaluate(HEADINGS)
    assert levels.count(1) == 1 and levels[0] == 1, (name, lang, levels)
    assert heading_jumps(levels) == [], (name, lang, levels)
    context.close()


#: Per seat row: words broken across lines, and whether the seat's number, the player
#: and the row's button (if any) stand side by side (their heights overlap).
SEAT_CARDS = (
    """() => [...document.querySelectorAll('#class-seats tr')].map((row) => {
  const broken = ("""
    + BROKEN_WORDS
    + """)(row);
  const boxes = [row.querySelector('th'), row.cells[1], row.querySelector('button')]
    .filter(Boolean).map((el) => el.getBoundingClientRect());
  const sideBySide = Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
  return {broken, oneLine: sideBySide,
          label: (row.querySelector('.cell-label') || {}).innerText || ''};
})"""
)


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_each_seat_of_the_class_page_is_a_card_with_whole_words(
    chromium, urls, lang, screenshot
):
    from tests.browsers import join_by_code as join

    contexts = [chromium.new_context(viewport={"width": 360, "height": 640}, locale=lang)]
    contexts.append(chromium.new_context(locale=lang))
    teacher, student = (c.new_page() for c in contexts)
    open_class_page(teacher, urls["site"], lang)
    code = re.search(r"/class/([A-Z0-9]{6})/", teacher.url).group(1)
    join(student, urls["site"], lang, code, "Kavin", done=["first-turns"])
    teacher.locator("#class-seats .done-list li").wait_for()
    teacher.locator("#class-seats tr").nth(1).locator("button").click()  # a computer player
    teacher.locator("#class-seats tr.seat-bot").wait_for()
    cards = teacher.evaluate(SEAT_CARDS)
    assert [c["broken"] for c in cards] == [[], [], []], (lang, cards)
    assert all(c["oneLine"] for c in cards), (lang, cards)
    # the student's walkthroughs under their column's name (the headers are not shown)
    title = teacher.locator("#seats-done-title").text_content().strip()
    assert cards[0]["label"] == title
    assert teacher.locator(".class-seats thead").bounding_box()["width"] <= 1
    assert sideways_overflow(teacher) <= 0, (lang, teacher.evaluate(STICKING_OUT))
    # still a table to a screen reader: its headers name each cell
    assert teacher.get_by_role("columnheader").count() == 4
    assert teacher.get_by_role("rowheader").count() == 3
    assert serious_violations(teacher) == [], lang
    screenshot(teacher, f"class-teacher-cards-360-{lang}")
    for c in contexts:
        c.close()


# --- The keyboard ---------------------------------------------------------------------


FOCUSED = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return {tag: el.tagName, text: (el.dataset.move || el.dataset.control || el.id
                                  || el.textContent || '').trim().slice(0, 40),
          outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2};
}"""


def focused(page) -> dict:
    """The focused element, and whether an outline of 2 px or more shows it."""
    return page.evaluate(FOCUSED)


def tab_through(page, presses: int) -> list[dict]:
    """Press Tab ``presses`` times from the top of the page; what each press focused."""
    page.locator("body").focus()
    seen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        seen.append(focused(page))
    return seen


@pytest.mark.parametrize(
    "name", ["lobby", "table", "lesson", "teach", "quiz", "class-form", "class-teacher"]
)
def test_every_control_shows_its_keyboard_focus(page, urls, name):
    open_page(name, page, "en", urls)
    seen = tab_through(page, 30)
    assert len({f["text"] for f in seen}) > 10, seen  # Tab went somewhere
    assert [f for f in seen if not f["outline"] and f["tag"] != "BODY"] == [], name


def tab_to(page, selector: str, presses: int = 40) -> dict | None:
    page.locator("body").focus()
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return focused(page)
    return None


def mark_told(page) -> None:
    """Mark what the table has told so far (its log keeps the last few lines only)."""
    page.evaluate(
        "() => document.querySelectorAll('#told-log li').forEach(li => li.dataset.seen = '1')"
    )


def wait_for_news(page) -> None:
    page.wait_for_function("() => document.querySelector('#told-log li:not([data-seen])')")


@pytest.mark.parametrize("lang", LANGS)
def test_the_live_tables_moves_are_labelled_reachable_and_told_politely(page, urls, lang):
    open_practice_table(page, urls["site"], lang)
    moves = page.locator(".live-buttons [data-move]")
    assert [m.get_attribute("aria-keyshortcuts") for m in moves.all()] == ["T", "S", "O"]
    for move in moves.all():  # each named in words, the key aside
        assert move.evaluate("e => e.textContent.trim().length > 1")
    assert page.get_by_role("group", name=re.compile(".+")).locator("[data-move]").count() == 3
    assert page.locator("#announcer").get_attribute("aria-live") == "polite"
    assert page.locator("#table-status").get_attribute("role") == "status"
    # The opener turns first: Tab reaches "Turn over a card", its focus shows, Enter turns.
    page.locator("[data-move=turn]:not([disabled])").wait_for()
    reached = tab_to(page, "[data-move=turn]")
    assert reached and reached["outline"], "Tab never reached the turn button, or hid it"
    mark_told(page)
    page.keyboard.press("Enter")
    wait_for_news(page)
    # The button is disabled until the next turn: the focus waits on the moves (not on
    # <body>, not on "Snap!" where a second Enter would call), then comes back to it.
    assert page.locator("[data-move=turn]").is_disabled()
    assert page.evaluate("() => document.activeElement.classList.contains('live-buttons')")
    page.locator("[data-move=turn]:not([disabled])").wait_for(timeout=15000)
    assert focused(page)["text"] == "turn"
    mark_told(page)
    page.keyboard.press("t")  # and the key does what the button does
    wait_for_news(page)


def test_the_teachers_controls_keep_the_focus_as_they_change(page, urls):
    open_class_page(page, urls["site"], "en")
    assert page.locator("#class-status").get_attribute("role") == "status"
    add = page.locator("#class-seats tr.seat-empty button").first
    add.focus()
    page.keyboard.press("Enter")  # the row is drawn again with "Remove the computer player"
    page.locator("#class-seats tr.seat-bot").first.wait_for()
    assert focused(page)["tag"] == "BUTTON" and page.evaluate(
        "() => document.activeElement.closest('tr').classList.contains('seat-bot')"
    )
    page.locator("#class-seats tr.seat-empty button").first.click()
    start = page.locator("[data-control=start]")
    start.focus()
    page.keyboard.press("Enter")  # Start is hidden, Pause shown: the focus goes there
    page.locator("[data-control=pause]").wait_for()
    assert focused(page)["text"] == "pause"
    page.keyboard.press("Enter")
    page.locator("[data-control=resume]").wait_for()
    assert focused(page)["text"] == "resume"
    page.keyboard.press("Enter")
    page.locator("[data-control=pause]").wait_for()
    page.wait_for_timeout(1000)  # frames of the game go on coming: the focus stays
    assert focused(page) == {"tag": "BUTTON", "text": "pause", "outline": True}


def field_errors(page, field: str) -> dict:
    """How a field's error reaches a screen reader: whether it says it is invalid, and
    the texts of what describes it."""
    return page.evaluate(
        """id => {
          const el = document.getElementById(id);
          const ids = (el.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
          return {invalid: el.getAttribute('aria-invalid'),
                  described: ids.map(i => (document.getElementById(i) || {}).textContent || '')};
        }""",
        field,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_form_errors_are_tied_to_their_fields(chromium, page, urls, lang):
    open_page("lobby-errors", page, lang, urls)
    code = field_errors(page, "join_code")
    assert code["invalid"] == "true" and any(t.strip() for t in code["described"]), code
    open_page("class-form-errors", page, lang, urls)
    name = field_errors(page, "class_class_name")
    assert name["invalid"] == "true" and any(t.strip() for t in name["described"]), name
    # A student at a class table sits down without a name: told at the field.
    open_class_page(page, urls["site"], lang)
    code = page.locator("#class-code").inner_text().strip()
    student = chromium.new_context(locale=lang).new_page()
    student.goto(f"{urls['site']}/{lang}/play/{code}/")
    student.locator("#join-seat:not([hidden])").wait_for()
    student.locator("#join-name").press("Enter")
    student.locator("#join-name[aria-invalid=true]").wait_for()
    told = field_errors(student, "join-name")
    assert any(t.strip() for t in told["described"]), told
    assert focused(student)["text"] == "join-name"
    student.locator("#join-name").fill("Kavin")
    assert student.locator("#join-name").get_attribute("aria-invalid") is None
    student.context.close()


# --- Contrast axe cannot measure --------------------------------------------------------


def contrast(a: tuple, b: tuple) -> float:
    def lum(c):
        ch = [v / 255 for v in c[:3]]
        ch = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def settled_box(page, selector: str) -> dict:
    """The element's box once the fonts are in and the table has stopped refitting: a box
    read while a late refit (fonts, a scrollbar) moves the pot clips the page around it
    (CI once: pure white under the quiz's pot name)."""
    page.evaluate("document.fonts.ready")
    # Bounded: Playwright's evaluate waits for its promise without a time limit, and a
    # live table may redraw (or replace) the element at every event.
    box = page.evaluate(
        """selector => new Promise(resolve => {
          let last = '', same = 0, box = null;
          const until = performance.now() + 5000;
          const look = () => {
            const element = document.querySelector(selector);
            if (element) {
              const r = element.getBoundingClientRect();
              const now = [r.x, r.y, r.width, r.height].join();
              same = now === last ? same + 1 : 0;
              last = now;
              box = {x: r.x, y: r.y, width: r.width, height: r.height};
            }
            if ((box && same >= 5) || performance.now() > until) resolve(box);
            else requestAnimationFrame(look);
          };
          requestAnimationFrame(look);
          setTimeout(() => resolve(box), 6000);  // no frames drawn at all
        })""",
        selector,
    )
    assert box is not None, f"{selector} was not on the page"
    return box


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("name", ["table", "replay", "quiz"])
def test_the_snap_pots_name_stays_readable_over_what_lies_under_it(chromium, urls, name, width):
    """axe leaves the pot's white name "incomplete" (a translucent box over a drawing):
    the pixels under the words, the words hidden, are compared with white here."""
    import io

    from PIL import Image

    context = chromium.new_context(viewport={"width": width, "height": 800}, locale="ta")
    page = context.new_page()
    open_page(name, page, "ta", urls)
    # A live table draws its pot again at each event: the name is found, scrolled to
    # and hidden in one step each, whichever element carries it by then.
    page.locator(".pot-name").first.wait_for()
    page.evaluate("document.querySelector('.pot-name').scrollIntoView({block: 'center'})")
    # a constructed sheet (the Content-Security-Policy refuses an added <style>
    # element) hides the names drawn later too; they keep their place
    page.evaluate(
        """() => {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(".pot-name { visibility: hidden !important; }");
          document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
        }"""
    )
    for _attempt in range(3):  # a box that moved while it was shot was not measured
        box = settled_box(page, ".pot-name")
        shot = Image.open(io.BytesIO(page.screenshot(clip=box))).convert("RGB")
        if settled_box(page, ".pot-name") == box:
            break
    under = [c for n, c in shot.getcolors(1 << 20) if n > 3]  # not stray antialiasing
    assert min(contrast((255, 255, 255), c) for c in under) >= 4.5
    context.close()
