"""The content version: a number that changes whenever the rules sections, glossary
entries or start steps change (an admin save or delete, ``load_content``), so that the
cached pages made from them are made again.

It lives in Django's default cache, which every process of the site shares (a file
cache beside the project, or Redis with REDIS_URL: snapsite/settings.py), so an edit
in one process, or ``load_content`` in its own, reaches them all. It is bumped when
the transaction commits, never before: a page made from the old rows cannot be kept
under the new number.

Each process keeps the content version it read for :data:`CONTENT_FRESH_S` (reading
the shared cache was a third of a kept page's answer): a change made in this process
shows on the next request, one made in another process within that second.
"""

from __future__ import annotations

import threading
import time

from django.core.cache import caches
from django.db import transaction

KEY = "snap:content-version"
#: How long a process trusts the content version it last read (seconds).
CONTENT_FRESH_S = 1.0

_handles = threading.local()
_remembered: tuple[int, float] | None = None  # (version, read at: monotonic)


def cache_handle(alias: str):
    """This thread's handle on cache ``alias``, made once (``caches[alias]`` makes a new
    one for every request's context: for the file cache, a ``makedirs``; every handle
    of a cache shares its store)."""
    handle = getattr(_handles, alias, None)
    if handle is None:
        handle = caches.create_connection(alias)
        setattr(_handles, alias, handle)
    return handle


def shared_cache():
    """This thread's handle on the default cache, which every process shares."""
    return cache_handle("default")


def content_version() -> int:
    """The current version (nanoseconds since 1970 at the last change), made now if
    the cache has none; as read at most :data:`CONTENT_FRESH_S` ago."""
    global _remembered
    remembered, now = _remembered, time.monotonic()
    if remembered is not None and now - remembered[1] < CONTENT_FRESH_S:
        return remembered[0]
    version = version_of(KEY)
    _remembered = (version, now)
    return version


def forget() -> None:
    """Read the content version anew at the next request (the cache was cleared)."""
    global _remembered
    _remembered = None


def bump(key: str = KEY) -> int:
    global _remembered
    version = time.time_ns()
    shared_cache().set(key, version, None)
    if key == KEY:
        _remembered = (version, time.monotonic())
    return version


def version_of(key: str) -> int:
    """The version under ``key`` in the shared cache (see ``content_version``)."""
    version = shared_cache().get(key)
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
