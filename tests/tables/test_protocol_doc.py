"""docs/protocol.md is true: its worked example is played against the real server, and
its lists of messages and error codes are the server's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.engine import Options
from games.models import Table
from games.tables import CONTROLS
from games.tables.protocol import _SCHEMAS, ERROR_CODES, client_message

from .helpers import open_connection, session_new, stacked_deck

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
LINE = re.compile(r"^(\w+) (→|←) (\{.*\})$")
SERVER_TYPES = {
    "welcome",
    "event",
    "seats",
    "error",
    "pong",
    "ping",
    "control",
    "class",
    "progress",
}
#: A class table's frames: tests/tables/test_class_controls.py
CLASS_SENT = {*CONTROLS, "done"}
CLASS_RECEIVED = {"control", "class", "progress"}


def example_lines(heading: str = "## Worked example") -> list[str]:
    """The lines of the first ``text`` block after ``heading`` (comments left out)."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split(f"\n{heading}\n", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    return [line for line in block.strip().splitlines() if line and not line.startswith("#")]


async def play_example(lines: list[str], sessions: dict[str, str], code: str) -> None:
    """Play documented ``lines`` at table ``code``, each client on its session; every
    frame a client receives must contain what the line shows, and nothing else come."""
    clients: dict = {}
    for line in lines:
        who, rest = line.split(" ", 1)
        if rest == "connects":
            clients[who] = await open_connection(code.lower(), sessions[who])
        elif rest == "disconnects":
            await clients[who].close()
            del clients[who]
        elif rest.startswith("→"):
            await clients[who].send_text(rest[2:])
        else:
            documented = json.loads(rest[2:])
            frame = await clients[who].recv(timeout=3)
            assert contains(frame, documented), (line, frame)
    for client in clients.values():
        assert await client.nothing()


def contains(actual, documented) -> bool:
    """True when every field the document shows is in the frame with that value (a
    list: as long, each item containing the documented one)."""
    if isinstance(documented, dict):
        return isinstance(actual, dict) and all(
            k in actual and contains(actual[k], v) for k, v in documented.items()
        )
    if isinstance(documented, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(documented)
            and all(contains(a, d) for a, d in zip(actual, documented, strict=True))
        )
    return actual == documented


def test_the_documented_message_types_and_error_codes_are_the_servers():
    text = DOC.read_text(encoding="utf-8")
    client_table = text.split("## From the client", 1)[1].split("## From the server", 1)[0]
    assert set(re.findall(r"^\| `(\w+)` \|", client_table, re.M)) == set(_SCHEMAS)
    server_table = text.split("## From the server", 1)[1].split("### The view", 1)[0]
    assert set(re.findall(r"^\| `(\w+)` \|", server_table, re.M)) == SERVER_TYPES
    errors = text.split("## Errors", 1)[1].split("## Limits", 1)[0]
    assert re.findall(r"^\| `(\w+)` \|", errors, re.M) == list(ERROR_CODES)


def frame_types(lines) -> tuple[set[str], set[str]]:
    """The types of the frames an example sends and receives, each frame checked: the
    server accepts what is sent, and knows what is received."""
    sent, received = set(), set()
    for line in lines:
        match = LINE.match(line)
        if match is None:
            assert re.fullmatch(r"\w+ (connects|disconnects)", line), line
            continue
        frame = json.loads(match.group(3))
        if match.group(2) == "→":
            client_message(match.group(3))  # the server accepts it
            sent.add(frame["type"])
        else:
            assert frame["type"] in SERVER_TYPES
            received.add(frame["type"])
    return sent, received


def test_every_frame_of_the_worked_example_is_well_formed():
    sent, received = frame_types(example_lines())
    # Snap Pot: tests/tables/test_table_play.py; ping and pong (lag compensation, off in
    # the example): test_lag_compensation_lets_a_slow_connections_call_join_the_race
    assert sent == set(_SCHEMAS) - {"snap_pot", "pong"} - CLASS_SENT
    assert received == SERVER_TYPES - {"ping"} - CLASS_RECEIVED


def test_every_control_code_is_documented_and_told():
    from games.words.controls import control_text

    text = DOC.read_text(encoding="utf-8")
    section = text.split("## A class table", 1)[1].split("## Worked example", 1)[0]
    codes = re.findall(r"^\| `(\w+)` \|", section, re.M)
    params = {
        "turn_timer_ms": None,
        "beat_ms": 1800,
        "seat": 0,
        "name": "Ana",
        "code": "ACE",
        "players": 3,
    }
    for code in codes:
        assert control_text(code, {**params, "replaced": True})
    assert set(codes) == {
        "started",
        "paused",
        "resumed",
        "pace_changed",
        "bot_added",
        "bot_removed",
        "player_removed",
        "restarted",
        "started_now",
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_worked_example_plays_as_documented():
    code = await database_sync_to_async(tables.table_create)(
        players=2,
        options=Options(tie_window_ms=150),
        deck=stacked_deck(2, ["7H", "7S", "2C", "9D"]),
    )
    sessions = {"Ana": await session_new(), "Ben": await session_new()}
    await play_example(example_lines(), sessions, code)


DEVICE_EXAMPLES = ("### A class's tablet", "### The players' pace")


def test_the_control_of_the_players_at_one_device_is_documented_and_told():
    from django.utils import translation

    from games.words.controls import control_text

    text = DOC.read_text(encoding="utf-8")
    section = text.split("## A table on one device", 1)[1].split("### A class's tablet", 1)[0]
    codes = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert codes == ["players_pace"]
    # in English, whatever language an earlier test of this process left active
    with translation.override("en"):
        told = control_text("players_pace", {"turn_timer_ms": None, "beat_ms": 1800})
    assert told.startswith("The players changed the pace.")


def test_every_frame_of_the_examples_on_one_device_is_well_formed():
    sent, received = frame_types(line for h in DEVICE_EXAMPLES for line in example_lines(h))
    assert sent == {"hello", "join", "start", "turn", "snap", "pace"}
    assert received == {"welcome", "seats", "control", "event", "error"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_example_of_a_class_tablet_plays_as_documented():
    teacher, pad = await session_new(), await session_new()
    code = await database_sync_to_async(tables.table_open_class)(
        session_key=teacher, class_name="Class 4B", players=2, on_device=True
    )
    deck = [c.code for c in stacked_deck(2, ["7H", "7S", "2C", "9D"])]
    await database_sync_to_async(
        lambda: Table.objects.filter(code=code).update(deck=deck, dealer=1)
    )()
    tables.registry_drop()  # the owner is rebuilt from storage, with the stacked deal
    sessions = {"Teacher": teacher, "Tablet": pad}
    await play_example(example_lines("### A class's tablet"), sessions, code)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_example_of_the_players_pace_plays_as_documented():
    pad, watcher = await session_new(), await session_new()
    code = await database_sync_to_async(tables.table_open_device)(
        session_key=pad,
        people=[("Noa", "he"), ("Ravi", "ta")],
        deck=stacked_deck(2, ["7H", "7S", "2C", "9D"]),
    )
    sessions = {"Tablet": pad, "Watcher": watcher}
    await play_example(example_lines("### The players' pace"), sessions, code)
