"""``python -m bench.lighthouse``: Lighthouse 12.2.3 over every kind of page, in en, he
and ta, as a phone and as a desktop, on the site as ``make run`` serves it.

Starts ``python -m snapsite.serve`` (what ``make run`` runs: uvicorn, static files
under hashed names) on 127.0.0.1 with a fresh SQLite database of its own, the rules
content loaded, one finished game stored (the replay and lesson pages) and one open
table (the table page). Then runs ``lighthouse`` once per page, language and preset,
each in a fresh Chromium profile: a first visit, nothing cached. Chromium is Debian's
(``--chrome-path``, headless, ``--no-sandbox``); Lighthouse's own Chromium flags keep
it from any background traffic, and every address it is given is on 127.0.0.1.

Prints, per run: the performance, accessibility, best-practices and SEO scores, the
layout shift (CLS), the bytes transferred and the web-font files fetched, with the load
average of the machine (Lighthouse simulates a slow phone from what it observes, so a
busy machine lowers the performance score); then a summary against the targets
(docs/benchmarks.md); JSON last.

Lighthouse itself comes from npm, outside the project's dependencies: ``make
bench-lighthouse`` installs ``lighthouse@12.2.3`` into ``.lighthouse/`` (ignored by
git) the first time; ``LIGHTHOUSE=/path/to/lighthouse`` names another copy.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench.procs import free_port, load_average
from bench.site_pages import PAGES, STORE_GAME

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE_VERSION = "12.2.3"
LIGHTHOUSE = ROOT / ".lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PRESETS = ("phone", "desktop")
LANGUAGES = ("en", "he", "ta")
#: What a first visit must reach (issue: light and steady pages).
TARGETS = {
    "bytes": 150 * 1024,
    "cls": 0.05,
    "performance_phone": 95,
    "best-practices": 100,
    "accessibility": 100,
    "seo": 100,
}
OPEN_TABLE = "from games import tables; print(tables.table_create(players=3))"
RUN_TIMEOUT_S = 240


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.lighthouse",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--pages", default=",".join(PAGES), help="kinds of page, comma-separated")
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--presets", default=",".join(PRESETS), help="phone, desktop")
    parser.add_argument("--lighthouse", default=os.environ.get("LIGHTHOUSE") or str(LIGHTHOUSE))
    parser.add_argument("--keep", help="a folder to keep every Lighthouse report in")
    args = parser.parse_args(argv)
    for name, allowed in (("pages", PAGES), ("languages", LANGUAGES), ("presets", PRESETS)):
        chosen = [x for x in getattr(args, name).split(",") if x]
        unknown = [x for x in chosen if x not in allowed]
        if unknown or not chosen:
            parser.error(f"--{name}: {unknown or 'none'} not among {', '.join(allowed)}")
        setattr(args, name, chosen)
    return args


def manage(env: dict[str, str], *command: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *command],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(command)}: {done.stderr[-2000:]}")
    return done.stdout


@contextlib.contextmanager
def served_site() -> Iterator[tuple[str, dict[str, str]]]:
    """The site as `make run` serves it, on 127.0.0.1; yields its address and the
    codes of its stored game and open table."""
    with tempfile.TemporaryDirectory(prefix="snap-lighthouse-") as folder:
        env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"sqlite:///{Path(folder) / 'db.sqlite3'}",
            "CACHE_DIR": str(Path(folder) / "cache"),
            "REDIS_URL": "",
        }
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "load_content")
        codes = {
            "game": manage(env, "shell", "-c", STORE_GAME).split()[-1],
            "table": manage(env, "shell", "-c", OPEN_TABLE).split()[-1],
        }
        port = free_port()
        log_path = Path(folder) / "serve.log"
        with open(log_path, "w") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "snapsite.serve", "--port", str(port)],
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                wait_until_served(f"http://127.0.0.1:{port}/favicon.ico", server, log_path)
                yield f"http://127.0.0.1:{port}", codes
            finally:
                server.terminate()
                server.wait(timeout=30)


def wait_until_served(url: str, server: subprocess.Popen, log_path: Path) -> None:
    """Return once `url` answers (collectstatic may run first: minutes on a busy machine)."""
    import urllib.request

    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.5)
    raise RuntimeError(f"the site did not start:\n{log_path.read_text()[-3000:]}")


def lighthouse_command(binary: str, url: str, preset: str, output: Path) -> list[str]:
    command = [
        binary,
        url,
        "--output=json",
        f"--output-path={output}",
        f"--chrome-path={CHROMIUM}",
        "--chrome-flags=--headless=new --no-sandbox",
        f"--only-categories={','.join(CATEGORIES)}",
        "--max-wait-for-load=60000",
        "--quiet",
    ]
    if preset == "desktop":
        command.append("--preset=desktop")
    return command  # the phone is Lighthouse's default (a mid-range phone, slow 4G)


def summary_of(report: dict) -> dict:
    """The figures of one Lighthouse report that the targets speak of."""
    audits = report["audits"]
    requests = audits["network-requests"]["details"]["items"]
    fonts = [
        {"url": r["url"].rsplit("/", 1)[-1], "bytes": r.get("transferSize", 0)}
        for r in requests
        if r.get("resourceType") == "Font"
    ]
    outside = sorted({r["url"] for r in requests if not r["url"].startswith("http://127.0.0.1")})
    return {
        **{c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES},
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 4),
        "bytes": int(audits["total-byte-weight"]["numericValue"]),
        "requests": len(requests),
        "dom_elements": int(audits["dom-size"].get("numericValue", 0)),
        "fonts": fonts,
        "outside_requests": outside,
        "failed": sorted(
            a["id"]
            for a in audits.values()
            if a.get("score") is not None
            and a["score"] < 1
            and a.get("scoreDisplayMode") == "binary"
        ),
    }


def run_one(binary: str, url: str, preset: str, keep: Path | None) -> dict:
    """One Lighthouse run's figures; a run that fails (a trace lost on a busy machine,
    NO_NAVSTART) is tried once more before it counts as an error."""
    figures = run_once(binary, url, preset, keep)
    return run_once(binary, url, preset, keep) if "error" in figures else figures


def run_once(binary: str, url: str, preset: str, keep: Path | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="snap-lh-run-") as folder:
        output = (keep or Path(folder)) / f"{abs(hash((url, preset)))}.json"
        env = {**os.environ, "CHROME_PATH": CHROMIUM}
        done = subprocess.run(
            lighthouse_command(binary, url, preset, output),
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        if done.returncode != 0 or not output.exists():
            return {"error": (done.stderr or done.stdout)[-1000:]}
        return summary_of(json.loads(output.read_text()))


def verdicts(results: list[dict]) -> dict:
    """Each target and whether every run met it (with the worst figure)."""
    ok = [r for r in results if "error" not in r]
    phones = [r for r in ok if r["preset"] == "phone"]

    def worst(key, runs, low_is_bad=True):
        values = [r[key] for r in runs]
        return (min(values) if low_is_bad else max(values)) if values else None

    out = {
        "bytes": worst("bytes", ok, low_is_bad=False),
        "cls": worst("cls", ok, low_is_bad=False),
        "performance_phone": worst("performance", phones),
        "best-practices": worst("best-practices", ok),
        "accessibility": worst("accessibility", ok),
        "seo": worst("seo", ok),
    }
    met = {}
    for key, value in out.items():
        if value is None:
            met[key] = None
        elif key in ("bytes", "cls"):
            met[key] = value <= TARGETS[key]
        else:
            met[key] = value >= TARGETS[key]
    return {"worst": out, "met": met, "errors": len(results) - len(ok)}


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if not Path(args.lighthouse).exists():
        print(
            f"No Lighthouse at {args.lighthouse}: `make bench-lighthouse` installs "
            f"lighthouse@{LIGHTHOUSE_VERSION} into .lighthouse/",
            file=sys.stderr,
        )
        return 2
    keep = Path(args.keep) if args.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    results = []
    started = load_average()
    with served_site() as (base, codes):
        print(f"site: {base}  game {codes['game']}  table {codes['table']}  load {started}")
        header = f"{'preset':8} {'lang':4} {'page':12} perf a11y  bp  seo    cls    KiB  load"
        print(header, flush=True)
        for preset in args.presets:
            for lang in args.languages:
                for page in args.pages:
                    path = PAGES[page].format(lang=lang, **codes)
                    before = load_average()
                    figures = run_one(args.lighthouse, base + path, preset, keep)
                    row = {"preset": preset, "language": lang, "page": page, "path": path}
                    row |= figures | {"load_before": before, "load_after": load_average()}
                    results.append(row)
                    if "error" in figures:
                        print(f"{preset:8} {lang:4} {page:12} error: {figures['error'][-200:]}")
                        continue
                    print(
                        f"{preset:8} {lang:4} {page:12} {row['performance']:4} "
                        f"{row['accessibility']:4} {row['best-practices']:3} {row['seo']:4} "
                        f"{row['cls']:6.3f} {row['bytes'] / 1024:6.1f}  {before[0]:.1f}",
                        flush=True,
                    )
    summary = verdicts(results)
    print("worst:", summary["worst"])
    print("targets met:", summary["met"])
    print(
        json.dumps(
            {
                "lighthouse": LIGHTHOUSE_VERSION,
                "load_average": {"start": started, "end": load_average()},
                "targets": TARGETS,
                "summary": summary,
                "runs": results,
            }
        )
    )
    return 1 if summary["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
