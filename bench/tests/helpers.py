"""Running a benchmark as its make target does, and what its tests need around it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import require
from tests.snapsite.test_production_services import (
    PG_HOST,
    PG_PORT,
    REDIS_HOST,
    REDIS_PORT,
    reachable,
)

ROOT = Path(__file__).resolve().parents[2]


def env(**extra: str) -> dict[str, str]:
    out = {**os.environ, **extra}
    out.pop("DJANGO_SETTINGS_MODULE", None)
    return out


def run(module: str, *args: str, timeout: float = 600, **extra: str) -> tuple[list[str], dict]:
    """``python -m bench.MODULE ARGS``: its lines and its last line's JSON."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args],
        cwd=ROOT, env=env(**extra), capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    return lines, json.loads(lines[-1])


def refused(module: str, *args: str) -> str:
    """The error of ``python -m bench.MODULE ARGS``, which must refuse them."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args],
        cwd=ROOT, env=env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout
    return done.stderr


def require_stack() -> None:
    """PostgreSQL, Redis and nginx, which the production stack needs."""
    require(reachable(PG_HOST, PG_PORT), f"PostgreSQL is not running on {PG_HOST}:{PG_PORT}")
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    from deploy.stack import nginx_missing

    missing = nginx_missing()
    require(missing is None, missing)


def bench_databases() -> set[str]:
    """The benchmarks' PostgreSQL databases that exist now."""
    import psycopg

    from bench.databases import PG_ADMIN

    with psycopg.connect(PG_ADMIN) as conn:
        rows = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'snap_bench_%'")
        return {name for (name,) in rows}
