"""``manage.py bench_pages``: the site's pages against a bare Django view.

Starts the site on a free 127.0.0.1 port with a fresh SQLite file (migrated, the
content loaded, one finished game stored for the replay), then 4 clients fetch each
page for a while, in two languages, with a bare view measured before and after;
prints each page's requests per second and its ratio to the bare view, JSON last.
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


class Command(BaseCommand):
    help = "Time the site's pages against a bare Django view; ratios, JSON last."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seconds", type=float, default=3, help="per page and language")
        parser.add_argument("--clients", type=int, default=4)
        parser.add_argument("--languages", default="en,ta", help="comma-separated")
        parser.add_argument("--server", choices=SERVERS, default="daphne")

    def handle(self, *args, **options) -> None:
        if not 0.5 <= options["seconds"] <= 60 or not 1 <= options["clients"] <= 16:
            raise CommandError("--seconds 0.5 to 60, --clients 1 to 16.")
        languages = [code.strip() for code in options["languages"].split(",") if code.strip()]
        prepare = (("load_content",), ("shell", "-c", STORE_GAME))
        with served(options["server"], settings="snapsite.bench_settings", prepare=prepare) as s:
            code = s.prepared[-1].strip().splitlines()[-1]
            timing = {"clients": options["clients"], "seconds": options["seconds"]}

            def measure(path: str, conditional: bool = False) -> dict:
                return rate(s.url, path, conditional=conditional, **timing)

            bare_before = measure(BARE)
            pages = {}
            for name, pattern in PAGES.items():
                for lang in languages:
                    path = pattern.format(lang=lang, code=code)
                    full, revisit = measure(path), measure(path, conditional=True)
                    pages[f"{name}/{lang}"] = {"path": path, "full": full, "revisit": revisit}
            bare_after = measure(BARE)
        bare_rps = (bare_before["rps"] + bare_after["rps"]) / 2
        result = {
            "server": options["server"],
            "clients": options["clients"],
            "bare_rps": round(bare_rps, 1),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "pages": {},
        }
        self.stdout.write(f"bare view: {bare_before['rps']} then {bare_after['rps']} requests/s")
        for key, page in pages.items():
            full, revisit = page["full"], page["revisit"]
            ratio = round(full["rps"] / bare_rps, 2) if bare_rps else None
            ratio_304 = round(revisit["rps"] / bare_rps, 2) if bare_rps else None
            result["pages"][key] = {
                "ratio": ratio, "rps": full["rps"], "bytes": full["bytes"],
                "statuses": full["statuses"], "revisit_ratio": ratio_304,
                "revisit_statuses": revisit["statuses"],
                "errors": full["errors"] + revisit["errors"],
            }  # fmt: skip
            self.stdout.write(
                f"{key:16} {full['rps']:7.1f} requests/s = {ratio} x bare, {full['bytes']} "
                f"bytes {full['statuses']}; revisit {revisit['rps']} requests/s = "
                f"{ratio_304} x {revisit['statuses']}"
            )
        self.stdout.write(json.dumps(result))
