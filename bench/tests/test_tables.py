"""``manage.py bench_tables`` as README documents it: it starts its own server, plays
tables through the Play page's forms and the protocol, and prints figures with a last
line of JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require
from tests.services.test_production_services import (
    PG_HOST,
    PG_PORT,
    REDIS_HOST,
    REDIS_PORT,
    reachable,
)

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> tuple[list[str], dict]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.test_settings"}
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_tables", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=True,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    return lines, json.loads(lines[-1])


def test_two_site_tables_play_cards_that_reach_every_client_once_in_order():
    lines, result = bench("--tables", "2", "--seconds", "4", "--pace-ms", "400")
    assert lines[0].startswith("site on daphne: 2 tables x 4")
    assert result["kind"] == "site" and result["tables"] == 2
    assert result["samples"] > 0 and result["flip_reveal_p99_ms"] is not None
    assert result["echo_p99_ms"] is not None and result["frames_per_s"] > 0
    assert result["lost"] == result["duplicated"] == result["out_of_order"] == 0
    assert result["server_rss_kb_per_table"] is not None
    assert result["server_rss_kb_per_live_table"] is not None


def test_the_bare_broadcast_on_uvicorn_numbers_cards_for_four_clients():
    _, result = bench("--bare", "--server", "uvicorn", "--tables", "2", "--seconds", "3")
    assert result["kind"] == "bare" and result["server"] == "uvicorn"
    assert result["samples"] > 0 and result["lost"] == 0 and result["errors"] == 0


def test_a_url_off_this_machine_is_refused():
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_tables", "--url", "http://192.0.2.1:8000"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.test_settings"},
    )  # fmt: skip
    assert done.returncode != 0 and "127.0.0.1" in done.stderr


def test_find_max_measures_the_site_and_the_bare_broadcast_at_each_step():
    lines, result = bench(
        "--find-max", "--tables", "1", "--step", "1", "--max-steps", "2", "--seconds", "2"
    )
    assert [row["tables"] for row in result["steps"]][:1] == [1]
    first = result["steps"][0]
    assert {"site", "bare"} <= set(first)  # side by side, the same step
    for kind in ("site", "bare"):
        held_steps = [row["tables"] for row in result["steps"] if row.get(kind, {}).get("held")]
        assert result[f"{kind}_max_tables"] == (max(held_steps) if held_steps else 0)
    assert lines[-2].startswith("most tables held (steps of 1): site ")


def test_the_players_of_a_table_go_to_the_server_processes_in_turn():
    from games.play.bench.runner import Run

    run = Run("http://127.0.0.1:1", tables=2, seconds=1, urls=("A", "B"))
    assert [run.url_for(0, seat) for seat in range(4)] == ["A", "B", "A", "B"]
    assert [run.url_for(1, seat) for seat in range(4)] == ["B", "A", "B", "A"]
    assert Run("http://127.0.0.1:1", tables=1, seconds=1).url_for(0, 3) == "http://127.0.0.1:1"


def bench_databases() -> set[str]:
    import psycopg

    from games.play.bench.databases import PG_ADMIN

    with psycopg.connect(PG_ADMIN) as conn:
        rows = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'snap_bench_%'")
        return {name for (name,) in rows}


@pytest.mark.redis
@pytest.mark.postgres
def test_two_server_processes_share_the_tables_with_nothing_lost_and_drop_their_database(
    tmp_path,
):
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    require(reachable(PG_HOST, PG_PORT), f"PostgreSQL is not running on {PG_HOST}:{PG_PORT}")
    before = bench_databases()
    # A pace past the simulated players' latest call (600 ms after a card): at 400 ms a
    # turn could cross another player's Snap! in flight and be refused (race_open), as a
    # child's would, which is not what this test is about.
    lines, result = bench(
        "--tables", "2", "--seconds", "4", "--pace-ms", "800", "--processes", "2",
        "--server-logs", str(tmp_path),
    )  # fmt: skip
    assert lines[0].startswith("site on daphne x 2 processes: 2 tables x 4")
    assert result["processes"] == 2 and result["samples"] > 0 and result["errors"] == 0
    assert result["lost"] == result["duplicated"] == result["out_of_order"] == 0
    assert bench_databases() == before  # the run's PostgreSQL database is gone
    logs = [(tmp_path / f"server{n}.log").read_text() for n in range(2)]
    assert all("WSCONNECT /ws/play/" in log for log in logs)  # both processes had players
    # no table changed owner: at the start both processes once took a table under the
    # empty name (the layer's channel was not named yet), and one player got no_table
    assert not any("another process owns it now" in log for log in logs)


def test_processes_are_refused_with_a_url():
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_tables", "--url", "http://127.0.0.1:9",
         "--processes", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.test_settings"},
    )  # fmt: skip
    assert done.returncode != 0 and "not with --url" in done.stderr
