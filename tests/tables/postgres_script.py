"""Run a Python script against a fresh PostgreSQL database, migrated first, in a process
of its own; its last line of output is JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_on_postgres(script: str, database_url: str) -> dict:
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": database_url, "REDIS_URL": ""}
    env["DJANGO_SETTINGS_MODULE"] = "snapsite.settings"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, check=True, timeout=120,
    )  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
