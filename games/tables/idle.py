"""A table nobody is connected to stops playing, and after a while is closed.

Every connection that has been welcomed (players, spectators, a class's teacher)
counts as someone at the table. When the last one goes, the table waits
``TABLE_IDLE_PAUSE_S``; if nobody has come back by then it pauses (no computer
player, stand-in or pace timer runs: abandoned practice tables cost nothing), and
``TABLE_IDLE_CLOSE_S`` later it is closed: marked ``idle_closed`` in storage (its
record and events stay, for the replay) and forgotten by this process; connecting to
it then answers 4404 like a table that is gone. Anyone connecting before that wakes
it up where it stopped.

A table loaded with nobody at it (after a restart, or never joined) goes by the
moment it closes stored with it (:mod:`games.tables.closing`): it pauses
``TABLE_IDLE_CLOSE_S`` before that moment and closes at it, not the idle times
after the load. While someone is at it, the owner keeps that stored moment ahead
(:meth:`IdleWatch.open_kept_due`, renewed by the registry for all its tables at once).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from channels.db import database_sync_to_async
from django.conf import settings

from . import store
from .closing import kept_ms, open_until_new, unattended_ms, wall_ms
from .lease import LeaseLost

__all__ = ["IdleWatch"]


class IdleWatch:
    """Mixed into :class:`~games.tables.owner.TableOwner` (which gives ``_lock``,
    ``_later``, ``_after_step``, ``_watch_absent``, ``state``, ``stored``)."""

    def _idle_init(self, on_closed: Callable[[object], None] | None) -> None:
        self._attending: set[str] = set()
        self.idle = False  # paused for want of anyone connected
        self._idle_timer: asyncio.TimerHandle | None = None
        self._on_closed = on_closed
        stored_until = self.stored.open_until_ms
        # when the table closes if nobody comes (a table loaded: the stored moment) ...
        self._closes_at_ms = stored_until if stored_until > 0 else open_until_new()
        # ... and the moment stored now (kept ahead while someone is here)
        self._kept_until_ms = stored_until

    async def attend(self, *, connection: str, here: bool) -> None:
        """The welcomed connection named ``connection`` is at the table, or has left."""
        async with self._lock:
            if here:
                self._attending.add(connection)
                self._idle_cancel()
                if self.idle:
                    self.idle = False
                    self._watch_absent()
                    self._after_step()
                return
            if connection in self._attending:
                self._attending.discard(connection)
                if not self._attending:  # the last one gone: the idle times from now
                    self._closes_at_ms = open_until_new()
            self._idle_watch()

    def _idle_watch(self) -> None:
        """With nobody here, pause the table ``TABLE_IDLE_CLOSE_S`` before it closes
        (``TABLE_IDLE_PAUSE_S`` after the last one left)."""
        if self._attending or self._idle_timer is not None or self.state.over:
            return
        pause_at = self._closes_at_ms - settings.TABLE_IDLE_CLOSE_S * 1000
        self._idle_timer = self._later(pause_at - wall_ms(), self._idle_pause)

    def open_kept_due(self, now_ms: int) -> bool:
        """Someone is here and the stored moment the table closes must be moved on
        (:func:`games.tables.closing.open_until_kept`)."""
        if not self._attending or self.state.over or self._stopped or self.stored.next_code:
            return False
        return self._kept_until_ms - now_ms < unattended_ms() + kept_ms() // 2

    def open_kept(self, until_ms: int) -> None:
        """The stored moment is ``until_ms`` now."""
        self._kept_until_ms = until_ms

    def _idle_cancel(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    async def _idle_pause(self) -> None:
        async with self._lock:
            self._idle_timer = None
            if self._attending or self.state.over:
                return
            self.idle = True
            self._after_step()  # a halted table: every timer is cancelled
            closes_at = self._closes_at_ms
            try:  # every process sees when it closes (limits, the lobby), whatever happens
                await database_sync_to_async(store.open_until_store)(self.stored.id, closes_at)
            except LeaseLost:
                return  # another process owns the table now: this owner is dropped
            self._kept_until_ms = closes_at
            self._idle_timer = self._later(closes_at - wall_ms(), self._idle_close)

    async def _idle_close(self) -> None:
        async with self._lock:
            self._idle_timer = None
            if self._attending or not self.idle:
                return
            await database_sync_to_async(store.idle_close)(self.stored.id)
            self.stored.idle_closed = True
            self.stop()
            if self._on_closed is not None:
                self._on_closed(self)
