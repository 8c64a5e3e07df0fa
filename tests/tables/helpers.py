"""Helpers for the live-table tests: real consumers over the in-memory channel layer."""

from __future__ import annotations

import asyncio
import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.engine import (
    Card,
    Record,
    apply,
    from_piles,
    full_deck,
    record_start,
    start_state,
)
from games.models import Table
from games.tables.protocol import options_from_json
from games.tables.store import stored_action

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")


def stacked_deck(players: int, plays: list[str]) -> tuple[Card, ...]:
    """A deck (dealer = the last seat) whose first turned cards are ``plays``, in turn
    order from seat 0; the other cards follow in the order of a fresh deck."""
    per_seat = [list(range(s, 52, players)) for s in range(players)]  # deck indices
    order = [list(reversed(idx)) for idx in per_seat]  # top first
    deck: list[Card | None] = [None] * 52
    chosen = [Card.parse(c) for c in plays]
    for k, card in enumerate(chosen):
        deck[order[k % players][k // players]] = card
    rest = iter(c for c in full_deck() if c not in chosen)
    return tuple(c if c is not None else next(rest) for c in deck)


@database_sync_to_async
def session_new() -> str:
    store = SessionStore()
    store.create()
    return store.session_key


def application():
    from snapsite.asgi import application as app  # after the test environment is set up

    return app


class Client:
    """A WebSocket client that keeps every frame it receives."""

    def __init__(self, comm: WebsocketCommunicator) -> None:
        self.comm = comm
        self.frames: list[dict] = []

    async def send(self, **message) -> None:
        await self.comm.send_to(text_data=json.dumps(message))

    async def send_text(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def recv(self, timeout: float = 3) -> dict:
        frame = await self.comm.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def error(self) -> dict:
        frame = await self.recv()
        assert frame["type"] == "error", frame
        return frame

    async def until(self, code: str, timeout: float = 5) -> list[dict]:
        """Receive event frames until one with ``code``; return the events received."""
        events = []
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"no {code} event; got {[e.get('code') for e in events]}"
            frame = await self.recv(timeout=left)
            if frame["type"] == "event":
                events.append(frame)
                if frame["code"] == code:
                    return events

    async def nothing(self, timeout: float = 0.2) -> bool:
        return await self.comm.receive_nothing(timeout=timeout)

    async def close(self) -> None:
        await self.comm.disconnect()


async def open_connection(code: str, session_key: str | None = None) -> Client:
    """A connection to table ``code`` (with the session cookie, if any), before hello."""
    headers = [ORIGIN, HOST]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    comm = WebsocketCommunicator(application(), f"/ws/play/{code}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return Client(comm)


async def connect(code: str, session_key: str | None = None, hello: dict | None = None) -> Client:
    """Connect to table ``code`` (with the session cookie, if any) and say hello."""
    client = await open_connection(code, session_key)
    await client.send(type="hello", **(hello or {}))
    welcome = await client.recv()
    assert welcome["type"] == "welcome", welcome
    client.welcome = welcome
    return client


async def player(code: str, name: str) -> Client:
    """A new browser session that joins table ``code`` under ``name``."""
    key = await session_new()
    client = await connect(code, key)
    client.session_key = key
    await client.send(type="join", name=name)
    welcome = await client.recv()
    assert welcome["type"] == "welcome" and welcome["seat"] is not None, welcome
    client.welcome = welcome
    assert (await client.recv())["type"] == "seats"  # told to everyone, the newcomer too
    return client


@database_sync_to_async
def stored_record(code: str) -> Record:
    """The table's record, from storage alone."""
    table = Table.objects.get(code=code)
    actions = tuple(
        stored_action(a) for a in table.actions.order_by("index").values_list("data", flat=True)
    )
    options = options_from_json(table.options)
    if table.position is not None:  # a start from piles
        p = table.position
        start = from_piles(
            p["face_down"], p["face_up"], p["pot"], p["to_play"], options, p["last_turned"]
        )
        return record_start(start).with_actions(actions)
    deck = tuple(Card.parse(c) for c in table.deck)
    return Record(table.players, options, table.dealer, deck, actions)


def states_by_seq(record: Record) -> dict:
    """seq -> the state after the step that produced event ``seq`` (0: the start)."""
    state = start_state(record)
    states = {0: state}
    for action in record.actions:
        step = apply(state, action)
        assert not step.rejected
        for seq in range(state.seq + 1, step.state.seq + 1):
            states[seq] = step.state
        state = step.state
    return states


def card_codes(value) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(*(card_codes(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_codes(v) for v in value)) if value else set()
    if isinstance(value, str):
        try:
            return {Card.parse(value).code} if value == Card.parse(value).code else set()
        except ValueError:
            return set()
    return set()


def assert_frames_safe(frames: list[dict], record: Record, cards: int = 52) -> None:
    """No frame shows a card that is face down at its moment; every view holds all the
    ``cards`` of the game (52, or fewer in a game from a position)."""
    states = states_by_seq(record)
    for frame in frames:
        if frame["type"] not in ("event", "welcome"):
            continue
        state = states[frame["seq"]]
        face_down = {c.code for pile in state.face_down for c in pile}
        assert not card_codes(frame) & face_down, frame
        v = frame["view"]
        assert sum(v["face_down_counts"]) + sum(v["face_up_counts"]) + v["pot_count"] == cards


def registry_reaching(monkeypatch, endpoint, read_lease) -> None:
    """This process's table registry made fresh for one test, with its endpoint on the
    channel layer (``endpoint``: ``channel`` and ``call``) and its lease read
    (``read_lease(code, holder)``, for ``_take_or_read``) replaced: how it finds and
    calls a table's holder elsewhere, tested without another process or Redis."""
    from games.tables import registry

    async def this_endpoint():
        return endpoint

    monkeypatch.setattr(registry, "_endpoint", this_endpoint)
    monkeypatch.setattr(registry, "_take_or_read", read_lease)
    monkeypatch.setattr(registry, "_remote", {})
    monkeypatch.setattr(registry, "_fences_seen", {})
    fresh = {"loop": None, "locks": None, "endpoint": endpoint, "renewer": None}
    monkeypatch.setattr(registry, "_state", fresh)
