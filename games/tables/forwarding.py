"""Forwarding over the channel layer: a process asks the process that owns a table to
run a call on it, and waits for the answer.

Every process has one channel of its own on the layer (its name is also the process's
name in the tables' leases, ``games.tables.lease``). A call is a message
``{"type": "owner.call", "id", "reply", "code", "op", "kwargs"}`` sent to the owner's
channel; the owner answers ``{"type": "owner.reply", "id", "ok", "result"}`` on the
caller's channel (``ok`` false with ``"error": "not_owner"`` when it no longer owns the
table). A call that gets no answer in time returns None: the caller looks at the lease
again (the owner may have died; after the lease expires, the caller takes the table).

The same channel receives the tables' messages relayed from other processes
(``table.relay``, :mod:`games.tables.fan_out`): they are handed on one at a time, in
the order they came, before the next message is read.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

Answer = Callable[[str, str, dict], Awaitable[dict]]
Relay = Callable[[dict, str], Awaitable[None]]


class Endpoint:
    """This process's channel: serves calls for the tables it owns, and sends its own."""

    def __init__(self, layer, answer: Answer, relay: Relay | None = None) -> None:
        self.layer = layer
        self.channel = ""
        self._answer = answer
        self._relay = relay
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future] = {}
        self._tasks: set[asyncio.Task] = set()
        self._starting: asyncio.Future | None = None

    async def started(self) -> Endpoint:
        """Start once; every caller waits until the channel has its name. The layer may
        wait on Redis for a new channel (publish/subscribe subscribes to it first), and
        a call that read the name meanwhile would take tables under the empty name,
        which every process shares (two owners of one table, one refused by the fence).
        A start that failed is tried again by the
        next caller."""
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        await asyncio.shield(self._starting)
        return self

    async def _start(self) -> None:
        try:
            # the layer's default prefix (channels_redis's list layer, still usable,
            # receives every channel of a process through one list; another prefix
            # would hold its lock)
            self.channel = await self.layer.new_channel()
        except BaseException:
            self._starting = None
            raise
        self._spawn(self._serve())

    def stop(self) -> None:
        """Stop serving (also from after the loop it ran on has closed)."""
        for waiting in [*self._tasks, *self._waiting.values()]:
            try:
                waiting.cancel()
            except RuntimeError:  # its loop is closed: nothing runs there any more
                pass
        self._tasks.clear()
        self._waiting.clear()

    def _spawn(self, work: Awaitable) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") == "owner.reply":
                future = self._waiting.pop(message.get("id", ""), None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("type") == "owner.call":
                self._spawn(self._reply(message))  # calls for different tables run at once
            elif message.get("type") == "table.relay" and self._relay is not None:
                await self._relay(message, self.channel)  # in order: not spawned

    async def _reply(self, message: dict) -> None:
        try:
            answer = await self._answer(message["code"], message["op"], message["kwargs"])
        except Exception as error:  # the caller gets an answer whatever happens here
            answer = {"ok": False, "error": type(error).__name__}
        await self.layer.send(
            message["reply"], {"type": "owner.reply", "id": message["id"], **answer}
        )

    async def call(
        self, channel: str, code: str, op: str, kwargs: dict, timeout_s: float
    ) -> dict | None:
        """Ask the process of ``channel`` to run ``op`` on table ``code``; its answer, or
        None when none came within ``timeout_s``."""
        call_id = f"{self.channel}#{next(self._ids)}"
        future = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = future
        message = {"type": "owner.call", "id": call_id, "reply": self.channel}
        message |= {"code": code, "op": op, "kwargs": kwargs}
        try:
            await self.layer.send(channel, message)
            return await asyncio.wait_for(future, timeout_s)
        except TimeoutError:
            return None
        except Exception:  # the layer refused the message (over capacity…)
            return None
        finally:
            self._waiting.pop(call_id, None)
