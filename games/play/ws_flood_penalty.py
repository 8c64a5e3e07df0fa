"""An address whose WebSocket was closed for flooding waits before its next one is served.

A flooder closed with 4429 may come straight back, and each new connection costs the
server a handshake, a welcome and the frames within the budget, work that holds the
other tables' moves. Here, after a flood
close, that address's next WebSocket handshakes are answered only after a wait of
``WS_FLOOD_PENALTY_S``, doubled for each further flood close within
:data:`STRIKES_WINDOW_S` (at most ``WS_FLOOD_PENALTY_MAX_S``), and spaced by that much
one after the other; a handshake that would have to wait longer than that is refused
at once (the client sees the handshake fail, as for a server that is down, and tries
again later). The waiting handshakes cost a sleeping task each, no reading and no work.

Everyone behind one address shares it (a school's network): while one of them floods,
the others' *new* WebSockets from that address wait too (their open ones, and every
page, are not touched). An address is forgiven :data:`STRIKES_WINDOW_S` after its last
flood close.
"""

from __future__ import annotations

import collections
import time

__all__ = ["ADDRESSES_KEPT", "FloodPenalties", "STRIKES_WINDOW_S"]

#: Flood closes of one address within this long count together (the wait doubles).
STRIKES_WINDOW_S = 60.0
#: The most addresses remembered (the oldest are forgotten first).
ADDRESSES_KEPT = 10_000


class _Penalty:
    __slots__ = ("strikes", "last_strike", "wait", "next_at")

    def __init__(self) -> None:
        self.strikes = 0
        self.last_strike = float("-inf")
        self.wait = 0.0  # the wait between this address's handshakes now
        self.next_at = 0.0  # the earliest time its next handshake is answered


class FloodPenalties:
    """Per address: flood closes, and when its next WebSocket may be served."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._addresses: collections.OrderedDict[str, _Penalty] = collections.OrderedDict()

    def flooded(self, address: str, first_s: float, most_s: float) -> None:
        """A WebSocket of ``address`` was closed for flooding: its next ones wait
        ``first_s``, doubled for each flood close within the window, ``most_s`` at most."""
        if first_s <= 0:
            return
        now = self.clock()
        penalty = self._addresses.pop(address, None) or _Penalty()
        self._addresses[address] = penalty  # the most recent last
        if now - penalty.last_strike > STRIKES_WINDOW_S:
            penalty.strikes = 0
        penalty.strikes += 1
        penalty.last_strike = now
        penalty.wait = min(first_s * 2 ** (penalty.strikes - 1), most_s)
        penalty.next_at = max(penalty.next_at, now + penalty.wait)
        self._forget_old(now)

    def wait_before(self, address: str, most_s: float) -> float | None:
        """How long a new WebSocket of ``address`` waits before it is served (0: at
        once); None: it would wait over ``most_s``, and is refused now. A handshake let
        through books the next one's turn, the address's wait later."""
        penalty = self._addresses.get(address)
        if penalty is None:
            return 0.0
        now = self.clock()
        if now - penalty.last_strike > STRIKES_WINDOW_S:
            del self._addresses[address]  # forgiven
            return 0.0
        wait = max(0.0, penalty.next_at - now)
        if wait > most_s + 1e-6:
            return None
        penalty.next_at = now + wait + penalty.wait
        return wait

    def _forget_old(self, now: float) -> None:
        while self._addresses:
            address, oldest = next(iter(self._addresses.items()))
            if len(self._addresses) <= ADDRESSES_KEPT and (
                now - oldest.last_strike <= STRIKES_WINDOW_S
            ):
                break
            del self._addresses[address]
