"""The phases of the abuse benchmark (see the package docstring)."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from . import abusers
from .apart import ABUSERS, run_apart
from .good import GoodTable
from .lag_watch import LagWatch
from .server import pin_apart, rss_mb, served
from .stalls import in_window

#: The abuse phases, each alone, in the order they run (then all at once).
ABUSE_PHASES = tuple(ABUSERS)


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1)


async def look_inside(pid: int, report: Path) -> dict:
    """The server's own account of its memory (:mod:`.probe`): glibc's heap in use and
    kept free, Python's arenas, the objects alive."""
    report.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR1)
    for _ in range(300):
        await asyncio.sleep(0.1)
        if report.exists():
            found = json.loads(report.read_text())
            return {k: found.get(k) for k in ("rss_mb", "malloc", "pymalloc", "objects")}
    return {}


def _time_of_day(monotonic: float) -> str:
    wall = time.time() - time.monotonic() + monotonic
    return time.strftime("%H:%M:%S", time.localtime(wall)) + f"{wall % 1:.3f}"[1:]


def _added(counts) -> dict:
    total: collections.Counter = collections.Counter()
    for c in counts:
        total.update(c)
    return dict(total)


async def bench(
    *,
    tables: int,
    phase_s: float,
    idle: int,
    settle_s: float,
    say: Callable[[str], None],
    catch_up_turns: int = 200,
    allocator: str = "malloc",
    server_log: str | None = None,
    good_turns: int = 1000,
    pin: bool = True,
    phases: tuple[str, ...] = ABUSE_PHASES,
    stall_ms: float = 0.0,
) -> dict:
    report = Path(tempfile.mkdtemp(prefix="bench-abuse-probe-")) / "report.json"
    log_path = Path(server_log) if server_log else None
    env = {"PYTHONMALLOC": allocator}
    if stall_ms:  # the server reports its loop's stalls (.stalls) in its output
        env["BENCH_STALLS_MS"] = str(stall_ms)
        log_path = log_path or report.with_name("server.log")
    with served(env, log_path=log_path, probe=report) as (port, pid):
        began = time.monotonic()
        say(f"daphne pid {pid} on 127.0.0.1:{port}")
        pinned = pin_apart(pid) if pin else None
        if pinned:
            say(f"the server on core(s) {sorted(pinned[0])}, the clients on {sorted(pinned[1])}")
        # paced within the frame rate: each player sends one frame in 0.2 s at most
        long_game = GoodTable(port, 99, turn_limit=catch_up_turns, pause_s=0.1)
        async with asyncio.timeout(300):
            await long_game.run(games=1)  # for the resyncer
        finished = long_game.finished[0]
        say(f"a long finished table for the catch-ups: {finished}")
        # games long enough to last the whole bench: the same tables are measured
        # before and after the abuse (a finished table is kept in memory for 5 minutes)
        good = [GoodTable(port, n, turn_limit=good_turns, began=began) for n in range(tables)]
        running = [asyncio.ensure_future(t.run()) for t in good]
        client_lag = LagWatch()
        client_lag.start()
        await asyncio.sleep(5)  # every table seated and moving
        counts = abusers.Counts()
        result: dict = {"tables": tables, "phase_s": phase_s, "allocator": allocator,
                        "pinned": bool(pinned)}  # fmt: skip
        result["phases"] = {}

        async def phase(name: str, *abuse: str) -> None:
            """``phase_s`` of the good tables' moves, while the named abusers run in a
            process of their own (:mod:`.apart`)."""
            child = None
            if abuse:
                started = asyncio.Event()
                child = asyncio.ensure_future(
                    run_apart(port, finished, phase_s, idle, list(abuse), started)
                )
                waiter = asyncio.ensure_future(started.wait())
                await asyncio.wait([child, waiter], return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if child.done():
                    child.result()  # the abusers failed to start: say why
            try:
                start = time.monotonic()
                await asyncio.sleep(phase_s)
                end = time.monotonic()
                if child is not None:
                    for key, n in (await child).items():
                        counts.add(key, n)
            finally:
                if child is not None and not child.done():
                    child.cancel()  # its process is killed (the bench is being stopped)
            timed = [(ms, at) for t in good for at, ms in t.round_trips if start <= at < end]
            trips = [ms for ms, _ in timed]
            figures = {"p99_ms": p99(trips), "moves": len(trips), "rss_mb": round(rss_mb(pid), 1)}
            # the slowest moves and when they were sent (the clock's time of day): what
            # made them slow can be looked for in the server's log (--server-log)
            figures["slowest"] = [[round(ms, 1), _time_of_day(at)] for ms, at in sorted(timed)[-8:]]
            result["phases"][name] = figures
            figures["from_s"] = round(start - began, 1)
            figures["client_lag_ms"] = client_lag.longest_ms(start, end)
            stalls = ""
            if stall_ms:
                figures["server_stalls"] = in_window(log_path.read_text(), start, end)
                stalls = (f"  server's stalls over {stall_ms:g} ms "
                          f"{figures['server_stalls']['count']}, longest "
                          f"{figures['server_stalls']['longest_ms']} ms")  # fmt: skip
            say(f"{name:<12} p99 {figures['p99_ms']:>7} ms  moves {len(trips):>5}  "
                f"server {figures['rss_mb']} MB  from {figures['from_s']} s  "
                f"client's longest delay {figures['client_lag_ms']} ms{stalls}")  # fmt: skip

        baseline_mb = rss_mb(pid)
        probed = {"baseline": await look_inside(pid, report)}
        await phase("alone")
        for name in phases:
            await phase(name, name)
        if len(phases) > 1:
            await phase("all-at-once", *phases)
        peak_mb = max(f["rss_mb"] for f in result["phases"].values())
        await asyncio.sleep(settle_s)
        await phase("after")
        after_mb = rss_mb(pid)
        probed["after"] = await look_inside(pid, report)
        client_lag.stop()
        for t in good:
            t.stopping = True
        await asyncio.wait(running, timeout=15)
        alone = result["phases"]["alone"]["p99_ms"]
        worst = max(f["p99_ms"] for k, f in result["phases"].items() if k not in ("alone", "after"))
        result.update(
            baseline_mb=round(baseline_mb, 1),
            peak_mb=peak_mb,
            after_mb=round(after_mb, 1),
            settle_s=settle_s,
            p99_alone_ms=alone,
            p99_worst_abuse_ms=worst,
            p99_ratio=round(worst / alone, 2) if alone else None,
            memory_back_within_10pct=after_mb <= baseline_mb * 1.10,
            games_finished=sum(t.games for t in good),
            lost={k: sum(t.lost[k] for t in good) for k in ("gaps", "closed", "unanswered")},
            unanswered=[u for t in good for u in t.unanswered],
            closed_codes=[c for t in good for c in t.closed_codes],
            answers=_added(t.answers for t in good),
            abuse=dict(sorted(counts.items())),
            inside=probed,
        )
        result["targets_met"] = bool(
            result["p99_ratio"] is not None
            and result["p99_ratio"] <= 2
            and result["memory_back_within_10pct"]
            and not any(result["lost"].values())
        )
        return result


def main(*, say, **sizes) -> dict:
    """Run :func:`bench`; SIGTERM ends it as SIGINT does (the server is stopped)."""
    result = asyncio.run(_until_terminated(bench(say=say, **sizes)))
    say(f"abuse counts: {result['abuse']}")
    inside = result["inside"]
    if inside.get("after"):
        say(f"inside the server: {inside}")
    say(f"memory: baseline {result['baseline_mb']} MB, peak {result['peak_mb']} MB, "
        f"{result['settle_s']:.0f} s after {result['after_mb']} MB")  # fmt: skip
    say(json.dumps(result))
    return result


async def _until_terminated(work):
    """``work``, cancelled on SIGTERM (its ``finally`` blocks stop the server); then
    :class:`Terminated`."""
    task = asyncio.ensure_future(work)
    loop = asyncio.get_running_loop()
    terminated = []
    loop.add_signal_handler(signal.SIGTERM, lambda: (terminated.append(1), task.cancel()))
    try:
        return await task
    except asyncio.CancelledError:
        if terminated:
            raise Terminated() from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


class Terminated(Exception):
    """The benchmark was stopped by SIGTERM (its server with it)."""
