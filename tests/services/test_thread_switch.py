"""The served site makes another thread hand the interpreter back to the tables' loop
within 1 ms (snapsite/thread_switch.py; Python's default is 5 ms).

Each check imports ``snapsite.asgi`` in a fresh Python process, as daphne does (the
switch interval is the whole process's, so this test process's says nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from snapsite import thread_switch

ROOT = Path(__file__).resolve().parents[2]


def served_switch_interval(**env: str) -> float:
    """The switch interval of a process that has imported the ASGI application."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, snapsite.asgi; print(sys.getswitchinterval())"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.settings", "DEBUG": "1", **env},
    )  # fmt: skip
    return float(done.stdout.split()[-1])


@pytest.mark.server
def test_the_served_site_switches_threads_every_millisecond():
    assert served_switch_interval() == pytest.approx(0.001)


@pytest.mark.server
def test_the_setting_sets_the_interval_and_zero_leaves_pythons_default():
    assert served_switch_interval(THREAD_SWITCH_INTERVAL_MS="2.5") == pytest.approx(0.0025)
    assert served_switch_interval(THREAD_SWITCH_INTERVAL_MS="0") == pytest.approx(0.005)


def test_install_sets_the_interval_of_this_process():
    before = sys.getswitchinterval()
    try:
        thread_switch.install(3)
        assert sys.getswitchinterval() == pytest.approx(0.003)
        thread_switch.install(0)
        assert sys.getswitchinterval() == pytest.approx(0.003)  # left as it was
    finally:
        sys.setswitchinterval(before)
