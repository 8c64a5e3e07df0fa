"""What held the server's loop when it stalled (``BENCH_STALLS_MS``, in :mod:`.probe`).

A table's move that comes back late was held up by something in the server's one loop;
the client only sees that it was late. Here every callback the loop runs is timed, and a
timer of the reactor beats every millisecond: when a beat comes more than the threshold
late, one line goes to the server's output: when it began (the system's monotonic clock,
which the benchmark shares, then the time of day), how long, and the
callbacks that ran since the beat before, longest first (what each was: a socket's
protocol read or written, a task's coroutine, a function), and how long the loop waited
in ``select`` meanwhile, and the processor time its own thread and the process's
other threads used (a stall spent "in select" while the other threads were busy is the
loop waiting for the interpreter, or the core, that another thread held).

Timing each callback costs two clock reads; the beat, a thousand timers a second: for
finding stalls, not for the benchmark's figures.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import selectors
import sys
import threading
import time

__all__ = ["in_window", "watch"]


def _name(function) -> str:
    return getattr(function, "__qualname__", None) or type(function).__name__


def _protocol_before(handle) -> type | None:
    """For Twisted's read or write of a socket (``callWithLogger(logger, _readOrWrite,
    selectable, read)``): the protocol's class before the callback runs (a handshake's
    read hands the socket from daphne's HTTP protocol to its WebSocket protocol)."""
    args = getattr(handle, "_args", None)
    if args and len(args) == 4:
        return type(getattr(args[2], "protocol", args[2]))
    return None


def _what(handle, protocol: type | None) -> str:
    """A short name for what a loop's callback does (``protocol``: the socket's protocol
    class when the callback began, for a Twisted read or write)."""
    callback = getattr(handle, "_callback", None)
    args = getattr(handle, "_args", ()) or ()
    name = _name(callback)
    if name == "callWithLogger" and len(args) >= 4:  # Twisted: (logger, function, *its args)
        callback, args = args[1], args[2:]
        name = _name(callback)
    if name.endswith("_readOrWrite") and args:
        selectable, read = args[0], args[1]
        protocol = protocol or type(getattr(selectable, "protocol", selectable))
        return f"{'read' if read else 'write'} {protocol.__name__}"
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return f"task {getattr(coro, '__qualname__', coro)}"
    if isinstance(owner, asyncio.Future):
        return f"future {name}"
    return name


def watch(threshold_ms: float, out=sys.stderr) -> None:
    """Time the loop's callbacks and report each stall over ``threshold_ms``."""
    ran: list[tuple[float, str]] = []
    waited = [0.0]
    run = asyncio.events.Handle._run

    def timed_run(self):
        protocol = _protocol_before(self)
        began = time.perf_counter()
        try:
            return run(self)
        finally:
            took = time.perf_counter() - began
            if took > 0.0002:
                ran.append((took, _what(self, protocol)))

    asyncio.events.Handle._run = timed_run
    select = selectors.EpollSelector.select

    def timed_select(self, timeout=None):
        began = time.perf_counter()
        try:
            return select(self, timeout)
        finally:
            waited[0] += time.perf_counter() - began

    selectors.EpollSelector.select = timed_select
    last = [0.0]
    cpu = [0.0, 0.0]  # at the last beat: the process's CPU time, the loop thread's
    limit = threshold_ms / 1000

    def beating() -> None:
        from twisted.internet import reactor

        now = time.monotonic()
        gap = now - last[0]
        process_cpu, loop_cpu = time.process_time(), time.thread_time()
        if last[0] and gap - 0.001 > limit:
            wall = time.time() - gap
            stamp = time.strftime("%H:%M:%S", time.localtime(wall)) + f"{wall % 1:.3f}"[1:]
            ran.sort(reverse=True)
            busy = sum(t for t, _ in ran)
            top = ", ".join(f"{t * 1000:.1f} {w}" for t, w in ran[:8])
            print(
                f"stall {last[0]:.4f} {stamp} {gap * 1000:.1f} ms (callbacks {busy * 1000:.1f}, "
                f"{len(ran)} over 0.2 ms; select {waited[0] * 1000:.1f}; CPU: loop "
                f"{(loop_cpu - cpu[1]) * 1000:.1f}, other threads "
                f"{(process_cpu - cpu[0] - loop_cpu + cpu[1]) * 1000:.1f}): {top}",
                file=out, flush=True,
            )  # fmt: skip
        ran.clear()
        waited[0] = 0.0
        cpu[:] = [time.process_time(), time.thread_time()]
        last[0] = time.monotonic()
        reactor.callLater(0.001, beating)

    def wait_for_reactor() -> None:
        while "twisted.internet.reactor" not in sys.modules:
            time.sleep(0.05)
        from twisted.internet import reactor

        while not reactor.running:
            time.sleep(0.05)
        reactor.callFromThread(beating)

    # daphne installs the reactor as it starts: a thread waits for it to run
    threading.Thread(target=wait_for_reactor, name="stall-watch", daemon=True).start()


def in_window(log_text: str, start: float, end: float) -> dict:
    """The stalls a server's output reports that began between ``start`` and ``end``
    (monotonic seconds): how many, and the longest (ms)."""
    lengths = []
    for line in log_text.splitlines():
        parts = line.split()
        if len(parts) > 4 and parts[0] == "stall" and parts[4] == "ms":
            began, length = float(parts[1]), float(parts[3])
            if start <= began < end:
                lengths.append(length)
    return {"count": len(lengths), "longest_ms": max(lengths, default=0.0)}
