"""What a benchmark reads of the server processes it measures (Linux ``/proc``): the
resident memory and the CPU time of a process and its children, added up."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterable
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def with_children(pid: int) -> list[int]:
    """``pid`` and its descendants (a gunicorn master's workers), those still alive."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                todo += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
    return found


def rss_kb(pid: int) -> int | None:
    """The resident memory of process ``pid`` in kB, None if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far, None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Processes:
    """A group of server processes measured together: ``pids()`` names them (with
    their children) each time, so a worker that a master restarts is still counted."""

    def __init__(self, pids: Callable[[], Iterable[int]]) -> None:
        self.pids = pids

    def all_pids(self) -> list[int]:
        return [each for pid in self.pids() for each in with_children(pid)]

    def rss_kb(self) -> int | None:
        sizes = [rss_kb(pid) for pid in self.all_pids()]
        return None if not sizes or None in sizes else sum(sizes)

    def cpu_seconds(self) -> float | None:
        seconds = [cpu_seconds(pid) for pid in self.all_pids()]
        return None if not seconds or None in seconds else sum(seconds)


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]
