"""Percentiles and rounding for the benchmark's figures."""

from __future__ import annotations

import math


def percentile(samples: list[float], p: float) -> float | None:
    """The ``p``-th percentile (nearest rank) of ``samples``; None when there are none.

    >>> percentile([5, 1, 3, 2, 4], 50)
    3
    >>> percentile([5, 1, 3, 2, 4], 99)
    5
    """
    if not samples:
        return None
    ordered = sorted(samples)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def ms(seconds: float | None) -> float | None:
    """Seconds as milliseconds, to 0.1 ms."""
    return None if seconds is None else round(seconds * 1000, 1)
