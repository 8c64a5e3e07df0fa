"""``python -m bench.engine``: the engine's figures, JSON last."""

from __future__ import annotations

import json

from bench import engine
from games.engine import BotLevel, Options, play_bot_game


def test_deep_size_counts_a_live_state_once_with_its_cards():
    assert engine.deep_size((1, 2)) > engine.deep_size(())
    state, _ = play_bot_game(4, 1, BotLevel.QUICK, Options(turn_limit=100))
    assert 0 < engine.deep_size(state) < 20000


def test_the_engine_benchmark_prints_its_figures_json_last(capsys):
    engine.main(["--games", "4"])
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["bench_games"] == 4 and last["actions_per_s"] > 0
    assert last["replay_actions"] == 1000 and last["state_bytes"] > 0
