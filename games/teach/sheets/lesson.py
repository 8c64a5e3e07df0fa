"""Lesson sheets: the part ``lesson:<CODE>``, a teacher's lesson as a strip of pictures.

A lesson is short (at most 80 steps), so every position is a picture: the start, then
the table after each step, with the step's sentences (the engine's events) in every
language of the sheet, the teacher's note in the language it was written in, and the
moments where the class decides marked. Step numbers are the lesson page's.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.frames.lesson_frames import told
from games.frames.lesson_store import lesson_draft, lesson_find
from games.frames.recorded import start_caption
from games.frames.walkthroughs import clause_links, table_data
from games.tables.codes import normalise_code
from games.teach.sheets.cells import cell, direction, section_titles_in
from games.words.texts import fill

PREFIX = "lesson:"


def is_lesson_part(part: str) -> bool:
    return part.startswith(PREFIX) and bool(normalise_code(part[len(PREFIX) :]))


def canonical(part: str) -> str:
    return PREFIX + normalise_code(part[len(PREFIX) :])


def problem(part: str) -> str | None:
    """Why ``part`` cannot go on a sheet, in the page's language; None when it can."""
    code = part[len(PREFIX) :]
    if lesson_find(code) is None:
        return fill(
            _("There is no lesson with the code %(code)s, so a sheet cannot show it."),
            code=code,
        )
    return None


def lesson_part(query, part: str) -> dict:
    code = part[len(PREFIX) :]
    found = lesson_find(code)
    draft = lesson_draft(found)
    names = list(draft.setup.names)
    learner = draft.setup.learner
    played = draft.played()
    total = len(played.steps) + 1
    headings, per_lang = [], {}
    for lang in query.languages:
        titles = section_titles_in(lang)
        with translation.override(lang):
            headings.append(cell(lang, lesson_url=reverse("lesson", args=[found.code])))
            told_steps = [([start_caption(played.start, names, learner)], [])]
            told_steps += [told(step, names) for step in played.steps]
            rows = []
            for texts, clauses in told_steps:
                links = clause_links(clauses)
                for link in links:
                    link["section"] = titles.get(link["anchor"], "")
                rows.append((texts, links))
            per_lang[lang] = rows
    with translation.override(query.lang):
        states = [played.start, *(s.state for s in played.steps)]
        tables = [
            table_data(state, names, learner, states[i - 1] if i else None)
            for i, state in enumerate(states)
        ]
    items = [
        {
            "number": i + 1,
            "total": total,
            "table": tables[i],
            "decides": (i + 1) in draft.marks,
            "note": draft.notes.get(i, ""),
            "cells": [
                cell(lang, events=per_lang[lang][i][0], clauses=per_lang[lang][i][1])
                for lang in query.languages
            ],
        }
        for i in range(total)
    ]
    return {
        "kind": "lesson",
        "id": f"lesson-{found.code}",
        "code": found.code,
        "title": draft.title,
        "note_lang": found.lang,
        "note_dir": direction(found.lang),
        "total": total,
        "headings": headings,
        "steps": items,
    }
