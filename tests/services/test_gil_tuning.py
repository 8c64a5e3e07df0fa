"""The served site hands the GIL to its database thread sooner (snapsite/gil_tuning.py):
the switch interval is set when snapsite.asgi is imported, and can be left as Python's."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings

SHOW = "import sys, snapsite.asgi; print(sys.getswitchinterval())"


def interval_served_with(**env: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=settings.BASE_DIR, capture_output=True, text=True,
        timeout=120, check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.test_settings", **env},
    )  # fmt: skip
    return float(done.stdout.strip().splitlines()[-1])


def test_the_served_site_switches_threads_every_half_millisecond():
    assert interval_served_with() == 0.0005


def test_the_switch_interval_can_be_set_or_left_as_pythons():
    assert interval_served_with(GIL_SWITCH_INTERVAL_MS="2") == 0.002
    assert interval_served_with(GIL_SWITCH_INTERVAL_MS="0") == 0.005  # Python's default
