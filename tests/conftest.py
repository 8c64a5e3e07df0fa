"""Shared fixtures: loaded content, and the rule for optional components.

On a laptop a test that needs Chromium, Redis or PostgreSQL may skip with a
reason; in CI (CI=true) it must fail instead, so a missing part is noticed.
"""

import os

import pytest
from django.core.management import call_command

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
LANGUAGE_CODES = ("en", "ms", "mr", "he", "ta", "hr")


def require(condition: bool, reason: str) -> None:
    """Skip (laptop) or fail (CI) when a component a test needs is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{reason} (required in CI)")
    pytest.skip(reason)


@pytest.fixture
def content(db):
    call_command("load_content", stdout=open(os.devnull, "w"))


@pytest.fixture(autouse=True)
def fresh_caches():
    """Each test starts with empty caches: a page kept by one test (under a content
    version) must not be served to the next, whose database was rolled back. (The
    default cache is the project's file cache, shared with the servers tests start.)"""
    from django.core.cache import caches

    from games.content.version import forget

    for alias in ("default", "pages"):
        caches[alias].clear()
    forget()
