"""Quizzes made by the engine: every answer agrees with an independent
reading of the rules and with what the engine does when the answer is played."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import SNAP, SNAP_POT, CallSnap, CallSnapPot, CloseRace, TurnCard, apply
from games.engine.events import PilesWon, RaceOpened, TieToPot, WrongCall
from games.teach.quiz.questions import KINDS, key_seat, make_quiz

SEEDS = range(200)


def play(state, actions):
    """Apply actions one by one, closing the race whenever its window has passed."""
    events = []
    for action in actions:
        if state.race is not None and action.at_ms > state.race.closes_at_ms:
            step = apply(state, CloseRace(at_ms=state.race.closes_at_ms))
            state, events = step.state, events + list(step.events)
        step = apply(state, action)
        state, events = step.state, events + list(step.events)
    if state.race is not None:
        step = apply(state, CloseRace(at_ms=state.race.closes_at_ms))
        state, events = step.state, events + list(step.events)
    return state, events


def showing(state):
    """Ranks by hand: (does a "Snap!" match show, does a "Snap Pot!" match show)."""
    tops = [state.top_face_up(s) for s in range(state.players)]
    ranks = [c.rank for c in tops if c is not None]
    snap = len(ranks) != len(set(ranks))
    pot = state.pot_top is not None and state.pot_top.rank in ranks
    return snap, pot


def check_is_snap(q):
    snap, _pot = showing(q.state)
    assert q.answer == ("yes" if snap else "no")
    _, events = play(q.state, [CallSnap(seat=q.caller, at_ms=q.state.clock_ms + 500)])
    won = [e for e in events if isinstance(e, PilesWon)]
    if q.answer == "yes":
        assert won and won[0].winner == q.caller
    else:
        assert not won and any(isinstance(e, WrongCall) for e in events)


def check_snap_or_pot(q):
    snap, pot = showing(q.state)
    assert not (snap and pot)
    assert q.answer == (SNAP if snap else SNAP_POT if pot else "neither")
    assert q.clause == {SNAP: "R8", SNAP_POT: "R10"}.get(q.answer, q.clause)
    for kind, action in ((SNAP, CallSnap), (SNAP_POT, CallSnapPot)):
        _, events = play(q.state, [action(seat=q.caller, at_ms=q.state.clock_ms + 500)])
        assert any(isinstance(e, RaceOpened) for e in events) == (q.answer == kind)


def check_penalty(q):
    n = q.state.players
    last = q.state.last_turned
    right = [(q.caller - i) % n for i in range(1, n)]  # the caller's right, then on
    nearest = next(s for s in right if q.state.total(s))  # players who are out skipped
    expected = nearest if q.caller == last else last
    assert key_seat(q.answer) == expected
    assert q.clause == ("R14" if q.caller == last else "R13")
    before = q.state.counts(expected).face_down
    action = CallSnap if q.call_kind == SNAP else CallSnapPot
    state, events = play(q.state, [action(seat=q.caller, at_ms=q.state.clock_ms + 500)])
    assert state.counts(expected).face_down == before + 1
    assert [e.penalty_to for e in events if isinstance(e, WrongCall)] == [expected]


def check_who_wins(q):
    (first, zero), (second, delay) = q.calls
    assert zero == 0 and first != second
    tie = delay <= q.tie_window_ms
    assert q.answer == ("tie" if tie else f"seat:{first}")
    assert q.clause == {(SNAP, True): "R9", (SNAP, False): "R8"}.get(
        (q.call_kind, tie), {True: "R11", False: "R10"}[tie]
    )
    action = CallSnap if q.call_kind == SNAP else CallSnapPot
    start = q.state.clock_ms + 300
    state, events = play(q.state, [action(first, start), action(second, start + delay)])
    if tie:
        assert any(isinstance(e, TieToPot) for e in events)
        assert len(state.pot) > len(q.state.pot)
    else:
        won = [e for e in events if isinstance(e, PilesWon)]
        assert [e.winner for e in won] == [first]


def turn_until(state, wanted, limit=400):
    """Turn cards in turn order, nobody calling (a legal line of play, R7, R15), until
    ``wanted(state)``; returns that state, or None after ``limit`` turns."""
    for _ in range(limit):
        if wanted(state):
            return state
        state = apply(state, TurnCard(seat=state.to_play, at_ms=state.clock_ms + 10)).state
        if state.over:
            return None
    return None


def win_pot_now(state):
    """The first to call "Snap Pot!" on the match showing: returns the pot win event."""
    caller = next(s for s in range(state.players) if not state.is_out(s))
    _, events = play(state, [CallSnapPot(seat=caller, at_ms=state.clock_ms + 300)])
    return next(e for e in events if isinstance(e, PilesWon) and e.with_pot)


def pot_match_showing(state):
    return bool(state.valid_now.snap_pot)


def tie(state):
    """Two players whose piles match call "Snap!" 20 ms apart: a tie (R9)."""
    a, b = state.valid_now.snap[:2]
    start = state.clock_ms + 300
    state, events = play(state, [CallSnap(seat=a, at_ms=start), CallSnap(seat=b, at_ms=start + 20)])
    assert any(isinstance(e, TieToPot) for e in events)
    return state


def tie_freeing_the_pot(state, limit=2000):
    """A legal line from a blocked pot: turn cards, nobody calling, until two piles
    match in a rank whose tie gives the pot a new top it does not hold all of; then tie
    (R9 D). Returns the freed position, or None."""
    for _ in range(limit):
        if state.valid_now.snap:
            freed = tie(state)
            if not freed.pot_blocked:
                return freed
        state = apply(state, TurnCard(seat=state.to_play, at_ms=state.clock_ms + 10)).state
    return None


def check_pot_win(q):
    top = q.state.pot_top
    inside = sum(1 for c in q.state.pot if c.rank == top.rank)
    assert q.answer == ("after_tie" if inside == 4 else "yes")
    assert q.clause == ("R18" if inside == 4 else "R10")
    state = q.state
    if q.answer == "after_tie":  # blocked: no card can win it now, but a tie frees it
        assert turn_until(state, pot_match_showing, limit=60) is None
        state = tie_freeing_the_pot(state)
        assert state is not None and not state.pot_blocked
    state = turn_until(state, pot_match_showing)
    assert state is not None, "a card of the pot's top rank was never turned"
    pot = len(state.pot)
    won = win_pot_now(state)
    assert won.cards >= pot >= len(q.state.pot)  # the whole pot, the old cards too


CHECKS = {
    "is_snap": check_is_snap,
    "snap_or_pot": check_snap_or_pot,
    "penalty": check_penalty,
    "who_wins": check_who_wins,
    "pot_win": check_pot_win,
}


@pytest.mark.parametrize("seed", SEEDS)
def test_every_answer_agrees_with_the_rules_and_the_engine(seed):
    for q in make_quiz(seed):
        assert q.answer in q.choices
        assert len(set(q.choices)) == len(q.choices) >= 2
        assert not q.state.over and q.state.race is None
        assert q.state.card_total() == 52  # a position of a real game: the whole deck
        CHECKS[q.kind](q)


def test_same_seed_same_quiz_and_seeds_differ():
    assert make_quiz(1234) == make_quiz(1234)
    assert make_quiz(1234) != make_quiz(1235)
    assert [q.kind for q in make_quiz(5, count=12)] == [q.kind for q in make_quiz(5, count=12)]


def test_every_kind_and_every_answer_appears_over_fifty_seeds():
    seen = Counter()
    for seed in range(50):
        for q in make_quiz(seed):
            seen[q.kind, q.answer if key_seat(q.answer) is None else "seat"] += 1
    expected = {
        ("is_snap", "yes"),
        ("is_snap", "no"),
        ("snap_or_pot", SNAP),
        ("snap_or_pot", SNAP_POT),
        ("snap_or_pot", "neither"),
        ("penalty", "seat"),
        ("who_wins", "seat"),
        ("who_wins", "tie"),
        ("pot_win", "yes"),
        ("pot_win", "after_tie"),
    }
    assert expected <= set(seen)
    assert {kind for kind, _ in seen} == set(KINDS)


def test_a_quiz_of_eight_asks_every_kind():
    for seed in range(50):
        assert {q.kind for q in make_quiz(seed)} == set(KINDS)


def test_some_own_turn_penalty_questions_skip_a_right_hand_neighbour_who_is_out():
    skipping = [
        q
        for seed in range(100)
        for q in make_quiz(seed)
        if q.kind == "penalty"
        and q.clause == "R14"
        and q.state.is_out((q.caller - 1) % q.state.players)
    ]
    assert skipping
    for q in skipping:
        assert key_seat(q.answer) == (q.caller - 2) % q.state.players


def test_penalty_questions_include_both_clauses_and_never_offer_the_caller():
    clauses = set()
    for seed in range(50):
        for q in make_quiz(seed):
            if q.kind == "penalty":
                clauses.add(q.clause)
                assert f"seat:{q.caller}" not in q.choices
    assert clauses == {"R13", "R14"}
