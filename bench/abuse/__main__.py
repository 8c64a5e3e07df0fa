"""``python -m bench.abuse``: the round trip p99 of well-behaved tables through the
production stack, alone and while one client floods, one asks for long catch-ups, one
never reads and idle sockets connect, then all at once and a while after; the table
processes' memory; last line JSON."""

from __future__ import annotations

import argparse
import sys

from .run import ABUSE_PHASES, Terminated, main


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.abuse", description=__doc__)
    parser.add_argument("--tables", type=int, default=20, help="well-behaved tables (1 to 50)")
    parser.add_argument("--table-processes", type=int, default=2, help="of the stack (1 to 4)")
    parser.add_argument(
        "--phase-seconds", type=float, default=30.0,
        help="each phase's length (30: 600 moves, the p99 their 6th slowest)",
    )  # fmt: skip
    parser.add_argument("--idle", type=int, default=1000, help="idle sockets (0 to 2000)")
    parser.add_argument("--settle-seconds", type=float, default=60.0, help="wait after the abuse")
    parser.add_argument(
        "--catch-up-turns", type=int, default=200, help="the caught-up game's length"
    )
    parser.add_argument(
        "--phases", default=",".join(ABUSE_PHASES),
        help="the abuse phases to run, comma-separated (all at once follows when there are "
        "several; the targets are judged on those run)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    args.phases = tuple(p for p in args.phases.split(",") if p)
    unknown = sorted(set(args.phases) - set(ABUSE_PHASES))
    if unknown or not args.phases:
        parser.error(
            f"--phases: unknown {', '.join(unknown) or '(none given)'}; "
            f"choose among {', '.join(ABUSE_PHASES)}"
        )
    if not 1 <= args.table_processes <= 4:
        parser.error("--table-processes 1 to 4")
    return args


def say(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    args = parse(None)
    try:
        main(
            table_processes=args.table_processes,
            tables=max(1, min(args.tables, 50)),
            phase_s=max(2.0, min(args.phase_seconds, 120.0)),
            idle=max(0, min(args.idle, 2000)),
            settle_s=max(0.0, min(args.settle_seconds, 300.0)),
            catch_up_turns=max(20, min(args.catch_up_turns, 1000)),
            phases=args.phases,
            say=say,
        )
    except (Terminated, KeyboardInterrupt) as stopped:
        print("bench.abuse: stopped, and its stack with it", file=sys.stderr)
        sys.exit(143 if isinstance(stopped, Terminated) else 130)
    except RuntimeError as error:  # PostgreSQL, Redis or nginx missing, the stack failed
        sys.exit(f"bench.abuse: {error}")
