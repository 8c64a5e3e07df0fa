"""Storage of live tables (synchronous Django ORM; the owner calls it off the loop).

A table is stored as its start (players, options, dealer, dealt deck), its seats, its
action log and its numbered events. The action log is what rebuilds the game after a
restart; the events (each with the public view after its step) are what a reconnecting
client reads back. Both are written in one transaction per step, before anything is
broadcast.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import IntegrityError, router, transaction
from django.db.models import Count, OuterRef, Q, Subquery, Value
from django.utils import timezone

from games.engine import (
    DEFAULT_OPTIONS,
    Action,
    BotLevel,
    Card,
    GameState,
    Options,
    Record,
    from_piles,
    new_game,
    record_start,
)
from games.models import Seat, Table, TableAction, TableControl, TableEvent
from games.tables.protocol import action_from_json, options_from_json, options_to_json

from .changes import table_changed, tables_expire_at
from .closing import open_until_new, wall_ms
from .codes import new_code
from .compiled import compiled
from .lease import LeaseLost, fence_check, fences_check
from .stand_in import STAND_IN_FOR, stood_in_seats
from .step_db import DjangoDb, LoopSqlite

__all__ = [
    "SeatInfo",
    "StoredTable",
    "class_restart",
    "classes_purge",
    "control_append",
    "events_since",
    "record_load",
    "seat_bind",
    "seat_names_load",
    "seats_bind",
    "seat_done",
    "seats_replace",
    "stand_ins_load",
    "step_append",
    "steps_append",
    "table_id",
    "table_insert",
    "idle_close",
    "open_until_keep",
    "open_until_store",
    "table_finished",
    "table_load",
    "tables_open",
]


@dataclass(slots=True)
class SeatInfo:
    number: int
    name: str = ""
    session_key: str = ""
    is_bot: bool = False
    bot_level: str = ""
    stand_in: bool = False  # not stored: a computer player plays while the person is away
    lost: bool = False  # not stored: the person's connections have all closed, just now
    done: list[str] = field(default_factory=list)  # a class's student: walkthroughs finished
    lang: str = ""  # at a table on one device: the language of this seat's edge ("": the page's)

    @property
    def taken(self) -> bool:
        return self.is_bot or bool(self.session_key)

    def public(self) -> dict:
        """What every client may know about a seat (never the session key)."""
        return {
            "seat": self.number,
            "name": self.name,
            "bot": self.is_bot,
            "level": self.bot_level or None,
            "taken": self.taken,
            "away": self.stand_in,
            "lost": self.lost,
            "lang": self.lang,
        }


@dataclass(slots=True)
class StoredTable:
    id: int
    code: str
    players: int
    options: Options
    dealer: int | None
    deck: tuple[Card, ...]
    bot_seed: int
    bot_time_scale: float
    away_after_ms: int
    turn_timer_ms: int | None
    beat_ms: int | None
    lag_cap_ms: int
    epoch_ms: int
    seats: list[SeatInfo]
    actions: list[Action] = field(default_factory=list)
    seq: int = 0
    position: dict | None = None
    # a class table (see games.models.Table): the teacher's session, the class's name,
    # the level of the computer players for free seats at the start ("": none), the
    # teacher's controls so far (their count, and their effect)
    teacher_key: str = ""
    class_name: str = ""
    fill_level: str = ""
    teacher_started: bool = False
    paused: bool = False
    next_code: str = ""
    controls: int = 0
    idle_closed: bool = False  # closed for want of anyone connected (games.tables.idle)
    # played around one device: one session holds its people's seats (each with a lang);
    # a class's tablets opened together share the first one's code (device_group)
    on_device: bool = False
    device_group: str = ""
    open_until_ms: int = 0  # wall clock: the table counts as open until then (closing.py)

    @property
    def is_class(self) -> bool:
        return bool(self.teacher_key)

    def record(self) -> Record:
        """The engine record: the start (a deal, or a position) and the actions."""
        if self.position is None:
            start = Record(self.players, self.options, self.dealer, self.deck)
        else:
            start = record_start(_position_state(self.position, self.options))
        return start.with_actions(tuple(self.actions))


def _position_state(position: dict, options: Options) -> GameState:
    return from_piles(
        position["face_down"],
        position["face_up"],
        position["pot"],
        position["to_play"],
        options,
        position["last_turned"],
    )


def table_insert(
    *,
    players: int,
    options: Options = DEFAULT_OPTIONS,
    bots: dict[int, BotLevel] | None = None,
    public: bool = False,
    seed: int | None = None,
    deck: tuple[Card, ...] | None = None,
    dealer: int | None = None,
    bot_time_scale: float = 1.0,
    position: dict | None = None,
    away_after_ms: int = 30_000,
    turn_timer_ms: int | None = None,
    beat_ms: int | None = None,
    lag_cap_ms: int = 0,
    teacher_key: str = "",
    class_name: str = "",
    fill_level: str = "",
    on_device: bool = False,
    device_group: str = "",
    opener_key: str = "",
    opener_address: str | None = None,
) -> str:
    """Store a new table of ``players`` seats (computer players on the seats of
    ``bots``), dealt now, and return its join code. ``deck``/``dealer`` fix the deal
    (tests, lessons); ``position`` starts from piles instead of a deal (card codes,
    each pile bottom to top: ``face_down``, optional ``face_up``, ``pot``, ``to_play``,
    ``last_turned``, as for ``games.engine.from_piles``); ``bot_time_scale`` scales
    computer players' waits (tests: below 1 faster, up to 4 times slower);
    a computer player stands in for a person whose connections have all been gone for
    ``away_after_ms``, until the person is back. Pace: with ``turn_timer_ms`` the table
    turns the card of a person who has not turned it in that time; with ``beat_ms`` the
    table turns every card at that steady beat and the players only call. Lag
    compensation: with ``lag_cap_ms`` (0 to 500) a call counts as sent half its
    connection's measured round trip before it arrived, at most ``lag_cap_ms`` earlier,
    and the race is closed that much later. ``opener_key`` and ``opener_address``: the
    browser session and network address whose open tables it counts among
    (``games.tables.limits``; none: not counted). It stays open for the idle times from
    now (``games.tables.closing``). A class table when ``teacher_key`` is given: see
    :class:`games.models.Table`."""
    bots = bots or {}
    if not 0 < bot_time_scale <= 4:
        raise ValueError(f"bot_time_scale must be in (0, 4], not {bot_time_scale!r}")
    if type(away_after_ms) is not int or away_after_ms < 0:
        raise ValueError(f"away_after_ms must be an int >= 0, not {away_after_ms!r}")
    if type(lag_cap_ms) is not int or not 0 <= lag_cap_ms <= 500:
        raise ValueError(f"lag_cap_ms must be an int from 0 to 500, not {lag_cap_ms!r}")
    for name, value in (("turn_timer_ms", turn_timer_ms), ("beat_ms", beat_ms)):
        if value is not None and (type(value) is not int or value < 1):
            raise ValueError(f"{name} must be None or a positive int, not {value!r}")
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    state = new_game(players, random.Random(rng.getrandbits(64)), options)
    if position is not None:
        position = {
            "face_down": [list(p) for p in position["face_down"]],
            "face_up": [list(p) for p in position.get("face_up") or [[]] * players],
            "pot": list(position.get("pot") or []),
            "to_play": position.get("to_play", 0),
            "last_turned": position.get("last_turned"),
        }
        start = _position_state(position, options)  # raises ValueError if impossible
        if start.players != players:
            raise ValueError("the position has another number of seats than the table")
        position["to_play"], position["last_turned"] = start.to_play, start.last_turned
        deck, dealer = (), None
    elif deck is None:
        deck, dealer = state.deck, state.dealer
    elif dealer is None:
        dealer = players - 1
    if fill_level and fill_level.upper() not in BotLevel.__members__:
        raise ValueError(f"fill_level must be a computer player level, not {fill_level!r}")
    if not all(0 <= s < players for s in bots):
        raise ValueError("a computer player's seat is outside the table")
    for _attempt in range(20):
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    code=new_code(),
                    players=players,
                    options=options_to_json(options),
                    dealer=dealer,
                    deck=[c.code for c in deck],
                    position=position,
                    bot_seed=rng.getrandbits(62),
                    bot_time_scale=bot_time_scale,
                    away_after_ms=away_after_ms,
                    turn_timer_ms=turn_timer_ms,
                    beat_ms=beat_ms,
                    lag_cap_ms=lag_cap_ms,
                    public=public,
                    epoch_ms=int(time.time() * 1000),
                    teacher_key=teacher_key,
                    class_name=class_name,
                    fill_level=fill_level,
                    on_device=on_device,
                    device_group=device_group,
                    opener_key=opener_key,
                    opener_address=opener_address,
                    open_until=open_until_new(),
                )
                Seat.objects.bulk_create(
                    Seat(
                        table=table,
                        number=n,
                        is_bot=n in bots,
                        bot_level=bots[n].name.lower() if n in bots else "",
                    )
                    for n in range(players)
                )
            table_changed(table.code)
            return table.code
        except IntegrityError:
            continue  # the code was taken: draw another
    raise RuntimeError("no free table code")


def table_load(code: str) -> StoredTable | None:
    """Everything needed to rebuild table ``code``, or None when there is no such table."""
    table = Table.objects.filter(code=code).first()
    if table is None:
        return None
    seats = [
        SeatInfo(
            s.number, s.display_name, s.session_key, s.is_bot, s.bot_level, done=s.done, lang=s.lang
        )
        for s in table.seats.order_by("number")
    ]
    actions = [
        stored_action(a) for a in table.actions.order_by("index").values_list("data", flat=True)
    ]
    last = table.events.order_by("-seq").values_list("seq", flat=True).first()
    return StoredTable(
        id=table.id,
        code=table.code,
        players=table.players,
        options=options_from_json(table.options),
        dealer=table.dealer,
        deck=tuple(Card.parse(c) for c in table.deck),
        bot_seed=table.bot_seed,
        bot_time_scale=table.bot_time_scale,
        away_after_ms=table.away_after_ms,
        turn_timer_ms=table.turn_timer_ms,
        beat_ms=table.beat_ms,
        lag_cap_ms=table.lag_cap_ms,
        epoch_ms=table.epoch_ms,
        seats=seats,
        actions=actions,
        seq=last or 0,
        position=table.position,
        teacher_key=table.teacher_key,
        class_name=table.class_name,
        fill_level=table.fill_level,
        teacher_started=table.teacher_started,
        paused=table.paused,
        next_code=table.next_code,
        controls=table.controls.count(),
        idle_closed=table.idle_closed is not None,
        on_device=table.on_device,
        device_group=table.device_group,
        open_until_ms=table.open_until,
    )


def stored_action(data: dict) -> Action:
    """The engine action of a stored action's ``data`` (without its stand-in mark)."""
    return action_from_json({k: v for k, v in data.items() if k != STAND_IN_FOR})


def stand_ins_load(code: str) -> list[frozenset[int]]:
    """For each stored action of table ``code``, in order: the seats a computer player
    was standing in for when it was applied (see :mod:`games.tables.stand_in`)."""
    rows = TableAction.objects.filter(table__code=code).order_by("index")
    return [stood_in_seats(data) for data in rows.values_list("data", flat=True)]


def record_load(code: str) -> Record | None:
    """The engine record of table ``code`` (start and every accepted action), from which
    the game replays exactly (``games.engine.replay``); None when there is no such
    table."""
    stored = table_load(code)
    return None if stored is None else stored.record()


def idle_close(table_id: int) -> None:
    """Mark the table closed for want of anyone connected (its record stays)."""
    with transaction.atomic():
        fence_check(table_id)
        Table.objects.filter(id=table_id).update(idle_closed=timezone.now(), open_until=0)
        changed(table_id)


def open_until_store(table_id: int, until_ms: int) -> None:
    """The owner's: the table, paused for want of anyone connected, closes at
    ``until_ms`` (a table already over or closed stays so)."""
    with transaction.atomic():
        fence_check(table_id)
        Table.objects.filter(id=table_id, open_until__gt=0).update(open_until=until_ms)
        changed(table_id)  # a kept lobby listing it is made again when it closes


def open_until_keep(table_ids: list[int], until_ms: int) -> None:
    """Tables someone is connected to stay open until ``until_ms`` at least (one
    statement; a table over or closed meanwhile stays so)."""
    Table.objects.filter(id__in=table_ids, open_until__gt=0).update(open_until=until_ms)


def table_finished(table_id: int) -> None:
    """The table's game is over: it counts as open no more."""
    Table.objects.filter(id=table_id).update(open_until=0)


#: A step to store: table id, action index, the action, its numbered events.
Step = tuple[int, int, dict, list[dict]]


def step_append(table_id: int, index: int, action: dict, events: list[dict]) -> None:
    """Store one accepted action and its numbered events (``seq``, ``data``, ``view``)."""
    (error,) = steps_append([(table_id, index, action, events)])
    if error is not None:
        raise error


def steps_append(
    steps: list[Step], db: DjangoDb | LoopSqlite | None = None
) -> list[Exception | None]:
    """Store the steps of several tables in one transaction (one commit, one insert of
    the actions and one of the events: games.tables.step_writer), each table's fence
    checked first; what went wrong for each step, None if it is stored. A step that
    would fail the others (a refused fence, a broken constraint) is not stored, and
    only it is told. ``db``: Django's connection in this thread unless given
    (games.tables.step_db)."""
    db = db or DjangoDb(router.db_for_write(TableAction))
    errors: list[Exception | None] = [None] * len(steps)
    try:
        with db.steps_transaction():
            fenced = fences_checked(steps, errors, db)
            steps_insert([step for i, step in enumerate(steps) if i in fenced], db)
        return errors
    except IntegrityError:
        pass  # one step broke a constraint: store each in its own savepoint, to find it
    errors = [None] * len(steps)
    with db.steps_transaction():
        fenced = fences_checked(steps, errors, db)  # again: in the transaction that writes
        for i, step in enumerate(steps):
            if i not in fenced:
                continue
            try:
                with db.atomic():
                    steps_insert([step], db)
            except IntegrityError as error:
                errors[i] = error
    return errors


def fences_checked(steps: list[Step], errors: list, db: DjangoDb | LoopSqlite) -> set[int]:
    """The indexes of ``steps`` whose table this process still owns (one
    ``fences_check`` for them all); the others' errors set."""
    lost = fences_check((step[0] for step in steps), db)
    for i, step in enumerate(steps):
        if step[0] in lost:
            errors[i] = LeaseLost(f"table {step[0]}: another process owns it now")
    return {i for i in range(len(steps)) if errors[i] is None}


def steps_insert(steps: list[Step], db: DjangoDb | LoopSqlite) -> None:
    """Insert the steps' actions and events, each kind in one ``executemany``: the ORM's
    ``bulk_create`` makes a model object of every row and compiles its query each time,
    most of the database thread's time with many tables."""
    if not steps:
        return
    db.executemany(
        _insert_sql(db, TableAction, ("table", "index", "data")),
        [(table, index, db.json(action)) for table, index, action, _events in steps],
    )
    db.executemany(
        _insert_sql(db, TableEvent, ("table", "seq", "data", "view")),
        [
            (table, e["seq"], db.json(e["data"]), db.json(e["view"]))
            for table, _index, _action, events in steps
            for e in events
        ],
    )


def _insert_sql(db: DjangoDb | LoopSqlite, model, fields: tuple[str, ...]) -> str:
    columns = ", ".join(db.quote(model._meta.get_field(f).column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {db.quote(model._meta.db_table)} ({columns}) VALUES ({marks})"


def changed(table_id: int) -> None:
    """The table's listing or seats changed: bump the numbers kept pages are checked
    against (games.tables.changes; a deleted table bumps its own)."""
    table_changed(Table.objects.filter(id=table_id).values_list("code", flat=True).first())


def table_id(code: str) -> int:
    return Table.objects.values_list("id", flat=True).get(code=code)


def table_id_or_none(code: str) -> int | None:
    return Table.objects.filter(code=code).values_list("id", flat=True).first()


def seat_bind(table_id: int, number: int, session_key: str, name: str, lang: str = "") -> None:
    """Give seat ``number`` to the browser session ``session_key`` under ``name`` (with
    the language of its edge, at a table on one device)."""
    seats_bind(table_id, [(number, name, lang)], session_key)


def seats_bind(table_id: int, seats: list[tuple[int, str, str]], session_key: str) -> None:
    """Give every seat of ``seats`` (``(number, name, lang)``) to the browser session
    ``session_key``, in one transaction (a table on one device: all or none)."""
    with transaction.atomic():
        fence_check(table_id)
        for number, name, lang in seats:
            Seat.objects.filter(table_id=table_id, number=number).update(
                session_key=session_key, display_name=name, lang=lang
            )
        changed(table_id)


def seats_replace(table_id: int, seats: list[SeatInfo]) -> None:
    """Store ``seats`` as the table's seats, in place of the ones it had."""
    with transaction.atomic():
        fence_check(table_id)
        Seat.objects.filter(table_id=table_id).delete()
        Seat.objects.bulk_create(
            Seat(
                table_id=table_id,
                number=s.number,
                display_name=s.name,
                session_key=s.session_key,
                is_bot=s.is_bot,
                bot_level=s.bot_level,
                done=list(s.done),
                lang=s.lang,
            )
            for s in seats
        )
        changed(table_id)


def control_append(
    table_id: int,
    number: int,
    data: dict,
    table_fields: dict | None = None,
    seats: list[SeatInfo] | None = None,
) -> None:
    """Store a teacher's control number ``number`` (``data``: code, params, at_ms, seq)
    with its effect, in one transaction: ``table_fields`` changed on the table row, and
    ``seats`` (when given) in place of the table's seats."""
    with transaction.atomic():
        fence_check(table_id)
        TableControl.objects.create(table_id=table_id, number=number, data=data)
        if table_fields:
            Table.objects.filter(id=table_id).update(**table_fields)
            changed(table_id)
        if seats is not None:
            seats_replace(table_id, seats)


def class_restart(old: StoredTable, seats: list[SeatInfo], number: int, data: dict) -> str:
    """A new table for the class of ``old``, with ``seats`` (the same students and
    computer players on the same seats), the same rules, pace and teacher, waiting for
    the teacher's start; ``old`` is closed by control ``number`` (``data``, whose
    ``params`` get the new code), which names the new table. Returns the new code."""
    with transaction.atomic():
        opener = Table.objects.filter(id=old.id).values_list("opener_address", flat=True)
        code = table_insert(
            players=old.players,
            options=old.options,
            bots={},
            bot_time_scale=old.bot_time_scale,
            away_after_ms=old.away_after_ms,
            turn_timer_ms=old.turn_timer_ms,
            beat_ms=old.beat_ms,
            lag_cap_ms=old.lag_cap_ms,
            teacher_key=old.teacher_key,
            class_name=old.class_name,
            fill_level=old.fill_level,
            on_device=old.on_device,
            device_group=old.device_group,
            opener_key=old.teacher_key,
            opener_address=opener.first(),
        )
        lesson = Table.objects.filter(id=old.id).values_list("lesson_code", flat=True).first()
        Table.objects.filter(code=code).update(lesson_code=lesson or "")  # the same lesson
        seats_replace(table_id(code), seats)
        data = {**data, "params": {**data["params"], "code": code}}
        closed = {"next_code": code, "paused": False, "open_until": 0}
        control_append(old.id, number, data, closed)
    return code


def seat_done(table_id: int, number: int, done: list[str]) -> None:
    """Store the walkthroughs a class's student on seat ``number`` has finished."""
    with transaction.atomic():
        fence_check(table_id)
        Seat.objects.filter(table_id=table_id, number=number).update(done=done)


def classes_purge(days: int = 30) -> int:
    """Delete the class tables opened more than ``days`` days ago, with their seats
    (the students' names), actions, events and controls; return how many tables."""
    old = Table.objects.exclude(teacher_key="").filter(
        created__lt=timezone.now() - timedelta(days=days)
    )
    count = old.count()
    old.delete()
    return count


def events_since(code: str, since: int, limit: int = 5000) -> list[dict]:
    """The stored events of table ``code`` numbered after ``since``, in order, as
    ``{"seq", "code", "params", "view"}`` (the public view)."""
    rows = TableEvent.objects.filter(table__code=code, seq__gt=since).order_by("seq")
    fields = rows.values_list("seq", "data", "view")[:limit]  # no model objects made
    return [{"seq": seq, **data, "view": view} for seq, data, view in fields]


#: The most rows the lobby's query reads, whoever opened them (a bounded read): ten
#: times the lobby's 20 tables, as one opener's tables are listed once.
OPEN_TABLES_READ = 200


@compiled
def _open_table_rows(now_ms):
    """Public tables still open (games.tables.closing) with a free seat, newest first:
    code, players, free seats, the session on seat 0 (its opener) and when it closes
    unless someone comes."""
    free = Count("seats", filter=Q(seats__is_bot=False, seats__session_key=""))
    opener = Seat.objects.filter(table=OuterRef("pk"), number=0).values("session_key")[:1]
    return (
        Table.objects.filter(public=True, idle_closed=None, open_until__gt=Value(now_ms))
        .annotate(free=free, opener=Subquery(opener))
        .filter(free__gt=0)
        .order_by("-created", "-id")
        .values_list("code", "players", "free", "opener", "open_until")[:OPEN_TABLES_READ]
    )


def tables_open(limit: int = 20) -> list[dict]:
    """Public tables with a free seat, newest first: ``code``, ``players``, ``free``;
    one person's tables (the same opener on seat 0) only once, the newest. The
    earliest moment one of them closes is noted (``changes.tables_expire_at``), so a
    kept lobby is made again then."""
    found, openers = [], set()
    rows = _open_table_rows(wall_ms())
    for code, players, free, opener, _until in rows:
        if opener and opener in openers:
            continue
        openers.add(opener)
        found.append({"code": code, "players": players, "free": free})
        if len(found) == limit:
            break
    if rows:
        tables_expire_at(min(until for *_row, until in rows))
    return found


@compiled
def _seat_rows(code):
    return (
        Seat.objects.filter(table__code=code)
        .order_by("number")
        .values_list("table_id", "is_bot", "session_key", "display_name")
    )


def seat_names_load(code: str) -> list[tuple[int, bool, bool, str]]:
    """Table ``code``'s seats in order, as a replay names them: ``(table id, a
    computer player, taken by a browser, the typed name)``; [] when there is no such
    table (a purged class table). Read at each visit of a kept replay."""
    rows = _seat_rows(code)
    return [(table, bool(bot), bool(key), name) for table, bot, key, name in rows]
