"""Per-connection guards in front of the WebSocket consumer (docs/protocol.md, "Limits").

- **Floods are dropped before they queue.** The server hands every frame it reads to
  the application's input queue; a consumer that checked the rate itself would let a
  flood of frames wait there (memory) and delay its own and other tables' work. Here a
  task takes each frame off that queue as it arrives and spends one token of the
  connection's frame budget on it: a frame within the budget goes on to the consumer, a
  frame over it is dropped unread. The first frame dropped of a flood sends the
  consumer ``websocket.flooded`` (it answers ``rate_limited``); a connection that drops
  ``WS_FLOOD_CLOSE_AFTER`` more frames takes no more frames: the server stops reading
  its socket at once (daphne's transport: the flood then waits in the client's own
  buffers, not in this process), and the consumer is sent ``websocket.flood_close``
  after the frames already let through: it closes the connection with code 4429, and
  the socket is closed as soon as that close frame is written (the client's answer is
  not waited for, since nothing more is read).
- **A client that does not read is let go.** Before each frame is sent, the bytes still
  waiting in the server's socket buffer are looked at (daphne's transport; other
  servers tell nothing and are not checked); above ``WS_SEND_BACKLOG_BYTES`` the
  connection is dropped at once (the client sees 1006), and the buffer is freed. A
  client that comes back catches up with ``hello`` and ``since``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from django.conf import settings

from .ws_limits import frame_budget

__all__ = ["ConnectionGuard", "FLOOD_CLOSE_CODE", "unsent_bytes"]

log = logging.getLogger(__name__)

#: The close code of a connection closed for flooding.
FLOOD_CLOSE_CODE = 4429
#: Frames let through but not yet read by the consumer: a few, since they are within
#: the frame budget; more means the consumer is stuck, and the rest are dropped.
_INBOX_SIZE = 64


def unsent_bytes(send) -> int:
    """The bytes written to this connection that its socket has not taken yet (daphne
    gives ``send`` as a partial of its server and the connection's protocol, whose
    Twisted transport keeps them); 0 when the server does not say."""
    transport = _transport(send)
    if transport is None:
        return 0
    buffered = len(getattr(transport, "dataBuffer", b"")) - getattr(transport, "offset", 0)
    return buffered + getattr(transport, "_tempDataLen", 0)


def _transport(send):
    args = getattr(send, "args", ())
    return getattr(args[0], "transport", None) if args else None


def _abort(send) -> None:
    transport = _transport(send)
    if transport is not None:
        transport.abortConnection()


class _Connection:
    """One connection's frame budget, inbox and send check."""

    def __init__(self, receive, send) -> None:
        self._receive = receive
        self._send = send
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.budget = frame_budget()
        self.dropped = 0  # frames dropped since the last one let through
        self.refusing = False  # flooded too long: no more frames are let through
        self.closed = False

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
            if self.budget.take() and self.inbox.qsize() < _INBOX_SIZE:
                self.dropped = 0
                self.inbox.put_nowait(message)
                continue
            self.dropped += 1
            if self.dropped == 1:
                self.inbox.put_nowait({"type": "websocket.flooded"})
            elif self.dropped > settings.WS_FLOOD_CLOSE_AFTER:
                self.refusing = True
                transport = _transport(self._send)
                if transport is not None:
                    transport.pauseProducing()  # read nothing more from this socket
                self.inbox.put_nowait({"type": "websocket.flood_close"})

    async def send(self, message: dict) -> None:
        if self.closed:
            return
        if message["type"] == "websocket.send":
            backlog = unsent_bytes(self._send)
            if backlog > settings.WS_SEND_BACKLOG_BYTES:
                log.warning("dropping a WebSocket that does not read (%d bytes waiting)", backlog)
                self.closed = True
                _abort(self._send)
                return
        if message["type"] == "websocket.close":
            self.closed = True
            await self._send(message)
            transport = _transport(self._send)
            if self.refusing and transport is not None:
                transport.loseConnection()  # once the close frame is written
            return
        await self._send(message)


class ConnectionGuard:
    """ASGI middleware: the guards of the module docstring, for every WebSocket."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        connection = _Connection(receive, send)
        pump = asyncio.ensure_future(connection.pump())
        try:
            return await self.application(scope, connection.inbox.get, connection.send)
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
