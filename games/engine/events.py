"""Events: data with a stable ``code`` and parameters, never text.

Numbering: every event except :class:`Rejected` gets the next number of its game,
starting at 1; ``state.seq`` is the number of events emitted so far, so after a
step the events it emitted are numbered ``old.seq + 1 .. new.seq``. A service can
therefore number them without asking the engine. ``Rejected`` is an answer to one
action only: it has no number and the state it comes with is the old state itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import Card

__all__ = [
    "CallJoined",
    "CardTurned",
    "Event",
    "EVENT_TYPES",
    "GameOver",
    "PileTurnedOver",
    "PilesWon",
    "PlayerBack",
    "PlayerOut",
    "RaceCancelled",
    "RaceOpened",
    "Rejected",
    "REJECT_REASONS",
    "TieToPot",
    "TooLate",
    "WrongCall",
]


class Event:
    """Base class of all events; ``code`` is a stable snake_case name."""

    __slots__ = ()
    code: ClassVar[str] = "event"


@dataclass(frozen=True, slots=True)
class CardTurned(Event):
    """``seat`` turned ``card`` face up onto his face-up pile (R7, R21)."""

    seat: int
    card: Card
    code: ClassVar[str] = "card_turned"


@dataclass(frozen=True, slots=True)
class PileTurnedOver(Event):
    """``seat``'s face-down pile was empty: his face-up pile of ``cards`` cards was
    turned over to make a new face-down pile (R15, R21)."""

    seat: int
    cards: int
    code: ClassVar[str] = "pile_turned_over"


@dataclass(frozen=True, slots=True)
class RaceOpened(Event):
    """The first valid call of ``kind`` ("snap" or "snap_pot") by ``seat`` opened a race
    that closes at ``closes_at_ms`` (R9)."""

    kind: str
    seat: int
    at_ms: int
    closes_at_ms: int
    code: ClassVar[str] = "race_opened"


@dataclass(frozen=True, slots=True)
class CallJoined(Event):
    """``seat`` made a valid call inside the tie window: he joins the race (R9)."""

    kind: str
    seat: int
    at_ms: int
    code: ClassVar[str] = "call_joined"


@dataclass(frozen=True, slots=True)
class PilesWon(Event):
    """``winner`` won the face-up ``piles`` (seats, in R22 order), ``cards`` cards in all,
    with the Snap Pot of ``pot_cards`` cards when ``with_pot`` (R8, R10, R22)."""

    winner: int
    piles: tuple[int, ...]
    cards: int
    with_pot: bool
    pot_cards: int
    code: ClassVar[str] = "piles_won"


@dataclass(frozen=True, slots=True)
class TieToPot(Event):
    """A tie between ``callers``: the matching ``piles`` went onto the Snap Pot, which now
    shows ``pot_top`` and holds ``pot_cards`` cards (R9, R11, R22)."""

    kind: str
    callers: tuple[int, ...]
    piles: tuple[int, ...]
    pot_top: Card
    pot_cards: int
    code: ClassVar[str] = "tie_to_pot"


@dataclass(frozen=True, slots=True)
class RaceCancelled(Event):
    """The race closed but its match was no longer showing (only possible when a penalty
    took the last card of a matching pile while the race was open)."""

    kind: str
    code: ClassVar[str] = "race_cancelled"


@dataclass(frozen=True, slots=True)
class WrongCall(Event):
    """``seat`` called ``kind`` at the wrong time (R13, R14). His penalty card went face
    down under ``penalty_to``'s face-down pile when ``paid``; its identity is secret."""

    seat: int
    kind: str
    penalty_to: int | None
    paid: bool
    code: ClassVar[str] = "wrong_call"


@dataclass(frozen=True, slots=True)
class TooLate(Event):
    """``seat``'s call was made while he was looking at a valid match of the called kind
    that has since been resolved or covered (judged by the call's ``seen``; without it,
    as sent just before the last race closed if no card has been turned since), or lost
    to an earlier valid call of the other word: no penalty (R9)."""

    seat: int
    kind: str
    code: ClassVar[str] = "too_late"


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """``seat`` has no cards left: he is skipped and may not call (R16, R23)."""

    seat: int
    code: ClassVar[str] = "player_out"


@dataclass(frozen=True, slots=True)
class PlayerBack(Event):
    """``seat`` was out and received a card: he is back in the game (R23)."""

    seat: int
    code: ClassVar[str] = "player_back"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended. ``reason``: "all_cards" (R17), "stuck_pot" (R18), "turn_limit"
    (R19) or "no_cards" (R23, a draw). ``winners`` lists every winner (a shared win at
    the turn limit has several; then ``winner`` is None and ``draw`` is True)."""

    winner: int | None
    draw: bool
    reason: str
    winners: tuple[int, ...] = ()
    code: ClassVar[str] = "game_over"


#: Stable reason codes of :class:`Rejected`.
REJECT_REASONS: tuple[str, ...] = (
    "bad_action",  # not an action, or fields of the wrong type / range
    "no_such_seat",  # seat number outside 0 .. players - 1
    "game_over",  # the game has ended
    "bad_time",  # at_ms negative or earlier than the previous action's time
    "player_out",  # TurnCard from a player with no cards (R16)
    "no_cards",  # a call from a player with no cards (R14, R23)
    "not_your_turn",  # TurnCard out of turn (R6)
    "race_open",  # TurnCard while a race is open (R8 D)
    "already_called",  # a second call by the same player in the open race
    "no_race",  # CloseRace without an open race
    "too_early",  # CloseRace before the race's closes_at_ms
)


@dataclass(frozen=True, slots=True)
class Rejected(Event):
    """An illegal or nonsensical action: nothing changed. ``reason`` is one of
    :data:`REJECT_REASONS`; ``seat`` is the acting seat when there is one."""

    seat: int | None
    reason: str
    code: ClassVar[str] = "rejected"


EVENT_TYPES: tuple[type[Event], ...] = (
    CardTurned,
    PileTurnedOver,
    RaceOpened,
    CallJoined,
    PilesWon,
    TieToPot,
    RaceCancelled,
    WrongCall,
    TooLate,
    PlayerOut,
    PlayerBack,
    GameOver,
    Rejected,
)
