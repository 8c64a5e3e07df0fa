"""Garbage collection for the served site (called by snapsite/asgi.py once start-up
has imported everything).

A full collection walks every object the process holds, most of them the modules,
templates and translations loaded at start-up that live for ever: issue 18 measured
stalls of up to 113 ms. ``gc.freeze()`` moves those objects out of the collector's
sight, and a larger first threshold makes young collections rarer (each is short).
``GC_FREEZE=0`` leaves Python's defaults.
"""

import gc
import os

#: Allocations (less deallocations) between young collections; Python's default: 700.
#: While 1,000 sockets connected (issue 14, closed sockets leaving no cycle), 50,000 made
#: two young collections of 35-38 ms; 2,000: young ones under 2 ms, but six of the middle
#: generation of 14-20 ms; 700: one full collection of 89 ms (the sockets' live objects
#: promoted sooner). Smaller is not clearly better: left at 50,000.
YOUNG_THRESHOLD = 50_000


def tune() -> None:
    if os.environ.get("GC_FREEZE", "1").strip().lower() in {"0", "false", "no", "off"}:
        return
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    young = int(os.environ.get("GC_YOUNG_THRESHOLD", "") or YOUNG_THRESHOLD)
    gc.set_threshold(young, older, oldest)
