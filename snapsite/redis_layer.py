"""The channel layer between processes (``REDIS_URL``): channels_redis over Redis's
publish/subscribe, each channel's waiting messages bounded.

Why publish/subscribe: channels_redis's list layer (``core.RedisChannelLayer``) spends
four round trips to Redis on each ``send`` or ``group_send`` (clean, count or list,
add, expire) and two on each receive (a clean-up script and a blocking pop). With a
table's players on two processes every event is relayed and every move of the other
process's players forwarded (``games.tables.fan_out``, ``forwarding``):
``bench_tables --processes 2`` found 45 % of a server's busy loop in those calls. Here a
send is one ``PUBLISH``, and the messages are pushed to the one connection each process
subscribes with.

What publish/subscribe does not do is keep a message for a process that is not
subscribed at that moment (one that died, or whose connection to Redis dropped; redis-py
connects again and subscribes again). The tables do not count on it: a lost event shows
as a gap in the numbers and is filled from storage, and a forwarded call that gets no
answer times out and its caller looks at the table's lease again.

Bounded: a channel keeps at most ``capacity`` messages waiting in this process (5,000,
as the list layer's capacity was); one more is dropped and logged, as the list layer
drops one over its capacity. What waits on Redis's side is bounded by Redis's
``client-output-buffer-limit pubsub`` (by default it closes a subscriber 32 MB behind).
"""

from __future__ import annotations

import asyncio
import logging

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from channels_redis.utils import _wrap_close

log = logging.getLogger(__name__)

DEFAULT_CAPACITY = 5000


class DroppingQueue(asyncio.Queue):
    """An ``asyncio.Queue`` whose ``put_nowait`` drops the message when it is full
    (the layer's receiver puts every message it reads, and must never stop reading)."""

    def __init__(self, maxsize: int, channel: str) -> None:
        super().__init__(maxsize)
        self.channel = channel
        self.dropped = 0

    def put_nowait(self, item) -> None:
        if self.full():
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.warning(
                    "channel %s: %d messages waiting, %d dropped so far",
                    self.channel, self.qsize(), self.dropped,
                )  # fmt: skip
            return
        super().put_nowait(item)


class _BoundedLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, capacity: int = DEFAULT_CAPACITY, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.capacity = capacity

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = DroppingQueue(self.capacity, channel)
        await self._get_shard(channel).subscribe(channel)


class BoundedPubSubChannelLayer(RedisPubSubChannelLayer):
    """channels_redis's publish/subscribe layer with :class:`DroppingQueue` channels;
    ``CONFIG``: ``hosts`` and ``capacity`` (messages waiting a channel)."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = _BoundedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer
