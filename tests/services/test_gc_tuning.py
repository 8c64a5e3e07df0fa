"""GC_FREEZE (README, "Settings"): the served site freezes what start-up loaded and
collects young objects less often, unless GC_FREEZE=0."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings

PROBE = "import gc, snapsite.asgi; print(gc.get_freeze_count() > 0, gc.get_threshold()[0])"


def started_site(**extra: str) -> list[str]:
    env = {"PATH": os.environ["PATH"], "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "snapsite.settings",
           "DATABASE_URL": "sqlite:///:memory:", **extra}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=settings.BASE_DIR, env=env,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_served_site_freezes_its_start_up_objects_and_collects_less_often():
    assert started_site() == ["True", "50000"]


def test_gc_freeze_0_keeps_pythons_defaults():
    assert started_site(GC_FREEZE="0") == ["False", "700"]


def test_gc_young_threshold_sets_how_often_young_objects_are_collected():
    assert started_site(GC_YOUNG_THRESHOLD="2000") == ["True", "2000"]
