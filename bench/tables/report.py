"""A run's figures: what the benchmark prints, and whether a run held the target."""

from __future__ import annotations

import threading
import time

from bench.procs import load_average
from bench.stats import ms, percentile

from .players import Measures

#: The most flip->reveal p99 may reach for a number of tables to count as held.
HELD_P99_MS = 100.0


class ServerWatch:
    """Samples the server processes' memory while a run plays (``served``: a
    :class:`bench.procs.Processes`): the peak above the start, and their CPU share
    over the run (1.0: one core busy)."""

    def __init__(self, served) -> None:
        self.served = served
        self.base_kb = served.rss_kb() if served else None
        self.peak_kb = self.base_kb
        self.opened_kb: int | None = None  # once the tables are opened (their pages)
        self.live_peak_kb: int | None = None  # the peak since then
        self.cpu0 = served.cpu_seconds() if served else None
        self.t0 = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> ServerWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.elapsed = time.monotonic() - self.t0
        if self.served:
            self.cpu = (self.served.cpu_seconds() - self.cpu0) / self.elapsed

    def opened(self) -> None:
        """The tables are opened (every player loaded its page): from here on the
        memory that grows is the live tables' (connections, owners, play), not the
        HTTP requests')."""
        rss = self.served.rss_kb() if self.served else None
        self.opened_kb = self.live_peak_kb = rss

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            rss = self.served.rss_kb() if self.served else None
            if rss is not None:
                self.peak_kb = max(self.peak_kb or 0, rss)
                if self.opened_kb is not None:
                    self.live_peak_kb = max(self.live_peak_kb or 0, rss)


def figures(m: Measures, *, kind: str, server: str, tables: int, seconds: float,
            pace_ms: int, watch: ServerWatch, client_cpu: float,
            processes: int = 1, proxy_cpu: float | None = None) -> dict:  # fmt: skip
    served = watch.served is not None
    per_table = (
        round((watch.peak_kb - watch.base_kb) / tables, 1)
        if served and tables and watch.base_kb is not None else None
    )  # fmt: skip
    per_live_table = (
        round((watch.live_peak_kb - watch.opened_kb) / tables, 1)
        if tables and watch.opened_kb is not None and watch.live_peak_kb is not None
        else None
    )
    return {
        "kind": kind,
        "server": server,
        "processes": processes,
        "tables": tables,
        "seconds": seconds,
        "pace_ms": pace_ms,
        "flip_reveal_p50_ms": ms(percentile(m.flip_reveal, 50)),
        "flip_reveal_p99_ms": ms(percentile(m.flip_reveal, 99)),
        "reveal_skew_p99_ms": ms(percentile(m.skew, 99)),
        "call_result_p99_ms": ms(percentile(m.call_result, 99)),
        "echo_p99_ms": ms(percentile(m.echo, 99)),
        "frames_per_s": round(m.frames / seconds, 1),
        "errors": sum(m.errors.values()),
        "error_codes": dict(m.errors),
        "lost": m.lost,
        "cut_at_end": m.cut_at_end,
        "duplicated": m.duplicated,
        "out_of_order": m.out_of_order,
        "samples": len(m.flip_reveal),
        "games_over": m.games_over,
        "server_rss_kb_per_table": per_table,
        "server_rss_kb_per_live_table": per_live_table,
        "server_cpu": round(watch.cpu, 3) if served else None,
        # the tables one core of the server would hold at this pace, by CPU time alone:
        # steadier than a latency on a shared machine, whose other processes delay
        # every frame without taking the server's CPU time
        "tables_per_core": round(tables / watch.cpu) if served and watch.cpu > 0 else None,
        "proxy_cpu": proxy_cpu,
        "client_cpu": round(client_cpu, 3),
        "load_average": load_average(),
    }


def held(f: dict) -> bool:
    """Flip->reveal p99 within the target, nothing lost, duplicated or reordered, and
    no client failed."""
    p99 = f["flip_reveal_p99_ms"]
    failed = any(code.startswith("client:") for code in f["error_codes"])
    return (
        p99 is not None and p99 <= HELD_P99_MS and not failed
        and f["lost"] == f["cut_at_end"] == f["duplicated"] == f["out_of_order"] == 0
    )  # fmt: skip


def line(f: dict) -> str:
    """One readable line of a run's figures."""
    return (
        f"{f['kind']} on {f['server']}"
        + (f" x {f['processes']} table processes" if f["kind"] == "site" else "")
        + f": {f['tables']} tables x 4, pace {f['pace_ms']} ms, "
        f"{f['seconds']} s: flip->reveal p50 {f['flip_reveal_p50_ms']} ms p99 "
        f"{f['flip_reveal_p99_ms']} ms, skew p99 {f['reveal_skew_p99_ms']} ms, call->result "
        f"p99 {f['call_result_p99_ms']} ms, echo p99 {f['echo_p99_ms']} ms, "
        f"{f['frames_per_s']} frames/s, {f['tables_per_core']} tables/core by CPU, "
        f"errors {f['errors']} {f['error_codes'] or ''}, "
        f"lost {f['lost']} cut {f['cut_at_end']} dup {f['duplicated']} "
        f"ooo {f['out_of_order']}, "
        f"RSS/table {f['server_rss_kb_per_table']} kB "
        f"(live {f['server_rss_kb_per_live_table']} kB), server CPU {f['server_cpu']}, "
        f"nginx CPU {f['proxy_cpu']}, "
        f"client CPU {f['client_cpu']}, load {f['load_average']}"
    )
