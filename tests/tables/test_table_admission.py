"""New connections take turns with the tables (snapsite/admission.py): a few are read
each turn of daphne's loop, the others wait unread, the addresses taking turns, and a
connection beyond the waiting limit is closed at once. The rules over stand-in
transports, then daphne itself."""

from __future__ import annotations

import base64
import os
import signal
import socket
import time

import pytest

from snapsite.admission import Admission, accept_at_most

from .test_table_daphne_restart import CREATE, free_port, site_with_table, start_daphne


class Transport:
    """What the admission uses of a Twisted TCP transport."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.reading = True
        self.aborted = False
        self.disconnected = False

    def pauseProducing(self) -> None:  # noqa: N802 (Twisted's name)
        self.reading = False

    def resumeProducing(self) -> None:  # noqa: N802
        self.reading = True

    def abortConnection(self) -> None:  # noqa: N802
        self.aborted = True
        self.disconnected = True


class Loop:
    """The next turn of the loop, run when the test says."""

    def __init__(self) -> None:
        self.booked: list = []

    def later(self, function, delay: float = 0.0) -> None:
        self.booked.append(function)

    def turn(self) -> None:
        booked, self.booked = self.booked, []
        for function in booked:
            function()


def arrive(admission: Admission, address: str, n: int) -> list[Transport]:
    made = [Transport(f"{address}-{i}") for i in range(n)]
    for transport in made:
        admission.arrived(transport, address)
    return made


def test_a_few_new_connections_are_read_a_turn_and_the_rest_wait_unread():
    loop = Loop()
    admission = Admission(loop.later, per_turn=3, per_address=100, most=1000, burst=1000)
    burst = arrive(admission, "10.0.0.1", 10)
    assert [t.reading for t in burst] == [True] * 3 + [False] * 7
    loop.turn()
    assert sum(t.reading for t in burst) == 6
    loop.turn()
    loop.turn()
    assert all(t.reading for t in burst) and not any(t.aborted for t in burst)
    loop.turn()  # nothing waits: nothing more is booked
    assert loop.booked == []
    alone = arrive(admission, "10.0.0.2", 1)
    assert alone[0].reading  # a quiet server reads a new connection at once


def test_the_addresses_take_turns_so_one_flood_does_not_hold_back_another_person():
    loop = Loop()
    admission = Admission(loop.later, per_turn=2, per_address=1000, most=1000)
    flood = arrive(admission, "10.0.0.66", 200)
    child = arrive(admission, "10.0.0.7", 1)
    assert not child[0].reading
    loop.turn()  # one of the flood's, then the child's
    assert child[0].reading
    assert sum(t.reading for t in flood) == 3  # two at once, one this turn


def test_a_connection_beyond_the_waiting_limits_is_closed_at_once():
    loop = Loop()
    admission = Admission(loop.later, per_turn=1, per_address=5, most=8)
    first = arrive(admission, "10.0.0.1", 8)  # 1 read, 5 wait, 2 closed
    assert [t.aborted for t in first] == [False] * 6 + [True] * 2
    other = arrive(admission, "10.0.0.2", 4)  # 3 more wait: 8 in all, the last closed
    assert [t.aborted for t in other] == [False] * 3 + [True]
    assert admission.refused == 3


def test_a_connection_gone_while_it_waited_takes_no_ones_turn():
    loop = Loop()
    admission = Admission(loop.later, per_turn=1, per_address=100, most=100)
    a, b, c = arrive(admission, "10.0.0.1", 3)
    b.disconnected = True  # its client gave up (or its request timed out)
    loop.turn()
    assert c.reading and not b.reading


def test_a_connection_that_fails_to_resume_does_not_hold_back_the_ones_behind_it():
    loop = Loop()
    admission = Admission(loop.later, per_turn=1, per_address=100, most=100)
    a, b, c = arrive(admission, "10.0.0.1", 3)

    def broken() -> None:
        raise OSError("bad file descriptor")

    b.resumeProducing = broken
    loop.turn()
    assert c.reading


class TimedLoop:
    """A loop with a clock the test moves: what is booked runs once it is due."""

    def __init__(self) -> None:
        self.now = 0.0
        self.booked: list[tuple[float, object]] = []

    def clock(self) -> float:
        return self.now

    def later(self, function, delay: float = 0.0) -> None:
        self.booked.append((self.now + delay, function))

    def run(self, after: float = 0.0) -> None:
        """Move the clock on by ``after`` seconds and run what is due."""
        self.now += after
        due = [f for at, f in self.booked if at <= self.now + 1e-9]
        self.booked = [(at, f) for at, f in self.booked if at > self.now + 1e-9]
        for function in due:
            function()


def test_no_more_connections_than_a_seconds_allowance_are_read_and_the_rest_follow_at_that_pace():
    loop = TimedLoop()
    admission = Admission(
        loop.later, per_turn=100, per_address=1000, most=1000, per_second=10, burst=5,
        clock=loop.clock,
    )  # fmt: skip
    burst = arrive(admission, "10.0.0.66", 30)
    assert sum(t.reading for t in burst) == 5  # the burst's allowance, at once
    loop.run()
    assert sum(t.reading for t in burst) == 5 and loop.booked  # the next turn is booked later
    assert loop.booked[0][0] == pytest.approx(0.1)  # when the next one may come
    for _ in range(10):
        loop.run(0.1)
    assert sum(t.reading for t in burst) == 15  # ten a second
    for _ in range(20):
        loop.run(0.1)
    assert all(t.reading for t in burst) and not any(t.aborted for t in burst)


def test_while_the_loop_is_late_one_connection_is_read_each_pause_until_it_is_quick_again():
    loop = TimedLoop()
    admission = Admission(
        loop.later, per_turn=4, per_address=1000, most=1000, busy_lag=0.005, busy_pause=0.01,
        per_second=1000, burst=1000, clock=loop.clock,
    )  # fmt: skip
    burst = arrive(admission, "10.0.0.66", 20)
    assert sum(t.reading for t in burst) == 4
    loop.run(0.05)  # the loop's turn came 50 ms late: it is busy
    assert sum(t.reading for t in burst) == 5 and admission.busy_turns == 1
    assert loop.booked[0][0] == pytest.approx(0.06)  # one more in a pause
    loop.run(0.01)  # on time now: four a turn again
    assert sum(t.reading for t in burst) == 9


class NoReactor:
    """What a Twisted listening port asks of its reactor, with no loop behind it: the
    test calls the port's ``doRead`` itself, as the loop would on each turn."""

    def addReader(self, reader) -> None:  # noqa: N802 (Twisted's names)
        pass

    def removeReader(self, reader) -> None:  # noqa: N802
        pass

    def addWriter(self, writer) -> None:  # noqa: N802
        pass

    def removeWriter(self, writer) -> None:  # noqa: N802
        pass

    def callLater(self, *args, **kwargs) -> None:  # noqa: N802
        pass


def test_a_turn_of_the_loop_takes_a_few_connections_from_the_kernels_queue_and_leaves_the_rest():
    from twisted.internet import protocol, tcp

    class CountedPort(tcp.Port):  # the class changed, not Twisted's own
        pass

    made: list = []

    class Factory(protocol.ServerFactory):
        def buildProtocol(self, addr):  # noqa: N802
            made.append(protocol.Protocol())
            return made[-1]

    accept_at_most(CountedPort, 3)
    port = CountedPort(0, Factory(), interface="127.0.0.1", reactor=NoReactor())
    port.startListening()
    clients = [
        socket.create_connection(("127.0.0.1", port.getHost().port), timeout=5) for _ in range(10)
    ]
    try:
        taken = []
        for _ in range(5):
            port.doRead()  # a turn in which the listening socket is ready
            taken.append(len(made))
        # three a turn, although Twisted asks for more each time it finds three
        assert taken == [3, 6, 9, 10, 10]
    finally:
        for sock in clients:
            sock.close()
        for made_protocol in made:
            made_protocol.transport.socket.close()
        port.socket.close()


def handshake(port: int, code: str) -> socket.socket:
    """A socket that has sent a WebSocket handshake for table ``code``."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=15)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/play/{code}/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{port}\r\n\r\n".encode()
    )
    return sock


def answered(sock: socket.socket) -> bool:
    """The server accepted the handshake (False: it closed the connection unanswered)."""
    try:
        return sock.recv(12) == b"HTTP/1.1 101"
    except ConnectionResetError:
        return False
    finally:
        sock.close()


@pytest.mark.server
def test_daphne_reads_a_burst_a_few_at_a_time_and_closes_what_passes_the_limit(tmp_path):
    env, code = site_with_table(
        tmp_path, CREATE, CONNECTIONS_NEW_PER_TURN="2", CONNECTIONS_WAITING_PER_ADDRESS="20"
    )
    port = free_port()
    with open(tmp_path / "daphne.log", "w") as log:
        server = start_daphne(env, port, log)
        try:
            assert answered(handshake(port, code))  # the server works
            # Stopped, daphne lets 45 connections wait in the kernel's queue (its
            # backlog is 50); started again, it accepts them in a few passes (Twisted
            # accepts more a pass as it finds more), faster than 2 a turn are read.
            server.send_signal(signal.SIGSTOP)
            burst = [handshake(port, code) for _ in range(45)]
            server.send_signal(signal.SIGCONT)
            results = [answered(sock) for sock in burst]
            # at least 2 read at once and the 20 that waited; the rest closed unread
            assert 22 <= sum(results) < 45, results
            assert answered(handshake(port, code))  # and it goes on
        finally:
            server.send_signal(signal.SIGCONT)
            server.terminate()
            server.wait(timeout=10)
    deadline = time.monotonic() + 5
    while "new connections refused" not in (tmp_path / "daphne.log").read_text():
        assert time.monotonic() < deadline, (tmp_path / "daphne.log").read_text()
        time.sleep(0.1)
