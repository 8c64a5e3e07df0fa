"""A finished table's game on a lesson sheet (``parts=game:<CODE>``): the first deal and
every moment where more than a card turn happened, numbered as in the replay, in one or
two languages with the same names; 400 for a table unknown or not over; the links from
the teacher's class page and the replay; the PDF."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import tables
from games.engine.events import CardTurned, GameOver, PileTurnedOver
from games.frames.recorded import told_step
from games.frames.steps import record_steps
from games.tables.live_text import seat_labels
from games.words.texts import isolate
from tests.replay.replay_helpers import store_game
from tests.teach.test_sheet_pdf import get_pdf, text_of
from tests.teach.test_sheets import cells, find, page, text

pytestmark = pytest.mark.django_db

TYPED = "Zoë"
PLAYERS = 3


@pytest.fixture
def finished():
    """A finished game between computer players, seat 0 under a typed name."""
    return store_game(players=PLAYERS, seed=3, names={0: TYPED})


def labels(lang: str) -> list[str]:
    seats = [{"bot": n != 0, "taken": True, "name": TYPED} for n in range(PLAYERS)]
    with translation.override(lang):
        return seat_labels(seats)


def eventful_numbers(code: str) -> set[int]:
    """The replay's step numbers (the deal is 1) where more than a card turn happened,
    read from the engine's events."""
    _start, steps = record_steps(tables.table_record(code=code))
    return {
        s.number + 1
        for s in steps
        if any(not isinstance(e, CardTurned | PileTurnedOver) for e in s.events)
    }


def shown_numbers(doc) -> list[tuple[int, int]]:
    """Each picture's (first, last) step, read from its words' step line."""
    ranges = []
    for step in find(doc, ".part-game .step"):
        line = text(step.query(".step-number"))
        numbers = [int(n) for n in re.findall(r"\d+", line)]
        ranges.append((numbers[0], numbers[1] if len(numbers) == 3 else numbers[0]))
    return ranges


def get_sheet(client, url: str):
    response = client.get(url)
    assert response.status_code == 200, response.content.decode()[:2000]
    return page(response.content.decode())


def test_a_finished_game_shows_the_deal_and_every_moment_numbered_as_in_the_replay(
    client, content, finished
):
    doc = get_sheet(client, f"/en/teach/sheet/?parts=game:{finished.lower()}")
    part = doc.query(f"#game-{finished}")
    assert part is not None
    total = len(record_steps(tables.table_record(code=finished))[1]) + 1
    assert f"The game at table {finished}" in text(part.query("h2"))
    assert f"This game had {total} steps." in text(part)
    assert f"http://testserver/en/replay/{finished}/" in text(part)

    ranges = shown_numbers(doc)
    assert ranges[0] == (1, 1)
    shown = {n for first, last in ranges[1:] for n in range(first, last + 1)}
    assert shown == eventful_numbers(finished)  # every moment, and no plain card turn
    assert all(b[0] > a[1] + 1 for a, b in zip(ranges[1:], ranges[2:], strict=False))
    assert f"Step 1 of {total}" in text(find(doc, ".part-game .step")[0])

    steps = find(doc, ".part-game .step")
    assert len(steps) < total / 3  # a sheet, not the whole game
    first_words = text(steps[0].query(".step-words"))
    assert "The game begins:" in first_words
    names = labels("en")
    pictures = text(steps[0].query(".mini-table"))
    assert all(name in pictures for name in names)
    # the last moment tells the end of the game, as the replay does
    _start, record = record_steps(tables.table_record(code=finished))
    last = record[-1]
    assert any(isinstance(e, GameOver) for e in last.events)
    with translation.override("en"):
        told, _clauses = told_step(last, names)
    words = text(steps[-1].query(".step-words"))
    for sentence in told:
        assert re.sub(r"\s+", " ", sentence) in words


def test_two_languages_side_by_side_with_the_same_names(client, content, finished):
    doc = get_sheet(client, f"/he/teach/sheet/?also=ta&parts=game:{finished}")
    steps = find(doc, ".part-game .step")
    assert len(steps) > 3
    hebrew, tamil = labels("he"), labels("ta")
    assert hebrew != tamil  # the computer players' labels differ between the languages
    for step in steps:
        columns = cells(step.query(".step-words"))
        assert [(c.etree_element.get("lang"), c.etree_element.get("dir")) for c in columns] == [
            ("he", "rtl"),
            ("ta", "ltr"),
        ]
        for column in columns:
            words = text(column)
            assert not any(label in words for label in tamil if label not in hebrew), words
    both = [text(c) for c in cells(steps[0].query(".step-words"))]
    for words in both:  # the deal names who plays first, in the first language's labels
        assert any(isolate(name) in words for name in hebrew), words
    everything = [" ".join(text(cells(s.query(".step-words"))[i]) for s in steps) for i in (0, 1)]
    for name in hebrew:
        if any(name in line for line in everything):
            assert all(name in line for line in everything), name
    headings = cells(doc.query(".part-game .part-title"))
    assert [h.etree_element.get("lang") for h in headings] == ["he", "ta"]
    assert f"/ta/replay/{finished}/" in text(headings[1])


@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_game_not_over_or_unknown_answers_400(client, content, lang):
    unfinished = store_game(players=2, seed=4, stop_after=10)
    for code, sentence in ((unfinished, "not over"), ("WXYWXY", "no table")):
        for url in (
            f"/{lang}/teach/sheet/?parts=game:{code}",
            f"/{lang}/teach/sheet.pdf?parts=game:{code}",
        ):
            response = client.get(url)
            assert response.status_code == 400
            html = response.content.decode()
            problems = [text(li) for li in find(page(html), ".sheet-problems li")]
            assert len(problems) == 1 and code in problems[0]
            if lang == "en":
                assert sentence in problems[0]
            assert page(html).etree_element.get("lang") == lang


def test_the_address_writes_the_code_as_stored(client, content, finished):
    response = client.get(f"/en/teach/sheet/?parts=glossary&parts=game:{finished.lower()}")
    assert response.status_code == 302
    assert response["Location"] == f"/en/teach/sheet/?parts=glossary,game:{finished}"


def test_the_replay_and_the_teachers_page_link_the_sheet(client, content, finished):
    html = client.get(f"/en/replay/{finished}/").content.decode()
    assert f'href="/en/teach/sheet/?parts=game:{finished}"' in html
    response = client.post(
        "/he/teach/class/",
        {
            "class_name": "4B",
            "seats": "4",
            "tie_window_ms": "150",
            "turn_limit": "40",
            "pace": "own",
            "turn_timer": "0",
            "level": "steady",
        },
    )
    assert response.status_code == 302, response.content.decode()[:800]
    code = response["Location"].rstrip("/").rsplit("/", 1)[1]
    html = client.get(response["Location"]).content.decode()
    link = page(html).query("#class-over #sheet-link")
    assert link.etree_element.get("href") == f"/he/teach/sheet/?parts=game:{code}"


def test_the_game_sheet_as_pdf(client, content, finished):
    reader = get_pdf(client, f"/en/teach/sheet.pdf?also=he&parts=game:{finished}", "game-en-he")
    words = text_of(reader)
    assert f"The game at table {finished}" in words
    assert TYPED in words
    assert labels("en")[1] in words
