"""Finished games stored as live tables, for the replay tests (pages and browser).

A game is played by the engine's computer players (``play_bot_game``, simulated clock),
then stored through the live tables' own storage (``games.tables.store``): the table as
dealt, then every accepted action with its numbered events, as a table owner stores them.
"""

from __future__ import annotations

import json
import re

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
    state = start_state(record)
    index = 0
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
        state = step.state
        index += 1
    return code


def page_frames(html: str) -> list[dict]:
    """The player's frames of a replay or lesson page, opened out as
    ``games/js/frames.js`` does (the same rules, in Python)."""
    match = re.search(
        r'<script id="walkthrough-frames" type="application/json">(.*?)</script>', html, re.S
    )
    data = json.loads(match.group(1))
    if isinstance(data, list):
        return data

    def card(code):
        return data["cards"][code] if code else None

    def links(ids):
        return [data["rules"][i] for i in ids or []]

    def table(t):
        if t is None:
            return None
        players = [
            {
                "seat": seat,
                "name": data["names"][seat],
                "face_down": face_down,
                "face_up": face_up,
                "top": card(top),
                "out": bool(flags & 1),
                "to_play": bool(flags & 2),
                "learner": seat == data["learner"],
                "changed": bool(flags & 4),
            }
            for seat, (face_down, face_up, top, flags) in enumerate(t["p"])
        ]
        count, top, flags = t["pot"]
        pot = {"count": count, "top": card(top), "blocked": bool(flags & 1)}
        return {"players": players, "pot": {**pot, "changed": bool(flags & 2)}, "over": t["o"]}

    def answer(b):
        return {
            "outcome": b["o"],
            "note": data["texts"][b["n"]],
            "events": [data["texts"][i] for i in b.get("e", [])],
            "clauses": links(b.get("r")),
            "table": table(b["t"]),
        }

    return [
        {
            "number": i + 1,
            "caption": data["texts"][f["c"]],
            "events": [],
            "clauses": links(f.get("r")),
            "expects": f.get("x"),
            "table": table(f["t"]),
            "branches": {press: answer(b) for press, b in f.get("b", {}).items()},
        }
        for i, f in enumerate(data["frames"])
    ]
