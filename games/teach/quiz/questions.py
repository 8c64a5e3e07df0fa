"""Quizzes made by the engine: questions about real positions, answered by the engine.

Pure: only the engine and the standard library. Every position is set up with
:func:`~games.engine.from_piles` from a seeded :class:`random.Random` and then
*played* on the engine (a card is turned, players call), so what the class
sees is a position of a real game. Every answer is what the engine does when
the question's calls are applied to that position (never written by hand),
and the clause that decides it is read off the engine's events.

Kinds of question (``Question.kind``):

- ``is_snap``: "Is this a Snap?" (``yes`` / ``no``): someone calls "Snap!";
- ``snap_or_pot``: "Snap or Snap Pot?" (``snap`` / ``snap_pot`` / ``neither``);
- ``penalty``: a named player calls at the wrong time: who gets the penalty card
  (``seat:N``; R13, R14);
- ``who_wins``: two calls arrive some milliseconds apart, inside or outside the
  tie window: who wins the piles (``seat:N``) or ``tie`` (R8-R11);
- ``pot_win``: "Can a card turned over now win the Snap Pot?" (``yes``: a card of its
  top rank is still in play, R10; ``after_tie``: the pot is blocked, so first a tie
  must give it a new top, and some rank still has the three cards outside it that this
  takes, R18 D), as :func:`games.engine.pot.pot_outlook` says. A pot that can never be
  won again is not asked about.

Every Snap Pot shown was laid by a tie (:func:`tied_pot`), so every position passes
:func:`games.engine.reachable.table_problems`.

The same seed always gives the same quiz.

>>> quiz = make_quiz(7)
>>> len(quiz), quiz == make_quiz(7)
(8, True)
>>> sorted({q.kind for q in quiz}) == sorted(KINDS)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine import (
    SNAP,
    SNAP_POT,
    CallSnap,
    CallSnapPot,
    Card,
    CloseRace,
    Event,
    GameState,
    PilesWon,
    RaceOpened,
    TieToPot,
    TurnCard,
    WrongCall,
    apply,
    from_piles,
    full_deck,
)
from games.engine.pot import AFTER_TIE, MATCH, pot_outlook

#: Answer keys of ``pot_win`` by the engine's outlook for the pot.
POT_ANSWERS = {MATCH: "yes", AFTER_TIE: AFTER_TIE}

KINDS: tuple[str, ...] = ("is_snap", "snap_or_pot", "penalty", "who_wins", "pot_win")
#: Delays (ms) between the first and the second call in "who wins": some inside the
#: default tie window of 150 ms, some outside (never exactly on its edge).
DELAYS_MS: tuple[int, ...] = (20, 40, 70, 100, 130, 180, 220, 300, 450)
#: Time of the card turned to make the position; calls come after it.
TURN_MS = 1000
MAX_SEED = 10**9


@dataclass(frozen=True)
class Question:
    """One question: the position shown (``state``, ``before`` = the position before
    the ``lead_in`` events that made it), the answer keys (``choices``), the correct
    key (``answer``), the deciding clause, and the engine's events that show the
    answer (``events``, from applying the question's calls to ``state``).

    ``caller``/``call_kind``: the named call (is_snap, snap_or_pot, penalty);
    ``calls``: ``(seat, ms after the first call)`` for who_wins; ``tie_window_ms``:
    the table's tie window (who_wins)."""

    kind: str
    state: GameState
    before: GameState
    lead_in: tuple[Event, ...]
    choices: tuple[str, ...]
    answer: str
    clause: str
    events: tuple[Event, ...]
    caller: int | None = None
    call_kind: str = SNAP
    calls: tuple[tuple[int, int], ...] = ()
    tie_window_ms: int = 150


def seat_key(seat: int) -> str:
    return f"seat:{seat}"


def key_seat(key: str) -> int | None:
    """The seat of a ``seat:N`` key, else None."""
    if key.startswith("seat:"):
        return int(key[5:])
    return None


# -- applying actions -------------------------------------------------------------------
def run(state: GameState, actions) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``actions`` in order; close an open race when its window has passed before
    the next action (and at the end). Returns the final state and all events."""
    events: list[Event] = []
    for action in actions:
        race = state.race
        if race is not None and action.at_ms > race.closes_at_ms:
            step = apply(state, CloseRace(at_ms=race.closes_at_ms))
            state, events = step.state, events + list(step.events)
        step = apply(state, action)
        state, events = step.state, events + list(step.events)
    if state.race is not None:
        step = apply(state, CloseRace(at_ms=state.race.closes_at_ms))
        state, events = step.state, events + list(step.events)
    return state, tuple(e for e in events if e.code != "rejected")


def call_action(kind: str, seat: int, at_ms: int):
    return CallSnap(seat=seat, at_ms=at_ms) if kind == SNAP else CallSnapPot(seat=seat, at_ms=at_ms)


def clause_of(state: GameState, events) -> str:
    """The clause that decides the outcome told by ``events`` (applied to ``state``)."""
    for e in events:
        if isinstance(e, PilesWon):
            return "R10" if e.with_pot else "R8"
        if isinstance(e, TieToPot):
            return "R11" if e.kind == SNAP_POT else "R9"
        if isinstance(e, WrongCall):
            return "R14" if e.seat == state.last_turned else "R13"
    return "R8"


def opened(events) -> bool:
    return any(isinstance(e, RaceOpened) for e in events)


# -- positions --------------------------------------------------------------------------
def position(
    rng: random.Random,
    players: int,
    turner: int,
    tops: dict[int, Card],
    next_card: Card,
    pot: list[Card] = (),
    keep_out_ranks: frozenset[int] = frozenset(),
    out: frozenset[int] = frozenset(),
) -> tuple[GameState, GameState, tuple[Event, ...]]:
    """A table of the whole deck where ``turner`` is about to turn ``next_card`` and the
    other face-up piles show ``tops``; then the card is turned on the engine. Hidden
    cards are random (never of a rank in ``keep_out_ranks`` under a face-up top).
    Seats in ``out`` have no cards at all (R16). Returns the position before the turn,
    after it, and the turn's events."""
    used = set(tops.values()) | {next_card} | set(pot)
    rest = [c for c in full_deck() if c not in used]
    rng.shuffle(rest)
    hidden_ok = [c for c in rest if c.rank not in keep_out_ranks]
    face_up = []
    for seat in range(players):
        under = []
        for _ in range(rng.randint(0, 3) if seat in tops else 0):
            card = next(c for c in hidden_ok if c in rest)
            rest.remove(card)
            under.append(card)
        face_up.append(under + ([tops[seat]] if seat in tops else []))
    # Every other card of the deck is face down somewhere, as in a real game: each
    # player who is not out gets at least one, the rest at random.
    playing = [s for s in range(players) if s not in out]
    face_down = [[] if seat in out else [rest.pop()] for seat in range(players)]
    while rest:
        face_down[rng.choice(playing)].append(rest.pop())
    face_down[turner].append(next_card)
    before = from_piles(face_down, face_up, pot=list(pot), to_play=turner)
    step = apply(before, TurnCard(seat=turner, at_ms=TURN_MS))
    return before, step.state, step.events


def card_of_rank(rng: random.Random, rank: int, used) -> Card:
    return rng.choice([c for c in full_deck() if c.rank == rank and c not in used])


def distinct_tops(rng: random.Random, players: int, turner: int, avoid=()) -> dict[int, Card]:
    """A face-up top for every seat but ``turner`` (whose own top gets covered), all of
    different ranks, none of a rank in ``avoid``: nothing to call before the turn."""
    ranks = rng.sample([r for r in range(1, 14) if r not in avoid], players)
    tops = {s: card_of_rank(rng, ranks[s], ()) for s in range(players) if s != turner}
    if rng.random() < 0.5:  # the turner's own old top, soon covered
        tops[turner] = card_of_rank(rng, ranks[turner], ())
    return tops


def tied_pot(rng: random.Random, rank: int, used, avoid=()) -> list[Card]:
    """A Snap Pot as a tie leaves it (R9): two face-up piles whose tops are two cards of
    ``rank``, laid one on the other, each with 0 to 2 cards under its top (none of a
    rank in ``avoid``, none in ``used``). Listed bottom to top."""
    pair = rng.sample([c for c in full_deck() if c.rank == rank and c not in used], 2)
    fillers = [c for c in full_deck() if c.rank != rank and c.rank not in avoid and c not in used]
    under = rng.sample(fillers, 4)
    first, second = rng.randint(0, 2), rng.randint(0, 2)
    return under[:first] + [pair[0]] + under[2 : 2 + second] + [pair[1]]


def other_card(rng: random.Random, tops: dict[int, Card], turner: int, avoid=()) -> Card:
    """A card matching nothing showing; half the time of a suit that is showing (suits do
    not matter, R2)."""
    shown = {c.rank for s, c in tops.items() if s != turner} | set(avoid)
    cards = [c for c in full_deck() if c.rank not in shown and c not in tops.values()]
    suits = {c.suit for c in tops.values()}
    if rng.random() < 0.5:
        same_suit = [c for c in cards if c.suit in suits]
        cards = same_suit or cards
    return rng.choice(cards)


# -- the five kinds ---------------------------------------------------------------------
def q_is_snap(rng: random.Random) -> Question:
    n = rng.randint(2, 4)
    turner = rng.randrange(n)
    tops = distinct_tops(rng, n, turner)
    if rng.random() < 0.5:
        target = rng.choice([s for s in tops if s != turner])
        card = card_of_rank(rng, tops[target].rank, set(tops.values()))
    else:
        card = other_card(rng, tops, turner)
    before, state, lead = position(rng, n, turner, tops, card)
    caller = rng.randrange(n)
    _, events = run(state, [CallSnap(seat=caller, at_ms=TURN_MS + 400)])
    return Question(
        "is_snap",
        state,
        before,
        lead,
        ("yes", "no"),
        "yes" if opened(events) else "no",
        "R8" if opened(events) else clause_of(state, events),
        events,
        caller=caller,
    )


def q_snap_or_pot(rng: random.Random) -> Question:
    n = rng.randint(2, 4)
    turner = rng.randrange(n)
    pot_rank = rng.randint(1, 13)
    tops = distinct_tops(rng, n, turner, avoid=(pot_rank,))
    pot = tied_pot(rng, pot_rank, set(tops.values()), avoid={c.rank for c in tops.values()})
    pot_top = pot[-1]
    used = set(tops.values()) | set(pot)
    which = rng.choice((SNAP, SNAP_POT, "neither"))
    if which == SNAP:
        target = rng.choice([s for s in tops if s != turner])
        card = card_of_rank(rng, tops[target].rank, used)
    elif which == SNAP_POT:
        card = card_of_rank(rng, pot_rank, used)
    else:
        card = other_card(rng, {**tops, -1: pot_top}, turner, avoid=(pot_rank,))
        while card in used:
            card = other_card(rng, {**tops, -1: pot_top}, turner, avoid=(pot_rank,))
    before, state, lead = position(rng, n, turner, tops, card, pot)
    caller = rng.randrange(n)
    at = TURN_MS + 400
    tried = {kind: run(state, [call_action(kind, caller, at)])[1] for kind in (SNAP, SNAP_POT)}
    valid = [kind for kind in (SNAP, SNAP_POT) if opened(tried[kind])]
    if len(valid) == 2:  # both words valid (R11 D): not a fair question; another one
        return q_snap_or_pot(rng)
    answer = valid[0] if valid else "neither"
    events = tried[valid[0]] if valid else tried[SNAP]
    return Question(
        "snap_or_pot",
        state,
        before,
        lead,
        (SNAP, SNAP_POT, "neither"),
        answer,
        clause_of(state, events),
        events,
        caller=caller,
    )


def q_penalty(rng: random.Random) -> Question:
    n = rng.randint(3, 4)
    turner = rng.randrange(n)
    # At four players, half the time the turner's right-hand neighbour is out: a
    # penalty on the turner's own turn skips that player (R14 D).
    out = frozenset({(turner - 1) % n}) if n == 4 and rng.random() < 0.5 else frozenset()
    tops = {s: c for s, c in distinct_tops(rng, n, turner).items() if s not in out}
    card = other_card(rng, tops, turner)
    before, state, lead = position(rng, n, turner, tops, card, out=out)
    playing = [s for s in range(n) if s not in out]
    caller = state.last_turned if rng.random() < 0.4 else rng.choice(playing)
    kind = rng.choice((SNAP, SNAP_POT))
    _, events = run(state, [call_action(kind, caller, TURN_MS + 400)])
    wrong = next(e for e in events if isinstance(e, WrongCall))
    return Question(
        "penalty",
        state,
        before,
        lead,
        tuple(seat_key(s) for s in range(n) if s != caller),
        seat_key(wrong.penalty_to),
        clause_of(state, events),
        events,
        caller=caller,
        call_kind=kind,
    )


def q_who_wins(rng: random.Random) -> Question:
    n = rng.randint(2, 4)
    turner = rng.randrange(n)
    kind = SNAP if rng.random() < 0.7 else SNAP_POT
    pot: list[Card] = []
    if kind == SNAP:
        tops = distinct_tops(rng, n, turner)
        target = rng.choice([s for s in tops if s != turner])
        card = card_of_rank(rng, tops[target].rank, set(tops.values()))
    else:
        pot_rank = rng.randint(1, 13)
        tops = distinct_tops(rng, n, turner, avoid=(pot_rank,))
        pot = tied_pot(rng, pot_rank, set(tops.values()), avoid={c.rank for c in tops.values()})
        card = card_of_rank(rng, pot_rank, set(pot))
    before, state, lead = position(rng, n, turner, tops, card, pot)
    first, second = rng.sample(range(n), 2)
    delay = rng.choice(DELAYS_MS)
    start = TURN_MS + rng.randrange(200, 900, 10)
    calls = ((first, 0), (second, delay))
    actions = [call_action(kind, seat, start + ms) for seat, ms in calls]
    _, events = run(state, actions)
    tie = any(isinstance(e, TieToPot) for e in events)
    won = next((e for e in events if isinstance(e, PilesWon)), None)
    answer = "tie" if tie else seat_key(won.winner)
    return Question(
        "who_wins",
        state,
        before,
        lead,
        (seat_key(first), seat_key(second), "tie"),
        answer,
        clause_of(state, events),
        events,
        call_kind=kind,
        calls=calls,
        tie_window_ms=state.options.effective_tie_window_ms,
    )


def q_pot_win(rng: random.Random) -> Question:
    n = rng.randint(3, 4)
    turner = rng.randrange(n)
    rank = rng.randint(1, 13)
    tops = distinct_tops(rng, n, turner, avoid=(rank,))
    target = rng.choice([s for s in tops if s != turner])
    of_rank = [c for c in full_deck() if c.rank == rank]
    rng.shuffle(of_rank)
    in_pot = of_rank[: rng.choice((0, 1, 2, 2))]
    tops[target] = of_rank[2]
    card = of_rank[3]
    shown = {c.rank for c in tops.values()} | {rank}
    # The pot before: an earlier tie on a rank nothing shows, over the cards of ``rank``
    # that went in before (R9 D: every tie adds to the one pot).
    earlier = rng.choice([r for r in range(1, 14) if r not in shown])
    fillers = [c for c in full_deck() if c.rank not in shown and c.rank != earlier]
    below = rng.sample(fillers, rng.randint(0, 2)) + in_pot
    rng.shuffle(below)
    pot = below + tied_pot(rng, earlier, set(below), avoid=shown)
    before, turned, turn_events = position(rng, n, turner, tops, card, pot, frozenset({rank}))
    a, b = rng.sample(range(n), 2)
    state, events = run(turned, [CallSnap(seat=a, at_ms=1300), CallSnap(seat=b, at_ms=1340)])
    outlook = pot_outlook(state)
    if outlook not in POT_ANSWERS:  # no tie can happen any more: not this question
        return q_pot_win(rng)
    answer = POT_ANSWERS[outlook]
    return Question(
        "pot_win",
        state,
        before,
        turn_events + events,
        ("yes", AFTER_TIE),
        answer,
        "R10" if answer == "yes" else "R18",
        events,
    )


MAKERS = {
    "is_snap": q_is_snap,
    "snap_or_pot": q_snap_or_pot,
    "penalty": q_penalty,
    "who_wins": q_who_wins,
    "pot_win": q_pot_win,
}


def make_quiz(seed: int, count: int = 8) -> list[Question]:
    """``count`` questions for ``seed``: every kind once (when ``count`` allows), the
    rest at random, in a shuffled order. Same seed, same quiz."""
    rng = random.Random(seed)
    kinds = list(KINDS)[:count] + [rng.choice(KINDS) for _ in range(count - len(KINDS))]
    rng.shuffle(kinds)
    return [MAKERS[kind](rng) for kind in kinds]
