"""The phases of the abuse benchmark (see the package docstring)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable

from . import abusers
from .good import GoodTable
from .server import rss_mb, served


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1)


async def bench(
    *, tables: int, phase_s: float, idle: int, settle_s: float, say: Callable[[str], None]
) -> dict:
    with served() as (port, pid):
        long_game = GoodTable(port, 99, turn_limit=200, pause_s=0.0)
        await asyncio.wait_for(long_game.run(games=1), 300)  # for the resyncer
        finished = long_game.finished[0]
        say(f"a long finished table for the catch-ups: {finished}")
        good = [GoodTable(port, n) for n in range(tables)]
        running = [asyncio.ensure_future(t.run()) for t in good]
        await asyncio.sleep(5)  # every table seated and moving
        counts = abusers.Counts()
        result: dict = {"tables": tables, "phase_s": phase_s, "phases": {}}

        async def phase(name: str, *abuse) -> None:
            tasks = [asyncio.ensure_future(a) for a in abuse]
            start = time.monotonic()
            await asyncio.sleep(phase_s)
            end = time.monotonic()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            trips = [ms for t in good for at, ms in t.round_trips if start <= at < end]
            figures = {"p99_ms": p99(trips), "moves": len(trips), "rss_mb": round(rss_mb(pid), 1)}
            result["phases"][name] = figures
            say(f"{name:<12} p99 {figures['p99_ms']:>7} ms  moves {len(trips):>5}  "
                f"server {figures['rss_mb']} MB")  # fmt: skip

        baseline_mb = rss_mb(pid)
        await phase("alone")
        await phase("flood", abusers.flooder(port, finished, counts))
        await phase("resync", abusers.resyncer(port, finished, counts))
        await phase("never-read", abusers.sleeper(port, finished, counts))
        await phase("idle-sockets", abusers.idle_sockets(port, finished, counts, idle))
        await phase(
            "all-at-once",
            abusers.flooder(port, finished, counts),
            abusers.resyncer(port, finished, counts),
            abusers.sleeper(port, finished, counts),
            abusers.idle_sockets(port, finished, counts, idle),
        )
        peak_mb = max(f["rss_mb"] for f in result["phases"].values())
        await asyncio.sleep(settle_s)
        await phase("after")
        after_mb = rss_mb(pid)
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
            abuse=dict(sorted(counts.items())),
        )
        result["targets_met"] = bool(
            result["p99_ratio"] is not None
            and result["p99_ratio"] <= 2
            and result["memory_back_within_10pct"]
            and not any(result["lost"].values())
        )
        return result


def main(*, tables: int, phase_s: float, idle: int, settle_s: float, say) -> dict:
    result = asyncio.run(
        bench(tables=tables, phase_s=phase_s, idle=idle, settle_s=settle_s, say=say)
    )
    say(f"abuse counts: {result['abuse']}")
    say(f"memory: baseline {result['baseline_mb']} MB, peak {result['peak_mb']} MB, "
        f"{settle_s:.0f} s after {result['after_mb']} MB")  # fmt: skip
    say(json.dumps(result))
    return result
