"""A table's messages reach this process's connections directly, and other processes'
through one relay each.

The owner of a table tells each of its events (and seat, control, class and owner
messages) once: :func:`tell`. Every connection of this process that watches the table
has said so (:func:`listen`) and gets the message at once, in the owner's own call, one
connection after another: the four players of a table are sent a card within the same
pass of the event loop, not each after its own wake-ups through the channel layer
(with a channel of its own in the table's group, each connection saw a card at another
moment). The message is shared, not copied: a connection reads
it and never changes it.

Other processes are reached over the channel layer (channels_redis): each process that
has connections at a table has its one channel (``forwarding.Endpoint``) in the table's
group, joined when its first connection listens and left with its last. The owner
sends the group one ``table.relay`` message per event, whatever the number of
connections; a process that receives one from another process tells its own connections
(:func:`relayed`); its own messages, already told here, it leaves. With the one-process
in-memory layer nothing is sent over the layer at all.

The owner relays only while it knows of a connection of another process at the table
(:class:`ListenersElsewhere`): the table's players usually share a process (the proxy
routes by table code), and a relay nobody else listens to cost the owner two trips to
Redis per event (the send, and its own copy back). A connection says it listens in its
welcome call, which the owner answers with the table as it is then: every event after
that is relayed to its process. A new owner cannot know who listened to the previous one,
so it relays everything for :data:`RELAY_ALL_AFTER_LOAD_S` while those connections say
again that they are there (``table.owner``; a process that missed that relay is told by
its own next read of the table's lease: ``registry``). A table's first owner ever needs
no such while: nobody can have been welcomed to the table before it.

A relayed message can be lost or come late (publish/subscribe keeps nothing for a process
not subscribed at that moment, e.g. while its connection to Redis is made again, and a
process's channel drops messages over its capacity): the events' numbers show the gap
and the connection fills it from storage (``TableConsumer.table_event``).
"""

from __future__ import annotations

import itertools
import logging
import secrets
import time
from collections.abc import Callable
from typing import Protocol

from channels.layers import InMemoryChannelLayer, get_channel_layer

__all__ = [
    "Listener",
    "ListenersElsewhere",
    "connection_name",
    "listen",
    "relayed",
    "tell",
    "tell_here",
    "unlisten",
]

log = logging.getLogger(__name__)

RELAY = "table.relay"

_listeners: dict[str, dict[Listener, None]] = {}  # code -> connections, in arrival order
_names = itertools.count(1)
_PROCESS_TAG = secrets.token_hex(6)
#: How long a table's new owner relays every message whoever listens: connections of
#: other processes at the table say again that they are there when told of the new owner
#: (a trip of a few milliseconds; seconds when their process is very busy).
RELAY_ALL_AFTER_LOAD_S = 15.0


class Listener(Protocol):
    async def table_message(self, message: dict) -> None:
        """Take one of the table's messages (it must not raise, nor wait for the table)."""


def connection_name() -> str:
    """A name for one connection, unique among all processes (presence and attendance
    are counted per connection by the table's owner, wherever it is)."""
    return f"conn.{_PROCESS_TAG}.{next(_names)}"


def of_this_process(connection: str) -> bool:
    """``connection`` was named by :func:`connection_name` in this process."""
    return connection.startswith(f"conn.{_PROCESS_TAG}.")


class ListenersElsewhere:
    """The connections of other processes listening at one table, as the table's owner
    has been told of them: while there is one (or the owner is new), its messages must
    be relayed over the layer."""

    def __init__(self, *, first_owner: bool) -> None:
        """``first_owner``: nobody owned the table before (else others may listen
        already, unknown to this owner for a while)."""
        self._connections: set[str] = set()
        self._relay_all_until = 0.0 if first_owner else time.monotonic() + RELAY_ALL_AFTER_LOAD_S

    def listening(self, connection: str | None, here: bool = True) -> None:
        """``connection`` listens at the table (``here``) or has left it. A connection of
        unknown name counts as elsewhere: a relay too many is harmless, one too few is
        not."""
        if connection is not None and of_this_process(connection):
            return
        if here:
            self._connections.add(connection or "")
        else:
            self._connections.discard(connection or "")

    def relay_needed(self) -> bool:
        return bool(self._connections) or time.monotonic() < self._relay_all_until


def group_name(code: str) -> str:
    """The channel-layer group of the processes with connections at table ``code``."""
    return f"table.{code}"


def _relays_needed(layer) -> bool:
    """Other processes may hold connections: not with a one-process in-memory layer."""
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


async def listen(code: str, listener: Listener, process_channel: str) -> None:
    """``listener`` gets table ``code``'s messages from now on (the first of this
    process joins the table's group with ``process_channel`` before that returns, so
    nothing told after it is missed)."""
    listeners = _listeners.setdefault(code, {})
    first = not listeners
    listeners[listener] = None
    layer = get_channel_layer()
    if first and _relays_needed(layer):
        await layer.group_add(group_name(code), process_channel)


async def unlisten(code: str, listener: Listener, process_channel: str) -> None:
    listeners = _listeners.get(code)
    if listeners is None or listener not in listeners:
        return
    del listeners[listener]
    if listeners:
        return
    del _listeners[code]
    layer = get_channel_layer()
    if _relays_needed(layer):
        await layer.group_discard(group_name(code), process_channel)


def listening(code: str) -> int:
    """How many of this process's connections listen at table ``code``."""
    return len(_listeners.get(code, ()))


async def tell_here(code: str, message: dict) -> None:
    """Give ``message`` to every connection of this process at table ``code``."""
    for listener in list(_listeners.get(code, ())):
        try:
            await listener.table_message(message)
        except Exception:  # one connection's failure is never the table's
            log.exception("table %s: a connection failed to take %s", code, message.get("type"))


async def tell(
    code: str, message: dict, process_channel: str, *, relay: Callable[[], bool] | None = None
) -> None:
    """The owner's message to everyone at table ``code``: here first, then (through the
    layer) every other process with connections there, unless ``relay`` (asked once this
    process's connections have it) says nobody listens elsewhere."""
    await tell_here(code, message)
    layer = get_channel_layer()
    if _relays_needed(layer) and (relay is None or relay()):
        envelope = {"type": RELAY, "code": code, "origin": process_channel, "message": message}
        try:
            await layer.group_send(group_name(code), envelope)
        except Exception:  # the layer is down: the others catch up from storage
            log.exception("table %s: relaying %s failed", code, message.get("type"))


async def relayed(relay: dict, process_channel: str) -> None:
    """A ``table.relay`` this process's channel received: told here unless it is this
    process's own (told already)."""
    if relay.get("origin") != process_channel:
        await tell_here(relay["code"], relay["message"])


def forget_all() -> None:
    """Forget every listener (the tests' fresh start)."""
    _listeners.clear()
