"""``python -m bench.tables``: live tables of four simulated players through the
production stack, and the bare Channels broadcast beside them.

Starts the stack (nginx, two page workers, ``--table-processes`` table processes, on a
fresh PostgreSQL database and Redis) and, for the baseline, the bare broadcast under
uvicorn alone; opens N tables through the Play page's forms, each table's players from
a loopback address of their own; plays for T seconds; prints a line per run and, last,
one line of JSON. ``--find-max`` adds tables step by step until a run misses the
latency target, the site and the baseline side by side at every step.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from dataclasses import dataclass

from bench.procs import Processes
from bench.servers import REDIS_DBS, REDIS_URL, processes_named, production_stack, uvicorn_alone

from .browser import Browser
from .report import HELD_P99_MS, ServerWatch, figures, held, line
from .runner import Run, run_tables

BARE_APP = "bench.tables.bare_asgi:application"
#: --find-max: at most this many steps, and tables at most.
MAX_STEPS = 12
MAX_TABLES = 1000
MAX_TABLE_PROCESSES = 4


@dataclass
class Target:
    """What a run plays against: its address, the processes measured (the table
    processes, or the bare server) and nginx's (None for the bare server)."""

    kind: str  # "site" or "bare"
    label: str
    url: str
    measured: Processes
    proxy: Processes | None = None
    processes: int = 1

    @property
    def name(self) -> str:
        return f"site x{self.processes}" if self.kind == "site" else "bare"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.tables",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--tables", type=int, default=25, help="tables (--find-max: the first step)"
    )
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per run")
    parser.add_argument(
        "--pace-ms", type=int, default=1000, help="turn this long after a turn starts"
    )
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument(
        "--table-processes", default="1",
        help="table processes of the stack; several, comma-separated (1,2), run side by side",
    )  # fmt: skip
    parser.add_argument("--bare", action="store_true", help="the bare broadcast only")
    parser.add_argument(
        "--find-max",
        action="store_true",
        help="the most tables within the target, site and bare side by side",
    )
    parser.add_argument(
        "--step", type=int, help="--find-max: tables added per step (default: --tables)"
    )
    parser.add_argument(
        "--max-steps", type=int, default=MAX_STEPS, help="--find-max: steps at most"
    )
    args = parser.parse_args(argv)
    try:
        args.table_processes = sorted({int(n) for n in args.table_processes.split(",") if n})
    except ValueError:
        parser.error("--table-processes: numbers, comma-separated (1,2)")
    if len(args.table_processes) > len(REDIS_DBS):
        parser.error(f"--table-processes: {len(REDIS_DBS)} stacks at most")
    if not args.table_processes or not all(
        1 <= n <= MAX_TABLE_PROCESSES for n in args.table_processes
    ):
        parser.error(f"--table-processes: 1 to {MAX_TABLE_PROCESSES}")
    if not 1 <= args.tables <= MAX_TABLES or not 1 <= args.seconds <= 600:
        parser.error(f"--tables 1 to {MAX_TABLES}, --seconds 1 to 600")
    if not 1 <= args.clients <= 8:
        parser.error("--clients 1 to 8")
    if args.step is not None and args.step < 1:
        parser.error("--step must be at least 1")
    return args


def start_targets(args: argparse.Namespace, started: contextlib.ExitStack) -> list[Target]:
    """The servers this command measures, started (stopped when ``started`` closes)."""
    targets = []
    if not args.bare:
        for count, redis_db in zip(args.table_processes, REDIS_DBS, strict=False):
            stack = started.enter_context(
                production_stack(table_processes=count, redis_db=redis_db)
            )
            targets.append(Target(
                "site", "stack", stack.url, processes_named(stack, "table"),
                processes_named(stack, "nginx"), count,
            ))  # fmt: skip
    if args.bare or args.find_max:
        bare = started.enter_context(uvicorn_alone(BARE_APP, {"REDIS_URL": REDIS_URL}))
        targets.append(Target("bare", "uvicorn alone", bare.url, bare.measured))
    return targets


def measure(args: argparse.Namespace, target: Target, tables: int, first: int) -> dict:
    """One run of ``tables`` tables against ``target``; its figures, printed."""
    if target.kind == "site":
        for _ in range(4):  # warm both page workers: imports, templates
            Browser(target.url).request("GET", "/en/play/")
    run = Run(target.url, tables, args.seconds, args.pace_ms, target.kind == "bare", first)
    proxy_cpu0 = target.proxy.cpu_seconds() if target.proxy else None
    with ServerWatch(target.measured) as watch:
        measures, client_cpu = run_tables(run, args.clients, watch.opened)
    proxy_cpu = None
    if proxy_cpu0 is not None:
        proxy_cpu = round((target.proxy.cpu_seconds() - proxy_cpu0) / (watch.elapsed or 1), 3)
    result = figures(
        measures, kind=target.kind, server=target.label, tables=tables, seconds=args.seconds,
        pace_ms=args.pace_ms, watch=watch, client_cpu=client_cpu,
        processes=target.processes, proxy_cpu=proxy_cpu,
    )  # fmt: skip
    print(line(result), flush=True)
    return result


def find_max(args: argparse.Namespace, targets: list[Target]) -> dict:
    """Steps of ``--step`` more tables from ``--tables``; at each step every target plays
    the same number of tables for ``--seconds``, one after the other (the same minute,
    so the same machine). A run holds when flip->reveal p99 is at most HELD_P99_MS with
    nothing lost, duplicated, reordered or cut and no client failing; a run that does
    not hold is run once more (a shared machine's hiccup is not a maximum). A target's
    maximum is its last step held before the first step it failed twice; the steps go
    on until every target has failed (or --max-steps, MAX_TABLES). Each target's tables
    per core by CPU time, the mean of its steps, goes beside the maximum."""
    step = args.step or args.tables
    best: dict[str, dict | None] = {t.name: None for t in targets}
    failed_at: dict[str, int | None] = {t.name: None for t in targets}
    steps, tables, first = [], args.tables, 0
    for _ in range(max(1, min(args.max_steps, MAX_STEPS))):
        if tables > MAX_TABLES or all(failed_at.values()):
            break
        row: dict = {"tables": tables}
        for target in targets:
            if failed_at[target.name] is not None:
                continue
            result = measure(args, target, tables, first)
            first += tables  # new tables (and addresses) for every run
            if not held(result):
                result = measure(args, target, tables, first)
                first += tables
            if held(result):
                best[target.name] = result
            else:
                failed_at[target.name] = tables
            row[target.name] = {
                "held": held(result),
                "flip_reveal_p99_ms": result["flip_reveal_p99_ms"],
                "flip_reveal_p50_ms": result["flip_reveal_p50_ms"],
                "server_cpu": result["server_cpu"],
                "tables_per_core": result["tables_per_core"],
                "load_average": result["load_average"],
            }
        steps.append(row)
        print(f"step {tables} tables: " + ", ".join(
            f"{name} {'held' if row[name]['held'] else 'failed'} "
            f"(p99 {row[name]['flip_reveal_p99_ms']} ms, {row[name]['tables_per_core']} "
            f"tables/core by CPU, load {row[name]['load_average'][0]})"
            for name in best if name in row
        ), flush=True)  # fmt: skip
        tables += step
    most = {name: (result["tables"] if result else 0) for name, result in best.items()}
    bare = most.get("bare", 0)
    per_core = {name: [row[name]["tables_per_core"] for row in steps if name in row]
                for name in best}  # fmt: skip
    per_core = {name: round(sum(n) / len(n)) if n and None not in n else None
                for name, n in per_core.items()}  # fmt: skip
    summary = {
        "target_p99_ms": HELD_P99_MS,
        "step": step,
        "max_tables": most,
        "ratio_to_bare": {
            name: round(n / bare, 2) if bare else None for name, n in most.items() if name != "bare"
        },
        "tables_per_core": per_core,
        "failed_at": failed_at,
        "steps": steps,
        "best": best,
    }
    print(
        f"most tables within p99 {HELD_P99_MS:g} ms (steps of {step}): "
        + ", ".join(f"{name} {n}" for name, n in most.items())
        + f"; ratio to bare {summary['ratio_to_bare']}; failed at {failed_at}; "
        f"tables per core by CPU (mean of the steps) {per_core}",
        flush=True,
    )
    return summary


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    with contextlib.ExitStack() as started:
        try:
            targets = start_targets(args, started)
        except RuntimeError as error:  # PostgreSQL, Redis or nginx missing, a server failed
            sys.exit(f"bench.tables: {error}")
        if args.find_max:
            result = find_max(args, targets)
        else:
            result = measure(args, targets[0], args.tables, 0)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
