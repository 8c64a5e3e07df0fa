"""Which process owns each table, and the way every call reaches that owner.

A table is owned by one process at a time, under a lease with a fencing number
(:mod:`games.tables.lease`, in the database every process shares). :func:`owner_call`
runs a call on the owner: here when this process holds the table (or can take it:
nobody holds it, or its holder's lease expired), else forwarded over the channel layer
to the holder's process (:mod:`games.tables.forwarding`). A holder that does not answer
is waited for until its lease expires; then this process takes the table over from the
stored log, tells the table's connections (``table.owner``: they say again which seats
are present) and the game goes on. That word is a relay, which can be lost: a process
that reads a table's lease and finds it changed hands since it last looked tells its own
connections the same itself (:func:`_note_fence`). One process (the default, with the
in-memory layer) is the same path, where every table is simply held here.

Every :data:`lease.RENEW_S` this process renews all its leases in one statement, drops
the owners of tables it lost (their writes are refused by the fence anyway), keeps the
tables someone is at here open (games.tables.closing), and takes over the tables its
own players are seated at whose holder has gone quiet.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, replace

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connections

from . import closing, fan_out, lease, store
from .fan_out import group_name
from .forwarding import Endpoint
from .owner import Outcome, TableOwner

__all__ = ["group_name", "owner_call", "owner_for", "process_channel", "registry_drop", "NO_TABLE"]

log = logging.getLogger(__name__)

_owners: dict[str, TableOwner] = {}
#: owner -> the connections of other processes at its table (its relays go to them)
_elsewhere: weakref.WeakKeyDictionary[TableOwner, fan_out.ListenersElsewhere] = (
    weakref.WeakKeyDictionary()
)
#: How long the owner of a finished game stays in memory (it is read from storage again
#: if someone asks later).
FINISHED_KEEP_S = 300.0
#: How long a forwarded call waits for the owner's answer, and how long a call waits in
#: all for a table whose holder has gone quiet (its lease must expire first).
CALL_TIMEOUT_S = 1.0
TAKEOVER_WAIT_S = lease.TTL_MS / 1000 * 3 + 2
NO_TABLE = object()  # owner_call's answer for a table that does not exist

_state: dict[str, object] = {"loop": None, "locks": None, "endpoint": None, "renewer": None}
_table_ids: dict[str, int] = {}
_remote: dict[str, lease.Lease] = {}  # code -> the lease last read for a table held elsewhere
#: code -> the fence of the table's holder when this process last saw it (a lease read,
#: or its own taking). Another fence at a later read means the table changed hands: this
#: process's connections there are told (``table.owner``) even if the new owner's own
#: word, a relay that can be lost, never came; else the new owner, not knowing them,
#: would stop relaying to them after its first seconds and give their seats stand-ins.
_fences_seen: dict[str, int] = {}
_telling: set[asyncio.Task] = set()  # those tellings, kept until done
_seated_here: dict[str, set[str]] = {}  # code -> this process's connections seated there
#: The leases are renewed on a thread of their own, with its own database connection:
#: on Channels' one database thread a renewal queued behind the tables' work (steps,
#: welcomes, catch-ups) for longer than the lease lets the other processes take the
#: tables of a process that is busy, not dead (and their players wait for the
#: takeovers). On
#: SQLite (one machine; writers are serialised anyway, and an in-memory database
#: refuses a second writer at once) they stay on the database thread.
_RENEWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lease-renewal")


# -- the calls ------------------------------------------------------------------------


async def _exists(owner: TableOwner) -> bool:
    """Reached only when the table has an owner (else :func:`owner_call` answers
    :data:`NO_TABLE`)."""
    return True


async def _welcome(
    owner: TableOwner, *, session_key: str | None, connection: str | None = None
) -> dict:
    """The table as it is now, for a connection that listens from now on: the owner
    relays every later message to its process if that is another one."""
    _elsewhere[owner].listening(connection)
    return owner.snapshot(owner.seats_of(session_key), teacher=owner.is_teacher(session_key))


async def _attend(owner: TableOwner, *, connection: str, here: bool) -> None:
    _elsewhere[owner].listening(connection, here)
    await owner.attend(connection=connection, here=here)


async def _seat(owner: TableOwner, *, session_key: str | None) -> int | None:
    return owner.seat_of(session_key)


async def _seats_held(owner: TableOwner, *, session_key: str | None) -> dict:
    return {"device": owner.stored.on_device, "seats": owner.seats_of(session_key)}


async def _submit(owner: TableOwner, **kwargs) -> dict:
    return asdict(await owner.submit(**kwargs))


OPS = {
    "exists": _exists,
    "welcome": _welcome,
    "seat": _seat,
    "seats_held": _seats_held,
    "join": lambda owner, **kw: owner.join(**kw),
    "join_device": lambda owner, **kw: owner.join_device(**kw),
    "control": lambda owner, **kw: owner.control(**kw),
    "done": lambda owner, **kw: owner.done(**kw),
    "presence": lambda owner, **kw: owner.presence(**kw),
    "attend": _attend,
    "submit": _submit,
}


def outcome_from(result: dict) -> Outcome:
    return Outcome(seqs=tuple(result["seqs"]), refused=result["refused"])


async def owner_call(code: str, op: str, **kwargs):
    """Run ``op`` (a key of :data:`OPS`) with ``kwargs`` on the owner of table ``code``,
    wherever it is; :data:`NO_TABLE` when there is no such table. Results are plain data
    (a submit's outcome as a dict: :func:`outcome_from`)."""
    if op == "presence":
        here = _seated_here.setdefault(code, set())
        (here.add if kwargs["present"] else here.discard)(kwargs["connection"])
        if not here:
            del _seated_here[code]
    endpoint = await _endpoint()
    give_up = asyncio.get_running_loop().time() + TAKEOVER_WAIT_S
    while True:
        found = await _owner_or_lease(code)
        if found is None:
            return NO_TABLE
        if isinstance(found, TableOwner):
            try:
                return await OPS[op](found, **kwargs)
            except lease.LeaseLost:
                _forget(found)
                continue
        answer = await endpoint.call(found.holder, code, op, kwargs, CALL_TIMEOUT_S)
        if answer is not None and answer.get("ok"):
            _remote[code] = _answered(found)
            return answer.get("result")
        _remote.pop(code, None)  # read the lease again: the holder may have gone
        if asyncio.get_running_loop().time() > give_up:
            raise TimeoutError(f"table {code}: its owner does not answer")
        await asyncio.sleep(0.1 if answer is not None else 0.3)


def _answered(known: lease.Lease) -> lease.Lease:
    """The lease of a holder that has just answered: it held the table a moment ago and
    renews every RENEW_S, so its lease runs at least that much less than TTL_MS from now.
    Kept as that, the table's lease is not read again while its holder answers (reading
    every table held elsewhere every few seconds fills the database thread's time); a
    holder that stops answering is looked
    up again (owner_call) and, once quiet that long, taken over."""
    return replace(known, expires_ms=lease.wall_ms() + lease.TTL_MS - int(lease.RENEW_S * 1000))


async def _answer(code: str, op: str, kwargs: dict) -> dict:
    """A call forwarded to this process: run it if this process owns the table."""
    owner = _owners.get(code)
    if owner is None or not _holds(owner):
        return {"ok": False, "error": "not_owner"}
    try:
        return {"ok": True, "result": await OPS[op](owner, **kwargs)}
    except lease.LeaseLost:
        _forget(owner)
        return {"ok": False, "error": "not_owner"}


# -- owners and leases ----------------------------------------------------------------


def _holds(owner: TableOwner) -> bool:
    return lease._held.get(owner.stored.id) is not None


async def owner_for(code: str) -> TableOwner | None:
    """The owner of table ``code`` in this process, taking the table if nobody else
    holds it; None when there is no such table or another process owns it."""
    await _endpoint()
    found = await _owner_or_lease(code)
    return found if isinstance(found, TableOwner) else None


async def _owner_or_lease(code: str) -> TableOwner | lease.Lease | None:
    """This process's owner of ``code`` (taking the table when it can), else the lease
    of the process that holds it; None when there is no such table."""
    owner = _owners.get(code)
    if owner is not None:
        if _holds(owner):
            return owner
        _forget(owner)
    known = _remote.get(code)
    if known is not None and not known.expired():
        return known
    async with _lock(code):
        owner = _owners.get(code)
        if owner is not None:
            return owner
        endpoint: Endpoint = _state["endpoint"]  # type: ignore[assignment]
        found = await database_sync_to_async(_take_or_read)(code, endpoint.channel)
        if found is None or isinstance(found, lease.Lease):
            if found is not None:
                _remote[code] = found
                _note_fence(code, found.fence)
            return found
        _remote.pop(code, None)
        _fences_seen[code] = lease._held.get(found.id) or 0  # told by _load's broadcast
        return await _load(code, found)


def _note_fence(code: str, fence: int) -> None:
    """Note the fence of table ``code``'s holder, read just now; if the table has
    changed hands since this process last saw it, tell this process's connections
    there, as the new owner does (``table.owner``: they say again that they are there,
    and fill any gap from storage). Told in a task of its own: what they do calls the
    owner, and this is called under the table's loading lock."""
    before = _fences_seen.get(code)
    _fences_seen[code] = fence
    if before is None or before == fence or not fan_out.listening(code):
        return
    log.info("table %s: found with a new owner; its connections here are told", code)
    task = asyncio.ensure_future(fan_out.tell_here(code, {"type": "table.owner"}))
    _telling.add(task)
    task.add_done_callback(_telling.discard)


def _take_or_read(code: str, holder: str) -> store.StoredTable | lease.Lease | None:
    """In one trip to the database thread (a connection waits for it, behind every
    table's stored steps): take table ``code``'s lease and load it, or read the lease
    of the process that holds it; None when there is no such table."""
    table_id = _table_ids.get(code)
    if table_id is None:
        table_id = store.table_id_or_none(code)
        if table_id is None:
            return None
        _table_ids[code] = table_id
    if lease.lease_take(table_id, holder) is None:
        return lease.lease_read(table_id)
    return store.table_load(code)


async def _load(code: str, stored: store.StoredTable) -> TableOwner | None:
    """The owner of the table just taken; None when it is closed, or its time to close
    has passed while no process owned it (games.tables.closing): closed now."""
    if stored.idle_closed:
        return None
    if 0 < stored.open_until_ms <= closing.wall_ms():
        await database_sync_to_async(store.idle_close)(stored.id)
        return None
    endpoint: Endpoint = _state["endpoint"]  # type: ignore[assignment]
    elsewhere = fan_out.ListenersElsewhere(first_owner=lease.first_taking(stored.id))

    async def broadcast(message: dict) -> None:
        await fan_out.tell(code, message, endpoint.channel, relay=elsewhere.relay_needed)

    owner = TableOwner(stored, broadcast, on_over=_forget_later, on_closed=_forget)
    _elsewhere[owner] = elsewhere
    _owners[code] = owner
    owner.start()
    # connections held by other processes (or left from an owner that died) say again
    # which seats are present, so that nobody gets a stand-in for being elsewhere
    await broadcast({"type": "table.owner"})
    return owner


def _forget(owner: TableOwner) -> None:
    """Forget an owner: its table is over, closed for want of anyone connected
    (games.tables.idle), or owned by another process now."""
    if not owner._stopped:
        owner.stop()
    if _owners.get(owner.code) is owner:
        del _owners[owner.code]


def _forget_later(owner: TableOwner) -> None:
    """The table's game is over: it counts as open no more (stored now), and its owner
    is forgotten :data:`FINISHED_KEEP_S` later."""
    finished = asyncio.ensure_future(database_sync_to_async(store.table_finished)(owner.stored.id))
    finished.add_done_callback(_log_failure)

    def forget() -> None:
        if _owners.get(owner.code) is owner:
            _forget(owner)
            endpoint: Endpoint | None = _state["endpoint"]  # type: ignore[assignment]
            if endpoint is not None:
                asyncio.ensure_future(
                    database_sync_to_async(lease.lease_release)(owner.stored.id, endpoint.channel)
                )

    asyncio.get_running_loop().call_later(FINISHED_KEEP_S, forget)


def _log_failure(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("storing that a game is over failed", exc_info=task.exception())


# -- this process ---------------------------------------------------------------------


async def process_channel() -> str:
    """This process's channel on the layer (its name in leases and relays)."""
    return (await _endpoint()).channel


def _lock(code: str | None = None) -> asyncio.Lock:
    """Table ``code``'s loading lock on the running loop: one load of a table at a
    time, the loads of different tables side by side (owners of another loop are
    dropped: they cannot run here)."""
    loop = asyncio.get_running_loop()
    if _state["loop"] is not loop:
        registry_drop()
        _state["loop"] = loop
        _state["locks"] = weakref.WeakValueDictionary()
    locks: weakref.WeakValueDictionary = _state["locks"]  # type: ignore[assignment]
    lock = locks.get(code)
    if lock is None:
        lock = locks[code] = asyncio.Lock()
    return lock


async def _endpoint() -> Endpoint:
    """This process's channel on the layer, and its renewing task, started once per
    event loop."""
    _lock()
    endpoint: Endpoint | None = _state["endpoint"]  # type: ignore[assignment]
    if endpoint is None:
        endpoint = Endpoint(get_channel_layer(), _answer, fan_out.relayed)
        _state["endpoint"] = endpoint
        _state["renewer"] = asyncio.ensure_future(_renew_forever(endpoint))
    return await endpoint.started()


async def _renew_forever(endpoint: Endpoint) -> None:
    """Renew on a steady beat. The takeovers of quiet holders' tables run beside it, one
    pass at a time: they wait on the database thread and on tables' loading locks
    (seconds under load), and a renewal that waited for them let this process's own
    leases expire, and their tables changed owner for nothing."""
    taking_over: asyncio.Future | None = None
    try:
        while True:
            await asyncio.sleep(lease.RENEW_S)
            try:
                await _renew_leases(endpoint)
            except Exception:  # a database hiccup: try again at the next beat
                log.exception("renewing the table leases failed")
            try:
                await _keep_attended_open()
            except Exception:  # the same: their stored moment is well ahead still
                log.exception("keeping the attended tables open failed")
            if taking_over is None or taking_over.done():
                taking_over = asyncio.ensure_future(_take_over_quiet_tables())
    finally:  # stopped (registry_drop): its takeover pass with it
        if taking_over is not None:
            taking_over.cancel()


async def _renew_leases(endpoint: Endpoint) -> None:
    await endpoint.started()
    if lease._held:
        if connections["default"].vendor == "sqlite":
            await database_sync_to_async(lease.leases_renew)(endpoint.channel)
        else:
            await database_sync_to_async(
                lease.leases_renew, thread_sensitive=False, executor=_RENEWING
            )(endpoint.channel)
    for owner in list(_owners.values()):
        if not _holds(owner):
            log.warning("table %s: another process owns it now", owner.code)
            owner.lose()
            _forget(owner)


async def _keep_attended_open() -> None:
    """Move on the stored moment each table someone is at here closes (about twice per
    ``closing.kept_ms()``: one statement for every such table of this process)."""
    now = closing.wall_ms()
    due = [owner for owner in _owners.values() if _holds(owner) and owner.open_kept_due(now)]
    if not due:
        return
    until = closing.open_until_kept(now)
    await database_sync_to_async(store.open_until_keep)([owner.stored.id for owner in due], until)
    for owner in due:
        owner.open_kept(until)


async def _take_over_quiet_tables() -> None:
    try:
        for code in list(_seated_here):  # our players' tables whose holder went quiet
            if code not in _owners:
                known = _remote.get(code)
                if known is None or known.expired():
                    _remote.pop(code, None)
                    await _owner_or_lease(code)
    except Exception:  # a database hiccup: try again at the next beat
        log.exception("taking over the tables of a quiet process failed")


def registry_drop() -> None:
    """Stop and forget every owner of this process (as a restart would); the process
    keeps its name, so it takes its tables again when asked."""
    for owner in _owners.values():
        owner.stop()
    _owners.clear()
    _remote.clear()
    _fences_seen.clear()
    _table_ids.clear()
    loop = _state.get("loop")
    endpoint: Endpoint | None = _state.get("endpoint")  # type: ignore[assignment]
    if endpoint is not None and loop is not None and loop is not _running_loop():
        endpoint.stop()  # of a loop that is gone: a new one is made for the new loop
        renewer = _state.get("renewer")
        if renewer is not None:
            try:
                renewer.cancel()  # type: ignore[attr-defined]
            except RuntimeError:  # its loop is closed already
                pass
        _state["endpoint"] = _state["renewer"] = None
        _seated_here.clear()
        fan_out.forget_all()  # the connections of that loop are gone with it
        lease.held_forget()


def _running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
