"""Database connections of the served site (installed by snapsite/asgi.py).

The tables write every step from Channels' one database thread
(``database_sync_to_async``); with ``CONN_MAX_AGE=0`` each step opened and closed a
connection. The settings keep connections (``DB_CONN_MAX_AGE``, default: for ever,
with health checks), so that thread keeps its one connection. An HTTP request,
though, runs in a thread of its own under ASGI, which ends with the request: its
connection would be left for the garbage collector (or, on PostgreSQL, held open), so
it is closed when the request finishes, as ``CONN_MAX_AGE=0`` did.
"""

from django.core.signals import request_finished
from django.db import connections


def close_request_connections(**kwargs) -> None:
    """Close this thread's connections: run at the end of each HTTP request, in the
    request's own thread (Django sends ``request_finished`` there)."""
    for connection in connections.all(initialized_only=True):
        connection.close()


def install() -> None:
    request_finished.connect(close_request_connections, dispatch_uid="snap-close-request-db")
