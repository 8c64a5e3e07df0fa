"""The one-process channel layer of `make run`: Channels' in-memory layer without its
scan of every channel and group on each ``receive()`` and ``group_send()``.

``InMemoryChannelLayer._clean_expired`` walks all channels and all group memberships
on every operation, so a frame costs more the more connections a process holds (29 % of
the site's busy time at 125 tables, issue 18). Here expiry is lazy: a heap holds, per
non-empty channel, the time its oldest message expires, and another the time each group
membership does; an operation pops only what is due. The semantics are the parent's:
``capacity`` (``ChannelFull``), ``expiry`` (an expired message is dropped and its channel
leaves every group), ``group_expiry``, and each receiver gets its own copy of a message.
``group_send`` delivers in the same loop instead of a task per channel. A channel's
messages wait in an :class:`Inbox` (two lists) rather than an ``asyncio.Queue``, whose
four deques and ``Event`` cost about 3 kB for every connection waiting to receive.
"""

from __future__ import annotations

import asyncio
import heapq
import pickle
import time
from copy import deepcopy

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class LazyExpiryChannelLayer(InMemoryChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._reset()

    def _reset(self) -> None:
        self._message_due: list[tuple[float, str]] = []  # (oldest expiry, channel)
        self._tracked: set[str] = set()  # channels with an entry in _message_due
        self._membership_due: list[tuple[float, str, str, float]] = []
        self._groups_of: dict[str, set[str]] = {}  # channel -> its groups

    # -- sending and receiving ---------------------------------------------------------

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, deepcopy(message))

    def _put(self, channel: str, message: dict) -> None:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = Inbox(self.get_capacity(channel))
        expires = time.time() + self.expiry
        if not queue.put_nowait((expires, message)):
            raise ChannelFull(channel)
        if channel not in self._tracked:
            self._tracked.add(channel)
            heapq.heappush(self._message_due, (expires, channel))

    async def receive(self, channel: str) -> dict:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = Inbox(self.get_capacity(channel))
        try:
            _, message = await queue.get()
        finally:
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]
        return message

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        members = self.groups.get(group)
        if not members:
            return
        copies = _copier(message)
        for channel in list(members):
            try:
                self._put(channel, copies())
            except ChannelFull:
                pass

    # -- groups ------------------------------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        joined = time.time()
        self.groups.setdefault(group, {})[channel] = joined
        self._groups_of.setdefault(channel, set()).add(group)
        heapq.heappush(self._membership_due, (joined + self.group_expiry, group, channel, joined))
        if len(self._membership_due) > 64 and len(self._membership_due) > 2 * self._memberships():
            self._rebuild_membership_due()

    async def group_discard(self, group: str, channel: str) -> None:
        self.require_valid_channel_name(channel)
        self.require_valid_group_name(group)
        self._leave(group, channel)

    def _leave(self, group: str, channel: str) -> None:
        members = self.groups.get(group)
        if members is not None:
            members.pop(channel, None)
            if not members:
                del self.groups[group]
        groups = self._groups_of.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del self._groups_of[channel]

    def _remove_from_groups(self, channel: str) -> None:
        for group in list(self._groups_of.get(channel, ())):
            self._leave(group, channel)

    def _memberships(self) -> int:
        return sum(len(members) for members in self.groups.values())

    def _rebuild_membership_due(self) -> None:
        self._membership_due = [
            (joined + self.group_expiry, group, channel, joined)
            for group, members in self.groups.items()
            for channel, joined in members.items()
        ]
        heapq.heapify(self._membership_due)

    # -- expiry, lazily ----------------------------------------------------------------

    def _clean_expired(self) -> None:
        now = time.time()
        due = self._message_due
        while due and due[0][0] < now:
            _, channel = heapq.heappop(due)
            self._tracked.discard(channel)
            queue = self.channels.get(channel)
            if queue is None:
                continue
            while not queue.empty() and queue.items[0][0] < now:
                queue.get_nowait()
                self._remove_from_groups(channel)
            if queue.empty():
                if not queue.has_waiters():  # a receiver waiting keeps its queue
                    del self.channels[channel]
            else:
                self._tracked.add(channel)
                heapq.heappush(due, (queue.items[0][0], channel))
        memberships = self._membership_due
        while memberships and memberships[0][0] < now:
            _, group, channel, joined = heapq.heappop(memberships)
            if self.groups.get(group, {}).get(channel) == joined:  # not joined again since
                self._leave(group, channel)

    async def flush(self) -> None:
        await super().flush()
        self._reset()


class Inbox:
    """A channel's waiting messages (oldest first) and the receivers waiting for one:
    what ``asyncio.Queue`` does here, in two lists (a connection waiting to receive
    keeps one of these for its whole life)."""

    __slots__ = ("items", "maxsize", "waiters")

    def __init__(self, maxsize: int) -> None:
        self.items: list = []
        self.maxsize = maxsize
        self.waiters: list[asyncio.Future] = []

    def empty(self) -> bool:
        return not self.items

    def has_waiters(self) -> bool:
        """A receiver is waiting on this inbox (it must not be dropped from under it)."""
        return any(not waiter.done() for waiter in self.waiters)

    def qsize(self) -> int:
        return len(self.items)

    def put_nowait(self, item) -> bool:
        """Add ``item``; False (and nothing added) when the inbox is at capacity."""
        if 0 < self.maxsize <= len(self.items):
            return False
        self.items.append(item)
        self._wake()
        return True

    def get_nowait(self):
        return self.items.pop(0)

    async def get(self):
        while not self.items:
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._wake()  # woken, then cancelled: the next receiver's turn
                else:
                    waiter.cancel()
                    if waiter in self.waiters:
                        self.waiters.remove(waiter)
                raise
        return self.items.pop(0)

    def _wake(self) -> None:
        while self.waiters:
            waiter = self.waiters.pop(0)
            if not waiter.done():
                waiter.set_result(None)
                return


def _copier(message: dict):
    """A function that returns a new deep copy of ``message`` each call: pickled once
    (much faster than ``deepcopy`` per receiver), ``deepcopy`` if it cannot be."""
    try:
        frozen = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return lambda: deepcopy(message)
    return lambda: pickle.loads(frozen)
