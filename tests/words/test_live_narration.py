"""Narration with names players type, as live tables will show it: Latin names in
Hebrew sentences must stay whole and in their own reading order on the screen."""

from django.utils import translation

from games.engine import Card
from games.engine.events import CardTurned, GameOver, PilesWon, TieToPot, WrongCall
from games.words.texts import event_text

NAMES = ["Ben", "Sam Kim", "Alexandra", "נועה"]
EVENTS = [
    CardTurned(seat=0, card=Card.parse("7H")),
    CardTurned(seat=1, card=Card.parse("10S")),
    WrongCall(seat=1, kind="snap", penalty_to=0, paid=True),
    PilesWon(winner=1, piles=(0, 2), cards=12, with_pot=False, pot_cards=0),
    TieToPot(kind="snap", callers=(1, 3), piles=(0, 2), pot_top=Card.parse("7D"), pot_cards=6),
    GameOver(winner=2, draw=False, reason="all_cards", winners=(2,)),
]


def narration_lines(lang: str) -> list[str]:
    with translation.override(lang):
        return [event_text(event, NAMES) for event in EVENTS]


def word_boxes(page, word: str) -> list[dict]:
    """Screen boxes of each occurrence of ``word`` in the narration (one box per line run)."""
    return page.evaluate(
        """(word) => {
          const boxes = [];
          const walker = document.createTreeWalker(document.getElementById("narration"),
                                                   NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const node = walker.currentNode;
            let at = node.data.indexOf(word);
            while (at >= 0) {
              const range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + word.length);
              for (const r of range.getClientRects()) boxes.push({x: r.x, w: r.width, y: r.y});
              at = node.data.indexOf(word, at + 1);
            }
          }
          return boxes;
        }""",
        word,
    )


def test_hebrew_narration_keeps_latin_names_whole_and_in_reading_order(site_url, page, screenshot):
    lines = narration_lines("he")
    page.set_viewport_size({"width": 768, "height": 1024})
    page.goto(f"{site_url}/he/learn/tie/")
    page.evaluate(
        """(lines) => {
          const box = document.getElementById("narration");
          box.replaceChildren(...lines.map((text) => {
            const p = document.createElement("p");
            p.textContent = text;
            return p;
          }));
        }""",
        lines,
    )
    assert page.evaluate("getComputedStyle(document.getElementById('narration')).direction") == (
        "rtl"
    )
    # "Sam Kim" is one isolated run: Sam stays left of Kim on the same line.
    for sam, kim in zip(word_boxes(page, "Sam"), word_boxes(page, "Kim"), strict=True):
        assert sam["y"] == kim["y"]
        assert sam["x"] + sam["w"] <= kim["x"] + 1
    assert len(word_boxes(page, "Sam Kim")) >= 2  # the payer and the winner
    assert all(len(word_boxes(page, name)) >= 1 for name in ("Ben", "Alexandra"))
    page.locator("#narration").scroll_into_view_if_needed()
    screenshot(page, "live-narration-he-latin-names")
