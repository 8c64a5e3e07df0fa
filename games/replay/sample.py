"""Finished games to replay, for tests and benchmarks: computer players play a game on
the engine (simulated clock), and it is stored through the live tables' own storage
(``games.tables.store``): the table as dealt, then every accepted action with its
numbered events, as a table owner stores them."""

from __future__ import annotations

from games.engine import DEFAULT_OPTIONS, BotLevel, Options, apply, play_bot_game, start_state, view
from games.tables import store, table_create
from games.tables.owner import event_data
from games.tables.protocol import action_to_json, view_to_json

LEVELS = (BotLevel.BEGINNER, BotLevel.STEADY, BotLevel.QUICK, BotLevel.STEADY)


def store_game(
    players: int = 4,
    seed: int = 4,
    options: Options = DEFAULT_OPTIONS,
    names: dict[int, str] | None = None,
    stop_after: int | None = None,
) -> str:
    """Play a game between computer players and store it as a table; return its code.

    ``names`` seats people instead (seat -> typed name); ``stop_after`` stores only that
    many actions (a game not over yet)."""
    names = names or {}
    _end, record = play_bot_game(players, seed, list(LEVELS[:players]), options)
    code = table_create(
        players=players,
        options=options,
        bots={s: LEVELS[s] for s in range(players) if s not in names},
        deck=record.deck,
        dealer=record.dealer,
    )
    table = store.table_id(code)
    for seat, name in names.items():
        store.seat_bind(table, seat, f"session-{seat}", name)
    state, index = start_state(record), 0
    for action in record.actions:
        if stop_after is not None and index >= stop_after:
            break
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


def store_sample_game(seed: int = 4) -> str:
    """Play and store a four-player game of computer players; return its table's code."""
    return store_game(4, seed)
