"""``python -m bench.limits``: the limits check timed over many stored tables, on a
PostgreSQL database it makes and drops, JSON last."""

from __future__ import annotations

from tests.conftest import require

from .helpers import PG_HOST, PG_PORT, reachable, refused, run


def test_the_limits_benchmark_times_the_check_over_the_stored_tables():
    require(reachable(PG_HOST, PG_PORT), f"PostgreSQL is not running on {PG_HOST}:{PG_PORT}")
    lines, result = run("limits", "--stored", "500", "--rounds", "5", timeout=180)
    assert result["stored_tables"] == 559  # 500 finished, 59 open at the school address
    assert result["check_at_school_ms_median"] > 0 and result["check_elsewhere_ms_median"] > 0
    assert any("tables stored: the limits check takes" in line for line in lines)


def test_the_limits_benchmark_refuses_a_size_out_of_range():
    assert "--stored 0 to 1000000" in refused("limits", "--stored", "-1")
