"""The moments of a recorded game worth teaching, found in the engine's events."""

from __future__ import annotations

from games.engine import DEFAULT_OPTIONS, play_bot_game
from games.engine.events import PilesWon, RaceOpened, TieToPot, WrongCall
from games.frames.steps import record_steps
from games.replay.moments import find_moments, moment_label
from games.replay.sample import LEVELS


def steps_of(players: int, seed: int):
    _end, record = play_bot_game(players, seed, list(LEVELS[:players]), DEFAULT_OPTIONS)
    return record_steps(record)[1]


def test_each_race_wrong_call_and_blocked_pot_is_a_moment_where_it_happens():
    for seed in range(1, 8):
        steps = steps_of(4, seed)
        found = find_moments(steps)
        opened = [s.number for s in steps if any(isinstance(e, RaceOpened) for e in s.events)]
        ended = [e for s in steps for e in s.events if isinstance(e, PilesWon | TieToPot)]
        races = [m for m in found if m.kind in ("race", "pot_won", "tie")]
        assert len(races) == len(ended)
        assert {m.step for m in races} <= set(opened)
        assert [m.kind == "tie" for m in races] == [isinstance(e, TieToPot) for e in ended]
        assert [m.kind == "pot_won" for m in races] == [
            isinstance(e, PilesWon) and e.with_pot for e in ended
        ]
        wrong = [s.number for s in steps for e in s.events if isinstance(e, WrongCall)]
        assert [m.step for m in found if m.kind == "wrong_call"] == wrong
        blocked = [s.number for s in steps if s.state.pot_blocked and not s.before.pot_blocked]
        assert [m.step for m in found if m.kind == "pot_blocked"] == blocked
        assert [m.step for m in found] == sorted(m.step for m in found)


def test_a_moment_is_told_with_its_step_as_the_player_counts_and_the_names_isolated():
    steps = steps_of(3, 2)
    race = next(m for m in find_moments(steps) if m.kind == "race")
    label = moment_label(race, ["Noa", "Sam", "Ravi"])
    assert label.startswith(f"Step {race.step + 1}: ")
    assert f"\u2068{['Noa', 'Sam', 'Ravi'][race.seats[0]]}\u2069 wins a race" in label
