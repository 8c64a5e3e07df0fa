"""Database connections of the served site (installed by snapsite/asgi.py).

The tables write every step from Channels' one database thread
(``database_sync_to_async``); with ``CONN_MAX_AGE=0`` each step opened and closed a
connection. The settings keep connections (``DB_CONN_MAX_AGE``, default: for ever,
with health checks), so that thread keeps its one connection. An HTTP request,
though, runs in a thread of its own under ASGI, which ends with the request: its
connection would be left for the garbage collector (or, on PostgreSQL, held open), so
it is closed when the request finishes, as ``CONN_MAX_AGE=0`` did.

Closed, the connection's ``DatabaseWrapper`` is still a reference cycle (its parts,
``features``, ``ops``, ``client``, ``creation``, ``introspection``, ``validation`` and
the cached ``wrap_database_errors``, each point back at it), left, with the thread, to
the cycle collector. In a request served by snapsite/http_cycles.py's handler, whose
thread ends with the request, the closed wrapper is also taken out of
``django.db.connections`` (the thread would make a new one if it queried again) and its
attributes dropped, which frees it at once.
"""

from django.core.signals import request_finished
from django.db import connections

from snapsite.http_cycles import request_thread_ends


def close_request_connections(**kwargs) -> None:
    """Close this thread's connections: run at the end of each HTTP request, in the
    request's own thread (Django sends ``request_finished`` there)."""
    for connection in connections.all(initialized_only=True):
        connection.close()
        if request_thread_ends.get() and connection.connection is None:
            del connections[connection.alias]
            vars(connection).clear()  # (its parts' ``.connection``: a cycle)


def install() -> None:
    request_finished.connect(close_request_connections, dispatch_uid="snap-close-request-db")
