"""Lesson sheets: the content of each part, side by side in one or two languages.

Every part is a list of rows; a row holds one cell per language of the sheet, and a
cell carries its own ``lang`` and ``dir`` so that Hebrew sits right to left beside a
left-to-right language. Texts are read per language from the translated fields (never
through modeltranslation's English fallback): a unit not translated yet gives a cell
with ``missing`` set, which the template tells in that cell's language.

The example names are the first language's on both sides: walkthrough captions and
quiz questions of the second language are made with the first language's cast, so
both columns talk about the same people.
"""

from __future__ import annotations

import re

from django.utils import translation

from games.content.markup import render_markup
from games.frames import walkthroughs
from games.models import GlossaryEntry, RulesSection, StartStep
from games.teach.sheets import game as sheets_game
from games.teach.sheets import lesson as sheets_lesson
from games.teach.sheets.cells import cell, section_titles_in
from games.teach.sheets.query import SheetQuery, quiz_available


def paragraphs(text: str) -> list[str]:
    """The markup's blocks (paragraphs and lists), as the rules pages split them."""
    return [b for b in re.split(r"\n\s*\n", (text or "").strip()) if b.strip()]


def _body_rows(unit, langs: tuple[str, ...], field: str) -> list[list[dict]]:
    """A unit's text as rows: paragraph beside paragraph when every language has the
    same number of them, else the whole text in one row."""
    blocks = {lang: paragraphs(getattr(unit, f"{field}_{lang}")) for lang in langs}
    counts = {len(b) for b in blocks.values()}
    if len(counts) == 1:
        return [
            [cell(lang, html=render_markup(blocks[lang][i])) for lang in langs]
            for i in range(counts.pop())
        ]
    return [[cell(lang, html=render_markup("\n\n".join(blocks[lang]))) for lang in langs]]


def _unit_block(unit, langs: tuple[str, ...], title_field: str, body_field: str) -> dict:
    """One titled unit (a start step, a rules section): a title row and body rows.

    A language the unit is not translated into yet gets an empty title and one
    ``missing`` cell: its fields hold English placeholders, not a translation."""
    done = [lang for lang in langs if unit.is_translated(lang)]
    titles = [
        cell(lang, text=getattr(unit, f"{title_field}_{lang}") if lang in done else "")
        for lang in langs
    ]
    if len(done) == len(langs):
        rows = _body_rows(unit, langs, body_field)
    else:
        rows = [
            [
                cell(lang, html=render_markup(getattr(unit, f"{body_field}_{lang}")))
                if lang in done
                else cell(lang, missing=True)
                for lang in langs
            ]
        ]
    return {"slug": unit.slug, "titles": titles, "rows": rows}


def start_part(query: SheetQuery) -> dict:
    steps = [_unit_block(s, query.languages, "title", "body") for s in StartStep.objects.all()]
    return {"kind": "start", "id": "start", "units": steps}


def rules_part(query: SheetQuery, slugs: list[str] | None = None) -> dict:
    """Every rules section, or the chosen ones (in the rules' own order)."""
    sections = RulesSection.objects.all()
    if slugs is not None:
        sections = sections.filter(slug__in=slugs)
    units = [_unit_block(s, query.languages, "title", "body") for s in sections]
    return {"kind": "rules", "id": "rules", "units": units}


def glossary_part(query: SheetQuery) -> dict:
    rows = []
    for entry in GlossaryEntry.objects.all():
        rows.append(
            {
                "slug": entry.slug,
                "cells": [
                    cell(
                        lang,
                        term=getattr(entry, f"term_{lang}"),
                        definition=getattr(entry, f"definition_{lang}"),
                        missing=not entry.is_translated(lang),
                    )
                    for lang in query.languages
                ],
            }
        )
    return {"kind": "glossary", "id": "glossary", "rows": rows}


def walkthrough_part(query: SheetQuery, slug: str) -> dict:
    """One walkthrough as numbered still pictures, each with its words per language.

    The pictures are drawn once, in the first language; the words of every language
    use the first language's cast."""
    names = walkthroughs.names_for(query.lang)
    per_lang = {}
    headings = []
    for lang in query.languages:
        with translation.override(lang):
            summary = next(w for w in walkthroughs.summaries() if w.slug == slug)
            frames = walkthroughs.frames(slug, names=names)
        titles = section_titles_in(lang)
        for frame in frames:
            for link in frame["clauses"]:
                link["section"] = titles.get(link["anchor"], "")
        per_lang[lang] = frames
        headings.append(
            cell(lang, title=summary.title, summary=summary.summary, number=summary.number)
        )
    first = per_lang[query.lang]
    steps = []
    for i, frame in enumerate(first):
        steps.append(
            {
                "number": frame["number"],
                "total": len(first),
                "table": frame["table"],
                "cells": [
                    cell(
                        lang,
                        caption=per_lang[lang][i]["caption"],
                        events=per_lang[lang][i]["events"],
                        clauses=per_lang[lang][i]["clauses"],
                    )
                    for lang in query.languages
                ],
            }
        )
    return {
        "kind": "walkthrough",
        "id": f"walkthrough-{slug}",
        "headings": headings,
        "steps": steps,
    }


def quiz_part(query: SheetQuery) -> dict:
    """The engine's quiz for the query's seed: the same questions, positions and names
    in every column (the first language's cast); the answers come after them."""
    from games.teach.quiz.questions import make_quiz
    from games.teach.quiz.views import question_data

    names = walkthroughs.names_for(query.lang)
    questions = make_quiz(query.seed)
    per_lang = {}
    for lang in query.languages:
        with translation.override(lang):
            per_lang[lang] = [question_data(i, q, names) for i, q in enumerate(questions, 1)]
    first = per_lang[query.lang]
    items = [
        {
            "number": q["number"],
            "total": len(first),
            "table": q["table"],
            "cells": [cell(lang, q=per_lang[lang][i]) for lang in query.languages],
        }
        for i, q in enumerate(first)
    ]
    return {"kind": "quiz", "id": "quiz", "seed": query.seed, "questions": items}


def parts(query: SheetQuery) -> list[dict]:
    """Every chosen part, in the order the address names them; chosen rules sections
    make one part, where the first of them is named."""
    result = []
    chosen_sections = [p.partition(":")[2] for p in query.parts if p.startswith("rules:")]
    for part in query.parts:
        kind, _sep, slug = part.partition(":")
        if kind == "start":
            result.append(start_part(query))
        elif part == "rules":
            result.append(rules_part(query))
        elif kind == "rules" and slug == chosen_sections[0]:  # chosen sections: one part
            result.append(rules_part(query, chosen_sections))
        elif kind == "glossary":
            result.append(glossary_part(query))
        elif kind == "walkthrough":
            result.append(walkthrough_part(query, slug))
        elif kind == "quiz" and quiz_available():
            result.append(quiz_part(query))
        elif kind == "game":
            result.append(sheets_game.game_part(query, part))
        elif kind == "lesson":
            result.append(sheets_lesson.lesson_part(query, part))
    return result
