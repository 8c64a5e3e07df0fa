"""JSON <-> engine values for live tables (the engine itself knows no JSON).

Everything a client receives about the game is made here from a
:class:`~games.engine.TableView` (``view(state, seat)``) and from events; face-down
cards are not in either, so no frame can carry one. Cards travel as codes ("10H").
The messages themselves are documented in ``docs/protocol.md``.

>>> from games.engine import CallSnap, CardTurned, Card
>>> action_to_json(CallSnap(seat=1, at_ms=20, seen=3))
{'type': 'snap', 'seat': 1, 'at_ms': 20, 'seen': 3}
>>> action_from_json(action_to_json(CallSnap(seat=1, at_ms=20, seen=3)))
CallSnap(seat=1, at_ms=20, seen=3)
>>> event_to_json(CardTurned(seat=0, card=Card(10, "H")))
{'code': 'card_turned', 'params': {'seat': 0, 'card': '10H'}}
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import unicodedata
from functools import cache
from typing import Any

from games.engine import (
    EVENT_TYPES,
    Action,
    CallSnap,
    CallSnapPot,
    Card,
    CloseRace,
    Event,
    GameState,
    Options,
    TableView,
    TurnCard,
)
from games.engine.pot import NEVER, pot_news
from games.tables.device import DEVICE_SEATS_MAX
from games.words import graphemes

__all__ = [
    "ERROR_CODES",
    "LANGS",
    "MAX_FRAME_CHARS",
    "MAX_NAME_CHARS",
    "MAX_NESTING",
    "MAX_NUMBER",
    "MOVES",
    "ProtocolError",
    "action_from_json",
    "client_message",
    "display_name",
    "nesting_depth",
    "action_to_json",
    "event_from_json",
    "event_to_json",
    "options_from_json",
    "options_to_json",
    "view_for_seat",
    "view_to_json",
    "walkthrough_slugs",
]

_ACTION_TYPES: dict[str, type] = {
    "turn": TurnCard,
    "snap": CallSnap,
    "snap_pot": CallSnapPot,
    "close": CloseRace,
}
_ACTION_NAMES = {cls: name for name, cls in _ACTION_TYPES.items()}
_EVENTS_BY_CODE: dict[str, type[Event]] = {cls.code: cls for cls in EVENT_TYPES}


_SCALARS = (str, int, float, type(None))  # JSON as they are


def _plain(value: Any) -> Any:
    """A JSON-ready copy: cards become codes, tuples lists, dataclasses dicts."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    names = _field_names(type(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    return value


@cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names, in order (None for any other class): read once per
    class, not for every value of every event told to every player."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


# -- actions (the stored action log) ----------------------------------------------------


def action_to_json(action: Action) -> dict:
    """An action as stored in the table's action log."""
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)]}
    data.update(_plain(action))
    return data


def action_from_json(data: dict) -> Action:
    """The action stored by :func:`action_to_json`. Raises ValueError on anything else."""
    if not isinstance(data, dict) or data.get("type") not in _ACTION_TYPES:
        raise ValueError(f"not an action: {data!r}")
    cls = _ACTION_TYPES[data["type"]]
    names = {f.name for f in dataclasses.fields(cls)}
    fields = {k: v for k, v in data.items() if k != "type"}
    if not set(fields) <= names:
        raise ValueError(f"unknown fields in {data!r}")
    return cls(**fields)


# -- events -----------------------------------------------------------------------------


def event_to_json(event: Event) -> dict:
    """``{"code": ..., "params": {...}}``: an event's stable code and its parameters."""
    return {"code": event.code, "params": _plain(event)}


def event_from_json(data: dict) -> Event:
    """The event of :func:`event_to_json` (for narration at the edge, and tests).

    >>> event_from_json({"code": "card_turned", "params": {"seat": 1, "card": "AS"}})
    CardTurned(seat=1, card=Card(rank=1, suit='S'))
    """
    cls = _EVENTS_BY_CODE[data["code"]]
    values = {}
    for f in dataclasses.fields(cls):
        v = data["params"][f.name]
        if f.name in ("card", "pot_top"):
            v = Card.parse(v)
        elif isinstance(v, list):
            v = tuple(v)
        values[f.name] = v
    return cls(**values)


# -- views ------------------------------------------------------------------------------


def pot_marks(before: GameState, after: GameState) -> dict:
    """The marks a step's last event carries about the Snap Pot (R18 D), told once, when
    it happens: ``pot_now_blocked`` when the step blocked the pot (all four cards of its
    top rank inside it), with ``pot_stuck`` too when no rank has three cards left outside
    it, so it can never be won again; nothing otherwise."""
    news = pot_news(before, after)
    if news is None:
        return {}
    marks = {"pot_now_blocked": True}
    if news == NEVER:
        marks["pot_stuck"] = True
    return marks


def view_to_json(v: TableView) -> dict:
    """A :class:`TableView` as JSON: counts, face-up tops and public facts only."""
    data = _plain(v)
    data["valid"] = {"snap": list(v.valid.snap), "snap_pot": list(v.valid.snap_pot)}
    return data


def view_for_seat(public_view: dict, seat: int | None) -> dict:
    """The view of ``seat`` from the public view (``view(state, None)`` as JSON).

    ``view()`` gives every seat the same facts (nothing of a seat's own face-down pile
    is shown, not even to him); only ``me`` differs. A test checks that this equals
    ``view_to_json(view(state, seat))``.
    """
    return {**public_view, "me": seat}


# -- options ----------------------------------------------------------------------------


def options_to_json(options: Options) -> dict:
    return _plain(options)


def options_from_json(data: dict) -> Options:
    """Engine options from JSON; unknown keys or bad values raise ValueError."""
    if not isinstance(data, dict):
        raise ValueError("options must be an object")
    names = {f.name for f in dataclasses.fields(Options)}
    if not set(data) <= names:
        raise ValueError(f"unknown options: {sorted(set(data) - names)}")
    return Options(**data)


# -- client messages (docs/protocol.md) -------------------------------------------------

#: The largest text frame a client may send, in characters.
MAX_FRAME_CHARS = 1024
#: Display names: 1 to this many letters after trimming, counted as a reader counts them
#: (grapheme clusters: "மீ" is one letter, :mod:`games.words.graphemes`) ...
MAX_NAME_CHARS = 24
#: ... and, for safety whatever the letters, at most this many bytes in UTF-8 (24
#: Tamil or Marathi letters of up to three code points each fit).
MAX_NAME_BYTES = 240
#: The deepest nesting of ``[`` and ``{`` a client frame may have (checked before the
#: JSON parser sees it: a parser recursing 970 levels deep raises RecursionError).
MAX_NESTING = 8

#: The largest number a client frame may hold, in size (2**53 - 1: the largest whole
#: number a browser's JavaScript counts exactly). A larger one is refused
#: (``bad_message``) before it reaches a comparison, a float or the database, where an
#: integer of 400 digits raised ``OverflowError`` (a traceback for every such frame).
MAX_NUMBER = 2**53 - 1

#: The site's languages (a ``hello``'s ``lang``, an edge's language at a table on one device).
LANGS = ("en", "ms", "mr", "he", "ta", "hr")
_LEVELS = ("gentle", "beginner", "steady", "quick")
#: A class table's seats (a control names one): 0 to 11.
_SEAT = (True, lambda v: type(v) is int and 0 <= v < 12)
#: A count or event number a client sends: a whole number from 0 to MAX_NUMBER.
_COUNT = (False, lambda v: type(v) is int and 0 <= v <= MAX_NUMBER)
#: The seat a move names (a table on one device only: elsewhere ``not_your_seat``).
_MOVE_SEAT = (False, _SEAT[1])


@cache
def walkthrough_slugs() -> tuple[str, ...]:
    """The walkthroughs' slugs, in their order (the ``done`` marks a page may send)."""
    from games.scenarios import load_all  # scenario files: read once, when first needed

    return tuple(s.slug for s in load_all())


#: A teacher's lesson assigned at a class table, as a student's page reports it done.
LESSON_DONE = re.compile(r"lesson:[ACEFHJKMNPRTWXY3479]{6}")


def _walkthroughs(value: Any) -> bool:
    """Known walkthrough slugs, and at most one assigned lesson (``lesson:<CODE>``)."""
    known = walkthrough_slugs()
    return (
        isinstance(value, list)
        and len(value) <= len(known) + 1
        and all(isinstance(v, str) and (v in known or LESSON_DONE.fullmatch(v)) for v in value)
        and sum(1 for v in value if v not in known) <= 1
    )


def _players(value: Any) -> bool:
    """``[{"name": str, "lang"?: a language}, …]``: 1 to 4 people at one tablet."""
    return (
        isinstance(value, list)
        and 1 <= len(value) <= DEVICE_SEATS_MAX
        and all(
            isinstance(p, dict)
            and isinstance(p.get("name"), str)
            and set(p) <= {"name", "lang"}
            and p.get("lang", "") in ("", *LANGS)
            for p in value
        )
    )


def _number(value: Any) -> bool:
    """Any JSON number (a whole one, or one with a fraction) no larger than
    :data:`MAX_NUMBER` either way (a fraction's number is finite: ``_finite_float``)."""
    return type(value) in (int, float) and -MAX_NUMBER <= value <= MAX_NUMBER


def _ms_or_null(low: int, high: int):
    return lambda v: v is None or (type(v) is int and low <= v <= high)


#: Each client message type and its fields: name -> (required, check).
_SCHEMAS: dict[str, dict[str, tuple[bool, Any]]] = {
    "hello": {
        "since": _COUNT,
        "lang": (False, lambda v: v in LANGS),
    },
    # ``name``, or (a table on one device) ``players``: exactly one of them
    "join": {
        "name": (False, lambda v: isinstance(v, str)),
        "players": (False, _players),
    },
    # ``seat``: at a table on one device, which of the connection's seats acts
    "turn": {"seat": _MOVE_SEAT},
    "snap": {"seen": _COUNT, "seat": _MOVE_SEAT},
    "snap_pot": {"seen": _COUNT, "seat": _MOVE_SEAT},
    "resync": {"since": (True, _COUNT[1])},
    "ping": {"t": (False, _number)},
    "pong": {"t": (True, _COUNT[1])},
    # a class table's student: walkthroughs finished (docs/protocol.md, "A class table")
    "done": {"walkthroughs": (True, _walkthroughs)},
    # the teacher's controls at a class table
    "start": {},
    "pause": {},
    "resume": {},
    "pace": {
        "turn_timer_ms": (False, _ms_or_null(1000, 120_000)),  # missing: null
        "beat_ms": (True, _ms_or_null(500, 10_000)),
    },
    "add_bot": {"seat": _SEAT, "level": (False, lambda v: v in _LEVELS)},
    "remove_bot": {"seat": _SEAT},
    "remove_player": {"seat": _SEAT},
    "restart": {},
}
#: The message types that are moves of the game.
MOVES = ("turn", "snap", "snap_pot")
#: Every ``code`` of an ``error`` frame a client can receive (docs/protocol.md):
#: the protocol's own, the seat's and the service's, then the engine's refusals.
ERROR_CODES: tuple[str, ...] = (
    "too_big",
    "binary",
    "bad_json",
    "bad_message",
    "unknown_type",
    "not_your_seat",
    "bad_name",
    "rate_limited",
    "catch_up_limited",
    "server_error",
    "no_session",
    "table_full",
    "not_seated",
    "not_started",
    "table_turns",
    "no_table",
    "not_teacher",
    "not_opener",
    "is_teacher",
    "not_now",
    "bad_seat",
    "too_few_players",
    "paused",
    "restarted",
    "bad_action",
    "game_over",
    "bad_time",
    "player_out",
    "no_cards",
    "not_your_turn",
    "race_open",
    "already_called",
)


class ProtocolError(ValueError):
    """A client message that cannot be taken; ``code`` is the error code to send."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def client_message(text: str) -> dict:
    """Parse and check one client text frame; raise :class:`ProtocolError` otherwise.

    >>> client_message('{"type": "snap", "seen": 4}')
    {'type': 'snap', 'seen': 4}
    >>> client_message('{"type": "turn", "seat": 2}')  # the table checks whose seat
    {'type': 'turn', 'seat': 2}
    >>> client_message('{"type": "turn", "seat": "2"}')
    Traceback (most recent call last):
    ...
    games.tables.protocol.ProtocolError: not_your_seat
    >>> client_message('{"type": "fly"}')
    Traceback (most recent call last):
    ...
    games.tables.protocol.ProtocolError: unknown_type
    """
    if len(text) > MAX_FRAME_CHARS:
        raise ProtocolError("too_big")
    if nesting_depth(text) > MAX_NESTING:
        raise ProtocolError("bad_json")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message")
    schema = _SCHEMAS.get(data["type"])
    if schema is None:
        raise ProtocolError("unknown_type")
    for key, value in data.items():
        if key == "type":
            continue
        if key == "seat" and data["type"] in MOVES and not schema[key][1](value):
            raise ProtocolError("not_your_seat")  # a seat acts only for itself
        if key not in schema or not schema[key][1](value):
            raise ProtocolError("bad_message")
    if any(required and key not in data for key, (required, _check) in schema.items()):
        raise ProtocolError("bad_message")
    if data["type"] == "join":
        if ("name" in data) == ("players" in data):
            raise ProtocolError("bad_message")
        if "name" in data:
            data["name"] = display_name(data["name"])
        else:
            data["players"] = [
                {"name": display_name(p["name"]), "lang": p.get("lang", "")}
                for p in data["players"]
            ]
    if data["type"] == "pace":
        data.setdefault("turn_timer_ms", None)
    if data["type"] == "pace" and data["turn_timer_ms"] and data["beat_ms"]:
        raise ProtocolError("bad_message")  # a steady beat has no turn timer
    return data


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside
    strings do not count), counted without parsing.

    >>> nesting_depth('{"a": [[1]], "b": "[[["}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> float:
    """``NaN``, ``Infinity`` and ``-Infinity`` are not JSON: refused."""
    raise ValueError(f"not a JSON number: {name}")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent; one too big for a float (``1e309``)
    is refused instead of becoming infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return value


def display_name(text: str) -> str:
    """A display name as typed, checked: trimmed, NFC, 1..24 letters (grapheme clusters)
    and at most 240 bytes, no control, bidi-control or lone surrogate characters (ZWNJ
    and ZWJ, which Indic scripts and emoji need, only between two other characters;
    markup is kept as text and escaped where it is shown).

    >>> display_name("  Ana <b>  ")
    'Ana <b>'
    >>> display_name("ஸ்ரீவித்யா சுப்பிரமணியன்")  # 14 letters, 24 code points
    'ஸ்ரீவித்யா சுப்பிரமணியன்'
    >>> display_name("\\u202eevil")
    Traceback (most recent call last):
    ...
    games.tables.protocol.ProtocolError: bad_name
    """
    name = unicodedata.normalize("NFC", text).strip()
    if not name or graphemes.count(name) > MAX_NAME_CHARS:
        raise ProtocolError("bad_name")
    # Cs: a lone surrogate ("\\ud800") cannot be stored (it is not UTF-8)
    if any(unicodedata.category(ch) == "Cs" for ch in name):
        raise ProtocolError("bad_name")
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise ProtocolError("bad_name")
    for i, ch in enumerate(name):
        if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"):
            continue
        joiner = ch in (graphemes.ZWNJ, graphemes.ZWJ)
        if (
            not joiner
            or not 0 < i < len(name) - 1
            or name[i - 1].isspace()
            or name[i + 1].isspace()
        ):
            raise ProtocolError("bad_name")
    return name
