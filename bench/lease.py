"""``manage.py bench_lease``: what the lease's fence costs each stored step.

For each database asked (SQLite as ``make run`` sets it up, PostgreSQL on 127.0.0.1
as the tests use it), makes a fresh database, migrates it, and stores ``--steps`` steps
of one table with the fence checked and as many without, in alternating blocks
(``games.play.bench.lease_cost``); prints a line per database, then one line of JSON.
The databases made are dropped afterwards; traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.core.management.base import BaseCommand, CommandError

from games.play.bench.databases import database
from games.play.bench.server import ROOT


class Command(BaseCommand):
    help = "Time stored steps with and without the lease's fence (SQLite, PostgreSQL)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--steps", type=int, default=600, help="steps of each kind")
        parser.add_argument("--databases", default="sqlite,postgres", help="sqlite and/or postgres")
        parser.add_argument("--worker", action="store_true", help="(internal)")

    def handle(self, *args, **options) -> None:
        if not 10 <= options["steps"] <= 100_000:
            raise CommandError("--steps 10 to 100000.")
        if options["worker"]:
            from games.play.bench.lease_cost import measure

            self.stdout.write(json.dumps(measure(options["steps"])))
            return
        kinds = [k.strip() for k in options["databases"].split(",") if k.strip()]
        if not kinds or set(kinds) - {"sqlite", "postgres"}:
            raise CommandError("--databases: sqlite and/or postgres.")
        results = {}
        for kind in kinds:
            try:
                with database(kind) as url:
                    results[kind] = run_worker(url, options["steps"])
            except RuntimeError as error:  # PostgreSQL not reachable
                raise CommandError(str(error)) from error
            for fence in ("fenced", "unfenced"):
                f = results[kind][fence]
                self.stdout.write(
                    f"{kind} {fence}: {f['steps_per_s']} steps/s, median {f['median_ms']} ms,"
                    f" p99 {f['p99_ms']} ms ({f['steps']} steps)"
                )
            cost = results[kind]["fenced"]["median_ms"] - results[kind]["unfenced"]["median_ms"]
            results[kind]["fence_median_ms"] = round(cost, 3)
            self.stdout.write(f"{kind}: the fence adds {cost:.3f} ms a step (median)")
        results["load_average"] = [round(x, 2) for x in os.getloadavg()]
        self.stdout.write(json.dumps(results))


def run_worker(url: str, steps: int) -> dict:
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1"}
    env.pop("DB_CONN_MAX_AGE", None)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    done = subprocess.run(
        [*manage, "bench_lease", "--worker", "--steps", str(steps)],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])
