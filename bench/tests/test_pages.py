"""``manage.py bench_pages`` as README documents it: each page in each language timed
against the bare view on a server it starts, JSON last."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings


def test_bench_pages_times_every_page_in_both_languages_against_the_bare_view():
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_pages", "--seconds", "0.5", "--clients", "2",
         "--languages", "en,ta"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=300, check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "snapsite.test_settings"},
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    assert lines[0].startswith("bare view:") and result["bare_rps"] > 0 and result["rounds"] == 3
    names = {"home", "rules", "glossary", "start", "learn", "walkthrough", "play", "replay"}
    assert set(result["pages"]) == {f"{n}/{lang}" for n in names for lang in ("en", "ta")}
    for key, page in result["pages"].items():
        assert page["rps"] > 0 and page["bare_rps"] > 0 and page["ratio"] > 0, key
        assert not page["errors"], key
        assert set(page["statuses"]) == {"200"}, key
        assert set(page["revisit_statuses"]) == {"304"}, key  # every page is kept
