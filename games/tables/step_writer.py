"""Group commit of the tables' steps: each process writes every table's steps that
arrive while a write is under way together, in the next transaction.

Every step is stored before it is broadcast (games.tables.owner), on Channels' one
database thread. With a transaction per step, that thread was busy 64 % of the time
with 250 tables (py-spy), and a move waited in its queue behind the other tables'.
Here a step that finds the thread idle is written at once, as before; the steps that
come while it writes wait for that write to end and then go together in one
transaction (``store.steps_append``: one insert of the actions, one of the events, one
commit). Each caller still waits for its own step's commit, and a table's refused
fence (or any error of its step) is told to that table's owner only.
"""

from __future__ import annotations

import asyncio
import weakref

from channels.db import database_sync_to_async

from . import store

__all__ = ["StepWriter", "writer"]

#: At most this many steps go in one transaction (a longer queue waits for the next).
BATCH_MAX = 200


class StepWriter:
    """This event loop's queue of steps to store (see the module's docstring)."""

    def __init__(self) -> None:
        self._pending: list[tuple[store.Step, asyncio.Future]] = []
        self._writing: asyncio.Task | None = None
        self.batches = 0  # transactions written (for tests and benchmarks)
        self.steps = 0

    async def append(self, table_id: int, index: int, action: dict, events: list[dict]) -> None:
        """Store one step; returns once it is committed, raises what stopped it."""
        done = asyncio.get_running_loop().create_future()
        done.add_done_callback(_retrieved)  # told to a caller gone meanwhile: not logged
        self._pending.append(((table_id, index, action, events), done))
        if self._writing is None:
            self._writing = asyncio.ensure_future(self._write_all())
        await asyncio.shield(done)  # a cancelled caller's step is still written

    async def _write_all(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending[:BATCH_MAX], self._pending[BATCH_MAX:]
                try:
                    errors = await database_sync_to_async(store.steps_append)([s for s, _ in batch])
                except Exception as error:  # noqa: BLE001 (the database failed: each is told)
                    errors = [error] * len(batch)
                self.batches += 1
                self.steps += len(batch)
                for (_step, done), error in zip(batch, errors, strict=True):
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        finally:
            self._writing = None
            for _step, done in self._pending:  # only if this task itself was cancelled
                if not done.done():
                    done.set_exception(RuntimeError("the step writer stopped"))
            self._pending = []


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
        found = _writers[loop] = StepWriter()
    return found
