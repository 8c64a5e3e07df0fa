"""The database as the served site uses it (README, "Settings"): a file SQLite in WAL
mode with synchronous=NORMAL, connections kept (Channels' database thread reuses its
one), and an HTTP request's own connection closed when the request finishes."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings

PROBE = (
    "from django.conf import settings; from django.db import connection;"
    "c = connection.cursor();"
    "print(c.execute('PRAGMA journal_mode').fetchone()[0], c.execute('PRAGMA synchronous')"
    ".fetchone()[0], settings.DATABASES['default']['CONN_MAX_AGE'])"
)


def probe(tmp_path, **extra: str) -> list[str]:
    env = {
        "PATH": os.environ["PATH"], "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", **extra,
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PROBE],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-3:]


def test_a_file_sqlite_database_is_in_wal_mode_with_normal_sync_and_kept_connections(tmp_path):
    assert probe(tmp_path) == ["wal", "1", "None"]  # synchronous 1 = NORMAL


def test_db_conn_max_age_sets_how_long_a_connection_is_kept(tmp_path):
    assert probe(tmp_path, DB_CONN_MAX_AGE="0")[-1] == "0"


CLOSE_PROBE = """
import threading
from django.db import connection
from snapsite.db_connections import close_request_connections
seen = []
def request_thread():  # as an HTTP request's own thread under ASGI
    connection.cursor().execute("SELECT 1")
    seen.append(connection.connection is not None)
    close_request_connections()
    seen.append(connection.connection is not None)
thread = threading.Thread(target=request_thread)
thread.start()
thread.join()
print(seen)
"""


def test_a_requests_connection_is_closed_when_the_request_finishes(tmp_path):
    env = {"PATH": os.environ["PATH"], "DEBUG": "1",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", CLOSE_PROBE],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.stdout.split("\n")[-2] == "[True, False]", done.stderr
