"""Which tables this process owns: one :class:`TableOwner` per table, made on demand
from storage.

Scale (a later step) replaces this module's ``owner_for`` with a lease (Redis or
PostgreSQL) and, when another process holds the lease, forwards the call over the
channel layer; nothing outside :mod:`games.tables` sees owners directly.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from . import store
from .owner import TableOwner

__all__ = ["group_name", "owner_for", "registry_drop"]

_owners: dict[str, TableOwner] = {}
#: How long the owner of a finished game stays in memory (it is read from storage again
#: if someone asks later).
FINISHED_KEEP_S = 300.0
_state: dict[str, object] = {"loop": None, "lock": None}


def group_name(code: str) -> str:
    """The channel-layer group of table ``code``'s connections."""
    return f"table.{code}"


def _lock() -> asyncio.Lock:
    """The loading lock of the running loop (owners of another loop are dropped:
    they cannot run here)."""
    loop = asyncio.get_running_loop()
    if _state["loop"] is not loop:
        registry_drop()
        _state["loop"] = loop
        _state["lock"] = asyncio.Lock()
    return _state["lock"]  # type: ignore[return-value]


async def owner_for(code: str) -> TableOwner | None:
    """The owner of table ``code``, rebuilt from storage if this process has none yet;
    None when there is no such table."""
    lock = _lock()
    owner = _owners.get(code)
    if owner is not None:
        return owner
    async with lock:
        owner = _owners.get(code)
        if owner is not None:
            return owner
        stored = await database_sync_to_async(store.table_load)(code)
        if stored is None or stored.idle_closed:
            return None
        layer = get_channel_layer()
        group = group_name(code)

        async def broadcast(message: dict) -> None:
            await layer.group_send(group, message)

        owner = TableOwner(stored, broadcast, on_over=_forget_later, on_closed=_forget)
        _owners[code] = owner
        owner.start()
        return owner


def _forget(owner: TableOwner) -> None:
    """Forget a table closed for want of anyone connected (games.tables.idle)."""
    if _owners.get(owner.code) is owner:
        del _owners[owner.code]


def _forget_later(owner: TableOwner) -> None:
    def forget() -> None:
        if _owners.get(owner.code) is owner:
            owner.stop()
            del _owners[owner.code]

    asyncio.get_running_loop().call_later(FINISHED_KEEP_S, forget)


def registry_drop() -> None:
    """Stop and forget every owner of this process (as a restart would)."""
    for owner in _owners.values():
        owner.stop()
    _owners.clear()
