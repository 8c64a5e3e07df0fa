"""Running a coroutine in an event loop of its own, on a thread of its own.

After a browser test, Playwright's sync API leaves its loop marked as running on the main
thread, so ``asyncio.run`` there raises "cannot be called from a running event loop"
(tests that pass alone then fail in the whole suite)."""

from __future__ import annotations

import asyncio
import functools
import threading


def run_in_own_loop(coroutine, timeout: float = 30):
    """``asyncio.run(coroutine)`` on a fresh thread; its result, or its exception."""
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["result"] = asyncio.run(coroutine)
        except BaseException as error:  # raised again on the test's own thread
            outcome["error"] = error

    worker = threading.Thread(target=target)
    worker.start()
    worker.join(timeout=timeout)
    assert not worker.is_alive(), "the coroutine's loop did not finish"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("result")


def in_own_loop(test):
    """An async test run by :func:`run_in_own_loop`."""

    @functools.wraps(test)
    def run() -> None:
        run_in_own_loop(test())

    return run
