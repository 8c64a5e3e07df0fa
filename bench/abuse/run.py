"""The phases of the abuse benchmark: well-behaved tables alone, under each abuser, under
all of them at once and a while after, through the production stack."""

from __future__ import annotations

import asyncio
import collections
import json
import signal
import time
from collections.abc import Awaitable, Callable

from bench.procs import Processes, load_average
from bench.servers import processes_named, production_stack

from . import abusers
from .apart import ABUSERS, run_apart
from .good import GoodTable
from .lag_watch import LagWatch

#: The abuse phases, each alone, in the order they run (then all at once).
ABUSE_PHASES = tuple(ABUSERS)


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1)


def mb(measured: Processes) -> float:
    return round((measured.rss_kb() or 0) / 1024, 1)


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
    port: int,
    tables_measured: Processes,
    proxy_measured: Processes,
    tables: int,
    phase_s: float,
    idle: int,
    settle_s: float,
    say: Callable[[str], None],
    catch_up_turns: int = 200,
    good_turns: int = 1000,
    phases: tuple[str, ...] = ABUSE_PHASES,
) -> dict:
    """The phases against nginx on 127.0.0.1:``port``; ``tables_measured``: the table
    processes, whose memory and CPU share are reported (nginx's: ``proxy_measured``)."""
    began = time.monotonic()
    # paced within the frame rate: each player sends one frame in 0.2 s at most
    long_game = GoodTable(port, 99, turn_limit=catch_up_turns, pause_s=0.1)
    async with asyncio.timeout(300):
        await long_game.run(games=1)  # for the resyncer
    finished = long_game.finished[0]
    say(f"a long finished table for the catch-ups: {finished}")
    # games long enough to last the whole bench: the same tables are measured before
    # and after the abuse (a finished table is kept in memory for a while)
    good = [GoodTable(port, n, turn_limit=good_turns, began=began) for n in range(tables)]
    running = [asyncio.ensure_future(t.run()) for t in good]
    client_lag = LagWatch()
    client_lag.start()
    await asyncio.sleep(5)  # every table seated and moving
    counts = abusers.Counts()
    result: dict = {"tables": tables, "phase_s": phase_s, "phases": {}}

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
            cpu0 = (tables_measured.cpu_seconds(), proxy_measured.cpu_seconds())
            await asyncio.sleep(phase_s)
            end = time.monotonic()
            cpu1 = (tables_measured.cpu_seconds(), proxy_measured.cpu_seconds())
            if child is not None:
                for key, n in (await child).items():
                    counts.add(key, n)
        finally:
            if child is not None and not child.done():
                child.cancel()  # its process is killed (the bench is being stopped)
        timed = [(ms, at) for t in good for at, ms in t.round_trips if start <= at < end]
        trips = [ms for ms, _ in timed]
        figures = {"p99_ms": p99(trips), "moves": len(trips), "rss_mb": mb(tables_measured)}
        # the slowest moves and when they were sent (the clock's time of day), to look
        # for in the stack's logs
        figures["slowest"] = [[round(ms, 1), _time_of_day(at)] for ms, at in sorted(timed)[-8:]]
        figures["from_s"] = round(start - began, 1)
        figures["client_lag_ms"] = client_lag.longest_ms(start, end)
        figures["table_cpu"], figures["nginx_cpu"] = (
            round((b - a) / (end - start), 2) if a is not None and b is not None else None
            for a, b in zip(cpu0, cpu1, strict=True)
        )
        figures["load_average"] = load_average()
        result["phases"][name] = figures
        say(f"{name:<12} p99 {figures['p99_ms']:>7} ms  moves {len(trips):>5}  "
            f"table processes {figures['rss_mb']} MB, CPU {figures['table_cpu']} (nginx "
            f"{figures['nginx_cpu']})  from {figures['from_s']} s  "
            f"client's longest delay {figures['client_lag_ms']} ms  "
            f"load {figures['load_average'][0]}")  # fmt: skip

    baseline_mb = mb(tables_measured)
    await phase("alone")
    for name in phases:
        await phase(name, name)
    if len(phases) > 1:
        await phase("all-at-once", *phases)
    peak_mb = max(f["rss_mb"] for f in result["phases"].values())
    await asyncio.sleep(settle_s)
    await phase("after")
    after_mb = mb(tables_measured)
    client_lag.stop()
    for t in good:
        t.stopping = True
    await asyncio.wait(running, timeout=15)
    alone = result["phases"]["alone"]["p99_ms"]
    worst = max(f["p99_ms"] for k, f in result["phases"].items() if k not in ("alone", "after"))
    result.update(
        baseline_mb=baseline_mb,
        peak_mb=peak_mb,
        after_mb=after_mb,
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
    )
    result["targets_met"] = bool(
        result["p99_ratio"] is not None
        and result["p99_ratio"] <= 2
        and result["memory_back_within_10pct"]
        and not any(result["lost"].values())
    )
    return result


class Terminated(Exception):
    """The benchmark was stopped by SIGTERM (its stack with it)."""


def _terminate(*_) -> None:
    raise Terminated()


async def _until_terminated(work: Awaitable[dict]) -> dict:
    """``work``, ended by SIGTERM as :class:`Terminated`. Inside the event loop the
    signal cancels the work through the loop: raised from a plain signal handler, the
    exception could land in one of the loop's callbacks, which logs it and goes on."""
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(work)
    terminated = []

    def stop(signum: int) -> None:
        terminated.append(signum)
        task.cancel()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop, signum)
    try:
        return await task
    except asyncio.CancelledError:
        if terminated and terminated[0] == signal.SIGINT:
            raise KeyboardInterrupt() from None
        if terminated:
            raise Terminated() from None
        raise
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
        signal.signal(signal.SIGTERM, _terminate)  # the stack's stop, after the loop
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main(*, say: Callable[[str], None], table_processes: int = 2, **sizes) -> dict:
    """Start the stack, run :func:`bench` against it, stop the stack; SIGTERM ends it
    as SIGINT does (:class:`Terminated`, the stack stopped on the way out)."""
    signal.signal(signal.SIGTERM, _terminate)
    load_before = load_average()
    with production_stack(table_processes=table_processes) as stack:
        measured = processes_named(stack, "table")
        pids = [p.pid for n, p in stack.processes.items() if n.startswith("table")]
        say(f"stack at {stack.url}, table process pids {pids}")
        result = asyncio.run(
            _until_terminated(
                bench(
                    port=stack.port,
                    tables_measured=measured,
                    proxy_measured=processes_named(stack, "nginx"),
                    say=say,
                    **sizes,
                )
            )
        )
    result["table_processes"] = table_processes
    result["load_average"] = {"before": load_before, "after": load_average()}
    say(f"abuse counts: {result['abuse']}")
    say(
        f"table processes' memory: baseline {result['baseline_mb']} MB, peak "
        f"{result['peak_mb']} MB, {result['settle_s']:.0f} s after {result['after_mb']} MB"
    )
    say(json.dumps(result))
    return result
