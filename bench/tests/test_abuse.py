"""``manage.py bench_abuse`` as README documents it: it starts its own daphne, measures
every phase with a last line of JSON, and never leaves its server running: not when it
ends, not when SIGTERM or SIGINT stops it, not even when it is killed."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from games.play.abuse_bench.stalls import in_window

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "DEBUG": "1"}
ENV.pop("DJANGO_SETTINGS_MODULE", None)


def start(*args: str, **env: str) -> subprocess.Popen:
    """The bench (``env``: added to its environment and its server's)."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "bench_abuse", *args],
        cwd=ROOT, env={**ENV, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def server_pid(bench: subprocess.Popen) -> int:
    """The daphne pid the bench prints first."""
    line = bench.stdout.readline()
    assert line.startswith("daphne pid "), line
    return int(line.split()[2])


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not alive(pid)


def test_a_short_run_measures_every_phase_with_nothing_lost_at_the_good_tables():
    bench = start(
        "--tables", "2", "--phase-seconds", "3", "--idle", "100", "--settle-seconds", "2",
        "--catch-up-turns", "20", WS_HELLO_TIMEOUT_S="1",  # within a phase of 3 s
    )  # fmt: skip
    out, err = bench.communicate(timeout=400)
    assert bench.returncode == 0, err
    lines = out.strip().splitlines()
    pid = int(lines[0].split()[2])
    result = json.loads(lines[-1])
    assert list(result["phases"]) == [
        "alone", "flood", "resync", "never-read", "idle-sockets", "all-at-once", "after",
    ]  # fmt: skip
    assert all(phase["moves"] > 0 for phase in result["phases"].values())
    for phase in result["phases"].values():  # the slowest moves, each with its time of day
        slowest = phase["slowest"]
        assert 0 < len(slowest) <= 8 and [ms for ms, _ in slowest] == sorted(
            ms for ms, _ in slowest
        )
        assert all(time.strptime(at.split(".")[0], "%H:%M:%S") for _, at in slowest)
        assert max(ms for ms, _ in slowest) >= phase["p99_ms"] and phase["client_lag_ms"] >= 0
    assert result["lost"] == {"gaps": 0, "closed": 0, "unanswered": 0}
    assert result["answers"].get("card_turned", 0) > 0 and "" not in result["answers"]
    abuse = result["abuse"]
    assert abuse["flood_closed_4429"] >= 1  # the flooder is closed, and comes back
    assert abuse["resync_frames"] > 0
    assert abuse["idle_closed_4408"] >= 100  # the idle sockets are closed (hello timeout)
    assert result["baseline_mb"] > 0 and result["after_mb"] > 0
    # the server on cores of its own, the clients on the others (2 cores or more)
    assert result["pinned"] == (len(os.sched_getaffinity(0)) >= 2)
    assert ("the server on core(s)" in lines[1]) == result["pinned"]
    assert not alive(pid)


def test_phases_runs_only_the_abuse_named_then_all_at_once_and_refuses_an_unknown_one(tmp_path):
    # (and --server-stalls-ms: at 0.5 ms, 50 handshakes of about 2 ms each make stalls)
    log = tmp_path / "server.log"
    bench = start(
        "--tables", "1", "--phase-seconds", "2", "--idle", "50", "--settle-seconds", "0",
        "--catch-up-turns", "20", "--phases", "flood,idle-sockets",
        "--server-stalls-ms", "0.5", "--server-log", str(log), WS_HELLO_TIMEOUT_S="1",
    )  # fmt: skip
    out, err = bench.communicate(timeout=300)
    assert bench.returncode == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert list(result["phases"]) == ["alone", "flood", "idle-sockets", "all-at-once", "after"]
    assert result["abuse"]["flood_closed_4429"] >= 1 and "resync_frames" not in result["abuse"]

    stalls = [line for line in log.read_text().splitlines() if line.startswith("stall ")]
    assert stalls, "the server reported no stall"
    # each line says how much processor time the loop and the other threads used in it
    cpu = [re.search(r"CPU: loop (-?[\d.]+), other threads (-?[\d.]+)\)", s) for s in stalls]
    assert all(cpu) and any(float(m[1]) > 0 for m in cpu), stalls[:3]
    idle = result["phases"]["idle-sockets"]["server_stalls"]
    assert idle["count"] >= 1 and idle["longest_ms"] > 0.5
    assert all("server_stalls" in phase for phase in result["phases"].values())
    assert "server's stalls over 0.5 ms" in out

    refused = start("--phases", "flood,nap")
    _, err = refused.communicate(timeout=60)
    assert refused.returncode != 0 and "unknown nap" in err and "idle-sockets" in err


def test_a_stall_is_counted_in_the_phase_in_which_it_began():
    log = "\n".join([
        "127.0.0.1:1 - - [05/Dec/2026:12:53:47] \"WSCONNECT /ws/play/X/\" - -",
        "stall 100.5000 12:00:00.500 7.5 ms (callbacks 7.0, 1 over 0.2 ms; select 0.1): 7.0 x",
        "stall 101.0000 12:00:01.000 12.0 ms (callbacks 11.0, 2 over 0.2 ms; select 0.0): y",
        "stall 103.0000 12:00:03.000 30.0 ms (callbacks 0.0, 0 over 0.2 ms; select 30.0): ",
    ])  # fmt: skip
    assert in_window(log, 100.0, 102.0) == {"count": 2, "longest_ms": 12.0}
    assert in_window(log, 102.0, 104.0) == {"count": 1, "longest_ms": 30.0}
    assert in_window(log, 0.0, 100.0) == {"count": 0, "longest_ms": 0.0}


def test_sigterm_stops_the_bench_and_its_server():
    bench = start("--tables", "1", "--catch-up-turns", "400")
    pid = server_pid(bench)
    assert alive(pid)
    bench.send_signal(signal.SIGTERM)
    _, err = bench.communicate(timeout=60)
    assert bench.returncode == 143 and "stopped" in err
    assert gone_within(pid, 5)


def test_sigint_stops_the_bench_and_its_server():
    bench = start("--tables", "1", "--catch-up-turns", "400")
    pid = server_pid(bench)
    bench.send_signal(signal.SIGINT)
    bench.communicate(timeout=60)
    assert bench.returncode == 130
    assert gone_within(pid, 5)


def test_a_killed_bench_takes_its_server_with_it():
    bench = start("--tables", "1", "--catch-up-turns", "400")
    pid = server_pid(bench)
    bench.kill()  # no handler runs: the kernel tells the server (PR_SET_PDEATHSIG)
    bench.communicate(timeout=30)
    assert gone_within(pid, 20)
