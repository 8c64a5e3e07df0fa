"""Chromium for the production stack's browser test (the browser tests' own fixture)."""

from tests.browser.conftest import chromium  # noqa: F401
