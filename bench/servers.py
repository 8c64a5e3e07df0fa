"""The servers a benchmark measures, started on 127.0.0.1 and stopped afterwards.

- :func:`production_stack`: the production stack (``deploy.stack.Stack``: nginx, page
  workers, table processes) on a fresh PostgreSQL database, dropped afterwards, and a
  Redis database of its own, emptied before and after. Its static files are collected
  plain (``PLAIN_STATIC``): nginx serves them and no benchmark fetches them, and
  hashing and compressing them would cost every start minutes on a busy machine.
- :func:`uvicorn_alone`: one uvicorn process serving an ASGI application with the
  table processes' own command line (the bare broadcast baseline).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from deploy.processes import page_worker_command, table_process_command
from deploy.stack import Stack

from .databases import database
from .procs import Processes, free_port

ROOT = Path(__file__).resolve().parent.parent
SITE_APP = "snapsite.asgi:application"
#: Redis databases of the benchmarks (the tests use 5, 6 and 9, the local stack 3).
REDIS_DBS = (12, 13)
REDIS_URL = f"redis://127.0.0.1:6379/{REDIS_DBS[0]}"


def app_swapped(command: list[str], app: str) -> list[str]:
    """A deploy/processes.py command line serving ``app`` instead of the site."""
    if SITE_APP not in command:
        raise ValueError(f"no {SITE_APP} in {command}")
    return [app if part == SITE_APP else part for part in command]


def flush_redis(url: str) -> None:
    from redis import Redis

    with contextlib.closing(Redis.from_url(url)) as redis:
        redis.flushdb()


@contextmanager
def production_stack(
    *,
    table_processes: int = 2,
    page_workers: int = 2,
    page_command: Callable[[int], list[str]] = page_worker_command,
    per_address_limits: bool = True,
    settings: dict[str, str] | None = None,
    redis_db: int = REDIS_DBS[0],
) -> Iterator[Stack]:
    """The stack started on a fresh database, stopped and dropped after the block
    (``redis_db``: one of :data:`REDIS_DBS`, another for each stack running at once)."""
    if redis_db not in REDIS_DBS:
        raise ValueError(f"the benchmarks' Redis databases are {REDIS_DBS}")
    redis_url = f"redis://127.0.0.1:6379/{redis_db}"
    with (
        tempfile.TemporaryDirectory(prefix="snap-bench-stack-") as folder,
        database("postgres") as url,
    ):
        flush_redis(redis_url)
        stack = Stack(
            workdir=Path(folder), port=free_port(), pages=page_workers, tables=table_processes,
            database_url=url, redis_url=redis_url, page_command=page_command,
            per_address_limits=per_address_limits,
            settings={
                "CACHE_DIR": str(Path(folder) / "cache"), "PLAIN_STATIC": "1", **(settings or {})
            },
        )  # fmt: skip
        try:
            with stack:
                yield stack
        finally:
            flush_redis(redis_url)


def processes_named(stack: Stack, prefix: str) -> Processes:
    """The stack's processes whose name starts with ``prefix`` (``table``, ``page``,
    ``nginx``), with their children."""
    return Processes(lambda: [p.pid for n, p in stack.processes.items() if n.startswith(prefix)])


class Alone:
    """One server process: its address and its measures (:class:`Processes`)."""

    def __init__(self, process: subprocess.Popen, port: int) -> None:
        self.process, self.port = process, port
        self.url = f"http://127.0.0.1:{port}"
        self.measured = Processes(lambda: [process.pid])


@contextmanager
def uvicorn_alone(app: str, env: dict[str, str]) -> Iterator[Alone]:
    """``app`` served by one uvicorn process (a table process's command line) with the
    production settings on plain HTTP at 127.0.0.1, and ``env``."""
    port = free_port()
    full_env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-secret-key",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_COOKIES": "0",
        **env,
    }
    full_env.pop("DJANGO_SETTINGS_MODULE", None)
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            app_swapped(table_process_command(port), app),
            cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_listening(process, port, log)
            yield Alone(process, port)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_listening(process: subprocess.Popen, port: int, log, timeout: float = 60) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the server stopped: {log.read()[-2000:].decode()}")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        time.sleep(0.2)
    raise RuntimeError("the server did not start listening in time")
