"""What the lease's fence costs a stored step: ``store.step_append`` (the transaction
of one accepted action and its events) timed with and without ``fence_check`` (its
``UPDATE`` of the table's lease row), in alternating blocks on the same table, so
that a change of the machine's load falls on both alike.

Run in a process whose settings name the database to measure: ``python -m
bench.lease_cost STEPS`` prints the figures as one line of JSON (:mod:`bench.lease`
starts one per database, on a database made for it)."""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

#: One step's events as the owner stores them (a card turned: its data and the view).
_EVENT = {
    "data": {"code": "card_turned", "params": {"seat": 0, "card": "QH"}, "rules": ["R5"]},
    "view": {"to_play": 1, "race_open": False, "over": False, "piles": [[26, 0]] * 4},
}


def steps_timed(table_id: int, first: int, count: int) -> list[float]:
    """Store ``count`` steps from action number ``first``; each one's seconds."""
    from games.tables import store

    times = []
    for index in range(first, first + count):
        action = {"type": "turn", "seat": index % 4, "at": index * 1000}
        events = [{"seq": index + 1, **_EVENT}]
        t0 = time.perf_counter()
        store.step_append(table_id, index, action, events)
        times.append(time.perf_counter() - t0)
    return times


def measure(steps: int = 600, blocks: int = 6) -> dict:
    """``steps`` stored steps with the fence and as many without, in ``blocks``
    alternating blocks; per kind: steps per second and the median and p99 ms."""
    from games.engine import DEFAULT_OPTIONS
    from games.tables import lease, store

    code = store.table_insert(players=4, options=DEFAULT_OPTIONS, bots={})
    table_id = store.table_id(code)
    per_block = max(1, steps // blocks)
    timed: dict[str, list[float]] = {"fenced": [], "unfenced": []}
    index = 0
    for block in range(blocks * 2):
        fenced = block % 2 == 0
        if fenced:
            lease.lease_take(table_id, "bench-lease")
        else:
            lease.held_forget()  # a table this process never took: no fence checked
        timed["fenced" if fenced else "unfenced"] += steps_timed(table_id, index, per_block)
        index += per_block
    lease.held_forget()
    return {kind: summary(times) for kind, times in timed.items()}


def summary(times: list[float]) -> dict:
    ordered = sorted(times)
    return {
        "steps": len(times),
        "steps_per_s": round(len(times) / sum(times), 1),
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 3),
    }


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapsite.settings")
    import django

    django.setup()
    print(json.dumps(measure(int(sys.argv[1]))))
