"""Lesson sheets: the part ``game:<CODE>``, a finished table's game as a strip of pictures.

A game has a hundred steps or more, most of them a card being turned. The sheet shows
the first deal, then each *moment* where more happened (a call, a race, piles won, a
tie, a penalty, a player out or back, the end): a run of such steps one after another
(a call, the call that joins it, the tie, the late call) is one picture, the table after
its last step, with every step's sentences. Pictures keep the replay's step numbers
(``/<lang>/replay/<CODE>/``: step 1 is the deal, step N+1 follows action N), so the
teacher finds any of them there.

The names are the first language's on both sides (the players' typed names and the
"Computer N" labels), as walkthroughs do; the pictures are drawn once, in that language.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from games.engine.events import CardTurned, PileTurnedOver, Rejected
from games.frames.recorded import start_caption, told_step
from games.frames.seat_names import SeatNames
from games.frames.steps import RecordStep, record_steps
from games.frames.table_game import Missing, load_game
from games.frames.walkthroughs import clause_links, table_data
from games.tables.codes import normalise_code
from games.teach.sheets.cells import cell, section_titles_in
from games.words.texts import fill

PREFIX = "game:"
#: Events of a plain turn: a card turned (and a face-up pile turned over for it).
PLAIN_EVENTS = (CardTurned, PileTurnedOver, Rejected)


def is_game_part(part: str) -> bool:
    return part.startswith(PREFIX) and bool(normalise_code(part[len(PREFIX) :]))


def canonical(part: str) -> str:
    """``game:acf-347`` as the address writes it: ``game:ACF347``."""
    return PREFIX + normalise_code(part[len(PREFIX) :])


def _load(code: str):
    return load_game(code)  # the replay's own loader (names as labels)


def problem(part: str) -> str | None:
    """Why ``part`` (a canonical game part) cannot go on a sheet, in the page's
    language; None when its table's game is over."""
    code = part[len(PREFIX) :]
    try:
        game = _load(code)
    except Missing:
        return fill(
            _(
                "There is no table with the code %(code)s, so a sheet cannot show its game. "
                "Check the letters."
            ),
            code=code,
        )
    if not game.end.over:
        return fill(
            _(
                "The game at table %(code)s is not over yet. A sheet can show a game once "
                "it has finished."
            ),
            code=code,
        )
    return None


def plain(step: RecordStep) -> bool:
    """Only a card turned in this step."""
    return all(isinstance(event, PLAIN_EVENTS) for event in step.events)


def moments(steps: tuple[RecordStep, ...]) -> list[list[RecordStep]]:
    """The steps where more than a card turn happened, runs of consecutive ones together."""
    groups: list[list[RecordStep]] = []
    for step in steps:
        if plain(step):
            continue
        if groups and groups[-1][-1].number == step.number - 1:
            groups[-1].append(step)
        else:
            groups.append([step])
    return groups


def _told(group: list[RecordStep], names: SeatNames, titles: dict[str, str]):
    """A moment's sentences and rule links (their sections named), in the active language;
    a computer player standing in for a person is named so ("Computer for Luka")."""
    texts, clauses = [], []
    for step in group:
        step_texts, step_clauses = told_step(step, names.at(step.number))
        texts += step_texts
        clauses += step_clauses
    links = clause_links(list(dict.fromkeys(clauses)))
    for link in links:
        link["section"] = titles.get(link["anchor"], "")
    return texts, links


def game_part(query, part: str) -> dict:
    """The game of ``part`` (checked by :func:`problem`) for the sheet of ``query``."""
    from django.urls import reverse

    code = part[len(PREFIX) :]
    with translation.override(query.lang):
        game = _load(code)
    names = list(game.names)
    start, steps = record_steps(game.record)
    total = len(steps) + 1  # the replay's steps: the deal, then one per action
    groups = moments(steps)

    headings = []
    per_lang: dict[str, list] = {}
    for lang in query.languages:
        titles = section_titles_in(lang)
        with translation.override(lang):
            headings.append(cell(lang, replay_path=reverse("replay", args=[code])))
            per_lang[lang] = [([start_caption(start, names, None)], [])] + [
                _told(group, game.labels, titles) for group in groups
            ]

    with translation.override(query.lang):  # the card names of the pictures
        pictures = [(1, 1, table_data(start, names, None, None))]
        for group in groups:
            labels = game.labels.at(group[-1].number)
            table = table_data(group[-1].state, labels, None, group[0].before)
            pictures.append((group[0].number + 1, group[-1].number + 1, table))

    items = []
    for i, (first, last, table) in enumerate(pictures):
        items.append(
            {
                "first": first,
                "last": last,
                "total": total,
                "table": table,
                "cells": [
                    cell(lang, events=per_lang[lang][i][0], clauses=per_lang[lang][i][1])
                    for lang in query.languages
                ],
            }
        )
    return {
        "kind": "game",
        "id": f"game-{code}",
        "code": code,
        "total": total,
        "headings": headings,
        "steps": items,
    }
