"""An HTTP request freed at once, not by Python's cycle collector (issue 14, pages).

Under daphne every page request left about 140-600 objects in reference cycles (the
request, its session, messages, user, response, the request thread's database
connection, the rendered forms and template context, and through the handler's
frames daphne's request and Twisted's transport), freed only by a collection: at 100
pages a second a young collection came every few seconds and held the event loop for
30-80 ms, every live table with it. The cycles, and where each is broken:

- **Django's ASGIHandler.handle**: when the response is sent daphne reports the
  disconnect, so ``listen_for_disconnect`` raises ``RequestAborted``; ``handle`` reads
  it with ``task.result()``, which adds ``handle``'s frame to its traceback: the frame's
  ``tasks`` list -> the task -> its exception -> the traceback -> the frame. Here
  :meth:`Handler.listen_for_disconnect` returns instead of raising (``handle`` ignores
  that exception: the same outcome).
- **the request**: ``request._messages`` (the messages storages each hold
  ``.request``), ``request.user`` (AuthenticationMiddleware's ``SimpleLazyObject``, whose
  function is a lambda on the request) and ``request.auser`` (a ``partial`` on it).
  :class:`Request` drops them in ``close()``, which Django calls once the response is
  sent (the response's ``close()``; nothing reads the request after).
- **the database connection**: each request runs its synchronous code in a thread of
  its own (asgiref's ``ThreadSensitiveContext``), so each request that queries makes a
  ``DatabaseWrapper``, whose parts (``features``, ``ops``, ``client``, ``creation``,
  ``introspection``, ``validation``, the cached ``wrap_database_errors``) each point
  back at it: closing it (snapsite/db_connections.py) does not free it. In a request
  served by :class:`Handler` (:data:`request_thread_ends`) the closed connection is also
  taken out of ``django.db.connections`` and its attributes dropped.

The template context (snapsite/template_cycles.py) and the forms' bound fields
(games/live/game_choices.py, ``LobbyForm``) are broken where they are made. snapsite/asgi.py
serves HTTP with :class:`Handler`; tests/tables/test_http_cycles.py checks that pages
leave no cycle.
"""

from __future__ import annotations

import contextvars

import django
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, ASGIRequest

__all__ = ["Handler", "Request", "get_asgi_application", "request_thread_ends"]

#: True in a request served by :class:`Handler` (and in its threads: asgiref copies the
#: context): the request's thread, and its database connections, end with it.
request_thread_ends: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "snap_request_thread_ends", default=False
)

#: A request's attributes that point back at it (the messages storages' ``.request``,
#: AuthenticationMiddleware's lazy ``user`` and ``auser``).
CYCLIC_ATTRIBUTES = ("_messages", "user", "auser", "_cached_user")


class Request(ASGIRequest):
    def close(self) -> None:
        try:
            super().close()
        finally:
            for name in CYCLIC_ATTRIBUTES:
                self.__dict__.pop(name, None)


class Handler(ASGIHandler):
    """Django's ASGI handler (``get_asgi_application()``'s), with :class:`Request`."""

    request_class = Request

    async def handle(self, scope, receive, send) -> None:
        request_thread_ends.set(True)
        await super().handle(scope, receive, send)

    async def listen_for_disconnect(self, receive) -> None:
        try:
            await super().listen_for_disconnect(receive)
        except RequestAborted:
            # The client is gone (or the response sent): end the task without an
            # exception, which handle() would only have ignored after holding it.
            return


def get_asgi_application() -> Handler:
    """``django.core.asgi.get_asgi_application()``, serving with :class:`Handler`."""
    django.setup(set_prefix=False)
    return Handler()
