"""A closed WebSocket freed at once, not by Python's cycle collector (issue 14).

Under daphne each closed WebSocket left two reference cycles behind, and with them every
object of the connection (autobahn's protocol and its buffers, the Twisted transport,
the HTTP channel and request of the handshake, the application's queue: about 60
objects a connection). Refcounting cannot free a cycle, so they waited for a collection:
after 1,000 sockets closed by the hello timeout, the full collection of
:mod:`games.play.ws_memory` held the event loop for 170-290 ms, and young collections
while the sockets were open walked them too.

- **autobahn**: when the connection is lost, the protocol resolves its own ``is_closed``
  Deferred *with itself* (``txaio.resolve(self.is_closed, self)``): the protocol holds
  the Deferred, whose ``result`` is the protocol. Nothing in daphne (or this site) waits
  on ``is_closed``; once the connection is lost its result is set to ``None``.
- **daphne**: the handshake's ``WebRequest`` hands the socket over to the WebSocket
  protocol (``transport.protocol = protocol``) and is done, but stays in its
  ``HTTPChannel``'s ``requests`` while pointing back at the channel (``request.channel``).
  The channel's ``connectionLost``, which would have cleared it, is never called: the
  transport now reports to the WebSocket protocol. Once the hand-over is made, the
  request is taken out of ``channel.requests`` (it is never read again there: the
  channel handles no more HTTP on that socket).

A plain HTTP request (issue 14, pages: snapsite/http_cycles.py) left one more: Twisted
parses a POST's ``Content-Type`` with ``email.message.EmailMessage``, whose header
registry makes a new class for each header it parses (``type(...)``: a class and its
``__mro__`` are a cycle), to fill ``request.args``, which daphne never reads (it hands
the body to the application as it came). daphne's requests are made with
``parsePOSTFormSubmission=False``: no parse, no class.

(The third cycle, the handshake channel's ``makeConnection`` closure, was this site's
own: :mod:`snapsite.admission`.) :func:`install` is called by snapsite/asgi.py; under
another server it does nothing. tests/tables/test_ws_cycles.py checks that a closed
connection leaves no cycle.
"""

from __future__ import annotations

import inspect

__all__ = ["install"]


def install() -> None:
    try:
        from daphne.http_protocol import WebRequest
        from daphne.ws_protocol import WebSocketProtocol
        from twisted.web import http
    except ImportError:  # not served by daphne
        return
    if getattr(WebSocketProtocol, "snap_cycles_broken", False):
        return
    lost = WebSocketProtocol.connectionLost

    def connectionLost(self, reason):
        try:
            return lost(self, reason)
        finally:
            closed = getattr(self, "is_closed", None)
            if getattr(closed, "called", False) and closed.result is self:
                closed.result = None  # (was: the protocol itself, a cycle)

    process = WebRequest.process

    def process_then_let_go(self):
        result = process(self)
        # An upgrade is made in process() before its first yield; daphne then sets the
        # request's transport to None (the WebSocket protocol's from now on).
        channel = self.channel
        if self.transport is None and channel is not None:
            requests = getattr(channel, "requests", None)
            if requests and self in requests:
                requests.remove(self)
        return result

    made = WebRequest.__init__

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("parsePOSTFormSubmission", False)  # (when Twisted has it)
        made(self, *args, **kwargs)

    WebSocketProtocol.connectionLost = connectionLost
    WebRequest.process = process_then_let_go
    if "parsePOSTFormSubmission" in inspect.signature(http.Request.__init__).parameters:
        WebRequest.__init__ = __init__
    WebSocketProtocol.snap_cycles_broken = True
