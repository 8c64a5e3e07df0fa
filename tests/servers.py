"""The site's own server started as a test's real component: the command `make run`
uses (snapsite.serve.server_command: uvicorn, pages and WebSockets in one process)."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

from snapsite.serve import server_command

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    """Return once something listens on ``port``; raise if ``process`` ends first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"nothing listens on port {port}")


def start_site_server(env: dict, port: int, log) -> subprocess.Popen:
    """The site served on 127.0.0.1:``port`` with ``env``, once it listens."""
    server = subprocess.Popen(
        server_command("127.0.0.1", port), env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
    )
    wait_for_port(port, server)
    return server
