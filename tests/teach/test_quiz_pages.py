"""The quiz pages: every language, the seed in the address, a bad seed
answered with a sentence, the printed answers after a page break."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.teach.quiz.questions import make_quiz
from games.teach.quiz.views import quiz_data
from tests.conftest import LANGUAGE_CODES

pytestmark = pytest.mark.django_db


def questions_of(response) -> list[dict]:
    match = re.search(
        rb'<script id="quiz-questions" type="application/json">(.*?)</script>',
        response.content,
        re.S,
    )
    assert match, "the page carries its questions as JSON"
    return json.loads(match.group(1))


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_quiz_page_renders_every_question_with_its_engine_answer(client, lang):
    response = client.get(f"/{lang}/teach/quiz/?seed=12")
    assert response.status_code == 200
    data = questions_of(response)
    quiz = make_quiz(12)
    assert [q["answer"] for q in data] == [q.answer for q in quiz]
    html = response.content.decode()
    assert f'lang="{lang}"' in html
    for q in data:
        assert q["prompt"] and q["verdict"] and q["clauses"]
        assert q["answer"] in [c["key"] for c in q["choices"]]
        assert "%(" not in q["prompt"] + q["verdict"] + "".join(q["events"] + q["details"])
        assert q["clauses"][0]["url"].startswith(f"/{lang}/rules/#")
    # The no-JS version: every question with its answer behind a <details>.
    assert html.count('<details class="quiz-reveal">') == len(quiz)


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_a_quiz_answer_names_the_rules_section_not_only_the_clause_code(client, content, lang):
    from games.models import RulesSection

    with translation.override(lang):
        titles = {s.slug: s.title for s in RulesSection.objects.all()}
        response = client.get(f"/{lang}/teach/quiz/?seed=12")
    html = response.content.decode()
    for q in questions_of(response):
        link = q["clauses"][0]
        assert link["section"] == titles[link["anchor"]] and link["section"]
        assert f"{link['section']} (<bdi>{link['id']}</bdi>)" in html


def quiz_questions(kind, test, seeds=range(100)):
    return [q for seed in seeds for q in make_quiz(seed) if q.kind == kind and test(q)]


def test_an_own_turn_penalty_answer_names_the_player_who_is_out_and_skipped():
    from games.teach.quiz import text as quiz_text

    q = quiz_questions(
        "penalty",
        lambda q: q.state.players == 4 and q.clause == "R14" and q.state.is_out((q.caller - 1) % 4),
    )[0]
    names = ["Ana", "Ben", "Cat", "Dev"]
    skipped = names[(q.caller - 1) % 4]
    with translation.override("en"):
        verdict = quiz_text.verdict(q, names)
    assert verdict.startswith(f"\u2068{names[(q.caller - 2) % 4]}\u2069 gets it")
    assert f"\u2068{skipped}\u2069, has no cards and is skipped" in verdict


def test_a_blocked_pot_answer_says_how_it_can_still_be_won_and_who_wins_it():
    from games.teach.quiz import text as quiz_text

    blocked = quiz_questions("pot_win", lambda q: q.answer == "after_tie")[0]
    open_pot = quiz_questions("pot_win", lambda q: q.answer == "yes")[0]
    names = ["Ana", "Ben", "Cat", "Dev"]
    with translation.override("en"):
        told = quiz_text.verdict(blocked, names)
        yes = quiz_text.verdict(open_pot, names)
        label = quiz_text.choice_label(blocked, blocked.answer, names)
    assert told.startswith("Not yet:") and "it can still be won" in told and "tie" in told
    assert "the first to call “Snap Pot!” wins" in told and "the first to call" in yes
    assert label == "Not yet: first a tie must give it a new top card"


def test_same_seed_same_page_and_another_seed_another_quiz(client):
    first = questions_of(client.get("/en/teach/quiz/?seed=3"))
    again = questions_of(client.get("/en/teach/quiz/?seed=3"))
    other = questions_of(client.get("/en/teach/quiz/?seed=4"))
    assert first == again
    assert first != other


@pytest.mark.parametrize("name", ["quiz", "quiz_print"])
def test_no_seed_redirects_to_an_address_with_a_seed(client, name):
    with translation.override("he"):
        url = reverse(name)
    response = client.get(url)
    assert response.status_code == 302
    location = response["Location"]
    assert re.fullmatch(re.escape(url) + r"\?seed=\d+", location)
    assert client.get(location).status_code == 200


@pytest.mark.parametrize("seed", ["abc", "-1", "1.5", "٣", "99999999999999999999999"])
@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_bad_seed_is_answered_with_a_sentence_not_a_crash(client, lang, seed):
    response = client.get(f"/{lang}/teach/quiz/", {"seed": seed})
    assert response.status_code == 400
    html = response.content.decode()
    assert "?seed=" in html  # a link to a fresh quiz
    assert f'lang="{lang}"' in html


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_print_page_has_static_tables_and_answers_after_a_page_break(client, lang):
    response = client.get(f"/{lang}/teach/quiz/print/?seed=21")
    assert response.status_code == 200
    html = response.content.decode()
    questions_at = html.index('class="quiz-list quiz-paper"')
    answers_at = html.index('class="quiz-answers"')
    assert questions_at < answers_at
    assert html.count('class="mini-table n-') == 8  # one static picture per question
    assert html[questions_at:answers_at].count('class="quiz-answer"') == 0
    assert html[answers_at:].count('class="quiz-answer"') == 8
    css = client.get("/static/games/css/quiz.css")
    text = b"".join(css.streaming_content) if css.streaming else css.content
    assert re.search(rb"\.quiz-answers \{[^}]*break-before: page", text)


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_kind_renders_in_every_language_over_many_seeds(lang):
    with translation.override(lang):
        kinds = set()
        for seed in range(40):
            for q in quiz_data(seed):
                kinds.add(q["kind"])
                assert q["answer_label"] and q["verdict"]
        assert kinds == {"is_snap", "snap_or_pot", "penalty", "who_wins", "pot_win"}


def test_teach_page_links_the_quiz_and_its_print_version(client):
    html = client.get("/ta/teach/").content.decode()
    assert 'href="/ta/teach/quiz/"' in html
    assert 'href="/ta/teach/quiz/print/"' in html
