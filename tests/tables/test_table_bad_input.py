"""Bad input over the WebSocket: answered with an error, the game unchanged, nobody
else disturbed."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import tables
from games.engine import Options
from games.tables.protocol import MAX_FRAME_CHARS

from .helpers import HOST, ORIGIN, application, connect, player, session_new, stacked_deck

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

create = database_sync_to_async(tables.table_create)


async def table_of_two():
    code = await create(players=2, options=Options(), deck=stacked_deck(2, ["7H", "7S"]))
    ana = await player(code, "Ana")
    ben = await player(code, "Ben")
    assert (await ana.recv())["type"] == "seats"  # Ben sat down
    return code, ana, ben


async def assert_unchanged(code: str, client) -> None:
    await client.send(type="hello")
    welcome = await client.recv()
    assert welcome["type"] == "welcome" and welcome["seq"] == 0
    assert welcome["view"]["face_down_counts"] == [26, 26]


async def test_malformed_unknown_and_oversized_frames_get_errors_and_change_nothing():
    code, ana, ben = await table_of_two()
    bad = {
        "{not json": "bad_json",
        "[1, 2]": "bad_message",
        '{"kind": "turn"}': "bad_message",
        '{"type": "fly"}': "unknown_type",
        '{"type": "snap", "seen": "three"}': "bad_message",
        '{"type": "snap", "seen": -1}': "bad_message",
        '{"type": "turn", "extra": 1}': "bad_message",
        '{"type": "resync"}': "bad_message",
        json.dumps({"type": "turn", "pad": "x" * MAX_FRAME_CHARS}): "too_big",
    }
    for text, code_expected in bad.items():
        await ana.send_text(text)
        error = await ana.error()
        assert error["code"] == code_expected, text
    assert error["message"] == "That is not a move in this game."
    await ana.comm.send_to(bytes_data=b"\x00\x01")
    assert (await ana.error())["code"] == "binary"
    assert await ben.nothing()  # the other player heard nothing of it
    await assert_unchanged(code, ben)
    await ana.send(type="turn")  # Ana's own connection still works
    assert (await ben.until("card_turned"))[-1]["params"]["seat"] == 0


#: Numbers no field takes: each answered with the field's error (too large for a float
#: once raised OverflowError and wrote a traceback for every such frame).
HUGE_NUMBERS = ("1" + "0" * 400, "-1" + "0" * 400, str(2**53), str(-(2**53)), str(2**64),
                "1e300", "-1e300")  # fmt: skip
#: Numbers that are not JSON numbers a float can hold: the frame is not parsed.
BEYOND_FLOATS = ("1e400", "-1e400")


def numeric_fields() -> list[tuple[str, str]]:
    """Every (message type, field) of the protocol that takes a number."""
    from games.tables.protocol import _SCHEMAS

    return [
        (kind, name)
        for kind, fields in _SCHEMAS.items()
        for name, (_required, check) in fields.items()
        if any(check(n) for n in (0, 7, 1000))
    ]


async def test_huge_numbers_in_every_numeric_field_get_their_error_and_no_traceback(caplog):
    from games.tables.protocol import MOVES

    code, ana, ben = await table_of_two()
    fields = numeric_fields()
    assert {("ping", "t"), ("hello", "since"), ("snap", "seen"), ("pace", "beat_ms")} <= set(fields)
    for kind, name in fields:
        spectator = await connect(code)  # a connection per field: within the frame rate
        for number in HUGE_NUMBERS + BEYOND_FLOATS:
            await spectator.send_text(f'{{"type": "{kind}", "{name}": {number}}}')
            error = await spectator.error()
            if number in BEYOND_FLOATS:
                expected = "bad_json"
            elif name == "seat" and kind in MOVES:
                expected = "not_your_seat"
            else:
                expected = "bad_message"
            assert error["code"] == expected, (kind, name, number)
        await spectator.close()
    errors = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not errors, [r.getMessage() for r in errors]
    await ana.send_text('{"type": "ping", "t": 12.5}')  # a number within bounds is echoed
    assert (await ana.recv())["t"] == 12.5
    await assert_unchanged(code, ben)


async def test_acting_for_another_seat_is_refused():
    code, ana, ben = await table_of_two()
    await ana.send(type="turn", seat=1)
    assert (await ana.error())["code"] == "not_your_seat"
    await ben.send(type="turn")  # it is Ana's turn (seat 0), not Ben's
    refused = await ben.error()
    assert refused["code"] == "not_your_turn"
    assert refused["message"] == "It is not your turn, so you may not turn over a card now."
    await assert_unchanged(code, ana)


async def test_errors_are_told_in_the_language_of_the_client():
    code, ana, ben = await table_of_two()
    await ben.send(type="hello", lang="hr")
    await ben.recv()
    await ben.send(type="turn")
    refused = await ben.error()
    assert refused["code"] == "not_your_turn"
    from django.utils import translation

    from games.words.texts import reject_text

    with translation.override("hr"):
        assert refused["message"] == reject_text("not_your_turn")


async def test_names_are_checked_and_markup_is_kept_as_plain_text():
    code = await create(players=3, options=Options())
    guest = await connect(code, await session_new())
    for name in ["", "   ", "x" * 25, "evil\u202e", "tab\tname"]:
        await guest.send(type="join", name=name)
        assert (await guest.error())["code"] == "bad_name", name
    await guest.send(type="join", name="  <b>Zoë</b> ")
    welcome = await guest.recv()
    assert welcome["seats"][0]["name"] == "<b>Zoë</b>" and welcome["seat"] == 0
    nobody = await connect(code)  # no session: may watch, may not sit
    await nobody.send(type="join", name="Eve")
    assert (await nobody.error())["code"] == "no_session"


async def test_a_made_up_session_cookie_may_watch_but_not_sit():
    code = await create(players=2, options=Options())
    stranger = await connect(code, "madeupsessionkeythatisnotstored0")
    assert stranger.welcome["seat"] is None
    await stranger.send(type="join", name="Eve")
    assert (await stranger.error())["code"] == "no_session"
    guest = await connect(code, await session_new())  # a stored session sits down
    await guest.send(type="join", name="Ana")
    assert (await guest.recv())["seat"] == 0


async def test_a_full_table_refuses_one_more_player():
    code, ana, ben = await table_of_two()
    late = await connect(code, await session_new())
    await late.send(type="join", name="Cleo")
    assert (await late.error())["code"] == "table_full"


async def test_the_tables_own_refusals_are_told_in_sentences():
    code, ana, ben = await table_of_two()
    late = await connect(code, await session_new(), hello={"lang": "en"})
    await late.send(type="join", name="Cleo")
    full = await late.error()
    assert full == {
        "type": "error",
        "code": "table_full",
        "message": "This table is full. You can watch, or open a table of your own.",
    }
    await late.send(type="snap", seen=0)  # a spectator may not play
    watching = await late.error()
    assert watching["code"] == "not_seated"
    assert watching["message"] == "You are watching this table, so you cannot play at it."
    await late.send(type="join", name="")
    assert (await late.error())["message"] == (
        "Names are 1 to 24 letters long, with no invisible characters."
    )
    await assert_unchanged(code, ana)
    waiting = await player(await create(players=2, options=Options()), "Dan")
    await waiting.send(type="turn")  # nobody on the other seat yet
    early = await waiting.error()
    assert early["code"] == "not_started"
    assert early["message"] == "The game starts when every seat has a player."


async def test_every_error_code_has_a_sentence():
    from games.play.consumer import _NOT_A_MOVE
    from games.tables.protocol import ERROR_CODES
    from games.words.errors import TABLE_ERROR_TEXTS
    from games.words.texts import REJECT_TEXTS

    told = set(REJECT_TEXTS) | _NOT_A_MOVE | set(TABLE_ERROR_TEXTS)
    assert set(ERROR_CODES) <= told, set(ERROR_CODES) - told
    assert not set(TABLE_ERROR_TEXTS) & (set(REJECT_TEXTS) | _NOT_A_MOVE)  # one sentence each
    assert all(str(text).endswith(".") for text in TABLE_ERROR_TEXTS.values())


async def test_flooding_is_answered_with_rate_limited_and_the_game_goes_on():
    code, ana, ben = await table_of_two()
    for t in range(60):
        await ben.send(type="ping", t=t)
    frames = []
    while not await ben.nothing(timeout=0.2):
        frames.append(await ben.recv())
    kinds = [f["type"] if f["type"] == "pong" else f["code"] for f in frames]
    assert kinds.count("rate_limited") == 1  # told once; the rest of the flood is dropped
    assert 15 <= kinds.count("pong") <= 45 and frames[0]["t"] == 0  # a burst of 20 is fine
    await ana.send(type="turn")
    assert (await ben.until("card_turned"))[-1]["seq"] == 1


async def test_an_unknown_table_or_a_foreign_origin_is_not_connected():
    comm = WebsocketCommunicator(application(), "/ws/play/ZZZZZZ/", headers=[ORIGIN, HOST])
    connected, _ = await comm.connect()
    assert connected  # accepted, so that the close code reaches the browser: gone
    assert await comm.receive_output(timeout=2) == {"type": "websocket.close", "code": 4404}
    code = await create(players=2, options=Options())
    comm = WebsocketCommunicator(
        application(), f"/ws/play/{code}/", headers=[(b"origin", b"http://evil.example"), HOST]
    )
    connected, _ = await comm.connect()
    assert not connected


@pytest.mark.parametrize(
    "arguments",
    [
        {"players": 13},
        {"players": 1},
        {"players": 2, "bots": {2: "x"}},
        {"players": 2, "lag_cap_ms": 501},
        {"players": 2, "turn_timer_ms": 0},
        {"players": 2, "beat_ms": "fast"},
        {"players": 2, "away_after_ms": -1},
        {"players": 2, "bot_time_scale": 0},
        {"players": 2, "bot_time_scale": 4.5},
    ],
)
async def test_a_table_with_impossible_settings_is_not_created(arguments):
    from games.models import Table

    with pytest.raises(ValueError):
        await create(options=Options(), **arguments)
    assert await database_sync_to_async(Table.objects.count)() == 0
