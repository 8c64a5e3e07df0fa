"""A lesson as the builder edits it, and every edit it allows, checked on the engine.

:class:`Draft` is a whole lesson (title, setup, the kept deck, steps, notes, marks).
Each edit returns a new draft, or raises :class:`EditRefused` with a sentence in the
active language and changes nothing: a step the engine refuses (the engine's reason),
a note too long, a lesson too long, a moment the class cannot decide. Changing the
setup or an earlier step replays the steps after it on the engine; where one no longer
fits, the lesson stops there and :attr:`Edited.notice` says which step and why.

Limits (docs/teachers.md): :data:`MAX_STEPS` steps, :data:`MAX_NOTE` characters a
note, :data:`MAX_TITLE` characters a title.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import Card
from games.frames import lesson_play
from games.frames.lesson_play import Played, Refused, asked_press, check_step, go_on, play
from games.frames.lesson_setup import Setup, dealt_deck, start_of
from games.words.texts import fill, reject_text

__all__ = ["Draft", "EditRefused", "Edited", "MAX_NOTE", "MAX_STEPS", "MAX_TITLE"]

#: Steps a lesson may have.
MAX_STEPS = 80
#: Characters a note may have.
MAX_NOTE = 300
#: Characters a title may have.
MAX_TITLE = 80


class EditRefused(ValueError):
    """An edit the lesson cannot take; ``str(error)`` says why. Nothing was changed."""


@dataclass(frozen=True)
class Draft:
    setup: Setup
    deck: tuple[str, ...]
    steps: tuple[dict, ...] = ()
    notes: dict[int, str] = field(default_factory=dict)  # position -> note
    marks: frozenset[int] = frozenset()  # step numbers the class decides
    title: str = ""

    @classmethod
    def new(cls, setup: Setup, title: str = "") -> Draft:
        return cls(setup, tuple(c.code for c in dealt_deck(setup)), title=check_title(title))

    def played(self) -> Played:
        return play(start_of(self.setup, [Card.parse(c) for c in self.deck]), list(self.steps))

    def to_json(self) -> dict:
        return {
            "title": self.title,
            "setup": self.setup.to_json(),
            "deck": list(self.deck),
            "steps": [dict(s) for s in self.steps],
            "notes": {str(k): v for k, v in sorted(self.notes.items())},
            "marks": sorted(self.marks),
        }

    @classmethod
    def from_json(cls, data: dict) -> Draft:
        setup = Setup.from_json(data["setup"])
        return cls(
            setup=setup,
            deck=tuple(data["deck"]),
            steps=tuple(check_step(s, setup.players) for s in data.get("steps", ())),
            notes={int(k): v for k, v in data.get("notes", {}).items()},
            marks=frozenset(data.get("marks", ())),
            title=data.get("title", ""),
        )


@dataclass(frozen=True)
class Edited:
    """An edit's result: the new draft, and what became of the steps after the edit
    (``notice``: "Step 7 no longer fits …"), when anything did."""

    draft: Draft
    notice: str = ""
    added: int = 0  # steps the edit put in (a step, or the turns of "go on")


def check_title(title: str) -> str:
    title = title.strip()
    if len(title) > MAX_TITLE:
        raise EditRefused(too_long_text(MAX_TITLE))
    return title


def too_long_text(limit: int) -> str:
    return ngettext(
        "That is too long: at most %(count)d character.",
        "That is too long: at most %(count)d characters.",
        limit,
    ) % {"count": limit}


def refusal_text(refused: Refused, setup: Setup) -> str:
    """What the engine said, and to whom."""
    reason = reject_text(refused.reason)
    if refused.seat is None:
        return fill(_("The game does not allow this step: %(reason)s"), reason=reason)
    return fill(
        _("The game does not allow this step for %(player)s: %(reason)s"),
        player=setup.names[refused.seat],
        reason=reason,
    )


def _settled(draft: Draft, played: Played, notice: str = "") -> Edited:
    """``draft`` kept to the steps that fit, marks only where the class can still
    decide, notes only at positions that exist."""
    steps = draft.steps[: len(played.steps)]
    if played.refused is not None:
        cut = len(draft.steps) - len(steps)
        notice = fill(
            ngettext(
                "Step %(number)d no longer fits, so it was taken out (%(count)d step "
                "in all, from there to the end). %(reason)s",
                "Step %(number)d no longer fits, so it was taken out with the steps after "
                "it (%(count)d steps in all). %(reason)s",
                cut,
            ),
            number=played.refused.number,
            count=cut,
            reason=refusal_text(played.refused, draft.setup),
        )
    learner = draft.setup.learner
    marks = frozenset(
        n for n in draft.marks if n <= len(steps) and asked_press(played.steps[n - 1], learner)
    )
    lost = sorted(draft.marks - marks)
    if lost and played.refused is None:
        notice = " ".join(
            filter(
                None,
                [
                    notice,
                    ngettext(
                        "The class can no longer decide at %(count)d marked step: its "
                        "mark was taken away.",
                        "The class can no longer decide at %(count)d marked steps: their "
                        "marks were taken away.",
                        len(lost),
                    )
                    % {"count": len(lost)},
                ],
            )
        )
    notes = {k: v for k, v in draft.notes.items() if k <= len(steps)}
    return Edited(replace(draft, steps=steps, marks=marks, notes=notes), notice)


def with_setup(draft: Draft, setup: Setup) -> Edited:
    """A new table or deal: a new deck when the deal changed, then every step replayed."""
    same_deal = (setup.players, setup.first, setup.seed, setup.arranged) == (
        draft.setup.players,
        draft.setup.first,
        draft.setup.seed,
        draft.setup.arranged,
    )
    deck = draft.deck if same_deal else tuple(c.code for c in dealt_deck(setup))
    new = replace(draft, setup=setup, deck=deck)
    return _settled(new, new.played())


def _steps_at(draft: Draft, at: int) -> tuple[Played, int]:
    played = draft.played()
    if not 0 <= at <= len(played.steps):
        raise EditRefused(_("There is no such step in this lesson."))
    return played, at


def with_step(draft: Draft, at: int, step: dict | str) -> Edited:
    """``step`` (or ``"go_on"``: let the computer go on) as the step after position
    ``at``; the steps that were after it are replayed after the new ones."""
    played, at = _steps_at(draft, at)
    state = played.steps[at - 1].state if at else played.start
    if step == "go_on":
        if state.race is not None:
            raise EditRefused(reject_text("race_open"))
        new_steps = go_on(state)
        if not new_steps:
            raise EditRefused(reject_text("game_over" if state.over else "bad_action"))
    else:
        try:
            new_steps = [check_step(step, draft.setup.players)]
        except ValueError:
            raise EditRefused(reject_text("bad_action")) from None
        try:
            lesson_play.play_step(state, new_steps[0], at + 1)
        except Refused as refused:
            raise EditRefused(refusal_text(refused, draft.setup)) from None
    steps = draft.steps[:at] + tuple(new_steps) + draft.steps[at + 1 :]
    if len(steps) > MAX_STEPS:
        raise EditRefused(
            ngettext(
                "A lesson has at most %(count)d step.", "A lesson has at most %(count)d steps.",
                MAX_STEPS,
            ) % {"count": MAX_STEPS}
        )  # fmt: skip
    # The old step at+1 is replaced (its mark stays while the class can still decide
    # it); steps after it move by the number added beyond one.
    shift = len(new_steps) - 1
    marks = frozenset(n if n <= at + 1 else n + shift for n in draft.marks)
    notes = {k if k <= at else k + shift: v for k, v in draft.notes.items()}
    new = replace(draft, steps=steps, marks=marks, notes=notes)
    return replace(_settled(new, new.played()), added=len(new_steps))


def cut_after(draft: Draft, at: int) -> Edited:
    """The lesson ends at position ``at``: the steps after it are taken out."""
    _steps_at(draft, at)
    new = replace(draft, steps=draft.steps[:at])
    return _settled(new, new.played())


def with_moment(draft: Draft, at: int, note: str, ask: bool) -> Edited:
    """The teacher's ``note`` at position ``at`` and whether the class decides the next
    step (``ask``): the class's player must make it, and the engine must count it right."""
    played, at = _steps_at(draft, at)
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise EditRefused(too_long_text(MAX_NOTE))
    marks = set(draft.marks)
    if ask:
        if at >= len(played.steps):
            raise EditRefused(_("The class decides a step: add the next step first."))
        if not asked_press(played.steps[at], draft.setup.learner):
            raise EditRefused(
                fill(
                    _(
                        "The class can decide only a right move of %(player)s, the player "
                        "the class plays: a turn on %(player)s’s turn, or a call on a match."
                    ),
                    player=draft.setup.names[draft.setup.learner],
                )
            )
        marks.add(at + 1)
    else:
        marks.discard(at + 1)
    notes = dict(draft.notes)
    if note:
        notes[at] = note
    else:
        notes.pop(at, None)
    return Edited(replace(draft, notes=notes, marks=frozenset(marks)))


def with_title(draft: Draft, title: str) -> Edited:
    return Edited(replace(draft, title=check_title(title)))
