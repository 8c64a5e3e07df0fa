"""The abusive clients of the benchmark, each a task until cancelled."""

from __future__ import annotations

import asyncio
import contextlib

from .wire import Closed, Socket

#: Each abuser connects from a loopback address of its own, as different people would
#: (the server's per-address limits tell them apart); the good tables use 127.0.0.1.
FLOODER, RESYNCER, SLEEPER, IDLER = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"


class Counts(dict):
    def add(self, key: str, n: int = 1) -> None:
        self[key] = self.get(key, 0) + n


async def flooder(port: int, code: str, counts: Counts) -> None:
    """Tiny frames as fast as the socket takes them; closed (4429), it comes back."""
    frame = None
    while True:
        try:
            sock = await Socket.open(port, f"/ws/play/{code}/", source=FLOODER)
            frame = frame or sock.frame('{"type":"ping","t":1}')
            await sock.send({"type": "hello"})
            reader = asyncio.ensure_future(drain(sock, counts, "flood_closed"))
            try:
                while not reader.done():
                    sock.writer.write(frame * 200)
                    counts.add("flood_frames", 200)
                    async with asyncio.timeout(5):
                        await sock.writer.drain()
                    await asyncio.sleep(0)  # drain() does not yield while the socket takes it
            finally:
                reader.cancel()
                sock.close()
        except (Closed, ConnectionError, OSError, TimeoutError):
            counts.add("flood_cut_off")
            await asyncio.sleep(0.1)


async def drain(sock: Socket, counts: Counts, closed_key: str) -> None:
    """Read and count until the server closes."""
    try:
        while True:
            await sock.receive()
            counts.add(closed_key.replace("closed", "frames_received"))
    except Closed as closed:
        counts.add(closed_key)
        counts.add(f"{closed_key}_{closed.code}")


async def resyncer(port: int, code: str, counts: Counts) -> None:
    """``resync since=0`` 9 times a second (within the rate) on a finished table,
    reading everything it is sent."""
    sock = await Socket.open(port, f"/ws/play/{code}/", source=RESYNCER)
    await sock.send({"type": "hello"})

    async def read() -> None:
        while True:
            frame = await sock.receive()
            counts.add("resync_frames")
            if frame.get("code") == "catch_up_limited":
                counts.add("resync_limited")

    reading = asyncio.ensure_future(read())
    try:
        while not reading.done():
            await sock.send({"type": "resync", "since": 0})
            await asyncio.sleep(1 / 9)
    finally:
        reading.cancel()
        sock.close()


async def sleeper(port: int, code: str, counts: Counts) -> None:
    """A spectator that never reads (small receive window) and asks for the whole game
    twice a second; dropped, it comes back."""
    while True:
        try:
            sock = await Socket.open(port, f"/ws/play/{code}/", receive_buffer=4096, source=SLEEPER)
            await sock.send({"type": "hello"})
            while True:
                await sock.send({"type": "resync", "since": 0})
                await asyncio.sleep(0.5)
        except (Closed, ConnectionError, OSError):
            counts.add("sleeper_dropped")
            await asyncio.sleep(0.5)


async def idle_sockets(port: int, code: str, counts: Counts, n: int = 1000) -> None:
    """``n`` sockets that connect (50 handshakes at a time) and never say hello; the
    server should close them all (hello timeout)."""
    gate = asyncio.Semaphore(50)

    async def one() -> None:
        async with gate:
            try:
                sock = await Socket.open(port, f"/ws/play/{code}/", source=IDLER)
            except (Closed, OSError):
                counts.add("idle_refused")
                return
        counts.add("idle_open")
        try:
            async with asyncio.timeout(60):
                await drain(sock, counts, "idle_closed")
        except TimeoutError:
            counts.add("idle_still_open")
        finally:
            sock.close()

    await asyncio.gather(*(one() for _ in range(n)))


async def stop(tasks: list[asyncio.Task]) -> None:
    """Cancel ``tasks`` until they are done: a cancellation can be lost (a ``drain()``
    that completes as it is cancelled), and a phase must end."""
    while pending := [t for t in tasks if not t.done()]:
        for task in pending:
            task.cancel()
        await asyncio.wait(pending, timeout=1)
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            task.result()
