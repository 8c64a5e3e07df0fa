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
cache is cleared, a full collection is made, and glibc's ``malloc_trim`` gives every
free page back. With ``PYTHONMALLOC=malloc`` (README, "Running in production") nearly
all of it comes back; with Python's own small-object allocator part of it stays in
arenas that a few live objects still hold.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import sys
import time

__all__ = ["ConnectionCount", "release_freed_memory"]

log = logging.getLogger(__name__)

#: Connections closed since the peak that make a wave.
RELEASE_AFTER_CLOSED = 200
#: The release waits for this long without a close ...
QUIET_S = 2.0
#: ... but no longer than this after the wave passed RELEASE_AFTER_CLOSED.
MAX_WAIT_S = 10.0

try:
    _libc = ctypes.CDLL("libc.so.6")
    _malloc_trim = _libc.malloc_trim
except (OSError, AttributeError):  # not glibc
    _malloc_trim = None


def _rss_kb() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4
    except OSError:
        return 0


def release_freed_memory() -> int:
    """Give the memory of freed objects back to the system; the kB given back."""
    before = _rss_kb()
    started = time.monotonic()
    if hasattr(sys, "_clear_type_cache"):
        sys._clear_type_cache()
    gc.collect()
    if _malloc_trim is not None:
        _malloc_trim(0)
    given = before - _rss_kb()
    log.info(
        "gave back %d kB of freed memory in %.0f ms", given, (time.monotonic() - started) * 1000
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

    def opened(self) -> None:
        self.open += 1
        self.peak = max(self.peak, self.open)

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
        self._release()
