"""`make test` runs the tests in parallel with pytest-xdist's ``--dist loadgroup``: the
tests of one ``xdist_group`` (those that share something costly, such as the production
stack of tests/deploy) run in one worker. A pytest upgrade once made xdist ignore the
groups without a word (pyproject.toml pins pytest for it); this notices if it happens
again."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.server

GROUPED = """
import os
import pytest

pytestmark = pytest.mark.xdist_group("shared")


@pytest.mark.parametrize("number", range(6))
def test_grouped(number):
    with open(os.environ["WORKERS_FILE"], "a") as out:
        out.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")


@pytest.mark.parametrize("number", range(6))
def test_free(number):
    pass
"""


def test_the_tests_of_a_group_run_in_one_worker(tmp_path: Path):
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    workers = tmp_path / "workers.txt"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "3", "--dist", "loadgroup",
         "-p", "no:cacheprovider", "-p", "no:django", str(tmp_path / "test_grouped.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={"WORKERS_FILE": str(workers), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    ran_in = workers.read_text().split()
    assert len(ran_in) == 6
    assert len(set(ran_in)) == 1, f"one group, several workers: {sorted(set(ran_in))}"
