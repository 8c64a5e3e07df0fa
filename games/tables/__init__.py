"""The live-table service: one writer per table.

Use these functions only (keyword-only arguments, named ``noun_verb``); the owner
behind them is an in-process :class:`~games.tables.owner.TableOwner` today, and may be
a lease plus forwarding over the channel layer later (see ``registry``).

- :func:`table_create` (sync): store a new table, return its join code.
- :func:`table_create_practice` (sync): one person and computer players, seated at once.
- :func:`table_open` (sync): a table opened from the lobby, the opener on seat 0.
- :func:`table_welcome`: what a connecting client is told (its seat, the view, seq).
- :func:`table_join`: bind a browser session to a free seat under a display name.
- :func:`table_submit`: a player's action, stamped on arrival.
- :func:`table_events_since`: the stored events after a number (catch-up).
- :func:`table_presence`: a seat's connection came or went (stand-ins).
- :func:`tables_open` (sync): public tables with a free seat, for the lobby.
- :func:`table_record` (sync): the engine record of a table, for replays.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from games.engine import DEFAULT_OPTIONS, BotLevel, Card, Options, Record
from games.protocol import display_name

from . import store
from .codes import normalise_code
from .owner import Outcome, wall_ms
from .registry import group_name, owner_for, registry_drop

__all__ = [
    "Outcome",
    "group_name",
    "registry_drop",
    "table_create",
    "table_create_practice",
    "table_open",
    "table_events_since",
    "table_seat",
    "table_join",
    "table_presence",
    "table_record",
    "table_submit",
    "table_welcome",
    "tables_open",
    "wall_ms",
]


def table_create(
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
) -> str:
    """Store a new table of ``players`` seats (computer players on the seats of
    ``bots``), dealt now, and return its join code. ``deck``/``dealer`` fix the deal
    (tests, lessons); ``position`` starts from piles instead of a deal (card codes,
    each pile bottom to top: ``face_down``, optional ``face_up``, ``pot``, ``to_play``,
    ``last_turned``, as for ``games.engine.from_piles``); ``bot_time_scale`` < 1 makes
    computer players faster (tests);
    a computer player stands in for a person whose connections have all been gone for
    ``away_after_ms``, until the person is back. Pace: with ``turn_timer_ms`` the table
    turns the card of a person who has not turned it in that time; with ``beat_ms`` the
    table turns every card at that steady beat and the players only call. Lag
    compensation: with ``lag_cap_ms`` (0 to 500) a call counts as sent half its
    connection's measured round trip before it arrived, at most ``lag_cap_ms`` earlier,
    and the race is closed that much later."""
    return store.table_insert(
        players=players,
        options=options,
        bots=bots or {},
        public=public,
        seed=seed,
        deck=deck,
        dealer=dealer,
        bot_time_scale=bot_time_scale,
        position=position,
        away_after_ms=away_after_ms,
        turn_timer_ms=turn_timer_ms,
        beat_ms=beat_ms,
        lag_cap_ms=lag_cap_ms,
    )


def table_create_practice(
    *,
    session_key: str,
    name: str,
    levels: list[BotLevel],
    options: Options = DEFAULT_OPTIONS,
    bot_time_scale: float = 1.0,
) -> str:
    """A practice table: the session on seat 0 under ``name`` (checked like a joining
    name), and one computer player per level on the next seats; play starts at once."""
    if not session_key:
        raise ValueError("a practice table needs a browser session")
    name = display_name(name)
    code = table_create(
        players=1 + len(levels),
        options=options,
        bots={seat: level for seat, level in enumerate(levels, start=1)},
        bot_time_scale=bot_time_scale,
    )
    store.seat_bind(store.table_id(code), 0, session_key, name)
    return code


def table_open(*, session_key: str, name: str, **settings) -> str:
    """A table opened by a person from the lobby: stored like :func:`table_create`
    (``settings`` are its keywords; computer players must leave seat 0 free), with the
    opener's session on seat 0 under ``name`` (checked like a joining name)."""
    if not session_key:
        raise ValueError("opening a table needs a browser session")
    name = display_name(name)
    if 0 in (settings.get("bots") or {}):
        raise ValueError("seat 0 is the opener's")
    code = table_create(**settings)
    store.seat_bind(store.table_id(code), 0, session_key, name)
    return code


async def table_welcome(*, code: str, session_key: str | None) -> dict | None:
    """The welcome message for a client of session ``session_key`` (None: no such table)."""
    owner = await owner_for(normalise_code(code))
    if owner is None:
        return None
    return owner.snapshot(owner.seat_of(session_key))


async def table_join(*, code: str, session_key: str, name: str) -> int | None:
    """Seat the session (its own seat if it already has one); None when full."""
    owner = await owner_for(normalise_code(code))
    if owner is None:
        return None
    return await owner.join(session_key=session_key, name=name)


async def table_seat(*, code: str, session_key: str | None) -> int | None:
    """The seat of session ``session_key`` at table ``code``, if any."""
    owner = await owner_for(normalise_code(code))
    return None if owner is None else owner.seat_of(session_key)


async def table_presence(*, code: str, seat: int, present: bool) -> None:
    """A connection of ``seat`` came (``present``) or went: after ``away_after_ms``
    without any, a computer player stands in for the seat until one comes back."""
    owner = await owner_for(normalise_code(code))
    if owner is not None:
        await owner.presence(seat=seat, present=present)


async def table_submit(
    *, code: str, seat: int, action_json: dict, received_ms: int, lag_ms: int = 0
) -> Outcome:
    """Apply ``seat``'s action (``{"type": "turn"|"snap"|"snap_pot", "seen"?: int}``),
    received at wall-clock ``received_ms`` on a connection whose one-way delay was
    measured as ``lag_ms``; its events are stored, then broadcast."""
    owner = await owner_for(normalise_code(code))
    if owner is None:
        return Outcome(refused="no_table")
    return await owner.submit(
        seat=seat, action_json=action_json, received_ms=received_ms, lag_ms=lag_ms
    )


async def table_events_since(*, code: str, since: int) -> list[dict]:
    """The stored events of ``code`` after number ``since``, in order (any process may
    answer this: it reads storage only)."""
    return await database_sync_to_async(store.events_since)(normalise_code(code), since)


def tables_open(*, limit: int = 20) -> list[dict]:
    """Public tables with a free seat, newest first (``code``, ``players``, ``free``)."""
    return store.tables_open(limit)


def table_record(*, code: str) -> Record | None:
    """The record of table ``code`` (players, options, dealt deck, every accepted action
    with its time): ``games.engine.replay`` plays it again exactly."""
    return store.record_load(normalise_code(code))
