"""Typed rejections, events, views, records, bots and the package's purity."""

from __future__ import annotations

import ast
import random
import re
import sys
from dataclasses import FrozenInstanceError, fields, is_dataclass
from pathlib import Path

import pytest

import games.engine as engine
from games.engine import (
    EVENT_TYPES,
    REJECT_REASONS,
    Bot,
    BotLevel,
    CallSnap,
    CallSnapPot,
    Card,
    CloseRace,
    Game,
    GameState,
    Options,
    Planned,
    Record,
    Rejected,
    TurnCard,
    apply,
    deal,
    final_state,
    full_deck,
    new_game,
    play_bot_game,
    record_start,
    replay,
    start_state,
    view,
)

from .helpers import play, table

ENGINE_DIR = Path(engine.__file__).parent


# -- purity -----------------------------------------------------------------------------


def test_engine_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    offenders = []
    files = sorted(ENGINE_DIR.rglob("*.py"))
    assert files
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative import inside the package
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in allowed and not name.startswith("games.engine"):
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []


def test_engine_reads_no_clock_global_random_or_io():
    banned = re.compile(
        r"\b(time\.time|datetime\.now|random\.(random|randint|shuffle|choice)\(|open\(|print\()"
    )
    for path in ENGINE_DIR.rglob("*.py"):
        assert not banned.search(path.read_text()), path.name


# -- immutability and shapes ------------------------------------------------------------


def test_states_are_immutable_and_the_old_state_stays_valid():
    state = deal(2, full_deck(), 0)
    with pytest.raises(FrozenInstanceError):
        state.to_play = 0  # type: ignore[misc]
    before = (state.face_down, state.face_up, state.seq)
    step = apply(state, TurnCard(1, 0))
    assert (state.face_down, state.face_up, state.seq) == before
    assert step.state is not state and step.state.seq == 1


def test_public_names_are_exported():
    for name in ("Card", "full_deck", "Options", "GameState", "deal", "new_game", "from_piles",
                 "TurnCard", "CallSnap", "CallSnapPot", "CloseRace", "apply", "Step", "view",
                 "TableView", "Record", "replay", "final_state", "Bot", "BotLevel"):  # fmt: skip
        assert hasattr(engine, name)
        assert name in engine.__all__


def test_actions_and_events_are_frozen_slotted_dataclasses():
    for cls in (TurnCard, CallSnap, CallSnapPot, CloseRace, Card, *EVENT_TYPES):
        assert is_dataclass(cls) and hasattr(cls, "__slots__")
        assert cls.__dataclass_params__.frozen


def test_event_codes_are_stable_unique_snake_case():
    codes = [cls.code for cls in EVENT_TYPES]
    assert len(set(codes)) == len(codes)
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", c) for c in codes)
    assert "code" not in {f.name for cls in EVENT_TYPES for f in fields(cls)}
    expected = {"card_turned", "pile_turned_over", "race_opened", "call_joined", "piles_won",
                "tie_to_pot", "wrong_call", "too_late", "player_out", "player_back",
                "game_over", "rejected", "race_cancelled"}  # fmt: skip
    assert set(codes) == expected


def test_event_fields_are_data_not_text():
    state, _ = play_bot_game(4, 3, BotLevel.BEGINNER, Options(turn_limit=200))
    record = _record_of(4, 3)
    for step in replay(record):
        for event in step.events:
            for f in fields(event):
                value = getattr(event, f.name)
                if isinstance(value, str):
                    assert re.fullmatch(r"[a-z_]+", value), (event, f.name)


def _record_of(players: int, seed: int) -> Record:
    return play_bot_game(players, seed, BotLevel.BEGINNER, Options(turn_limit=200))[1]


def test_event_numbering_seq_counts_every_event_except_rejected():
    record = _record_of(3, 11)
    state = start_state(record)
    for step in replay(record):
        if step.rejected:
            assert step.state is state
        else:
            assert step.state.seq == state.seq + len(step.events)
        state = step.state


# -- typed rejections -------------------------------------------------------------------


def _started():
    return deal(3, full_deck(), dealer=2)  # seat 0 plays first


@pytest.mark.parametrize(
    "action, reason",
    [
        (TurnCard(5, 0), "no_such_seat"),
        (TurnCard(-1, 0), "no_such_seat"),
        (CallSnap(3, 0), "no_such_seat"),
        (TurnCard(1, 0), "not_your_turn"),
        (TurnCard(0, -5), "bad_time"),
        (CloseRace(0), "no_race"),
        (CallSnap(0, 0, seen=7), "bad_action"),
        (TurnCard("0", 0), "bad_action"),
        (TurnCard(0, 1.5), "bad_action"),
        (TurnCard(True, 0), "bad_action"),
        (CallSnapPot(0, None), "bad_action"),
        (CloseRace("soon"), "bad_action"),
        ("turn please", "bad_action"),
        (None, "bad_action"),
    ],
)
def test_illegal_actions_are_rejected_with_a_reason_and_change_nothing(action, reason):
    state = _started()
    step = apply(state, action)
    assert len(step.events) == 1 and step.events[0].reason == reason
    assert isinstance(step.events[0], Rejected) and reason in REJECT_REASONS
    assert step.state is state and step.rejected


def test_time_going_backwards_is_rejected():
    state = apply(_started(), TurnCard(0, 100)).state
    assert apply(state, TurnCard(1, 99)).events == (Rejected(1, "bad_time"),)
    assert not apply(state, TurnCard(1, 100)).rejected


def test_rejected_after_game_over():
    state = table(["2S", ""])
    assert state.over and state.winner == 0
    for action in (TurnCard(0, 0), CallSnap(0, 0), CloseRace(0)):
        assert apply(state, action).events[0].reason == "game_over"


def test_close_race_too_early_and_second_call_in_the_race():
    state = table(["2S", "4S 9D", "6S"], ["9C", "", ""], to_play=1)
    state, _ = play(state, TurnCard(1, 0), CallSnap(2, 10))
    assert apply(state, CloseRace(159)).events == (Rejected(None, "too_early"),)
    assert apply(state, CallSnap(2, 20)).events == (Rejected(2, "already_called"),)


def test_a_rejected_action_after_an_expired_race_changes_nothing():
    state = table(["2S", "4S 9D", "6S"], ["9C", "", ""], to_play=1)
    state, _ = play(state, TurnCard(1, 0), CallSnap(2, 10))
    step = apply(state, TurnCard(0, 500))  # seat 2 plays next, not seat 0
    assert step.events == (Rejected(0, "not_your_turn"),) and step.state is state


# -- queries and views ------------------------------------------------------------------


def test_queries_answer_about_any_position():
    state = table(["2S 3S", "4S 9D", ""], ["", "8C", "8D 9C"], pot="KH 8H", to_play=1)
    assert state.whose_turn == 1
    assert state.counts(1).face_down == 2 and state.counts(1).face_up == 1
    assert state.counts(2).total == 2
    assert state.top_face_up(2) == Card.parse("9C") and state.top_face_up(0) is None
    assert state.pot_top == Card.parse("8H")
    assert state.valid_calls().snap_pot == (1,)
    state = apply(state, TurnCard(1, 0)).state
    assert state.valid_calls().snap == (1, 2) and state.valid_calls().snap_pot == ()
    assert not state.is_out(2) and state.card_total() == 9


def test_view_shows_public_facts_and_never_a_face_down_card():
    state = table(["2S 3S", "4S 9D", "5S"], ["", "8C", "9C"], pot="KH", to_play=1)
    state, _ = play(state, TurnCard(1, 0), CallSnap(0, 5))
    v = view(state, 2)
    assert v.me == 2 and v.to_play == 2 and v.race_open and v.race_callers == (0,)
    assert v.face_up_tops == (None, Card.parse("9D"), Card.parse("9C"))
    assert v.pot_count == 1 and v.pot_top == Card.parse("KH") and v.valid.snap == (1, 2)
    face_down = {c for p in state.face_down for c in p}
    for seat in (None, 0, 1, 2):
        assert not face_down & set(view(state, seat).cards())
    with pytest.raises(ValueError):
        view(state, 3)


# -- records and replay -----------------------------------------------------------------


def test_record_of_a_dealt_game_replays_to_the_same_states_and_events():
    rng = random.Random(9)
    game = Game(new_game(4, rng))
    steps = []
    t = 0
    for _ in range(120):
        t += rng.randint(0, 400)
        seat = rng.randrange(4)
        action = rng.choice(
            [TurnCard(game.state.to_play, t), CallSnap(seat, t, game.state.seq),
             CallSnapPot(seat, t), CloseRace(t)]
        )  # fmt: skip
        steps.append(game.play(action))
    record = game.record()
    assert record.deck == game.start.deck and record.dealer is not None
    assert list(replay(record)) == steps
    assert final_state(record) == game.state


def test_record_of_a_from_piles_game_replays():
    start = table(["2S 3S", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1)
    record = record_start(start).with_actions((TurnCard(1, 0), CallSnap(2, 5), CloseRace(155)))
    assert start_state(record) == start
    assert final_state(record) == play(start, *record.actions)[0]


def test_bot_game_records_replay_exactly():
    for seed in range(4):
        state, record = play_bot_game(4, seed, BotLevel.QUICK, Options(turn_limit=300))
        assert final_state(record) == state


# -- bots -------------------------------------------------------------------------------


def test_bot_games_are_deterministic_for_a_seed():
    a = play_bot_game(4, 42, BotLevel.STEADY, Options(turn_limit=300))
    b = play_bot_game(4, 42, BotLevel.STEADY, Options(turn_limit=300))
    assert a == b


def test_bots_use_only_the_players_actions():
    levels = [BotLevel.BEGINNER, BotLevel.STEADY, BotLevel.QUICK]
    _, record = play_bot_game(3, 7, levels, Options(turn_limit=300))
    assert {type(a) for a in record.actions} <= {TurnCard, CallSnap, CallSnapPot, CloseRace}


def _wrong_calls(level: BotLevel) -> tuple[int, int]:
    wrong = calls = 0
    for seed in range(6):
        _, record = play_bot_game(4, seed, level, Options(turn_limit=300))
        for step in replay(record):
            for e in step.events:
                calls += e.code in ("race_opened", "call_joined", "wrong_call", "too_late")
                wrong += e.code == "wrong_call"
    return wrong, calls


def test_beginners_call_wrongly_more_often_than_quick_bots():
    bw, bc = _wrong_calls(BotLevel.BEGINNER)
    qw, qc = _wrong_calls(BotLevel.QUICK)
    assert bw / bc > qw / max(qc, 1)


def test_quick_bots_react_faster_than_beginners():
    state = table(["2S", "3S"], ["5H", "5D"])

    def mean_delay(level):
        delays = []
        for seed in range(60):
            plan = Bot(1, level, random.Random(seed)).react(view(state, 1), 1000)
            if plan is not None and isinstance(plan.action, (CallSnap, CallSnapPot)):
                delays.append(plan.at_ms - 1000)
        return sum(delays) / len(delays)

    assert mean_delay(BotLevel.QUICK) < mean_delay(BotLevel.STEADY) < mean_delay(BotLevel.BEGINNER)
    assert mean_delay(BotLevel.BEGINNER) < mean_delay(BotLevel.GENTLE)


def test_gentle_bots_call_later_than_a_young_child_reacts():
    """A child of six calls 0.6 to 1.3 s after a match: a gentle computer player never
    calls before 1.15 s, mostly from 1.25 s to 1.55 s, and misses about 4 in 10."""
    state = table(["2S", "3S"], ["5H", "5D"])
    delays, missed = [], 0
    for seed in range(400):
        plan = Bot(1, BotLevel.GENTLE, random.Random(seed)).react(view(state, 1), 1000)
        if plan is not None and isinstance(plan.action, (CallSnap, CallSnapPot)):
            delays.append(plan.at_ms - 1000)
        else:
            missed += 1
    assert min(delays) >= 1150
    assert 1300 <= sorted(delays)[len(delays) // 2] <= 1500
    assert 0.3 < missed / 400 < 0.5


def test_bot_plans_a_turn_on_its_turn_and_accepts_a_state():
    state = deal(2, full_deck(), dealer=1)
    plan = Bot(0, BotLevel.STEADY, random.Random(1)).react(state, 500)
    assert isinstance(plan, Planned) and plan.action == TurnCard(0, plan.at_ms)
    assert plan.at_ms >= 500
    assert Bot(1, BotLevel.STEADY, random.Random(1)).react(state, 500) is None


def test_game_state_is_a_dataclass_with_the_documented_fields():
    names = {f.name for f in fields(GameState)}
    assert {"players", "options", "dealer", "face_down", "face_up", "pot", "to_play",
            "last_turned", "race", "seq", "turns", "winner", "over", "draw"} <= names  # fmt: skip


def test_race_is_cancelled_when_a_penalty_took_the_last_card_of_a_matching_pile():
    from games.engine import RaceCancelled, WrongCall

    state = table(["", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 10), CallSnapPot(0, 20))
    assert events[-2:] == [WrongCall(0, "snap_pot", 1, True), kinds_out(0)]
    assert state.race is not None and not state.valid_calls()
    state, events = play(state, CloseRace(160))
    assert events == [RaceCancelled("snap")] and state.race is None
    assert state.card_total() == 5 and not state.over


def kinds_out(seat):
    from games.engine import PlayerOut

    return PlayerOut(seat)
