"""The WebSocket of a live table, ``ws/play/<code>/``: parse, hand to the service, send.

The connection's seat comes from the Django session (a seat acts only for itself);
a connection without a seat watches as a spectator. Every frame is checked
(:func:`games.tables.protocol.client_message`: size, nesting, JSON, known type, fields) and
rate limited before it gets here (:mod:`games.play.ws_guard`); bad input is answered with an
``error`` frame and changes nothing, and so is a handler that fails (``server_error``),
after which the connection goes on; its presence is always given back when it closes. Messages
are documented in ``docs/protocol.md``. A class table's teacher controls go to the
table's owner as they are (it alone decides who the teacher is).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from channels.consumer import get_handler_name
from channels.exceptions import AcceptConnection, DenyConnection, StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from games import tables
from games.play.ws_guard import FLOOD_CLOSE_CODE
from games.play.ws_limits import catch_up_budget
from games.tables.codes import normalise_code
from games.tables.live_text import seat_labels, told_event, with_labels
from games.tables.protocol import MOVES, ProtocolError, client_message, view_for_seat
from games.words.controls import control_text
from games.words.errors import TABLE_ERROR_TEXTS
from games.words.texts import REJECT_TEXTS, reject_text

__all__ = ["HELLO_TIMEOUT_CLOSE_CODE", "TableConsumer"]

log = logging.getLogger(__name__)

#: The close code of a connection that did not say ``hello`` in time.
HELLO_TIMEOUT_CLOSE_CODE = 4408

#: Protocol errors told with the engine's "That is not a move in this game."
_NOT_A_MOVE = {"bad_json", "bad_message", "unknown_type", "too_big", "binary", "not_your_seat"}


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
        self.catch_up_budget = catch_up_budget(settings.WS_CATCH_UP_EVENTS_PER_MINUTE)
        self.hello_deadline: asyncio.Task | None = None
        self.attending = False  # counted at the table once welcomed (idle tables pause)
        self.lag_ms = 0  # half the shortest of the last round trips measured
        self.round_trips: list[int] = []
        self.pinger: asyncio.Task | None = None
        self.group = tables.group_name(self.code)
        if await tables.table_welcome(code=self.code, session_key=self.session_key) is None:
            await self.close(code=4404)
            return
        await self.accept()  # the table's group is joined at hello (send_welcome)
        self.hello_deadline = asyncio.create_task(self.close_without_hello())

    async def close_without_hello(self) -> None:
        """A connection that has not said ``hello`` after ``WS_HELLO_TIMEOUT_S`` is closed."""
        await asyncio.sleep(settings.WS_HELLO_TIMEOUT_S)
        if self.last_seq is None:
            await self.close(code=HELLO_TIMEOUT_CLOSE_CODE)

    async def disconnect(self, close_code: int) -> None:
        try:
            for task in (self.pinger, self.hello_deadline):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            await self.channel_layer.group_discard(self.group, self.channel_name)
        finally:  # the seat's presence is given back whatever happened before
            try:
                if self.present_seat is not None:
                    await self.presence(self.present_seat, present=False)
            finally:
                if self.attending:
                    await tables.table_attend(
                        code=self.code, connection=self.channel_name, here=False
                    )

    async def dispatch(self, message: dict) -> None:
        """Any message's handler; one that fails is logged and told as ``server_error``
        (the connection and the table go on), never left to close the socket with 1011
        and skip :meth:`disconnect`."""
        try:
            await self.handle(message)
        except (StopConsumer, AcceptConnection, DenyConnection):
            raise
        except Exception:
            log.exception("table %s: %s failed", self.code, message.get("type"))
            if message["type"] == "websocket.disconnect":
                raise StopConsumer() from None
            with contextlib.suppress(Exception):
                await self.send_error("server_error")

    async def handle(self, message: dict) -> None:
        """Channels' ``AsyncConsumer.dispatch`` without its ``aclose_old_connections()``:
        that sends every message (each frame, each broadcast to each connection) through
        the one database thread just to close stale connections, and each idle socket's
        connect waited there with the moves of every table. This consumer touches the
        database only through ``database_sync_to_async``, which closes them itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content) -> str:
        return json.dumps(content, allow_nan=False)  # NaN and Infinity are not JSON

    async def websocket_flooded(self, message: dict) -> None:
        """The guard dropped a frame over the rate (told once per flood)."""
        await self.send_error("rate_limited")

    async def websocket_flood_close(self, message: dict) -> None:
        """The flood went on after its warning: the guard takes no more frames."""
        await self.close(code=FLOOD_CLOSE_CODE)

    async def presence(self, seat: int, *, present: bool) -> None:
        await tables.table_presence(
            code=self.code, seat=seat, present=present, connection=self.channel_name
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        received_ms = tables.wall_ms()
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
            await self.catch_up(message["since"], asked=True, welcomed=True)

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
        await self.catch_up(message["since"], asked=True)

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
        if not self.attending:  # before the snapshot: no event after it is missed
            await self.channel_layer.group_add(self.group, self.channel_name)
        welcome = await tables.table_welcome(code=self.code, session_key=self.session_key)
        self.seat = welcome["seat"]
        self.last_seq = welcome["seq"]
        self.seats = welcome["seats"]
        self.teacher = bool(welcome["class"] and welcome["class"]["teacher"])
        with translation.override(self.lang):
            welcome["seats"] = with_labels(self.seats)
        await self.send_json(welcome)
        if not self.attending:
            self.attending = True
            await tables.table_attend(code=self.code, connection=self.channel_name, here=True)
        if welcome["lag_cap_ms"] and self.pinger is None:
            self.pinger = asyncio.create_task(self.ping_regularly())
        if self.seat != self.present_seat:
            if self.present_seat is not None:
                await self.presence(self.present_seat, present=False)
            self.present_seat = self.seat
            if self.seat is not None:
                await self.presence(self.seat, present=True)

    async def catch_up(self, since: int, *, asked: bool = False, welcomed: bool = False) -> None:
        """Send the stored events after ``since`` (and up to now), in order, if the
        connection's catch-up budget covers them (one unit an event). Otherwise the
        events are not sent: a client that ``asked`` is told ``catch_up_limited``, and
        then, unless it was just ``welcomed``, gets a new welcome, the table as it is now."""
        affordable = self.catch_up_budget.left()
        events = await tables.table_events_since(code=self.code, since=since, limit=affordable + 1)
        if len(events) > affordable:
            if asked:
                await self.send_error("catch_up_limited")
            if not welcomed:
                await self.send_welcome()
            return
        self.catch_up_budget.take(len(events))
        for event in events:
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

    async def table_owner(self, message: dict) -> None:
        """The table has a new owner (another process took it over): say again that
        this connection's seat is present, so that it gets no stand-in."""
        if self.present_seat is not None:
            await self.presence(self.present_seat, present=True)

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
            await self.catch_up(since, welcomed=True)

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
