"""The commands of the production stack's processes, in one place: the systemd units
(deploy/systemd/) run the same commands, and the local stack (deploy.stack) starts them.

- A **page worker** serves pages, forms and PDFs: gunicorn with the WSGI application,
  one process of :data:`PAGE_THREADS` threads (``gthread``). Measured through nginx it
  spends a third to a quarter of uvicorn's processor time per page
  (docs/benchmarks.md, "Which server for the page workers").
- A **table process** serves the tables' WebSockets: uvicorn with the ASGI application,
  compressing frames when the browser offers it (uvicorn's default): an event's frame
  of about 680 bytes goes as about 50, which a child's phone on a data plan and a
  school's shared line feel; turning it off would save each connection about 50 kB of
  memory and the process a tenth of its processor time (docs/benchmarks.md, "The table
  processes' options").

Both trust the client address nginx sends (``X-Forwarded-For``) only from the proxy's
own address (gunicorn's page workers through ``FORWARDED_ALLOW_IPS``:
snapsite/forwarded.py; uvicorn's ``--forwarded-allow-ips``), so that the per-address
limits count people, not the proxy.
"""

from __future__ import annotations

import sys

PROXY_ADDRESS = "127.0.0.1"
#: A page worker's threads: requests it serves at once (a PDF takes seconds).
PAGE_THREADS = 4
#: The environment every process of the stack gets beside the site's settings.
PROCESS_ENV = {"FORWARDED_ALLOW_IPS": PROXY_ADDRESS}


def _uvicorn(port: int, ws: str) -> list[str]:
    return [
        sys.executable, "-m", "uvicorn", "snapsite.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--ws", ws,
        "--proxy-headers", "--forwarded-allow-ips", PROXY_ADDRESS,
        "--no-access-log", "--lifespan", "off", "--timeout-graceful-shutdown", "5",
    ]  # fmt: skip


def page_worker_command(port: int) -> list[str]:
    return [
        sys.executable, "-m", "gunicorn", "snapsite.wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread", "--workers", "1",
        "--threads", str(PAGE_THREADS), "--forwarded-allow-ips", PROXY_ADDRESS,
        "--graceful-timeout", "5", "--log-level", "warning",
    ]  # fmt: skip


def table_process_command(port: int) -> list[str]:
    return _uvicorn(port, "websockets-sansio")
