"""``python -m bench.pages``: the site's pages through the production stack, with the
page workers under each server asked (``--servers uvicorn,gunicorn``).

Starts one stack per server (nginx without its per-address limits, two page workers,
one table process; a fresh PostgreSQL database with the content loaded and one finished
game stored for the replay page). Then, page by page and language by language, a few
clients fetch the bare view, the page and its revisit (``If-None-Match``) on each stack
in turns (``--rounds`` of them: the shared machine's ups and downs fall on every server
alike). Prints each page's requests per second and the page workers' CPU time per
answer (steadier than a rate on a shared machine), each beside the bare view's, then a
summary per server; JSON last.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys

from bench.procs import load_average
from bench.servers import REDIS_DBS, ROOT, processes_named, production_stack
from bench.site_pages import PAGES as SITE_PAGES
from bench.site_pages import STORE_GAME

from .client import rate
from .servers import PAGE_SERVERS

BARE = "/bench/bare/"
#: The pages measured (the site's pages that need no open table).
PAGES = {
    name: SITE_PAGES[name]
    for name in ("home", "rules", "glossary", "start", "learn", "walkthrough", "lobby", "replay")
}


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.pages",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--servers",
        default="uvicorn,gunicorn",
        help=f"page workers' servers, comma-separated: {', '.join(PAGE_SERVERS)}",
    )
    parser.add_argument(
        "--pages",
        default="home,rules,play,replay",
        help=f"comma-separated, among {', '.join(PAGES)}",
    )
    parser.add_argument("--languages", default="en,ta", help="comma-separated")
    parser.add_argument(
        "--seconds",
        type=float,
        default=3,
        help="per page, language and server (split among the rounds)",
    )
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="turns of bare view, page and revisit per page and server",
    )
    args = parser.parse_args(argv)
    args.servers = [s for s in args.servers.split(",") if s]
    args.pages = [p for p in args.pages.split(",") if p]
    args.languages = [code.strip() for code in args.languages.split(",") if code.strip()]
    if not args.servers or set(args.servers) - set(PAGE_SERVERS):
        parser.error(f"--servers: among {', '.join(PAGE_SERVERS)}")
    if len(args.servers) > len(REDIS_DBS) or len(set(args.servers)) < len(args.servers):
        parser.error(f"--servers: {len(REDIS_DBS)} different ones at most")
    if not args.pages or set(args.pages) - set(PAGES):
        parser.error(f"--pages: among {', '.join(PAGES)}")
    if not 0.5 <= args.seconds <= 60 or not 1 <= args.clients <= 16:
        parser.error("--seconds 0.5 to 60, --clients 1 to 16")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds 1 to 20")
    return args


class Measured:
    """One stack's page workers: a rate and their CPU time per answer."""

    def __init__(self, server: str, stack) -> None:
        self.server, self.url = server, stack.url
        self.workers = processes_named(stack, "page")

    def measure(self, path: str, clients: int, seconds: float, conditional: bool = False):
        cpu_before = self.workers.cpu_seconds()
        figures = rate(self.url, path, clients=clients, seconds=seconds, conditional=conditional)
        cpu_after, answers = self.workers.cpu_seconds(), sum(figures["statuses"].values())
        if cpu_before is not None and cpu_after is not None and answers:
            figures["cpu_us"] = (cpu_after - cpu_before) * 1e6 / answers
        return figures


def combined(parts: list[dict]) -> dict:
    """Slices of equal length as one: their mean rate and CPU time, summed statuses,
    all errors."""
    statuses: dict = {}
    for part in parts:
        for status, count in part["statuses"].items():
            statuses[status] = statuses.get(status, 0) + count
    sizes = [part["bytes"] for part in parts if part["bytes"] is not None]
    cpu = [part["cpu_us"] for part in parts if "cpu_us" in part]
    return {
        "rps": round(sum(part["rps"] for part in parts) / len(parts), 1),
        "cpu_us": round(sum(cpu) / len(cpu)) if cpu else None,
        "statuses": statuses,
        "bytes": max(sizes) if sizes else None,
        "errors": [error for part in parts for error in part["errors"]],
    }


def store_game(stack) -> str:
    """One finished game stored for the replay page; its code."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", STORE_GAME],
        cwd=ROOT, env=stack.env(), check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def measure_all(args: argparse.Namespace, stacks: list[Measured], code: dict) -> dict:
    """Every page and language on every stack: bare view, page and revisit, in turns."""
    seconds = args.seconds / args.rounds
    pages: dict = {}
    for name in args.pages:
        for lang in args.languages:
            key = f"{name}/{lang}"
            slices = {(s.server, kind): [] for s in stacks for kind in ("bare", "page", "revisit")}
            for _ in range(args.rounds):
                for s in stacks:
                    path = PAGES[name].format(lang=lang, game=code[s.server])
                    slices[s.server, "bare"].append(s.measure(BARE, args.clients, seconds))
                    slices[s.server, "page"].append(s.measure(path, args.clients, seconds))
                    slices[s.server, "revisit"].append(
                        s.measure(path, args.clients, seconds, conditional=True)
                    )
            pages[key] = {}
            for s in stacks:
                bare, page, revisit = (combined(slices[s.server, k]) for k in
                                       ("bare", "page", "revisit"))  # fmt: skip
                pages[key][s.server] = {
                    "rps": page["rps"], "cpu_us": page["cpu_us"], "bytes": page["bytes"],
                    "statuses": page["statuses"], "bare_rps": bare["rps"],
                    "bare_cpu_us": bare["cpu_us"], "revisit_rps": revisit["rps"],
                    "revisit_cpu_us": revisit["cpu_us"], "revisit_statuses": revisit["statuses"],
                    "errors": bare["errors"] + page["errors"] + revisit["errors"],
                }  # fmt: skip
                print(
                    f"{key:16} {s.server:8} {page['rps']:7.1f} requests/s, {page['cpu_us']} us "
                    f"CPU a page {page['statuses']}; bare view {bare['rps']} requests/s, "
                    f"{bare['cpu_us']} us; revisit {revisit['rps']} requests/s, "
                    f"{revisit['cpu_us']} us {revisit['statuses']}",
                    flush=True,
                )
    return pages


def summary(pages: dict, servers: list[str]) -> dict:
    """Per server: the mean over the pages of requests per second and of CPU time per
    page, and which server used less CPU per page."""
    out: dict = {}
    for server in servers:
        rows = [page[server] for page in pages.values()]
        out[server] = {
            "mean_rps": round(sum(r["rps"] for r in rows) / len(rows), 1),
            "mean_cpu_us": round(sum(r["cpu_us"] or 0 for r in rows) / len(rows)),
            "mean_bare_cpu_us": round(sum(r["bare_cpu_us"] or 0 for r in rows) / len(rows)),
        }
    if len(servers) > 1:
        out["least_cpu_per_page"] = min(servers, key=lambda s: out[s]["mean_cpu_us"])
        out["most_requests_per_s"] = max(servers, key=lambda s: out[s]["mean_rps"])
    return out


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    load_before = load_average()
    with contextlib.ExitStack() as started:
        stacks, code = [], {}
        try:
            for server, redis_db in zip(args.servers, REDIS_DBS, strict=False):
                stack = started.enter_context(production_stack(
                    table_processes=1, page_command=PAGE_SERVERS[server],
                    per_address_limits=False, redis_db=redis_db,
                ))  # fmt: skip
                code[server] = store_game(stack)
                stacks.append(Measured(server, stack))
        except RuntimeError as error:
            sys.exit(f"bench.pages: {error}")
        for s in stacks:  # warm every page worker: imports, templates
            for name in args.pages:
                s.measure(PAGES[name].format(lang=args.languages[0], game=code[s.server]), 2, 0.5)
        pages = measure_all(args, stacks, code)
    result = {
        "servers": args.servers, "clients": args.clients, "rounds": args.rounds,
        "seconds": args.seconds, "pages": pages, "summary": summary(pages, args.servers),
        "load_average": {"before": load_before, "after": load_average()},
    }  # fmt: skip
    for server in args.servers:
        s = result["summary"][server]
        print(f"{server}: {s['mean_rps']} requests/s and {s['mean_cpu_us']} us CPU a page "
              f"(mean over the pages; bare view {s['mean_bare_cpu_us']} us)")  # fmt: skip
    print(json.dumps(result))


if __name__ == "__main__":
    main()
