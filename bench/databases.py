"""A fresh database for one benchmark run, dropped afterwards: a SQLite file, or a
PostgreSQL database on 127.0.0.1:5432 (as the tests use it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

__all__ = ["PG_ADMIN", "database", "worker_result"]

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


class database:
    """A fresh database of ``kind`` (``sqlite`` or ``postgres``) for the run: its URL;
    dropped afterwards. RuntimeError if PostgreSQL cannot be reached."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __enter__(self) -> str:
        if self.kind == "sqlite":
            self.folder = tempfile.TemporaryDirectory(prefix="snap-bench-db-")
            return f"sqlite:///{Path(self.folder.name) / 'bench.sqlite3'}"
        import psycopg

        self.name = f"snap_bench_{uuid.uuid4().hex[:8]}"
        try:
            with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
        except psycopg.OperationalError as error:
            raise RuntimeError(f"PostgreSQL on 127.0.0.1:5432: {error}") from error
        return f"postgres://postgres@127.0.0.1:5432/{self.name}"

    def __exit__(self, *exc) -> None:
        if self.kind == "sqlite":
            self.folder.cleanup()
            return
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def worker_result(url: str, root: Path, module: str, *args: str) -> dict:
    """Migrate the database at ``url`` (``manage.py`` in ``root``), run the benchmark's
    worker ``python -m module args`` against it, and return the JSON of its last line;
    a worker that fails ends the benchmark with its error."""
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=root, env=env, check=True,
    )  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=root, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"{module}: the worker failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
