"""How long another thread may keep the interpreter from the tables' loop (issue 14;
called by snapsite/asgi.py).

The server runs the tables on one loop, and Python work on other threads: the database
thread that reads a catch-up's events (and, on PostgreSQL, stores each step), Django's
views. Only one thread runs Python at a time (the GIL): the loop, woken by a move while
another thread is in Python, waits until that thread is made to let go, after Python's
switch interval, 5 ms by default. ``THREAD_SWITCH_INTERVAL_MS`` (1) makes that 1 ms.

Measured (a loop timing 1 ms sleeps while a thread computes in Python, 2 cores): the
p99 of the sleeps' lateness 4.1-4.2 ms with 5 ms, 1.3-2.6 ms with 1 ms. On one core the
kernel also lets the busy thread run out its time slice first, and neither this nor a
lower priority (nice) for the other thread helped there (still up to 5 ms late): so the
other threads' work is kept short instead (a catch-up is read in slices:
``games.tables.table_events_since``). The cost of 1 ms is more switches while two
threads both want to run, each a few microseconds. 0 leaves Python's default.
"""

from __future__ import annotations

import sys

__all__ = ["install"]


def install(interval_ms: float) -> None:
    """Set Python's switch interval to ``interval_ms`` (0: leave it as it is)."""
    if interval_ms > 0:
        sys.setswitchinterval(interval_ms / 1000)
