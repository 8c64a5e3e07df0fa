"""Checks of what a class sees on a screen: the table, the words and the button a
moment needs are all on it, nothing covers the button, seats do not overlap, nothing
scrolls sideways, and no word of a button is broken across lines (walkthroughs and
live tables alike)."""

from tests.browsers import SCREENSHOTS

# Everything the step needs is on screen, nothing covers the button, the table
# picture holds its seats without overlaps, and nothing scrolls sideways.
#: JavaScript: the words inside ``root`` whose letters are laid out on more than one
#: line (a word broken inside; rounded to 4 px so a diacritic's box is not a line).
BROKEN_WORDS = """(root) => {
  const broken = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width);
      if (new Set(rects.map((r) => Math.round(r.top / 4))).size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""

ON_SCREEN = (
    """([button_selector, words_id, expected]) => {
  const brokenWords = """
    + BROKEN_WORDS
    + """;
  const problems = [];
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const inside = (el, name) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) problems.push(`${name} is not shown`);
    else if (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5)
      problems.push(`${name} is off the screen (${r.top | 0}..${r.bottom | 0} of ${vh})`);
    return r;
  };
  const button = document.querySelector(button_selector);
  const b = inside(button, `the ${expected} button`);
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  if (!hit || !button.contains(hit)) problems.push(`the ${expected} button is covered`);
  if (b.width < 44 || b.height < 44) problems.push(`the ${expected} button is under 44px`);
  if (button.disabled) problems.push(`the ${expected} button is disabled`);
  const t = inside(document.getElementById("table-picture"), "the table");
  inside(document.getElementById(words_id), "the narration");
  const parts = [...document.querySelectorAll("#table-picture .seat, #table-picture .pot")];
  const rects = parts.map((e) => e.getBoundingClientRect());
  rects.forEach((r, i) => {
    const out = r.top < t.top - 0.5 || r.bottom > t.bottom + 0.5;
    if (out || r.left < t.left - 0.5 || r.right > t.right + 0.5)
      problems.push(`${parts[i].className} sticks out of the table`);
    rects.slice(i + 1).forEach((q, j) => {
      if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom)
        problems.push(`${parts[i].className} overlaps ${parts[i + 1 + j].className}`);
    });
  });
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth)
    problems.push("the page scrolls sideways");
  // No word of a move's or a step's button is broken across two lines.
  for (const el of document.querySelectorAll(".play-buttons .button, .step-buttons .button")) {
    for (const word of brokenWords(el)) problems.push(`the word "${word}" is broken across lines`);
  }
  return problems;
}"""
)

#: The table picture has been fitted to the size its box has now (after a resize).
FITTED = """() => {
  const box = document.getElementById("table-picture");
  return box.dataset.fitted === `${Math.round(box.clientWidth)}x${Math.round(box.clientHeight)}`;
}"""
SETTLE = """() => new Promise((r) => {
  requestAnimationFrame(() => requestAnimationFrame(r));
  setTimeout(r, 2000);  // bounded: a page that draws no frame must not hang the test
})"""


def on_screen_problems(
    page, expected: str, *, button: str = '[data-press="{}"]', words: str = "narration"
) -> list[str]:
    """What is wrong on screen now for a moment that needs the ``expected`` move's
    button (``button``: its selector, with {} for the move) and the words (id)."""
    return page.evaluate(ON_SCREEN, [button.format(expected), words, expected])


def settled_problems(page, expected: str, **where: str) -> list[str]:
    """What is wrong on screen once the layout has settled: a relayout still under
    way (the browser's resize and font events) gets up to a second to finish."""
    problems = on_screen_problems(page, expected, **where)
    for _ in range(5):
        if not problems:
            break
        page.wait_for_timeout(200)
        problems = on_screen_problems(page, expected, **where)
    return problems


def screen_shot(page, name: str) -> None:
    """What is on the screen (not the whole page): what a class sees."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def serious_violations(page) -> list:
    """axe-core's serious and critical findings on ``page`` as it is now: (rule, the
    first three elements), none expected."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        (v["id"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
