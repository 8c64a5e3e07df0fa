"""The shared cache of `make run` without Redis: Django's file cache, which lists its
whole directory at every ``set`` to see whether to cull. The tables' version numbers
(games/tables/changes.py: one per table, bumped when a seat is taken) made that a fifth
of the server's time while 250 tables filled their seats (py-spy). Here the directory
is looked at every :data:`CULL_EVERY` sets only (culling drops version numbers at
random, as before: a dropped one is made anew, later than any before it, so a kept page
is only made again)."""

from __future__ import annotations

import itertools

from django.core.cache.backends.filebased import FileBasedCache

__all__ = ["CULL_EVERY", "SharedFileCache"]

CULL_EVERY = 100


class SharedFileCache(FileBasedCache):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._sets = itertools.count(1)

    def _cull(self) -> None:
        if next(self._sets) % CULL_EVERY == 0:
            super()._cull()
