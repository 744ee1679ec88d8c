"""Values as a report prints them: percentages with one decimal, 95% intervals, points,
counts, p-values, rule values ("n/a" for a missing number, "unknown" for a missing fact)."""
from __future__ import annotations

import numpy as np

from .. import stats, words

__all__ = ["UNKNOWN", "pct", "ci", "pts", "num", "p_value", "show"]

UNKNOWN = "unknown"


def pct(x, digits: int = 1) -> str:
    """A proportion as a percentage, one decimal like every human-facing output
    (:func:`analysis.words.pct`); "n/a" when missing."""
    return words.pct(x, digits)


def ci(lo, hi, digits: int = 1) -> str:
    """A 95% interval of a proportion, ``34.2–37.1%`` (:func:`analysis.words.pct_ci`)."""
    return words.pct_ci(lo, hi, digits)


def pts(x, digits: int = 1) -> str:
    return stats.points(x, digits)


def num(x, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    x = float(x)
    return f"{int(x):,}" if x == int(x) and abs(x) < 1e15 else f"{x:,.{digits}f}"


def p_value(p: float) -> str:
    return stats._fmt_p(p)


def show(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)
