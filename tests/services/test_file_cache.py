"""The shared file cache of `make run` (snapsite/file_cache.py) looks at its whole
directory once in CULL_EVERY sets, not at every set, and still culls."""

from __future__ import annotations

from snapsite.file_cache import CULL_EVERY, SharedFileCache


def test_the_shared_file_cache_lists_its_directory_once_in_a_hundred_sets(tmp_path, monkeypatch):
    cache = SharedFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 50}})
    listed = []
    real = cache._list_cache_files
    monkeypatch.setattr(cache, "_list_cache_files", lambda: listed.append(1) or real())
    for number in range(2 * CULL_EVERY):
        cache.set(f"version:{number}", number, None)
    assert len(listed) == 2  # Django's file cache: at each of the 200 sets
    assert len(real()) < 2 * CULL_EVERY  # culled all the same, past its 50 entries
    assert cache.get(f"version:{2 * CULL_EVERY - 1}") in (None, 2 * CULL_EVERY - 1)
