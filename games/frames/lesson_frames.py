"""A teacher's lesson as walkthrough frames, told in the reader's language.

Frames have the walkthroughs' shape (:func:`games.frames.walkthroughs.frames`), so the
walkthrough player plays them: the start, then one frame per step, its caption the
step's engine events told as a live table tells them (:func:`told`, with the clauses
they show). At every position the player answers each of the class's presses with the
engine's own result (:func:`games.scenarios.runner.play_branch`, as in the
walkthroughs); at a marked step ("the class decides here") the press that makes the
step is the one asked for (``expects``), and Next waits for it.

The teacher's note for a position is ``note``: their own words, in their language,
never mixed into the engine's sentences (the page shows it as text, escaped).
"""

from __future__ import annotations

from django.utils.translation import ngettext

from games.frames import recorded
from games.frames.lesson_draft import Draft
from games.frames.lesson_play import STEP_MS, asked_press
from games.frames.steps import RecordStep
from games.frames.walkthroughs import answers, clause_links, table_data
from games.scenarios.model import LEARNER_PRESSES
from games.scenarios.runner import play_branch
from games.tables.live_text import told_event
from games.tables.owner import event_data

__all__ = ["frames", "payload", "step_lines"]


def told(step: RecordStep, names: list[str]) -> tuple[list[str], list[str]]:
    """The sentences telling ``step``'s events and the rules they show: as a live table
    tells them while the game goes on; a step that ends the game with cards in the
    Snap Pot says they stay there (R18), not how a tie could still free them."""
    if not (step.state.over and step.state.pot):
        return recorded.told_step(step, names)
    texts, clauses = [], []
    for event in step.events:
        data = event_data(step.before, event)
        texts.append(told_event(data, names))
        clauses.extend(data["rules"])
    count = len(step.state.pot)
    texts.append(
        ngettext(
            "The game is over with %(count)d card in the Snap Pot: it stays there.",
            "The game is over with %(count)d cards in the Snap Pot: they stay there.",
            count,
        )
        % {"count": count}
    )
    return texts, list(dict.fromkeys([*clauses, "R18"]))


def step_lines(draft: Draft) -> list[str]:
    """One line per step that fits: its events told in the active language."""
    names = list(draft.setup.names)
    return [" ".join(told(s, names)[0]) for s in draft.played().steps]


def frames(draft: Draft) -> list[dict]:
    """The start and every step of ``draft`` as walkthrough frames."""
    names = list(draft.setup.names)
    learner = draft.setup.learner
    played = draft.played()
    steps = played.steps
    result = []
    before = None
    for i in range(len(steps) + 1):
        state = steps[i - 1].state if i else played.start
        if i:
            texts, clauses = told(steps[i - 1], names)
            caption = " ".join(texts)
        else:
            caption, clauses = recorded.start_caption(played.start, names, learner), []
        following = steps[i] if i < len(steps) else None
        expects = None
        if following is not None and (i + 1) in draft.marks:
            expects = asked_press(following, learner)
        branches = {
            press: play_branch(
                state,
                learner,
                press,
                state.clock_ms + STEP_MS,
                following=following.events if following else None,
                example_ends=following is None,
            )
            for press in LEARNER_PRESSES
            if press != expects and not state.over
        }
        result.append(
            {
                "number": i + 1,
                "caption": caption,
                "events": [],
                "clauses": clause_links(clauses),
                "expects": expects,
                "table": table_data(state, names, learner, before),
                "branches": answers(branches, names, learner, state),
                "note": draft.notes.get(i, ""),
            }
        )
        before = state
    return result


def payload(draft: Draft, lesson_frames: list[dict]) -> dict:
    """The frames in the player's compact form, each teacher's note as ``m``."""
    data = recorded.compact(lesson_frames, list(draft.setup.names), draft.setup.learner)
    for packed, frame in zip(data["frames"], lesson_frames, strict=True):
        if frame["note"]:
            packed["m"] = frame["note"]
    return data
