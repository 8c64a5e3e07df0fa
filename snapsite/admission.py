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

Behind a proxy every connection comes from the proxy's address: they still take turns
with the tables, but not between people. :func:`install` (snapsite/asgi.py) puts this
in front of daphne's HTTP factory; under another server it does nothing.
"""

from __future__ import annotations

import collections
import logging

__all__ = ["Admission", "install", "NEW_PER_TURN", "WAITING_MAX", "WAITING_PER_ADDRESS"]

log = logging.getLogger(__name__)

#: New connections read in one turn of the loop (``CONNECTIONS_NEW_PER_TURN``).
NEW_PER_TURN = 4
#: Connections of one address waiting to be read; more are closed at once
#: (``CONNECTIONS_WAITING_PER_ADDRESS``).
WAITING_PER_ADDRESS = 500
#: Connections waiting to be read in all; more are closed at once
#: (``CONNECTIONS_WAITING_MAX``).
WAITING_MAX = 5000


class Admission:
    """Which new connections are read this turn, and which wait (``later``: run a
    function at the next turn of the loop)."""

    def __init__(self, later, per_turn=NEW_PER_TURN, per_address=WAITING_PER_ADDRESS,
                 most=WAITING_MAX) -> None:  # fmt: skip
        self.later = later
        self.per_turn = per_turn
        self.per_address = per_address
        self.most = most
        self.let_in_this_turn = 0
        self.turn_booked = False
        self.waiting: collections.OrderedDict[str, collections.deque] = (
            collections.OrderedDict()
        )  # address -> its transports, in order; the addresses take turns
        self.count = 0
        self.refused = 0

    def arrived(self, transport, address: str) -> None:
        """A connection made: read it now, or pause it until its turn, or close it."""
        if not self.count and self.let_in_this_turn < self.per_turn:
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

    def _book_turn(self) -> None:
        if not self.turn_booked:
            self.turn_booked = True
            self.later(self._next_turn)

    def _next_turn(self) -> None:
        """A new turn of the loop: the next few waiting connections are read."""
        self.turn_booked = False
        self.let_in_this_turn = 0
        while self.count and self.let_in_this_turn < self.per_turn:
            address, queue = next(iter(self.waiting.items()))
            transport = queue.popleft()
            self.count -= 1
            if queue:
                self.waiting.move_to_end(address)  # the next address's turn
            else:
                del self.waiting[address]
            if getattr(transport, "disconnected", False):
                continue
            try:
                transport.resumeProducing()
            except Exception:  # that connection is lost, never the ones behind it
                log.exception("a waiting connection could not be read")
                continue
            self.let_in_this_turn += 1
        if self.count or self.let_in_this_turn:
            self._book_turn()


def _next_turn_of_the_reactor(function) -> None:
    # Imported here: importing the reactor installs one, and daphne installs its own
    # (asyncio) when it starts, after the application is imported.
    from twisted.internet import reactor

    reactor.callLater(0, function)


def install() -> None:
    """Put :class:`Admission` in front of daphne's HTTP factory (once)."""
    try:
        from daphne.http_protocol import HTTPFactory
    except ImportError:  # not served by daphne
        return
    from django.conf import settings

    if getattr(HTTPFactory, "snap_admission", None) is not None:
        return
    admission = Admission(
        _next_turn_of_the_reactor,
        per_turn=getattr(settings, "CONNECTIONS_NEW_PER_TURN", NEW_PER_TURN),
        per_address=getattr(settings, "CONNECTIONS_WAITING_PER_ADDRESS", WAITING_PER_ADDRESS),
        most=getattr(settings, "CONNECTIONS_WAITING_MAX", WAITING_MAX),
    )
    build = HTTPFactory.buildProtocol

    def buildProtocol(self, addr):
        protocol = build(self, addr)
        if protocol is None:
            return None
        make = protocol.makeConnection
        address = getattr(addr, "host", "")

        def makeConnection(transport):
            make(transport)
            admission.arrived(transport, address)

        protocol.makeConnection = makeConnection
        return protocol

    HTTPFactory.buildProtocol = buildProtocol
    HTTPFactory.snap_admission = admission
