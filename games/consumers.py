"""The WebSocket of a live table, ``ws/play/<code>/``: parse, hand to the service, send.

The connection's seat comes from the Django session (a seat acts only for itself);
a connection without a seat watches as a spectator. Every frame is checked
(:func:`games.protocol.client_message`: size, JSON, known type, fields) and rate
limited; bad input is answered with an ``error`` frame and changes nothing. Messages
are documented in ``docs/protocol.md``. A class table's teacher controls go to the
table's owner as they are (it alone decides who the teacher is).
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from games import tables
from games.class_text import control_text
from games.live_text import seat_labels, told_event, with_labels
from games.protocol import MOVES, ProtocolError, client_message, view_for_seat
from games.table_errors import TABLE_ERROR_TEXTS
from games.tables.codes import normalise_code
from games.texts import REJECT_TEXTS, reject_text

__all__ = ["TableConsumer"]

#: Protocol errors told with the engine's "That is not a move in this game."
_NOT_A_MOVE = {"bad_json", "bad_message", "unknown_type", "too_big", "binary", "not_your_seat"}


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``per_second`` on average.

    >>> bucket = RateLimit(burst=2, per_second=1.0)
    >>> [bucket.allow(now=0.0) for _ in range(3)], bucket.allow(now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, burst: int = 20, per_second: float = 10.0) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.at: float | None = None

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


#: At a table with lag compensation the server pings each connection this often.
PING_EVERY_S = 10.0


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One client connection to one table."""

    async def connect(self) -> None:
        self.code = normalise_code(self.scope["url_route"]["kwargs"]["code"])
        self.session_key = self.scope.get("session") and self.scope["session"].session_key
        self.lang = "en"
        self.seat: int | None = None
        self.seats: list[dict] = []  # the last seats told, for the names in event texts
        self.teacher = False  # the class's teacher (told by the table in the welcome)
        self.present_seat: int | None = None  # the seat this connection counts for
        self.last_seq: int | None = None  # None until welcomed
        self.rate = RateLimit()
        self.rate_warned = False
        self.lag_ms = 0  # half the shortest of the last round trips measured
        self.round_trips: list[int] = []
        self.pinger: asyncio.Task | None = None
        self.group = tables.group_name(self.code)
        if await tables.table_welcome(code=self.code, session_key=self.session_key) is None:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, close_code: int) -> None:
        if self.pinger is not None:
            self.pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.pinger
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.present_seat is not None:
            await self.presence(self.present_seat, present=False)

    async def presence(self, seat: int, *, present: bool) -> None:
        await tables.table_presence(
            code=self.code, seat=seat, present=present, connection=self.channel_name
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        received_ms = tables.wall_ms()
        if not self.rate.allow():
            if not self.rate_warned:  # one error per flood; the rest is dropped unread
                self.rate_warned = True
                await self.send_error("rate_limited")
            return
        self.rate_warned = False
        try:
            if text_data is None:
                raise ProtocolError("binary")
            message = client_message(text_data)
        except ProtocolError as error:
            await self.send_error(error.code)
            return
        await getattr(self, f"on_{message['type']}")(message, received_ms)

    # -- client messages -----------------------------------------------------------------

    async def on_hello(self, message: dict, received_ms: int) -> None:
        self.lang = message.get("lang", self.lang)
        await self.send_welcome()
        if "since" in message:
            await self.catch_up(message["since"])

    async def on_join(self, message: dict, received_ms: int) -> None:
        if not self.session_key:
            await self.send_error("no_session")
            return
        seat = await tables.table_join(
            code=self.code, session_key=self.session_key, name=message["name"]
        )
        if isinstance(seat, str):
            await self.send_error(seat)
            return
        await self.send_welcome()

    async def on_control(self, message: dict, received_ms: int) -> None:
        """A teacher's control (start, pause, …): the table decides who may."""
        outcome = await tables.table_control(
            code=self.code, session_key=self.session_key, message=message
        )
        if outcome.refused:
            await self.send_error(outcome.refused)

    on_start = on_pause = on_resume = on_pace = on_control
    on_add_bot = on_remove_bot = on_remove_player = on_restart = on_control

    async def on_done(self, message: dict, received_ms: int) -> None:
        seat = await tables.table_seat(code=self.code, session_key=self.session_key)
        if seat is None:
            await self.send_error("not_seated")
            return
        await tables.table_done(code=self.code, seat=seat, walkthroughs=message["walkthroughs"])

    async def on_turn(self, message: dict, received_ms: int) -> None:
        await self.move(message, received_ms)

    on_snap = on_snap_pot = on_turn

    async def on_resync(self, message: dict, received_ms: int) -> None:
        if self.last_seq is None or message["since"] > self.last_seq:
            await self.send_error("bad_message")
            return
        await self.catch_up(message["since"])

    async def on_ping(self, message: dict, received_ms: int) -> None:
        await self.send_json({"type": "pong", "t": message.get("t"), "server_ms": received_ms})

    async def on_pong(self, message: dict, received_ms: int) -> None:
        """The answer to the server's ``ping``: one more measured round trip."""
        round_trip = received_ms - message["t"]
        if self.pinger is None or not 0 <= round_trip <= 10_000:
            await self.send_error("bad_message")
            return
        self.round_trips = [*self.round_trips[-4:], round_trip]
        self.lag_ms = min(self.round_trips) // 2

    async def ping_regularly(self) -> None:
        while True:
            await self.send_json({"type": "ping", "t": tables.wall_ms()})
            await asyncio.sleep(PING_EVERY_S)

    async def move(self, message: dict, received_ms: int) -> None:
        assert message["type"] in MOVES
        self.seat = await tables.table_seat(code=self.code, session_key=self.session_key)
        if self.seat is None:
            await self.send_error("not_seated")
            return
        outcome = await tables.table_submit(
            code=self.code,
            seat=self.seat,
            action_json=message,
            received_ms=received_ms,
            lag_ms=self.lag_ms,
        )
        if outcome.refused:
            await self.send_error(outcome.refused)

    # -- sending -------------------------------------------------------------------------

    async def send_welcome(self) -> None:
        welcome = await tables.table_welcome(code=self.code, session_key=self.session_key)
        self.seat = welcome["seat"]
        self.last_seq = welcome["seq"]
        self.seats = welcome["seats"]
        self.teacher = bool(welcome["class"] and welcome["class"]["teacher"])
        with translation.override(self.lang):
            welcome["seats"] = with_labels(self.seats)
        await self.send_json(welcome)
        if welcome["lag_cap_ms"] and self.pinger is None:
            self.pinger = asyncio.create_task(self.ping_regularly())
        if self.seat != self.present_seat:
            if self.present_seat is not None:
                await self.presence(self.present_seat, present=False)
            self.present_seat = self.seat
            if self.seat is not None:
                await self.presence(self.seat, present=True)

    async def catch_up(self, since: int) -> None:
        """Send the stored events after ``since`` (and up to now), in order."""
        for event in await tables.table_events_since(code=self.code, since=since):
            await self.send_event(event)
        # events broadcast meanwhile are already numbered <= last_seq and are dropped

    async def send_event(self, event: dict) -> None:
        frame = {"type": "event", **event, "view": view_for_seat(event["view"], self.seat)}
        with translation.override(self.lang):
            frame["text"] = told_event(event, seat_labels(self.seats))
        await self.send_json(frame)
        self.last_seq = max(self.last_seq or 0, event["seq"])

    async def send_error(self, code: str) -> None:
        frame = {"type": "error", "code": code}
        with translation.override(self.lang):
            if code in REJECT_TEXTS:
                frame["message"] = reject_text(code)
            elif code in _NOT_A_MOVE:
                frame["message"] = reject_text("bad_action")
            elif code in TABLE_ERROR_TEXTS:
                frame["message"] = str(TABLE_ERROR_TEXTS[code])
        await self.send_json(frame)

    # -- from the table's group ----------------------------------------------------------

    async def table_event(self, message: dict) -> None:
        if self.last_seq is None or message["seq"] <= self.last_seq:
            return  # not welcomed yet (the welcome carries the view), or already sent
        event = {k: v for k, v in message.items() if k != "type"}
        if message["seq"] > self.last_seq + 1:
            await self.catch_up(self.last_seq)  # a gap: read what was missed from storage
            return
        await self.send_event(event)

    async def table_seats(self, message: dict) -> None:
        if self.last_seq is None:
            return
        self.seats = message["seats"]
        with translation.override(self.lang):
            seats = with_labels(self.seats)
        await self.send_json({"type": "seats", "seats": seats, "started": message["started"]})

    async def table_reseat(self, message: dict) -> None:
        """The teacher changed the seats: a new welcome (this connection's seat may have
        changed or gone), then any event it had not been sent yet."""
        if self.last_seq is None:
            return
        since = self.last_seq
        await self.send_welcome()
        if self.last_seq > since:  # events applied meanwhile: sent too, in order
            await self.catch_up(since)

    async def table_control(self, message: dict) -> None:
        if self.last_seq is None:
            return
        with translation.override(self.lang):
            text = control_text(message["code"], message["params"])
        await self.send_json(
            {
                "type": "control",
                "number": message["number"],
                "code": message["code"],
                "params": message["params"],
                "text": text,
                # null at a table opened from the lobby (its opener's start_now)
                "class": message["class"] and {**message["class"], "teacher": self.teacher},
            }
        )

    async def table_class(self, message: dict) -> None:
        if self.last_seq is not None:
            await self.send_json(
                {"type": "class", "class": {**message["class"], "teacher": self.teacher}}
            )

    async def table_progress(self, message: dict) -> None:
        """Walkthroughs a student has finished: for the teacher's pages only."""
        if self.teacher and self.last_seq is not None:
            await self.send_json(
                {"type": "progress", "seat": message["seat"], "done": message["done"]}
            )
