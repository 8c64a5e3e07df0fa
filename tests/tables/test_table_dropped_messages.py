"""A table's message lost on its way to a process (channels_redis drops messages for a
channel over its capacity: its issues #96, #172, #181): the numbers show the gap, and
each connection fills it from storage, so no player silently misses a card."""

from __future__ import annotations

import pytest

from games.tables import fan_out

from .helpers import assert_frames_safe, stored_record
from .test_table_play import two_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_an_event_lost_on_the_way_still_reaches_every_player_once_in_order(monkeypatch):
    code, ana, ben = await two_players(["2H", "5S", "9C", "KD"])
    tell_here = fan_out.tell_here
    dropped = []

    async def losing_tell_here(code, message):
        if message.get("type") == "table.event" and message["seq"] == 2 and not dropped:
            dropped.append(message["seq"])  # as if relayed and lost: nobody here gets it
            return
        await tell_here(code, message)

    monkeypatch.setattr(fan_out, "tell_here", losing_tell_here)
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


async def test_an_event_stored_by_an_owner_that_died_before_telling_it_reaches_everyone(
    monkeypatch,
):
    code, ana, ben = await two_players(["2H", "5S", "9C", "KD"])
    tell_here = fan_out.tell_here

    async def dying_tell_here(code, message):
        if message.get("type") == "table.event":
            return  # stored, and the process died before anyone here was told
        await tell_here(code, message)

    monkeypatch.setattr(fan_out, "tell_here", dying_tell_here)
    await ana.send(type="turn")
    assert await ben.nothing(timeout=0.3)
    monkeypatch.setattr(fan_out, "tell_here", tell_here)
    await fan_out.tell_here(code, {"type": "table.owner"})  # the process that took it over
    for client in (ana, ben):  # nobody waits for a turn nobody was shown
        events = await client.until("card_turned")
        assert [e["seq"] for e in events] == [1]
    assert_frames_safe(ana.frames + ben.frames, await stored_record(code))
