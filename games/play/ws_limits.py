"""The budgets of one WebSocket connection (docs/protocol.md, "Limits").

A :class:`Budget` is a token bucket: ``burst`` units at once, ``per_second`` units
refilled each second. Frames cost one unit each; a catch-up costs one unit per event
it sends.
"""

from __future__ import annotations

import time

__all__ = ["Budget", "frame_budget", "catch_up_budget"]

#: Frames: 20 at once, 10 a second on average.
FRAME_BURST = 20
FRAMES_PER_SECOND = 10.0


class Budget:
    """A token bucket.

    >>> bucket = Budget(burst=2, per_second=1.0)
    >>> [bucket.take(now=0.0) for _ in range(3)], bucket.take(now=1.0)
    ([True, True, False], True)
    >>> bucket.left(now=1.0), bucket.take(5, now=1.0)
    (0, False)
    """

    def __init__(self, burst: float, per_second: float) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.at: float | None = None

    def _refill(self, now: float | None) -> None:
        now = time.monotonic() if now is None else now
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now

    def left(self, now: float | None = None) -> int:
        """The whole units that can be taken now."""
        self._refill(now)
        return int(self.tokens)

    def take(self, cost: int = 1, now: float | None = None) -> bool:
        """Take ``cost`` units if there are that many (True), else take nothing."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


def frame_budget() -> Budget:
    return Budget(FRAME_BURST, FRAMES_PER_SECOND)


def catch_up_budget(events_per_minute: int) -> Budget:
    """Events a connection may be sent again (catch-up) per minute, all at once at most."""
    return Budget(events_per_minute, events_per_minute / 60.0)
