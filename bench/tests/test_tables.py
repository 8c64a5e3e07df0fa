"""``python -m bench.tables``: tables played through the production stack, beside the
bare broadcast under uvicorn alone, with figures and a last line of JSON."""

from __future__ import annotations

import pytest

from bench.tables.__main__ import parse
from bench.tables.runner import household

from .helpers import bench_databases, refused, require_stack, run


@pytest.mark.server
@pytest.mark.postgres
@pytest.mark.redis
def test_find_max_plays_the_stack_and_the_bare_broadcast_side_by_side_with_nothing_lost():
    require_stack()
    before = bench_databases()
    # a pace past the simulated players' latest call (600 ms after a card), so that no
    # turn crosses a call in flight
    lines, result = run(
        "tables", "--find-max", "--tables", "2", "--max-steps", "1", "--seconds", "3",
        "--pace-ms", "800",
    )  # fmt: skip
    assert lines[0].startswith("site on stack x 1 table processes: 2 tables x 4")
    assert lines[1].startswith("bare on uvicorn alone: 2 tables x 4")
    assert set(result["steps"][0]) == {"tables", "site x1", "bare"}
    assert all(result["steps"][0][name]["tables_per_core"] > 0 for name in ("site x1", "bare"))
    for name, best in result["best"].items():
        if best is None:  # not held on a busy machine: still measured, side by side
            continue
        assert best["samples"] > 0 and best["errors"] == 0, name
        assert best["lost"] == best["duplicated"] == best["out_of_order"] == 0, name
    assert result["max_tables"].keys() == {"site x1", "bare"}
    assert lines[-2].startswith("most tables within p99 100 ms (steps of 2): site x1 ")
    assert bench_databases() == before  # the run's PostgreSQL database is gone


def test_a_table_s_players_share_an_address_and_tables_do_not():
    assert household(0) == household(0) != household(1)
    assert len({household(i) for i in range(1000)}) == 1000


def test_more_stacks_than_redis_databases_and_bad_sizes_are_refused():
    assert "2 stacks at most" in refused("tables", "--table-processes", "1,2,3")
    assert "--table-processes" in refused("tables", "--table-processes", "9")
    assert "--tables 1 to 1000" in refused("tables", "--tables", "0")


def test_several_table_process_counts_are_measured_each():
    assert parse(["--table-processes", "2,1"]).table_processes == [1, 2]
