"""Numbers and counts in words, one format per kind, for every human-facing line (terminal
tables and messages): ``plural(1, "chunk")`` is ``1 chunk``, ``pct(0.3571)`` is ``35.7%``.

Imports nothing (``playtest --help`` and ``playtest run`` stay quick): the CLI, the analysis
messages and the reports can all use it.
"""
from __future__ import annotations

import math

__all__ = ["plural", "count", "are", "pct", "pct_ci", "points", "half_width", "span",
           "option_value"]

#: Irregular plurals of the words the messages count.
_IRREGULAR = {"policy": "policies", "is": "are", "was": "were", "has": "have", "this": "these",
              "it": "they"}


def plural(n: float, word: str, many: str | None = None) -> str:
    """``word`` in the number ``n`` asks for: ``plural(1, "arm")`` -> ``arm``,
    ``plural(2, "arm")`` -> ``arms``, ``plural(2, "policy")`` -> ``policies``; ``many``
    overrides the plural form."""
    if n == 1:
        return word
    if many is not None:
        return many
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "sh", "ch", "x")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def count(n: float, word: str, many: str | None = None) -> str:
    """The number and the word: ``count(1, "chunk")`` -> ``1 chunk``, ``count(12000, "game")``
    -> ``12,000 games`` (thousands separated)."""
    num = f"{n:,}" if isinstance(n, int) else (f"{n:,.0f}" if float(n).is_integer()
                                               else f"{n:,}")
    return f"{num} {plural(n, word, many)}"


def are(n: float) -> str:
    """``is`` or ``are`` for ``n`` things: ``f"{n} {are(n)} contradicted"``."""
    return plural(n, "is")


def _finite(x) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def pct(x, digits: int = 1) -> str:
    """A proportion as a percentage with one decimal: ``0.3571`` -> ``35.7%`` (``n/a`` when
    missing)."""
    return f"{100 * float(x):.{digits}f}%" if _finite(x) else "n/a"


def pct_ci(lo, hi, digits: int = 1) -> str:
    """A 95% interval of a proportion: ``34.2–37.1%``."""
    if not (_finite(lo) and _finite(hi)):
        return "n/a"
    return f"{100 * float(lo):.{digits}f}–{100 * float(hi):.{digits}f}%"


def points(x, digits: int = 1) -> str:
    """A difference of proportions in signed percentage points: ``0.021`` -> ``+2.1``."""
    return f"{100 * float(x):+.{digits}f}" if _finite(x) else "n/a"


def half_width(x, digits: int = 2) -> str:
    """The half-width of a 95% interval of a proportion, in percentage points:
    ``0.0047`` -> ``±0.47 points`` (two decimals: targets such as ``--precision 0.005`` are a
    fraction of a point)."""
    return f"±{100 * float(x):.{digits}f} points" if _finite(x) else "n/a"


def span(values) -> str:
    """Player counts (or other integers) compactly: ``[2, 3, 4]`` -> ``2-4``, ``[1]`` -> ``1``,
    ``[1, 1]`` -> ``1``, ``[2, 4]`` -> ``2,4``."""
    vs = sorted({int(v) for v in values})
    if not vs:
        return ""
    if len(vs) == 1:
        return str(vs[0])
    if vs == list(range(vs[0], vs[-1] + 1)):
        return f"{vs[0]}-{vs[-1]}"
    return ",".join(map(str, vs))


def option_value(v) -> str:
    """A parameter value as the user writes it on the command line: ``true``, ``3`` (not
    ``3.0``), ``[1, 2]``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(option_value(x) for x in v) + "]"
    if isinstance(v, float) and v == int(v):
        return str(int(v)) if abs(v) < 1e15 else str(v)
    return str(v)
