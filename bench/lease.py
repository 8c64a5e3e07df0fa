"""``python -m bench.lease``: what the lease's fence costs each stored step.

For each database asked (SQLite as ``make run`` sets it up, PostgreSQL on 127.0.0.1
as the tests use it), makes a fresh database, migrates it, and stores ``--steps`` steps
of one table with the fence checked and as many without, in alternating blocks
(:mod:`bench.lease_cost`); prints a line per database, then one line of JSON.
The databases made are dropped afterwards; traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import sys

from .databases import database, worker_result
from .procs import load_average
from .servers import ROOT


def run_worker(url: str, steps: int) -> dict:
    """Migrate the database at ``url`` and time ``steps`` steps of each kind on it."""
    return worker_result(url, ROOT, "bench.lease_cost", str(steps))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.lease",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--steps", type=int, default=600, help="steps of each kind")
    parser.add_argument("--databases", default="sqlite,postgres", help="sqlite and/or postgres")
    args = parser.parse_args(argv)
    if not 10 <= args.steps <= 100_000:
        parser.error("--steps 10 to 100000")
    kinds = [k.strip() for k in args.databases.split(",") if k.strip()]
    if not kinds or set(kinds) - {"sqlite", "postgres"}:
        parser.error("--databases: sqlite and/or postgres")
    results: dict = {}
    for kind in kinds:
        try:
            with database(kind) as url:
                results[kind] = run_worker(url, args.steps)
        except RuntimeError as error:  # PostgreSQL not reachable
            sys.exit(f"bench.lease: {error}")
        for fence in ("fenced", "unfenced"):
            f = results[kind][fence]
            print(
                f"{kind} {fence}: {f['steps_per_s']} steps/s, median {f['median_ms']} ms,"
                f" p99 {f['p99_ms']} ms ({f['steps']} steps)"
            )
        cost = results[kind]["fenced"]["median_ms"] - results[kind]["unfenced"]["median_ms"]
        results[kind]["fence_median_ms"] = round(cost, 3)
        print(f"{kind}: the fence adds {cost:.3f} ms a step (median)", flush=True)
    results["load_average"] = load_average()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
