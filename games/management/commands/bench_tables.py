"""``manage.py bench_tables``: live tables under load, against a bare broadcast.

Starts the server itself on a free 127.0.0.1 port (or uses ``--url``), opens N tables of
4 simulated players through the Play page's forms, plays for T seconds, prints a line
per run and, last, one line of JSON. Every run is bounded in time; traffic goes to
127.0.0.1 only (``--url`` must name it too).
"""

from __future__ import annotations

import json
import time
import urllib.parse
from contextlib import nullcontext

from django.core.management.base import BaseCommand, CommandError

from games.play.bench.browser import Browser
from games.play.bench.report import ServerWatch, figures, held, line
from games.play.bench.runner import Run, run_tables
from games.play.bench.server import SERVERS, served

#: --find-max: tables grow by this factor until a run fails, then a bisection.
GROWTH = 1.5
MAX_RUNS = 8
MAX_TABLES = 1000


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
        parser.add_argument("--bare", action="store_true", help="the bare broadcast only")
        parser.add_argument(
            "--find-max", action="store_true", help="the most tables held: site, then bare"
        )

    def handle(self, *args, **options) -> None:
        if options["url"]:
            host = urllib.parse.urlsplit(options["url"]).hostname
            if host != "127.0.0.1":
                raise CommandError("--url must be on 127.0.0.1: benchmarks stay on this machine.")
        if not 1 <= options["tables"] <= MAX_TABLES or not 1 <= options["seconds"] <= 600:
            raise CommandError(f"--tables 1 to {MAX_TABLES}, --seconds 1 to 600.")
        if options["find_max"]:
            result = self.find_max(options)
        else:
            result = self.measure(options, options["tables"], bare=options["bare"])
        self.stdout.write(json.dumps(result))

    def measure(self, options: dict, tables: int, *, bare: bool) -> dict:
        kind = "bare" if bare else "site"
        server = "url" if options["url"] else options["server"]
        context = nullcontext(None) if options["url"] else served(options["server"], bare=bare)
        with context as running:
            url = options["url"] or running.url
            if not bare:
                Browser(url).request("GET", "/en/play/")  # warm: imports, templates
            run = Run(url, tables, options["seconds"], options["pace_ms"], bare)
            with ServerWatch(running) as watch:
                measures, client_cpu = run_tables(run, options["clients"])
            result = figures(
                measures, kind=kind, server=server, tables=tables, seconds=options["seconds"],
                pace_ms=options["pace_ms"], watch=watch, client_cpu=client_cpu,
            )  # fmt: skip
        self.stdout.write(line(result))
        self.stdout.flush()
        return result

    def find_max(self, options: dict) -> dict:
        maxima = {}
        for bare in (False, True):
            maxima["bare" if bare else "site"] = self.largest_held(options, bare=bare)
        site, bare = maxima["site"]["tables"], maxima["bare"]["tables"]
        summary = {
            "site_max_tables": site,
            "bare_max_tables": bare,
            "ratio": round(site / bare, 2) if bare else None,
            "site": maxima["site"]["figures"],
            "bare": maxima["bare"]["figures"],
        }
        self.stdout.write(f"most tables held: site {site}, bare {bare}, ratio {summary['ratio']}")
        return summary

    def largest_held(self, options: dict, *, bare: bool) -> dict:
        """Grow the tables until a run fails (or MAX_RUNS), then bisect once or twice."""
        passed, failed, best, runs = 0, None, None, 0
        tables = options["tables"]
        deadline = time.monotonic() + MAX_RUNS * (options["seconds"] + 60)
        while runs < MAX_RUNS and time.monotonic() < deadline:
            result = self.measure(options, tables, bare=bare)
            runs += 1
            if held(result):
                passed, best = tables, result
            else:
                failed = tables
            if failed is None:
                tables = min(MAX_TABLES, int(tables * GROWTH) + 1)
                if tables == passed:
                    break
            else:
                if failed - passed <= max(5, passed // 10):
                    break
                tables = (passed + failed) // 2 if passed else max(1, failed // 2)
        return {"tables": passed, "figures": best}
