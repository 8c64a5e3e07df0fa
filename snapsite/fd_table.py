"""The server's table of open files made large once, at start (issue 14, "idle sockets").

Linux keeps a process's open files in a table that starts with 64 slots and doubles when
a new file (a socket) needs one more. When the process has more than one thread (the
server has: the database's, the executor's), the doubling waits for every core to pass
a quiescent point (``synchronize_rcu``) before the old table may be freed: 5-25 ms on
the benchmark's machine, inside the ``accept()`` of the 256th, 512th, 1,024th... socket,
with the one loop of every table waiting on it. bench_abuse's idle phase (1,000 sockets
opened) showed exactly these stalls, 8-23 ms each, whatever the server did in Python
(a process with one thread doubles at once, which is why a plain test never sees it).

:func:`reserve` makes the table large enough for ``slots`` files at start, by giving a
copy of an open file the highest number wanted and closing it: the table grows once,
and never shrinks. A slot costs about 8 bytes (65,536: half a megabyte). The files the
process may open are still bounded by its limit (``ulimit -n``), not by this.
"""

from __future__ import annotations

import logging
import os
import resource

__all__ = ["reserve", "slots_wanted"]

log = logging.getLogger(__name__)


def slots_wanted(setting: int) -> int:
    """The slots to reserve: ``setting``, but never past the process's own limit of open
    files (a number at or above it cannot be used); 0: none."""
    if setting <= 0:
        return 0
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY:
        setting = min(setting, soft)
    return setting


def reserve(slots: int) -> int:
    """Grow this process's table of open files to hold ``slots`` files (see the module's
    text); the number reserved (0 if none, or if the system refused)."""
    slots = slots_wanted(slots)
    if slots <= 0:
        return 0
    try:
        os.fstat(slots - 1)
        return slots  # a file has that number already: the table is that large
    except OSError:
        pass  # free, as expected (dup2 would close a file that had it)
    try:
        os.dup2(0, slots - 1, inheritable=False)
    except OSError:
        # no standard input to copy: any file will do
        try:
            with open(os.devnull, "rb") as null:
                os.dup2(null.fileno(), slots - 1, inheritable=False)
        except OSError as error:
            log.warning("could not reserve %d open-file slots: %s", slots, error)
            return 0
    os.close(slots - 1)
    return slots
