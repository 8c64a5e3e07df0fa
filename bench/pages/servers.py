"""The page workers' servers to choose between, each the command line of one page
worker on a port (the stack starts two, nginx balances them):

- ``uvicorn``: deploy/processes.py's page worker (ASGI, one process, Django's views on
  its thread).
- ``gunicorn``: a gunicorn master with one WSGI worker of :data:`THREADS` threads
  (``gthread``), the usual way to serve a synchronous Django site.
"""

from __future__ import annotations

import sys

from bench.servers import app_swapped
from deploy.processes import PROXY_ADDRESS, page_worker_command

THREADS = 4


def uvicorn_command(port: int) -> list[str]:
    return app_swapped(page_worker_command(port), "bench.pages.asgi:application")


def gunicorn_command(port: int) -> list[str]:
    return [
        sys.executable, "-m", "gunicorn", "bench.pages.wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread", "--workers", "1",
        "--threads", str(THREADS), "--forwarded-allow-ips", PROXY_ADDRESS,
        "--graceful-timeout", "5", "--log-level", "warning",
    ]  # fmt: skip


PAGE_SERVERS = {"uvicorn": uvicorn_command, "gunicorn": gunicorn_command}
