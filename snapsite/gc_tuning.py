"""Garbage collection for the served site (called by snapsite/asgi.py once start-up
has imported everything).

The cycle collector stops the whole process while it walks the objects it tracks; the
tables wait. Issue 18 measured full collections of up to 113 ms; with 50,000 young
objects a collection (a wave of 1,000 connections, the set-up of 250 tables) took
27-42 ms, and Python's own thresholds bring middle and full collections that walk every
live socket and table again (15-20 and 90 ms).

So, with ``GC_FREEZE`` on (the default):

- everything start-up loaded is frozen (``gc.freeze()``: the collector no longer walks
  it), and
- so is whatever survives a collection: after each collection the survivors join the
  frozen objects, so every collection walks only the objects made since the last one
  (``GC_YOUNG_THRESHOLD``, 2,000: about 1 ms), never the live sockets and tables again.

A frozen object is still freed by reference counting when its last reference goes (a
closed socket, a finished table: :mod:`snapsite.daphne_cycles`, ``http_cycles`` and the
tests ``tests/tables/test_ws_cycles.py``, ``test_http_cycles.py`` keep them free of
cycles). Only a reference cycle that survived a collection and died later would stay
frozen: every ``GC_THAW_EVERY_S`` (an hour) :func:`thaw_if_due` (called by the regular
memory look, ``games/play/ws_memory.py``) unfreezes everything and makes one full
collection (about 50 ms plus 0.5 ms for each 1,000 live objects), then freezes again.
``GC_FREEZE=0`` leaves Python's defaults.
"""

import gc
import os
import time

#: Allocations (less deallocations) between collections, each walking only those.
#: 2,000: each collection about 1 ms; 50,000 (the default until 2026-12-03) made
#: collections of 27-42 ms while 1,000 sockets connected.
YOUNG_THRESHOLD = 2_000
#: Seconds between full collections of everything, frozen objects included.
THAW_EVERY_S = 3600.0

_state = {"freezing": False, "thawed_at": 0.0, "thaw_every": THAW_EVERY_S}


def tune() -> None:
    """Freeze start-up's objects, and every collection's survivors from now on."""
    if os.environ.get("GC_FREEZE", "1").strip().lower() in {"0", "false", "no", "off"}:
        return
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    young = int(os.environ.get("GC_YOUNG_THRESHOLD", "") or YOUNG_THRESHOLD)
    gc.set_threshold(young, older, oldest)
    _state["thaw_every"] = float(os.environ.get("GC_THAW_EVERY_S", "") or THAW_EVERY_S)
    _state["thawed_at"] = time.monotonic()
    if not _state["freezing"]:
        _state["freezing"] = True
        gc.callbacks.append(_freeze_survivors)


def _freeze_survivors(phase: str, info: dict) -> None:
    # After a collection (its garbage freed), what is left in the generations is alive:
    # frozen, it is not walked again by the next collections.
    if phase == "stop":
        gc.freeze()


def thaw_if_due(now: float | None = None) -> bool:
    """Once ``GC_THAW_EVERY_S`` has passed since the last time: a full collection of
    everything, frozen objects included (cycles that died frozen), then freeze again.
    True if it collected."""
    every = _state["thaw_every"]
    now = time.monotonic() if now is None else now
    if not _state["freezing"] or every <= 0 or now - _state["thawed_at"] < every:
        return False
    gc.unfreeze()
    gc.collect()  # _freeze_survivors freezes what is left
    _state["thawed_at"] = now
    return True
