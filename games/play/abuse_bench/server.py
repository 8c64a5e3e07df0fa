"""daphne serving the site on a temporary SQLite database, for the abuse benchmark."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


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
def served(extra_env: dict | None = None, probe: Path | None = None, log_path: Path | None = None):
    """Yield (port, pid) of daphne serving a fresh database, until the block ends; with
    ``probe``, daphne runs under :mod:`.probe`, which writes its reports there; its
    output (warnings and errors) goes to ``log_path`` if given."""
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
            "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
            "PYTHONMALLOC": "malloc",  # as README's "Running in production" starts it
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
        log = open(log_path or Path(tmp) / "daphne.log", "w")
        runner = ["-m", "daphne"]
        if probe is not None:
            runner = ["-m", "games.play.abuse_bench.probe", str(probe)]
        server = subprocess.Popen(
            [sys.executable, *runner, "-b", "127.0.0.1", "-p", str(port),
             "snapsite.asgi:application"],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            preexec_fn=functools.partial(_die_with_parent, os.getpid()),
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
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()


def pin_apart(server_pid: int) -> tuple[set[int], set[int]] | None:
    """The server on cores of its own, this process (and the abusers it starts) on the
    others: (server's cores, clients' cores), or None on a machine of one core.

    In life the players and an attacker are on machines of their own. On a benchmark
    machine of 2 cores, the abusers' work (a flooder writing frames as fast as its
    socket takes them, 1,000 handshakes) took the server's core in turns, and its
    delay was counted as the server's."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None
    half = len(cores) // 2
    server, clients = set(cores[:half]), set(cores[half:])
    for thread in os.listdir(f"/proc/{server_pid}/task"):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(thread), server)
    os.sched_setaffinity(0, clients)
    return server, clients


def _die_with_parent(parent: int) -> None:
    """In the server's process, before daphne starts: the kernel sends it SIGTERM if
    the benchmark dies without stopping it (SIGKILL; Linux's ``PR_SET_PDEATHSIG``)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the benchmark died before the call
        os.kill(os.getpid(), signal.SIGTERM)


_PR_SET_PDEATHSIG = 1
