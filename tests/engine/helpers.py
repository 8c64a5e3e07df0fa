"""Small helpers for building positions in the engine tests."""

from __future__ import annotations

from games.engine import Card, GameState, Options, apply, from_piles


def cards(text: str) -> tuple[Card, ...]:
    """``"2S 3S"`` -> the cards, listed bottom to top."""
    return tuple(Card.parse(c) for c in text.split())


def codes(pile) -> str:
    return " ".join(c.code for c in pile)


def table(
    face_down: list[str],
    face_up: list[str] | None = None,
    pot: str = "",
    to_play: int = 0,
    last_turned: int | None = None,
    **options,
) -> GameState:
    """A position from pile strings (each bottom to top); ``last_turned`` None lets
    :func:`from_piles` name the player on the right of the player to play (R20 D)."""
    return from_piles(
        [cards(p) for p in face_down],
        [cards(p) for p in face_up] if face_up is not None else None,
        cards(pot),
        to_play,
        Options(**options),
        last_turned=last_turned,
    )


def play(state: GameState, *actions):
    """Apply actions in order; return the final state and all events."""
    events = []
    for action in actions:
        step = apply(state, action)
        state = step.state
        events.extend(step.events)
    return state, events


def kinds(events) -> list[str]:
    return [e.code for e in events]
