"""Intervals shared by the insight metrics: JSON-ready estimates, the bootstrap over games and
the order-statistic interval of a quantile.

Every estimate is a dict ``{"estimate", "low", "high", "n", "method"}`` (``None`` where a
bound does not exist, e.g. the upper bound of a 95th percentile from 20 games).

The bootstrap resamples *games* (a game's rounds, seats and decisions are correlated, so the
game is the unit). Every bootstrapped statistic here is a function of per-game sums (a mean,
a ratio of sums, a difference of two ratios, 1/sqrt of a mean), so a resample is a vector of
multinomial weights over the games and its sums are one matrix product: ``W @ X``, for all
the cells of a table at once. The weights depend only on ``(n_games, seed, n_resamples)``, so
results are reproducible; the interval is the percentile interval.

Drawing one weight per game and resample costs ``n_resamples x n`` (minutes for a million
games), so above :data:`FAST_N` games :meth:`Bootstrap.sums` draws the resampled sums
another way (``docs/metrics_play.md``, "The bootstrap over many games"):

* **grouped** (exact): games whose rows of ``X`` are identical are interchangeable, and the
  multinomial counts of a group of games are together Multinomial(n, group size / n); so the
  sums are drawn over the distinct rows (rounds, score margins: a few hundred) in the same
  distribution as over the games. Used while there are at most :data:`MAX_DISTINCT`
  distinct rows.
* **normal** (CLT): otherwise, the resampled sums are a sum of ``n`` independent draws from
  the games, so they are close to Normal(n * mean(X), n * Cov(X)) (population covariance);
  they are drawn from it. Not when a column varies in fewer than :data:`MIN_SPREAD` games
  (a rare event's sum is not normal): then the multinomial draw, exact but slow.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pandas as pd
from scipy.stats import binom

from .. import stats

LEVEL = 0.95
N_RESAMPLES = 2000
SEED = 0
_BLOCK = 2_000_000  # weights held at once (resamples x games), about 16 MB
#: Up to this many games, :meth:`Bootstrap.sums` draws one multinomial weight per game.
FAST_N = 20_000
#: Above :data:`FAST_N`, the exact grouped draw while the rows take at most this many values.
MAX_DISTINCT = 5_000
#: The normal draw only when every varying column varies in at least this many games.
MIN_SPREAD = 1_000
METHODS = ("auto", "multinomial", "grouped", "normal")


def est(estimate, low, high, n, method: str) -> dict:
    """One estimate as a JSON-ready dict (non-finite numbers become None)."""
    return {"estimate": num(estimate), "low": num(low), "high": num(high), "n": int(n),
            "method": method}


def num(x):
    """A plain float (or None for NaN/inf/None)."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def wilson(successes: float, n: int, scale: float = 1.0, level: float = LEVEL) -> dict:
    """Proportion ``successes / n`` with its Wilson interval, times ``scale``."""
    if n <= 0:
        return est(None, None, None, 0, "wilson")
    lo, hi = stats.wilson_interval(successes, n, level)
    lo = 0.0 if lo < 1e-12 else lo  # statsmodels' rounding residue at 0 successes
    return est(scale * successes / n, scale * lo, scale * hi, n, "wilson")


def clustered(values: np.ndarray, clusters: np.ndarray, level: float = LEVEL) -> dict:
    """Mean of 0..1 outcomes with a Wilson interval on the effective sample size (Kish design
    effect of the clusters, :func:`analysis.stats.clustered_proportion`)."""
    if len(values) == 0:
        return est(None, None, None, 0, "wilson-clustered")
    e = stats.clustered_proportion(values, clusters, level)
    return est(e.estimate, e.low, e.high, e.n, "wilson-clustered")


def t_mean(values, level: float = LEVEL, bounds: tuple[float, float] = (-np.inf, np.inf)
           ) -> dict:
    """Mean of per-game values with a Student-t interval (degenerate for one value), clipped
    to ``bounds``, the range the metric cannot leave (a t interval of a few games of a rate
    may otherwise reach below 0)."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if x.size == 0:
        return est(None, None, None, 0, "t")
    e = stats.mean_interval(x, level, method="t")
    return est(e.estimate, max(e.low, bounds[0]), min(e.high, bounds[1]), e.n, "t")


def quantile(values, q: float, level: float = LEVEL) -> dict:
    """The ``q`` quantile (numpy's default, linear) with the distribution-free order-statistic
    interval ``[x_(l), x_(u)]``: ``l = F^-1(a/2)``, ``u = F^-1(1 - a/2) + 1`` for ``F`` the
    Binomial(n, q) distribution function, which covers the true quantile with probability at
    least ``level`` for any continuous distribution (conservative with ties). A bound whose
    order statistic does not exist (too few games) is None."""
    x = np.sort(np.asarray(values, dtype=float))
    x = x[np.isfinite(x)]
    n = x.size
    if n == 0:
        return est(None, None, None, 0, "order-statistic")
    a = 1.0 - level
    lo_i = int(binom.ppf(a / 2, n, q))          # 1-based order statistic
    hi_i = int(binom.ppf(1 - a / 2, n, q)) + 1
    low = x[lo_i - 1] if 1 <= lo_i <= n else None
    high = x[hi_i - 1] if 1 <= hi_i <= n else None
    return est(np.quantile(x, q), low, high, n, "order-statistic")


class Bootstrap:
    """Multinomial bootstrap over ``n`` games, fixed by ``seed``.

    :meth:`sums` returns the resampled column sums of a per-game matrix (``n`` rows), the
    input of every bootstrapped statistic here; the columns of one call are resampled jointly
    (same games in each resample). Up to :data:`FAST_N` games the weights depend only on
    ``(n, n_resamples, seed)``, so every call of an instance sees the same resamples; above it
    ``method="auto"`` draws the sums by the exact grouped draw or the normal approximation
    (module docstring). ``method`` forces one (``"multinomial"``, ``"grouped"``,
    ``"normal"``); :attr:`last_method` says which one the last call used.
    """

    def __init__(self, n: int, n_resamples: int = N_RESAMPLES, seed: int = SEED,
                 method: str = "auto"):
        if method not in METHODS:
            raise ValueError(f"method: unknown '{method}'; valid: {', '.join(METHODS)}")
        self.n = int(n)
        self.n_resamples = int(n_resamples)
        self.seed = int(seed)
        self.method = method
        self.last_method: str | None = None

    def sums(self, X: np.ndarray) -> np.ndarray:
        """``(n_resamples, k)`` resampled sums of the columns of ``X`` (``n`` x ``k``)."""
        X = np.asarray(X, dtype=float).reshape(self.n, -1)
        if self.n == 0:
            self.last_method = "multinomial"
            return np.zeros((self.n_resamples, X.shape[1]))
        rng = np.random.default_rng(self.seed)
        method, rows, counts = self._choose(X)
        self.last_method = method
        if method == "normal":
            return _normal_sums(X, self.n_resamples, rng)
        if method == "grouped":
            return _multinomial_sums(rows, counts / self.n, self.n, self.n_resamples, rng)
        return _multinomial_sums(X, np.full(self.n, 1.0 / self.n), self.n, self.n_resamples,
                                 rng)

    def _choose(self, X: np.ndarray) -> tuple[str, np.ndarray | None, np.ndarray | None]:
        """The draw for ``X`` (and, for the grouped one, the distinct rows and their
        counts)."""
        method = self.method
        if method == "multinomial" or (method == "auto" and self.n <= FAST_N):
            return "multinomial", None, None
        if method in ("auto", "grouped"):
            rows, counts = np.unique(X, axis=0, return_counts=True)
            if method == "grouped" or len(rows) <= MAX_DISTINCT:
                return "grouped", rows, counts.astype(float)
        if method == "auto" and not _spread(X):
            return "multinomial", None, None
        return "normal", None, None

    def interval(self, X: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray],
                 level: float = LEVEL) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Point estimates and percentile bounds of ``statistic(sums)``.

        ``statistic`` maps column sums (shape ``(..., k)``) to values (shape ``(..., m)``); it
        is applied to the full-sample sums and to every resample. NaN resamples (an empty
        denominator) are left out; a statistic with fewer than half its resamples finite
        gets no interval.
        """
        X = np.asarray(X, dtype=float).reshape(self.n, -1)
        with np.errstate(divide="ignore", invalid="ignore"):
            point = np.atleast_1d(statistic(X.sum(axis=0)))
            boot = np.atleast_2d(statistic(self.sums(X)))
        boot = np.where(np.isfinite(boot), boot, np.nan)
        ok = np.isfinite(boot).sum(axis=0) >= max(1, self.n_resamples // 2)
        a = (1.0 - level) / 2 * 100
        lo = np.full(point.shape, np.nan)
        hi = np.full(point.shape, np.nan)
        if ok.any():
            lo[ok], hi[ok] = np.nanpercentile(boot[:, ok], [a, 100 - a], axis=0)
        # a statistic that never varies gets the degenerate interval (point, point)
        return point, lo, hi


def _multinomial_sums(rows: np.ndarray, p: np.ndarray, n: int, n_resamples: int,
                      rng: np.random.Generator) -> np.ndarray:
    """Sums ``W @ rows`` for ``n_resamples`` draws of ``W ~ Multinomial(n, p)`` (in blocks of
    :data:`_BLOCK` weights)."""
    out = np.empty((n_resamples, rows.shape[1]))
    block = max(1, _BLOCK // len(p))
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        W = rng.multinomial(n, p, size=stop - start).astype(float)
        out[start:stop] = W @ rows
    return out


def _normal_sums(X: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Sums drawn from Normal(n * mean, n * Cov) of the rows of ``X``: the limit of the
    multinomial resample sums (their exact mean and covariance, with ``Cov`` the population
    covariance). A constant column stays exactly at its total, as it does under resampling."""
    n = X.shape[0]
    mean = X.mean(axis=0)
    Xc = X - mean
    cov = Xc.T @ Xc                                   # n * Cov(X), positive semi-definite
    vals, vecs = np.linalg.eigh(cov)
    root = vecs * np.sqrt(np.clip(vals, 0.0, None))   # root @ root.T == cov
    return n * mean + rng.standard_normal((n_resamples, X.shape[1])) @ root.T


def _spread(X: np.ndarray) -> bool:
    """Whether every column of ``X`` that varies differs from its most common value in at
    least :data:`MIN_SPREAD` rows (so that its resampled sum is close to normal)."""
    for col in X.T:
        _, counts = np.unique(col, return_counts=True)
        off = len(col) - counts.max()
        if 0 < off < MIN_SPREAD:
            return False
    return True


def ratio_table(boot: Bootstrap, num: np.ndarray, den: np.ndarray, level: float = LEVEL
                ) -> list[dict]:
    """``sum(num[:, j]) / sum(den[:, j])`` for every column j, with bootstrap intervals."""
    k = num.shape[1]
    if k == 0:
        return []
    X = np.hstack([num, den])
    point, lo, hi = boot.interval(X, lambda s: s[..., :k] / s[..., k:], level)
    n = boot.n
    return [est(point[j], lo[j], hi[j], n, "bootstrap-percentile") for j in range(k)]


def clean(obj):
    """``obj`` with numpy scalars and arrays as Python values and non-finite floats as None,
    so that ``json.dumps(obj, allow_nan=False)`` accepts it."""
    if isinstance(obj, dict):
        return {str(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [clean(v) for v in obj.tolist()]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return num(obj)
    if obj is None or isinstance(obj, str):
        return obj
    if obj is pd.NA or obj is pd.NaT:
        return None
    return str(obj)


def records(df: pd.DataFrame) -> list[dict]:
    """A DataFrame's rows as JSON-ready dicts."""
    return clean(df.to_dict(orient="records"))
