"""New connections take turns with the tables (daphne; issue 14, "idle sockets").

daphne accepts every waiting connection in one go and parses each one's request in
the next turn of its loop: 50 sockets opened at once meant about 100 ms in which no
table's card was sent (a handshake costs about 2 ms of HTTP parsing, autobahn and
Channels). Here at most :data:`NEW_PER_TURN` new connections are read in a turn of
the loop; the others wait, unread, in their sockets (the kernel's buffers, no work in
this process) and are let in, a few each turn, taking turns between the addresses
they come from, so one address opening a thousand sockets does not hold back
another's one. A connection that would wait behind more than :data:`WAITING_PER_ADDRESS`
of its address's, or :data:`WAITING_MAX` in all, is closed at once (the client sees
the connection reset and tries again: the Play page does, after a pause).

New connections are also let in at most :data:`NEW_PER_SECOND` a second, in bursts of
:data:`NEW_BURST` (a token bucket): 2,000 sockets opened at once kept the loop full
for half a second, and the GIL with it, so the database thread that stores each
table's step waited for it at every call (moves 150 ms late, bench_abuse's idle
phase); their hello timeouts then closed them all in the same half second. Spread,
they cost a few per cent. The burst is small (8) because the connections let in
together send their requests together: their reads then come in the same turn of the
loop, whatever :data:`NEW_PER_TURN` says (it counts the connections let in, a turn
before their requests are read). With a burst of 40, bench_abuse's all-at-once phase
began with 42 handshakes read in one turn, 21.6 ms in which no table's card was sent.

When the loop is busy (its turn came more than :data:`BUSY_LAG_S` late: the tables,
or the handshakes already let in, fill it), one connection is let in every
:data:`BUSY_PAUSE_S` only, until it is quick again: a burst of sockets then costs the
tables a fifth of the loop at most (a handshake takes about 2 ms), and is let in as
fast as the loop allows once it has time.

Taking connections from the kernel's queue costs too: Twisted accepts all that wait in
one go (up to 100, more as it finds more), and each ``accept()`` with its transport and
protocol took 0.2-0.5 ms of the loop here, so 50 sockets opened at once held it 10-25 ms
before any was read. (The longer waits inside ``accept()`` itself were the table of open
files growing: :mod:`snapsite.fd_table`.) At most :data:`ACCEPT_PER_TURN` are accepted
in a turn; the others stay in the kernel's queue (daphne's listening backlog, 50; beyond
it the kernel makes a new connection try again, as it did before) and are accepted in
the next turns, at thousands a second while the loop is free.

Behind a proxy every connection comes from the proxy's address: they still take turns
with the tables, but not between people. :func:`install` (snapsite/asgi.py) puts this
in front of daphne's HTTP factory; under another server it does nothing.
"""

from __future__ import annotations

import collections
import logging
import time

__all__ = [
    "ACCEPT_PER_TURN", "Admission", "accept_at_most", "install", "BUSY_LAG_S", "BUSY_PAUSE_S",
    "NEW_BURST", "NEW_PER_SECOND", "NEW_PER_TURN", "WAITING_MAX", "WAITING_PER_ADDRESS",
]  # fmt: skip

log = logging.getLogger(__name__)

#: Connections taken from the kernel's queue in one turn of the loop
#: (``CONNECTIONS_ACCEPT_PER_TURN``).
ACCEPT_PER_TURN = 4
#: New connections read in one turn of the loop (``CONNECTIONS_NEW_PER_TURN``).
NEW_PER_TURN = 4
#: Connections of one address waiting to be read; more are closed at once
#: (``CONNECTIONS_WAITING_PER_ADDRESS``).
WAITING_PER_ADDRESS = 500
#: Connections waiting to be read in all; more are closed at once
#: (``CONNECTIONS_WAITING_MAX``).
WAITING_MAX = 5000
#: New connections read in a second, at most (``CONNECTIONS_NEW_PER_SECOND``).
NEW_PER_SECOND = 200
#: ...of which at most this many at once (``CONNECTIONS_NEW_BURST``).
NEW_BURST = 8
#: A turn of the loop this late is a busy loop (``CONNECTIONS_BUSY_LAG_MS``).
BUSY_LAG_S = 0.005
#: While the loop is busy, one new connection is read in this long
#: (``CONNECTIONS_BUSY_PAUSE_MS``).
BUSY_PAUSE_S = 0.010


class Admission:
    """Which new connections are read this turn, and which wait (``later(function,
    delay)``: run a function at a turn of the loop ``delay`` seconds from now, 0: the
    next; ``clock``: seconds, as the loop counts them)."""

    def __init__(self, later, per_turn=NEW_PER_TURN, per_address=WAITING_PER_ADDRESS,
                 most=WAITING_MAX, busy_lag=BUSY_LAG_S, busy_pause=BUSY_PAUSE_S,
                 per_second=NEW_PER_SECOND, burst=NEW_BURST,
                 clock=time.monotonic) -> None:  # fmt: skip
        self.later = later
        self.per_turn = per_turn
        self.per_address = per_address
        self.most = most
        self.busy_lag = busy_lag
        self.busy_pause = busy_pause
        self.clock = clock
        self.per_second = per_second
        self.burst = burst
        self.tokens = float(burst)  # connections that may be let in now
        self.filled_at = clock()
        self.allowance = per_turn  # this turn's: 1 while the loop is busy
        self.busy_turns = 0  # turns found busy (for tests and the log)
        self.let_in_this_turn = 0
        self.turn_booked = False
        self.booked_for = 0.0
        self.waiting: collections.OrderedDict[str, collections.deque] = (
            collections.OrderedDict()
        )  # address -> its transports, in order; the addresses take turns
        self.count = 0
        self.refused = 0

    def arrived(self, transport, address: str) -> None:
        """A connection made: read it now, or pause it until its turn, or close it."""
        if not self.count and self.let_in_this_turn < self.allowance and self._take_token():
            self.let_in_this_turn += 1
            self._book_turn()
            return
        queue = self.waiting.get(address)
        if self.count >= self.most or (queue is not None and len(queue) >= self.per_address):
            self.refused += 1
            if self.refused == 1 or self.refused % 1000 == 0:
                log.warning("new connections refused, too many waiting: %d so far", self.refused)
            transport.abortConnection()
            return
        transport.pauseProducing()
        if queue is None:
            queue = self.waiting[address] = collections.deque()
        queue.append(transport)
        self.count += 1
        self._book_turn()

    def _book_turn(self, delay: float = 0.0) -> None:
        if not self.turn_booked:
            self.turn_booked = True
            self.booked_for = self.clock() + delay
            self.later(self._next_turn, delay)

    def _next_turn(self) -> None:
        """A new turn of the loop: the next few waiting connections are read (one, if
        the turn came late: the loop is busy)."""
        self.turn_booked = False
        busy = self.clock() - self.booked_for > self.busy_lag
        self.busy_turns += busy
        self.allowance = 1 if busy else self.per_turn
        self.let_in_this_turn = 0
        while self.count and self.let_in_this_turn < self.allowance and self._take_token():
            address, queue = next(iter(self.waiting.items()))
            transport = queue.popleft()
            self.count -= 1
            if queue:
                self.waiting.move_to_end(address)  # the next address's turn
            else:
                del self.waiting[address]
            if getattr(transport, "disconnected", False):
                self.tokens += 1  # gone while it waited: its place goes to the next
                continue
            try:
                transport.resumeProducing()
            except Exception:  # that connection is lost, never the ones behind it
                log.exception("a waiting connection could not be read")
                continue
            self.let_in_this_turn += 1
        if self.count or self.let_in_this_turn:
            wait = self.busy_pause if busy else 0.0
            if self.count and self.tokens < 1 - 1e-9:  # the second's connections are in
                wait = max(wait, (1 - self.tokens) / self.per_second)
            self._book_turn(wait)

    def _take_token(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.filled_at) * self.per_second)
        self.filled_at = now
        if self.tokens < 1 - 1e-9:  # (a float's rounding is not a missing token)
            return False
        self.tokens -= 1
        return True


def accept_at_most(port_class, per_turn: int) -> None:
    """Make ``port_class`` (Twisted's TCP ``Port``) accept at most ``per_turn``
    connections each time its socket is found ready (a turn of the loop). Twisted
    adapts ``numberAccepts`` after each pass (+20 when it accepted as many as it
    tried): it is brought back under the limit before each."""
    if getattr(port_class, "snap_accept_per_turn", None) is not None:
        port_class.snap_accept_per_turn = per_turn
        return
    read = port_class.doRead

    def doRead(self):  # noqa: N802 (Twisted's name)
        self.numberAccepts = max(1, min(self.numberAccepts, type(self).snap_accept_per_turn))
        return read(self)

    port_class.doRead = doRead
    port_class.snap_accept_per_turn = per_turn


def _later_in_the_reactor(function, delay: float) -> None:
    # Imported here: importing the reactor installs one, and daphne installs its own
    # (asyncio) when it starts, after the application is imported.
    from twisted.internet import reactor

    reactor.callLater(delay, function)


def _reactor_seconds() -> float:
    from twisted.internet import reactor

    return reactor.seconds()


def install() -> None:
    """Put :class:`Admission` in front of daphne's HTTP factory (once)."""
    try:
        from daphne.http_protocol import HTTPFactory
    except ImportError:  # not served by daphne
        return
    from django.conf import settings

    if getattr(HTTPFactory, "snap_admission", None) is not None:
        return
    from twisted.internet import tcp

    accept_at_most(tcp.Port, settings.CONNECTIONS_ACCEPT_PER_TURN)
    admission = Admission(
        _later_in_the_reactor,
        per_turn=settings.CONNECTIONS_NEW_PER_TURN,
        per_address=settings.CONNECTIONS_WAITING_PER_ADDRESS,
        most=settings.CONNECTIONS_WAITING_MAX,
        busy_lag=settings.CONNECTIONS_BUSY_LAG_MS / 1000,
        busy_pause=settings.CONNECTIONS_BUSY_PAUSE_MS / 1000,
        per_second=settings.CONNECTIONS_NEW_PER_SECOND,
        burst=settings.CONNECTIONS_NEW_BURST,
        clock=_reactor_seconds,
    )
    build = HTTPFactory.buildProtocol

    def buildProtocol(self, addr):
        protocol = build(self, addr)
        if protocol is None:
            return None
        make = protocol.makeConnection
        address = getattr(addr, "host", "")

        def makeConnection(transport):
            # called once: the class's method again, and this closure, which holds the
            # protocol (through ``make``, its bound method), no longer held by it (a
            # cycle left every closed connection's objects to the cycle collector)
            del protocol.makeConnection
            make(transport)
            admission.arrived(transport, address)

        protocol.makeConnection = makeConnection
        return protocol

    HTTPFactory.buildProtocol = buildProtocol
    HTTPFactory.snap_admission = admission
