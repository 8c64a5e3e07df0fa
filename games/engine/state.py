"""Game state, setup (R4, R5, R20) and the queries about a position.

Index conventions (used everywhere in the engine):

- Seats are numbered clockwise from 0 (R20). The player on a seat's *left* is the next
  seat ``(s + 1) % players``; on its *right* the previous one ``(s - 1) % players``.
- Every pile (``face_down[s]``, ``face_up[s]``, ``pot``) is a tuple listed **bottom to
  top**: index 0 is the bottom card, index -1 the top card.
- A deck order (``deck``) is listed **top to bottom** (R20): ``deck[0]`` is dealt first.
- ``last_turned`` is the seat that turned the last card. Only a freshly dealt game has
  None (R14's "before anyone has turned a card"); a position set up with
  :func:`from_piles` always has one (R20 D).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .actions import SNAP
from .cards import Card, full_deck
from .options import DEFAULT_OPTIONS, Options

__all__ = [
    "Counts",
    "GameState",
    "Race",
    "ValidCalls",
    "deal",
    "from_piles",
    "new_game",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 12


@dataclass(frozen=True, slots=True)
class Race:
    """An open race (R9): ``kind`` ("snap" or "snap_pot"), the first valid call's time
    ``first_ms``, the ``callers`` in order of arrival with their ``times``, and
    ``closes_at_ms`` = ``first_ms`` + the effective tie window (calls at or before it
    join)."""

    kind: str
    first_ms: int
    closes_at_ms: int
    callers: tuple[int, ...]
    times: tuple[int, ...]

    @property
    def calls(self) -> tuple[tuple[int, int], ...]:
        """``(seat, at_ms)`` of every call in the race, first call first."""
        return tuple(zip(self.callers, self.times, strict=True))


@dataclass(frozen=True, slots=True)
class ValidCalls:
    """Which calls are valid now, and for which piles.

    ``snap``: seats whose face-up piles would be won by a "Snap!" (R8); ``snap_pot``:
    seats whose face-up top matches the Snap Pot (R10). Both are in R22 order: clockwise
    starting from the player who turned the last card.
    """

    snap: tuple[int, ...] = ()
    snap_pot: tuple[int, ...] = ()

    def piles(self, kind: str) -> tuple[int, ...]:
        """The piles of ``kind`` ("snap" or "snap_pot")."""
        return self.snap if kind == SNAP else self.snap_pot

    def __bool__(self) -> bool:
        return bool(self.snap or self.snap_pot)


@dataclass(frozen=True, slots=True)
class Counts:
    """How many cards a player has face down and face up."""

    face_down: int
    face_up: int

    @property
    def total(self) -> int:
        return self.face_down + self.face_up


NO_CALLS = ValidCalls()
#: What tells "too late" from "wrong" (R9), as ``windows``:
#: ``(snap_since, pot_since, snap_seen, pot_seen, closed_at)``.
#:
#: - ``snap_since`` / ``pot_since``: the seq from which the call has been valid, while it
#:   is valid now (else None);
#: - ``snap_seen`` / ``pot_seen``: an int used as a bit set over the whole game: bit ``i``
#:   is set when a valid match of that kind was showing to a player who had seen event
#:   ``i`` and no later one (closed windows only; the open one is ``*_since``). A bit set
#:   costs one bit per event (a 1,500-turn game: ~300 bytes a kind), copies fast, is
#:   immutable, and answers "was he looking at a match?" in one shift, however long ago;
#: - ``closed_at``: the seq just before the last race was closed, while no card has been
#:   turned since (else None): a call without ``seen`` is taken as sent then.
NO_WINDOWS: tuple = (None, None, 0, 0, None)


@dataclass(frozen=True, slots=True)
class GameState:
    """One position of a game. Immutable: ``apply`` returns a new state.

    Piles are tuples listed bottom to top (index -1 is the top card); see the module
    docstring for the seat and deck conventions. ``deck`` is the dealt deck order of a
    full game (empty for a game made with :func:`from_piles`). ``seq`` is the number of
    events emitted so far; ``turns`` the number of cards turned; ``clock_ms`` the time
    of the last accepted action. ``valid_now`` caches :meth:`valid_calls`; ``windows``
    keeps what is needed to tell "too late" from "wrong" (R9, see ``NO_WINDOWS``).

    >>> s = deal(2, full_deck(), dealer=1)
    >>> s.to_play, s.counts(0), s.top_face_up(0), s.over
    (0, Counts(face_down=26, face_up=0), None, False)
    """

    players: int
    options: Options
    dealer: int | None
    deck: tuple[Card, ...]
    face_down: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...]
    pot: tuple[Card, ...]
    to_play: int
    last_turned: int | None
    race: Race | None
    seq: int
    turns: int
    clock_ms: int
    winner: int | None
    winners: tuple[int, ...]
    over: bool
    draw: bool
    end_reason: str | None
    valid_now: ValidCalls
    windows: tuple

    # -- queries -------------------------------------------------------------------
    def counts(self, seat: int) -> Counts:
        """Face-down and face-up counts of ``seat``."""
        return Counts(len(self.face_down[seat]), len(self.face_up[seat]))

    def top_face_up(self, seat: int) -> Card | None:
        """The top card of ``seat``'s face-up pile, or None when it is empty."""
        pile = self.face_up[seat]
        return pile[-1] if pile else None

    @property
    def pot_top(self) -> Card | None:
        """The top card of the Snap Pot, or None when there is no pot."""
        return self.pot[-1] if self.pot else None

    @property
    def whose_turn(self) -> int:
        """The seat whose turn it is (same as ``to_play``)."""
        return self.to_play

    def valid_calls(self) -> ValidCalls:
        """Which calls are valid now and for which piles (R8, R10, R11).

        >>> s = from_piles([["2S"], ["3S"]], [["5H"], ["5D"]])  # seat 1 turned last
        >>> s.valid_calls()
        ValidCalls(snap=(1, 0), snap_pot=())
        """
        return self.valid_now

    @property
    def pot_blocked(self) -> bool:
        """True when all four cards of the pot's top rank are inside the pot (R18 D): no
        card can match its top now. Blocked is not lost: a later tie lays new piles on
        the pot and gives it a new top (R9 D); see :mod:`games.engine.pot`.

        >>> from_piles([["2S"], ["3S"]], pot=["7S", "7H", "7D", "7C"]).pot_blocked
        True
        """
        if not self.pot:
            return False
        rank = self.pot[-1].rank
        return sum(1 for c in self.pot if c.rank == rank) == 4

    def right_with_cards(self, seat: int) -> int:
        """The nearest player on ``seat``'s right who still has cards (R14 D, R20 D):
        where a penalty on one's own turn goes, skipping players who are out."""
        return previous_with_cards(self.face_down, self.face_up, seat)

    def is_out(self, seat: int) -> bool:
        """True when ``seat`` has no cards at all (R16)."""
        return not self.face_down[seat] and not self.face_up[seat]

    def total(self, seat: int) -> int:
        """All cards of ``seat`` (face down and face up)."""
        return len(self.face_down[seat]) + len(self.face_up[seat])

    def card_total(self) -> int:
        """Number of cards in the game: every pile and the pot (52 in a full game)."""
        return (
            sum(len(p) for p in self.face_down) + sum(len(p) for p in self.face_up) + len(self.pot)
        )

    def all_cards(self) -> list[Card]:
        """Every card in the game, pile by pile (for invariant checks)."""
        cards: list[Card] = []
        for p in self.face_down:
            cards.extend(p)
        for p in self.face_up:
            cards.extend(p)
        cards.extend(self.pot)
        return cards


# -- fast construction (used by the rules on every step) -------------------------------
# A frozen dataclass's __init__ sets each field through object.__setattr__; setting the
# slots through their member descriptors is about twice as fast. No validation: internal.
_new = object.__new__
_set_players = GameState.players.__set__  # type: ignore[attr-defined]
_set_options = GameState.options.__set__  # type: ignore[attr-defined]
_set_dealer = GameState.dealer.__set__  # type: ignore[attr-defined]
_set_deck = GameState.deck.__set__  # type: ignore[attr-defined]
_set_face_down = GameState.face_down.__set__  # type: ignore[attr-defined]
_set_face_up = GameState.face_up.__set__  # type: ignore[attr-defined]
_set_pot = GameState.pot.__set__  # type: ignore[attr-defined]
_set_to_play = GameState.to_play.__set__  # type: ignore[attr-defined]
_set_last_turned = GameState.last_turned.__set__  # type: ignore[attr-defined]
_set_race = GameState.race.__set__  # type: ignore[attr-defined]
_set_seq = GameState.seq.__set__  # type: ignore[attr-defined]
_set_turns = GameState.turns.__set__  # type: ignore[attr-defined]
_set_clock_ms = GameState.clock_ms.__set__  # type: ignore[attr-defined]
_set_winner = GameState.winner.__set__  # type: ignore[attr-defined]
_set_winners = GameState.winners.__set__  # type: ignore[attr-defined]
_set_over = GameState.over.__set__  # type: ignore[attr-defined]
_set_draw = GameState.draw.__set__  # type: ignore[attr-defined]
_set_end_reason = GameState.end_reason.__set__  # type: ignore[attr-defined]
_set_valid_now = GameState.valid_now.__set__  # type: ignore[attr-defined]
_set_windows = GameState.windows.__set__  # type: ignore[attr-defined]


def build_state(
    players,
    options,
    dealer,
    deck,
    face_down,
    face_up,
    pot,
    to_play,
    last_turned,
    race,
    seq,
    turns,
    clock_ms,
    winner,
    winners,
    over,
    draw,
    end_reason,
    valid_now,
    windows,
) -> GameState:
    """Make a GameState from all its fields in order, quickly (internal)."""
    o = _new(GameState)
    _set_players(o, players)
    _set_options(o, options)
    _set_dealer(o, dealer)
    _set_deck(o, deck)
    _set_face_down(o, face_down)
    _set_face_up(o, face_up)
    _set_pot(o, pot)
    _set_to_play(o, to_play)
    _set_last_turned(o, last_turned)
    _set_race(o, race)
    _set_seq(o, seq)
    _set_turns(o, turns)
    _set_clock_ms(o, clock_ms)
    _set_winner(o, winner)
    _set_winners(o, winners)
    _set_over(o, over)
    _set_draw(o, draw)
    _set_end_reason(o, end_reason)
    _set_valid_now(o, valid_now)
    _set_windows(o, windows)
    return o


_SETTERS = tuple((n, globals()["_set_" + n]) for n in GameState.__dataclass_fields__)


def evolve(s: GameState, changes: dict) -> GameState:
    """A copy of ``s`` with the fields in ``changes`` replaced (internal, fast)."""
    o = _new(GameState)
    for name, setter in _SETTERS:
        setter(o, changes[name] if name in changes else getattr(s, name))
    return o


# -- valid calls -----------------------------------------------------------------------
_ORDERS = {
    n: tuple(tuple((start + i) % n for i in range(n)) for start in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


def compute_valid(
    face_up: tuple[tuple[Card, ...], ...],
    pot: tuple[Card, ...],
    last_turned: int | None,
    to_play: int,
    missed_match_callable: bool,
) -> ValidCalls:
    """Valid calls of a position (see :meth:`GameState.valid_calls`)."""
    n = len(face_up)
    tops = [p[-1].rank if p else 0 for p in face_up]
    prank = pot[-1].rank if pot else 0
    start = to_play if last_turned is None else last_turned
    order = _ORDERS[n][start] if n in _ORDERS else tuple((start + i) % n for i in range(n))
    if missed_match_callable:
        snap = tuple(s for s in order if tops[s] and tops.count(tops[s]) > 1)
        spot = tuple(s for s in order if tops[s] == prank) if prank else ()
    else:
        # Only a match made by the card just turned counts (it must still be on top).
        fresh = tops[last_turned] if last_turned is not None else 0
        if not fresh:
            return NO_CALLS
        snap = tuple(s for s in order if tops[s] == fresh) if tops.count(fresh) > 1 else ()
        spot = tuple(s for s in order if tops[s] == prank) if fresh == prank else ()
    if not snap and not spot:
        return NO_CALLS
    return ValidCalls(snap, spot)


def _next_with_cards(face_down, face_up, start: int) -> int:
    """First seat clockwise from ``start`` (inclusive) that has cards, else ``start``."""
    n = len(face_down)
    for i in range(n):
        s = (start + i) % n
        if face_down[s] or face_up[s]:
            return s
    return start


# -- setup -------------------------------------------------------------------------------
def _check_players(players: int) -> None:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be an int from 2 to 12 (R1), not {players!r}")


def _as_card(c: Card | str) -> Card:
    if isinstance(c, Card):
        return c
    return Card.parse(c)


def _start_state(
    players: int,
    options: Options,
    dealer: int | None,
    deck: tuple[Card, ...],
    face_down: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...],
    pot: tuple[Card, ...],
    to_play: int,
    last_turned: int | None,
) -> GameState:
    valid = compute_valid(face_up, pot, last_turned, to_play, options.missed_match_callable)
    windows = (0 if valid.snap else None, 0 if valid.snap_pot else None, 0, 0, None)
    having = [s for s in range(players) if face_down[s] or face_up[s]]
    over = len(having) <= 1
    winner = having[0] if len(having) == 1 else None
    reason = None
    if over:
        reason = "no_cards" if not having else ("stuck_pot" if pot else "all_cards")
    return GameState(
        players=players,
        options=options,
        dealer=dealer,
        deck=deck,
        face_down=face_down,
        face_up=face_up,
        pot=pot,
        to_play=to_play,
        last_turned=last_turned,
        race=None,
        seq=0,
        turns=0,
        clock_ms=0,
        winner=winner,
        winners=(winner,) if winner is not None else (),
        over=over,
        draw=over and winner is None,
        end_reason=reason,
        valid_now=valid,
        windows=windows,
    )


def deal(
    players: int, deck: Sequence[Card | str], dealer: int, options: Options = DEFAULT_OPTIONS
) -> GameState:
    """Deal a full game (R4, R5, R20) from an explicit deck order, listed top to bottom.

    The top card goes to the player on the dealer's left, the next to the player after
    him, and so on; each card is laid on top of that player's face-down pile, so the first
    card a player gets ends at the bottom. The player on the dealer's left plays first (R6).

    >>> s = deal(3, full_deck(), dealer=2)
    >>> s.to_play, [len(p) for p in s.face_down]
    (0, [18, 17, 17])
    >>> s.face_down[0][0].code, s.face_down[0][-1].code  # bottom, top of seat 0's pile
    ('AS', 'KC')
    """
    _check_players(players)
    if type(dealer) is not int or not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    if not isinstance(options, Options):
        raise ValueError("options must be an Options")
    cards = tuple(_as_card(c) for c in deck)
    if len(cards) != 52 or set(cards) != set(full_deck()):
        raise ValueError("deck must hold the 52 cards of one deck, each exactly once (R2)")
    first = (dealer + 1) % players
    piles: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(cards):
        piles[(first + i) % players].append(card)  # laid on top: appended
    empty: tuple[tuple[Card, ...], ...] = tuple(() for _ in range(players))
    return _start_state(
        players, options, dealer, cards, tuple(tuple(p) for p in piles), empty, (), first, None
    )


def new_game(players: int, rng: random.Random, options: Options = DEFAULT_OPTIONS) -> GameState:
    """A full game shuffled by ``rng``: the dealer is drawn from ``rng`` first
    (``rng.randrange(players)``), then the deck is shuffled with ``rng.shuffle``.
    The dealer and the dealt order are kept in the state (``dealer``, ``deck``).

    >>> a = new_game(4, random.Random(7))
    >>> b = deal(4, a.deck, a.dealer)
    >>> a == b, a.card_total()
    (True, 52)
    """
    _check_players(players)
    dealer = rng.randrange(players)
    deck = list(full_deck())
    rng.shuffle(deck)
    return deal(players, deck, dealer, options)


def previous_with_cards(face_down, face_up, seat: int) -> int:
    """First seat counter-clockwise from ``seat``'s right that has cards (R20 D): the
    player who turned the last card when a position does not say. ``seat``'s right
    itself when nobody else has cards."""
    n = len(face_down)
    for i in range(1, n):
        s = (seat - i) % n
        if face_down[s] or face_up[s]:
            return s
    return (seat - 1) % n


def from_piles(
    face_down: Sequence[Sequence[Card | str]],
    face_up: Sequence[Sequence[Card | str]] | None = None,
    pot: Sequence[Card | str] = (),
    to_play: int = 0,
    options: Options = DEFAULT_OPTIONS,
    last_turned: int | None = None,
) -> GameState:
    """A position set up in the middle of a game (walkthroughs, tests, lessons): one
    face-down pile per seat, optional face-up piles and pot. Every pile is listed
    **bottom to top** (the last card listed is the top). Cards may be Card objects or
    codes. Any subset of the deck is allowed (no card twice). There is no dealer.

    ``to_play`` is the player to play; if he has no cards, the next player with cards
    (R16). ``last_turned`` is the player who turned the last card (R20 D); penalties
    (R13, R14) and the order of won piles (R22) follow it. When not named it is the
    player on the right of the player to play, skipping players who are out. It may
    name a player who is out (he turned his last card and has lost it since; a penalty
    brings him back, R23), but it must agree with ``to_play``: the player to play is
    the first player with cards on ``last_turned``'s left, as in any game. Only a
    freshly dealt game (:func:`deal`) has ``last_turned`` None.

    >>> s = from_piles([["2S", "KH"], ["3S"]], [[], ["9D"]])
    >>> s.top_face_up(1).code, s.face_down[0][-1].code, s.card_total()
    ('9D', 'KH', 4)
    >>> s.to_play, s.last_turned
    (0, 1)
    >>> from_piles([["2S"], ["3S"], ["4S"]], to_play=0, last_turned=1)
    Traceback (most recent call last):
    ...
    ValueError: last_turned=1 disagrees with to_play=0: after seat 1 turns, seat 2 plays
    """
    n = len(face_down)
    _check_players(n)
    fd = tuple(tuple(_as_card(c) for c in p) for p in face_down)
    if face_up is None:
        fu: tuple[tuple[Card, ...], ...] = tuple(() for _ in range(n))
    else:
        if len(face_up) != n:
            raise ValueError("face_up must have one pile per seat")
        fu = tuple(tuple(_as_card(c) for c in p) for p in face_up)
    pt = tuple(_as_card(c) for c in pot)
    if type(to_play) is not int or not 0 <= to_play < n:
        raise ValueError(f"to_play must be a seat from 0 to {n - 1}, not {to_play!r}")
    if last_turned is not None and (type(last_turned) is not int or not 0 <= last_turned < n):
        raise ValueError(
            f"last_turned must be None or a seat from 0 to {n - 1}, not {last_turned!r}"
        )
    if not isinstance(options, Options):
        raise ValueError("options must be an Options")
    cards = [c for p in fd for c in p] + [c for p in fu for c in p] + list(pt)
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears more than once")
    to_play = _next_with_cards(fd, fu, to_play)
    having = sum(1 for s in range(n) if fd[s] or fu[s])
    if last_turned is None:
        last_turned = previous_with_cards(fd, fu, to_play)
    elif having > 1:
        expected = _next_with_cards(fd, fu, (last_turned + 1) % n)
        if expected != to_play:
            raise ValueError(
                f"last_turned={last_turned} disagrees with to_play={to_play}: "
                f"after seat {last_turned} turns, seat {expected} plays"
            )
    return _start_state(n, options, None, (), fd, fu, pt, to_play, last_turned)
