"""The opener of a lobby table starts it with the players there (docs/protocol.md,
`start`): the table shrinks to the seats taken and is dealt again; nobody else may,
and a lone opener cannot."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.engine import BotLevel, Options

from .helpers import connect, player, session_new
from .test_class_controls import table_row, until_control, until_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_lobby_table(players: int = 4, bots: dict | None = None) -> tuple:
    """A table opened from the lobby by Ana (seat 0), with her connection."""
    key = await session_new()
    code = await database_sync_to_async(tables.table_open)(
        session_key=key, name="Ana", players=players, options=Options(), bots=bots or {},
        bot_time_scale=0.01,
    )  # fmt: skip
    return code, await connect(code, key)


async def test_two_friends_at_a_table_of_four_start_it_as_a_table_of_two():
    code, ana = await open_lobby_table(players=4)
    ben = await player(code, "Ben")
    assert ben.welcome["started"] is False
    await ana.send(type="start")
    started = await until_control(ana, "started_now")
    assert started["params"] == {"players": 2} and started["class"] is None
    assert started["text"] == "The game starts now, with the 2 players at the table."
    welcomes = []
    for client in (ana, ben):
        welcome = await until_type(client, "welcome")
        welcomes.append(welcome)
        assert welcome["started"] is True
        assert [s["name"] for s in welcome["seats"]] == ["Ana", "Ben"]
        assert welcome["view"]["face_down_counts"] == [26, 26]
    row = await table_row(code)
    assert row["players"] == 2 and [s[1] for s in row["seats"]] == ["Ana", "Ben"]
    mover = ana if welcomes[0]["view"]["to_play"] == 0 else ben
    await mover.send(type="turn")
    assert (await until_type(mover, "event"))["code"] == "card_turned"
    record = await database_sync_to_async(tables.table_record)(code=code)
    assert record.players == 2 and len(record.actions) == 1


async def test_the_computer_players_already_seated_keep_playing_after_the_start():
    code, ana = await open_lobby_table(players=5, bots={4: BotLevel.QUICK})
    await ana.send(type="start")
    await until_control(ana, "started_now")
    welcome = await until_type(ana, "welcome")
    assert [(s["name"], s["bot"]) for s in welcome["seats"]] == [("Ana", False), ("", True)]
    assert welcome["seats"][1]["level"] == "quick" and welcome["started"] is True


async def test_only_the_opener_may_start_and_not_alone_and_a_refusal_changes_nothing():
    code, ana = await open_lobby_table(players=3)
    await ana.send(type="start")
    error = await ana.error()
    assert error["code"] == "too_few_players"
    ben = await player(code, "Ben")
    watcher = await connect(code)
    before = await table_row(code)
    for client in (ben, watcher):
        await client.send(type="start")
        error = await client.error()
        assert error["code"] == "not_opener"
        assert error["message"] == "Only the player who opened this table can start it."
    assert await table_row(code) == before
    await ana.send(type="start")
    await until_control(ana, "started_now")
    await ana.send(type="start")
    assert (await until_type(ana, "error"))["code"] == "not_now"
