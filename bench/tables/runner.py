"""One load run: open the tables as browsers do, play them for a while over
WebSockets, and return the raw measures (several client processes if asked)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import time
from dataclasses import dataclass

from .browser import Browser
from .players import Measures, Player, SimTable, now

SEATS = 4
#: Connections are opened over this long at most, 50 ms a table (a burst of
#: handshakes is not play).
RAMP_S = 15.0
#: Samples are kept from this long after the last table has connected.
SETTLE_S = 2.0


@dataclass(frozen=True)
class Run:
    url: str
    tables: int
    seconds: float
    pace_ms: int = 1000
    bare: bool = False
    first: int = 0  # the number of this process's first table (names, groups, addresses)


def household(index: int) -> str:
    """The loopback address table ``index``'s four players come from: one address a
    table, as four children at one home or school (nginx's limits count addresses).

    >>> household(0), household(249), household(250)
    ('127.1.0.1', '127.1.0.250', '127.1.1.1')
    """
    return f"127.1.{index // 250}.{index % 250 + 1}"


def open_tables(run: Run) -> list[list[Browser]]:
    """N tables of 4 browsers: the first opens the table from the lobby's form, the
    others load its page (each gets its session and CSRF cookie)."""

    def one(index: int) -> list[Browser]:
        source = household(run.first + index)
        browsers = [Browser(run.url, source=source) for _ in range(SEATS)]
        browsers[0].code = browsers[0].open_table(f"Bench {run.first + index}")
        for browser in browsers[1:]:
            browser.visit_table(browsers[0].code)
            browser.code = browsers[0].code
        return browsers

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, range(run.tables)))


async def play(run: Run, seated: list[list[Browser]] | None, start_at: float) -> Measures:
    measures = Measures()
    ramp = min(RAMP_S, 0.05 * run.tables)
    stop_at = start_at + ramp + SETTLE_S + run.seconds
    tasks, tables = [], []
    for index in range(run.tables):
        table = SimTable(measures, SEATS)
        tables.append(table)
        for seat in range(SEATS):
            ws_base, origin = run.url.replace("http://", "ws://", 1), run.url.rstrip("/")
            if run.bare:
                path, headers = f"/ws/bare/t{run.first + index}/", {}
                hello, join = {"type": "hello", "seat": seat}, None
            else:
                browser = seated[index][seat]
                path, headers = f"/ws/play/{browser.code}/", {"Cookie": browser.cookie_header()}
                hello = {"type": "hello", "lang": "en"}
                join = None if seat == 0 else {"type": "join", "name": f"P{seat}"}
            player = Player(
                table, ws_base + path, headers, origin, run.pace_ms / 1000,
                household(run.first + index),
            )  # fmt: skip
            table.players = getattr(table, "players", []) + [player]
            delay = start_at + ramp * index / max(run.tables, 1) - now()
            tasks.append(asyncio.create_task(started_later(delay, player, hello, join, stop_at)))
    asyncio.get_running_loop().call_later(
        start_at + ramp + SETTLE_S - now(), setattr, measures, "recording", True
    )
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [o for o in outcomes if isinstance(o, BaseException)]
    measures.errors.update(f"client: {type(o).__name__}: {o}"[:80] for o in failed)
    for table in tables:
        for player in table.players:
            player.account()
        measures.games_over += table.over
    return measures


async def started_later(delay: float, player: Player, hello, join, stop_at: float) -> None:
    await asyncio.sleep(max(0.0, delay))
    await player.run(hello, join, stop_at)


def run_here(run: Run, start_at: float | None = None, on_opened=None) -> Measures:
    """Open (site) and play ``run`` in this process (``on_opened()`` in between)."""
    seated = None if run.bare else open_tables(run)
    if on_opened is not None:
        on_opened()
    start_at = max(start_at or 0.0, now() + 0.5)
    return asyncio.run(play(run, seated, start_at))


def run_tables(run: Run, processes: int = 1, on_opened=None) -> tuple[Measures, float]:
    """Play ``run`` with ``processes`` client processes sharing the tables; return the
    merged measures and the client processes' CPU seconds per second of the run
    (``on_opened()`` once the tables are opened: one client process only)."""
    if processes <= 1:
        cpu0, t0 = time.process_time(), now()
        measures = run_here(run, on_opened=on_opened)
        return measures, (time.process_time() - cpu0) / max(now() - t0, 1e-9)
    shares = [run.tables // processes + (i < run.tables % processes) for i in range(processes)]
    firsts = [sum(shares[:i]) for i in range(processes)]
    start_at = now() + 5 + 0.05 * run.tables  # time for every process to open its tables
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(processes, mp_context=context) as pool:
        jobs = [
            pool.submit(run_timed, Run(run.url, n, run.seconds, run.pace_ms, run.bare, first),
                        start_at)
            for n, first in zip(shares, firsts, strict=True) if n
        ]  # fmt: skip
        merged, cpu = Measures(), 0.0
        for job in jobs:
            measures, share = job.result()
            merged.merge(measures)
            cpu += share
    return merged, cpu


def run_timed(run: Run, start_at: float) -> tuple[Measures, float]:
    cpu0, t0 = time.process_time(), now()
    measures = run_here(run, start_at)
    return measures, (time.process_time() - cpu0) / max(now() - t0, 1e-9)
