"""Where each person sits around a table on one device (a tablet lying flat), for the
page ``play/device.html``: their edge of the screen, clockwise from the bottom in seat
(turn) order, with the language and direction their labels are shown in.

2 people: bottom, top (face to face); 3: bottom, left, right; 4: bottom, left, top,
right. Clockwise, as at a real table (RULES R20: the player on a seat's left is the next
seat): the child at the bottom edge looks up the screen, so their left is the screen's
left edge; the table picture (table.js) draws the next seat there too. The computer
players' piles are in the middle of the table, not at an edge.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from games.context_processors import NATIVE_NAMES

__all__ = ["EDGES", "device_bots", "device_edges", "device_languages"]

#: The edges of the screen the people take, by how many they are.
EDGES = {
    1: ("bottom",),
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}


def lang_dir(lang: str) -> str:
    return "rtl" if lang in settings.LANGUAGES_BIDI else "ltr"


def device_edges(seats: list, page_lang: str) -> list[dict]:
    """``seats`` (the people's ``games.models.Seat`` rows this session holds, in seat
    order) as edges: ``{"seat", "name", "lang", "dir", "edge"}``; a seat without a
    language of its own shows the page's."""
    edges = EDGES.get(len(seats), ())
    return [
        {
            "seat": s.number,
            "name": s.display_name,
            "lang": s.lang or page_lang,
            "dir": lang_dir(s.lang or page_lang),
            "edge": edge,
        }
        for s, edge in zip(seats, edges, strict=True)
    ]


def device_bots(seats: list) -> list[dict]:
    """The computer players among ``seats`` (every seat of the table, in order):
    ``{"seat", "name", "level"}``, called "Computer 1", "Computer 2"… in the page's
    language, as the table's narration calls them."""
    bots = [s for s in seats if s.is_bot]
    return [
        {
            "seat": s.number,
            "name": _("Computer %(number)d") % {"number": n},
            "level": s.bot_level,
        }
        for n, s in enumerate(bots, start=1)
    ]


def device_languages() -> list[dict]:
    """The languages an edge may have (the "Who is at this tablet?" form): each named
    in its own script, with its direction."""
    return [
        {"code": code, "name": NATIVE_NAMES[code], "dir": lang_dir(code)}
        for code, _name in settings.LANGUAGES
    ]
