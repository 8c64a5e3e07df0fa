"""The benchmark client's own delays: a round trip measured by a client that was itself
held up (its garbage collection, another process on its core) is not the server's.

A task wakes every :data:`TICK_S` and keeps each wake-up later than
:data:`LATE_MS` (when, by how much); each phase reports its client's longest delay, so a
slow phase whose slow moves coincide with the client's delays is told apart."""

from __future__ import annotations

import asyncio
import time

#: How often the watch wakes.
TICK_S = 0.002
#: A wake-up this much later than asked is kept.
LATE_MS = 1.0


class LagWatch:
    def __init__(self) -> None:
        self.late: list[tuple[float, float]] = []  # (when, ms late)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._watch())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _watch(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(TICK_S)
            late_ms = (time.monotonic() - asked - TICK_S) * 1000
            if late_ms > LATE_MS:
                self.late.append((asked, late_ms))

    def longest_ms(self, start: float, end: float) -> float:
        """The longest delay of the client between ``start`` and ``end``."""
        return round(max((ms for at, ms in self.late if start <= at < end), default=0.0), 1)
