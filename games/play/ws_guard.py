"""Per-connection guards in front of the WebSocket consumer (docs/protocol.md, "Limits").

- **Floods are dropped before they queue.** The server hands every frame it reads to
  the application's input queue; a consumer that checked the rate itself would let a
  flood of frames wait there (memory) and delay its own and other tables' work. Here a
  task takes each frame off that queue as it arrives and spends one token of the
  connection's frame budget on it: a frame within the budget goes on to the consumer, a
  frame over it is dropped unread.
- **A flood is warned once, and closed if it goes on or comes back.** The first frame
  dropped after at least :data:`FLOOD_QUIET_S` without a drop starts a flood: the
  consumer is sent ``websocket.flooded`` (it answers ``rate_limited``). A connection
  that drops ``WS_FLOOD_CLOSE_AFTER`` more frames with none let through in between, or
  whose flood is its ``WS_FLOOD_WARNINGS_PER_MINUTE``-th within a minute (a client
  flooding in bursts, each under the first limit), takes no more frames: every frame
  from then on is dropped unread, and the consumer is sent ``websocket.flood_close``
  after the frames already let through: it closes the connection with code 4429.
- **A flooder that comes back waits.** After a close for flooding, the address's next
  WebSockets are served only after a wait that doubles with each flood close
  (:mod:`games.play.ws_flood_penalty`).
- **One inbox a connection.** The frames let through wait in the connection's inbox,
  and so do the application's own messages (``scope["snap.deliver"]``: the table's
  messages for the consumer), so the consumer waits on one queue, not on two.
- **A client that does not read is let go.** What the application sends waits in a
  queue of the connection's own, bounded in bytes (``WS_SEND_BACKLOG_BYTES``), and one
  task hands it to the server in order. A server that waits while the socket's buffer is
  full (uvicorn does) makes that queue grow for a client that does not read; past the
  bound the connection is cut: the queue is dropped, the consumer is told the client has
  gone (``websocket.disconnect``, 1006), and the connection's handler returns, which
  makes the server close the socket. A client that comes back catches up with
  ``hello`` and ``since``. The consumer never waits on a slow client.

Everything here is plain ASGI: the guard sees only the ``receive`` and ``send`` the
server gives it, so it needs nothing of a particular server. Connection-level defence
(connections and handshakes per address, slow handshakes) is the proxy's job
(``deploy/nginx/snap.conf``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from django.conf import settings

from .ws_flood_penalty import FloodPenalties
from .ws_limits import frame_budget

__all__ = ["ConnectionGuard", "FLOOD_CLOSE_CODE", "FLOOD_QUIET_S"]

log = logging.getLogger(__name__)

#: The close code of a connection closed for flooding.
FLOOD_CLOSE_CODE = 4429
#: A drop after this long without one starts a new flood (warned, and counted).
FLOOD_QUIET_S = 1.0
#: Floods are counted over this window (``WS_FLOOD_WARNINGS_PER_MINUTE``).
FLOOD_WINDOW_S = 60.0
#: Addresses whose WebSocket was closed for flooding (their next ones wait).
PENALTIES = FloodPenalties()
#: How long the messages still queued (a close frame last) are given to be handed to
#: the server once the consumer has finished.
CLOSE_WRITE_S = 0.5
#: Frames let through but not yet read by the consumer: a few, since they are within
#: the frame budget; more means the consumer is stuck, and the rest are dropped.
_INBOX_SIZE = 64


class _Inbox:
    """The connection's inbox: messages in the order they came, for one reader.

    An ``asyncio.Queue`` without what one reader does not need (its four deques cost
    every connection memory before anything is in it): a list and, while the reader
    waits, one future."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[dict] = []
        self._waiter: asyncio.Future | None = None

    def put_nowait(self, message: dict) -> None:
        self._items.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> dict:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)  # a few at most (bounded: _INBOX_SIZE, INBOX_LIMIT)


def _size(message: dict) -> int:
    """The bytes a message puts on the wire, about (its text or bytes)."""
    text = message.get("text")
    if text is not None:
        return len(text.encode())
    return len(message.get("bytes") or b"")


class _Outbox:
    """The messages the application has sent that the server has not taken yet, in
    order, bounded in bytes; one task at a time hands them to the server."""

    __slots__ = ("_send", "_items", "_bytes", "_limit", "_sender", "_on_cut", "closed")

    def __init__(self, send, limit: int, on_cut) -> None:
        self._send = send
        self._items: list[tuple[dict, int]] = []  # (message, its size): bounded in bytes
        self._bytes = 0
        self._limit = limit
        self._sender: asyncio.Task | None = None
        self._on_cut = on_cut
        self.closed = False  # cut, client gone, or a close sent: nothing more goes out

    def put(self, message: dict) -> None:
        if self.closed:
            return
        size = _size(message)
        if self._bytes and self._bytes + size > self._limit:
            log.warning("dropping a WebSocket that does not read (%d bytes waiting)", self._bytes)
            self.cut()
            return
        self._items.append((message, size))
        self._bytes += size
        if message["type"] == "websocket.close":
            self.closed = True  # what comes after a close is not sent
        if self._sender is None:
            self._sender = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        try:
            while self._items:
                head = self._items[0]
                try:
                    await self._send(head[0])
                except OSError:  # the client left as this was sent (uvicorn)
                    self._stop()
                    return
                if self._items and self._items[0] is head:
                    self._items.pop(0)
                    self._bytes -= head[1]
        finally:
            self._sender = None

    def _stop(self) -> None:
        self.closed = True
        self._items.clear()
        self._bytes = 0

    def cut(self) -> None:
        """Drop what waits, stop handing it over, and tell the consumer."""
        self._stop()
        if self._sender is not None:
            self._sender.cancel()
        self._on_cut()

    async def flushed(self, timeout: float) -> None:
        """Wait (at most ``timeout``) until everything queued is with the server."""
        sender = self._sender
        if sender is not None:
            await asyncio.wait({sender}, timeout=timeout)
            if not sender.done():
                sender.cancel()


class _Connection:
    """One connection's frame budget, inbox and send check."""

    __slots__ = (
        "_receive", "outbox", "inbox", "frames_waiting", "budget", "dropped",
        "last_drop", "floods", "refusing", "address",
    )  # fmt: skip

    def __init__(self, receive, send, address: str | None = None) -> None:
        self.address = address  # the client's (a flooder's next connections wait)
        self._receive = receive
        self.inbox = _Inbox()
        self.outbox = _Outbox(send, settings.WS_SEND_BACKLOG_BYTES, self._client_cut)
        self.frames_waiting = 0  # frames in the inbox (the table's messages come there too)
        self.budget = frame_budget()
        self.dropped = 0  # frames dropped since the last one let through
        self.last_drop = float("-inf")
        self.floods: list[float] = []  # when each flood began, over the last minute
        self.refusing = False  # flooded too long: no more frames are let through

    async def pump(self) -> None:
        """Take every message off the server's queue as it comes (see the docstring)."""
        while True:
            message = await self._receive()
            if message["type"] != "websocket.receive":
                self.inbox.put_nowait(message)
                if message["type"] == "websocket.disconnect":
                    return
                continue
            if self.refusing:
                continue
            if self.budget.take() and self.frames_waiting < _INBOX_SIZE:
                self.dropped = 0
                self.frames_waiting += 1
                self.inbox.put_nowait(message)
                continue
            self.drop(time.monotonic())

    def drop(self, now: float) -> None:
        """A frame over the budget is dropped: warn at a new flood, refuse a long one
        or one flood too many in a minute."""
        self.dropped += 1
        new_flood = now - self.last_drop >= FLOOD_QUIET_S
        self.last_drop = now
        if new_flood:
            self.floods = [t for t in self.floods if t > now - FLOOD_WINDOW_S]
            self.floods.append(now)
            self.inbox.put_nowait({"type": "websocket.flooded"})
            if len(self.floods) >= settings.WS_FLOOD_WARNINGS_PER_MINUTE:
                self.refuse()
        elif self.dropped > settings.WS_FLOOD_CLOSE_AFTER:
            self.refuse()

    def refuse(self) -> None:
        self.refusing = True  # every frame from now is dropped unread
        if self.address is not None:  # from now: it may come back before this one ends
            PENALTIES.flooded(
                self.address, settings.WS_FLOOD_PENALTY_S, settings.WS_FLOOD_PENALTY_MAX_S
            )
        self.inbox.put_nowait({"type": "websocket.flood_close"})

    def _client_cut(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})

    async def receive(self) -> dict:
        """The next message for the application: a frame let through, or one put in by
        :meth:`deliver`, in the order they came."""
        message = await self.inbox.get()
        if message["type"] == "websocket.receive":
            self.frames_waiting -= 1
        return message

    def deliver(self, message: dict) -> None:
        """Put a message of the application's own in the same inbox (the consumer's
        table messages: one queue and one waiting task a connection, not two)."""
        self.inbox.put_nowait(message)

    async def send(self, message: dict) -> None:
        """Queue a message for the client; never waits for the client."""
        self.outbox.put(message)


class ConnectionGuard:
    """ASGI middleware: the guards of the module docstring, for every WebSocket."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        address = (scope.get("client") or (None,))[0]
        if address is not None:
            wait = PENALTIES.wait_before(address, settings.WS_FLOOD_PENALTY_MAX_S)
            if wait is None:  # its flooder's handshakes are queued beyond the longest wait
                await receive()  # websocket.connect
                await send({"type": "websocket.close"})  # the handshake is refused
                return None
            if wait:
                await asyncio.sleep(wait)  # unanswered: nothing is read meanwhile
        connection = _Connection(receive, send, address)
        pump = asyncio.ensure_future(connection.pump())
        try:
            scope = {**scope, "snap.deliver": connection.deliver}
            return await self.application(scope, connection.receive, connection.send)
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
            await connection.outbox.flushed(CLOSE_WRITE_S)
