"""Start the site (or the bare broadcast) on a free 127.0.0.1 port, with a file
SQLite database migrated for it (or several processes on PostgreSQL and Redis), and
stop it again; read its memory."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from .databases import database

ROOT = Path(__file__).resolve().parents[3]
SITE_APP = "snapsite.asgi:application"
BARE_APP = "games.play.bench.bare_asgi:application"
SERVERS = ("daphne", "uvicorn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(
    db: Path, extra: dict[str, str] | None = None, settings: str = "snapsite.settings"
) -> dict[str, str]:
    """Production settings on plain HTTP at 127.0.0.1 (as `make run` serves them)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-secret-key",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{db}",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_COOKIES": "0",
        "PLAIN_STATIC": "1",
        "PYTHONWARNINGS": "ignore:No directory at",
        # every simulated browser comes from 127.0.0.1: one address opens all the tables
        "TABLES_OPEN_PER_ADDRESS": "100000",
    }
    env.pop("REDIS_URL", None)  # one process: the in-memory layer unless asked
    env.update(extra or {})
    return env


def server_command(server: str, app: str, port: int) -> list[str]:
    if server == "uvicorn":
        return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port),
                "--log-level", "warning", "--lifespan", "off", app]  # fmt: skip
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app]


def rss_kb(pid: int) -> int | None:
    """The resident memory of process ``pid`` in kB (Linux), None if unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux), None if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Served:
    """A running server: its address and process."""

    def __init__(self, process: subprocess.Popen, port: int, log: Path, prepared: list) -> None:
        self.process, self.port, self.log = process, port, log
        self.prepared = prepared  # what each preparing command printed
        self.url = f"http://127.0.0.1:{port}"

    def rss_kb(self) -> int | None:
        return rss_kb(self.process.pid)

    def cpu_seconds(self) -> float | None:
        return cpu_seconds(self.process.pid)


class ServedTogether:
    """Several server processes sharing one PostgreSQL database and one Redis: the
    first one's address as ``url``, each one's in ``urls``; memory and CPU added up."""

    def __init__(self, each: list[Served]) -> None:
        self.each = each
        self.url = each[0].url
        self.urls = [s.url for s in each]

    def rss_kb(self) -> int | None:
        kbs = [s.rss_kb() for s in self.each]
        return None if None in kbs else sum(kbs)

    def cpu_seconds(self) -> float | None:
        seconds = [s.cpu_seconds() for s in self.each]
        return None if None in seconds else sum(seconds)


#: ``--processes`` above 1: the Redis they share (a database number of its own).
REDIS_BENCH_URL = "redis://127.0.0.1:6379/12"


@contextmanager
def served(
    server: str = "daphne",
    *,
    bare: bool = False,
    extra_env: dict | None = None,
    settings: str = "snapsite.settings",
    prepare: tuple[tuple[str, ...], ...] = (),
    processes: int = 1,
    keep_logs: Path | None = None,
):
    """Migrate a fresh database, run the ``prepare`` manage.py commands on it, start
    ``server`` on a free port, yield a :class:`Served`, and stop it (SIGTERM, then
    SIGKILL after 10 s). With ``processes`` above 1: that many servers on as many
    ports, on a fresh PostgreSQL database (dropped afterwards) and Redis, as
    production runs several (yields a :class:`ServedTogether`). ``keep_logs``: a folder
    to copy each server's output to when it has stopped (``server0.log``, ...)."""
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="snap-bench-")))
        extra = dict(extra_env or {})
        if processes > 1:
            extra.setdefault("DATABASE_URL", stack.enter_context(database("postgres")))
            extra.setdefault("REDIS_URL", REDIS_BENCH_URL)
        env = server_env(folder / "bench.sqlite3", extra, settings)
        prepared = [
            subprocess.run(
                [sys.executable, "manage.py", *command],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout  # fmt: skip
            for command in (("migrate", "--noinput", "-v", "0"), *prepare)
        ]
        started: list[Served] = []
        try:
            for number in range(processes):
                port = free_port()
                log = folder / f"server{number}.log"
                out = stack.enter_context(open(log, "wb"))
                process = subprocess.Popen(
                    server_command(server, BARE_APP if bare else SITE_APP, port),
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                )  # fmt: skip
                started.append(Served(process, port, log, prepared))
            for one in started:
                wait_listening(one.process, one.port, one.log)
            yield started[0] if processes == 1 else ServedTogether(started)
        finally:
            for one in started:
                one.process.terminate()
            for one in started:
                try:
                    one.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    one.process.kill()
                    one.process.wait()
            if keep_logs is not None:  # the run's folder goes, with the logs in it
                keep_logs.mkdir(parents=True, exist_ok=True)
                for one in started:
                    shutil.copy(one.log, keep_logs / one.log.name)


def wait_listening(process: subprocess.Popen, port: int, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: {log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not start listening in time")
