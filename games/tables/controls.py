"""A class table's teacher controls, applied by the table's owner (its one writer).

Only the class's teacher (the browser session that opened the class table) may use
them; anyone else is refused with ``not_teacher`` and nothing changes. Each control
that changes something is a numbered control (1, 2, … per table, kept apart from the
game's event numbers, which are the engine's and which calls' ``seen`` count), stored
with its effect on the table and its seats in one transaction, then broadcast. A
table rebuilt after a restart reads that effect back (paused, pace, seats…).

Decisions (docs/protocol.md, "A class table"):

- A class table waits for the teacher's ``start``. Free seats then get computer
  players (at the level the teacher chose when opening), or, if the teacher chose
  none, the table shrinks to the seats taken: a new deal for that many players.
- ``pause`` during a race takes effect when the race closes (its tie window runs out,
  calls made in it count), so every race ends as the rules say; until then the table
  is "pausing". While paused: no move, no timer (turn timer, beat, computer players,
  stand-ins); ``resume`` starts them afresh (a turn timer runs in full again).
- ``add_bot`` and ``remove_bot`` only before the start or while paused. A seat freed
  while paused can be taken by a late student; a seat still free at ``resume`` gets
  a computer player.
- ``remove_player`` frees a student's seat; once the game is under way a computer
  player takes the seat over.
- ``restart`` opens a new table (a new code: each game keeps its own replay) with the
  same students and computer players on the same seats, waiting for the teacher's
  start; this table is closed (moves refused with ``restarted``) and names the new one
  (``next_code``), so every page, even one that connects later, follows.
"""

from __future__ import annotations

import dataclasses
import random

from channels.db import database_sync_to_async

from games.engine import Bot, BotLevel, Card, final_state, new_game

from . import store
from .device import DEVICE_BEATS
from .store import SeatInfo

__all__ = ["CONTROLS", "ClassControls"]

#: The client messages that are teacher controls (docs/protocol.md).
CONTROLS = (
    "start",
    "pause",
    "resume",
    "pace",
    "add_bot",
    "remove_bot",
    "remove_player",
    "restart",
)
#: The level of a computer player when the teacher chose none.
DEFAULT_LEVEL = "steady"


class ClassControls:
    """The teacher's side of :class:`~games.tables.owner.TableOwner` (a mixin: it uses
    the owner's state, lock, timers and broadcast)."""

    # -- facts ---------------------------------------------------------------------------

    def is_teacher(self, session_key: str | None) -> bool:
        return bool(session_key) and self.stored.is_class and session_key == self.stored.teacher_key

    def class_state(self, teacher: bool = False) -> dict | None:
        """What a client is told about the class (None at any other table); the
        teacher also gets the walkthroughs each seat has finished (``done``)."""
        st = self.stored
        if not st.is_class:
            return None
        state = {
            "name": st.class_name,
            "teacher": teacher,
            "started": st.teacher_started,
            "paused": st.paused,
            "pausing": self._pause_pending,
            "next_code": st.next_code or None,
            "fill_level": st.fill_level or None,
            "controls": st.controls,
        }
        if teacher:
            state["done"] = [list(s.done) for s in self.seats]
        return state

    # -- the controls --------------------------------------------------------------------

    async def control(self, *, session_key: str | None, message: dict) -> str | None:
        """Apply the teacher's control ``message`` (a checked client message whose type
        is one of :data:`CONTROLS`). Returns None when it is taken, else why not: an
        error code of docs/protocol.md (``not_teacher`` for anyone but the teacher). At a
        table opened from the lobby, ``start`` is the opener's (:mod:`.opener`)."""
        async with self._lock:
            if self._stopped:
                self.raise_if_lost()
                return "no_table"
            if not self.stored.is_class and message["type"] == "start":
                return await self.start_now() if self.is_opener(session_key) else "not_opener"
            if not self.stored.is_class and self.stored.on_device and message["type"] == "pace":
                return await self._players_pace(session_key, message)
            if not self.is_teacher(session_key):
                return "not_teacher"
            if self.stored.next_code:
                return "restarted"
            return await getattr(self, f"_control_{message['type']}")(message)

    async def _control_start(self, message: dict) -> str | None:
        if self.stored.teacher_started:
            return "not_now"
        level = self.stored.fill_level
        if level:
            seats = [
                s if s.taken else dataclasses.replace(s, is_bot=True, bot_level=level)
                for s in self.seats
            ]
        else:
            seats = [
                dataclasses.replace(s, number=i, stand_in=False)
                for i, s in enumerate(s for s in self.seats if s.taken)
            ]
        if len(seats) < 2:
            return "too_few_players"
        fields: dict = {"teacher_started": True}
        if len(seats) != self.stored.players:  # a new deal for the seats taken
            options = self.stored.options
            dealt = new_game(len(seats), random.Random(self._rng.getrandbits(64)), options)
            fields |= {
                "players": len(seats),
                "deck": [c.code for c in dealt.deck],
                "dealer": dealt.dealer,
            }
        await self._commit("started", {"players": len(seats)}, fields, seats)
        self._watch_absent()
        return None

    async def _control_pause(self, message: dict) -> str | None:
        if not self.started or self.state.over or self.stored.paused or self._pause_pending:
            return "not_now"
        if self.state.race is not None:
            self._pause_pending = True  # at the race's close (see the module docstring)
            await self._send_class()
            return None
        await self._pause_now()
        return None

    async def pause_after_race(self) -> None:
        """The race open when the teacher paused has closed: pause now (the owner
        calls this with the lock held)."""
        self._pause_pending = False
        if self.state.over:
            await self._send_class()
            return
        await self._pause_now()

    async def _pause_now(self) -> None:
        await self._commit("paused", {}, {"paused": True})
        self._timers_cancel()

    async def _control_resume(self, message: dict) -> str | None:
        if not self.stored.paused:
            return "not_now"
        filled = [s.number for s in self.seats if not s.taken]
        seats = None
        if filled:
            level = self.stored.fill_level or DEFAULT_LEVEL
            seats = [
                s if s.taken else dataclasses.replace(s, is_bot=True, bot_level=level)
                for s in self.seats
            ]
        await self._commit("resumed", {"filled": filled}, {"paused": False}, seats)
        self._watch_absent()
        self._after_step()
        return None

    async def _control_pace(self, message: dict) -> str | None:
        if self.state.over:
            return "not_now"
        pace = {"turn_timer_ms": message["turn_timer_ms"], "beat_ms": message["beat_ms"]}
        await self._commit("pace_changed", pace, pace)
        self._timers_cancel(race=False)  # a steady beat: computer players only call
        self._watch_absent()
        self._after_step()
        return None

    async def _players_pace(self, session_key: str | None, message: dict) -> str | None:
        """At a table on one device (not a class's), the players themselves switch
        between the slow and the steady beat: ``faster`` and ``slower``."""
        if not self.seats_of(session_key):
            return "not_seated"
        if message["turn_timer_ms"] is not None or message["beat_ms"] not in DEVICE_BEATS:
            return "bad_message"
        if self.state.over:
            return "not_now"
        pace = {"turn_timer_ms": None, "beat_ms": message["beat_ms"]}
        await self._commit("players_pace", pace, pace)
        self._timers_cancel(race=False)
        self._watch_absent()
        self._after_step()
        return None

    def _seat_to_change(self, message: dict) -> SeatInfo | None:
        seat = message["seat"]
        return self.seats[seat] if 0 <= seat < len(self.seats) else None

    async def _control_add_bot(self, message: dict) -> str | None:
        if self.started and not self.stored.paused:
            return "not_now"
        seat = self._seat_to_change(message)
        if seat is None or seat.taken:
            return "bad_seat"
        level = message.get("level") or self.stored.fill_level or DEFAULT_LEVEL
        changed = dataclasses.replace(seat, is_bot=True, bot_level=level, name="", done=[])
        await self._commit_seat("bot_added", {"seat": seat.number, "level": level}, changed)
        return None

    async def _control_remove_bot(self, message: dict) -> str | None:
        if self.started and not self.stored.paused:
            return "not_now"
        seat = self._seat_to_change(message)
        if seat is None or not seat.is_bot:
            return "bad_seat"
        await self._commit_seat("bot_removed", {"seat": seat.number}, SeatInfo(seat.number))
        return None

    async def _control_remove_player(self, message: dict) -> str | None:
        if self.state.over:  # the finished game (its replay) keeps its players' names
            return "not_now"
        seat = self._seat_to_change(message)
        if seat is None or not seat.taken or seat.is_bot:
            return "bad_seat"
        under_way = self.started and not self.state.over
        if under_way:
            level = self.stored.fill_level or DEFAULT_LEVEL
            changed = SeatInfo(seat.number, is_bot=True, bot_level=level)
        else:
            changed = SeatInfo(seat.number)
        params = {"seat": seat.number, "name": seat.name, "replaced": under_way}
        await self._commit_seat("player_removed", params, changed)
        return None

    async def _control_restart(self, message: dict) -> str | None:
        if not self.started:
            return "not_now"
        seats = [dataclasses.replace(s, stand_in=False, done=list(s.done)) for s in self.seats]
        number = self.stored.controls + 1
        data = self._control_data("restarted", {})
        code = await database_sync_to_async(store.class_restart)(self.stored, seats, number, data)
        self.stored.next_code, self.stored.paused = code, False
        self.stored.controls = number
        self._pause_pending = False
        self._timers_cancel()
        await self._send_control(number, "restarted", {"code": code})
        return None

    # -- done marks ------------------------------------------------------------------------

    async def done(self, *, seat: int, walkthroughs: list[str], order: list[str]) -> None:
        """A class's student on ``seat`` has finished ``walkthroughs`` (slugs, in the
        walkthroughs' ``order``): kept with the seat and told to the teacher's pages."""
        async with self._lock:
            if self._stopped or not self.stored.is_class or seat >= len(self.seats):
                return
            s = self.seats[seat]
            if s.is_bot or not s.taken:
                return
            merged = [slug for slug in order if slug in s.done or slug in walkthroughs]
            if merged == s.done:
                return
            await database_sync_to_async(store.seat_done)(self.stored.id, seat, merged)
            s.done = merged
            await self._broadcast({"type": "table.progress", "seat": seat, "done": merged})

    # -- storing and telling ---------------------------------------------------------------

    def _control_data(self, code: str, params: dict) -> dict:
        return {"code": code, "params": params, "at_ms": self.now_ms(), "seq": self.state.seq}

    async def _commit_seat(self, code: str, params: dict, changed: SeatInfo) -> None:
        seats = [changed if s.number == changed.number else s for s in self.seats]
        await self._commit(code, params, None, seats)

    async def _commit(
        self, code: str, params: dict, fields: dict | None, seats: list[SeatInfo] | None = None
    ) -> None:
        """Store control ``code`` with its effect (``fields`` of the table row, and the
        new ``seats``), take the effect here, then tell every connection."""
        number = self.stored.controls + 1
        data = self._control_data(code, params)
        stored_seats = None if seats is None else [dataclasses.replace(s) for s in seats]
        await database_sync_to_async(store.control_append)(
            self.stored.id, number, data, fields, stored_seats
        )
        self.stored.controls = number
        for name, value in (fields or {}).items():
            if name == "deck":
                value = tuple(Card.parse(c) for c in value)
            setattr(self.stored, name, value)
        if fields and "deck" in fields:  # a new deal (no action yet)
            self.state = final_state(self.stored.record())
        await self._send_control(number, code, params)
        if seats is not None:
            self._seats_take(seats)
            await self._broadcast({"type": "table.reseat"})
            self._after_step()

    def _seats_take(self, seats: list[SeatInfo]) -> None:
        """Use ``seats`` from now on: computer players for their bot seats (a seat that
        keeps its computer player keeps its plans), no stand-in for a changed seat."""
        old = {s.number: s for s in self.seats}
        self.seats = self.stored.seats = seats
        for s in seats:
            before = old.get(s.number)
            same = before is not None and (before.is_bot, before.bot_level, before.session_key) == (
                s.is_bot,
                s.bot_level,
                s.session_key,
            )
            if same and (not s.is_bot or s.number in self._bots):
                s.stand_in = before.stand_in
                continue
            self._seat_forget(s.number)
            if s.is_bot:
                rng = random.Random(self._rng.getrandbits(64))
                self._bots[s.number] = Bot(s.number, BotLevel[s.bot_level.upper()], rng)
        for number in [n for n in self._bots if n >= len(seats) or not seats[n].is_bot]:
            self._seat_forget(number)

    def _seat_forget(self, number: int) -> None:
        """Drop seat ``number``'s computer player, stand-in, plans and away timer."""
        self._bots.pop(number, None)
        self._stand_ins.pop(number, None)
        self._stood_in.pop(number, None)
        plan = self._plans.pop(number, None)
        if plan is not None:
            plan[1].cancel()
        timer = self._away.pop(number, None)
        if timer is not None:
            timer.cancel()

    async def _send_control(self, number: int, code: str, params: dict) -> None:
        await self._broadcast(
            {
                "type": "table.control",
                "number": number,
                "code": code,
                "params": params,
                "class": self.class_state(),
            }
        )

    async def _send_class(self) -> None:
        """Tell the class's state without a control (``pausing`` began or ended)."""
        await self._broadcast({"type": "table.class", "class": self.class_state()})
