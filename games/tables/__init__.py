"""The live-table service: one writer per table.

Use these functions only (keyword-only arguments, named ``noun_verb``); the owner
behind them is a :class:`~games.tables.owner.TableOwner` in whichever process holds the
table's lease, reached over the channel layer from the others (see ``registry``).

- :func:`table_create` (sync): store a new table, return its join code.
- :func:`table_create_practice` (sync): one person and computer players, seated at once.
- :func:`table_open` (sync): a table opened from the lobby, the opener on seat 0.
- :func:`table_open_class` (sync): a class table, opened by a teacher who does not play.
- :func:`table_open_device` (sync): a table on one device, its people all on one session.
- :func:`table_open_class_tablets` (sync): a class's tables on one device, one per tablet.
- :func:`table_exists`: is there such a table to connect to?
- :func:`table_welcome`: what a connecting client is told (its seat, the view, seq).
- :func:`table_join`: bind a browser session to a free seat under a display name.
- :func:`table_join_device`: bind a tablet's session to a free seat for each of its people.
- :func:`table_seats_held`: the seats a session holds (several at a table on one device).
- :func:`table_submit`: a player's action, stamped on arrival.
- :func:`table_events_since`: the stored events after a number (catch-up).
- :func:`table_presence`: a seat's connection came or went (stand-ins).
- :func:`table_attend`: any welcomed connection came or went (idle tables pause).
- :func:`table_listen` / :func:`table_unlisten`: a connection of this process gets the
  table's messages (``table_message``), or no longer (``fan_out``).
- :func:`table_control`: a teacher's control at a class table (start, pause, pace…).
- :func:`table_done`: a class's student has finished these walkthroughs.
- :func:`class_teacher` (sync): is this session the teacher of this class table?
- :func:`classes_purge` (sync): delete class tables (and names) older than 30 days.
- :func:`tables_open` (sync): public tables with a free seat, for the lobby.
- :func:`table_record` (sync): the engine record of a table, for replays.
- :func:`table_stand_ins` (sync): per action, the seats a computer player stood in for.
- :func:`table_seat_names` (sync): the seats as a replay names them (read at each visit).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.db import transaction

from games.engine import DEFAULT_OPTIONS, BotLevel, Card, Options, Record
from games.models import Table
from games.tables.protocol import LANGS, display_name, walkthrough_slugs

from . import fan_out, store
from .codes import normalise_code
from .controls import CONTROLS
from .device import DEVICE_BEAT_MS, DEVICE_COMPUTERS, DEVICE_PEOPLE, TABLETS_MAX
from .fan_out import connection_name
from .limits import TooManyTables, tables_check
from .owner import Outcome, wall_ms
from .registry import (
    NO_TABLE,
    group_name,
    outcome_from,
    owner_call,
    process_channel,
    registry_drop,
)

__all__ = [
    "CONTROLS",
    "Outcome",
    "TooManyTables",
    "class_lesson",
    "class_lesson_assign",
    "class_lesson_done",
    "class_teacher",
    "connection_name",
    "classes_purge",
    "group_name",
    "registry_drop",
    "table_attend",
    "table_control",
    "table_create",
    "table_create_practice",
    "table_done",
    "table_exists",
    "table_open",
    "table_open_class",
    "table_events_since",
    "table_seat",
    "table_join",
    "table_listen",
    "table_join_device",
    "table_open_class_tablets",
    "table_open_device",
    "table_seats_held",
    "table_presence",
    "table_record",
    "table_seat_names",
    "table_stand_ins",
    "table_submit",
    "table_unlisten",
    "table_welcome",
    "tables_open",
    "wall_ms",
]


#: Store a new table, dealt now, and return its join code: every choice, its default and
#: its check are the store's own (:func:`games.tables.store.table_insert`).
table_create = store.table_insert


def table_create_practice(
    *,
    session_key: str,
    name: str,
    levels: list[BotLevel],
    options: Options = DEFAULT_OPTIONS,
    bot_time_scale: float = 1.0,
    address: str | None = None,
) -> str:
    """A practice table: the session on seat 0 under ``name`` (checked like a joining
    name), and one computer player per level on the next seats; play starts at once.
    Raises :class:`TooManyTables` when the session or its network ``address`` has as
    many open tables as allowed (``games.tables.limits``)."""
    if not session_key:
        raise ValueError("a practice table needs a browser session")
    name = display_name(name)
    tables_check(session_key=session_key, address=address)
    code = table_create(
        players=1 + len(levels),
        options=options,
        bots={seat: level for seat, level in enumerate(levels, start=1)},
        bot_time_scale=bot_time_scale,
        opener_key=session_key,
        opener_address=address,
    )
    store.seat_bind(store.table_id(code), 0, session_key, name)
    return code


def table_open(*, session_key: str, name: str, address: str | None = None, **settings) -> str:
    """A table opened by a person from the lobby: stored like :func:`table_create`
    (``settings`` are its keywords; computer players must leave seat 0 free), with the
    opener's session on seat 0 under ``name`` (checked like a joining name). Raises
    :class:`TooManyTables` as :func:`table_create_practice` does."""
    if not session_key:
        raise ValueError("opening a table needs a browser session")
    name = display_name(name)
    if 0 in (settings.get("bots") or {}):
        raise ValueError("seat 0 is the opener's")
    tables_check(session_key=session_key, address=address)
    code = table_create(**settings, opener_key=session_key, opener_address=address)
    store.seat_bind(store.table_id(code), 0, session_key, name)
    return code


def table_open_class(
    *,
    session_key: str,
    class_name: str,
    players: int,
    options: Options = DEFAULT_OPTIONS,
    fill_level: BotLevel | None = None,
    turn_timer_ms: int | None = None,
    beat_ms: int | None = None,
    bot_time_scale: float = 1.0,
    on_device: bool = False,
    device_group: str = "",
    address: str | None = None,
) -> str:
    """A class table of ``players`` seats (2 to 12), opened by the teacher of browser
    session ``session_key``, who does not play: the students take the seats, and play
    starts when the teacher says so (computer players of ``fill_level`` take the seats
    still free then; without one the table shrinks to the seats taken). With
    ``on_device``, one tablet's children take its seats together (:func:`table_join_device`).
    Raises :class:`TooManyTables` when the teacher's session or network ``address``
    has as many open class tables as allowed (``games.tables.limits``)."""
    if not session_key:
        raise ValueError("opening a class table needs a browser session")
    tables_check(session_key=session_key, address=address, kind="class")
    return _class_table(
        session_key=session_key,
        class_name=class_name,
        players=players,
        options=options,
        fill_level=fill_level,
        turn_timer_ms=turn_timer_ms,
        beat_ms=beat_ms,
        bot_time_scale=bot_time_scale,
        on_device=on_device,
        device_group=device_group,
        address=address,
    )


def _class_table(
    *,
    session_key: str,
    class_name: str,
    players: int,
    fill_level: BotLevel | None = None,
    address: str | None = None,
    **settings,
) -> str:
    """:func:`table_open_class` once its limits are checked (``settings``: its other
    keywords, as :func:`table_create` takes them)."""
    if not 2 <= players <= 12:
        raise ValueError("a class table has 2 to 12 seats")
    return table_create(
        players=players,
        teacher_key=session_key,
        class_name=class_name.strip(),
        fill_level=fill_level.name.lower() if fill_level else "",
        opener_key=session_key,
        opener_address=address,
        **settings,
    )


def table_open_device(
    *,
    session_key: str,
    people: list[tuple[str, str]],
    levels: list[BotLevel] | None = None,
    options: Options = DEFAULT_OPTIONS,
    beat_ms: int | None = DEVICE_BEAT_MS,
    address: str | None = None,
    bot_time_scale: float = 1.0,
    away_after_ms: int = 30_000,
    seed: int | None = None,
    deck: tuple[Card, ...] | None = None,
) -> str:
    """A table on one device (a tablet lying flat): ``people`` (2 to 4 ``(name, lang)``,
    names checked like a joining name, ``lang`` one of the site's languages) on seats 0,
    1, … all bound to browser session ``session_key``, then one computer player per
    level (0 to 2); play starts at once, at the slow beat unless ``beat_ms`` says
    otherwise. Raises :class:`TooManyTables` as :func:`table_create_practice` does."""
    if not session_key:
        raise ValueError("a table on one device needs a browser session")
    levels = list(levels or [])
    low, high = DEVICE_PEOPLE
    if not low <= len(people) <= high or len(levels) > DEVICE_COMPUTERS:
        raise ValueError("a table on one device has 2 to 4 people and 0 to 2 computer players")
    seats = [(n, display_name(name), device_lang(lang)) for n, (name, lang) in enumerate(people)]
    tables_check(session_key=session_key, address=address)
    code = table_create(
        players=len(people) + len(levels),
        options=options,
        bots={seat: level for seat, level in enumerate(levels, start=len(people))},
        beat_ms=beat_ms,
        bot_time_scale=bot_time_scale,
        away_after_ms=away_after_ms,
        seed=seed,
        deck=deck,
        on_device=True,
        opener_key=session_key,
        opener_address=address,
    )
    store.seats_bind(store.table_id(code), seats, session_key)
    return code


def device_lang(lang: str) -> str:
    """An edge's language, checked: one of the site's languages, or "" (the page's)."""
    if lang and lang not in LANGS:
        raise ValueError(f"not a language of the site: {lang!r}")
    return lang


def table_open_class_tablets(*, tablets: int, players: int, **settings) -> list[str]:
    """``tablets`` (1 to 8) class tables on one device, of ``players`` seats each (2 to
    4 children), opened together: each table's ``device_group`` is the first one's
    code, so the teacher's page finds them all. ``settings`` are
    :func:`table_open_class`'s other keywords. Returns the codes, the first first.
    Raises :class:`TooManyTables` (nothing opened) when they do not all fit in the
    limits of open class tables."""
    if not 1 <= tablets <= TABLETS_MAX:
        raise ValueError("a class opens 1 to 8 tablets' tables")
    low, high = DEVICE_PEOPLE
    if not low <= players <= high:
        raise ValueError("a tablet's table has 2 to 4 children")
    if not settings.get("session_key"):
        raise ValueError("opening a class table needs a browser session")
    tables_check(
        session_key=settings["session_key"],
        address=settings.get("address"),
        kind="class",
        tables=tablets,
    )
    with transaction.atomic():
        first = _class_table(players=players, on_device=True, **settings)
        Table.objects.filter(code=first).update(device_group=first)
        others = [
            _class_table(players=players, on_device=True, device_group=first, **settings)
            for _ in range(tablets - 1)
        ]
    return [first, *others]


def class_teacher(*, code: str, session_key: str | None) -> bool:
    """True when ``session_key`` is the teacher of class table ``code``."""
    if not session_key:
        return False
    return Table.objects.filter(code=normalise_code(code), teacher_key=session_key).exists()


def classes_purge(*, days: int = 30) -> int:
    """Delete the class tables opened more than ``days`` days ago, with their seats
    (the students' first names), moves, events and controls; return how many."""
    return store.classes_purge(days)


async def table_exists(*, code: str) -> bool:
    """Table ``code`` is there to connect to (its owner answers; nothing is built)."""
    return await owner_call(normalise_code(code), "exists") is not NO_TABLE


async def table_welcome(
    *, code: str, session_key: str | None, connection: str | None = None
) -> dict | None:
    """The welcome message for a client of session ``session_key`` (None: no such table).
    The listening connection named ``connection`` is sent every later message wherever
    the owner is, until it leaves (:func:`table_attend` with ``here=False``)."""
    welcome = await owner_call(
        normalise_code(code), "welcome", session_key=session_key, connection=connection
    )
    return None if welcome is NO_TABLE else welcome


async def table_join(*, code: str, session_key: str, name: str) -> int | str:
    """Seat the session (its own seat if it already has one); or the reason it cannot
    sit down (an error code: ``table_full``, ``is_teacher``, ``restarted``…)."""
    seat = await owner_call(normalise_code(code), "join", session_key=session_key, name=name)
    return "no_table" if seat is NO_TABLE else seat


async def table_join_device(*, code: str, session_key: str, players: list[dict]) -> list[int] | str:
    """Seat each of ``players`` (``{"name", "lang"}``, checked) on the next free seat of
    the table on one device ``code``, all bound to session ``session_key``: the seats,
    or why nobody was seated (``table_full`` when they do not all fit, ``bad_message``
    at a table that is not on one device, ``is_teacher``, ``restarted``…)."""
    seats = await owner_call(
        normalise_code(code), "join_device", session_key=session_key, players=players
    )
    return "no_table" if seats is NO_TABLE else seats


async def table_seats_held(*, code: str, session_key: str | None) -> tuple[bool, list[int]]:
    """Whether table ``code`` is on one device, and every seat session ``session_key``
    holds there (several at such a table), in seat order."""
    held = await owner_call(normalise_code(code), "seats_held", session_key=session_key)
    return (False, []) if held is NO_TABLE else (held["device"], held["seats"])


async def table_control(*, code: str, session_key: str | None, message: dict) -> Outcome:
    """The teacher's control ``message`` (type in :data:`CONTROLS`), from a connection
    of session ``session_key``: refused with ``not_teacher`` for anyone else."""
    refused = await owner_call(
        normalise_code(code), "control", session_key=session_key, message=message
    )
    return Outcome(refused="no_table" if refused is NO_TABLE else refused)


def class_lesson(*, code: str) -> str:
    """The code of the teacher's lesson assigned at class table ``code`` ("": none)."""
    found = Table.objects.filter(code=normalise_code(code)).values_list("lesson_code", flat=True)
    return found.first() or ""


def class_lesson_done(*, code: str) -> list[str]:
    """What a student's page sends when the class's lesson is done (``lesson:<CODE>``)."""
    lesson = class_lesson(code=code)
    return [f"lesson:{lesson}"] if lesson else []


def class_lesson_assign(*, code: str, lesson: str) -> None:
    """Assign the teacher's lesson ``lesson`` ("": none) at class table ``code``."""
    Table.objects.filter(code=normalise_code(code)).exclude(teacher_key="").update(
        lesson_code=lesson
    )


async def table_done(*, code: str, seat: int, walkthroughs: list[str]) -> None:
    """The student on ``seat`` of a class table has finished ``walkthroughs`` (known
    slugs); kept with the seat and told to the teacher (other tables: nothing)."""
    order = list(walkthrough_slugs()) + await database_sync_to_async(class_lesson_done)(code=code)
    await owner_call(
        normalise_code(code), "done", seat=seat, walkthroughs=walkthroughs, order=order
    )


async def table_seat(*, code: str, session_key: str | None) -> int | None:
    """The seat of session ``session_key`` at table ``code``, if any."""
    seat = await owner_call(normalise_code(code), "seat", session_key=session_key)
    return None if seat is NO_TABLE else seat


async def table_presence(
    *, code: str, present: bool, connection: str, seat: int | None = None, seats: list[int] = ()
) -> None:
    """The connection named ``connection`` counts for ``seat`` (or for each of ``seats``,
    at a table on one device) (``present``) or no longer does: after ``away_after_ms``
    without any, a computer player stands in for the seat until one comes back."""
    await owner_call(
        normalise_code(code),
        "presence",
        seat=seat,
        seats=list(seats),
        present=present,
        connection=connection,
    )


async def table_listen(*, code: str, listener: fan_out.Listener) -> None:
    """``listener`` (a connection of this process) is given every message of table
    ``code`` told from now on, wherever its owner is."""
    await fan_out.listen(normalise_code(code), listener, await process_channel())


async def table_unlisten(*, code: str, listener: fan_out.Listener) -> None:
    await fan_out.unlisten(normalise_code(code), listener, await process_channel())


async def table_attend(*, code: str, connection: str, here: bool) -> None:
    """The welcomed connection named ``connection`` is at table ``code`` (``here``), or
    has left: a table nobody is at pauses, then closes (``games.tables.idle``)."""
    await owner_call(normalise_code(code), "attend", connection=connection, here=here)


async def table_submit(
    *, code: str, seat: int, action_json: dict, received_ms: int, lag_ms: int = 0
) -> Outcome:
    """Apply ``seat``'s action (``{"type": "turn"|"snap"|"snap_pot", "seen"?: int}``),
    received at wall-clock ``received_ms`` on a connection whose one-way delay was
    measured as ``lag_ms``; its events are stored, then broadcast."""
    result = await owner_call(
        normalise_code(code),
        "submit",
        seat=seat,
        action_json=action_json,
        received_ms=received_ms,
        lag_ms=lag_ms,
    )
    return Outcome(refused="no_table") if result is NO_TABLE else outcome_from(result)


#: A catch-up's events are read this many at a time, each read a call of its own on the
#: database thread (:func:`table_events_since`).
EVENTS_READ_SLICE = 50


async def table_events_since(*, code: str, since: int, limit: int = 5000) -> list[dict]:
    """The stored events of ``code`` after number ``since``, in order, ``limit`` at most
    (any process may answer this: it reads storage only).

    Read :data:`EVENTS_READ_SLICE` at a time: reading and decoding a long catch-up in
    one call holds the database thread, and the tables' loop, woken by a move
    meanwhile, waits for the interpreter that long. A slice is short, and the loop runs
    between slices."""
    code = normalise_code(code)
    read = database_sync_to_async(store.events_since)
    events: list[dict] = []
    while len(events) < limit:
        wanted = min(EVENTS_READ_SLICE, limit - len(events))
        found = await read(code, events[-1]["seq"] if events else since, wanted)
        events.extend(found)
        if len(found) < wanted:
            break
    return events


def tables_open(*, limit: int = 20) -> list[dict]:
    """Public tables with a free seat, newest first (``code``, ``players``, ``free``)."""
    return store.tables_open(limit)


def table_record(*, code: str) -> Record | None:
    """The record of table ``code`` (players, options, dealt deck, every accepted action
    with its time): ``games.engine.replay`` plays it again exactly."""
    return store.record_load(normalise_code(code))


def table_seat_names(*, code: str) -> list[tuple[int, bool, bool, str]]:
    """Table ``code``'s seats in order: ``(table id, a computer player, taken, the typed
    name)``; [] when there is no such table. One quick query (a kept replay's mark)."""
    return store.seat_names_load(normalise_code(code))


def table_stand_ins(*, code: str) -> list[frozenset[int]]:
    """For each action of table ``code``'s record, in order: the seats a computer player
    was standing in for at that moment (empty for a record stored without the mark)."""
    return store.stand_ins_load(normalise_code(code))
