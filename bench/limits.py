"""``python -m bench.limits``: what the check of open tables' limits costs a person
opening a table when the database holds many tables.

Makes a fresh PostgreSQL database on 127.0.0.1 (as the tests use it), migrates it,
stores ``--stored`` finished tables of 20,000 sessions and 50,000 addresses and a school
address with 59 open tables, then times the check (:func:`games.tables.limits.
tables_check`) ``--rounds`` times for a new child at the school and for a new address
(:mod:`bench.limits_cost`); prints a line, then one line of JSON. The database is
dropped afterwards."""

from __future__ import annotations

import argparse
import json

from .databases import database, worker_result
from .procs import load_average
from .servers import ROOT


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.limits", description=__doc__)
    parser.add_argument("--stored", type=int, default=100_000, help="tables stored (0 to 1e6)")
    parser.add_argument("--rounds", type=int, default=200, help="checks timed (1 to 10,000)")
    args = parser.parse_args(argv)
    if not 0 <= args.stored <= 1_000_000 or not 1 <= args.rounds <= 10_000:
        parser.error("--stored 0 to 1000000, --rounds 1 to 10000")
    before = load_average()
    with database("postgres") as url:
        result = worker_result(url, ROOT, "bench.limits_cost", str(args.stored), str(args.rounds))
    result["load_average"] = {"before": before, "after": load_average()}
    print(
        f"{result['stored_tables']:,} tables stored: the limits check takes "
        f"{result['check_at_school_ms_median']} ms (median; max "
        f"{result['check_at_school_ms_max']}) at an address with 59 open tables, "
        f"{result['check_elsewhere_ms_median']} ms (max {result['check_elsewhere_ms_max']}) "
        f"elsewhere; load {before} -> {result['load_average']['after']}",
        flush=True,
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
