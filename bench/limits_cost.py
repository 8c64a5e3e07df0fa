"""The worker of :mod:`bench.limits`, run with ``DATABASE_URL`` set to a fresh, migrated
database: stores ``STORED`` finished tables of many openers and one school address's
open tables, then times the limits check of a new child at that address and of a new
address; prints one line of JSON."""

from __future__ import annotations

import json
import os
import statistics
import sys
import time


def main(stored: int, rounds: int) -> dict:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapsite.settings")
    django.setup()
    from games.models import Table
    from games.tables.closing import wall_ms
    from games.tables.limits import TooManyTables, tables_check

    now = wall_ms()
    school = "10.9.9.9"
    rows = [
        Table(
            code=f"B{i:09d}", players=2, deck=[], epoch_ms=now,
            opener_key=f"s{i % 20_000:039d}", opener_address=f"10.{i % 200}.{i % 250}.1",
            open_until=0,  # finished or closed: counts for no limit
        )
        for i in range(stored)
    ]  # fmt: skip
    rows += [
        Table(
            code=f"O{i:09d}", players=2, deck=[], epoch_ms=now,
            opener_key=f"c{i:039d}", opener_address=school, open_until=now + 600_000,
        )
        for i in range(59)
    ]  # fmt: skip
    started = time.perf_counter()
    Table.objects.bulk_create(rows, batch_size=5000)
    stored_s = time.perf_counter() - started

    def timed(session_key: str, address: str) -> float:
        started = time.perf_counter()
        try:
            tables_check(session_key=session_key, address=address)
        except TooManyTables:
            pass
        return (time.perf_counter() - started) * 1000

    school_ms = [timed(f"n{i:039d}", school) for i in range(rounds)]
    elsewhere_ms = [timed(f"m{i:039d}", "10.8.8.8") for i in range(rounds)]
    return {
        "stored_tables": Table.objects.count(),
        "stored_s": round(stored_s, 1),
        "check_at_school_ms_median": round(statistics.median(school_ms), 2),
        "check_at_school_ms_max": round(max(school_ms), 2),
        "check_elsewhere_ms_median": round(statistics.median(elsewhere_ms), 2),
        "check_elsewhere_ms_max": round(max(elsewhere_ms), 2),
        "rounds": rounds,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
