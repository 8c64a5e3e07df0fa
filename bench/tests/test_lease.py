"""``manage.py bench_lease`` as README documents it: stored steps timed with and
without the lease's fence, on a database it makes and drops, JSON last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_lease_times_fenced_and_unfenced_steps_on_sqlite():
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_lease", "--databases", "sqlite", "--steps", "24"],
        cwd=ROOT, capture_output=True, text=True, timeout=180, check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.test_settings"},
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    for kind in ("fenced", "unfenced"):
        assert result["sqlite"][kind]["steps"] == 24
        assert result["sqlite"][kind]["steps_per_s"] > 0
    assert any(line.startswith("sqlite: the fence adds ") for line in lines)


def test_bench_lease_refuses_an_unknown_database():
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_lease", "--databases", "oracle"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.test_settings"},
    )  # fmt: skip
    assert done.returncode != 0 and "sqlite and/or postgres" in done.stderr
