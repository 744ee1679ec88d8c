"""Figure functions: DataFrames in, matplotlib Figures out. No file or database I/O.

Every estimate is drawn with its 95% interval (``low``/``high`` columns, as returned by
:mod:`analysis.db`). The caller saves or embeds the figure (:func:`analysis.reports.figure_to_data_uri`).
The solo figures order variants by the game's solo ladder (:mod:`analysis.difficulty`).
Figures are plain ``matplotlib.figure.Figure`` objects, not pyplot figures: no global state,
no backend needed (rendering uses Agg), nothing to close, safe in threads. Jupyter displays them
inline; ``fig.savefig(path)`` saves them.

Conventions every figure keeps (checked on the rendered figure by :mod:`analysis.figcheck`):
one colour per policy in every chart (:func:`policy_colors`), policies weakest first (the
game's ``GameSpec.ladder``, search last); percentages with as many decimals as the tick step
needs (:class:`PercentTicks`); side-by-side panels share their scale; whole-number parameters
get whole-number ticks; a legend only when something is labelled; axis labels wrapped to fit
their axes (:func:`_fit_labels`), so no text runs into another.
"""
from __future__ import annotations

import math
from typing import Sequence

import matplotlib.ticker
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure

from sim.spec import SoloDifficulty

from . import difficulty

__all__ = [
    "POLICY_COLORS",
    "policy_colors",
    "PercentTicks",
    "seat_win_rate_plot",
    "factor_gap_plot",
    "score_distribution_plot",
    "rounds_distribution_plot",
    "solo_ladder_plot",
    "loss_day_plot",
    "task_card_plot",
    "metric_curve_plot",
    "difference_plot",
    "estimate_plot",
]

_PALETTE = "colorblind"

# One colour per policy in every chart (the ladder's usual rungs by name, search last; other
# policies take the spare colours by a stable hash of their name, so a policy keeps its colour
# from chart to chart). Vermillion is left to "the interval excludes the reference".
POLICY_COLORS = {"random": "#949494", "novice": "#de8f05", "greedy": "#0173b2",
                 "expert": "#029e73", "search": "#cc78bc"}
_SPARE_COLORS = ("#ca9161", "#56b4e9", "#fbafe4", "#ece133", "#000000", "#8c564b", "#17becf",
                 "#bcbd22", "#7f7f7f", "#393b79")


def policy_colors(policies: Sequence[str]) -> dict[str, str]:
    """``{policy: colour}`` for the policies of one chart, the same colour for a policy in every
    chart (:data:`POLICY_COLORS` by its name before ``:``, else a spare colour chosen by a
    stable hash of the name) and never one colour for two of them: a policy whose colour is
    taken in this chart (``greedy`` next to ``greedy:w_stars=2``) takes the next free one."""
    import zlib

    out: dict[str, str] = {}
    used: set[str] = set()
    pols = list(dict.fromkeys(str(p) for p in policies))
    # the plain names first, so "greedy" keeps its colour next to "greedy:w_stars=2"
    for p in sorted(pols, key=lambda p: (":" in p, pols.index(p))):
        base = p.partition(":")[0]
        wanted = POLICY_COLORS.get(p) or POLICY_COLORS.get(base)
        if wanted is None or wanted in used:
            start = zlib.crc32(p.encode()) % len(_SPARE_COLORS)
            free = [_SPARE_COLORS[(start + k) % len(_SPARE_COLORS)]
                    for k in range(len(_SPARE_COLORS))]
            wanted = next((c for c in free if c not in used), free[0])
        out[p] = wanted
        used.add(wanted)
    return {p: out[p] for p in pols}


class PercentTicks(matplotlib.ticker.Formatter):
    """Probabilities (fractions of 1) as percentages with as many decimals as the tick step
    needs (at most 3): ticks 0, 0.0025, 0.005 read "0.00%, 0.25%, 0.50%", never "0%, 0%, 1%"."""

    def __init__(self, max_decimals: int = 3):
        self.max_decimals = max_decimals
        self.decimals = 0

    def set_locs(self, locs):
        super().set_locs(locs)
        vals = 100 * np.asarray([x for x in locs if np.isfinite(x)], float)
        self.decimals = next((d for d in range(self.max_decimals + 1)
                              if np.allclose(np.round(vals, d), vals, rtol=0, atol=1e-7)),
                             self.max_decimals)

    def __call__(self, x, pos=None):
        v = round(100 * float(x), self.decimals) + 0.0  # never "-0%"
        return f"{v:.{self.decimals}f}%".replace("-", "\u2212")


def _figure(figsize) -> Figure:
    fig = Figure(figsize=figsize, dpi=100)
    return fig


def _fit_labels(fig: Figure) -> Figure:
    """Lay ``fig`` out (tight_layout) with every axis label inside its axes' extent: a y label
    taller than its axes (it would run into the title) or an x label wider than its axes is
    wrapped onto more lines first; a title wider than its axes likewise."""
    import textwrap

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        box = ax.get_window_extent(renderer)
        for text, room, size in ((ax.yaxis.label, box.height, "height"),
                                 (ax.xaxis.label, box.width, "width"),
                                 (ax.title, box.width * 1.15, "width")):
            label = text.get_text()
            ext = text.get_window_extent(renderer)
            length = ext.height if size == "height" else ext.width
            if not label or length <= room or "\n" in label:
                continue
            lines = int(np.ceil(length / max(room, 1.0) * 1.1))
            text.set_text(textwrap.fill(label, max(12, int(np.ceil(len(label) / lines)))))
            changed = True
    if changed:
        fig.tight_layout()
    return fig


def _legend(ax, **kw) -> None:
    """A legend only when something is labelled (an empty legend box is noise, and matplotlib
    warns about it)."""
    handles, labels = ax.get_legend_handles_labels()
    if any(lbl and not lbl.startswith("_") for lbl in labels):
        ax.legend(**kw)


def _grid(n: int, ncols: int = 3, size=(4.2, 3.2)):
    ncols = max(1, min(ncols, n))
    nrows = max(1, math.ceil(n / ncols))
    fig = _figure((size[0] * ncols, size[1] * nrows))
    with sns.axes_style("whitegrid"):
        axes = fig.subplots(nrows, ncols, squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:max(n, 1)])


def _short(label, width: int = 40) -> str:
    """``label`` as text of at most ``width`` characters, the middle elided (a preset's path,
    a policy with its parameters)."""
    text = str(label)
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]


def _wrap(label, width: int = 14) -> str:
    """A long category label (``solo_very_hard_one_free``) on lines of about ``width``
    characters, broken after an underscore, a space or a hyphen, so neighbouring tick labels
    never run into each other."""
    import re

    parts = re.findall(r"[^_\s-]+[_\s-]?", str(label)) or [str(label)]
    lines, line = [], ""
    for p in parts:
        if line and len(line) + len(p) > width:
            lines.append(line)
            line = ""
        line += p
    return "\n".join(lines + [line])


def _yerr(df: pd.DataFrame, y: str = "win_rate") -> np.ndarray:
    lo = (df[y] - df["low"]).clip(lower=0).to_numpy(float)
    hi = (df["high"] - df[y]).clip(lower=0).to_numpy(float)
    return np.vstack([lo, hi])


def _percent_axis(ax, top: float | None = None):
    ax.yaxis.set_major_formatter(PercentTicks())
    ax.set_ylim(0, top if top is not None else ax.get_ylim()[1])


def _data_top(high: pd.Series) -> float:
    """Top of a 0-based probability axis scaled to the data: above the highest 95% interval
    bound (with a margin), so small rates are not squashed at the bottom of a 0-100% axis."""
    h = float(np.nanmax(high.to_numpy(float))) if len(high) and high.notna().any() else 1.0
    return min(1.0, max(0.02, h * 1.15 + 0.01))


def seat_win_rate_plot(rates: pd.DataFrame, title: str | None = None) -> Figure:
    """Win rate by seat with 95% intervals and the fair share 1/N, one panel per arm.

    Parameters
    ----------
    rates : DataFrame
        Columns ``arm, n_players, seat, win_rate, low, high`` (:func:`analysis.db.seat_win_rates`).
    """
    arms = list(dict.fromkeys(rates["arm"]))
    fig, axes = _grid(len(arms))
    colors = sns.color_palette(_PALETTE, 10)
    top = min(1.0, max(0.05, float(rates["high"].max()) * 1.15)) if len(rates) else 1.0
    for ax, arm in zip(axes, arms):
        d = rates[rates["arm"] == arm].sort_values("seat")
        n = int(d["n_players"].iloc[0])
        ax.bar(d["seat"].astype(int), d["win_rate"], color=colors[0], alpha=0.75, width=0.6)
        ax.errorbar(d["seat"].astype(int), d["win_rate"], yerr=_yerr(d), fmt="none",
                    ecolor="black", capsize=4, lw=1.2)
        ax.axhline(1.0 / n, color=colors[3], ls="--", lw=1.2, label=f"fair share 1/{n}")
        ax.set_xticks(d["seat"].astype(int))
        ax.set_xlabel("seat (0 = start player)")
        ax.set_ylabel("win rate (95% CI)")
        ax.set_title(f"{arm} ({n} players)")
        _percent_axis(ax, top)
        ax.legend(loc="upper right", fontsize=8)
    if title:
        fig.suptitle(title)
    return _fit_labels(fig)


def factor_gap_plot(rates: pd.DataFrame, factor_name: str = "seat") -> Figure:
    """Win rate minus the fair share 1/N, in points, with 95% intervals: one panel per arm,
    one row per value of the game's balance factor (seat, initiative die...).

    Points, not 0-based bars, so a one-point gap is visible; the dashed line is "fair".

    Parameters
    ----------
    rates : DataFrame
        Columns ``arm, n_players, label, win_rate, low, high`` (e.g.
        :func:`analysis.db.win_rate_by` with a ``label`` per value).
    factor_name : str
        Axis title of the values ("seat", "initiative die").
    """
    arms = list(dict.fromkeys(rates["arm"]))
    labels = np.array([_short(v) for v in rates["label"]], dtype=object)
    width = 5.2 + 0.07 * max([len(v) for v in labels] + [0])  # room for the row labels
    fig, axes = _grid(len(arms), ncols=2, size=(width, 0.45 * rates.groupby("arm").size().max()
                                                + 1.6 if len(rates) else 3.0))
    colors = sns.color_palette(_PALETTE, 10)
    fair_all = 1.0 / rates["n_players"].to_numpy(float)
    bounds = 100 * np.r_[rates["low"].to_numpy(float) - fair_all,
                         rates["high"].to_numpy(float) - fair_all]
    bounds = bounds[np.isfinite(bounds)]
    # one x scale for every panel: side by side, the same distance reads as the same gap
    span = max(1.0, float(np.abs(bounds).max()) * 1.15) if bounds.size else 1.0
    for ax, arm in zip(axes, arms):
        mine = (rates["arm"] == arm).to_numpy()
        d = rates[mine]
        fair = 1.0 / float(d["n_players"].iloc[0])
        gap = 100 * (d["win_rate"].to_numpy(float) - fair)
        lo = 100 * (d["low"].to_numpy(float) - fair)
        hi = 100 * (d["high"].to_numpy(float) - fair)
        y = np.arange(len(d))[::-1]
        off = (lo > 0) | (hi < 0)
        ax.errorbar(gap, y, xerr=np.vstack([(gap - lo).clip(min=0), (hi - gap).clip(min=0)]),
                    fmt="none", ecolor="black", capsize=3, lw=1.2)
        ax.scatter(gap, y, c=[colors[3] if o else colors[0] for o in off], zorder=3, s=36)
        ax.axvline(0, color="gray", ls="--", lw=1)
        ax.set_yticks(y, list(labels[mine]))
        ax.set_ylim(-0.7, len(d) - 0.3)
        ax.set_xlim(-span, span)
        ax.set_xlabel(f"win rate − fair share 1/{int(d['n_players'].iloc[0])}, points (95% CI)")
        ax.set_ylabel(factor_name)
        ax.set_title(f"{arm} ({int(d['n_players'].iloc[0])} players)", fontsize=10)
    return _fit_labels(fig)


def _frequencies(g: pd.DataFrame, value: str, vmin: int, vmax: int, max_bins: int = 80):
    """Shares over every integer in [vmin, vmax] (absent values = 0), or over ``max_bins``
    equal bins when the range is wider."""
    counts = g.groupby(value)["n"].sum()
    total = float(counts.sum())
    if vmax - vmin + 1 <= max_bins:
        xs = np.arange(vmin, vmax + 1)
        return xs, counts.reindex(xs, fill_value=0).to_numpy(float) / total
    hist, edges = np.histogram(counts.index.to_numpy(float), bins=max_bins, range=(vmin, vmax),
                               weights=counts.to_numpy(float))
    return (edges[:-1] + edges[1:]) / 2, hist / total


def _hist_panels(hist: pd.DataFrame, value: str, hue: str | None, xlabel: str) -> Figure:
    arms = list(dict.fromkeys(hist["arm"]))
    fig, axes = _grid(len(arms))
    colors = sns.color_palette(_PALETTE, 10)
    # one x range and one y scale for every panel, so side-by-side panels compare directly
    vmin, vmax = int(hist[value].min()), int(hist[value].max())
    tops = []
    for ax, arm in zip(axes, arms):
        d = hist[hist["arm"] == arm]
        groups = [(None, d)] if hue is None else list(d.groupby(hue, sort=True))
        styles = ("-", "--", "-.", ":")
        for i, (key, g) in enumerate(groups):
            xs, share = _frequencies(g, value, vmin, vmax)
            tops.append(float(share.max()) if len(share) else 0.0)
            label = None if key is None else _hue_label(hue, key)
            if len(groups) == 1:  # discrete bars: never empty, even when every game has one value
                ax.bar(xs, share, width=0.8 if vmax - vmin < 80 else (xs[1] - xs[0]) * 0.9,
                       color=colors[i % 10], alpha=0.8, label=label)
            else:  # one line per seat, told apart by colour, dash and marker
                ax.plot(xs, share, drawstyle="steps-mid", color=colors[i % 10],
                        ls=styles[i % len(styles)], marker="o" if len(xs) <= 40 else None,
                        ms=3, label=label, lw=1.4)
        ax.set_title(str(arm))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share of games")
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        if vmin == vmax:
            ax.set_xlim(vmin - 2, vmax + 2)
        if hue is not None and len(groups) > 1:
            _legend(ax, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    top = min(1.0, max(tops + [0.01]) * 1.1)
    for ax in axes[:len(arms)]:
        _percent_axis(ax, top)
        if vmin != vmax:
            pad = 0.5 if vmax - vmin < 80 else (vmax - vmin) / 160
            ax.set_xlim(vmin - pad - 0.4, vmax + pad + 0.4)
    return _fit_labels(fig)


def _hue_label(hue: str, key) -> str:
    """``seat 0`` for hue ``seat`` and key 0, but ``seat 0`` (not ``seat seat 0``) when the key
    already names it."""
    text = str(key)
    return text if text == hue or text.startswith(f"{hue} ") else f"{hue} {text}"

def score_distribution_plot(hist: pd.DataFrame, by_seat: bool = True) -> Figure:
    """Score distribution by seat (or of every seat together: ``by_seat=False``, for a game
    whose seats are symmetric by construction), one panel per arm.

    Parameters
    ----------
    hist : DataFrame
        Columns ``arm, seat, score, n`` (:func:`analysis.db.score_histogram`): frequencies, so the
        chart costs the same for a thousand games or a billion.
    """
    if not by_seat:
        hist = hist.groupby(["arm", "score"], sort=False, as_index=False)["n"].sum()
    return _hist_panels(hist, "score", "seat" if by_seat else None, "final score")


def rounds_distribution_plot(hist: pd.DataFrame) -> Figure:
    """Game length (rounds) distribution, one panel per arm (:func:`analysis.db.rounds_histogram`)."""
    return _hist_panels(hist, "rounds", None, "rounds")


def solo_ladder_plot(ladder: pd.DataFrame, solo: SoloDifficulty | None = None) -> Figure:
    """Solo difficulty ladder: win probability per variant (easiest first) and skill level.

    Parameters
    ----------
    ladder : DataFrame
        Columns ``variant, policy, win_rate, low, high`` (:func:`analysis.db.solo_ladder`).
    solo : SoloDifficulty, optional
        The game's solo ladder (``GameSpec.solo_difficulty``); default: that of the game in
        ``ladder``'s ``game`` column.
    """
    solo = difficulty.of_frame(ladder) if solo is None else solo
    order = difficulty.variant_order(ladder["variant"], solo)
    policies = _policies(ladder)
    colors = policy_colors(policies)
    width = max(1.3, 0.085 * max(len(line) for v in order for line in _wrap(v).split("\n")))
    fig = _figure((max(5.5, width * len(order) + 2.6), 3.8))
    with sns.axes_style("whitegrid"):
        ax = fig.subplots()
    x0 = np.arange(len(order))
    width = 0.7 / max(1, len(policies))
    ladders = difficulty.solo_ladders(order, solo)
    for i, pol in enumerate(policies):
        d = ladder[ladder["policy"] == pol].set_index("variant").reindex(order).dropna(
            subset=["win_rate"])
        x = pd.Series(np.arange(len(order)) + (i - (len(policies) - 1) / 2) * width, order)
        ax.errorbar(x[d.index], d["win_rate"], yerr=_yerr(d), fmt="osD^v"[i % 5], capsize=4,
                    color=colors[pol], label=_short(pol, 28), ms=6)
        for j, (_, rungs) in enumerate(ladders):  # the alternative readings dashed
            r = [v for v in rungs if v in d.index]
            ax.plot(x[r], d.loc[r, "win_rate"], ls="-" if j == 0 else "--", color=colors[pol],
                    lw=1.3)
    ax.set_xticks(x0, [_wrap(v) for v in order])
    ax.set_xlabel("variant (easiest first)" + ("; dashed: " + ladders[1][0] if len(ladders) > 1
                                               else ""))
    ax.set_ylabel("win probability (95% CI)")
    _percent_axis(ax, _data_top(ladder["high"]))
    _legend(ax, title="policy (weakest first)", fontsize=8, loc="upper left",
            bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Solo difficulty ladder")
    return _fit_labels(fig)


def _policies(df: pd.DataFrame) -> list[str]:
    """The policies of ``df`` weakest first (the game's ``GameSpec.ladder``, search last)."""
    game = df["game"].iloc[0] if "game" in df.columns and len(df) else None
    return difficulty.skill_order(df["policy"], difficulty.skill_ladder(game))

def loss_day_plot(loss: pd.DataFrame, solo: SoloDifficulty | None = None) -> Figure:
    """Day on which solo games ended, per variant (one panel per policy).

    Parameters
    ----------
    loss : DataFrame
        Columns ``variant, policy, loss_day, share, low, high`` (:func:`analysis.db.solo_loss_day`).
    solo : SoloDifficulty, optional
        The game's solo ladder: variant order, and ``end_day``, the value meaning "reached the
        end" (labelled "end"); default: that of the game in ``loss``'s ``game`` column.
    """
    solo = difficulty.of_frame(loss) if solo is None else solo
    policies = _policies(loss)
    order = difficulty.variant_order(loss["variant"], solo)
    fig, axes = _grid(len(policies), ncols=2, size=(6.0, 3.6))
    colors = sns.color_palette(_PALETTE, max(3, len(order)))
    days = sorted(int(d) for d in loss["loss_day"].dropna().unique())
    width = 0.8 / max(1, len(order))
    for ax, pol in zip(axes, policies):
        dp = loss[loss["policy"] == pol]
        for i, v in enumerate(order):
            d = dp[dp["variant"] == v].set_index("loss_day").reindex(days)
            d = d.assign(share=d["share"].fillna(0), low=d["low"].fillna(0),
                         high=d["high"].fillna(0))
            x = np.arange(len(days)) + (i - (len(order) - 1) / 2) * width
            ax.bar(x, d["share"], width=width, color=colors[i], label=v)
            ax.errorbar(x, d["share"], yerr=_yerr(d, "share"), fmt="none", ecolor="black",
                        capsize=2, lw=0.8)
        ax.set_xticks(np.arange(len(days)),
                      [("end" if d == solo.end_day else str(d)) for d in days])
        ax.set_xlabel("day the game ended (end = played to the last day)")
        ax.set_ylabel("share of games (95% CI)")
        ax.set_title(f"policy {_short(pol, 32)}")
        _legend(ax, fontsize=7)
    top = _data_top(loss["high"])  # one scale for every panel
    for ax in axes[:len(policies)]:
        _percent_axis(ax, top)
    return _fit_labels(fig)

def task_card_plot(cards: pd.DataFrame, names: Sequence[str] = (),
                   solo: SoloDifficulty | None = None) -> Figure:
    """Solo win probability per task card and variant (one panel per policy).

    The y axis runs from 0 to just above the highest 95% interval bound (not to 100%), so win
    probabilities of a few percent and their intervals stay readable; every panel has the same
    scale, so panels side by side compare directly.

    Parameters
    ----------
    cards : DataFrame
        Columns ``variant, policy, card, win_rate, low, high`` (:func:`analysis.db.solo_task_cards`).
    names : sequence of str, optional
        Card names by id (``T1``, ``T2``...); ids without a name are shown as numbers.
    solo : SoloDifficulty, optional
        The game's solo ladder (variant order); default: that of the game in ``cards``'s
        ``game`` column.
    """
    solo = difficulty.of_frame(cards) if solo is None else solo
    policies = _policies(cards)
    order = difficulty.variant_order(cards["variant"], solo)
    fig, axes = _grid(len(policies), ncols=2, size=(6.0, 3.6))
    colors = sns.color_palette(_PALETTE, max(3, len(order)))
    ids = sorted(int(c) for c in cards["card"].unique())
    width = 0.8 / max(1, len(order))
    for ax, pol in zip(axes, policies):
        dp = cards[cards["policy"] == pol]
        for i, v in enumerate(order):
            d = dp[dp["variant"] == v].set_index("card").reindex(ids).dropna(subset=["win_rate"])
            x = np.array([ids.index(int(c)) for c in d.index]) + (i - (len(order) - 1) / 2) * width
            ax.errorbar(x, d["win_rate"], yerr=_yerr(d), fmt="o", capsize=3, color=colors[i],
                        label=v, ms=5)
        ax.set_xticks(np.arange(len(ids)), [names[c] if 0 <= c < len(names) else str(c)
                                            for c in ids])
        ax.set_xlabel("task card")
        ax.set_ylabel("win probability (95% CI)")
        ax.set_title(f"policy {_short(pol, 32)}")
        _legend(ax, fontsize=7)
    top = _data_top(cards["high"])  # one scale for every panel: side by side they compare
    for ax in axes[:len(policies)]:
        _percent_axis(ax, top)
    return _fit_labels(fig)

def metric_curve_plot(df: pd.DataFrame, x: str, y: str = "estimate", low: str = "low",
                      high: str = "high", hue: str | None = None, reference: float | None = None,
                      xlabel: str | None = None, ylabel: str | None = None,
                      title: str | None = None, percent: bool = False,
                      band: tuple[float, float] | None = None, mark: str | None = None,
                      order: Sequence | None = None,
                      ylim: tuple[float, float] | None = None) -> Figure:
    """A metric against a parameter with its 95% band (sweeps, rule-tweak curves).

    Parameters
    ----------
    df : DataFrame
        One row per parameter value (and ``hue`` level) with columns ``x``, ``y``, ``low``, ``high``.
    hue : str, optional
        Column splitting the data into several curves (e.g. seat).
    reference : float, optional
        Horizontal reference line (e.g. the fair share 1/N, or 0 for a difference).
    percent : bool, default False
        Format the y axis as percentages of 1.
    band : (float, float), optional
        A horizontal band to shade (e.g. the tolerance around a fair share).
    mark : str, optional
        Boolean column: points where it is true get a large ring (e.g. "balanced").
    order : sequence, optional
        The x values in display order; non-numeric x values (lists, choices) are always drawn
        at equally spaced positions in this order (default: order of appearance).
    ylim : (float, float), optional
        The y range, to give charts meant to be read side by side one scale.
    """
    fig = _figure((6.4, 3.8))
    with sns.axes_style("whitegrid"):
        ax = fig.subplots()
    d = df.copy()
    numeric = pd.api.types.is_numeric_dtype(d[x]) and not pd.api.types.is_bool_dtype(d[x])
    if not numeric:
        keys = [str(v) for v in (order if order is not None else dict.fromkeys(d[x].map(str)))]
        d["_x"] = d[x].map(lambda v: keys.index(str(v)))
        ax.set_xticks(range(len(keys)), keys)
        xcol = "_x"
    else:
        xcol = x
        xs = np.sort(pd.unique(d[x].dropna().to_numpy(float)))
        if len(xs) and np.all(xs == np.round(xs)):  # an integer parameter: integer ticks only
            if len(xs) <= 12:
                ax.set_xticks(xs, [str(int(v)) for v in xs])
            else:
                ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    groups = [(None, d)] if hue is None else list(d.groupby(hue, sort=True))
    if hue == "policy":  # policies weakest first, each in its own colour (every chart)
        keys = difficulty.skill_order([k for k, _ in groups],
                                      difficulty.skill_ladder(_game_of(d)))
        groups = sorted(groups, key=lambda kg: keys.index(str(kg[0])))
        pc = policy_colors(keys)
        colors = [pc[str(k)] for k, _ in groups]
    else:
        colors = sns.color_palette(_PALETTE, max(3, len(groups)))
    if band is not None:
        ax.axhspan(band[0], band[1], color="green", alpha=0.08, lw=0)
    for i, (key, g) in enumerate(groups):
        g = g.sort_values(xcol)
        label = None if key is None else _hue_label(hue, key)
        ax.plot(g[xcol], g[y], marker="osD^v"[i % 5], ls=("-", "--", "-.", ":")[i % 4],
                color=colors[i], label=label, lw=1.5)
        ax.fill_between(g[xcol], g[low], g[high], color=colors[i], alpha=0.2, lw=0)
        if mark is not None and mark in g:
            m = g[g[mark].astype(bool)]
            ax.scatter(m[xcol], m[y], s=140, facecolors="none", edgecolors="green", lw=1.8,
                       zorder=5, label=mark if i == 0 and len(m) else None)
    if reference is not None:
        ax.axhline(reference, color="gray", ls="--", lw=1)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or f"{y} (95% CI)")
    if ylim is not None:
        ax.set_ylim(*ylim)
    if percent:
        ax.yaxis.set_major_formatter(PercentTicks())
    if title:
        ax.set_title(title, fontsize=10)
    if hue is not None or mark is not None:  # outside the axes: never over the data
        _legend(ax, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _fit_labels(fig)


def _game_of(df: pd.DataFrame) -> str | None:
    return df["game"].iloc[0] if "game" in df.columns and len(df) else None

def difference_plot(table: pd.DataFrame, title: str | None = None) -> Figure:
    """Paired differences (tweak − baseline) with 95% intervals, one row per metric.

    Parameters
    ----------
    table : DataFrame
        :func:`analysis.studies.compare_frames` output (``label, scale, diff, low, high,
        unpaired_low, unpaired_high``). Probability-scale metrics are drawn in points (×100) in
        the left panel, means in their own units in the right panel. The thin grey bar is the
        unpaired interval, for reference.
    """
    parts = [(sc, table[table["scale"] == sc]) for sc in ("prop", "mean")]
    parts = [(sc, t) for sc, t in parts if len(t)]
    fig = _figure((6.0 * max(1, len(parts)), 0.45 * max(len(t) for _, t in parts) + 1.6
                   if parts else 3))
    with sns.axes_style("whitegrid"):
        axes = fig.subplots(1, max(1, len(parts)), squeeze=False)[0]
    colors = sns.color_palette(_PALETTE, 10)
    for ax, (sc, t) in zip(axes, parts):
        k = 100.0 if sc == "prop" else 1.0
        y = np.arange(len(t))[::-1]
        sig = ((t["low"] > 0) | (t["high"] < 0)).to_numpy()
        ax.hlines(y, t["unpaired_low"] * k, t["unpaired_high"] * k, color="0.75", lw=6,
                  label="unpaired 95% CI")
        ax.errorbar(t["diff"] * k, y, xerr=np.vstack([(t["diff"] - t["low"]).clip(lower=0) * k,
                                                     (t["high"] - t["diff"]).clip(lower=0) * k]),
                    fmt="none", ecolor="black", capsize=3, lw=1.2)
        ax.scatter(t["diff"] * k, y, c=[colors[3] if s_ else colors[0] for s_ in sig], zorder=3,
                   label="paired difference")
        ax.axvline(0, color="gray", ls="--", lw=1)
        ax.set_yticks(y, t["label"])
        ax.set_xlabel("difference, points of probability" if sc == "prop" else "difference")
        ax.legend(fontsize=7, loc="best")
    if title:
        fig.suptitle(title)
    return _fit_labels(fig)


def estimate_plot(df: pd.DataFrame, xlabel: str, title: str, reference: float | None = None,
                  percent: bool = False) -> Figure:
    """Estimates with their 95% intervals, one row per ``label`` in the given order (top first):
    ladder ratings, solo win probabilities per policy.

    Parameters
    ----------
    df : DataFrame
        Columns ``label, estimate, low, high``.
    xlabel, title : str
    reference : float, optional
        A dashed vertical line (e.g. the anchor rating 0); intervals that exclude it are orange.
    percent : bool, default False
        Probabilities: the axis in %.
    """
    fig = _figure((6.4, 0.5 * len(df) + 1.6))
    with sns.axes_style("whitegrid"):
        ax = fig.subplots()
    colors = sns.color_palette(_PALETTE, 10)
    est, lo, hi = (df[c].to_numpy(float) for c in ("estimate", "low", "high"))
    y = np.arange(len(df))[::-1]
    off = ((lo > reference) | (hi < reference)) if reference is not None else np.zeros(len(df),
                                                                                      bool)
    ax.errorbar(est, y, xerr=np.vstack([(est - lo).clip(min=0), (hi - est).clip(min=0)]),
                fmt="none", ecolor="black", capsize=3, lw=1.2)
    ax.scatter(est, y, c=[colors[3] if o else colors[0] for o in off], zorder=3, s=36)
    if reference is not None:
        ax.axvline(reference, color="gray", ls="--", lw=1)
    ax.set_yticks(y, df["label"].astype(str))
    ax.set_ylim(-0.7, len(df) - 0.3)
    if percent:
        ax.xaxis.set_major_formatter(PercentTicks())
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _fit_labels(fig)


# ---- insights (analysis.insights): comebacks and hazards -------------------------------------
__all__ += ["comeback_heatmap_plot", "hazard_plot"]


def comeback_heatmap_plot(table: pd.DataFrame, title: str | None = None) -> Figure:
    """P(win | trailing the leader by d points after round r) as a heatmap.

    Parameters
    ----------
    table : DataFrame
        :func:`analysis.insights.comeback_table` (``round_bin, round_lo, deficit_bin,
        deficit_lo, n, p_win, low, high``). Rows: round bins (top = early), columns: deficit
        bins (left = leading). Each cell shows the win probability, its 95% interval and the
        number of seat-rounds; empty cells had no observation.
    """
    fig = _figure((7.2, 0.45 * max(1, table["round_bin"].nunique() if len(table) else 1) + 2.0))
    with sns.axes_style("white"):
        ax = fig.subplots()
    if not len(table):
        ax.text(0.5, 0.5, "no traced rounds", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return fig
    rows = table.drop_duplicates("round_bin").sort_values("round_lo")["round_bin"].tolist()
    cols = table.drop_duplicates("deficit_bin").sort_values("deficit_lo")["deficit_bin"].tolist()
    grid = table.pivot(index="round_bin", columns="deficit_bin", values="p_win").reindex(
        index=rows, columns=cols).astype(float)
    text = table.assign(txt=[
        f"{100 * p:.0f}%\n[{100 * lo:.0f}, {100 * hi:.0f}]\nn={n}"
        if pd.notna(p) and pd.notna(lo) and pd.notna(hi) else f"n={n}"
        for p, lo, hi, n in zip(table["p_win"], table["low"], table["high"], table["n"])])
    annot = text.pivot(index="round_bin", columns="deficit_bin", values="txt").reindex(
        index=rows, columns=cols).fillna("")
    sns.heatmap(grid, ax=ax, vmin=0, vmax=1, cmap="viridis", annot=annot.to_numpy(), fmt="",
                annot_kws={"fontsize": 6}, cbar_kws={"label": "P(win)", "format":
                matplotlib.ticker.PercentFormatter(1.0, decimals=0)}, linewidths=0.5,
                linecolor="white")
    ax.set_xlabel("points behind the leader after the round")
    ax.set_ylabel("after round")
    ax.set_title(title or "Comebacks: P(win | trailing by d after round r), 95% CI", fontsize=10)
    return _fit_labels(fig)


def hazard_plot(hazard: pd.DataFrame, event: str = "ended", title: str | None = None) -> Figure:
    """A hazard by round with its 95% band: the end hazard (:func:`analysis.insights.end_hazard`,
    ``event="ended"``) or the solo loss hazard (:func:`analysis.insights.loss_hazard`,
    ``event="lost"``). Columns ``round, at_risk, hazard, low, high``; rounds with no game at
    risk are not drawn."""
    d = hazard[hazard["at_risk"] > 0] if len(hazard) else hazard
    fig = metric_curve_plot(d.astype({"hazard": float, "low": float, "high": float}), "round",
                            y="hazard", xlabel="round",
                            ylabel=f"P({event} at round r | still running), 95% CI",
                            title=title or ("End hazard" if event == "ended"
                                            else "Solo loss hazard (difficulty curve)"),
                            percent=True)
    return fig
