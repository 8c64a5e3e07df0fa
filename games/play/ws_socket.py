"""The network socket under one WebSocket connection, as the ASGI server holds it.

The guards of :mod:`games.play.ws_guard` need four things that ASGI does not give: how
many bytes written to a connection its socket has not taken yet, a way to write them
now, a way to stop reading it, and a way to let it go. The servers the site runs on
give ``send`` in a form that leads to the socket's transport:

- **daphne**: ``send`` is ``functools.partial(server.handle_reply, protocol)``; the
  protocol's Twisted transport keeps the bytes not yet written.
- **uvicorn** (each of its WebSocket protocols: ``websockets-sansio``, ``websockets``,
  ``wsproto``): ``send`` is a method of the protocol, whose ``transport`` is an asyncio
  (or uvloop) transport.

:func:`server_socket` returns ``None`` for any other server: the guard then refuses the
connection (unless ``WS_ALLOW_UNGUARDED_SERVER``, for the in-process test communicator,
which has no socket).
"""

from __future__ import annotations

import contextlib
import socket

__all__ = ["CLIENT_GONE", "READ_BYTES", "RECEIVE_BUFFER_BYTES", "ServerSocket", "server_socket"]

#: The most bytes read from a daphne connection's socket at a time: about 40 of a
#: flood's tiny frames, parsed in about a millisecond before the other sockets' turn
#: (8 kB, 300 frames, held every table about 10 ms a read: issue 14, bench_abuse).
READ_BYTES = 1024
#: How long a socket no longer read is kept after its sending half is shut.
CLOSE_LINGER_S = 1.0
#: The kernel's receive buffer of a WebSocket's socket (``SO_RCVBUF``; Linux doubles it
#: for its own bookkeeping). Left to grow by itself (up to 6 MB), a flooding client
#: filled it with tiny frames, and closing such a socket freed them all in the
#: server's own ``close()``: 13-18 ms of the event loop for every flooder closed
#: (bench_abuse, issue 14). A player sends a move of about 50 bytes at a time.
RECEIVE_BUFFER_BYTES = 32 * 1024


def _client_gone_errors() -> tuple[type[BaseException], ...]:
    """What each server's ``send`` raises for a connection whose client has just gone
    (its ``websocket.disconnect`` is on its way to the application): daphne's autobahn
    ``Disconnected``, uvicorn's ``ClientDisconnected``."""
    found: list[type[BaseException]] = []
    with contextlib.suppress(ImportError):
        from autobahn.exception import Disconnected

        found.append(Disconnected)
    with contextlib.suppress(ImportError):
        from uvicorn.protocols.utils import ClientDisconnected

        found.append(ClientDisconnected)
    return tuple(found)


CLIENT_GONE = _client_gone_errors()


def _limit_receive_buffer(sock) -> None:
    if sock is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER_BYTES)


class ServerSocket:
    """What the guards do to a connection's socket."""

    server = "?"

    def __init__(self, transport) -> None:
        self.transport = transport

    def unsent_bytes(self) -> int:
        """Bytes written to the connection that its socket has not taken yet."""
        raise NotImplementedError

    def limit_buffer(self, limit: int) -> None:
        """Let the server buffer more than ``limit`` bytes before it makes ``send`` wait
        (so that the guard sees a slow reader before the consumer is held)."""

    def flush(self) -> None:
        """Write what was sent to the socket now, not at the server's next pass."""

    def stop_reading(self) -> None:
        raise NotImplementedError

    def drop(self) -> None:
        """Close at once, without a close frame; what was not sent is freed."""
        raise NotImplementedError

    def close_when_written(self) -> None:
        """Close once what was written (the close frame) has gone, for a connection
        that is no longer read: the sending half is shut first (the client reads the
        close frame, then the end), and the socket is let go :data:`CLOSE_LINGER_S`
        later. Closed at once, a socket with unread bytes (a flood) is reset, and the
        reset can overtake the close frame, which the client then never reads."""
        raise NotImplementedError


class _Twisted(ServerSocket):
    server = "daphne"

    def __init__(self, transport) -> None:
        super().__init__(transport)
        if hasattr(transport, "setTcpNoDelay"):
            # each frame goes out when written (asyncio, so uvicorn, does this already):
            # Nagle's algorithm would hold a small frame back until the last is acked
            transport.setTcpNoDelay(True)
        if hasattr(transport, "bufferSize"):
            # what one read of the socket may bring: every frame in it is parsed in one
            # go before the guard sees the first, so a flood read 64 kB (3,000 tiny
            # frames) at a time stalled every table for tens of ms; a frame is at most
            # 1024 characters (4 kB of UTF-8, a few reads), a move about 50 bytes
            transport.bufferSize = READ_BYTES
        if hasattr(transport, "getHandle"):
            _limit_receive_buffer(transport.getHandle())

    def unsent_bytes(self) -> int:
        t = self.transport
        buffered = len(getattr(t, "dataBuffer", b"")) - getattr(t, "offset", 0)
        return buffered + getattr(t, "_tempDataLen", 0)

    def flush(self) -> None:
        """Twisted only buffers a write; the socket gets it when the reactor next finds
        it writable, which comes after every other socket's callbacks of that pass (a
        pass can take a hundred milliseconds on a busy server: the four players of a
        table were sent one card that far apart). Writing at once is what the reactor
        would do then; a connection closing, or a write that fails, is left to it."""
        t = self.transport
        if not (getattr(t, "connected", False) and hasattr(t, "doWrite")) or t.disconnecting:
            return  # closing, or not a plain TCP transport (TLS keeps its own buffers)
        if getattr(t, "_tempDataLen", 0) or len(getattr(t, "dataBuffer", b"")) > t.offset:
            t.doWrite()

    def stop_reading(self) -> None:
        self.transport.pauseProducing()

    def drop(self) -> None:
        self.transport.abortConnection()

    def close_when_written(self) -> None:
        from twisted.internet import reactor

        t = self.transport
        if hasattr(t, "loseWriteConnection"):
            t.loseWriteConnection()
            reactor.callLater(CLOSE_LINGER_S, t.abortConnection)
        else:
            t.loseConnection()


class _Asyncio(ServerSocket):
    server = "uvicorn"

    def __init__(self, transport) -> None:
        super().__init__(transport)
        _limit_receive_buffer(transport.get_extra_info("socket"))

    def unsent_bytes(self) -> int:
        return self.transport.get_write_buffer_size()

    def limit_buffer(self, limit: int) -> None:
        # twice the limit: a write that passes the limit must not make the server's
        # send wait (the legacy ``websockets`` protocol waits at the end of a send)
        self.transport.set_write_buffer_limits(high=2 * limit)

    def stop_reading(self) -> None:
        self.transport.pause_reading()

    def drop(self) -> None:
        self.transport.abort()

    def close_when_written(self) -> None:
        import asyncio

        t = self.transport
        if t.can_write_eof():
            t.write_eof()
            asyncio.get_running_loop().call_later(CLOSE_LINGER_S, t.abort)
        else:
            t.close()


def server_socket(send) -> ServerSocket | None:
    """The socket under the connection whose ASGI ``send`` this is; None if the server
    is not one this module knows."""
    args = getattr(send, "args", None)
    if args:  # daphne
        transport = getattr(args[0], "transport", None)
        if transport is not None and hasattr(transport, "pauseProducing"):
            return _Twisted(transport)
    protocol = getattr(send, "__self__", None)  # uvicorn
    transport = getattr(protocol, "transport", None)
    if transport is not None and hasattr(transport, "get_write_buffer_size"):
        return _Asyncio(transport)
    return None
