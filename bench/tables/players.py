"""Simulated players at simulated tables, and what they measure.

A player turns its card ``pace`` after its turn starts and calls on a match after
150-600 ms; every frame is timed on arrival. The same players drive the site
(docs/protocol.md) and the bare broadcast (``bare_asgi``), which answers ``turn``
with a numbered ``card_turned`` event to the table's four connections.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from websockets.asyncio.client import connect

#: Events that answer a call (the race's own close comes a tie window later).
CALL_ANSWERS = {"race_opened", "call_joined", "wrong_call", "too_late"}
PING_EVERY_S = 2.0
DRAIN_IDLE_S = 2.0
DRAIN_MAX_S = 15.0


@dataclass
class Measures:
    """Raw samples (seconds) and counts, merged over tables and client processes."""

    flip_reveal: list[float] = field(default_factory=list)
    skew: list[float] = field(default_factory=list)
    call_result: list[float] = field(default_factory=list)
    echo: list[float] = field(default_factory=list)
    frames: int = 0
    errors: Counter = field(default_factory=Counter)
    lost: int = 0  # gaps: events missing before the last one a client got
    cut_at_end: int = 0  # events a client had not got when the run ended
    duplicated: int = 0
    out_of_order: int = 0
    games_over: int = 0
    failed_tables: int = 0
    recording: bool = False  # off while the tables connect

    def add(self, name: str, seconds: float) -> None:
        if self.recording:
            getattr(self, name).append(seconds)

    def merge(self, other: Measures) -> None:
        for name in ("flip_reveal", "skew", "call_result", "echo"):
            getattr(self, name).extend(getattr(other, name))
        for name in ("frames", "lost", "cut_at_end", "duplicated", "out_of_order", "games_over"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failed_tables += other.failed_tables
        self.errors.update(other.errors)


class SimTable:
    """Four players' shared bookkeeping: when each seat sent its turn, and when each
    event reached each client (the skew)."""

    def __init__(self, measures: Measures, size: int = 4) -> None:
        self.measures, self.size = measures, size
        self.turn_sent: dict[int, float] = {}
        self.arrivals: dict[int, list[float]] = defaultdict(list)
        self.max_seq = 0
        self.over = False
        self.last_frame_at = now()

    def arrived(self, event: dict, now: float) -> None:
        seq = event["seq"]
        self.max_seq = max(self.max_seq, seq)
        times = self.arrivals[seq]
        times.append(now)
        if event["code"] == "card_turned":
            sent = self.turn_sent.get(event["params"]["seat"])
            if sent is not None:
                self.measures.add("flip_reveal", now - sent)
        if len(times) == self.size:
            self.measures.add("skew", max(times) - min(times))
            del self.arrivals[seq]
            if event["code"] == "card_turned":
                self.turn_sent.pop(event["params"]["seat"], None)


class Player:
    def __init__(
        self, table: SimTable, ws_url: str, headers: dict, origin: str, pace_s: float,
        source: str = "127.0.0.1",
    ) -> None:  # fmt: skip
        self.table, self.ws_url, self.headers, self.origin = table, ws_url, headers, origin
        self.source = source
        self.pace_s = pace_s
        self.m = table.measures
        self.seat: int | None = None
        self.seen: set[int] = set()
        self.max_seq = 0
        self.base_seq: int | None = None
        self.view: dict = {}
        self.turn_timer: asyncio.TimerHandle | None = None
        self.turn_pending = False  # sent, not yet answered
        self.called_at: dict[str, float] = {}
        self.call_for: int | None = None  # the card_turned seq a call was planned for
        self.pings: dict[int, float] = {}
        self.acting = True
        self.ws = None
        self.pinger: asyncio.Task | None = None

    async def run(self, hello: dict, join: dict | None, stop_at: float) -> None:
        """Play until ``stop_at``, then keep receiving until the table's connections
        have been quiet for DRAIN_IDLE_S (at most DRAIN_MAX_S): late is not lost."""
        async with connect(
            self.ws_url, additional_headers=self.headers, origin=self.origin,
            open_timeout=30, max_size=2**20, local_addr=(self.source, 0),
        ) as ws:  # fmt: skip
            self.ws = ws
            asyncio.get_running_loop().call_later(stop_at - now(), self.stop_acting)
            await self.send(hello)
            if join is not None:
                await self.send(join)
            self.pinger = asyncio.create_task(self.ping_regularly())
            receiver = asyncio.create_task(self.receive_all())
            try:
                while not receiver.done():
                    await asyncio.sleep(0.25)
                    t = now()
                    idle = t - self.table.last_frame_at > DRAIN_IDLE_S
                    if t > stop_at and (idle or t > stop_at + DRAIN_MAX_S):
                        break
            finally:
                self.pinger.cancel()
                self.cancel_turn()
                receiver.cancel()
            if receiver.done() and not receiver.cancelled() and receiver.exception():
                raise receiver.exception()

    def stop_acting(self) -> None:
        self.acting = False
        self.cancel_turn()
        if self.pinger is not None:
            self.pinger.cancel()

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def receive_all(self) -> None:
        async for text in self.ws:
            at = self.table.last_frame_at = now()
            self.m.frames += self.m.recording
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "event":
                self.on_event(frame, at)
            elif kind == "welcome":
                self.seat = frame["seat"]
                if self.base_seq is None:
                    self.base_seq = frame["seq"]
                    self.max_seq = frame["seq"]
                self.update(frame["view"], frame.get("started", True))
            elif kind == "pong":
                sent = self.pings.pop(frame.get("t"), None)
                if sent is not None:
                    self.m.add("echo", at - sent)
            elif kind == "error":
                self.m.errors[frame["code"]] += 1
                self.called_at.clear()  # an answer to a call, or a refused turn
                if self.turn_pending:
                    self.turn_pending = False
                    self.table.turn_sent.pop(self.seat, None)
                    self.update(self.view, True)
            elif kind == "seats":
                self.update(self.view, frame["started"])

    def on_event(self, frame: dict, at: float) -> None:
        seq = frame["seq"]
        if seq in self.seen:
            self.m.duplicated += 1
            return
        if seq < self.max_seq:
            self.m.out_of_order += 1
        self.seen.add(seq)
        self.max_seq = max(self.max_seq, seq)
        self.table.arrived(frame, at)
        code, params = frame["code"], frame["params"]
        if code == "card_turned" and params["seat"] == self.seat:
            self.turn_pending = False
        if code in CALL_ANSWERS and params.get("seat") == self.seat:
            sent = self.called_at.pop(params["kind"], None)
            if sent is not None:
                self.m.add("call_result", at - sent)
        if code == "game_over":
            self.table.over = True
        self.update(frame["view"], True, seq if code == "card_turned" else None)

    def update(self, view: dict, started: bool, turned_seq: int | None = None) -> None:
        """Plan this player's next turn and calls from the view now on screen."""
        self.view = view
        if not self.acting or not started or view.get("over"):
            self.cancel_turn()
            return
        my_turn = view.get("to_play") == self.seat and not view.get("race_open")
        if not my_turn:
            self.cancel_turn()
        elif self.turn_timer is None and not self.turn_pending:
            loop = asyncio.get_running_loop()
            self.turn_timer = loop.call_later(self.pace_s, self.turn)
        valid = view.get("valid") or {}
        if turned_seq is not None:
            for kind in ("snap", "snap_pot"):
                if valid.get(kind):
                    delay = random.uniform(0.150, 0.600)
                    asyncio.get_running_loop().call_later(delay, self.call, kind, turned_seq)
                    break

    def cancel_turn(self) -> None:
        if self.turn_timer is not None:
            self.turn_timer.cancel()
            self.turn_timer = None

    def turn(self) -> None:
        self.turn_timer = None
        if not self.acting:
            return
        self.turn_pending = True
        self.table.turn_sent[self.seat] = now()
        asyncio.ensure_future(self.send({"type": "turn"}))

    def call(self, kind: str, seen: int) -> None:
        if not self.acting or kind in self.called_at or self.out_now():
            return
        self.called_at[kind] = now()
        asyncio.ensure_future(self.send({"type": kind, "seen": max(seen, self.max_seq)}))

    def out_now(self) -> bool:
        """This player has no cards left on screen (lost them since the call was
        planned): its Snap! button is gone, as a child's would be, so it does not call."""
        out = (self.view or {}).get("out") or ()
        return self.seat is not None and self.seat < len(out) and bool(out[self.seat])

    async def ping_regularly(self) -> None:
        await asyncio.sleep(random.uniform(0, PING_EVERY_S))
        number = 0
        while True:
            number += 1
            self.pings[number] = now()
            await self.send({"type": "ping", "t": number})
            await asyncio.sleep(PING_EVERY_S)

    def account(self) -> None:
        """Events this client never got after its welcome: gaps before the last one it
        got (lost), and the table's later events it had not got at the end."""
        if self.base_seq is not None:
            expected = set(range(self.base_seq + 1, self.max_seq + 1))
            self.m.lost += len(expected - self.seen)
            self.m.cut_at_end += max(0, self.table.max_seq - self.max_seq)


def now() -> float:
    return time.monotonic()
