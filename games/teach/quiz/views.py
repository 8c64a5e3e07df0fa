"""The quiz pages: on screen (one question at a time, for the projector) and on paper.

The seed lives in the address (``?seed=N``) so a quiz can be bookmarked, shared and
printed again: no seed → a redirect to a fresh random one; a seed that is not a
number → 400 with a sentence and a link to a fresh quiz.
"""

from __future__ import annotations

import random

from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language

from games.frames.walkthroughs import named_clause_links, names_for, table_data
from games.teach.quiz import text as quiz_text
from games.teach.quiz.questions import MAX_SEED, Question, make_quiz

#: No seat is "you" in a quiz: the class looks at the table from above.
NO_LEARNER = -1


def question_data(number: int, q: Question, names: list[str]) -> dict:
    """Everything the pages show of one question, in the active language."""
    return {
        "number": number,
        "kind": q.kind,
        "prompt": quiz_text.prompt(q, names),
        "situation": quiz_text.situation(q, names),
        "details": quiz_text.details(q, names),
        "table": table_data(q.state, names, NO_LEARNER, None),
        "choices": [{"key": k, "label": quiz_text.choice_label(q, k, names)} for k in q.choices],
        "answer": q.answer,
        "answer_label": quiz_text.choice_label(q, q.answer, names),
        "verdict": quiz_text.verdict(q, names),
        "events_intro": quiz_text.events_intro(q, names),
        "events": quiz_text.explanation(q, names),
        "clauses": named_clause_links([q.clause]),
    }


def quiz_data(seed: int) -> list[dict]:
    names = names_for(get_language())
    return [question_data(i, q, names) for i, q in enumerate(make_quiz(seed), start=1)]


def _seed(request, url_name: str):
    """(seed, None) for a good ``?seed=``; else (None, the response to send)."""
    raw = request.GET.get("seed", "").strip()
    if not raw:
        fresh = random.SystemRandom().randrange(1, MAX_SEED)
        return None, redirect(f"{reverse(url_name)}?seed={fresh}")
    if not raw.isascii() or not raw.isdigit() or int(raw) > MAX_SEED:
        fresh = random.SystemRandom().randrange(1, MAX_SEED)
        context = {"fresh_url": f"{reverse(url_name)}?seed={fresh}", "max_seed": MAX_SEED}
        return None, render(request, "teach/quiz_bad_seed.html", context, status=400)
    return int(raw), None


def quiz(request):
    seed, response = _seed(request, "quiz")
    if response is not None:
        return response
    questions = quiz_data(seed)
    context = {
        "seed": seed,
        "questions": questions,
        "print_url": f"{reverse('quiz_print')}?seed={seed}",
        "new_url": reverse("quiz"),
    }
    return render(request, "teach/quiz.html", context)


def quiz_print(request):
    seed, response = _seed(request, "quiz_print")
    if response is not None:
        return response
    context = {
        "seed": seed,
        "questions": quiz_data(seed),
        "screen_url": f"{reverse('quiz')}?seed={seed}",
    }
    return render(request, "teach/quiz_print.html", context)
