"""The systemd units of deploy/systemd/ run the commands the local stack runs
(deploy/processes.py), so that what the tests and benchmarks measure is what a server
runs."""

from __future__ import annotations

import shlex

import pytest

from deploy.processes import page_worker_command, table_process_command
from tests.servers import ROOT

UNITS = ROOT / "deploy" / "systemd"


def exec_start(unit: str, port: int) -> list[str]:
    """The unit's command for instance ``port`` (``%i``), its continuation lines joined."""
    text = (UNITS / unit).read_text().replace("\\\n", " ")
    (line,) = [line for line in text.splitlines() if line.startswith("ExecStart=")]
    return shlex.split(line.removeprefix("ExecStart=").replace("%i", str(port)))


@pytest.mark.parametrize(
    ("unit", "command"),
    [("snap-table@.service", table_process_command), ("snap-page@.service", page_worker_command)],
)
def test_each_unit_runs_the_command_the_local_stack_runs(unit, command):
    unit_command = exec_start(unit, 8101)
    assert unit_command[0] == "/srv/snap/venv/bin/python"
    assert unit_command[1:] == command(8101)[1:]  # the same arguments after the interpreter
