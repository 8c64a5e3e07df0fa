"""A table nobody is connected to stops playing, and after a while is closed.

Every connection that has been welcomed (players, spectators, a class's teacher)
counts as someone at the table. When the last one goes, the table waits
``TABLE_IDLE_PAUSE_S``; if nobody has come back by then it pauses (no computer
player, stand-in or pace timer runs: abandoned practice tables cost nothing), and
``TABLE_IDLE_CLOSE_S`` later it is closed: marked ``idle_closed`` in storage (its
record and events stay, for the replay) and forgotten by this process; connecting to
it then answers 4404 like a table that is gone. Anyone connecting before that wakes
it up where it stopped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from channels.db import database_sync_to_async
from django.conf import settings

from . import store

__all__ = ["IdleWatch"]


class IdleWatch:
    """Mixed into :class:`~games.tables.owner.TableOwner` (which gives ``_lock``,
    ``_later``, ``_after_step``, ``_watch_absent``, ``state``, ``stored``)."""

    def _idle_init(self, on_closed: Callable[[object], None] | None) -> None:
        self._attending: set[str] = set()
        self.idle = False  # paused for want of anyone connected
        self._idle_timer: asyncio.TimerHandle | None = None
        self._on_closed = on_closed

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
            self._attending.discard(connection)
            self._idle_watch()

    def _idle_watch(self) -> None:
        """With nobody here, pause the table after ``TABLE_IDLE_PAUSE_S``."""
        if self._attending or self._idle_timer is not None or self.state.over:
            return
        self._idle_timer = self._later(settings.TABLE_IDLE_PAUSE_S * 1000, self._idle_pause)

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
            self._idle_timer = self._later(settings.TABLE_IDLE_CLOSE_S * 1000, self._idle_close)

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
