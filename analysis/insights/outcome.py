"""Outcome health, duration and closeness of one arm, from ``games`` and ``seats`` (every game
of the arm, traced or not)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._intervals import LEVEL, N_RESAMPLES, SEED, Bootstrap, est, quantile, records, t_mean, wilson

__all__ = ["is_solo", "completion", "duration", "end_hazard", "loss_hazard", "closeness",
           "final_scores"]

MARGIN_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


def is_solo(games: pd.DataFrame) -> bool:
    """True when the arm's games have one player."""
    return len(games) > 0 and bool((games["n_players"] == 1).all())


def _truncated(games: pd.DataFrame) -> np.ndarray:
    return games["truncated"].fillna(False).astype(bool).to_numpy()


def completion(games: pd.DataFrame, level: float = LEVEL) -> dict:
    """Outcome health: shares of completed, tied, winnerless and truncated games.

    * ``completed``: not truncated and with a result: at least one winner (multiplayer); any
      natural end, won or lost (solo);
    * ``with_winner``: at least one winner (solo: the solo win rate);
    * ``natural_ties``: ``n_winners > 1`` (a shared win after the game's tie-breaks);
    * ``no_winner``: multiplayer games that ended without truncation and without a winner;
    * ``truncated``: stopped by the max-rounds guard;
    * ``end_reasons``: the share of each ``end_reason``.

    All Wilson intervals over the arm's games.
    """
    n = len(games)
    trunc = _truncated(games)
    n_win = games["n_winners"].fillna(0).to_numpy()
    solo = is_solo(games)
    has_winner = n_win >= 1
    completed = ~trunc & (has_winner | solo)
    no_winner = ~trunc & ~has_winner & (not solo)
    out = {
        "n_games": n,
        "completed": wilson(completed.sum(), n, level=level),
        "with_winner": wilson(has_winner.sum(), n, level=level),
        "natural_ties": wilson((n_win > 1).sum(), n, level=level),
        "no_winner": wilson(no_winner.sum(), n, level=level),
        "truncated": wilson(trunc.sum(), n, level=level),
        "end_reasons": {},
    }
    if "end_reason" in games and n:
        counts = games["end_reason"].fillna("(none)").astype(str).value_counts()
        out["end_reasons"] = {r: wilson(int(c), n, level=level)
                              for r, c in sorted(counts.items())}
    return out


def end_hazard(games: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """The end hazard ``h(r) = P(the game ends at round r | not ended before r)``.

    One row per round ``r`` from 1 to the longest game: ``round, at_risk`` (games lasting at
    least r rounds), ``ended`` (games that ended naturally at r), ``truncated`` (games cut at r
    by the max-rounds guard: at risk at r, censored after it, never counted as ends),
    ``hazard = ended / at_risk`` with Wilson ``low``/``high``.
    """
    cols = ["round", "at_risk", "ended", "truncated", "hazard", "low", "high"]
    if not len(games):
        return pd.DataFrame(columns=cols)
    r = games["rounds"].to_numpy(int)
    trunc = _truncated(games)
    rmax = int(r.max())
    rr = np.arange(1, rmax + 1)
    at_risk = (r[None, :] >= rr[:, None]).sum(axis=1)
    ended = np.bincount(r[~trunc], minlength=rmax + 1)[1:]
    cut = np.bincount(r[trunc], minlength=rmax + 1)[1:]
    return _hazard_frame(rr, at_risk, ended, "ended", level).assign(truncated=cut)[cols]


def loss_hazard(games: pd.DataFrame, level: float = LEVEL) -> pd.DataFrame:
    """Solo difficulty curve: ``games lost at round r / games alive at round r`` (lost = ended
    naturally without the solo win, ``n_winners == 0``). Columns ``round, at_risk, lost,
    hazard, low, high`` (Wilson)."""
    cols = ["round", "at_risk", "lost", "hazard", "low", "high"]
    if not len(games):
        return pd.DataFrame(columns=cols)
    r = games["rounds"].to_numpy(int)
    lost = ~_truncated(games) & (games["n_winners"].fillna(0).to_numpy() == 0)
    rmax = int(r.max())
    rr = np.arange(1, rmax + 1)
    at_risk = (r[None, :] >= rr[:, None]).sum(axis=1)
    k = np.bincount(r[lost], minlength=rmax + 1)[1:]
    return _hazard_frame(rr, at_risk, k, "lost", level)[cols]


def _hazard_frame(rr, at_risk, events, name, level) -> pd.DataFrame:
    from .. import stats

    lo, hi = stats.wilson_interval(events.astype(float), at_risk.astype(float), level)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = np.where(at_risk > 0, events / np.maximum(at_risk, 1), np.nan)
    return pd.DataFrame({"round": rr, "at_risk": at_risk, name: events, "hazard": h,
                         "low": np.asarray(lo, float), "high": np.asarray(hi, float)})


def duration(games: pd.DataFrame, level: float = LEVEL, n_resamples: int = N_RESAMPLES,
             seed: int = SEED) -> dict:
    """Game length in rounds over the games that ended naturally (truncated games sit at the
    cap and are counted in ``n_truncated``): mean (t interval), sd (bootstrap over games),
    p50 and p95 (order-statistic intervals), the end hazard per round and, for solo arms, the
    loss hazard (the difficulty curve)."""
    trunc = _truncated(games) if len(games) else np.zeros(0, bool)
    x = games["rounds"].to_numpy(float)[~trunc] if len(games) else np.zeros(0)
    n = x.size
    out = {"n_games": n, "n_truncated": int(trunc.sum()), "mean": t_mean(x, level, (1.0, np.inf))}
    if n >= 2:
        boot = Bootstrap(n, n_resamples, seed)

        def sd(s):
            m = s[..., 1] / s[..., 0]
            var = (s[..., 2] / s[..., 0] - m ** 2) * s[..., 0] / (s[..., 0] - 1)
            return np.sqrt(np.maximum(var, 0.0))[..., None]

        p, lo, hi = boot.interval(np.column_stack([np.ones(n), x, x ** 2]), sd, level)
        out["sd"] = est(p[0], lo[0], hi[0], n, "bootstrap-percentile")
    else:
        out["sd"] = est(None, None, None, n, "bootstrap-percentile")
    out["p50"] = quantile(x, 0.5, level)
    out["p95"] = quantile(x, 0.95, level)
    out["end_hazard"] = records(end_hazard(games, level))
    if is_solo(games):
        out["loss_hazard"] = records(loss_hazard(games, level))
    return out


def final_scores(seats: pd.DataFrame) -> pd.DataFrame:
    """Final scores as one row per game (``master_seed, game_index`` index), one column per
    seat."""
    return seats.pivot_table(index=["master_seed", "game_index"], columns="seat",
                             values="score", aggfunc="first").sort_index()


def closeness(seats: pd.DataFrame, level: float = LEVEL, n_resamples: int = N_RESAMPLES,
              seed: int = SEED) -> dict:
    """Closeness of final scores (multiplayer arms; solo arms get ``n_games = 0``).

    * ``pairs``: for seats a < b, ``win_bias = P(score_a > score_b) - P(score_a < score_b)``
      (t interval of the per-game sign), and the shares ``a_higher``, ``equal`` (Wilson);
    * ``margin``: winner minus runner-up score (the top two final scores): mean (t), quantiles
      (order-statistic intervals);
    * ``tie_rate``: games whose top two final scores are equal (before tie-breaks; Wilson);
    * ``closeness = 1 / sqrt(E[margin^2])`` (bootstrap over games; None when every margin is 0).
    """
    sc = final_scores(seats) if len(seats) else pd.DataFrame()
    if sc.shape[1] < 2:
        return {"n_games": 0, "pairs": [], "margin": {}, "tie_rate": wilson(0, 0),
                "closeness": est(None, None, None, 0, "bootstrap-percentile")}
    sc = sc.dropna()
    v = sc.to_numpy(float)
    n, k = v.shape
    seats_ = [int(c) for c in sc.columns]
    pairs = []
    for i in range(k):
        for j in range(i + 1, k):
            d = np.sign(v[:, i] - v[:, j])
            pairs.append({"seat_a": seats_[i], "seat_b": seats_[j],
                          "win_bias": t_mean(d, level, (-1.0, 1.0)),
                          "a_higher": wilson((d > 0).sum(), n, level=level),
                          "equal": wilson((d == 0).sum(), n, level=level)})
    top2 = -np.sort(-v, axis=1)[:, :2]
    m = top2[:, 0] - top2[:, 1]
    margin = {"mean": t_mean(m, level, (0.0, np.inf))}
    for q in MARGIN_QUANTILES:
        margin[f"p{round(100 * q)}"] = quantile(m, q, level)
    boot = Bootstrap(n, n_resamples, seed)
    p, lo, hi = boot.interval(np.column_stack([np.ones(n), m ** 2]),
                              lambda s: 1.0 / np.sqrt(s[..., 1] / s[..., 0])[..., None], level)
    return {"n_games": n, "pairs": pairs, "margin": margin,
            "tie_rate": wilson((m == 0).sum(), n, level=level),
            "closeness": est(p[0], lo[0], hi[0], n, "bootstrap-percentile")}
