"""The WebSocket of a live table, ``ws/play/<code>/``: parse, hand to the service, send.

The connection's seat comes from the Django session (a seat acts only for itself);
a connection without a seat watches as a spectator. At a table on one device the
session holds several seats (one per edge of the tablet): each move names its ``seat``,
one of those, and each event is told in every language of the seats held (``texts``).
Every frame is checked (:func:`games.tables.protocol.client_message`: size, nesting,
JSON, known type, fields) and rate limited before it gets here
(:mod:`games.play.ws_guard`); bad input is answered with an ``error`` frame and changes
nothing, and so is a handler that fails (``server_error``), after which the connection
goes on; its presence is always given back when it closes. Messages are documented in
``docs/protocol.md``.

The table's messages come from its owner directly (:mod:`games.tables.fan_out`), not
through a channel of the connection's own: an event that follows the last one sent is
sent at once, in the owner's call (the table's players get a card in the same pass of
the event loop); anything else, or anything while the connection is itself telling
events (a welcome, a catch-up) or has messages waiting, waits in the connection's inbox
and is handled in order by the connection's task. An inbox over
:data:`INBOX_LIMIT` means the connection is stuck: it is closed (the client comes back
and catches up). A class table's teacher controls go to the table's owner as they
are (it alone decides who the teacher is).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import AcceptConnection, DenyConnection, StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from games import tables
from games.play.ws_guard import FLOOD_CLOSE_CODE
from games.play.ws_limits import catch_up_budget
from games.tables.codes import normalise_code
from games.tables.live_text import event_labels, told_event, with_labels
from games.tables.protocol import MOVES, ProtocolError, client_message, view_for_seat
from games.words.controls import control_text
from games.words.errors import TABLE_ERROR_TEXTS
from games.words.texts import REJECT_TEXTS, reject_text

__all__ = ["HELLO_TIMEOUT_CLOSE_CODE", "INBOX_LIMIT", "STUCK_CLOSE_CODE", "TableConsumer"]

log = logging.getLogger(__name__)

#: The close code of a connection that did not say ``hello`` in time.
HELLO_TIMEOUT_CLOSE_CODE = 4408
#: The table's messages a connection may have waiting in its inbox; one more and the
#: connection is closed with :data:`STUCK_CLOSE_CODE` (its client reconnects and catches
#: up). A connection within its limits never has more than a few.
INBOX_LIMIT = 500
STUCK_CLOSE_CODE = 4503

#: Protocol errors told with the engine's "That is not a move in this game."
_NOT_A_MOVE = {"bad_json", "bad_message", "unknown_type", "too_big", "binary", "not_your_seat"}


#: A long catch-up is sent one event a turn of the loop, the other connections' work
#: between (a move is several turns of the loop: its frame read, the table's step, each
#: player's event), and at most this many events a second: between them the loop is
#: left idle now and then, so that the threads writing the other tables' steps get the
#: interpreter at once instead of waiting for a busy loop to let go of it. A game's
#: catch-up (a few hundred events) takes a fraction of a second.
CATCH_UP_EVENTS_PER_SECOND = 1000

#: At a table with lag compensation the server pings each connection this often.
PING_EVERY_S = 10.0


@database_sync_to_async
def session_exists(session) -> bool:
    """The session named by the connection's cookie is stored and not expired (the
    cookie alone is read at connect, without the database): loading a session that is
    not stored takes its key away, as Django does for a page."""
    session.keys()  # loads it
    return session.session_key is not None


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One client connection to one table."""

    # Its state in slots, not in a dict of 30 keys: memory per connection.
    __slots__ = (
        "attending", "base_send", "catch_up_budget", "channel_layer", "channel_name", "code",
        "deliver", "device", "hello_deadline", "inbox_pending", "lag_ms", "lang",
        "last_seq", "listening", "my_seats", "pinger", "present_seats", "round_trips",
        "scope", "seat", "seats", "session_key", "stuck", "teacher", "telling",
    )  # fmt: skip

    async def __call__(self, scope, receive, send) -> None:
        """Channels' consumer loop, without a channel on the layer: the table's messages
        come through :meth:`table_message` into the connection's one inbox (the guard's,
        ``scope["snap.deliver"]``: games.play.ws_guard), read in order with its frames."""
        self.scope = scope
        self.channel_layer = None
        self.channel_name = tables.connection_name()
        self.base_send = send
        self.inbox_pending = 0  # put in the inbox and not yet handled
        self.telling = 0  # the connection's own task is sending events (welcome, catch-up)
        self.stuck = False
        self.deliver = scope.get("snap.deliver")
        if self.deliver is None:
            raise RuntimeError("TableConsumer is served behind games.play.ws_guard")
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    async def table_message(self, message: dict) -> None:
        """One of the table's messages, from its owner (see the module docstring)."""
        if self.stuck:
            return
        if (
            message["type"] == "table.event"
            and not self.inbox_pending
            and not self.telling
            and self.last_seq is not None
            and message["seq"] == self.last_seq + 1
        ):
            self.telling += 1
            try:
                await self.send_event({k: v for k, v in message.items() if k != "type"})
            finally:
                self.telling -= 1
            return
        if self.inbox_pending >= INBOX_LIMIT:
            log.warning(
                "table %s: closing a connection with %d messages waiting",
                self.code,
                self.inbox_pending,
            )
            self.stuck = True  # closed now: its own task is what is held up
            closing = asyncio.ensure_future(self.close(code=STUCK_CLOSE_CODE))
            closing.add_done_callback(lambda task: task.cancelled() or task.exception())
            return
        self.inbox_pending += 1
        self.deliver(message)

    async def connect(self) -> None:
        self.code = normalise_code(self.scope["url_route"]["kwargs"]["code"])
        self.session_key = self.scope.get("session") and self.scope["session"].session_key
        self.lang = "en"
        self.seat: int | None = None
        self.seats: list[dict] = []  # the last seats told, for the names in event texts
        self.teacher = False  # the class's teacher (told by the table in the welcome)
        self.device = False  # a table on one device (told in the welcome)
        self.my_seats: list[int] = []  # the seats this session holds (several: on one device)
        self.present_seats: set[int] = set()  # the seats this connection counts for
        self.last_seq: int | None = None  # None until welcomed
        self.catch_up_budget = catch_up_budget(settings.WS_CATCH_UP_EVENTS_PER_MINUTE)
        self.hello_deadline: asyncio.TimerHandle | None = None  # until welcomed
        self.attending = False  # counted at the table once welcomed (idle tables pause)
        self.lag_ms = 0  # half the shortest of the last round trips measured
        self.round_trips: list[int] = []
        self.pinger: asyncio.Task | None = None
        self.listening = False
        # accepted before the table is looked for: a close before the accept is an HTTP
        # 403 to the browser (its close code 1006, never the 4404 that tells the Play
        # page to stop trying), and the table's owner may be another process, busy: a
        # handshake left unanswered is dropped by the server's or the proxy's timeout
        await self.accept()  # the table is listened to at hello (send_welcome)
        self.hello_deadline = asyncio.get_running_loop().call_later(
            settings.WS_HELLO_TIMEOUT_S, self.close_without_hello
        )  # a timer, not a task: a sleeping task a connection costs memory
        if not await tables.table_exists(code=self.code):
            await self.close(code=4404)

    def close_without_hello(self) -> None:
        """A connection that has not said ``hello`` after ``WS_HELLO_TIMEOUT_S`` is closed."""
        self.hello_deadline = None
        if self.last_seq is None:
            closing = asyncio.ensure_future(self.close(code=HELLO_TIMEOUT_CLOSE_CODE))
            closing.add_done_callback(lambda task: task.cancelled() or task.exception())

    async def disconnect(self, close_code: int) -> None:
        try:
            if self.hello_deadline is not None:
                self.hello_deadline.cancel()
            if self.pinger is not None:
                self.pinger.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self.pinger
            if self.listening:
                await tables.table_unlisten(code=self.code, listener=self)
        finally:  # the seat's presence is given back whatever happened before
            try:
                if self.present_seats:
                    await self.presence(self.present_seats, present=False)
            finally:  # and its welcome (listening) too: the owner relays to it no more
                if self.attending or self.listening:
                    await tables.table_attend(
                        code=self.code, connection=self.channel_name, here=False
                    )

    async def dispatch(self, message: dict) -> None:
        """Any message's handler; one that fails is logged and told as ``server_error``
        (the connection and the table go on), never left to close the socket with 1011
        and skip :meth:`disconnect`.

        Channels' own ``dispatch`` first runs ``close_old_connections`` through
        ``sync_to_async`` for every message: a hop to the one database thread, queued
        behind every table's stored steps, for each frame read and each event sent.
        This consumer never touches the
        database on the loop; the table service's ``database_sync_to_async`` calls
        close old connections themselves, in that thread."""
        from_table = message["type"].startswith("table.")
        if from_table:
            self.telling += 1
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            await handler(message)
        except (StopConsumer, AcceptConnection, DenyConnection):
            raise
        except Exception:
            log.exception("table %s: %s failed", self.code, message.get("type"))
            if message["type"] == "websocket.disconnect":
                raise StopConsumer() from None
            with contextlib.suppress(Exception):
                await self.send_error("server_error")
        finally:
            if from_table:
                self.telling -= 1
                self.inbox_pending -= 1

    @classmethod
    async def encode_json(cls, content) -> str:
        return json.dumps(content, allow_nan=False)  # NaN and Infinity are not JSON

    async def websocket_flooded(self, message: dict) -> None:
        """The guard dropped a frame over the rate (told once per flood)."""
        await self.send_error("rate_limited")

    async def websocket_flood_close(self, message: dict) -> None:
        """The flood went on after its warning: the guard takes no more frames."""
        await self.close(code=FLOOD_CLOSE_CODE)

    async def presence(self, seats: set[int], *, present: bool) -> None:
        await tables.table_presence(
            code=self.code, seats=sorted(seats), present=present, connection=self.channel_name
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
        if not self.session_key or not await session_exists(self.scope["session"]):
            await self.send_error("no_session")
            return
        if "players" in message:  # the people at one tablet, together
            seat = await tables.table_join_device(
                code=self.code, session_key=self.session_key, players=message["players"]
            )
        else:
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
        """A move of the connection's seat; at a table on one device, of the seat it
        names (one of the session's seats; required when it holds several)."""
        assert message["type"] in MOVES
        message = dict(message)
        named = message.pop("seat", None)
        device, held = await tables.table_seats_held(code=self.code, session_key=self.session_key)
        self.seat = held[0] if held else None
        if named is not None and (not device or named not in held):
            await self.send_error("not_your_seat", seat=named if device else None)
            return
        if named is None and device and len(held) > 1:
            await self.send_error("not_your_seat")  # which of its seats? it must say
            return
        seat = named if named is not None else self.seat
        if seat is None:
            await self.send_error("not_seated")
            return
        outcome = await tables.table_submit(
            code=self.code,
            seat=seat,
            action_json=message,
            received_ms=received_ms,
            lag_ms=self.lag_ms,
        )
        if outcome.refused:
            await self.send_error(outcome.refused, seat=named)

    # -- sending -------------------------------------------------------------------------

    async def send_welcome(self) -> None:
        self.telling += 1
        try:
            await self._send_welcome()
        finally:
            self.telling -= 1

    async def _send_welcome(self) -> None:
        if not self.listening:  # before the snapshot: no event after it is missed
            self.listening = True
            await tables.table_listen(code=self.code, listener=self)
        previous = self.last_seq
        welcome = await tables.table_welcome(
            code=self.code, session_key=self.session_key, connection=self.channel_name
        )
        if previous is not None and welcome["seq"] > previous:
            await self.send_missed(previous, welcome["seq"])
        self.seat = welcome["seat"]
        self.device, self.my_seats = welcome["device"], welcome["my_seats"]
        self.last_seq = welcome["seq"]
        if self.hello_deadline is not None:
            self.hello_deadline.cancel()
            self.hello_deadline = None
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
        held = set(self.my_seats)
        if held != self.present_seats:  # counted for every seat held, and no other
            gone, self.present_seats = self.present_seats - held, held
            if gone:
                await self.presence(gone, present=False)
            if held:
                await self.presence(held, present=True)

    async def catch_up(self, since: int, *, asked: bool = False, welcomed: bool = False) -> None:
        """Send the stored events after ``since`` (and up to now), in order, if the
        connection's catch-up budget covers them (one unit an event). Otherwise the
        events are not sent: a client that ``asked`` is told ``catch_up_limited``, and
        then, unless it was just ``welcomed``, gets a new welcome, the table as it is now."""
        self.telling += 1
        try:
            await self._catch_up(since, asked=asked, welcomed=welcomed)
        finally:
            self.telling -= 1

    async def _catch_up(self, since: int, *, asked: bool, welcomed: bool) -> None:
        affordable = self.catch_up_budget.left()
        # events are numbered 1, 2, 3…: at least last_seq - since of them are after
        # ``since``, so a catch-up the budget cannot cover is refused unread (a resync
        # at 9 a second read up to 2,000 stored events each time to refuse them)
        known_after = (self.last_seq or 0) - since
        events = []
        if known_after <= affordable:
            events = await tables.table_events_since(
                code=self.code, since=since, limit=affordable + 1
            )
        if known_after > affordable or len(events) > affordable:
            if asked:
                await self.send_error("catch_up_limited")
            if not welcomed:
                await self.send_welcome()
            return
        self.catch_up_budget.take(len(events))
        loop = asyncio.get_running_loop()
        started = loop.time()
        for number, event in enumerate(events, 1):
            await self.send_event(event)
            ahead = started + number / CATCH_UP_EVENTS_PER_SECOND - loop.time()
            await asyncio.sleep(max(ahead, 0))  # other tables' moves between the events
        # events broadcast meanwhile are already numbered <= last_seq and are dropped

    async def send_missed(self, since: int, until: int) -> None:
        """Before a new welcome to a connection welcomed already (``join``, a start, a
        reseat, another ``hello``): the events up to the new welcome's ``seq`` that it had
        not been sent (they came while it waited for that welcome), so that a client
        counting ``seq`` is sent every event once. Paid from the catch-up budget; beyond
        it they are not sent (the welcome's view is the table after them)."""
        if until - since > self.catch_up_budget.left():
            return
        events = await tables.table_events_since(code=self.code, since=since, limit=until - since)
        self.catch_up_budget.take(len(events))
        for event in events:
            if event["seq"] > (self.last_seq or 0):
                await self.send_event(event)

    def seat_lang(self, seat: int | None) -> str:
        """The language of a held seat's edge (a table on one device), else the
        connection's."""
        if seat is not None and seat in self.my_seats and seat < len(self.seats):
            return self.seats[seat].get("lang") or self.lang
        return self.lang

    async def send_event(self, event: dict) -> None:
        frame = {"type": "event", **event, "view": view_for_seat(event["view"], self.seat)}
        with translation.override(self.lang):
            frame["text"] = told_event(event, event_labels(self.seats, event))
        if self.device and self.my_seats:  # each edge's sentence, in the edge's language
            frame["texts"] = {}
            for lang in dict.fromkeys(self.seat_lang(s) for s in self.my_seats):
                with translation.override(lang):
                    frame["texts"][lang] = told_event(event, event_labels(self.seats, event))
        # counted sent before the send is awaited: meanwhile this connection's own task
        # (a new welcome's missed events, a catch-up) must not send it again (a table's
        # event told directly by the fan-out came twice: test_table_two_processes)
        self.last_seq = max(self.last_seq or 0, event["seq"])
        await self.send_json(frame)

    async def send_error(self, code: str, *, seat: int | None = None) -> None:
        """An ``error`` frame; one answering a move that named ``seat`` carries it, with
        the message in that seat's language (a table on one device)."""
        frame: dict = {"type": "error", "code": code}
        if seat is not None:
            frame["seat"] = seat
        with translation.override(self.seat_lang(seat)):
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
        this connection is at the table (else the new owner, knowing nobody here, would
        pause and close it under the players) and that its seat is present, so that it
        gets no stand-in, and fill any gap from storage: the old owner may have stored
        an event and died before it was told here (then everyone could wait for a turn
        nobody was shown)."""
        if self.attending:
            await tables.table_attend(code=self.code, connection=self.channel_name, here=True)
        if self.present_seats:
            await self.presence(self.present_seats, present=True)
        if self.last_seq is not None:
            await self.catch_up(self.last_seq)

    async def table_seats(self, message: dict) -> None:
        if self.last_seq is None:
            return
        self.seats = message["seats"]
        with translation.override(self.lang):
            seats = with_labels(self.seats)
        await self.send_json({"type": "seats", "seats": seats, "started": message["started"]})

    async def table_reseat(self, message: dict) -> None:
        """The teacher changed the seats (or started the class): a new welcome (this
        connection's seat may have changed or gone), preceded by any event it had not
        been sent yet (:meth:`send_missed`; a catch-up after the welcome sent those
        events a second time)."""
        if self.last_seq is None:
            return
        await self.send_welcome()

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
