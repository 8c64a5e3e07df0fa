"""The owner of one table: the single writer.

Every change of a table goes through its owner, one at a time (an ``asyncio.Lock``):
an action is stamped with the table's clock, applied by the engine, its events get the
table's next numbers, the step is stored, and only then are the events broadcast.
Timers run here too, from the same clock: the race is closed (``CloseRace``) when its
tie window ends, and computer players act after their reaction time, through the same
path as people.

The table's clock is ``wall clock ms - epoch_ms`` (stored with the table), never less
than the engine's ``clock_ms``, so a table rebuilt after a restart keeps counting.

A class table's teacher controls (start, pause, pace…) are applied here too, under the
same lock: see :mod:`games.tables.controls`. While such a table is paused (or closed
because the class went on at a new table), it takes no move and runs no timer.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from channels.db import database_sync_to_async

from games.engine import (
    Action,
    Bot,
    BotLevel,
    CallSnap,
    CallSnapPot,
    CloseRace,
    Event,
    GameState,
    TurnCard,
    apply,
    final_state,
    view,
)
from games.tables.protocol import (
    action_to_json,
    event_to_json,
    options_to_json,
    pot_marks,
    view_to_json,
)
from games.words.clauses import event_clauses

from . import store
from .controls import ClassControls
from .device import DEVICE_SEATS_MAX
from .idle import IdleWatch
from .lease import LeaseLost
from .opener import OpenerStart
from .stand_in import StandInTally, stand_in_mark
from .step_writer import writer
from .store import StoredTable

__all__ = ["Outcome", "TableOwner"]

log = logging.getLogger(__name__)

Broadcast = Callable[[dict], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a submitted action: ``seqs`` of its events, or a ``refused``
    reason (an engine ``Rejected`` reason, or one of the service's own)."""

    seqs: tuple[int, ...] = ()
    refused: str | None = None


def event_data(before: GameState, event: Event) -> dict:
    """An event as stored and sent: its code, params and the rules it shows."""
    return {**event_to_json(event), "rules": list(event_clauses(before, event))}


def wall_ms() -> int:
    """The wall clock in ms: what a consumer stamps on an arriving message."""
    return int(time.time() * 1000)


class TableOwner(ClassControls, IdleWatch, OpenerStart):
    """The in-process owner of one table (see the module docstring)."""

    def __init__(
        self,
        stored: StoredTable,
        broadcast: Broadcast,
        on_over: Callable[[TableOwner], None] | None = None,
        on_closed: Callable[[TableOwner], None] | None = None,
    ) -> None:
        self.stored = stored
        self._on_over = on_over
        self.code = stored.code
        self._broadcast = broadcast
        self.state = final_state(stored.record())
        # the log is in storage (a replay reads it there): only its length is kept
        self.action_count = len(stored.actions)
        stored.actions = []
        if self.state.seq != stored.seq:
            raise RuntimeError(
                f"table {self.code}: the action log gives seq {self.state.seq}, "
                f"the stored events end at {stored.seq}"
            )
        self.seats = stored.seats
        self._lock = asyncio.Lock()
        self._rng_seed = stored.bot_seed ^ self.action_count
        self._rng_made: random.Random | None = None
        self._bots = {
            s.number: Bot(
                s.number, BotLevel[s.bot_level.upper()], random.Random(self._rng.getrandbits(64))
            )
            for s in self.seats
            if s.is_bot
        }
        # seat -> (plan number, timer): a plan runs only while it is still the seat's plan
        self._plans: dict[int, tuple[int, asyncio.TimerHandle]] = {}
        self._plan_count = 0
        self._race_timer: tuple[int, asyncio.TimerHandle] | None = None
        # (turns, to_play) -> the table turns that card (turn timer or steady beat)
        self._pace_timer: tuple[tuple[int, int], asyncio.TimerHandle] | None = None
        self._tasks: set[asyncio.Task] = set()
        self._stopped = False
        self._lost = False  # stopped because another process holds the table now
        self._present: dict[int, set[str]] = {}  # seat -> its open connections' names
        self._pause_pending = False  # a pause asked during a race: at the race's close
        self._away: dict[int, asyncio.TimerHandle] = {}  # seat -> stand-in timer
        self._stand_ins: dict[int, Bot] = {}  # seat -> computer player while away
        self._idle_init(on_closed)  # nobody connected: paused, then closed (idle.py)
        self._stood_in: dict[int, StandInTally] = {}  # seat -> what its stand-in did

    @property
    def _rng(self) -> random.Random:
        """The table's random numbers (computer players, stand-ins, new deals), made
        when first needed: a Mersenne Twister's state is 2.5 kB, and a table of people
        alone may never draw from it."""
        if self._rng_made is None:
            self._rng_made = random.Random(self._rng_seed)
        return self._rng_made

    # -- facts ---------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Play starts once every seat has a player (a person or a computer player); at a
        class table, when the teacher starts it."""
        if self.stored.is_class:
            return self.stored.teacher_started
        return all(s.taken for s in self.seats)

    @property
    def halted(self) -> bool:
        """No move and no timer: a paused class table, one whose class went on at a new
        table, or one nobody is connected to (``idle``)."""
        return self.stored.paused or bool(self.stored.next_code) or self.idle

    def now_ms(self) -> int:
        return max(wall_ms() - self.stored.epoch_ms, self.state.clock_ms)

    def seat_of(self, session_key: str | None) -> int | None:
        """The (first) seat of session ``session_key``, if any."""
        held = self.seats_of(session_key)
        return held[0] if held else None

    def seats_of(self, session_key: str | None) -> list[int]:
        """Every seat of session ``session_key`` (several at a table on one device)."""
        if not session_key:
            return []
        return [s.number for s in self.seats if s.session_key == session_key and not s.is_bot]

    def snapshot(self, held: list[int], teacher: bool = False) -> dict:
        """The welcome of a client holding the seats ``held`` ([]: a spectator;
        ``teacher``: the class's teacher, who is never seated); its ``seat`` and view are
        the first held seat's."""
        seat = held[0] if held else None
        return {
            "type": "welcome",
            "code": self.code,
            "seat": seat,
            "device": self.stored.on_device,
            "my_seats": list(held),
            "seats": [s.public() for s in self.seats],
            "started": self.started,
            "options": options_to_json(self.stored.options),
            "pace": {"turn_timer_ms": self.stored.turn_timer_ms, "beat_ms": self.stored.beat_ms},
            "lag_cap_ms": self.stored.lag_cap_ms,
            "seq": self.state.seq,
            "view": view_to_json(view(self.state, seat)),
            "class": self.class_state(teacher),
            **({"stood_in": self._stood_in[seat].as_json()} if seat in self._stood_in else {}),
        }

    # -- changes -------------------------------------------------------------------------

    async def submit(
        self, *, seat: int, action_json: dict, received_ms: int, lag_ms: int = 0
    ) -> Outcome:
        """Apply a player's action (``{"type": "turn"|"snap"|"snap_pot", "seen"?}``)
        received at wall time ``received_ms``; a call counts as sent ``lag_ms`` earlier
        (at most the table's ``lag_cap_ms``; never before the table's last action)."""
        async with self._lock:
            return await self._submit(seat, action_json, received_ms, lag_ms)

    async def _submit(self, seat: int, action_json: dict, received_ms: int, lag_ms: int) -> Outcome:
        """:meth:`submit` with the lock held: the one path of every player's action,
        people's and computer players' alike."""
        if self._stopped:
            self.raise_if_lost()
            return Outcome(refused="no_table")
        if self.stored.next_code:
            return Outcome(refused="restarted")
        if not self.started:
            return Outcome(refused="not_started")
        if self.stored.paused:
            return Outcome(refused="paused")
        kind = action_json["type"]
        if kind in ("snap", "snap_pot"):
            received_ms -= max(0, min(lag_ms, self.stored.lag_cap_ms))
        at = max(received_ms - self.stored.epoch_ms, self.state.clock_ms)
        seen = action_json.get("seen")
        if kind == "turn" and self.stored.beat_ms:
            return Outcome(refused="table_turns")
        if kind == "turn":
            action: Action = TurnCard(seat, at)
        elif kind == "snap":
            action = CallSnap(seat, at, seen)
        elif kind == "snap_pot":
            action = CallSnapPot(seat, at, seen)
        else:
            return Outcome(refused="bad_action")
        return await self._apply(action)

    async def join(self, *, session_key: str, name: str) -> int | str:
        """Seat the session ``session_key`` (its own seat if it has one, else the first
        free seat); or say why not: ``table_full``, ``is_teacher`` (a class's teacher
        does not play), ``restarted``, ``no_table``."""
        async with self._lock:
            if self._stopped:
                self.raise_if_lost()
                return "no_table"
            mine = self.seat_of(session_key)
            if mine is not None:
                return mine
            if self.is_teacher(session_key):
                return "is_teacher"
            if self.stored.next_code:
                return "restarted"
            free = next((s for s in self.seats if not s.taken), None)
            if free is None:
                return "table_full"
            await database_sync_to_async(store.seat_bind)(
                self.stored.id, free.number, session_key, name
            )
            free.session_key, free.name = session_key, name
            await self._send_seats()
            if self.started:
                self._watch_absent()
            self._after_step()
            return free.number

    async def join_device(self, *, session_key: str, players: list[dict]) -> list[int] | str:
        """Seat each of ``players`` (``{"name", "lang"}``, checked by the protocol) on the
        next free seat, all bound to session ``session_key``, in one transaction; or say
        why nobody was seated: ``bad_message`` (not a table on one device),
        ``table_full`` (they do not all fit, or the session would hold more than four
        seats), ``is_teacher``, ``restarted``, ``no_table``."""
        async with self._lock:
            if self._stopped:
                self.raise_if_lost()
                return "no_table"
            if not self.stored.on_device:
                return "bad_message"
            if self.is_teacher(session_key):
                return "is_teacher"
            if self.stored.next_code:
                return "restarted"
            free = [s for s in self.seats if not s.taken][: len(players)]
            held = self.seats_of(session_key)
            if len(free) < len(players) or len(held) + len(players) > DEVICE_SEATS_MAX:
                return "table_full"
            bound = [
                (s.number, p["name"], p.get("lang", "")) for s, p in zip(free, players, strict=True)
            ]
            await database_sync_to_async(store.seats_bind)(self.stored.id, bound, session_key)
            for s, (_number, name, lang) in zip(free, bound, strict=True):
                s.session_key, s.name, s.lang = session_key, name, lang
            await self._send_seats()
            if self.started:
                self._watch_absent()
            self._after_step()
            return self.seats_of(session_key)

    async def presence(
        self, *, present: bool, connection: str, seat: int | None = None, seats: list[int] = ()
    ) -> None:
        """The connection named ``connection`` now counts for ``seat`` (or each of
        ``seats``: a table on one device) (``present``), or no longer does (it closed, or
        its seat changed); what changed is told in one ``seats`` frame."""
        async with self._lock:
            numbers = [*([] if seat is None else [seat]), *seats]
            changes = [self._presence_one(n, present, connection) for n in numbers]
            if any(changes):
                await self._send_seats()
            if not present:
                self._watch_absent()
            elif "stand_in_gone" in changes:
                self._after_step()  # the person plays again: no plan of the stand-in's

    def _presence_one(self, seat: int, present: bool, connection: str) -> str:
        """One seat's part of :meth:`presence` (the lock held): what the others must be
        told (``lost``, ``back``, ``stand_in_gone``), or "" for nothing."""
        connections = self._present.setdefault(seat, set())
        person = seat < len(self.seats) and not self.seats[seat].is_bot
        if not present:
            connections.discard(connection)
            if not connections and person and not self.seats[seat].lost and not self.state.over:
                self.seats[seat].lost = True  # told to the others at once
                return "lost"
            return ""
        connections.add(connection)
        timer = self._away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        back = person and self.seats[seat].lost
        if person:
            self.seats[seat].lost = False
        self._stood_in.pop(seat, None)  # told in the welcome just sent
        if self._stand_ins.pop(seat, None) is not None:
            self.seats[seat].stand_in = False
            plan = self._plans.pop(seat, None)
            if plan is not None:
                plan[1].cancel()
            return "stand_in_gone"
        return "back" if back else ""

    def _watch_absent(self) -> None:
        """Start the stand-in timer of every person's seat with no connection."""
        if self._stopped or not self.started or self.state.over or self.halted:
            return
        for s in self.seats:
            n = s.number
            if not s.taken or s.is_bot or s.stand_in or n in self._away or self._present.get(n):
                continue
            self._away[n] = self._later(self.stored.away_after_ms, lambda n=n: self._stand_in(n))

    async def _stand_in(self, seat: int) -> None:
        async with self._lock:
            self._away.pop(seat, None)
            if self._present.get(seat) or self.state.over or seat in self._stand_ins:
                return
            if self.halted or seat >= len(self.seats) or self.seats[seat].is_bot:
                return
            bot = Bot(seat, BotLevel.STEADY, random.Random(self._rng.getrandbits(64)))
            self._stand_ins[seat] = bot
            self._stood_in[seat] = StandInTally(seat)
            self.seats[seat].stand_in = True
            await self._send_seats()
            self._after_step()

    async def _send_seats(self) -> None:
        await self._broadcast(
            {
                "type": "table.seats",
                "seats": [s.public() for s in self.seats],
                "started": self.started,
            }
        )

    async def _apply(self, action: Action) -> Outcome:
        """Apply, number, store, then broadcast (the caller holds the lock)."""
        if self._stopped:  # a stopped owner never writes: a new one may own the table
            self.raise_if_lost()
            return Outcome(refused="no_table")
        step = apply(self.state, action)
        if step.rejected:
            return Outcome(refused=step.events[0].reason)
        public = view_to_json(view(step.state, None))
        first = self.state.seq + 1
        events = [
            {"seq": first + i, "data": event_data(self.state, e), "view": public}
            for i, e in enumerate(step.events)
        ]
        events[-1]["data"].update(pot_marks(self.state, step.state))  # told once (R18 D)
        stored_action = action_to_json(action)
        if self._stand_ins:  # whose seats a computer player plays for: the replay says so
            stood_in = stand_in_mark(self._stand_ins)
            stored_action.update(stood_in)
            for e in events:
                e["data"].update(stood_in)
        await writer().append(self.stored.id, self.action_count, stored_action, events)
        self.state = step.state
        self.action_count += 1
        for tally in self._stood_in.values():
            for e in events:
                tally.add(e["data"])
        for e in events:
            await self._broadcast(
                {"type": "table.event", "seq": e["seq"], **e["data"], "view": public}
            )
        self._after_step()
        if self._pause_pending and self.state.race is None:
            await self.pause_after_race()
        return Outcome(seqs=tuple(e["seq"] for e in events))

    # -- timers --------------------------------------------------------------------------

    def start(self) -> None:
        """Start the timers of a table just loaded (after a restart, for instance)."""
        self._watch_absent()
        self._after_step()
        self._idle_watch()

    def lose(self) -> None:
        """Stop: another process holds the table now. A call that waited for this owner
        raises :class:`LeaseLost` (the registry asks the new owner), never ``no_table``."""
        self._lost = True
        self.stop()

    def raise_if_lost(self) -> None:
        if self._lost:
            raise LeaseLost(f"table {self.code}: another process owns it now")

    def stop(self) -> None:
        """Forget every timer and pending task (the process is going away)."""
        self._stopped = True
        self._timers_cancel()
        for task in self._tasks:
            if not task.get_loop().is_closed():  # a closed loop's tasks run no more
                task.cancel()

    def _timers_cancel(self, *, race: bool = True) -> None:
        """Cancel the computer players' plans, the stand-in and pace timers, and (with
        ``race``) the race's closing."""
        for _number, handle in self._plans.values():
            handle.cancel()
        self._plans.clear()
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
        if race and self._race_timer is not None:
            self._race_timer[1].cancel()
            self._race_timer = None
        if self._pace_timer is not None:
            self._pace_timer[1].cancel()
            self._pace_timer = None

    def _later(self, delay_ms: float, work: Callable[[], Awaitable[None]]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, delay_ms) / 1000, self._spawn, work)

    def _spawn(self, work: Callable[[], Awaitable[None]]) -> None:
        if self._stopped:
            return
        task = asyncio.get_running_loop().create_task(work())
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: timer failed", self.code, exc_info=task.exception())

    def _after_step(self) -> None:
        """Set the timers for the new state: the race's end and the bots' plans."""
        if self._stopped:
            return
        if self.halted:  # paused (never during a race), or the class went on elsewhere
            self._timers_cancel()
            return
        state = self.state
        race = state.race
        if race is None or state.over:
            if self._race_timer is not None:
                self._race_timer[1].cancel()
                self._race_timer = None
        elif self._race_timer is None or self._race_timer[0] != race.closes_at_ms:
            if self._race_timer is not None:
                self._race_timer[1].cancel()
            closes = race.closes_at_ms
            # with lag compensation a call may still come that counts as sent in time
            delay = closes + self.stored.lag_cap_ms - (wall_ms() - self.stored.epoch_ms)
            self._race_timer = (closes, self._later(delay, lambda: self._close_race(closes)))
        self._set_pace_timer()
        if state.over or not self.started:
            for _number, handle in self._plans.values():
                handle.cancel()
            self._plans.clear()
            if state.over and self._on_over is not None:
                self._on_over(self)
                self._on_over = None
            return
        now = self.now_ms()
        for seat, bot in (self._bots | self._stand_ins).items():
            plan = bot.react(view(state, seat), now)
            if plan is None or (self.stored.beat_ms and isinstance(plan.action, TurnCard)):
                continue  # at a steady beat the table turns the cards
            old = self._plans.pop(seat, None)
            if old is not None:
                old[1].cancel()
            delay = (plan.at_ms - now) * self.stored.bot_time_scale
            self._plan_count += 1
            number, action = self._plan_count, plan.action
            handle = self._later(delay, lambda s=seat, n=number, a=action: self._bot_act(s, n, a))
            self._plans[seat] = (number, handle)

    def _set_pace_timer(self) -> None:
        """The table turns the card to play after the turn timer (a person's seat) or at
        the steady beat (every seat); never while a race is open."""
        state, stored = self.state, self.stored
        wait = None
        if self.started and not state.over and state.race is None:
            if stored.beat_ms:
                wait = stored.beat_ms
            elif stored.turn_timer_ms and state.to_play not in self._bots | self._stand_ins:
                wait = stored.turn_timer_ms
        key = (state.turns, state.to_play) if wait is not None else None
        if self._pace_timer is not None:
            if self._pace_timer[0] == key:
                return
            self._pace_timer[1].cancel()
            self._pace_timer = None
        if key is not None:
            self._pace_timer = (key, self._later(wait, lambda: self._table_turns(key)))

    async def _table_turns(self, key: tuple[int, int]) -> None:
        async with self._lock:
            if self._pace_timer is None or self._pace_timer[0] != key:
                return
            self._pace_timer = None
            state = self.state
            if state.over or state.race is not None or (state.turns, state.to_play) != key:
                return
            if self.halted:
                return
            outcome = await self._apply(TurnCard(state.to_play, self.now_ms()))
            if outcome.refused:
                self._after_step()

    async def _close_race(self, closes_at_ms: int) -> None:
        async with self._lock:
            race = self.state.race
            if race is None or race.closes_at_ms != closes_at_ms or self.state.over:
                return
            if self.stored.next_code:
                return
            self._race_timer = None
            await self._apply(CloseRace(max(self.now_ms(), closes_at_ms)))

    async def _bot_act(self, seat: int, number: int, planned: Action) -> None:
        async with self._lock:
            current = self._plans.get(seat)
            if current is None or current[0] != number or self.state.over:
                return  # replaced by a newer plan while waiting for its turn
            del self._plans[seat]
            move = {"type": "turn"} if isinstance(planned, TurnCard) else {"type": planned.kind}
            if not isinstance(planned, TurnCard):
                move["seen"] = planned.seen
            outcome = await self._submit(seat, move, wall_ms(), 0)  # as a person's action
            if outcome.refused:
                self._after_step()  # bots react after every step, accepted or not
