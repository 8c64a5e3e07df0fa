"""``manage.py bench_pages``: the site's pages against a bare Django view.

Starts the site on a free 127.0.0.1 port with a fresh SQLite file (migrated, the
content loaded, one finished game stored for the replay), then 4 clients fetch each
page for a while, in two languages, in turns with a bare view (``--rounds`` turns of
bare view, page, revisit: the shared machine's ups and downs fall on both alike);
prints each page's requests per second and its ratio to the bare view beside it, and
the server's CPU time per answer against the bare view's (steadier than a rate on a
shared machine), JSON last.
"""

from __future__ import annotations

import json
import os

from django.core.management.base import BaseCommand, CommandError

from games.play.bench.pages import rate
from games.play.bench.server import SERVERS, served

BARE = "/bench/bare/"
PAGES = {
    "home": "/{lang}/",
    "rules": "/{lang}/rules/",
    "glossary": "/{lang}/glossary/",
    "start": "/{lang}/start/",
    "learn": "/{lang}/learn/",
    "walkthrough": "/{lang}/learn/first-turns/",
    "play": "/{lang}/play/",
    "replay": "/{lang}/replay/{code}/",
}
STORE_GAME = "from games.replay.sample import store_sample_game; print(store_sample_game())"


def interleaved(measure, path: str, rounds: int) -> dict:
    """The bare view, the page and its revisit, measured in turns ``rounds`` times, so
    that the machine's ups and downs (it is shared) fall on all three alike."""
    slices = {"bare": [], "full": [], "revisit": []}
    for _ in range(rounds):
        slices["bare"].append(measure(BARE))
        slices["full"].append(measure(path))
        slices["revisit"].append(measure(path, conditional=True))
    return {name: combined(parts) for name, parts in slices.items()}


def combined(parts: list[dict]) -> dict:
    """Slices of equal length as one: their mean rate, summed statuses, all errors."""
    statuses: dict = {}
    for part in parts:
        for status, count in part["statuses"].items():
            statuses[status] = statuses.get(status, 0) + count
    sizes = [part["bytes"] for part in parts if part["bytes"] is not None]
    cpu = [part["cpu_us"] for part in parts if "cpu_us" in part]
    return {
        "cpu_us": round(sum(cpu) / len(cpu), 1) if cpu else None,
        "rps": round(sum(part["rps"] for part in parts) / len(parts), 1),
        "statuses": statuses,
        "bytes": max(sizes) if sizes else None,
        "errors": [error for part in parts for error in part["errors"]],
    }


class Command(BaseCommand):
    help = "Time the site's pages against a bare Django view; ratios, JSON last."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seconds", type=float, default=3, help="per page and language")
        parser.add_argument("--clients", type=int, default=4)
        parser.add_argument("--languages", default="en,ta", help="comma-separated")
        parser.add_argument("--server", choices=SERVERS, default="daphne")
        parser.add_argument(
            "--rounds", type=int, default=3,
            help="turns of bare view, page and revisit per page (--seconds split among them)",
        )  # fmt: skip

    def handle(self, *args, **options) -> None:
        if not 0.5 <= options["seconds"] <= 60 or not 1 <= options["clients"] <= 16:
            raise CommandError("--seconds 0.5 to 60, --clients 1 to 16.")
        if not 1 <= options["rounds"] <= 20:
            raise CommandError("--rounds 1 to 20.")
        languages = [code.strip() for code in options["languages"].split(",") if code.strip()]
        prepare = (("load_content",), ("shell", "-c", STORE_GAME))
        with served(options["server"], settings="snapsite.bench_settings", prepare=prepare) as s:
            code = s.prepared[-1].strip().splitlines()[-1]
            seconds = options["seconds"] / options["rounds"]
            timing = {"clients": options["clients"], "seconds": seconds}

            def measure(path: str, conditional: bool = False) -> dict:
                cpu_before = s.cpu_seconds()
                figures = rate(s.url, path, conditional=conditional, **timing)
                cpu_after, requests = s.cpu_seconds(), sum(figures["statuses"].values())
                if cpu_before is not None and cpu_after is not None and requests:
                    figures["cpu_us"] = (cpu_after - cpu_before) * 1e6 / requests
                return figures

            pages, bares = {}, []
            for name, pattern in PAGES.items():
                for lang in languages:
                    path = pattern.format(lang=lang, code=code)
                    slices = interleaved(measure, path, options["rounds"])
                    bares.append(slices["bare"]["rps"])
                    pages[f"{name}/{lang}"] = {"path": path, **slices}
        result = {
            "server": options["server"],
            "clients": options["clients"],
            "rounds": options["rounds"],
            "bare_rps": round(sum(bares) / len(bares), 1) if bares else 0,
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "pages": {},
        }
        self.stdout.write(
            f"bare view: {min(bares, default=0)} to {max(bares, default=0)} requests/s "
            "(measured beside each page, in turns with it)"
        )
        for key, page in pages.items():
            bare, full, revisit = page["bare"], page["full"], page["revisit"]
            ratio = round(full["rps"] / bare["rps"], 2) if bare["rps"] else None
            ratio_304 = round(revisit["rps"] / bare["rps"], 2) if bare["rps"] else None
            both = bare["cpu_us"] and full["cpu_us"]
            cpu_ratio = round(bare["cpu_us"] / full["cpu_us"], 2) if both else None
            result["pages"][key] = {
                "ratio": ratio, "rps": full["rps"], "bare_rps": bare["rps"],
                "cpu_us": full["cpu_us"], "bare_cpu_us": bare["cpu_us"], "cpu_ratio": cpu_ratio,
                "bytes": full["bytes"], "statuses": full["statuses"],
                "revisit_ratio": ratio_304, "revisit_statuses": revisit["statuses"],
                "errors": bare["errors"] + full["errors"] + revisit["errors"],
            }  # fmt: skip
            self.stdout.write(
                f"{key:16} {full['rps']:7.1f} requests/s = {ratio} x bare ({bare['rps']}), "
                f"{full['bytes']} bytes {full['statuses']}; revisit {revisit['rps']} "
                f"requests/s = {ratio_304} x {revisit['statuses']}; server CPU "
                f"{full['cpu_us']} us a page against {bare['cpu_us']} = {cpu_ratio} x"
            )
        self.stdout.write(json.dumps(result))
