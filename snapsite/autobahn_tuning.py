"""autobahn (daphne's WebSocket layer) pretty-prints its settings and the socket's
details for a debug log line at every connection, whether or not debug lines are
logged: 8 % of the process's time while 1,000 sockets connected (issue 14, py-spy).
:func:`install` (called by snapsite/asgi.py) makes that formatting lazy: it is done
only if the line is written."""

from __future__ import annotations

import pprint

__all__ = ["LazyPformat", "install"]


class LazyPformat:
    """``pprint.pformat(value)``, made when the text is asked for."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __str__(self) -> str:
        return pprint.pformat(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def install() -> None:
    try:
        from autobahn.websocket import protocol
    except ImportError:  # not served by daphne
        return
    protocol.pformat = LazyPformat
