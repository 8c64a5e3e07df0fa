"""Memory given back after a wave of WebSockets has closed.

A thousand sockets that connect at once and are then closed (the hello timeout, a
classroom leaving) cost the server about 40 MB while they are open. Once they have gone
their objects are freed (tracemalloc and the object counts are back where they were:
``python -m games.play.abuse_bench.probe`` shows it), but the process keeps the memory:

- CPython's type attribute cache keeps the last attribute names looked up (handler
  names such as ``websocket_receive`` are new strings per message), each pinning the
  memory around it;
- the C allocator keeps freed memory for later instead of giving it to the system.

So when at least :data:`RELEASE_AFTER_CLOSED` connections have closed since the most
that were open, :func:`release_freed_memory` runs once the closing has been quiet for
:data:`QUIET_S` (at most :data:`MAX_WAIT_S` after the wave passed that count): the type
cache is cleared, a full collection is made (only once few connections are still
open: :data:`COLLECT_AT_MOST_OPEN`), and glibc's ``malloc_trim`` gives every free page
back. With ``PYTHONMALLOC=malloc`` (README, "Running in production") nearly all of it
comes back; with Python's own small-object allocator part of it stays in arenas that a
few live objects still hold. A closed connection leaves no reference cycle
(:mod:`snapsite.daphne_cycles`), so the collection finds little garbage (3,000 objects
after a wave of 1,000), but it also empties the interpreter's free lists, and without it
the memory a minute after bench_abuse was 11-15 % above the start instead of 2-5 %.
It walks every object alive, though: 140-200 ms with 1,000 sockets still open (a wave
released halfway, every table waiting), about 12 ms once they have gone. So a release
while more than :data:`COLLECT_AT_MOST_OPEN` connections are open only trims, and the
rest of the wave, once closed, makes the next release.

Memory freed outside such waves (a flood's frames, long catch-ups) is looked at every
:data:`TRIM_EVERY_S`: when the resident memory has grown by :data:`TRIM_GROWN_KB` since,
what glibc keeps free is given back (``malloc_trim`` alone, a few ms). The same regular look calls
``ConnectionCount.regular_looks`` (``snapsite/asgi.py`` adds the hourly full collection
of :mod:`snapsite.gc_tuning`).
"""

from __future__ import annotations

import ctypes
import gc
import logging
import sys
import time

__all__ = ["ConnectionCount", "release_freed_memory", "trim_if_grown"]

log = logging.getLogger(__name__)

#: A release collects only when at most this many connections are open (see above).
COLLECT_AT_MOST_OPEN = 300
#: Connections closed since the peak that make a wave.
RELEASE_AFTER_CLOSED = 200
#: The release waits for this long without a close ...
QUIET_S = 2.0
#: ... but no longer than this after the wave passed RELEASE_AFTER_CLOSED.
MAX_WAIT_S = 10.0

#: Every this often, the resident memory is looked at ...
TRIM_EVERY_S = 30.0
#: ... and what glibc keeps free is given back (no collection: a few ms) when it has
#: grown by this much since the last time.
TRIM_GROWN_KB = 4096

try:
    _libc = ctypes.CDLL("libc.so.6")
    _malloc_trim = _libc.malloc_trim
except (OSError, AttributeError):  # not glibc
    _libc = _malloc_trim = None


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
            "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def heap_info() -> _Mallinfo2 | None:
    """glibc's account of its heap (``mallinfo2``); None if it cannot say."""
    if _libc is None or not hasattr(_libc, "mallinfo2"):
        return None
    _libc.mallinfo2.restype = _Mallinfo2
    return _libc.mallinfo2()


def trim_if_grown(since_kb: int = 0) -> int | None:
    """Give back what glibc keeps free when the resident memory has grown by
    TRIM_GROWN_KB since ``since_kb`` (memory freed outside a wave of closes: a flood's
    frames, long catch-ups); the resident kB after, or None when nothing was done.

    It does not first ask glibc how much it keeps free: ``mallinfo2`` walks the whole
    heap, 4-7 ms in bench_abuse's server, more than the ``malloc_trim`` (about 3 ms) it
    would have decided on, and every 30 s a stall the tables' moves waited behind."""
    rss = _rss_kb()
    if _malloc_trim is None or rss - since_kb < TRIM_GROWN_KB:
        return None
    started = time.monotonic()
    _malloc_trim(0)
    after = _rss_kb()
    log.info(
        "gave back %d kB kept free by malloc in %.0f ms",
        rss - after,
        (time.monotonic() - started) * 1000,
    )
    return after


def _rss_kb() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4
    except OSError:
        return 0


def release_freed_memory(collect: bool = True) -> int:
    """Give the memory of freed objects back to the system (after a full collection,
    with ``collect``); the kB given back."""
    before = _rss_kb()
    started = time.monotonic()
    if hasattr(sys, "_clear_type_cache"):
        sys._clear_type_cache()
    if collect:
        gc.collect()
    if _malloc_trim is not None:
        _malloc_trim(0)
    given = before - _rss_kb()
    log.info(
        "gave back %d kB of freed memory in %.0f ms (collected: %s)",
        given,
        (time.monotonic() - started) * 1000,
        collect,
    )
    return given


class ConnectionCount:
    """The WebSockets open in this process, and the release after a wave of closes."""

    def __init__(self, loop_time=time.monotonic, release=release_freed_memory) -> None:
        self.open = 0
        self.peak = 0  # the most open since the last release
        self.releases = 0
        self._time = loop_time
        self._release = release
        self._timer = None
        self._wave_at: float | None = None  # when the closes passed the count
        self._trimmer = None  # the regular look at what glibc keeps free
        self._trimmed_kb = 0  # the resident memory after the last trim
        self.regular_looks: list = []  # also called every TRIM_EVERY_S

    def opened(self, loop=None) -> None:
        self.open += 1
        self.peak = max(self.peak, self.open)
        if loop is not None and self._trimmer is None:
            self._trimmer = loop.call_later(TRIM_EVERY_S, self._trim_regularly, loop)

    def _trim_regularly(self, loop) -> None:
        for look in self.regular_looks:
            look()
        after = trim_if_grown(self._trimmed_kb)
        if after is not None:
            self._trimmed_kb = after
        self._trimmer = loop.call_later(TRIM_EVERY_S, self._trim_regularly, loop)

    def closed(self, loop) -> None:
        self.open -= 1
        if self.peak - self.open < RELEASE_AFTER_CLOSED:
            return
        now = self._time()
        if self._wave_at is None:
            self._wave_at = now
        if self._timer is not None:
            self._timer.cancel()
        delay = max(0.0, min(QUIET_S, self._wave_at + MAX_WAIT_S - now))
        self._timer = loop.call_later(delay, self.release)

    def release(self) -> None:
        self._timer = None
        self._wave_at = None
        self.peak = self.open
        self.releases += 1
        self._release(collect=self.open <= COLLECT_AT_MOST_OPEN)
        self._trimmed_kb = _rss_kb()
