"""Chart hygiene, checked on the rendered figure: what a reader would trip over.

:func:`defects` lists, for one matplotlib figure,

* **duplicate tick labels** on one axis ("0%, 0%, 1%, 1%": a formatter with too few decimals
  for the tick step, so 0.5% reads as 0%);
* **empty legends** (a legend box without an entry);
* **overlapping text** (titles, axis labels, tick labels, legend entries, annotations): the
  bounding boxes of the drawn texts, from the figure's renderer, intersect;
* **fractional ticks on an integer axis** (every data position along x is a whole number, at
  least two distinct ones, e.g. player counts, a rule value or rounds, yet a tick reads "2.5");
* **indistinguishable legend entries** (two entries of one legend drawn with the same colour,
  line style and marker, e.g. two policies in one colour).

The reports' tests run it on every chart of every report kind and the notebook tests on every
chart a notebook displays; it needs only matplotlib (the figure is drawn with Agg if it has no
canvas that can render).
"""
from __future__ import annotations

import itertools
import math
import re

import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text

__all__ = ["defects"]

_NUMBER = re.compile(r"^[−\-+]?\d[\d,]*(\.\d+)?$")


def _renderer(fig: Figure):
    try:
        return fig.canvas.get_renderer()
    except AttributeError:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
        return fig.canvas.get_renderer()


def _in_view(loc: float, lo: float, hi: float) -> bool:
    lo, hi = min(lo, hi), max(lo, hi)
    eps = 1e-9 * max(1.0, abs(hi - lo))
    return lo - eps <= loc <= hi + eps


def _tick_labels(axis, view) -> list[Text]:
    """The visible major tick labels of ``axis`` inside its view interval, as drawn."""
    out = []
    for tick in axis.get_major_ticks():
        if not _in_view(tick.get_loc(), *view):
            continue
        for label in (tick.label1, tick.label2):
            if label.get_visible() and label.get_text().strip():
                out.append(label)
    return out


def _data_positions(ax, which: str) -> np.ndarray:
    """Data positions along ``which`` ("x" or "y") of the lines and markers drawn in data
    coordinates on that axis (reference lines in axes coordinates do not count)."""
    k = 0 if which == "x" else 1
    vals = []
    for ln in ax.lines:
        if not ln.get_transform().contains_branch_seperately(ax.transData)[k]:
            continue
        vals.append(np.asarray(ln.get_xdata() if k == 0 else ln.get_ydata(), float).ravel())
    for c in ax.collections:
        offs = np.asarray(c.get_offsets(), float)
        if offs.ndim == 2 and offs.shape[0] > 1 and offs.shape[1] == 2:
            vals.append(offs[:, k])
    vals = [v[np.isfinite(v)] for v in vals if v.size]
    return np.concatenate(vals) if vals else np.array([])


def _number(text: str) -> float | None:
    t = text.strip().replace("\u2212", "-").replace(",", "")
    return float(t) if _NUMBER.match(text.strip().replace("\u2212", "-")) else None


def _texts(fig: Figure) -> list[Text]:
    """Every visible, non-empty text the figure draws (tick labels inside the view only)."""
    seen: dict[int, Text] = {}

    def add(t):
        if isinstance(t, Text) and t.get_visible() and t.get_text().strip():
            seen.setdefault(id(t), t)

    if fig._suptitle is not None:
        add(fig._suptitle)
    for t in fig.texts:
        add(t)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for t in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label):
            add(t)
        for t in _tick_labels(ax.xaxis, ax.get_xlim()) + _tick_labels(ax.yaxis, ax.get_ylim()):
            add(t)
        for t in ax.texts:
            add(t)
        leg = ax.get_legend()
        if leg is not None and leg.get_visible():
            for t in leg.get_texts() + [leg.get_title()]:
                add(t)
    for leg in fig.legends:
        for t in leg.get_texts() + [leg.get_title()]:
            add(t)
    return list(seen.values())


def _style(handle) -> tuple:
    """What tells a legend entry apart: colour, line style and marker."""
    def col(c):
        try:
            arr = np.asarray(c, float)
            if arr.ndim == 2:
                arr = arr[0] if len(arr) else np.zeros(4)
            return tuple(np.round(to_rgba(arr), 3))
        except (TypeError, ValueError):
            return tuple(np.round(to_rgba(c), 3)) if c is not None else None

    color = ls = marker = None
    for getter in ("get_color", "get_facecolor", "get_edgecolor"):
        f = getattr(handle, getter, None)
        if f is not None:
            try:
                color = col(f())
                break
            except (TypeError, ValueError):
                continue
    if hasattr(handle, "get_linestyle"):
        ls = str(handle.get_linestyle())
    if hasattr(handle, "get_marker"):
        marker = str(handle.get_marker())
    return color, ls, marker


def _legends(fig: Figure) -> list[tuple[str, Legend]]:
    out = [(ax.get_title() or "(untitled)", ax.get_legend()) for ax in fig.axes
           if ax.get_visible() and ax.get_legend() is not None]
    return out + [("figure", leg) for leg in fig.legends]


def defects(fig: Figure, overlap_px: float = 1.0) -> list[str]:
    """The chart hygiene defects of ``fig`` as sentences (empty list: none).

    ``overlap_px``: two texts overlap when their drawn boxes intersect by more than this many
    pixels in both directions (anti-aliasing touches are not overlaps)."""
    renderer = _renderer(fig)
    fig.canvas.draw()
    out = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        name = ax.get_title() or "(untitled)"
        for which, axis, view in (("x", ax.xaxis, ax.get_xlim()), ("y", ax.yaxis, ax.get_ylim())):
            labels = [t.get_text() for t in _tick_labels(axis, view)]
            dup = sorted({x for x in labels if labels.count(x) > 1})
            if dup:
                out.append(f"{name}: duplicate {which} tick labels {dup} (ticks {labels})")
            if which == "y":  # parameters, counts and rounds lie along x
                continue
            nums = [_number(x) for x in labels]
            pos = _data_positions(ax, which)
            if (len(np.unique(pos)) >= 2 and np.all(pos == np.round(pos))
                    and all(v is not None for v in nums) and any(v != math.floor(v) for v in nums)):
                out.append(f"{name}: the {which} data are whole numbers but the ticks read "
                           f"{labels}")
    for name, leg in _legends(fig):
        entries = [t for t in leg.get_texts() if t.get_text().strip()]
        if not entries:
            out.append(f"{name}: empty legend")
            continue
        handles = [h for h in leg.legend_handles if h is not None]
        styles = [_style(h) for h in handles]
        texts = [t.get_text() for t in leg.get_texts()]
        for (i, a), (j, b) in itertools.combinations(enumerate(styles), 2):
            if a == b and a[0] is not None:
                out.append(f"{name}: legend entries {texts[i]!r} and {texts[j]!r} look the same "
                           f"(colour, line, marker)")
    texts = _texts(fig)
    boxes = [(t, t.get_window_extent(renderer)) for t in texts]
    for (t1, b1), (t2, b2) in itertools.combinations(boxes, 2):
        w = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
        h = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
        if w > overlap_px and h > overlap_px:
            out.append(f"overlapping text: {t1.get_text()!r} and {t2.get_text()!r}")
    return out
