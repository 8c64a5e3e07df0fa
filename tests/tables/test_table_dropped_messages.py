"""A group message the channel layer drops (channels_redis does, for a connection over
its capacity: its issues #96, #172, #181): the numbers show the gap, and the connection
fills it from storage, so no player silently misses a card."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer

from .helpers import assert_frames_safe, stored_record
from .test_table_play import two_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_an_event_the_layer_drops_still_reaches_every_player_once_in_order(monkeypatch):
    code, ana, ben = await two_players(["2H", "5S", "9C", "KD"])
    layer = get_channel_layer()
    send = layer.group_send
    dropped = []

    async def losing_group_send(group, message):
        if message.get("type") == "table.event" and message["seq"] == 2 and not dropped:
            dropped.append(message["seq"])  # as if over capacity: nobody gets it
            return
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", losing_group_send)
    await ana.send(type="turn")
    await ana.until("card_turned")
    await ben.until("card_turned")
    await ben.send(type="turn")  # its event (seq 2) is lost on the way
    assert await ana.nothing(timeout=0.3)
    await ana.send(type="turn")  # seq 3 arrives, after a gap
    for client in (ana, ben):
        await client.until("card_turned")
        await client.until("card_turned")
        seqs = [f["seq"] for f in client.frames if f["type"] == "event"]
        assert seqs == [1, 2, 3]
    assert dropped == [2]
    assert_frames_safe(ana.frames + ben.frames, await stored_record(code))
