"""Memory is given back once after a wave of WebSocket closes (games/play/ws_memory.py),
not after a few closes, and not once per close."""

from __future__ import annotations

import asyncio
import gc

from games.play import ws_memory
from games.play.ws_memory import ConnectionCount, release_freed_memory
from tests.own_loop import run_in_own_loop as run


def test_a_wave_of_closes_gives_memory_back_once_when_the_closing_is_quiet(monkeypatch):
    monkeypatch.setattr(ws_memory, "QUIET_S", 0.05)
    released = []

    async def wave():
        count = ConnectionCount(release=lambda collect: released.append(count.open))
        loop = asyncio.get_running_loop()
        for _ in range(300):
            count.opened()
        for _ in range(ws_memory.RELEASE_AFTER_CLOSED - 1):
            count.closed(loop)
        await asyncio.sleep(0.1)
        assert released == []  # not yet a wave
        for _ in range(50):
            count.closed(loop)
            await asyncio.sleep(0.01)  # closes closer together than QUIET_S
        assert released == []
        await asyncio.sleep(0.1)
        assert released == [300 - ws_memory.RELEASE_AFTER_CLOSED - 49]  # once, at the end
        for _ in range(40):
            count.closed(loop)
        await asyncio.sleep(0.1)
        assert len(released) == 1  # 40 more closes are no new wave
        return count

    assert run(wave()).releases == 1


def test_a_long_wave_is_released_after_the_longest_wait(monkeypatch):
    monkeypatch.setattr(ws_memory, "QUIET_S", 0.05)
    monkeypatch.setattr(ws_memory, "MAX_WAIT_S", 0.2)
    released = []

    async def wave():
        count = ConnectionCount(release=lambda collect: released.append(1))
        loop = asyncio.get_running_loop()
        for _ in range(1000):
            count.opened()
        for _ in range(600):
            count.closed(loop)
            await asyncio.sleep(0.001)  # never quiet for QUIET_S
        assert released  # but released within MAX_WAIT_S of the 200th close

    run(wave())


def test_releasing_freed_memory_gives_back_what_a_freed_heap_held():
    garbage = [bytearray(1000) for _ in range(50_000)]  # about 50 MB from malloc's heap
    keeper = bytearray(1000)  # above them: the heap cannot just shrink from its top
    del garbage
    assert release_freed_memory() > 20_000  # kB
    assert len(keeper) == 1000


def test_a_wave_released_while_many_are_still_open_is_collected_only_once_they_close(
    monkeypatch,
):
    monkeypatch.setattr(ws_memory, "QUIET_S", 0.01)
    collections = []
    monkeypatch.setattr(gc, "collect", lambda *a: collections.append(a) or 0)

    async def waves():
        count = ConnectionCount()
        loop = asyncio.get_running_loop()
        for _ in range(1200):
            count.opened()
        for _ in range(250):  # 950 still open: a collection would walk them all
            count.closed(loop)
        await asyncio.sleep(0.05)
        assert (count.releases, collections) == (1, [])
        for _ in range(900):  # 50 open
            count.closed(loop)
        await asyncio.sleep(0.05)
        assert (count.releases, len(collections)) == (2, 1)

    run(waves())


def test_memory_kept_free_by_malloc_is_given_back_once_the_process_has_grown():
    from games.play.ws_memory import _rss_kb, heap_info, trim_if_grown

    if heap_info() is None:
        return  # not glibc: nothing to give back
    garbage = [bytearray(1000) for _ in range(50_000)]
    keeper = bytearray(1000)
    del garbage
    assert heap_info().fordblks > 16 * 2**20  # kept free by glibc
    assert trim_if_grown(since_kb=_rss_kb()) is None  # not grown since
    before = _rss_kb()
    after = trim_if_grown(since_kb=0)
    assert after is not None and before - after > 20_000  # kB
    assert len(keeper) == 1000
