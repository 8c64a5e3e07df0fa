"""Group commit of the tables' steps: each process writes every table's steps that
arrive while a write is under way together, in the next transaction.

Every step is stored before it is broadcast (games.tables.owner), on Channels' one
database thread. With a transaction per step, that thread is busy most of the time
with many tables, and a move waits in its queue behind the other tables'.
Here a step that finds the thread idle is written at once, as before; the steps that
come while it writes wait for that write to end and then go together in one
transaction (``store.steps_append``: one insert of the actions, one of the events, one
commit). Each caller still waits for its own step's commit, and a table's refused
fence (or any error of its step) is told to that table's owner only.

On an SQLite file the steps are written on the event loop itself instead
(games.tables.step_db explains why): every step that arrives during one pass of the
loop goes in one transaction, written by a callback at the start of the next pass.
"""

from __future__ import annotations

import asyncio
import weakref

from channels.db import database_sync_to_async

from . import store
from .step_db import LoopSqlite, loop_sqlite_for_default_database

__all__ = ["StepWriter", "writer"]

#: At most this many steps go in one transaction (a longer queue waits for the next).
BATCH_MAX = 200


class StepWriter:
    """This event loop's queue of steps to store (see the module's docstring)."""

    def __init__(self, on_loop: LoopSqlite | None = None) -> None:
        self._pending: list[tuple[store.Step, asyncio.Future]] = []
        self._writing: asyncio.Task | None = None
        self.on_loop = on_loop  # None: the database thread writes
        self._write_due = False
        self.batches = 0  # transactions written (for tests and benchmarks)
        self.steps = 0

    async def append(self, table_id: int, index: int, action: dict, events: list[dict]) -> None:
        """Store one step; returns once it is committed, raises what stopped it."""
        done = asyncio.get_running_loop().create_future()
        done.add_done_callback(_retrieved)  # told to a caller gone meanwhile: not logged
        self._pending.append(((table_id, index, action, events), done))
        if self.on_loop is not None:
            if not self._write_due:
                self._write_due = True
                asyncio.get_running_loop().call_soon(self._write_here)
        elif self._writing is None:
            self._writing = asyncio.ensure_future(self._write_all())
        await done  # a cancelled caller's step is still written (it is in the queue)

    def _write_here(self) -> None:
        """On the loop (an SQLite file): every step queued since the last pass."""
        self._write_due = False
        while self._pending:
            batch, self._pending = self._pending[:BATCH_MAX], self._pending[BATCH_MAX:]
            try:
                errors = store.steps_append([s for s, _ in batch], self.on_loop)
            except Exception as error:  # noqa: BLE001 (the database failed: each is told)
                errors = [error] * len(batch)
            self._written(batch, errors)

    async def _write_all(self) -> None:
        """On the database thread: the queue, a transaction at a time."""
        try:
            while self._pending:
                batch, self._pending = self._pending[:BATCH_MAX], self._pending[BATCH_MAX:]
                try:
                    errors = await database_sync_to_async(store.steps_append)([s for s, _ in batch])
                except Exception as error:  # noqa: BLE001 (the database failed: each is told)
                    errors = [error] * len(batch)
                self._written(batch, errors)
        finally:
            self._writing = None
            for _step, done in self._pending:  # only if this task itself was cancelled
                if not done.done():
                    done.set_exception(RuntimeError("the step writer stopped"))
            self._pending = []

    def _written(self, batch, errors: list) -> None:
        self.batches += 1
        self.steps += len(batch)
        for (_step, done), error in zip(batch, errors, strict=True):
            if done.done():  # its caller was cancelled (the step is stored all the same)
                continue
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)


def _retrieved(done: asyncio.Future) -> None:
    if not done.cancelled():
        done.exception()


_writers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, StepWriter] = (
    weakref.WeakKeyDictionary()
)


def writer() -> StepWriter:
    """The running event loop's step writer."""
    loop = asyncio.get_running_loop()
    found = _writers.get(loop)
    if found is None:
        found = _writers[loop] = StepWriter(loop_sqlite_for_default_database())
    return found
