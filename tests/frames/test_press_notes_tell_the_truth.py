"""Every answer to a learner's press tells what the engine did.

For every walkthrough, frame and press that leaves the example, in all six languages:
the outcome agrees with the engine's events, the note names who paid and who received
a penalty card (or who won how many cards), the clause link is R13 or R14 as the rules
say (worked out here from the position itself, not from the classifier), and only a
mistake invites the learner to try again.
"""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games.engine import SNAP
from games.engine.events import (
    CardTurned,
    PilesWon,
    Rejected,
    TieToPot,
    TooLate,
    WrongCall,
)
from games.frames.walkthroughs import frames, names_for, played_scenarios
from games.words.press_outcomes import TRY_AGAIN
from games.words.texts import card_name, event_text, isolate, reject_text
from tests.conftest import LANGUAGE_CODES

SLUGS = list(played_scenarios())


def expected_outcome(events, learner: int) -> str:
    """The outcome the engine's events call for, by event type alone."""
    if any(isinstance(e, Rejected) for e in events):
        return "refused"
    if any(isinstance(e, WrongCall) and e.seat == learner for e in events):
        return "mistake"
    if any(isinstance(e, TooLate) and e.seat == learner for e in events):
        return "too_late"
    if any(isinstance(e, (PilesWon, TieToPot)) for e in events):
        return "right"
    if any(isinstance(e, CardTurned) and e.seat == learner for e in events):
        return "right"
    raise AssertionError(f"no outcome for {events}")


def valid_words(state) -> tuple[bool, bool]:
    """Whether "Snap!" and "Snap Pot!" are right in ``state``, from the top cards alone
    (missed matches stay callable: R8 D)."""
    assert state.options.missed_match_callable
    tops = [pile[-1].rank for pile in state.face_up if pile]
    snap = len(tops) != len(set(tops))
    pot = bool(state.pot) and state.pot[-1].rank in tops
    return snap, pot


def expected_penalty(state, seat: int, kind: str) -> tuple[list[str], int]:
    """The clauses a wrong call shows, and who gets the card (R13, R14, R14 D)."""
    snap_ok, pot_ok = valid_words(state)
    wrong_word = (pot_ok and not snap_ok) if kind == SNAP else (snap_ok and not pot_ok)
    last = state.last_turned
    if last is not None and last != seat:
        rule, receiver = "R13", last  # to the player who has just played
    else:
        rule, receiver = "R14", (seat - 1) % state.players  # own turn / nobody played yet
    if wrong_word:
        return (["R14", rule] if rule != "R14" else ["R14"]), receiver
    return [rule], receiver


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
@pytest.mark.parametrize("slug", SLUGS)
def test_every_answer_to_a_press_agrees_with_the_engine(lang, slug):
    played = played_scenarios()[slug]
    learner = played.scenario.learner
    with translation.override(lang):
        names = names_for(lang)
        pages = frames(slug)
        try_again = gettext("Try again!")
        checked = 0
        for step, frame in zip(played.steps, pages, strict=True):
            before = step.state
            assert set(frame["branches"]) == set(step.branches)
            for press, branch in step.branches.items():
                answer = frame["branches"][press]
                where = f"{slug} frame {step.index} press {press}"
                assert set(answer) == {"outcome", "note", "events", "clauses", "table"}, where
                outcome = expected_outcome(branch.events, learner)
                assert answer["outcome"] == outcome == branch.outcome.outcome, where
                note = answer["note"]
                clauses = [c["id"] for c in answer["clauses"]]
                assert "%(" not in note and note.strip(), where
                shown = [event_text(e, names) for e in branch.events if e.code != "rejected"]
                assert answer["events"] == shown, where

                if outcome == "refused":
                    rejected = next(e for e in branch.events if isinstance(e, Rejected))
                    assert branch.state is before, where  # nothing changed
                    assert answer["table"] is None and answer["events"] == [], where
                    assert reject_text(rejected.reason) in note, where
                    if rejected.reason == "not_your_turn":
                        assert isolate(names[before.to_play]) in note, where
                else:
                    assert answer["table"] is not None, where

                if outcome == "mistake":
                    wrong = next(e for e in branch.events if isinstance(e, WrongCall))
                    want_clauses, receiver = expected_penalty(before, learner, wrong.kind)
                    assert clauses == want_clauses, where
                    assert wrong.penalty_to == receiver, where
                    assert isolate(names[wrong.seat]) in note, where  # who paid
                    assert isolate(names[wrong.penalty_to]) in note, where  # who received
                    receiver_row = answer["table"]["players"][receiver]
                    assert receiver_row["face_down"] == before.counts(receiver).face_down + 1

                for won in (e for e in branch.events if isinstance(e, PilesWon)):
                    assert outcome == "right", where
                    assert isolate(names[won.winner]) in note, where
                    assert str(won.cards) in note, where
                if any(isinstance(e, TieToPot) for e in branch.events):
                    assert outcome == "right" and "right.tie" in branch.outcome.keys, where
                for turned in (e for e in branch.events if isinstance(e, CardTurned)):
                    assert isolate(card_name(turned.card)) in note, where

                # Only a mistake invites another try: by message, and by its words.
                invites = TRY_AGAIN in branch.outcome.keys
                assert invites == (outcome == "mistake"), where
                assert (try_again in note) == (outcome == "mistake"), where
                checked += 1
    assert checked == sum(len(s.branches) for s in played.steps)


def test_the_walkthroughs_answer_every_kind_of_press():
    """Across the walkthroughs, learners meet right moves, mistakes and refusals."""
    seen = {
        b.outcome.outcome
        for played in played_scenarios().values()
        for step in played.steps
        for b in step.branches.values()
    }
    assert {"right", "mistake", "refused"} <= seen


def test_a_right_call_that_is_not_the_example_is_praised_with_what_it_won():
    played = played_scenarios()["three-piles"]
    with translation.override("en"):
        answer = frames("three-piles")[0]["branches"]["snap"]
    assert answer["outcome"] == "right"
    assert answer["note"].startswith(f"Well spotted, {isolate('Dev')}!")
    assert "4 cards in all" in answer["note"]
    assert "Try again" not in answer["note"]
    assert played.steps[0].branches["snap"].events[-1].cards == 4


def test_the_wrong_word_is_called_the_wrong_word_and_links_r14():
    with translation.override("en"):
        answer = frames("snap-pot")[1]["branches"]["snap"]
    assert answer["outcome"] == "mistake"
    assert answer["note"].startswith(f"Wrong word, {isolate('Alexandra')}!")
    assert "wrong moment" not in answer["note"]
    assert [c["id"] for c in answer["clauses"]] == ["R14", "R13"]
    assert f"goes to {isolate('Ben')}, the player who has just played." in answer["note"]
