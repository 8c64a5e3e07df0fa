"""Under daphne a frame leaves when it is sent (games/play/ws_socket.py): Twisted would
buffer it until its reactor's next pass and let Nagle's algorithm hold a small frame
behind an unacknowledged one; a table's four players were sent one card up to a few
hundred milliseconds apart (issue 18). A real Twisted TCP connection over real sockets
on 127.0.0.1; no reactor runs, so only the flush can have written the bytes."""

from __future__ import annotations

import socket

import pytest
from twisted.internet import protocol, tcp

from games.play.ws_socket import READ_BYTES, RECEIVE_BUFFER_BYTES, _Twisted


class _NoReactor:
    """Twisted's connection registers with its reactor to be written later; none runs."""

    def addWriter(self, writer) -> None: ...
    def removeWriter(self, writer) -> None: ...
    def addReader(self, reader) -> None: ...
    def removeReader(self, reader) -> None: ...


def connection_on(served: socket.socket) -> tcp.Connection:
    connection = tcp.Connection(served, None, _NoReactor())
    connection.connected = 1  # as Twisted's server marks a connection it accepted
    return connection


@pytest.fixture
def sockets():
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    served, _ = listener.accept()
    listener.close()
    client.settimeout(2)
    yield served, client
    client.close()
    served.close()


def test_a_daphne_connection_sends_small_frames_without_waiting_for_acks(sockets):
    served, _ = sockets
    assert served.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
    _Twisted(connection_on(served))
    assert served.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def test_a_frame_written_to_a_daphne_connection_is_on_the_wire_once_flushed(sockets):
    served, client = sockets
    connection = connection_on(served)
    wrapped = _Twisted(connection)
    connection.write(b"card one")
    assert wrapped.unsent_bytes() == 8  # Twisted keeps it for its reactor's next pass
    wrapped.flush()
    assert wrapped.unsent_bytes() == 0
    assert client.recv(100) == b"card one"


def test_a_closing_daphne_connection_is_left_to_its_reactor(sockets):
    served, _ = sockets
    connection = connection_on(served)
    wrapped = _Twisted(connection)
    connection.write(b"goodbye")
    connection.disconnecting = True
    wrapped.flush()
    assert wrapped.unsent_bytes() == 7


def test_a_daphne_connection_reads_a_flood_a_kilobyte_at_a_time(sockets):
    served, client = sockets
    reads = []

    class Recorder(protocol.Protocol):
        def dataReceived(self, data: bytes) -> None:
            reads.append(len(data))

    connection = connection_on(served)
    connection.protocol = Recorder()
    _Twisted(connection)
    client.sendall(b"x" * 65536)
    while sum(reads) < 65536:
        assert connection.doRead() is None
    assert max(reads) <= READ_BYTES <= 1024  # Twisted reads 64 kB at a time by default


def test_a_daphne_connection_keeps_a_small_receive_buffer_that_a_flood_cannot_grow(sockets):
    """Closing a socket frees what its buffer holds in the server's own ``close()``:
    Linux lets the buffer of a socket that is read grow to megabytes of a flood's
    tiny frames, which took 13-18 ms of the event loop to close (bench_abuse)."""
    served, _ = sockets
    assert served.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) > 2 * RECEIVE_BUFFER_BYTES
    _Twisted(connection_on(served))
    assert served.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) == 2 * RECEIVE_BUFFER_BYTES
