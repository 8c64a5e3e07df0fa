"""``python -m bench.lease``: stored steps timed with and without the lease's fence, on a
database it makes and drops, JSON last."""

from __future__ import annotations

from .helpers import refused, run


def test_the_lease_benchmark_times_fenced_and_unfenced_steps_on_sqlite():
    lines, result = run("lease", "--databases", "sqlite", "--steps", "24", timeout=180)
    for kind in ("fenced", "unfenced"):
        assert result["sqlite"][kind]["steps"] == 24
        assert result["sqlite"][kind]["steps_per_s"] > 0
    assert any(line.startswith("sqlite: the fence adds ") for line in lines)


def test_the_lease_benchmark_refuses_an_unknown_database():
    assert "sqlite and/or postgres" in refused("lease", "--databases", "oracle")
