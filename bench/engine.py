"""``python -m bench.engine``: the pure engine's speed and size, no server.

Prints a few readable lines and, last, one line of JSON with ``actions_per_s`` (apply on
one core, the mix of actions of real bot games: turns, calls, race closes, rejections),
``bot_games_per_s`` (4 bots, to the end), ``replay_1000_ms`` (replaying a 1,000-action
record) and ``state_bytes`` (deep memory of one live 4-player game state, cards
included).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from games.engine.bots import BotLevel, play_bot_game
from games.engine.options import Options
from games.engine.record import Record, replay, start_state
from games.engine.rules import apply
from games.engine.state import GameState

__all__ = ["deep_size", "main", "run"]


def deep_size(obj: object, seen: set[int] | None = None) -> int:
    """Bytes of ``obj`` and everything it references (each object counted once)."""
    if seen is None:
        seen = set()
    stack = [obj]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen or o is None or isinstance(o, bool | type):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, tuple | list | set | frozenset):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        else:
            for cls in type(o).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(o, name):
                        stack.append(getattr(o, name))
    return total


def _records(games: int) -> list[Record]:
    levels = [BotLevel.BEGINNER, BotLevel.STEADY, BotLevel.QUICK, BotLevel.STEADY]
    opts = Options(turn_limit=1500)
    return [play_bot_game(4, seed, levels, opts)[1] for seed in range(games)]


def run(games: int = 40) -> dict[str, float | int]:
    """Run the benchmark and return the figures."""
    t0 = time.perf_counter()
    records = _records(games)
    bot_s = time.perf_counter() - t0
    bot_games_per_s = games / bot_s

    # apply throughput over the recorded actions (starting states built outside timing)
    work = [(start_state(r), r.actions) for r in records]
    n_actions = sum(len(a) for _, a in work)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for state, actions in work:
            s = state
            for a in actions:
                s = apply(s, a).state
        best = min(best, time.perf_counter() - t0)
    actions_per_s = n_actions / best

    longest = max(records, key=lambda r: len(r.actions))
    seed = games
    while len(longest.actions) < 1000:  # deterministic search for a long enough game
        levels = [BotLevel.QUICK] * 4
        longest = play_bot_game(4, seed, levels, Options(turn_limit=1500))[1]
        seed += 1
    rec1000 = longest.with_actions(longest.actions[:1000])
    best_r = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _step in replay(rec1000):
            pass
        best_r = min(best_r, time.perf_counter() - t0)

    mid: GameState = start_state(longest)
    for a in longest.actions[: len(longest.actions) // 2]:
        mid = apply(mid, a).state
    state_bytes = deep_size(mid)
    return {
        "actions_per_s": round(actions_per_s),
        "bot_games_per_s": round(bot_games_per_s, 2),
        "replay_1000_ms": round(best_r * 1000, 3),
        "replay_actions": len(rec1000.actions),
        "state_bytes": state_bytes,
        "bench_actions": n_actions,
        "bench_games": games,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="bot games played and applied")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 1000:
        parser.error("--games 1 to 1000")
    r = run(args.games)
    print(f"apply: {r['actions_per_s']:,} actions/s over {r['bench_actions']:,} actions")
    print(f"bot games (4 players, to the end): {r['bot_games_per_s']} games/s")
    print(f"replay of {r['replay_actions']} actions: {r['replay_1000_ms']} ms")
    print(f"one live 4-player state: {r['state_bytes']:,} bytes")
    print(json.dumps(r, sort_keys=True))


if __name__ == "__main__":
    main()
