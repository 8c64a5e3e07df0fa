"""The Snap game engine: pure Python, standard library only.

No clock, no global random, no I/O: time arrives on actions (``at_ms``), randomness
from an explicit ``random.Random``. ``apply(state, action)`` returns a :class:`Step`
(new state + events); the old state stays valid.

>>> import random
>>> state = new_game(4, random.Random(42))
>>> step = apply(state, TurnCard(seat=state.to_play, at_ms=0))
>>> [e.code for e in step.events]
['card_turned']
>>> view(step.state, 0).face_up_tops[state.to_play] is not None
True
"""

from .actions import SNAP, SNAP_POT, Action, CallSnap, CallSnapPot, CloseRace, TurnCard
from .bots import Bot, BotLevel, LevelSpec, Planned, play_bot_game
from .cards import RANK_CODES, SUITS, Card, full_deck
from .events import (
    EVENT_TYPES,
    REJECT_REASONS,
    CallJoined,
    CardTurned,
    Event,
    GameOver,
    PilesWon,
    PileTurnedOver,
    PlayerBack,
    PlayerOut,
    RaceCancelled,
    RaceOpened,
    Rejected,
    TieToPot,
    TooLate,
    WrongCall,
)
from .options import DEFAULT_OPTIONS, MAX_TIE_WINDOW_MS, Options
from .record import Game, Record, final_state, record_start, replay, start_state
from .rules import Step, apply
from .state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Counts,
    GameState,
    Race,
    ValidCalls,
    deal,
    from_piles,
    new_game,
)
from .view import TableView, view

__all__ = [
    "Action",
    "Bot",
    "BotLevel",
    "CallJoined",
    "CallSnap",
    "CallSnapPot",
    "Card",
    "CardTurned",
    "CloseRace",
    "Counts",
    "DEFAULT_OPTIONS",
    "EVENT_TYPES",
    "Event",
    "Game",
    "GameOver",
    "GameState",
    "LevelSpec",
    "MAX_PLAYERS",
    "MAX_TIE_WINDOW_MS",
    "MIN_PLAYERS",
    "Options",
    "PileTurnedOver",
    "PilesWon",
    "Planned",
    "PlayerBack",
    "PlayerOut",
    "REJECT_REASONS",
    "RANK_CODES",
    "Race",
    "RaceCancelled",
    "RaceOpened",
    "Record",
    "Rejected",
    "SNAP",
    "SNAP_POT",
    "SUITS",
    "Step",
    "TableView",
    "TieToPot",
    "TooLate",
    "TurnCard",
    "ValidCalls",
    "WrongCall",
    "apply",
    "deal",
    "final_state",
    "from_piles",
    "full_deck",
    "new_game",
    "play_bot_game",
    "record_start",
    "replay",
    "start_state",
    "view",
]
