"""Where the tables' steps are written: Django's connection on Channels' database
thread, or, for a site on an SQLite file, a connection of the event loop's own.

With every step written on the database thread (games.tables.step_writer), a move
waited for two hops between threads and for the GIL, which the busy event loop held
for up to the interpreter's switch interval each time the database thread came back
from SQLite: many times the write's own work. An SQLite commit in WAL
mode with ``synchronous=NORMAL`` is a write to the WAL file without an fsync, a
fraction of a millisecond, so :class:`LoopSqlite` writes it on the event loop itself,
with no hop and no wait for the GIL.

It never checkpoints the WAL (``wal_autocheckpoint=0``): the checkpoint's fsync stays
with Django's connection, which commits the leases' renewal every second on the
database thread. PostgreSQL (a network round trip a statement) and an in-memory SQLite
database (which no second connection can open) keep the database thread.

Both give :func:`games.tables.store.steps_append` and
:func:`games.tables.lease.fences_check` the same few operations, SQL written with
``%s`` placeholders as Django's cursors take it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence

from django.db import DatabaseError, IntegrityError, OperationalError, connections, transaction

__all__ = [
    "DjangoDb",
    "LoopSqlite",
    "loop_sqlite_for_default_database",
    "transaction_without_waiting_for_disk",
]

#: How long a write on the loop waits for SQLite's write lock (another process, or the
#: database thread's write, holds it) before its steps are told "database is locked".
BUSY_TIMEOUT_MS = 5000


class DjangoDb:
    """Django's connection to the default database, in the calling thread."""

    def __init__(self, alias: str = "default") -> None:
        self.connection = connections[alias]

    def atomic(self):
        return transaction.atomic(using=self.connection.alias)

    def steps_transaction(self):
        """The transaction that stores steps. On PostgreSQL its commit does not wait for
        the disk (``synchronous_commit`` off for this transaction only, PostgreSQL's
        asynchronous commit): every move's reveal waits for its step's commit, and on a
        shared disk a flush can take tens of milliseconds, a stall for every table of
        the process (docs/benchmarks.md). The commit is seen by every other connection
        at once, as before, so leases, fences and a takeover after a table process dies
        are unchanged; only a crash of PostgreSQL itself (or of its machine) can lose
        the steps of the last moments (at most three ``wal_writer_delay``s, 0.6 s by
        default), never the database's integrity: what SQLite's ``synchronous=NORMAL``
        gives ``make run``.
        Other writes (pages, taking a lease) keep PostgreSQL's setting."""
        return transaction_without_waiting_for_disk(self.connection.alias)

    def quote(self, name: str) -> str:
        return self.connection.ops.quote_name(name)

    def json(self, value) -> str:
        return self.connection.ops.adapt_json_value(value, None)

    def fetchall(self, sql: str, params: Sequence) -> list[tuple]:
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()

    def executemany(self, sql: str, rows: list[Sequence]) -> None:
        with self.connection.cursor() as cursor:
            cursor.executemany(sql, rows)


@contextlib.contextmanager
def transaction_without_waiting_for_disk(alias: str) -> Iterator[None]:
    """A transaction (``atomic``) on Django's database ``alias`` whose commit, on
    PostgreSQL, does not wait for the disk (``SET LOCAL synchronous_commit TO OFF``:
    this transaction only; see :meth:`DjangoDb.steps_transaction`); a plain one on
    other databases. It opens the transaction itself: the setting outside one would
    be lost at once."""
    with transaction.atomic(using=alias):
        connection = connections[alias]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


class LoopSqlite:
    """An SQLite connection of the event loop's thread (opened on first use, so in that
    thread), with Django's errors: a broken constraint raises ``IntegrityError``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._db: sqlite3.Connection | None = None
        self._depth = 0  # transactions open: 1 the outer one, more its savepoints

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(self.name, isolation_level=None, uri=self.name.startswith("file:"))
            db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.execute("PRAGMA foreign_keys=ON")
            self._db = db
        return self._db

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """A transaction (``BEGIN IMMEDIATE``: the write lock at once), or a savepoint
        inside one; rolled back if its block raises."""
        outer = self._depth == 0
        point = f"s{self._depth}"
        self._run("BEGIN IMMEDIATE" if outer else f"SAVEPOINT {point}")
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            with contextlib.suppress(sqlite3.Error):  # the error raised is the block's
                if outer:
                    self._connection().execute("ROLLBACK")
                else:
                    self._connection().execute(f"ROLLBACK TO {point}")
                    self._connection().execute(f"RELEASE {point}")
            raise
        self._depth -= 1
        self._run("COMMIT" if outer else f"RELEASE {point}")

    def steps_transaction(self):
        """The transaction that stores steps: :meth:`atomic` (``synchronous=NORMAL``
        already commits without an fsync)."""
        return self.atomic()

    def quote(self, name: str) -> str:
        return '"' + name.replace('"', '""') + '"'  # as Django's SQLite backend quotes

    def json(self, value) -> str:
        return json.dumps(value)  # what Django's adapt_json_value(value, None) stores

    def fetchall(self, sql: str, params: Sequence) -> list[tuple]:
        with _django_errors():
            return self._connection().execute(sql.replace("%s", "?"), params).fetchall()

    def executemany(self, sql: str, rows: list[Sequence]) -> None:
        with _django_errors():
            self._connection().executemany(sql.replace("%s", "?"), rows)

    def _run(self, sql: str) -> None:
        with _django_errors():
            self._connection().execute(sql)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


@contextlib.contextmanager
def _django_errors() -> Iterator[None]:
    """sqlite3's errors as Django's (what the step writer's callers already handle)."""
    try:
        yield
    except sqlite3.IntegrityError as error:
        raise IntegrityError(*error.args) from error
    except sqlite3.OperationalError as error:
        raise OperationalError(*error.args) from error
    except sqlite3.DatabaseError as error:
        raise DatabaseError(*error.args) from error


def loop_sqlite_for_default_database() -> LoopSqlite | None:
    """A :class:`LoopSqlite` for the default database if it is an SQLite file (and
    ``STEPS_IN_THREAD`` is not set), else None: the database thread writes the steps."""
    if os.environ.get("STEPS_IN_THREAD", "") not in ("", "0"):
        return None
    connection = connections["default"]
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict["NAME"])
    if connection.creation.is_in_memory_db(name):
        return None
    return LoopSqlite(name)
