"""GC_FREEZE (README, "Settings"): the served site freezes what start-up loaded and what
survives each collection, collects young objects every GC_YOUNG_THRESHOLD allocations,
and makes a full collection of everything every GC_THAW_EVERY_S; GC_FREEZE=0 keeps
Python's defaults. Each case runs in a process of its own (the collector is the
process's)."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings

PROBE = "import gc, snapsite.asgi; print(gc.get_freeze_count() > 0, gc.get_threshold()[0])"

#: Long-lived objects made after start-up (young collections run meanwhile), then one
#: more: what survives is frozen, so the next collection walks only what is newer.
SURVIVORS = """
import gc, snapsite.asgi
frozen_before = gc.get_freeze_count()
kept = [[n] for n in range(20_000)]  # alive across the collections
gc.collect(0)
print(gc.get_freeze_count() - frozen_before >= 20_000, len(gc.get_objects()) < 1_000)
"""

#: A reference cycle alive at a collection (frozen with the survivors), then dropped:
#: only the full collection of everything finds it.
THAW = """
import gc, time, weakref, snapsite.asgi
from snapsite import gc_tuning

class Node:
    pass

a, b = Node(), Node()
a.other, b.other = b, a
gone = weakref.ref(a)
gc.collect(0)  # a and b survive: frozen
del a, b
gc.collect()
left_by_collections = gone() is not None
early = gc_tuning.thaw_if_due(time.monotonic() + 60)  # an hour has not passed
due = gc_tuning.thaw_if_due(time.monotonic() + 3601)
print(left_by_collections, early, due, gone() is None, gc.get_freeze_count() > 0)
"""

#: bench_abuse's probe counts the served site's live objects, frozen ones included.
PROBE_REPORT = """
import gc, snapsite.asgi
from games.play.abuse_bench import probe
counted = probe.report()["objects"]
print(counted > 20_000, gc.get_freeze_count() > 0)
"""


def started_site(probe: str = PROBE, **extra: str) -> list[str]:
    env = {"PATH": os.environ["PATH"], "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "snapsite.settings",
           "DATABASE_URL": "sqlite:///:memory:", **extra}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=settings.BASE_DIR, env=env,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_served_site_freezes_its_start_up_objects_and_collects_young_ones_often():
    assert started_site() == ["True", "2000"]


def test_gc_freeze_0_keeps_pythons_defaults():
    assert started_site(GC_FREEZE="0") == ["False", "700"]


def test_gc_young_threshold_sets_how_often_young_objects_are_collected():
    assert started_site(GC_YOUNG_THRESHOLD="50000") == ["True", "50000"]


def test_what_survives_a_collection_is_not_walked_by_the_next():
    assert started_site(SURVIVORS) == ["True", "True"]


def test_gc_freeze_0_leaves_survivors_to_the_collector():
    assert started_site(SURVIVORS, GC_FREEZE="0") == ["False", "False"]


def test_a_cycle_that_died_frozen_is_freed_by_the_hourly_full_collection():
    # left by the young and full collections; not freed before the hour; freed after,
    # and everything alive frozen again
    assert started_site(THAW) == ["True", "False", "True", "True", "True"]


def test_gc_thaw_every_s_0_never_thaws():
    assert started_site(THAW, GC_THAW_EVERY_S="0")[:3] == ["True", "False", "False"]


def test_bench_abuses_probe_counts_the_frozen_objects_too_and_leaves_them_frozen():
    assert started_site(PROBE_REPORT) == ["True", "True"]
