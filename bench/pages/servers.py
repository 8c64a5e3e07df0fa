"""The page workers' servers to choose between, each the command line of one page
worker on a port (the stack starts two, nginx balances them):

- ``uvicorn``: deploy/processes.py's page worker (ASGI, one process, Django's views on
  its thread).
- ``gunicorn``: a gunicorn master with one WSGI worker of ``PAGE_THREADS`` threads
  (``gthread``), the usual way to serve a synchronous Django site.
"""

from __future__ import annotations

from bench.servers import app_swapped
from deploy.processes import page_worker_command, table_process_command


def uvicorn_command(port: int) -> list[str]:
    """uvicorn serving the bench's ASGI pages as a table process would, WebSockets off."""
    command = app_swapped(table_process_command(port), "bench.pages.asgi:application")
    return ["none" if part == "websockets-sansio" else part for part in command]


def gunicorn_command(port: int) -> list[str]:
    """The page workers' own command (deploy/processes.py) serving the bench's pages."""
    wsgi = "snapsite.wsgi:application"
    return ["bench.pages.wsgi:application" if p == wsgi else p for p in page_worker_command(port)]


PAGE_SERVERS = {"uvicorn": uvicorn_command, "gunicorn": gunicorn_command}
