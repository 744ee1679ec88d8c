"""Study statistics: the metrics of one arm, paired comparisons of two arms, sweep tables,
precision checks and sample-size plans. Used by ``playtest compare / sweep / plan / run
--precision``, by their HTML reports and by the notebooks.

Everything starts from the per-game table of an arm (:func:`arm_games`) and turns it into
*metrics*: one value per game whose mean is the quantity of interest. Balance is graded by the
game's own balance factor (:func:`balance_factor`: the seat, or what the game declares), so
nothing here names a game's factor.

============================ ======= ===========================================================
metric                       scale   per-game value
============================ ======= ===========================================================
``win_rate_seat<s>``         prop    ``win_share`` of seat s (multiplayer)
``win_rate_<factor><v>``     prop    ``win_share`` of the player holding value v of the game's
                                     balance factor (``GameSpec.balance_factor``, when it is not
                                     the seat, e.g. an initiative die); games where nobody holds
                                     v do not count (NaN)
``first_player_advantage``   prop    ``win_share`` of seat 0 minus 1/N (multiplayer, when the
                                     balance factor is the seat)
``solo_win``                 prop    the solo win condition (1 player)
``mean_score``               mean    mean score over the seats of the game
``score_margin``             mean    winner's score minus runner-up's (multiplayer)
``rounds``                   mean    game length in rounds
``end:<reason>``             prop    1 if the game ended for that reason
============================ ======= ===========================================================

Intervals (95% unless ``level`` says otherwise, :mod:`analysis.stats`): Wilson for the levels of
proportions (the first-player advantage is seat 0's Wilson interval shifted by 1/N), Student t
for means, and the paired t interval of per-game differences for comparisons (both arms share
``master_seed`` and ``game_index``, so they are paired game by game). A precision target
(``--precision``) applies to the intervals on the *prop* scale (win rates, advantages, shares);
score and length intervals are reported with the precision they reached.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.spec import BalanceFactor

from . import db, stats

__all__ = [
    "Metric",
    "balance_factor",
    "factor_prefix",
    "arm_games",
    "arms_games",
    "metrics",
    "level_table",
    "compare_frames",
    "verdict",
    "max_half_width",
    "BALANCE_GRADES",
    "balance_grade",
    "balance_status",
    "balance_legend",
    "balance_change",
    "plan_table",
]

NOT_DISTINGUISHABLE = "not distinguishable from zero"
IDENTICAL = "no change (identical in every game)"


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    scale: str  # "prop" (probability scale: the precision target applies) or "mean"
    values: np.ndarray  # one value per game
    shift: float = 0.0  # values = indicator - shift (first-player advantage)


def _seats(df: pd.DataFrame, prefix: str) -> list[str]:
    cols = [c for c in df.columns if c.startswith(prefix) and c[len(prefix):].isdigit()]
    return sorted(cols, key=lambda c: int(c[len(prefix):]))


@functools.lru_cache(maxsize=None)
def balance_factor(game: str | None) -> BalanceFactor:
    """The balance factor ``game`` declares (``GameSpec.balance_factor``); the seat for a game
    the registry does not know (e.g. a store written by another version)."""
    try:
        from sim.registry import make

        return make(str(game)).balance_factor
    except Exception:
        return BalanceFactor()


def factor_prefix(factor: BalanceFactor) -> str:
    """Key prefix of the factor's win-rate metrics: ``win_rate_seat`` or ``win_rate_<column>``."""
    return f"win_rate_{factor.column}"


def _factor_of(df: pd.DataFrame) -> BalanceFactor:
    game = df["game"].iloc[0] if "game" in df.columns and len(df) else None
    return balance_factor(game)


def arm_games(con, experiment: str, arm: str) -> pd.DataFrame:
    """The per-game table of one arm (:func:`analysis.db.arm_games`) with its ``game`` and,
    when the game's balance factor is a seat column other than the seat, each seat's value of
    it (``<column>_<s>``), so :func:`metrics` can grade balance by that factor."""
    game = db.query(con, "SELECT any_value(game) AS game FROM stg_games WHERE experiment = ? "
                         "AND arm = ?", [experiment, arm])["game"].iloc[0]
    factor = balance_factor(game)
    cols = ("win_share", "score")
    if not factor.is_seat and factor.column in db.query(
            con, "SELECT * FROM stg_seats LIMIT 0").columns:
        cols += (factor.column,)
    df = db.arm_games(con, experiment, arm, cols)
    if len(df):
        df.insert(0, "game", game)
    return df


def arms_games(con, experiment: str, arms=None):
    """``(arm, per-game table)`` of every arm (or of ``arms``) as :func:`arm_games` gives them,
    fetched a batch of arms per query (:func:`analysis.db.arms_games`): for studies of many
    arms."""
    seat_cols = set(db.query(con, "SELECT * FROM stg_seats LIMIT 0").columns)
    base = ("win_share", "score")
    extra: list[str] = []
    if arms is None or list(arms):
        games = db.query(con, "SELECT DISTINCT game FROM stg_games WHERE experiment = ?",
                         [experiment])["game"].tolist()
        for game in games:
            f = balance_factor(game)
            if not f.is_seat and f.column in seat_cols and f.column not in extra:
                extra.append(f.column)
    for arm, df in db.arms_games(con, experiment, arms, base + tuple(extra)):
        game = df.attrs["game"]
        factor = balance_factor(game)
        keep = factor.column if not factor.is_seat else None
        df = df.drop(columns=[c for c in df.columns for x in extra
                              if x != keep and c.startswith(f"{x}_") and c[len(x) + 1:].isdigit()])
        df.insert(0, "game", game)
        yield arm, df


def _factor_metrics(df: pd.DataFrame, factor: BalanceFactor, share: np.ndarray) -> list[Metric]:
    """Win rate of the holder of each value of a non-seat balance factor (NaN where unheld)."""
    cols = _seats(df, f"{factor.column}_")
    if len(cols) != share.shape[1]:
        return []
    held = df[cols].to_numpy(float)
    values = range(len(factor.labels)) if factor.labels else sorted(
        int(v) for v in np.unique(held[np.isfinite(held)]) if v >= 0)
    out = []
    for v in values:
        mask = held == v
        x = np.where(mask.any(axis=1), (share * mask).sum(axis=1), np.nan)
        if np.isfinite(x).any():
            out.append(Metric(f"{factor_prefix(factor)}{v}", f"win rate, {factor.label(v)}",
                              "prop", x))
    return out


def _finite(x: np.ndarray) -> np.ndarray:
    return x[np.isfinite(x)]


def metrics(df: pd.DataFrame, end_reasons=None) -> list[Metric]:
    """The metrics of one arm's per-game table (:func:`analysis.db.arm_games`), in report order.

    ``end_reasons`` fixes the end-reason metrics (e.g. the union over the arms being compared);
    default: the reasons present in ``df``. The game's balance factor (from its ``game``
    column, :func:`arm_games`) comes first when it is not the seat.
    """
    ws = _seats(df, "win_share_")
    sc = _seats(df, "score_")
    n_players = len(ws)
    factor = _factor_of(df)
    out: list[Metric] = []
    share = df[ws].to_numpy(float) if ws else np.zeros((len(df), 0))
    if n_players == 1:
        out.append(Metric("solo_win", "solo win probability", "prop", share[:, 0]))
    elif n_players >= 2:
        if not factor.is_seat:
            out += _factor_metrics(df, factor, share)
        for s in range(n_players):
            out.append(Metric(f"win_rate_seat{s}", f"win rate, seat {s}", "prop", share[:, s]))
        if factor.is_seat:
            fair = 1.0 / n_players
            out.append(Metric("first_player_advantage",
                              f"first-player advantage (seat 0 win rate − 1/{n_players})",
                              "prop", share[:, 0] - fair, fair))
    if sc:
        score = df[sc].to_numpy(float)
        out.append(Metric("mean_score", "mean score (all seats)", "mean", score.mean(axis=1)))
        if n_players >= 2:
            top2 = -np.sort(-score, axis=1)[:, :2]
            out.append(Metric("score_margin", "score margin (winner − runner-up)", "mean",
                              top2[:, 0] - top2[:, 1]))
    if "rounds" in df:
        out.append(Metric("rounds", "game length (rounds)", "mean", df["rounds"].to_numpy(float)))
    if "end_reason" in df:
        reasons = list(end_reasons) if end_reasons is not None else sorted(
            df["end_reason"].dropna().unique())
        er = df["end_reason"].to_numpy(object)
        for r in reasons:
            out.append(Metric(f"end:{r}", f"end reason: {r}", "prop", (er == r).astype(float)))
    return out


def _level(m: Metric, level: float) -> stats.Estimate:
    if m.scale == "prop":
        x = _finite(m.values) + m.shift
        n = x.size
        lo, hi = stats.wilson_interval(float(x.sum()), n, level)
        est = float(x.mean()) if n else float("nan")
        return stats.Estimate(est - m.shift, lo - m.shift, hi - m.shift, n, level, "wilson")
    return stats.mean_interval(m.values, level)


def level_table(df: pd.DataFrame, level: float = 0.95, end_reasons=None) -> pd.DataFrame:
    """Every metric of one arm with its interval: ``metric, label, scale, estimate, low, high,
    half_width, n``."""
    rows = []
    for m in metrics(df, end_reasons):
        e = _level(m, level)
        rows.append({"metric": m.key, "label": m.label, "scale": m.scale, "estimate": e.estimate,
                     "low": e.low, "high": e.high, "half_width": (e.high - e.low) / 2,
                     "n": e.n})
    return pd.DataFrame(rows, columns=["metric", "label", "scale", "estimate", "low", "high",
                                       "half_width", "n"])


def verdict(low: float, high: float) -> str:
    """"higher" / "lower" when the interval excludes 0, :data:`IDENTICAL` when both arms had
    the same value in every game, else :data:`NOT_DISTINGUISHABLE`."""
    if not np.isfinite(low) or not np.isfinite(high):
        return "n/a"
    if low == 0 and high == 0:
        return IDENTICAL
    if low > 0:
        return "higher"
    if high < 0:
        return "lower"
    return NOT_DISTINGUISHABLE


def compare_frames(tweak: pd.DataFrame, baseline: pd.DataFrame, level: float = 0.95,
                   paired: bool = True) -> pd.DataFrame:
    """Tweak minus baseline for every metric, with paired (and, for reference, unpaired) intervals.

    Parameters
    ----------
    tweak, baseline : DataFrame
        Per-game tables (:func:`analysis.db.arm_games`) of the two arms.
    paired : bool, default True
        Align the games on ``(master_seed, game_index)`` and use the paired t interval of the
        per-game differences (common random numbers). False: treat the arms as independent
        samples (Welch interval), e.g. for arms run on different seeds.

    Returns
    -------
    DataFrame
        One row per metric: ``metric, label, scale, baseline, baseline_low, baseline_high,
        tweak, tweak_low, tweak_high, diff, low, high, half_width, p_value, unpaired_low,
        unpaired_high, n, verdict`` (``verdict`` is "higher", "lower" or
        "not distinguishable from zero").
    """
    if paired:
        keys = ["master_seed", "game_index"]
        t = tweak.set_index(keys)
        b = baseline.set_index(keys)
        common = t.index.intersection(b.index)
        if len(common) == 0 and len(t) and len(b):
            raise ValueError("the arms share no (master_seed, game_index): they are not paired; "
                             "use paired=False")
        tweak = t.loc[common].reset_index()
        baseline = b.loc[common].reset_index()
    reasons = sorted(set(tweak.get("end_reason", pd.Series(dtype=object)).dropna())
                     | set(baseline.get("end_reason", pd.Series(dtype=object)).dropna()))
    mt = metrics(tweak, reasons)
    mb = {m.key: m for m in metrics(baseline, reasons)}
    rows = []
    for m in mt:
        if m.key not in mb:
            continue
        base = mb[m.key]
        et, eb = _level(m, level), _level(base, level)
        # a factor value nobody held in a game (NaN) leaves that game out of its difference
        both = np.isfinite(m.values) & np.isfinite(base.values)
        x, y = (m.values[both], base.values[both]) if paired else (_finite(m.values),
                                                                     _finite(base.values))
        if paired:
            d = stats.paired_difference(x, y, level)
        else:
            d = stats.unpaired_difference(x, y, level)
        u = stats.unpaired_difference(_finite(m.values), _finite(base.values), level) \
            if paired else d
        rows.append({
            "metric": m.key, "label": m.label, "scale": m.scale,
            "baseline": eb.estimate, "baseline_low": eb.low, "baseline_high": eb.high,
            "tweak": et.estimate, "tweak_low": et.low, "tweak_high": et.high,
            "diff": d.estimate, "low": d.low, "high": d.high,
            "half_width": (d.high - d.low) / 2, "p_value": d.p_value,
            "unpaired_low": u.low, "unpaired_high": u.high, "n": x.size,
            "verdict": verdict(d.low, d.high),
        })
    return pd.DataFrame(rows)


def max_half_width(table: pd.DataFrame, scale: str = "prop") -> tuple[float, str]:
    """Widest ``half_width`` among the rows of ``scale`` and its metric label
    (``(nan, "")`` if none)."""
    t = table[table["scale"] == scale] if len(table) else table
    if not len(t):
        return float("nan"), ""
    hw = t["half_width"].fillna(np.inf)
    i = hw.to_numpy().argmax()
    return float(hw.iloc[i]), str(t["label"].iloc[i])


def _factor_matrix(df: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """Per game, the win share of the holder of each value of the game's balance factor
    (NaN where nobody held it): ``(games x values, labels)``."""
    factor = _factor_of(df)
    ms = [m for m in metrics(df) if m.key.startswith(factor_prefix(factor))]
    return (np.column_stack([m.values for m in ms]) if ms else np.zeros((len(df), 0)),
            [m.label.removeprefix("win rate, ") for m in ms])


def _largest_gaps(sums: np.ndarray, held: np.ndarray, fair: float) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        gaps = np.abs(sums / held - fair)
    return np.nanmax(np.where(held > 0, gaps, np.nan), axis=-1)


def balance_change(tweak: pd.DataFrame, baseline: pd.DataFrame, level: float = 0.95,
                   n_boot: int = 1000, seed: int = 0) -> dict | None:
    """Did the tweak bring the game closer to balance? The distance to the fair share before
    and after, with intervals: the **largest gap** ``max_v |win rate_v − 1/N|`` over the values
    of the game's balance factor (seats, or e.g. initiative dice) in the baseline and in the
    tweak, and its change (tweak − baseline; negative = closer to balance).

    The intervals come from a paired bootstrap (``n_boot`` Poisson resamples of the games, the
    same resample in both arms: they share their seeds), percentiles at ``level``. The largest
    of several gaps is biased upward on few games; its interval says how far to trust it.

    Returns None for solo arms; else ``before, before_low, before_high, after, after_low,
    after_high, change, low, high, n`` (paired games), ``before_value`` / ``after_value`` (the
    value furthest from 1/N, with ``before_gap`` / ``after_gap`` its signed gap),
    ``overshoot`` (the value furthest before lies on the other side of 1/N after, further than
    its interval) and ``verdict``: "closer to balance", "further from balance" (the change's
    interval excludes 0) or "undecided".
    """
    keys = ["master_seed", "game_index"]
    t = tweak.set_index(keys)
    b = baseline.set_index(keys)
    common = t.index.intersection(b.index)
    t, b = t.loc[common].reset_index(), b.loc[common].reset_index()
    n_players = len(_seats(b, "win_share_"))
    if n_players < 2 or not len(common):
        return None
    fair = 1.0 / n_players
    xb, labels = _factor_matrix(b)
    xt, labels_t = _factor_matrix(t)
    if xb.shape[1] == 0 or labels != labels_t:
        return None
    hb, ht = np.isfinite(xb), np.isfinite(xt)
    vb, vt = np.where(hb, xb, 0.0), np.where(ht, xt, 0.0)
    gap_b = vb.sum(0) / np.maximum(hb.sum(0), 1) - fair
    gap_t = vt.sum(0) / np.maximum(ht.sum(0), 1) - fair
    before, after = float(np.abs(gap_b).max()), float(np.abs(gap_t).max())
    rng = np.random.default_rng(seed)
    n = len(common)
    db_, dt_ = [], []
    stack = np.hstack([vb, hb, vt, ht]).astype(np.float64)
    k = xb.shape[1]
    for start in range(0, n_boot, 250):
        w = rng.poisson(1.0, (min(250, n_boot - start), n)).astype(np.float64)
        s_ = w @ stack
        db_.append(_largest_gaps(s_[:, :k], s_[:, k:2 * k], fair))
        dt_.append(_largest_gaps(s_[:, 2 * k:3 * k], s_[:, 3 * k:], fair))
    bb, bt = np.concatenate(db_), np.concatenate(dt_)
    q = [(1 - level) / 2 * 100, (1 + level) / 2 * 100]
    ch = bt - bb
    lo_b, hi_b = np.nanpercentile(bb, q)
    lo_t, hi_t = np.nanpercentile(bt, q)
    lo, hi = np.nanpercentile(ch, q)
    ib, it = int(np.abs(gap_b).argmax()), int(np.abs(gap_t).argmax())
    change = after - before
    # the value furthest from fair before, on the other side after (and clearly so)
    se_t = np.sqrt(max(fair * (1 - fair), 1e-12) / max(int(ht[:, ib].sum()), 1))
    overshoot = bool(np.sign(gap_b[ib]) != np.sign(gap_t[ib])
                     and abs(gap_t[ib]) > 1.96 * se_t)
    verdict = ("closer to balance" if hi < 0 else "further from balance" if lo > 0
               else UNDECIDED)
    return {"before": before, "before_low": float(lo_b), "before_high": float(hi_b),
            "after": after, "after_low": float(lo_t), "after_high": float(hi_t),
            "change": change, "low": float(lo), "high": float(hi), "n": n,
            "before_value": labels[ib], "before_gap": float(gap_b[ib]),
            "after_value": labels[it], "after_gap": float(gap_t[it]),
            "gap_after_of_before_value": float(gap_t[ib]),
            "overshoot": overshoot, "verdict": verdict}


#: The balance grades, in one vocabulary for every report, table and caption (sweeps,
#: comparisons, the terminal): grade -> what it means. :func:`balance_grade` assigns them.
BALANCED, PLAUSIBLY_BALANCED, UNDECIDED, UNBALANCED = (
    "balanced", "plausibly balanced", "undecided", "unbalanced")
BALANCE_GRADES = {
    BALANCED: "every value's 95% interval lies inside the band 1/N ± the tolerance",
    PLAUSIBLY_BALANCED: "every estimate lies inside the band, but some interval reaches "
                        "outside it (more games would tell)",
    UNDECIDED: "some estimate lies outside the band, but every interval reaches into it (more "
               "games would tell)",
    UNBALANCED: "some value's 95% interval lies entirely outside the band",
}
#: The report's colour of each grade: green settled and fair, red settled and unfair, amber
#: for the two that more games would settle.
BALANCE_CLASS = {BALANCED: "ok", PLAUSIBLY_BALANCED: "warn", UNDECIDED: "warn",
                 UNBALANCED: "bad"}


def balance_grade(seat_rows: pd.DataFrame, n_players: int, tolerance: float) -> str:
    """Are the values of the balance factor (seats, dice...) balanced within ``tolerance`` of 1/N?

    ``seat_rows``: the factor's rows (``win_rate_<factor><v>``, :func:`factor_prefix`) of a
    :func:`level_table` (``estimate, low, high``). Returns one of :data:`BALANCE_GRADES`
    (the one vocabulary of balance grades; "n/a" for a solo arm or no rows):

    * ``"balanced"``: every value's 95% interval lies within 1/N ± tolerance;
    * ``"plausibly balanced"``: every point estimate is within the band, but some interval
      reaches outside it (more games would tell);
    * ``"undecided"``: some estimate lies outside the band, but every interval reaches into it
      (more games would tell);
    * ``"unbalanced"``: some value's interval lies entirely outside the band.
    """
    if n_players < 2 or seat_rows.empty:
        return "n/a"
    fair = 1.0 / n_players
    lo, hi = fair - tolerance, fair + tolerance
    if ((seat_rows["low"] >= lo) & (seat_rows["high"] <= hi)).all():
        return BALANCED
    if ((seat_rows["high"] < lo) | (seat_rows["low"] > hi)).any():
        return UNBALANCED
    if ((seat_rows["estimate"] - fair).abs() <= tolerance).all():
        return PLAUSIBLY_BALANCED
    return UNDECIDED


#: The former name of :func:`balance_grade`.
balance_status = balance_grade


def balance_legend(tolerance: float, factor_name: str = "seat") -> str:
    """The grades in words for a caption: the same words the tables and verdicts use."""
    return (f"Balance grades (band: 1/N ± {100 * tolerance:g} points for every {factor_name}): "
            + "; ".join(f"{k}: {v}" for k, v in BALANCE_GRADES.items()) + ".")


def plan_table(baseline: pd.DataFrame, delta: float, tweak: pd.DataFrame | None = None,
               alpha: float = 0.05, power: float = 0.8) -> pd.DataFrame:
    """Games needed to detect a difference ``delta`` in the win rate of each value of the
    game's balance factor (each seat, or e.g. each initiative die), from a pilot.

    Rows per value (``win_rate_<factor><v>``, or ``solo_win``):

    * ``vs_fair``: games to show that the seat's rate differs from 1/N by ``delta`` (one-sample,
      Cohen's h, :func:`analysis.stats.required_games` at the pilot's rate);
    * ``unpaired``: games *per arm* to detect a change of ``delta`` between two independent
      arms, from the pilot variances (:func:`analysis.stats.required_games_unpaired`);
    * ``paired``: games per arm with common random numbers, from the pilot's per-game paired
      differences (:func:`analysis.stats.required_games_paired`); only with a ``tweak`` pilot.
    """
    rows = []
    wanted = (factor_prefix(_factor_of(baseline)), "solo_win")
    mb = [m for m in metrics(baseline) if m.key.startswith(wanted)]
    mt = ({m.key: m for m in metrics(tweak)} if tweak is not None else {})
    if tweak is not None:
        keys = ["master_seed", "game_index"]
        common = baseline.set_index(keys).index.intersection(tweak.set_index(keys).index)
        b = baseline.set_index(keys).loc[common].reset_index()
        t = tweak.set_index(keys).loc[common].reset_index()
        mb = [m for m in metrics(b) if m.key.startswith(wanted)]
        mt = {m.key: m for m in metrics(t)}
    n_players = len(_seats(baseline, "win_share_")) or 1
    for m in mb:
        p = float(np.nanmean(m.values))
        ref = 1.0 / n_players if n_players > 1 else p
        row = {"metric": m.key, "label": m.label, "pilot_games": int(np.isfinite(m.values).sum()),
               "pilot_rate": p, "delta": delta}
        try:
            row["vs_fair"] = stats.required_games(min(max(ref, 1e-6), 1 - 1e-6), delta,
                                                  alpha, power)
        except ValueError:
            row["vs_fair"] = None
        other = mt.get(m.key)
        if other is not None:
            both = np.isfinite(other.values) & np.isfinite(m.values)
            x, y = other.values[both], m.values[both]
            row["unpaired"] = stats.required_games_unpaired(_finite(other.values),
                                                            _finite(m.values), delta, alpha, power)
            row["paired"] = stats.required_games_paired(x - y, delta, alpha, power)
            row["pilot_diff"] = float((x - y).mean())
            row["correlation"] = (float(np.corrcoef(x, y)[0, 1])
                                  if x.std() > 0 and y.std() > 0 else float("nan"))
        else:
            row["unpaired"] = stats.required_games_unpaired(_finite(m.values), _finite(m.values),
                                                            delta, alpha, power)
            row["paired"] = None
            row["pilot_diff"] = None
            row["correlation"] = None
        rows.append(row)
    return pd.DataFrame(rows)
