"""A finished game to replay, for benchmarks: computer players play it on the engine
(simulated clock), and it is stored as a live table stores its steps."""

from __future__ import annotations

from games.engine import DEFAULT_OPTIONS, BotLevel, apply, play_bot_game, start_state, view
from games.tables import store, table_create
from games.tables.owner import event_data
from games.tables.protocol import action_to_json, view_to_json

LEVELS = [BotLevel.BEGINNER, BotLevel.STEADY, BotLevel.QUICK, BotLevel.STEADY]


def store_sample_game(seed: int = 4) -> str:
    """Play and store a four-player game; return its table's code."""
    _end, record = play_bot_game(4, seed, LEVELS, DEFAULT_OPTIONS)
    code = table_create(
        players=4,
        options=DEFAULT_OPTIONS,
        bots=dict(enumerate(LEVELS)),
        deck=record.deck,
        dealer=record.dealer,
    )
    table, state, index = store.table_id(code), start_state(record), 0
    for action in record.actions:
        step = apply(state, action)
        if step.rejected:  # a table stores accepted actions only
            continue
        public = view_to_json(view(step.state, None))
        events = [
            {"seq": state.seq + 1 + i, "data": event_data(state, e), "view": public}
            for i, e in enumerate(step.events)
        ]
        store.step_append(table, index, action_to_json(action), events)
        state, index = step.state, index + 1
    return code
