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
  flooding in bursts, each under the first limit), takes no more frames: the server
  stops reading its socket at once (the flood then waits in the client's own buffers,
  not in this process), and the consumer is sent ``websocket.flood_close`` after the
  frames already let through: it closes the connection with code 4429, and the socket
  is closed as soon as that close frame is written (the client's answer is not waited
  for, since nothing more is read).
- **A flooder that comes back waits.** After a close for flooding, the address's next
  WebSockets are served only after a wait that doubles with each flood close
  (:mod:`games.play.ws_flood_penalty`).
- **Memory comes back after a wave of closes** (:mod:`games.play.ws_memory`).
- **One inbox a connection.** The frames let through wait in the connection's inbox,
  and so do the application's own messages (``scope["snap.deliver"]``: the table's
  messages for the consumer), so the consumer waits on one queue, not on two.
- **A client that does not read is let go.** Before each frame is sent, the bytes still
  waiting in the server's socket buffer are looked at; above ``WS_SEND_BACKLOG_BYTES``
  the connection is dropped at once (the client sees 1006), and the buffer is freed. A
  client that comes back catches up with ``hello`` and ``since``.

The socket is reached through the server's ``send`` (:mod:`games.play.ws_socket`:
daphne and uvicorn). Under any other server the connection is refused, logged as an
error, rather than served without the guards (``WS_ALLOW_UNGUARDED_SERVER`` lets the
in-process test communicator through: it has no socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from django.conf import settings

from .ws_flood_penalty import FloodPenalties
from .ws_limits import frame_budget
from .ws_memory import ConnectionCount
from .ws_socket import CLIENT_GONE, ServerSocket, server_socket

__all__ = ["ConnectionGuard", "FLOOD_CLOSE_CODE", "FLOOD_QUIET_S"]

log = logging.getLogger(__name__)

#: The close code of a connection closed for flooding.
FLOOD_CLOSE_CODE = 4429
#: A drop after this long without one starts a new flood (warned, and counted).
FLOOD_QUIET_S = 1.0
#: Floods are counted over this window (``WS_FLOOD_WARNINGS_PER_MINUTE``).
FLOOD_WINDOW_S = 60.0
#: This process's WebSockets (memory is given back after a wave of closes).
CONNECTIONS = ConnectionCount()
#: Addresses whose WebSocket was closed for flooding (their next ones wait).
PENALTIES = FloodPenalties()
#: How long a flooder's close frame is given to be written before its socket is closed.
CLOSE_WRITE_S = 0.5
#: Frames let through but not yet read by the consumer: a few, since they are within
#: the frame budget; more means the consumer is stuck, and the rest are dropped.
_INBOX_SIZE = 64


class _Inbox:
    """The connection's inbox: messages in the order they came, for one reader.

    An ``asyncio.Queue`` without what one reader does not need: it holds four deques
    (its items, its getters, its putters and its ``join()`` event's waiters), about
    3 kB a connection before anything is in it; this is a list and, while the reader
    waits, one future (issue 18: memory per live table)."""

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


class _Connection:
    """One connection's frame budget, inbox and send check."""

    __slots__ = (
        "_receive", "_send", "socket", "inbox", "frames_waiting", "budget", "dropped",
        "last_drop", "floods", "refusing", "close_sent", "closed", "address",
    )  # fmt: skip

    def __init__(
        self, receive, send, socket: ServerSocket | None, address: str | None = None
    ) -> None:
        self.address = address  # the client's (a flooder's next connections wait)
        self._receive = receive
        self._send = send
        self.socket = socket
        self.inbox = _Inbox()
        self.frames_waiting = 0  # frames in the inbox (the table's messages come there too)
        self.budget = frame_budget()
        self.dropped = 0  # frames dropped since the last one let through
        self.last_drop = float("-inf")
        self.floods: list[float] = []  # when each flood began, over the last minute
        self.refusing = False  # flooded too long: no more frames are let through
        self.close_sent: asyncio.Event | None = None  # made when refusing (read nothing until set)
        self.closed = False
        if socket is not None:
            socket.limit_buffer(settings.WS_SEND_BACKLOG_BYTES)

    async def pump(self) -> None:
        """Take every message off the server's queue as it comes (see the docstring)."""
        while True:
            if self.refusing:
                await self.close_sent.wait()  # read nothing until the close has gone
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
        self.close_sent = asyncio.Event()
        self.refusing = True
        if self.address is not None:  # from now: it may come back before this one ends
            PENALTIES.flooded(
                self.address, settings.WS_FLOOD_PENALTY_S, settings.WS_FLOOD_PENALTY_MAX_S
            )
        if self.socket is not None:
            self.socket.stop_reading()  # read nothing more from this socket
        self.inbox.put_nowait({"type": "websocket.flood_close"})

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
        if self.closed:
            return
        if message["type"] == "websocket.send" and self.socket is not None:
            backlog = self.socket.unsent_bytes()
            if backlog > settings.WS_SEND_BACKLOG_BYTES:
                log.warning("dropping a WebSocket that does not read (%d bytes waiting)", backlog)
                self.closed = True
                self.socket.drop()
                return
        if message["type"] == "websocket.close":
            self.closed = True
            if not (self.refusing and self.socket is not None):
                try:
                    await self._send(message)
                except CLIENT_GONE:  # it left first: nothing more to close
                    pass
                finally:
                    if self.close_sent is not None:
                        self.close_sent.set()
                return
            # a flooder: its socket is let go once the close frame is written, without
            # waiting for its answer (uvicorn's legacy protocol would wait for it)
            closing = asyncio.ensure_future(self._send(message))
            closing.add_done_callback(_retrieved)
            await asyncio.wait({closing}, timeout=CLOSE_WRITE_S)
            self.socket.close_when_written()
            self.close_sent.set()
            return
        try:
            await self._send(message)
        except CLIENT_GONE:  # not an error: the client left as this was sent to it
            self.closed = True
            return
        if self.socket is not None:
            self.socket.flush()


def _retrieved(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()


class ConnectionGuard:
    """ASGI middleware: the guards of the module docstring, for every WebSocket."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        socket = server_socket(send)
        if socket is None and not settings.WS_ALLOW_UNGUARDED_SERVER:
            log.error(
                "refusing a WebSocket: this server's socket is not one the guards know "
                "(serve the site with daphne or uvicorn)"
            )
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1011})
            return None
        address = (scope.get("client") or (None,))[0]
        if address is not None:
            wait = PENALTIES.wait_before(address, settings.WS_FLOOD_PENALTY_MAX_S)
            if wait is None:  # its flooder's handshakes are queued beyond the longest wait
                await receive()  # websocket.connect
                await send({"type": "websocket.close"})  # the handshake is refused
                return None
            if wait:
                await asyncio.sleep(wait)  # unanswered: nothing is read meanwhile
        connection = _Connection(receive, send, socket, address)
        pump = asyncio.ensure_future(connection.pump())
        CONNECTIONS.opened(asyncio.get_running_loop())
        try:
            scope = {**scope, "snap.deliver": connection.deliver}
            return await self.application(scope, connection.receive, connection.send)
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
            CONNECTIONS.closed(asyncio.get_running_loop())
