"""daphne serving the site on a temporary SQLite database, for the abuse benchmark."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@contextlib.contextmanager
def served(extra_env: dict | None = None):
    """Yield (port, pid) of daphne serving a fresh database, until the block ends."""
    with tempfile.TemporaryDirectory(prefix="bench-abuse-") as tmp:
        env = {
            **os.environ,
            "DEBUG": "",  # as in production (no query log, no debug pages)
            "SECRET_KEY": "bench-abuse-only-" + os.urandom(8).hex(),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "SECURE_HSTS_SECONDS": "0",
            "PLAIN_STATIC": "1",
            "DATABASE_URL": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
            "REDIS_URL": "",
            "LOG_LEVEL": "ERROR",
            # the benchmark opens every table from 127.0.0.1
            "TABLES_OPEN_PER_SESSION": "1000",
            "TABLES_OPEN_PER_ADDRESS": "100000",
            **(extra_env or {}),
        }
        env.pop("DJANGO_SETTINGS_MODULE", None)
        subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput", "-v", "0"],
            env=env, cwd=ROOT, check=True,
        )  # fmt: skip
        port = free_port()
        log = open(Path(tmp) / "daphne.log", "w")
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "snapsite.asgi:application"],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("daphne did not start") from None
                    time.sleep(0.2)
            yield port, server.pid
        finally:
            server.terminate()
            server.wait(timeout=15)
            log.close()
