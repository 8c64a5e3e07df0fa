"""The server's table of open files is grown once at start (snapsite/fd_table.py), so
that a socket accepted later never waits for the table to double (in a process with
threads, Linux then waits for every core: 5-25 ms with every table's loop held).

Each check runs in a fresh Python process (the table only grows, so this test
process's own size says nothing) and reads the table's size from Linux
(``FDSize`` in /proc/PID/status)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="reads the table's size from Linux's /proc"
)


def fd_size(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("FDSize:"):
            return int(line.split()[1])
    raise AssertionError("no FDSize")


def run(script: str) -> list[str]:
    """``script`` run by a fresh Python in the project; its printed lines."""
    prelude = textwrap.dedent(
        """
        import os, resource, socket, threading
        from snapsite import fd_table

        def fd_size():
            for line in open("/proc/self/status"):
                if line.startswith("FDSize:"):
                    return int(line.split()[1])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_reserving_grows_the_table_once_and_leaves_no_file_open():
    before, reserved, after, free = run(
        """
        before = fd_size()
        reserved = fd_table.reserve(4096)
        try:
            os.fstat(4095)
            free = "open"
        except OSError:
            free = "free"
        print(before, reserved, fd_size(), free)
        """
    )
    assert int(before) < 4096
    assert int(reserved) == 4096
    assert int(after) >= 4096
    assert free == "free"  # the number used to grow it was closed again


@pytest.mark.parametrize("reserve", [False, True], ids=["as-linux-grows-it", "reserved"])
def test_sockets_opened_after_the_reserve_never_grow_the_table_of_a_threaded_process(reserve):
    (grown,) = run(
        f"""
        # a thread alive, as in the server (where growing waits for every core)
        stop = threading.Event()
        threading.Thread(target=stop.wait, daemon=True).start()
        if {reserve}:
            fd_table.reserve(2048)
        before = fd_size()
        opened = [socket.socket() for _ in range(600)]
        print(fd_size() > before)
        stop.set()
        """
    )
    # without the reserve the check can tell: 600 sockets do grow it
    assert grown == ("False" if reserve else "True")


def test_the_reserve_stays_under_the_process_limit_of_open_files():
    reserved, size = run(
        """
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (1000, hard))
        print(fd_table.reserve(65536), fd_size())
        """
    )
    assert int(reserved) == 1000
    assert int(size) >= 1000


def test_a_file_that_already_has_the_highest_number_is_left_open():
    reserved, still_open = run(
        """
        r, w = os.pipe()
        os.dup2(w, 999)
        reserved = fd_table.reserve(1000)
        os.write(999, b"x")
        print(reserved, os.read(r, 1) == b"x")
        """
    )
    assert (reserved, still_open) == ("1000", "True")


def test_zero_reserves_nothing():
    reserved, size = run(
        """
        before = fd_size()
        print(fd_table.reserve(0), fd_size() == before)
        """
    )
    assert (reserved, size) == ("0", "True")


def test_the_served_site_starts_with_its_table_grown(tmp_path):
    """daphne serving snapsite.asgi: the table holds FD_TABLE_SLOTS files (at most the
    process's limit) before any socket comes."""
    from tests.tables.test_table_daphne_restart import (
        CREATE,
        free_port,
        site_with_table,
        start_daphne,
    )

    env, _code = site_with_table(tmp_path, CREATE, FD_TABLE_SLOTS="3000")
    port = free_port()
    with open(tmp_path / "daphne.log", "w") as log:
        server = start_daphne(env, port, log)
        try:
            assert fd_size(server.pid) >= 3000
        finally:
            server.terminate()
            server.wait(timeout=10)
