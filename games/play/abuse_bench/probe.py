"""A look inside the benchmark's server process: where its memory is.

``python -m games.play.abuse_bench.probe REPORT_PATH <daphne arguments>`` runs daphne
(as ``python -m daphne`` would) with a handler for ``SIGUSR1`` that writes a JSON report
to ``REPORT_PATH``: the resident memory; what Python's allocator holds (pymalloc's
arenas, in use and free); what glibc's ``malloc`` holds (in use, free but kept); with
``BENCH_TRACEMALLOC=1`` (``BENCH_TRACEMALLOC_FRAMES``: 1), the bytes that live Python
objects take (tracemalloc), the allocation sites that grew most since the first report
and those with more blocks alive; the live objects counted by type; the CPU seconds
used; the releases of :mod:`games.play.ws_memory`. ``SIGUSR2`` gives freed memory back
(:func:`games.play.ws_memory.release_freed_memory`) and then reports.

The report tells memory still *used* (a leak: tracemalloc and the object counts grow)
from memory *free but kept* (the resident memory stays while the allocators' free bytes
grow).
"""

from __future__ import annotations

import collections
import gc
import json
import os
import re
import signal
import sys
import tempfile
import tracemalloc
from pathlib import Path

from games.play.ws_memory import heap_info

__all__ = ["mallinfo", "pymalloc", "report"]

_first: dict = {}


def mallinfo() -> dict | None:
    """glibc's heap: bytes in use and bytes free but kept (``mallinfo2``), in MB."""
    info = heap_info()
    if info is None:
        return None
    return {
        "heap_mb": round(info.arena / 2**20, 1),
        "in_use_mb": round((info.uordblks + info.hblkhd) / 2**20, 1),
        "free_kept_mb": round(info.fordblks / 2**20, 1),
    }


def pymalloc() -> dict:
    """pymalloc's arenas (``sys._debugmallocstats``): held, and the bytes free in them."""
    with tempfile.TemporaryFile("w+") as out:
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read()

    def number(label: str) -> int:
        found = re.search(rf"^# {label}\s*=\s*([\d,]+)", text, re.M)
        return int(found.group(1).replace(",", "")) if found else 0

    free = sum(
        int(n.replace(",", ""))
        for n in re.findall(r"^(?:\d+ unused pools \* \d+ bytes|# bytes in available blocks"
                            r"|# bytes lost to pool headers|# bytes lost to quantization"
                            r"|# bytes lost to arena alignment)\s*=\s*([\d,]+)", text, re.M)
    )  # fmt: skip
    arena_bytes = re.search(r"^\d+ arenas \* (\d+) bytes/arena", text, re.M)
    arena_size = int(arena_bytes.group(1)) if arena_bytes else 2**20
    return {
        "arenas": number("arenas allocated current"),
        "arenas_highwater": number("arenas highwater mark"),
        "arenas_mb": round(number("arenas allocated current") * arena_size / 2**20, 1),
        "in_use_mb": round(number("bytes in allocated blocks") / 2**20, 1),
        "free_in_arenas_mb": round(free / 2**20, 1),
    }


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _object_counts() -> collections.Counter:
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def _short(frame) -> str:
    return f"{'/'.join(frame.filename.split('/')[-2:])}:{frame.lineno}"


def report(trimmed: bool = False) -> dict:
    freezing = gc.get_freeze_count() > 0  # the served site freezes what survives (gc_tuning)
    gc.unfreeze()
    gc.collect()
    gc.unfreeze()  # gc_tuning's callback froze the survivors again: out of gc.get_objects()
    counts = _object_counts()
    if freezing:
        gc.freeze()
    out: dict = {
        "rss_mb": _rss_mb(),
        "trimmed": trimmed,
        "pymalloc": pymalloc(),
        "malloc": mallinfo(),
        "objects": sum(counts.values()),
        "cpu_s": round(sum(os.times()[:2]), 2),
    }
    guard = sys.modules.get("games.play.ws_guard")
    if guard is not None:
        out["releases"] = guard.CONNECTIONS.releases
    if tracemalloc.is_tracing():
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        out["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
        if "snapshot" in _first:
            group = "traceback" if tracemalloc.get_traceback_limit() > 1 else "lineno"
            out["grown_sites"] = [
                f"{d.size_diff / 1024:+.0f} KiB {d.count_diff:+d} "
                + " < ".join(_short(frame) for frame in reversed(d.traceback))
                for d in snapshot.compare_to(_first["snapshot"], group)[:25]
            ]
            more = [d for d in snapshot.compare_to(_first["snapshot"], group) if d.count_diff > 0]
            more.sort(key=lambda d: -d.count_diff)
            out["more_blocks"] = [
                f"{d.count_diff:+d} blocks {d.size_diff / 1024:+.0f} KiB "
                + " < ".join(_short(frame) for frame in reversed(d.traceback))
                for d in more[:25]
            ]
        else:
            _first["snapshot"] = snapshot
    if "counts" in _first:
        grown = counts - _first["counts"]
        out["grown_objects"] = dict(grown.most_common(12))
    else:
        _first["counts"] = counts
    return out


def _write(path: str, trimmed: bool = False) -> None:
    data = report(trimmed)
    Path(path + ".tmp").write_text(json.dumps(data))
    os.replace(path + ".tmp", path)


def main() -> None:
    path, daphne_args = sys.argv[1], sys.argv[2:]
    if os.environ.get("BENCH_TRACEMALLOC") == "1":
        tracemalloc.start(int(os.environ.get("BENCH_TRACEMALLOC_FRAMES", "1")))
    signal.signal(signal.SIGUSR1, lambda *_: _write(path))
    if os.environ.get("BENCH_STALLS_MS"):
        from .stalls import watch

        watch(float(os.environ["BENCH_STALLS_MS"]))

    def trim(*_) -> None:
        from games.play.ws_memory import release_freed_memory

        release_freed_memory()
        _write(path, trimmed=True)

    signal.signal(signal.SIGUSR2, trim)
    from daphne.cli import CommandLineInterface

    sys.argv = ["daphne", *daphne_args]
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
