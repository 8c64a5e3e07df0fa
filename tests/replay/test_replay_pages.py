"""Replays of finished live tables, the same games as lessons, and "Play it for real".

Games are played by the engine's computer players and stored through the live tables'
own storage (``replay_helpers.store_game``); the pages read them back as any finished
table (``games.tables.table_record``).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import tables
from games.context_processors import NATIVE_NAMES
from games.engine import CloseRace, Options, apply, final_state, replay, start_state
from games.engine.events import CallJoined, CardTurned, RaceOpened
from games.frames.narration import note_text
from games.replay.views import STEPS_PER_PAGE
from games.scenarios.model import press_action
from games.tables.live_text import pot_blocked_text
from games.words.press_outcomes import MISTAKE, REFUSED, RIGHT, classify
from games.words.texts import event_text, isolate
from tests.conftest import LANGUAGE_CODES
from tests.locale.test_catalogs import visible_text
from tests.replay.replay_helpers import page_frames, store_game

pytestmark = pytest.mark.django_db

ANA = "<b>Ana</b>"
#: The seed of a long game: 332 accepted actions between four computer players.
LONG_GAME = 42
#: Sentences of this work that the catalogs do not have yet (the coordinator runs
#: makemessages once), as whole text nodes: on a page in another language they may show
#: in English until they are translated; any other English is a leak.
NEW_SENTENCES = [
    "Every card and every call of this game, step by step, as it happened.",
    "That was the whole game.",
    "Open as a lesson",
    "Play it again as",
    "Play this game again from one player’s seat: at every step you press the buttons "
    "yourself, and the game answers each press.",
    "Keys: →, Space or Page Down: next step. ← or Page Up: back. P: projector.",
    "Keys: ←, Space or Page Down: next step. → or Page Up: back. P: projector.",
    "Later steps",
    "Earlier steps",
    "This game, step by step, from one player’s seat. Press the buttons yourself: the game "
    "answers every press, as in the walkthroughs.",
    "Another seat",
    "Back to the replay",
    "Well done! You have played this game to the end.",
    "Play it for real",
    "You and two computer players who take their time.",
    # the live tables' own new sentences, reused here
    "Play again",
    # the game as a lesson sheet (games/teach/sheets/game.py)
    "Print the game as a sheet",
]
NEW_PATTERNS = [
    *(re.escape(text) for text in NEW_SENTENCES),
    r"Replay of table( \w+)?",
    r"Lesson: table|, as|Lesson: table \w+, as .+",
    r"Steps \d+ to \d+ of \d+",
    r"The game in words \(\d+ steps?\)",
    r"The game begins: .+ plays first\.( In this lesson you play as .+\.)?",
    r".+ \(the winner\)",
]


@pytest.fixture
def game(content):
    """A finished game of four: a person typed a name with markup, three computers."""
    return store_game(players=4, seed=6, names={0: ANA})


#: The seats' names on an English page: the typed name, then the computer players.
NAMES = [ANA, "Computer 1", "Computer 2", "Computer 3"]


def told(step, before, names) -> str:
    """A step's events told one after another, as the live table tells them (and the
    Snap Pot's "blocked" where it happens)."""
    text = " ".join(event_text(e, names) for e in step.events)
    if step.state.pot_blocked and not before.pot_blocked:
        text = f"{text} {pot_blocked_text()}"
    return text


def test_each_step_of_a_replay_tells_the_events_of_one_action_of_the_record(client, game):
    frames = page_frames(client.get(f"/en/replay/{game}/").content.decode())
    record = tables.table_record(code=game)
    names = NAMES
    assert len(frames) == len(record.actions) + 1  # the deal, then one step per action
    start = start_state(record)
    assert frames[0]["caption"] == f"The game begins: {isolate(names[start.to_play])} plays first."
    before = start
    with translation.override("en"):
        for frame, step in zip(frames[1:], replay(record), strict=True):
            assert frame["caption"] == told(step, before, names)
            assert frame["table"]["players"][0]["name"] == ANA
            assert [p["face_down"] for p in frame["table"]["players"]] == [
                step.state.counts(s).face_down for s in range(4)
            ]
            before = step.state
    assert not any(f["expects"] or f["branches"] for f in frames)  # nothing to press


def test_the_last_step_names_the_winner_and_the_rule_that_ended_the_game(client, game):
    end = final_state(tables.table_record(code=game))
    frames = page_frames(client.get(f"/en/replay/{game}/").content.decode())
    winner = NAMES[end.winner]
    assert f"{isolate(winner)} has won all the cards and wins the game!" in frames[-1]["caption"]
    assert "R17" in [c["id"] for c in frames[-1]["clauses"]]
    assert frames[-1]["table"]["over"] is True


def test_rule_links_of_a_step_go_to_the_rules_section_in_the_pages_language(client, game):
    frames = page_frames(client.get(f"/he/replay/{game}/").content.decode())
    links = {c["id"]: c for f in frames for c in f["clauses"]}
    assert links["R8"]["url"].startswith("/he/rules/#")
    assert re.search("[\u05d0-\u05ea]", links["R8"]["section"])


def test_a_typed_name_with_markup_is_shown_as_text_never_as_markup(client, game):
    for url in (f"/en/replay/{game}/", f"/en/replay/{game}/lesson/?seat=0"):
        html = client.get(url).content.decode()
        assert ANA not in html
        assert "&lt;b&gt;Ana&lt;/b&gt;" in html  # in the steps in words and the seat list
        assert "\\u003Cb\\u003EAna\\u003C/b\\u003E" in html  # inside the player's data
        assert page_frames(html)[1]["table"]["players"][0]["name"] == ANA


@pytest.mark.parametrize("lang", LANGUAGE_CODES[1:])
def test_replay_and_lesson_pages_show_no_english_but_this_works_new_sentences(client, game, lang):
    """Every text node that reads the same on the English page and on ``lang``'s is a
    name, a code, a number, or one of this work's sentences waiting for translation."""
    benign = {
        "Snap",
        "Snap!",
        "Snap Pot!",
        "P",
        "Esc",
        "T",
        "S",
        "O",
        game,
        ANA,
        *NATIVE_NAMES.values(),
    }
    for path in (f"/replay/{game}/", f"/replay/{game}/lesson/"):
        english = text_nodes(client.get(f"/en{path}").content.decode())
        page = client.get(f"/{lang}{path}").content.decode()
        same = {t for t in text_nodes(page) & english if re.search(r"[A-Za-z]{2}", t)}
        leaked = {t for t in same - benign if not is_new_or_name(t)}
        assert leaked == set(), (lang, path)
        assert "%(" not in visible_text(page)


def text_nodes(html: str) -> set[str]:
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    return {t.strip() for t in re.split(r"<[^>]+>", html) if t.strip()}


def is_new_or_name(text: str) -> bool:
    """A new sentence of this work, or text made only of names, digits and marks."""
    plain = re.sub(r"[\u2068\u2069]", "", text)
    if any(re.fullmatch(pattern, plain) for pattern in NEW_PATTERNS):
        return True
    rest = re.sub(r"Computer \d|&lt;b&gt;Ana&lt;/b&gt;|[\d\s.,:;()–-]", "", plain)
    return rest == ""


def test_an_unknown_code_is_a_404_that_says_so_in_the_pages_language(client, content):
    response = client.get("/hr/replay/ZZZZZZ/")
    assert response.status_code == 404
    with translation.override("hr"):
        from django.utils.translation import gettext

        said = gettext("There is no table with that code. Check the letters.")
    assert said in response.content.decode()
    assert client.get("/en/replay/ZZZZZZ/lesson/").status_code == 404


def test_a_game_not_over_yet_says_so_with_409_and_links_to_its_table(client, content):
    code = store_game(players=3, seed=2, stop_after=20)
    for path in (f"/en/replay/{code}/", f"/en/replay/{code}/lesson/"):
        response = client.get(path)
        assert response.status_code == 409  # no replay of it yet (not a 200 page)
        html = response.content.decode()
        assert "This game is not over yet" in html
        assert f'href="{reverse("play_table", args=[code])}"' in html
        assert "walkthrough-frames" not in html


def test_a_long_game_page_stays_small_and_shows_its_steps_a_page_at_a_time(client, content):
    code = store_game(players=4, seed=LONG_GAME, names={0: "கவின்"})
    actions = len(tables.table_record(code=code).actions)
    assert actions >= 300
    for lang in ("en", "ta"):
        for path in (f"/{lang}/replay/{code}/", f"/{lang}/replay/{code}/lesson/?seat=0"):
            html = client.get(path).content
            assert len(html) < 1_000_000, (path, len(html))
            assert len(page_frames(html.decode())) == actions + 1
    html = client.get(f"/en/replay/{code}/?from=41").content.decode()
    shown = [int(n) for n in re.findall(r'<li class="walkthrough-step" id="step-(\d+)"', html)]
    assert shown == list(range(41, 41 + STEPS_PER_PAGE))
    assert 40 % STEPS_PER_PAGE == 0  # step 41 opens a page of its own
    assert f'href="/en/replay/{code}/?from={41 - STEPS_PER_PAGE}"' in html  # earlier
    assert f'href="/en/replay/{code}/?from={41 + STEPS_PER_PAGE}"' in html  # later
    # the page of a step opened by its address holds that step
    html = client.get(f"/en/replay/{code}/lesson/?seat=1&step=300").content.decode()
    assert 'id="step-300"' in html


def test_the_compact_player_data_opens_out_to_the_full_frames(client, game):
    """The Python twin of frames.js gives back exactly what the server made."""
    from games.content.sections import with_section_titles
    from games.frames import recorded as replay_frames

    record = tables.table_record(code=game)
    with translation.override("en"):
        made = with_section_titles(replay_frames.frames(record, NAMES, 2))
    sent = page_frames(client.get(f"/en/replay/{game}/lesson/?seat=2").content.decode())
    assert sent == made


def test_a_lesson_answers_each_press_as_the_press_outcomes_classify_it(client, game):
    learner = 1
    frames = page_frames(client.get(f"/en/replay/{game}/lesson/?seat={learner}").content.decode())
    record = tables.table_record(code=game)
    names = NAMES
    states = [start_state(record), *(s.state for s in replay(record))]
    steps = list(replay(record))
    seen_outcomes = set()
    with translation.override("en"):
        for i in range(0, len(frames) - 1, 7):  # every 7th position
            state = states[i]
            for press, answer in frames[i]["branches"].items():
                step = apply(state, press_action(press, learner, state.clock_ms, state.seq))
                events, after = list(step.events), step.state
                if after.race is not None:
                    closing = apply(after, CloseRace(after.race.closes_at_ms))
                    events += closing.events
                    after = closing.state
                verdict = classify(state, learner, events, after, following=steps[i].events)
                assert answer["outcome"] == verdict.outcome
                assert answer["note"] == note_text(verdict.sentences, names)
                assert [c["id"] for c in answer["clauses"]] == list(verdict.clauses)
                if verdict.outcome == REFUSED:
                    assert answer["table"] is None
                else:
                    table = answer["table"]["players"]
                    assert [p["face_down"] for p in table] == [
                        after.counts(s).face_down for s in range(4)
                    ]
                seen_outcomes.add(verdict.outcome)
    assert {RIGHT, MISTAKE, REFUSED} <= seen_outcomes


def test_a_lesson_asks_for_the_learners_own_right_moves_and_shows_the_rest(client, game):
    learner = 2
    frames = page_frames(client.get(f"/en/replay/{game}/lesson/?seat={learner}").content.decode())
    record = tables.table_record(code=game)
    asked = 0
    kinds = {"TurnCard": "turn", "CallSnap": "snap", "CallSnapPot": "snap_pot"}
    for frame, action, step in zip(frames, record.actions, replay(record), strict=False):
        mine = getattr(action, "seat", None) == learner
        right = mine and any(
            isinstance(e, (CardTurned, RaceOpened, CallJoined)) and e.seat == learner
            for e in step.events
        )
        if right:
            assert frame["expects"] == kinds[type(action).__name__]
            assert set(frame["branches"]) == {"turn", "snap", "snap_pot"} - {frame["expects"]}
            asked += 1
        else:  # another's move, or the learner's mistake or late call: shown, not asked
            assert frame["expects"] is None
            assert set(frame["branches"]) == {"turn", "snap", "snap_pot"}
    assert asked > 10
    assert frames[0]["caption"].endswith(f"In this lesson you play as {isolate('Computer 2')}.")
    assert [p["learner"] for p in frames[0]["table"]["players"]] == [False, False, True, False]
    assert frames[-1]["branches"] == {}  # the game is over: nothing to press


def test_a_lesson_is_seen_from_the_person_unless_a_seat_is_chosen(client, game):
    end = final_state(tables.table_record(code=game))
    assert end.winner != 0  # a computer player won; Ana, on seat 0, is the only person
    html = client.get(f"/en/replay/{game}/lesson/").content.decode()
    players = page_frames(html)[0]["table"]["players"]
    assert [p["seat"] for p in players if p["learner"]] == [0]
    replay_html = client.get(f"/en/replay/{game}/").content.decode()
    assert f'href="/en/replay/{game}/lesson/?seat=0"' in replay_html
    assert '<option value="0" selected>' in replay_html
    html = client.get(f"/en/replay/{game}/lesson/?seat={end.winner}").content.decode()
    players = page_frames(html)[0]["table"]["players"]
    assert [p["seat"] for p in players if p["learner"]] == [end.winner]  # chosen: as asked


def test_a_lesson_is_seen_from_the_best_placed_of_the_people(client, content):
    code = store_game(
        players=4, seed=6, options=Options(turn_limit=40), names={0: "Ana", 1: "Ben", 3: "Chloe"}
    )
    end = final_state(tables.table_record(code=code))
    cards = {n: len(end.face_down[n]) + len(end.face_up[n]) for n in (0, 1, 3)}
    best = max(cards, key=lambda n: (cards[n], -n))
    assert end.winner == 2 and best != 0  # a computer won; the best person is not seat 0
    html = client.get(f"/en/replay/{code}/lesson/").content.decode()
    players = page_frames(html)[0]["table"]["players"]
    assert [p["seat"] for p in players if p["learner"]] == [best]


def test_the_lesson_page_puts_the_seat_chooser_above_the_table(client, game):
    html = client.get(f"/en/replay/{game}/lesson/").content.decode()
    assert html.index('class="lesson-chooser"') < html.index('id="walkthrough-frames"')
    assert html.index('class="lesson-chooser"') < html.index("table-picture")


def test_a_bad_lesson_seat_is_a_clear_404(client, game):
    for bad in ("9", "-1", "x"):
        assert client.get(f"/en/replay/{game}/lesson/?seat={bad}").status_code == 404


def test_every_walkthrough_ends_with_play_it_for_real(client, content):
    html = client.get("/ms/learn/tie/").content.decode()
    finished = html.split('id="finished"')[1].split("</section>")[0]
    form = re.search(r'<form class="play-for-real" method="post" action="([^"]+)">', finished)
    assert form and form.group(1) == reverse("play_practice").replace("/en/", "/ms/")
    assert 'name="csrfmiddlewaretoken"' in finished
    assert '<input type="hidden" name="computers" value="2">' in finished
    fields = dict(re.findall(r'name="(computers|level_\d)" value="(\w+)"', finished))
    response = client.post(form.group(1), fields)
    assert response.status_code == 302
    assert re.search(r"/ms/play/[A-Z0-9]+/$", response["Location"])
