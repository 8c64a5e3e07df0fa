"""The content version: a number that changes whenever the rules sections, glossary
entries or start steps change (an admin save or delete, ``load_content``), so that the
cached pages made from them are made again.

It lives in Django's default cache, which every process of the site shares (a file
cache beside the project, or Redis with REDIS_URL: snapsite/settings.py), so an edit
in one process, or ``load_content`` in its own, reaches them all. It is bumped when
the transaction commits, never before: a page made from the old rows cannot be kept
under the new number.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import transaction

KEY = "snap:content-version"


def content_version() -> int:
    """The current version (nanoseconds since 1970 at the last change), made now if
    the cache has none."""
    return version_of(KEY)


def bump(key: str = KEY) -> int:
    version = time.time_ns()
    cache.set(key, version, None)
    return version


def version_of(key: str) -> int:
    """The version under ``key`` in the shared cache (see ``content_version``)."""
    version = cache.get(key)
    return bump(key) if version is None else version


def bump_on_commit(**kwargs) -> None:
    """Signal receiver: the content changed; bump once the change is committed."""
    transaction.on_commit(bump)


def watch_content_models() -> None:
    """Bump on every save and delete of the models the content pages are made from
    (connected by ``games.apps``)."""
    from django.db.models.signals import post_delete, post_save

    from games.models import GlossaryEntry, RulesSection, StartStep

    for model in (RulesSection, GlossaryEntry, StartStep):
        for signal in (post_save, post_delete):
            signal.connect(bump_on_commit, sender=model, dispatch_uid=f"snap-version-{model}")
