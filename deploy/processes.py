"""The commands of the production stack's processes, in one place: the systemd units
(deploy/systemd/) run the same commands, and the local stack (deploy.stack) starts them.

- A **page worker** serves pages, forms and PDFs: uvicorn with the ASGI application and
  no WebSockets (``--ws none``).
- A **table process** serves the tables' WebSockets: uvicorn with the ASGI application.

Both trust the client address nginx sends (``X-Forwarded-For``) only from the proxy's
own address (``--forwarded-allow-ips``), so that the per-address limits count people,
not the proxy.
"""

from __future__ import annotations

import sys

PROXY_ADDRESS = "127.0.0.1"


def _uvicorn(port: int, ws: str) -> list[str]:
    return [
        sys.executable, "-m", "uvicorn", "snapsite.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--ws", ws,
        "--proxy-headers", "--forwarded-allow-ips", PROXY_ADDRESS,
        "--no-access-log", "--lifespan", "off", "--timeout-graceful-shutdown", "5",
    ]  # fmt: skip


def page_worker_command(port: int) -> list[str]:
    return _uvicorn(port, "none")


def table_process_command(port: int) -> list[str]:
    return _uvicorn(port, "websockets-sansio")
