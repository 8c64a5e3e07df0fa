"""How soon the database thread gets the GIL back from the event loop (called by
snapsite/asgi.py).

Every table's step is stored on Channels' one database thread before it is sent
(games.tables.step_writer), and each call into SQLite or PostgreSQL lets go of the
GIL and must take it back. While the event loop is busy (a burst of handshakes, a
flood being read), taking it back waits for Python's switch interval, 5 ms by default,
at every call of the write: a step of a dozen calls came 50 ms or more late. With a
shorter interval the loop hands the GIL over sooner; it costs nothing while no other
thread waits. ``GIL_SWITCH_INTERVAL_MS`` sets it (0: Python's default).
"""

import os
import sys

#: The switch interval the site runs with (seconds).
SWITCH_INTERVAL_S = 0.0005


def tune() -> None:
    wanted = os.environ.get("GIL_SWITCH_INTERVAL_MS", "").strip()
    interval = float(wanted) / 1000 if wanted else SWITCH_INTERVAL_S
    if interval > 0:
        sys.setswitchinterval(interval)
