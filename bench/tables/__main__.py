"""``manage.py bench_tables``: live tables under load, against a bare broadcast.

Starts the server itself on a free 127.0.0.1 port (or uses ``--url``), opens N tables of
4 simulated players through the Play page's forms, plays for T seconds, prints a line
per run and, last, one line of JSON. Every run is bounded in time; traffic goes to
127.0.0.1 only (``--url`` must name it too).
"""

from __future__ import annotations

import json
import urllib.parse
from contextlib import nullcontext
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.play.bench.browser import Browser
from games.play.bench.report import ServerWatch, figures, held, line
from games.play.bench.runner import Run, run_tables
from games.play.bench.server import SERVERS, served

#: --find-max: at most this many steps (each a site run and a bare run, a failed one
#: run once more), and tables at most.
MAX_STEPS = 12
MAX_TABLES = 1000
#: --processes at most (each a server process on this machine).
MAX_PROCESSES = 4


class Command(BaseCommand):
    help = "Load-test live tables (4 simulated players each) and print figures, JSON last."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--tables", type=int, default=25, help="tables (the start for --find-max)"
        )
        parser.add_argument("--seconds", type=float, default=20, help="measured seconds per run")
        parser.add_argument(
            "--pace-ms", type=int, default=1000, help="turn this long after a turn starts"
        )
        parser.add_argument("--url", help="a running site at 127.0.0.1 instead of starting one")
        parser.add_argument("--server", choices=SERVERS, default="daphne")
        parser.add_argument("--clients", type=int, default=1, help="client processes")
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help="server processes (above 1: sharing a fresh PostgreSQL database and Redis)",
        )
        parser.add_argument("--bare", action="store_true", help="the bare broadcast only")
        parser.add_argument(
            "--server-logs",
            type=Path,
            help="a folder to keep each server's output in (server0.log, ...; the last run's)",
        )
        parser.add_argument(
            "--find-max",
            action="store_true",
            help="the most tables held, site and bare side by side, in steps of --step",
        )
        parser.add_argument(
            "--step", type=int, help="--find-max: tables added per step (default: --tables)"
        )
        parser.add_argument(
            "--max-steps", type=int, default=MAX_STEPS, help="--find-max: steps at most"
        )

    def handle(self, *args, **options) -> None:
        if options["url"]:
            host = urllib.parse.urlsplit(options["url"]).hostname
            if host != "127.0.0.1":
                raise CommandError("--url must be on 127.0.0.1: benchmarks stay on this machine.")
        if not 1 <= options["tables"] <= MAX_TABLES or not 1 <= options["seconds"] <= 600:
            raise CommandError(f"--tables 1 to {MAX_TABLES}, --seconds 1 to 600.")
        if not 1 <= options["processes"] <= MAX_PROCESSES:
            raise CommandError(f"--processes 1 to {MAX_PROCESSES}.")
        if options["processes"] > 1 and options["url"]:
            raise CommandError("--processes starts its own servers: not with --url.")
        if options["find_max"]:
            result = self.find_max(options)
        else:
            result = self.measure(options, options["tables"], bare=options["bare"])
        self.stdout.write(json.dumps(result))

    def measure(self, options: dict, tables: int, *, bare: bool) -> dict:
        kind = "bare" if bare else "site"
        server = "url" if options["url"] else options["server"]
        processes = options["processes"]
        context = (
            nullcontext(None)
            if options["url"]
            else served(
                options["server"],
                bare=bare,
                processes=processes,
                keep_logs=options["server_logs"],
            )
        )
        with context as running:
            url = options["url"] or running.url
            urls = tuple(getattr(running, "urls", ()))
            if not bare:
                for each in urls or (url,):
                    Browser(each).request("GET", "/en/play/")  # warm: imports, templates
            run = Run(url, tables, options["seconds"], options["pace_ms"], bare, urls=urls)
            with ServerWatch(running) as watch:
                measures, client_cpu = run_tables(run, options["clients"], watch.opened)
            result = figures(
                measures, kind=kind, server=server, tables=tables, seconds=options["seconds"],
                pace_ms=options["pace_ms"], watch=watch, client_cpu=client_cpu,
                processes=processes,
            )  # fmt: skip
        self.stdout.write(line(result))
        self.stdout.flush()
        return result

    def find_max(self, options: dict) -> dict:
        """Steps of ``--step`` more tables from ``--tables``; at each step the site and
        then the bare broadcast play the same number of tables for ``--seconds`` (the
        same minute, so the same machine). A run holds when flip->reveal p99 is at most
        HELD_P99_MS with nothing lost, duplicated, reordered or cut and no client
        failing; a run that does not hold is run once more (a shared machine's hiccup
        is not a maximum). A kind's maximum is its last step held before the first step
        it failed twice; the steps go on until both have failed (or MAX_STEPS,
        MAX_TABLES)."""
        step = options["step"] or options["tables"]
        if step < 1:
            raise CommandError("--step must be at least 1.")
        best: dict[str, dict | None] = {"site": None, "bare": None}
        failed_at: dict[str, int | None] = {"site": None, "bare": None}
        steps = []
        tables = options["tables"]
        for _ in range(max(1, min(options["max_steps"], MAX_STEPS))):
            if tables > MAX_TABLES or all(failed_at.values()):
                break
            row = {"tables": tables}
            for kind in ("site", "bare"):
                if failed_at[kind] is not None:
                    continue
                result = self.measure(options, tables, bare=kind == "bare")
                if not held(result):
                    result = self.measure(options, tables, bare=kind == "bare")
                if held(result):
                    best[kind] = result
                else:
                    failed_at[kind] = tables
                row[kind] = {
                    "held": held(result),
                    "flip_reveal_p99_ms": result["flip_reveal_p99_ms"],
                    "server_cpu": result["server_cpu"],
                    "load_average": result["load_average"],
                }
            steps.append(row)
            self.stdout.write(f"step {tables} tables: " + ", ".join(
                f"{kind} {'held' if row[kind]['held'] else 'failed'} "
                f"(p99 {row[kind]['flip_reveal_p99_ms']} ms, load {row[kind]['load_average'][0]})"
                for kind in ("site", "bare") if kind in row
            ))  # fmt: skip
            tables += step
        site = best["site"]["tables"] if best["site"] else 0
        bare = best["bare"]["tables"] if best["bare"] else 0
        summary = {
            "site_max_tables": site,
            "bare_max_tables": bare,
            "ratio": round(site / bare, 2) if bare else None,
            "step": step,
            "site_failed_at": failed_at["site"],
            "bare_failed_at": failed_at["bare"],
            "steps": steps,
            "site": best["site"],
            "bare": best["bare"],
        }
        self.stdout.write(
            f"most tables held (steps of {step}): site {site}, bare {bare}, "
            f"ratio {summary['ratio']}; failed at site {failed_at['site']}, "
            f"bare {failed_at['bare']}"
        )
        return summary
