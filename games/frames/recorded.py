"""The replay and game-lesson pages' data: a recorded game told in the page's language.

Frames have the walkthroughs' shape (:func:`games.frames.walkthroughs.frames`), so the very same
player shows them: the start, then one frame per action of the record, its caption the
events of that action told as a live table tells them (``games.tables.live_text.told_event``,
the rules from ``games.words.clauses``). A lesson adds, from one seat, the engine's answer
to every press (:mod:`games.frames.steps`, :func:`games.frames.walkthroughs.answers`).

A long game has hundreds of frames, and a lesson three answers in each: the page sends
them in a compact form (:func:`compact`) that ``games/js/frames.js`` opens out again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine import GameState, Record
from games.frames.seat_names import SeatNames
from games.frames.steps import RecordStep, lesson_positions, record_steps
from games.frames.walkthroughs import answers, clause_links, table_data
from games.tables.live_text import told_event
from games.tables.owner import event_data
from games.tables.protocol import pot_marks
from games.words.texts import fill

__all__ = ["compact", "frames", "script_json", "told_step"]


def told_step(step: RecordStep, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """The sentences telling ``step``'s events (as a live table tells them, with what
    became of the Snap Pot where it was blocked, R18 D) and the rules they show."""
    texts: list[str] = []
    clauses: list[str] = []
    marks = pot_marks(step.before, step.state)
    for i, event in enumerate(step.events):
        data = event_data(step.before, event)
        if i == len(step.events) - 1:
            data.update(marks)
        texts.append(told_event(data, names))
        clauses.extend(data["rules"])
    return texts, list(dict.fromkeys(clauses))


def start_caption(start: GameState, names: Sequence[str], learner: int | None) -> str:
    first = start.to_play
    text = fill(_("The game begins: %(player)s plays first."), player=names[first])
    if learner is None:
        return text
    you = fill(_("In this lesson you play as %(player)s."), player=names[learner])
    return f"{text} {you}"


def seat_names_of(names: Sequence[str] | SeatNames) -> SeatNames:
    return names if isinstance(names, SeatNames) else SeatNames.plain(names)


def frames(
    record: Record, names: Sequence[str] | SeatNames, learner: int | None = None
) -> list[dict]:
    """The start and every action of ``record`` as walkthrough frames; with a
    ``learner`` seat, the lesson: its prompts and the engine's answer to each press.
    ``names``: each seat's label, or a :class:`SeatNames` (the labels at each step:
    "Computer for Luka" where a computer player stood in for Luka); a frame's
    ``stood_in`` lists the seats so labelled. The learner's own presses (the answers)
    are always the learner's, under the seat's own name."""
    seat_names = seat_names_of(names)
    start, steps = record_steps(record)
    positions = lesson_positions(start, steps, learner) if learner is not None else None
    result = []
    before = None
    for i in range(len(steps) + 1):
        state = steps[i - 1].state if i else start
        labels = seat_names.at(i)
        if i:
            texts, clauses = told_step(steps[i - 1], labels)
            caption = " ".join(texts)
        else:
            caption, clauses = start_caption(start, labels, learner), []
        position = positions[i] if positions else None
        pressing = seat_names.at(i, keep=learner)
        result.append(
            {
                "number": i + 1,
                "caption": caption,
                "events": [],
                "clauses": clause_links(clauses),
                "expects": position.expects if position else None,
                "table": table_data(state, labels, learner, before),
                "branches": answers(position.branches, pressing, learner, state)
                if position
                else {},
                "stood_in": sorted(seat_names.stood_in(i)),
            }
        )
        before = state
    return result


# ---- The compact form (opened out by games/js/frames.js) --------------------------------

OUT, TO_PLAY, CHANGED = 1, 2, 4  # a seat's flags
BLOCKED, POT_CHANGED = 1, 2  # the Snap Pot's flags


class _Packer:
    """Cards, rule links and sentences are sent once each and named by key or index."""

    def __init__(self) -> None:
        self.cards: dict[str, dict] = {}
        self.rules: dict[str, dict] = {}
        self.texts: list[str] = []
        self._text_index: dict[str, int] = {}

    def text(self, value: str) -> int:
        if value not in self._text_index:
            self._text_index[value] = len(self.texts)
            self.texts.append(value)
        return self._text_index[value]

    def card(self, card: dict | None) -> str | None:
        if card is None:
            return None
        self.cards.setdefault(card["code"], card)
        return card["code"]

    def links(self, links: list[dict]) -> list[str]:
        for link in links:
            self.rules.setdefault(link["id"], link)
        return [link["id"] for link in links]

    def table(self, table: dict | None) -> dict | None:
        if table is None:
            return None
        seats = [
            [
                p["face_down"],
                p["face_up"],
                self.card(p["top"]),
                (OUT if p["out"] else 0)
                | (TO_PLAY if p["to_play"] else 0)
                | (CHANGED if p["changed"] else 0),
            ]
            for p in table["players"]
        ]
        pot = table["pot"]
        flags = (BLOCKED if pot["blocked"] else 0) | (POT_CHANGED if pot["changed"] else 0)
        return {"p": seats, "pot": [pot["count"], self.card(pot["top"]), flags], "o": table["over"]}


def compact(frames: list[dict], names: Sequence[str] | SeatNames, learner: int | None) -> dict:
    """``frames`` (made by :func:`frames`, with section titles) in the compact form:
    ``names``, ``standing_in`` (each seat's label while a computer player stands in for
    it), ``learner``, ``cards`` (code -> card), ``rules`` (id -> link), ``texts``,
    and per frame ``c`` (caption, a text index), ``r`` (rule ids), ``x`` (the press
    asked for), ``a`` (the seats called by their ``standing_in`` label, when any),
    ``t`` (table: ``p`` seats as [face down, face up, top card, flags],
    ``pot`` as [count, top card, flags], ``o`` over) and ``b`` (answers: ``o`` outcome,
    ``n`` note, ``e`` events, ``r`` rules, ``t`` table; the learner's seat under its
    own name)."""
    seat_names = seat_names_of(names)
    pack = _Packer()
    packed = []
    for frame in frames:
        item: dict = {"c": pack.text(frame["caption"]), "t": pack.table(frame["table"])}
        if frame.get("stood_in"):
            item["a"] = frame["stood_in"]
        if frame["clauses"]:
            item["r"] = pack.links(frame["clauses"])
        if frame["expects"]:
            item["x"] = frame["expects"]
        if frame["branches"]:
            item["b"] = {
                press: {
                    "o": answer["outcome"],
                    "n": pack.text(answer["note"]),
                    "e": [pack.text(t) for t in answer["events"]],
                    "r": pack.links(answer["clauses"]),
                    "t": pack.table(answer["table"]),
                }
                for press, answer in frame["branches"].items()
            }
        packed.append(item)
    return {
        "compact": 1,
        "names": list(seat_names.own),
        "standing_in": list(seat_names.standing_in),
        "learner": learner,
        "cards": pack.cards,
        "rules": pack.rules,
        "texts": pack.texts,
        "frames": packed,
    }


_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def script_json(value) -> SafeString:
    """``value`` as JSON to put inside ``<script type="application/json">``: escaped like
    Django's ``json_script``, but with letters as they are (UTF-8), not ``\\uXXXX``: a
    Tamil game would otherwise weigh twice as much."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return mark_safe(text.translate(_SCRIPT_ESCAPES))  # noqa: S308 (escaped just above)
