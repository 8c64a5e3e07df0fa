"""Every page of the site in one language, made real for a test: a table to sit at, one on
a device, a class with its teacher's pages and tablets, a finished game's replay and
lesson, the quiz and a sheet, and a page that is not there.

The teacher's pages need the browser that opened the class and the device table the one
its people sit at: ``client`` is that browser for all of them."""

from __future__ import annotations

import re

from games import tables
from games.engine import BotLevel
from games.replay.sample import store_game
from games.scenarios import load_all

TABLETS = {
    "class_name": "Class 2A",
    "seats": "12",
    "tablets": "2",
    "per_tablet": "2",
    "level": "beginner",
    "tie_window_ms": "150",
    "turn_limit": "",
    "pace": "own",
    "turn_timer": "10",
}


def _opened(client, lang: str, data: dict, pattern: str) -> str:
    response = client.post(f"/{lang}/teach/class/", data)
    assert response.status_code == 302, response.content[:800]
    return re.fullmatch(pattern.format(lang=lang), response["Location"]).group(1)


def every_page(client, lang: str) -> list[tuple[str, int]]:
    """The address of every kind of page, in ``lang``, with the status it answers
    ``client`` (followed through redirects)."""
    key = client.session.session_key
    table = tables.table_open(session_key=key, name='Ana "A" & Bo', players=3)
    device = tables.table_open_device(
        session_key=key, people=[("Noa", "he"), ("Tom & Jo", "en")], levels=[BotLevel.STEADY]
    )
    plain = {**TABLETS, "tablets": "0", "seats": "6", "fill": "on"}
    class_code = _opened(client, lang, plain, r"/{lang}/teach/class/([A-Z0-9]+)/")
    tablets = _opened(client, lang, TABLETS, r"/{lang}/teach/class/([A-Z0-9]+)/tablets/")
    replay = store_game(players=3, seed=4, names={0: "Mia"})
    slugs = [s.slug for s in load_all()]
    other = "ta" if lang == "he" else "he"
    parts = f"start,rules,glossary,walkthrough:{slugs[4]},quiz&seed=10&paper=a4"
    pages = [
        f"/{lang}/",
        f"/{lang}/rules/",
        f"/{lang}/glossary/",
        f"/{lang}/start/",
        f"/{lang}/learn/",
        *(f"/{lang}/learn/{slug}/" for slug in slugs),
        f"/{lang}/learn/{slugs[0]}/?step=3",
        f"/{lang}/play/",
        f"/{lang}/play/{table}/",
        f"/{lang}/play/{device}/",
        f"/{lang}/replay/{replay}/",
        f"/{lang}/replay/{replay}/lesson/",
        f"/{lang}/teach/",
        f"/{lang}/teach/class/",
        f"/{lang}/teach/class/{class_code}/",
        f"/{lang}/teach/class/{class_code}/projector/",
        f"/{lang}/teach/class/{tablets}/tablets/",
        f"/{lang}/teach/quiz/?seed=10",
        f"/{lang}/teach/quiz/print/?seed=10",
        f"/{lang}/teach/sheet/?also={other}&parts={parts}",
        f"/{lang}/offline/",
    ]
    refused = [f"/{lang}/teach/sheet/?lang=xx&parts=start", f"/{lang}/teach/quiz/?seed=x"]
    return [
        *((url, 200) for url in pages),
        *((url, 400) for url in refused),
        (f"/{lang}/no-such-page/", 404),
    ]
