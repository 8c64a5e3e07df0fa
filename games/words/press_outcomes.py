"""What a learner's press did, read from the engine's own events.

A walkthrough answers every press that is not the example's next move with the
engine's result (:func:`games.scenarios.runner.play_branch`). This module sorts that
result into one of four outcomes and picks the sentences that tell it, each with the
seats, card and count it needs:

- ``right``: a valid call (it won piles or the pot, or tied), or turning a card on
  your turn;
- ``mistake``: a wrong call (R13, R14): who paid and who received is read from the
  ``WrongCall`` event, never worked out here;
- ``too_late``: a call on a race already over (R9 D): no penalty;
- ``refused``: the engine changed nothing (``Rejected``), with its reason.

It decides nothing the events and states do not show, and it has no words: the
sentences are keys that :mod:`games.frames.narration` puts into the reader's language. Pure:
standard library and engine only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import SNAP, SNAP_POT, Card, GameState
from games.engine import events as ev

RIGHT = "right"
MISTAKE = "mistake"
TOO_LATE = "too_late"
REFUSED = "refused"
OUTCOMES = (RIGHT, MISTAKE, TOO_LATE, REFUSED)

#: The sentence that invites the learner to try again: only ever said after a mistake.
TRY_AGAIN = "try_again"

#: The rule that explains why a move changed nothing.
REFUSAL_CLAUSES = {
    "not_your_turn": ("R6",),
    "race_open": ("R8",),
    "player_out": ("R16",),
    "no_cards": ("R23",),
    "already_called": ("R9",),
}


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a note: a key naming its words, and what fills them in.

    ``player`` is the seat the sentence speaks to or about, ``receiver`` the seat that
    got a penalty card, ``card`` the card turned, ``count`` the number the sentence
    counts (cards won, or matching piles)."""

    key: str
    player: int | None = None
    receiver: int | None = None
    card: Card | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class PressOutcome:
    """The verdict on one press: ``outcome`` (one of :data:`OUTCOMES`), the rules it
    shows (``clauses``), the ``sentences`` that tell it, and for a mistake the rule
    that sent the penalty card where it went (``penalty_clause``: R13 or R14)."""

    outcome: str
    clauses: tuple[str, ...]
    sentences: tuple[Sentence, ...]
    penalty_clause: str | None = None

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.sentences)


def classify(
    before: GameState,
    seat: int,
    events: Sequence[ev.Event],
    after: GameState,
    *,
    following: Sequence[ev.Event] | None = None,
    example_ends: bool = False,
) -> PressOutcome:
    """Sort what ``seat``'s press did in ``before`` (``events``, leading to ``after``).

    In a walkthrough, ``following`` is what the example does next (its next step's
    events) and ``example_ends`` says the example has no next step: a right move or a
    late call then also says how it relates to the example.
    """
    for event in events:
        if isinstance(event, ev.Rejected):
            return _refused(before, event)
    for event in events:
        if isinstance(event, ev.WrongCall) and event.seat == seat:
            return _mistake(before, event)
    example = _example_sentence(events, following, example_ends)
    for event in events:
        if isinstance(event, ev.TooLate) and event.seat == seat:
            return PressOutcome(TOO_LATE, ("R9",), (Sentence("too_late", player=seat), *example))
        if isinstance(event, (ev.RaceOpened, ev.CallJoined)) and event.seat == seat:
            # a call that opened the race, or joined one still open (a lesson from a
            # recorded game can press while another player's call is being timed)
            return _right_call(seat, event, events, example)
        if isinstance(event, ev.CardTurned) and event.seat == seat:
            return _right_turn(before, seat, event, events, after, example)
    for event in events:
        if isinstance(event, ev.GameOver) and event.reason == "turn_limit":
            # the player to play turned after the N-th card, whose match nobody called:
            # the game ends instead (R19 D; met in lessons from recorded games)
            said = Sentence("right.turn_limit", player=seat)
            return PressOutcome(RIGHT, ("R19",), (said, *example))
    raise ValueError(f"cannot tell what seat {seat}'s press did: {list(events)}")


def _refused(before: GameState, rejected: ev.Rejected) -> PressOutcome:
    sentences = [Sentence(f"refused.{rejected.reason}")]
    if rejected.reason == "not_your_turn":
        sentences.append(Sentence("turn_of", player=before.to_play))
    return PressOutcome(REFUSED, REFUSAL_CLAUSES.get(rejected.reason, ()), tuple(sentences))


def _mistake(before: GameState, wrong: ev.WrongCall) -> PressOutcome:
    seat = wrong.seat
    valid = before.valid_now
    other = SNAP_POT if wrong.kind == SNAP else SNAP
    wrong_word = not valid.piles(wrong.kind) and bool(valid.piles(other))
    if wrong_word and wrong.kind == SNAP:
        why = Sentence("mistake.say_snap_pot", player=seat)
    elif wrong_word:
        key = "mistake.say_snap_pot_exists" if before.pot else "mistake.say_snap_no_pot"
        why = Sentence(key, player=seat, count=len(valid.snap))
    elif before.last_turned is None:
        why = Sentence("mistake.nobody_turned", player=seat)
    else:
        why = Sentence("mistake.no_match", player=seat)

    receiver = wrong.penalty_to
    last = before.last_turned
    on_the_right = before.right_with_cards(seat)  # players who are out are skipped (R14 D)
    rule = penalty_clause(before, wrong)
    if not wrong.paid or receiver is None:
        penalty = Sentence("penalty.none", player=seat)
    elif receiver == last and receiver != seat:
        penalty = Sentence("penalty.to_last_player", player=seat, receiver=receiver)
    elif receiver == on_the_right and last == seat:
        beside = receiver == (seat - 1) % before.players
        key = "penalty.own_turn" if beside else "penalty.own_turn_skipping"
        penalty = Sentence(key, player=seat, receiver=receiver)
    elif receiver == on_the_right:
        penalty = Sentence("penalty.to_right", player=seat, receiver=receiver)
    else:  # not a place the rules send a card: say only what happened
        penalty = Sentence("penalty.to", player=seat, receiver=receiver)
    # The wrong word is its own mistake (R14 D); where the card went is R13 or R14.
    clauses = ("R14", rule) if wrong_word and rule != "R14" else ("R14",) if wrong_word else (rule,)
    return PressOutcome(MISTAKE, clauses, (why, penalty, Sentence(TRY_AGAIN)), rule)


def penalty_clause(before: GameState, wrong: ev.WrongCall) -> str:
    """The rule that sent ``wrong``'s penalty card where it went: R13 (to the player who
    has just played) or R14 (to the nearest player on the caller's right who still has
    cards: own turn, or nobody has played)."""
    seat, receiver, last = wrong.seat, wrong.penalty_to, before.last_turned
    if not wrong.paid or receiver is None:
        return "R13" if last is not None and last != seat else "R14"
    if receiver == last and receiver != seat:
        return "R13"
    if receiver == before.right_with_cards(seat):
        return "R14"
    return "R13"


def _right_call(
    seat: int,
    opened: ev.RaceOpened | ev.CallJoined,
    events: Sequence[ev.Event],
    example: tuple[Sentence, ...],
) -> PressOutcome:
    pot_word = opened.kind == SNAP_POT
    for event in events:
        if isinstance(event, ev.PilesWon):
            if event.winner != seat:
                raise ValueError(f"seat {seat} opened the race but {event.winner} won it")
            key = "right.won_pot" if event.with_pot else "right.won_piles"
            said = Sentence(key, player=seat, count=event.cards)
            return PressOutcome(RIGHT, ("R10",) if event.with_pot else ("R8",), (said, *example))
        if isinstance(event, ev.TieToPot):
            said = Sentence("right.tie", player=seat)
            return PressOutcome(RIGHT, ("R11",) if pot_word else ("R9",), (said, *example))
        if isinstance(event, ev.RaceCancelled):
            said = Sentence("right.cancelled", player=seat)
            return PressOutcome(RIGHT, ("R8",), (said, *example))
    said = Sentence("right.called", player=seat)
    return PressOutcome(RIGHT, ("R9",), (said, *example))


def _right_turn(
    before: GameState,
    seat: int,
    turned: ev.CardTurned,
    events: Sequence[ev.Event],
    after: GameState,
    example: tuple[Sentence, ...],
) -> PressOutcome:
    pile_over = any(isinstance(e, ev.PileTurnedOver) and e.seat == seat for e in events)
    key = "right.turned_pile_over" if pile_over else "right.turned"
    sentences = [Sentence(key, player=seat, card=turned.card)]
    clauses = ["R15"] if pile_over else ["R7"]
    sentences.extend(_matches_after_turn(before, seat, turned.card, after))
    if len(sentences) > 1:
        clauses.append("R8")
    return PressOutcome(RIGHT, tuple(clauses), (*sentences, *example))


def _matches_after_turn(
    before: GameState, seat: int, card: Card, after: GameState
) -> list[Sentence]:
    """What the turned card did to the matches on the table (R8 D): it covered one of
    the player's matching piles, made a new match, or left another match showing."""
    said = []
    was, now = before.valid_now, after.valid_now
    old_top = before.top_face_up(seat)
    in_old = seat in was.snap or seat in was.snap_pot
    if in_old and (old_top is None or old_top.rank != card.rank):
        said.append(Sentence("match.covered", player=seat))
    if seat in now.snap or seat in now.snap_pot:
        said.append(Sentence("match.yours", player=seat))
    elif now:
        said.append(Sentence("match.still_showing"))
    elif was and not in_old:  # only a fresh match was callable (missed matches off)
        said.append(Sentence("match.gone"))
    return said


def _example_sentence(
    events: Sequence[ev.Event], following: Sequence[ev.Event] | None, example_ends: bool
) -> tuple[Sentence, ...]:
    if following is not None:
        same = tuple(following) == tuple(events)
        return (Sentence("example.same" if same else "example.differs"),)
    if example_ends:
        return (Sentence("example.ends"),)
    return ()
