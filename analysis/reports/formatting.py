"""Values as a report prints them: percentages with enough digits, 95% intervals, points,
counts, p-values, rule values ("n/a" for a missing number, "unknown" for a missing fact)."""
from __future__ import annotations

import numpy as np

from .. import stats

__all__ = ["UNKNOWN", "pct", "ci", "pts", "num", "p_value", "show"]

UNKNOWN = "unknown"


def _digits(x: float, digits: int) -> int:
    """Enough decimals to show two significant figures of a small percentage (0.033%)."""
    v = abs(100 * float(x))
    if 0 < v < 1:
        return min(4, max(digits, 1 - int(np.floor(np.log10(v)))))
    return digits


def pct(x, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    return f"{100 * float(x):.{_digits(x, digits)}f}%"


def ci(lo, hi, digits: int = 1) -> str:
    if lo is None or not np.isfinite(lo):
        return "n/a"
    d = _digits(hi, digits)
    return f"{100 * float(lo):.{d}f}–{100 * float(hi):.{d}f}%"


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
