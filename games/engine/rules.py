"""The rules: ``apply(state, action) -> Step``.

``apply`` never raises for an action: anything illegal or nonsensical is answered with
a single :class:`~games.engine.events.Rejected` event and the very same state object.

Races (R8-R12): the first valid call opens a race (``RaceOpened``) that closes at
``at_ms + effective tie window``. Valid calls of the same kind arriving at or before
``closes_at_ms`` join it (``CallJoined``). ``CloseRace(at_ms >= closes_at_ms)`` resolves
it: one caller wins the piles (``PilesWon``), several tie (``TieToPot``). An action whose
``at_ms`` is after ``closes_at_ms`` first resolves the race (as if ``CloseRace(at_ms)``
came first) and is then judged; if it is then rejected, nothing at all changes. With a
tie window of 0 (or the index card, R12) a race opens and is resolved in the same step,
so no ``CloseRace`` is needed.

Too late, not wrong (R9 D): a call that is not valid now is ``TooLate`` (no penalty) when
its player was looking at a valid match of the called kind (any word with
``either_word_counts``) at the event it says it had ``seen``, however long ago. A call
without ``seen`` is judged as seen just before the last race was closed (by
``CloseRace``, by the engine, or at once with a tie window of 0) while no card has been
turned since; otherwise it is judged as sent when it arrives: a wrong call (R13, R14).

Turn limit (R19 D): once ``turn_limit`` cards have been turned, a step that leaves no
race open and nothing to call ends the game (``GameOver(reason="turn_limit")``); a
``TurnCard`` for the next card ends it instead of turning.

>>> from games.engine import from_piles, CallSnap, CloseRace
>>> s = from_piles([["2S", "3S"], ["4S", "3H"]], [["9C"], ["9D"]])  # seat 1 turned last
>>> step = apply(s, CallSnap(seat=1, at_ms=100))
>>> [e.code for e in step.events], step.state.race.closes_at_ms
(['race_opened'], 250)
>>> step = apply(step.state, CloseRace(at_ms=250))
>>> step.events[0]
PilesWon(winner=1, piles=(1, 0), cards=2, with_pot=False, pot_cards=0)
>>> [c.code for c in step.state.face_down[1]]  # won piles go under (R22)
['9C', '9D', '4S', '3H']
"""

from __future__ import annotations

from dataclasses import dataclass

from . import events as ev
from .actions import SNAP, SNAP_POT, CallSnap, CallSnapPot, CloseRace, TurnCard
from .state import GameState, Race, ValidCalls, build_state, compute_valid, evolve

__all__ = ["Step", "apply"]


@dataclass(frozen=True, slots=True)
class Step:
    """The result of one action: the new ``state`` and the ``events`` it caused."""

    state: GameState
    events: tuple[ev.Event, ...]

    @property
    def rejected(self) -> bool:
        """True when the action was rejected (the state is the old one)."""
        return len(self.events) == 1 and type(self.events[0]) is ev.Rejected


_evolve = evolve


def _reject(state: GameState, seat: int | None, reason: str) -> Step:
    return Step(state, (ev.Rejected(seat, reason),))


def _is_int(x: object) -> bool:
    return type(x) is int


def apply(state: GameState, action: object) -> Step:
    """Apply ``action`` to ``state``; return the new state and the events it caused.

    The old state is untouched. See the module docstring for races.

    >>> from games.engine import deal, full_deck, TurnCard
    >>> s = deal(2, full_deck(), dealer=1)
    >>> step = apply(s, TurnCard(seat=0, at_ms=0))
    >>> step.events
    (CardTurned(seat=0, card=Card(rank=12, suit='C')),)
    >>> step.state.to_play, step.state.seq, s.seq
    (1, 1, 0)
    >>> apply(step.state, TurnCard(seat=0, at_ms=10)).events
    (Rejected(seat=0, reason='not_your_turn'),)
    """
    t = type(action)
    if t is TurnCard:
        seat = action.seat
        at = action.at_ms
        if not _is_int(seat) or not _is_int(at):
            return _reject(state, seat if _is_int(seat) else None, "bad_action")
        if not 0 <= seat < state.players:
            return _reject(state, seat, "no_such_seat")
        if state.over:
            return _reject(state, seat, "game_over")
        if at < state.clock_ms:
            return _reject(state, seat, "bad_time")
        if not state.face_down[seat] and not state.face_up[seat]:
            return _reject(state, seat, "player_out")
        race = state.race
        if race is None:
            return _turn(state, seat, at, state, ())
        if at <= race.closes_at_ms:
            return _reject(state, seat, "race_open")
        closed = _close(state, at)
        if closed.state.over:
            return _reject(state, seat, "game_over")
        if not closed.state.face_down[seat] and not closed.state.face_up[seat]:
            return _reject(state, seat, "player_out")
        return _turn(closed.state, seat, at, state, closed.events)
    if t is CallSnap or t is CallSnapPot:
        seat = action.seat
        at = action.at_ms
        seen = action.seen
        if not _is_int(seat) or not _is_int(at) or not (seen is None or _is_int(seen)):
            return _reject(state, seat if _is_int(seat) else None, "bad_action")
        if not 0 <= seat < state.players:
            return _reject(state, seat, "no_such_seat")
        if seen is not None and not 0 <= seen <= state.seq:
            return _reject(state, seat, "bad_action")
        if state.over:
            return _reject(state, seat, "game_over")
        if at < state.clock_ms:
            return _reject(state, seat, "bad_time")
        if not state.face_down[seat] and not state.face_up[seat]:
            return _reject(state, seat, "no_cards")
        race = state.race
        if race is None or at <= race.closes_at_ms:
            return _call(state, seat, at, seen, t.kind, state, ())
        closed = _close(state, at)
        s2 = closed.state
        if s2.over:
            return _reject(state, seat, "game_over")
        if not s2.face_down[seat] and not s2.face_up[seat]:
            return _reject(state, seat, "no_cards")
        return _call(s2, seat, at, seen, t.kind, state, closed.events)
    if t is CloseRace:
        at = action.at_ms
        if not _is_int(at):
            return _reject(state, None, "bad_action")
        if state.over:
            return _reject(state, None, "game_over")
        if at < state.clock_ms:
            return _reject(state, None, "bad_time")
        if state.race is None:
            return _reject(state, None, "no_race")
        if at < state.race.closes_at_ms:
            return _reject(state, None, "too_early")
        return _close(state, at)
    return _reject(state, None, "bad_action")


# -- turning a card (R7, R15, R21) ------------------------------------------------------
def _turn(s: GameState, seat: int, at: int, base: GameState, pre: tuple) -> Step:
    if s.to_play != seat:
        return _reject(base, seat, "not_your_turn")
    limit = s.options.turn_limit
    if limit is not None and s.turns >= limit:
        return _turn_limit(s, at, base, pre)
    fd = s.face_down[seat]
    fu = s.face_up[seat]
    events: tuple
    if fd:
        card = fd[-1]
        fd = fd[:-1]
        fu = fu + (card,)
        events = pre + (ev.CardTurned(seat, card),)
    else:
        # R15/R21: the face-up pile is turned over as a whole; its bottom card becomes
        # the top of the new face-down pile, which is then turned.
        flipped = fu[::-1]
        card = flipped[-1]
        fd = flipped[:-1]
        fu = (card,)
        events = pre + (ev.PileTurnedOver(seat, len(flipped)), ev.CardTurned(seat, card))
    face_down = s.face_down[:seat] + (fd,) + s.face_down[seat + 1 :]
    face_up = s.face_up[:seat] + (fu,) + s.face_up[seat + 1 :]
    n = s.players
    nxt = (seat + 1) % n
    if not face_down[nxt] and not face_up[nxt]:
        for i in range(2, n + 1):
            nxt = (seat + i) % n
            if face_down[nxt] or face_up[nxt]:
                break
    opts = s.options
    valid = compute_valid(face_up, s.pot, seat, nxt, opts.missed_match_callable)
    seq = base.seq + len(events)
    windows = _track(s.windows, s.valid_now, valid, s.seq, seq)
    if windows[4] is not None:  # a card is turned: no longer "just after a race" (R9)
        windows = windows[:4] + (None,)
    new = build_state(
        s.players,
        opts,
        s.dealer,
        s.deck,
        face_down,
        face_up,
        s.pot,
        nxt,
        seat,
        None,
        seq,
        s.turns + 1,
        at,
        None,
        (),
        False,
        False,
        None,
        valid,
        windows,
    )
    if limit is not None and new.turns >= limit and not valid:
        return _end_at_limit(new, events)  # R19 (D): the N-th card leaves nothing to call
    return Step(new, events)


def _turn_limit(s: GameState, at: int, base: GameState, pre: tuple) -> Step:
    """R19 (D) at the latest: a card would be turned after the N-th."""
    return _end_at_limit(_evolve(s, {"race": None, "clock_ms": at}), pre)


def _limit_reached(step: Step) -> Step:
    """R19 (D): once N cards have been turned, the game ends as soon as nothing more can
    come of the N-th card: when no race is open and nothing is left to call."""
    s = step.state
    limit = s.options.turn_limit
    if limit is None or s.turns < limit or s.over or s.race is not None or s.valid_now:
        return step
    return _end_at_limit(s, step.events)


def _end_at_limit(s: GameState, events: tuple) -> Step:
    """End ``s`` at the turn limit: the most cards win; only those tied for the most
    share the win (R19 D)."""
    totals = [len(s.face_down[i]) + len(s.face_up[i]) for i in range(s.players)]
    best = max(totals)
    winners = tuple(i for i in range(s.players) if totals[i] == best)
    winner = winners[0] if len(winners) == 1 else None
    events = events + (ev.GameOver(winner, winner is None, "turn_limit", winners),)
    new = _evolve(
        s,
        {
            "seq": s.seq + 1,
            "winner": winner,
            "winners": winners,
            "over": True,
            "draw": winner is None,
            "end_reason": "turn_limit",
        },
    )
    return Step(new, events)


# -- "too late" bookkeeping (R9) --------------------------------------------------------
def _track(windows: tuple, old: ValidCalls, new: ValidCalls, old_seq: int, new_seq: int):
    """Update the record of when each kind of call was valid (see ``state.NO_WINDOWS``).

    A call kind that becomes valid after a step ending at event ``new_seq`` is visible to
    a player who has seen that event; one that stops being valid in a step starting after
    ``old_seq`` was last visible at ``old_seq``.
    """
    snap_since, pot_since, snap_seen, pot_seen, closed_at = windows
    changed = False
    if bool(old.snap) != bool(new.snap):
        changed = True
        if new.snap:
            snap_since = new_seq
        else:
            snap_seen |= _span(snap_since, old_seq)
            snap_since = None
    if bool(old.snap_pot) != bool(new.snap_pot):
        changed = True
        if new.snap_pot:
            pot_since = new_seq
        else:
            pot_seen |= _span(pot_since, old_seq)
            pot_since = None
    if not changed:
        return windows
    return (snap_since, pot_since, snap_seen, pot_seen, closed_at)


def _span(first: int | None, last: int) -> int:
    """The bits ``first`` .. ``last`` (inclusive) set; none when ``first`` is None."""
    if first is None or first > last:
        return 0
    return ((1 << (last - first + 1)) - 1) << first


def _saw_match(windows: tuple, kinds: tuple[str, ...], seen: int) -> bool:
    """Was a valid call of one of ``kinds`` showing to a player who had seen ``seen``?"""
    snap_since, pot_since, snap_seen, pot_seen, _ = windows
    for kind in kinds:
        since, bits = (snap_since, snap_seen) if kind == SNAP else (pot_since, pot_seen)
        if (bits >> seen) & 1 or (since is not None and seen >= since):
            return True
    return False


# -- calls (R8-R14) ---------------------------------------------------------------------
def _call(
    s: GameState, seat: int, at: int, seen: int | None, kind: str, base: GameState, pre: tuple
) -> Step:
    valid = s.valid_now
    opts = s.options
    race = s.race
    other = SNAP_POT if kind == SNAP else SNAP
    if race is not None:
        if seat in race.callers:
            return _reject(base, seat, "already_called")
        rk = race.kind
        if (kind == rk or opts.either_word_counts) and valid.piles(rk):
            callers = race.callers + (seat,)
            new_race = Race(rk, race.first_ms, race.closes_at_ms, callers, race.times + (at,))
            events = pre + (ev.CallJoined(rk, seat, at),)
            new = _evolve(s, {"race": new_race, "seq": base.seq + len(events), "clock_ms": at})
            return Step(new, events)
        if valid.piles(kind):
            # A valid call of the other word, but the first valid call is being resolved
            # (R11 D): it lost the race, no penalty.
            events = pre + (ev.TooLate(seat, kind),)
            new = _evolve(s, {"seq": base.seq + len(events), "clock_ms": at})
            return Step(new, events)
    else:
        eff = None
        if valid.piles(kind):
            eff = kind
        elif opts.either_word_counts and valid.piles(other):
            eff = other
        if eff is not None:
            window = opts.effective_tie_window_ms
            closes = at + window
            new_race = Race(eff, at, closes, (seat,), (at,))
            events = pre + (ev.RaceOpened(eff, seat, at, closes),)
            new = _evolve(s, {"race": new_race, "seq": base.seq + len(events), "clock_ms": at})
            if window == 0:
                done = _close(new, at)
                return Step(done.state, events + done.events)
            return Step(new, events)
    kinds = (SNAP, SNAP_POT) if opts.either_word_counts else (kind,)
    if seen is None:
        # R9 (D): without a number, a call is taken as sent just before the last race
        # was closed while no card has been turned since; otherwise as sent now.
        seen = s.windows[4]
    if seen is not None and _saw_match(s.windows, kinds, seen):
        events = pre + (ev.TooLate(seat, kind),)
        new = _evolve(s, {"seq": base.seq + len(events), "clock_ms": at})
        return Step(new, events)
    return _wrong_call(s, seat, at, kind, base, pre)


def _wrong_call(s: GameState, seat: int, at: int, kind: str, base: GameState, pre: tuple) -> Step:
    last = s.last_turned
    # R13: to the player who has just played; R14: on his own turn (or, in a game just
    # dealt, before anyone has turned a card, D), to the nearest player on his right who
    # still has cards (R14 D). A position set up mid-game always knows who turned last
    # (R20 D).
    to = last if last is not None and last != seat else s.right_with_cards(seat)
    fd = s.face_down[seat]
    fu = s.face_up[seat]
    face_down = s.face_down
    face_up = s.face_up
    paid = True
    if fd:
        card = fd[-1]
        fd = fd[:-1]
    elif fu and s.options.penalty_from_face_up_when_empty:
        card = fu[0]  # the card he would turn next after turning the pile over (R14 D)
        fu = fu[1:]
        face_up = face_up[:seat] + (fu,) + face_up[seat + 1 :]
    else:
        paid = False
    events = pre + (ev.WrongCall(seat, kind, to, paid),)
    if not paid:
        new = _evolve(s, {"seq": base.seq + len(events), "clock_ms": at})
        return Step(new, events)
    fds = list(face_down)
    fds[seat] = fd
    fds[to] = (card,) + fds[to]  # under the receiver's face-down pile (R14 D, R22)
    # R19 (D): a penalty may take the last card of a pile that matched the N-th card.
    return _limit_reached(_settle(s, base, tuple(fds), face_up, s.pot, s.race, at, events))


# -- resolving a race -------------------------------------------------------------------
def _close(s: GameState, at: int) -> Step:
    """Resolve the open race of ``s`` at time ``at``."""
    race = s.race
    assert race is not None
    kind = race.kind
    piles = s.valid_now.piles(kind)
    closed_at = s.windows[:4] + (s.seq,)  # a call without a number is taken as sent now
    if not piles:
        events: tuple = (ev.RaceCancelled(kind),)
        changes = {"race": None, "seq": s.seq + 1, "clock_ms": at, "windows": closed_at}
        return _limit_reached(Step(_evolve(s, changes), events))
    face_up = list(s.face_up)
    won = [face_up[p] for p in piles]
    for p in piles:
        face_up[p] = ()
    pot = s.pot
    face_down = s.face_down
    if len(race.callers) == 1:
        winner = race.callers[0]
        with_pot = kind == SNAP_POT
        pot_cards = len(pot) if with_pot else 0
        under: tuple = ()
        if with_pot:
            under = pot[::-1]
            pot = ()
        # R22: the pot first, then the piles in order, each slid under the previous ones.
        for pile in won:
            under = pile[::-1] + under
        cards = len(under)
        face_down = face_down[:winner] + (under + face_down[winner],) + face_down[winner + 1 :]
        settled: ev.Event = ev.PilesWon(winner, piles, cards, with_pot, pot_cards)
    else:
        for pile in won:
            pot = pot + pile
        settled = ev.TieToPot(kind, race.callers, piles, pot[-1], len(pot))
    closing = _evolve(s, {"windows": closed_at})
    step = _settle(closing, closing, face_down, tuple(face_up), pot, None, at, (settled,))
    return _limit_reached(step)  # R19 (D): after the race of the N-th card


def _settle(
    s: GameState,
    base: GameState,
    face_down: tuple,
    face_up: tuple,
    pot: tuple,
    race: Race | None,
    at: int,
    events: tuple,
) -> Step:
    """Finish a step in which cards moved between players: who is out or back (R16,
    R23), whose turn it is, whether the game is over (R17, R18, R23)."""
    n = s.players
    extra: list[ev.Event] = []
    having = []
    for i in range(n):
        had = bool(s.face_down[i] or s.face_up[i])
        has = bool(face_down[i] or face_up[i])
        if has:
            having.append(i)
        if had and not has:
            extra.append(ev.PlayerOut(i))
        elif has and not had:
            extra.append(ev.PlayerBack(i))
    last = s.last_turned
    start = (last + 1) % n if last is not None else s.to_play
    to_play = start
    for i in range(n):
        cand = (start + i) % n
        if face_down[cand] or face_up[cand]:
            to_play = cand
            break
    over = len(having) <= 1
    winner = having[0] if len(having) == 1 else None
    reason = None
    if over:
        race = None
        reason = "no_cards" if not having else ("stuck_pot" if pot else "all_cards")
        extra.append(ev.GameOver(winner, winner is None, reason, tuple(having)))
    if extra:
        events = events + tuple(extra)
    seq = base.seq + len(events)
    opts = s.options
    valid = compute_valid(face_up, pot, last, to_play, opts.missed_match_callable)
    if valid == s.valid_now:
        valid = s.valid_now
        windows = s.windows
    else:
        windows = _track(s.windows, s.valid_now, valid, s.seq, seq)
    new = build_state(
        n,
        opts,
        s.dealer,
        s.deck,
        face_down,
        face_up,
        pot,
        to_play,
        last,
        race,
        seq,
        s.turns,
        at,
        winner,
        tuple(having) if over else (),
        over,
        over and winner is None,
        reason,
        valid,
        windows,
    )
    return Step(new, events)
