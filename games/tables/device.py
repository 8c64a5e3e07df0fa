"""A table on one device: a tablet lying flat, 2 to 4 people around it, one on each
edge, all on one browser session (docs/protocol.md, "A table on one device").

The numbers every part of such a table agrees on; the service (``games.tables``), its
owner and the lobby's and class's forms read them here.
"""

from __future__ import annotations

__all__ = [
    "DEVICE_BEATS",
    "DEVICE_BEAT_MS",
    "DEVICE_COMPUTERS",
    "DEVICE_PEOPLE",
    "DEVICE_SEATS_MAX",
    "TABLETS_MAX",
]

#: The people around one device: from 2 to 4 (one on each edge of the screen) ...
DEVICE_PEOPLE = (2, 4)
#: ... and the most seats one session holds at such a table (people join together).
DEVICE_SEATS_MAX = 4
#: At most this many computer players besides them (a table from the lobby).
DEVICE_COMPUTERS = 2
#: The pace unless the players (or the teacher) change it: the table turns the cards at
#: the slow beat, for young children (ms between two cards).
DEVICE_BEAT_MS = 3000
#: The beats the players at a (non-class) table on one device may switch between:
#: "faster" (the steady beat) and "slower" (the slow one).
DEVICE_BEATS = (1800, 3000)
#: A class opens at most this many tablets' tables at once.
TABLETS_MAX = 8
