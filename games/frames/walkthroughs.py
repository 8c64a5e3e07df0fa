"""Walkthrough pages' data: scenarios played on the engine, told in words.

Everything shown comes from the engine's states and events (see
``games.scenarios.runner``); this module only puts them into the page's
language and into the shape the page and its script draw.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.urls import reverse
from django.utils.translation import get_language

from games.content.files import load_shape
from games.content.sections import section_titles
from games.engine import Card, GameState
from games.engine.events import CardTurned
from games.frames import narration
from games.scenarios import Branch, PlayedScenario, Scenario, load_all, play_scenario
from games.words.press_outcomes import REFUSED
from games.words.texts import card_name, event_text, fill

CAST_FILE = Path(__file__).resolve().parents[1] / "scenarios" / "cast.toml"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}


@cache
def cast() -> dict[str, list[str]]:
    with CAST_FILE.open("rb") as fh:
        return tomllib.load(fh)


def names_for(lang: str | None = None) -> list[str]:
    table = cast()
    return table.get(lang or get_language() or "en", table["en"])


@cache
def played_scenarios() -> dict[str, PlayedScenario]:
    """All scenarios, played once per process (they are pure data)."""
    return {s.slug: play_scenario(s) for s in load_all()}


@cache
def clause_sections() -> dict[str, str]:
    """Clause id -> the rules section (anchor) that explains it."""
    return {c: s.slug for s in load_shape().sections for c in s.clauses}


@dataclass(frozen=True)
class WalkthroughSummary:
    slug: str
    number: int
    title: str
    summary: str
    clauses: tuple[str, ...]


def summaries() -> list[WalkthroughSummary]:
    return [
        WalkthroughSummary(
            slug=p.scenario.slug,
            number=i,
            title=str(narration.TITLES[p.scenario.slug]),
            summary=str(narration.SUMMARIES[p.scenario.slug]),
            clauses=p.scenario.clauses,
        )
        for i, p in enumerate(played_scenarios().values(), start=1)
    ]


def walkthroughs_by_section() -> dict[str, list[WalkthroughSummary]]:
    """Rules section anchor -> the walkthroughs that show one of its clauses."""
    mapping = clause_sections()
    by_section: dict[str, list[WalkthroughSummary]] = {}
    for w in summaries():
        for section in dict.fromkeys(mapping[c] for c in w.clauses if c in mapping):
            by_section.setdefault(section, []).append(w)
    return by_section


def card_data(card: Card | None) -> dict | None:
    if card is None:
        return None
    return {
        "code": card.code,
        "rank": RANK_LABELS.get(card.rank, str(card.rank)),
        "suit": SUIT_SYMBOLS[card.suit],
        "red": card.suit in "HD",
        "name": card_name(card),
    }


def table_data(state: GameState, names: list[str], learner: int, before: GameState | None):
    players = []
    for seat in range(state.players):
        counts = state.counts(seat)
        top = state.top_face_up(seat)
        changed = before is not None and (
            before.counts(seat) != counts or before.top_face_up(seat) != top
        )
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "face_down": counts.face_down,
                "face_up": counts.face_up,
                "top": card_data(top),
                "out": state.is_out(seat),
                "to_play": seat == state.to_play and not state.over,
                "learner": seat == learner,
                "changed": changed,
            }
        )
    pot_changed = before is not None and (before.pot != state.pot)
    return {
        "players": players,
        "pot": {
            "count": len(state.pot),
            "top": card_data(state.pot_top),
            "blocked": state.pot_blocked,
            "changed": pot_changed,
        },
        "over": state.over,
    }


def _caption_values(names: list[str], learner: int, events) -> dict[str, str]:
    values = {f"p{seat}": name for seat, name in enumerate(names)}
    values["you"] = names[learner]
    turned = [e.card for e in events if isinstance(e, CardTurned)]
    values["card"] = card_name(turned[-1]) if turned else ""
    return values


def caption_text(say: str, names: list[str], learner: int, events) -> str:
    """A step's caption in the active language, names and card isolated for bidi."""
    return fill(str(narration.CAPTIONS[say]), **_caption_values(names, learner, events))


def clause_links(clauses) -> list[dict]:
    mapping = clause_sections()
    rules_url = reverse("rules")
    return [
        {"id": c, "anchor": mapping[c], "url": f"{rules_url}#{mapping[c]}"}
        for c in clauses
        if c in mapping
    ]


def answers(branches: dict[str, Branch], names: list[str], learner: int, state: GameState):
    """The page's data for the engine's answer to each press in ``state`` (see
    :func:`frames`): the walkthroughs' and the game lessons' (``games.frames.recorded``)."""
    result = {}
    for press, branch in branches.items():
        verdict = branch.outcome
        refused = verdict.outcome == REFUSED
        result[press] = {
            "outcome": verdict.outcome,
            "note": narration.note_text(verdict.sentences, names),
            "events": [event_text(e, names) for e in branch.events if e.code != "rejected"],
            "clauses": clause_links(verdict.clauses),
            "table": None if refused else table_data(branch.state, names, learner, state),
        }
    return result


def not_said_yet(caption: str, lines: list[str]) -> list[str]:
    """The event lines the caption does not already say word for word: a step never
    shows the same sentence twice ("Alexandra turns over the 5 of hearts." as both)."""
    return [line for line in lines if line not in caption]


def frames(slug: str, names: list[str] | None = None) -> list[dict]:
    """Every step of one walkthrough, with the engine's answer to each button.

    Each answer (``branches[press]``) is ``{"outcome", "note", "events", "clauses",
    "table"}``: the outcome and the note come from the engine's events
    (:mod:`games.words.press_outcomes`); ``table`` is None when the press changed nothing.
    ``names`` replaces the cast of the page's language (tests use it).
    """
    played = played_scenarios()[slug]
    scenario: Scenario = played.scenario
    names = names or names_for()
    learner = scenario.learner
    result = []
    before = played.start
    for i, step in enumerate(played.steps):
        branches = answers(step.branches, names, learner, step.state)
        next_press = played.steps[i + 1].step.learner if i + 1 < len(played.steps) else None
        caption = caption_text(step.step.say, names, learner, step.events)
        result.append(
            {
                "number": i + 1,
                "caption": caption,
                "events": not_said_yet(caption, [event_text(e, names) for e in step.events]),
                "clauses": clause_links(step.step.clauses),
                "expects": next_press,
                "table": table_data(step.state, names, learner, before if i else None),
                "branches": branches,
            }
        )
        before = step.state
    return result


def named_clause_links(clauses) -> list[dict]:
    """Rule links that also name their section in the page's language, so that a child
    reads "Mistakes (R13)", not only "R13"."""
    titles = section_titles()
    return [{**link, "section": titles.get(link["anchor"], "")} for link in clause_links(clauses)]
