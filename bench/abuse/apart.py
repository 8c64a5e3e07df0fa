"""The abusers of one phase, run in a process of their own.

An attacker is not in the good players' browsers: run in the benchmark's own event
loop, the abusers' client work (a flooder writing as fast as its socket takes frames,
50 handshakes at a time, 100 MB of catch-up parsed) delayed the loop that times the
good tables, and the client's delay was counted as the server's. Here they share only
the machine's cores with it.

``python -m bench.abuse.apart PORT CODE SECONDS IDLE NAME...`` runs the named
abusers (:data:`ABUSERS`) against ``127.0.0.1:PORT``, prints ``started`` once they run,
stops them after ``SECONDS`` and prints their counts as one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from . import abusers

#: Where ``python -m bench…`` finds the package.
PROJECT = Path(__file__).resolve().parents[2]

#: The abusers by name, each made from the port, a finished table's code, the counts
#: and the number of idle sockets.
ABUSERS = {
    "flood": lambda port, code, counts, idle: abusers.flooder(port, code, counts),
    "resync": lambda port, code, counts, idle: abusers.resyncer(port, code, counts),
    "never-read": lambda port, code, counts, idle: abusers.sleeper(port, code, counts),
    "idle-sockets": lambda port, code, counts, idle: abusers.idle_sockets(port, code, counts, idle),
}


async def run_apart(
    port: int, code: str, seconds: float, idle: int, names: list[str], started: asyncio.Event
) -> abusers.Counts:
    """The named abusers in a child process for ``seconds`` (``started`` is set once
    they run); their counts, once they are stopped."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        __name__,
        str(port),
        code,
        str(seconds),
        str(idle),
        *names,
        stdout=asyncio.subprocess.PIPE,
        cwd=PROJECT,
        preexec_fn=_lowest_priority,
    )
    try:
        line = await child.stdout.readline()
        if line.strip() != b"started":
            raise RuntimeError(f"the abusers did not start: {line!r}")
        started.set()
        counts = json.loads(await child.stdout.readline() or b"{}")
        await child.wait()
        return abusers.Counts(counts)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()


def _lowest_priority() -> None:
    """In the abusers' process before it starts: the good players' client, on the same
    cores, goes first whenever it has work (in life it is on a machine of its own)."""
    os.nice(19)


async def _abuse(port: int, code: str, seconds: float, idle: int, names: list[str]) -> None:
    counts = abusers.Counts()
    tasks = [asyncio.ensure_future(ABUSERS[n](port, code, counts, idle)) for n in names]
    print("started", flush=True)
    await asyncio.sleep(seconds)
    await abusers.stop(tasks)
    print(json.dumps(counts), flush=True)


if __name__ == "__main__":
    port, code, seconds, idle, *names = sys.argv[1:]
    unknown = [n for n in names if n not in ABUSERS]
    if unknown or not names:
        sys.exit(f"abusers: one or more of {sorted(ABUSERS)}, not {unknown or names}")
    asyncio.run(_abuse(int(port), code, float(seconds), int(idle), names))
