"""Statistics for game-balance analysis: intervals, balance tests, paired differences, planning.

Conventions (``shared/design.md`` §5):

* A win rate is the mean of ``win_share`` (1/n_winners for a winner, else 0), always reported
  with a 95% interval. For proportions the interval is Wilson's score interval; for means a
  Student-t (normal-theory) interval, or a bootstrap interval where no closed form fits.
* Seat advantage is tested against equal shares 1/N with a chi-square goodness-of-fit test.
* Rule tweaks are compared with *paired* differences: both arms share per-game seeds (common
  random numbers), so the per-game difference carries the comparison.

Everything here delegates to scipy / statsmodels, except Wilson's interval: its closed form
(statsmodels' own formula) is computed here with numpy, so the win-rate tables need neither
library. Tests in ``tests/analysis/test_stats.py`` pin the results to their reference values
and to hand-worked textbook examples.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

# scipy and statsmodels are imported by the functions that use them: ``playtest run`` needs only
# Wilson intervals (numpy), and importing scipy.stats and statsmodels takes most of a second.

__all__ = [
    "Estimate",
    "Difference",
    "BalanceTest",
    "LadderStep",
    "LadderResult",
    "holm",
    "wilson_interval",
    "proportion_estimate",
    "clustered_proportion",
    "mean_interval",
    "bootstrap_interval",
    "paired_difference",
    "unpaired_difference",
    "proportion_difference",
    "seat_balance_test",
    "required_games",
    "required_games_paired",
    "required_games_unpaired",
    "ladder_monotonicity",
    "Ratings",
    "bradley_terry",
    "ELO_PER_LOGIT",
    "points",
]


# ----------------------------------------------------------------------------------------------
# Result types
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """A point estimate with a two-sided confidence interval."""

    estimate: float
    low: float
    high: float
    n: int
    level: float = 0.95
    method: str = ""

    def contains(self, value: float) -> bool:
        """True if ``value`` lies inside the interval (bounds included)."""
        return self.low <= value <= self.high


@dataclass(frozen=True)
class Difference:
    """A difference (first minus second) with its interval and a two-sided p-value."""

    estimate: float
    low: float
    high: float
    p_value: float
    n: int
    level: float = 0.95
    method: str = ""

    @property
    def significant(self) -> bool:
        """True if the interval excludes 0."""
        return self.low > 0 or self.high < 0


@dataclass(frozen=True)
class BalanceTest:
    """Result of :func:`seat_balance_test`."""

    statistic: float
    p_value: float
    dof: int
    observed: np.ndarray
    expected: np.ndarray
    n_players: int
    alpha: float
    approximate: bool  # True if some expected count < 5 (chi-square approximation is rough)

    @property
    def significant(self) -> bool:
        """True if seat balance is rejected at level ``alpha``."""
        return bool(self.p_value < self.alpha)

    def describe(self) -> str:
        """One plain-language sentence stating the result and its evidence."""
        fair = 100.0 / self.n_players
        ev = f"chi-square = {self.statistic:.2f} on {self.dof} df, {_p_eq(self.p_value)}"
        if self.significant:
            text = (f"Seat win rates differ from equal shares ({fair:.1f}% each) at the "
                    f"{self.alpha:.0%} level ({ev}).")
        else:
            text = (f"No evidence that seat win rates differ from equal shares ({fair:.1f}% each) "
                    f"at the {self.alpha:.0%} level ({ev}).")
        if self.approximate:
            text += " Some expected counts are below 5, so the p-value is approximate."
        return text


@dataclass(frozen=True)
class LadderStep:
    """One adjacent pair of a ladder: ``harder`` should have a lower win rate than ``easier``."""

    easier: str
    harder: str
    p_easier: float
    p_harder: float
    diff: float  # p_easier - p_harder: positive when the order is as expected
    low: float
    high: float
    p_expected: float  # one-sided p-value for "easier wins more often", Holm-adjusted
    p_reversed: float  # one-sided p-value for "harder wins more often", Holm-adjusted
    verdict: str  # "harder", "easier", "no clear difference"
    n_steps: int = 1  # steps of the ladder = comparisons the Holm correction is over

    @property
    def label(self) -> str:
        """The step in a few words, for a table: the verdict, refined where the unadjusted 95%
        interval and the Holm-adjusted tests disagree or the estimate goes the wrong way."""
        if self.verdict == "harder":
            return "harder" if self.low > 0 else "harder (one-sided; the 95% interval reaches 0)"
        if self.verdict == "easier":
            return "easier: goes the wrong way"
        if self.low > 0:
            return "harder by the interval; not significant after Holm"
        if self.high < 0:
            return "goes the wrong way by the interval; not significant after Holm"
        if self.diff < 0:
            return "goes the wrong way in the estimate; no clear difference"
        return "no clear difference"

    def describe(self) -> str:
        """One plain clause for a step without a significant verdict. It never says "no
        significant difference" next to a 95% interval that excludes 0: that interval is
        unadjusted, the tests are Holm-corrected over the ladder's steps, so such a step is
        "harder by the interval, but not significant after correcting", or goes the wrong way."""
        rates = f"{100 * self.p_easier:.1f}% vs {100 * self.p_harder:.1f}%"
        ev = (f"difference {points(self.diff)} points, 95% CI {points(self.low)} to "
              f"{points(self.high)}")
        after = f"after correcting for {self.n_steps} comparisons"
        if self.low > 0:
            return (f"{self.harder} is harder than {self.easier} by the interval ({rates}, {ev}), "
                    f"but not significant {after} (Holm-adjusted one-sided {_p_eq(self.p_expected)})")
        if self.high < 0:
            return (f"the step goes the wrong way: {self.harder} is easier than {self.easier} "
                    f"by the interval ({rates}, {ev}), though not significant {after} "
                    f"(Holm-adjusted one-sided {_p_eq(self.p_reversed)})")
        if self.diff < 0:
            return (f"the step goes the wrong way in the estimate: {self.harder} wins more often "
                    f"than {self.easier} ({rates}, {ev}), but the interval includes 0 "
                    f"(Holm-adjusted one-sided {_p_eq(self.p_reversed)})")
        return (f"no significant difference between {self.easier} and {self.harder} ({rates}, "
                f"{ev}, Holm-adjusted one-sided {_p_eq(self.p_expected)})")


@dataclass(frozen=True)
class LadderResult:
    """Result of :func:`ladder_monotonicity`."""

    verdict: str  # "monotone", "not monotone", "inconclusive"
    steps: list[LadderStep] = field(default_factory=list)
    alpha: float = 0.05
    text: str = ""

    @property
    def monotone(self) -> bool:
        return self.verdict == "monotone"


def _fmt_p(p: float) -> str:
    if not np.isfinite(p):
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def points(x: float, digits: int = 1) -> str:
    """A proportion as signed percentage points, ``+3.3``. A non-zero value that would round to
    zero gets more decimals (``-0.04``), so an interval bound never reads ``-0.0`` or ``+0.0``
    on the wrong side of 0; zero is ``+0.0``."""
    v = 100 * float(x)
    while v != 0 and round(v, digits) == 0 and digits < 4:
        digits += 1
    return f"{round(v, digits) + 0.0:+.{digits}f}"


def _p_eq(p: float) -> str:
    """``"p = 0.012"`` or ``"p < 0.001"``."""
    f = _fmt_p(p)
    return f"p {f}" if f.startswith("<") else f"p = {f}"


# ----------------------------------------------------------------------------------------------
# Proportions and means
# ----------------------------------------------------------------------------------------------
#: ``scipy.stats.norm.isf(0.025)``, bit for bit: the critical value of two-sided 95% intervals.
_Z_95 = 1.959963984540054


def _critical_value(level: float) -> float:
    """``z`` with ``P(|Z| <= z) = level``, computed as statsmodels does
    (``scipy.stats.norm.isf((1 - level) / 2)``); the 95% level needs no scipy import."""
    alpha = (1.0 - level) / 2.0
    if alpha == (1.0 - 0.95) / 2.0:
        return _Z_95
    from scipy import stats

    return float(stats.norm.isf(alpha))


def wilson_interval(successes, n, level: float = 0.95):
    """Wilson score interval for a binomial proportion.

    Parameters
    ----------
    successes : float or array_like
        Number of successes. May be fractional (a sum of ``win_share``, where a k-way tie
        counts 1/k for each winner); the interval is then that of the mean share, which is
        slightly conservative because a shared win varies less than a whole one.
    n : int or array_like
        Number of trials (games). ``n == 0`` gives ``(nan, nan)``.
    level : float, default 0.95
        Confidence level.

    Returns
    -------
    (low, high) : tuple of float or of ndarray
        The same numbers as ``statsmodels.stats.proportion.proportion_confint(method="wilson")``
        (its formula, operation for operation), computed with numpy alone.

    Examples
    --------
    >>> lo, hi = wilson_interval(8, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.4902, 0.9433)
    """
    s = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    safe = np.where(m > 0, m, 1.0)
    q = np.minimum(s, safe) / safe
    crit = _critical_value(level)
    crit2 = crit**2
    denom = 1 + crit2 / safe
    center = (q + crit2 / (2 * safe)) / denom
    dist = crit * np.sqrt(q * (1.0 - q) / safe + crit2 / (4.0 * safe**2))
    dist /= denom
    lo, hi = np.clip(center - dist, 0, 1), np.clip(center + dist, 0, 1)
    lo = np.where(m > 0, lo, np.nan)
    hi = np.where(m > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def proportion_estimate(successes: float, n: int, level: float = 0.95) -> Estimate:
    """Proportion ``successes / n`` with its Wilson interval (see :func:`wilson_interval`)."""
    lo, hi = wilson_interval(successes, n, level)
    est = successes / n if n > 0 else float("nan")
    return Estimate(float(est), lo, hi, int(n), level, "wilson")


def clustered_proportion(values: Sequence[float], clusters: Sequence, level: float = 0.95
                         ) -> Estimate:
    """Mean of win shares whose games come in correlated clusters, with a Wilson interval on
    the effective number of games.

    ``playtest ladder`` plays game index *i* once with a policy in every seat, on the same dice:
    those copies are correlated (positively when the dice favour one policy's style), so
    treating them as independent games would make the interval too narrow. The interval here
    is Wilson's at ``n_eff = n / deff`` games, where the design effect ``deff`` (Kish) is the
    cluster-robust variance of the mean (from the cluster totals) over the binomial one,
    ``p(1 - p) / n``, and at least 1 (independent games are the best case assumed).

    Parameters
    ----------
    values : array_like
        One win share (0..1) per game.
    clusters : array_like
        A label per game; games with the same label are one cluster (e.g. the game index).
    level : float, default 0.95

    Returns
    -------
    Estimate
        ``method = "wilson-clustered"``; ``n`` is the number of games (not ``n_eff``).
    """
    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, level, "wilson-clustered")
    p = float(x.mean())
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    sums = np.bincount(inv, weights=x)
    k = sums.size
    var_binomial = p * (1.0 - p) / n
    deff = 1.0
    if k > 1 and var_binomial > 0:
        resid = sums - p * np.bincount(inv)
        var_cluster = k / (k - 1.0) * float(np.sum(resid ** 2)) / n ** 2
        deff = max(1.0, var_cluster / var_binomial)
    lo, hi = wilson_interval(p * n / deff, n / deff, level)
    return Estimate(p, lo, hi, n, level, "wilson-clustered")


def mean_interval(values: Sequence[float], level: float = 0.95, method: str = "t",
                  n_resamples: int = 2000, seed: int = 0) -> Estimate:
    """Mean with a confidence interval.

    Parameters
    ----------
    values : array_like
        Observations (for example scores or game lengths).
    level : float, default 0.95
        Confidence level.
    method : {"t", "z", "bootstrap"}, default "t"
        ``"t"``: Student t interval (``DescrStatsW.tconfint_mean``), the normal-theory interval
        for a mean; ``"z"``: normal quantile instead of t (``zconfint_mean``);
        ``"bootstrap"``: BCa bootstrap (:func:`bootstrap_interval`).
    n_resamples, seed : int
        Bootstrap settings (ignored by the closed forms).

    Returns
    -------
    Estimate
        A sample with one value, or zero spread, gives a degenerate interval (mean, mean).
    """
    from statsmodels.stats.weightstats import DescrStatsW

    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, level, method)
    m = float(x.mean())
    if n == 1 or float(x.std()) == 0.0:
        return Estimate(m, m, m, n, level, method)
    if method == "t":
        lo, hi = DescrStatsW(x).tconfint_mean(alpha=1.0 - level)
    elif method == "z":
        lo, hi = DescrStatsW(x).zconfint_mean(alpha=1.0 - level)
    elif method == "bootstrap":
        return bootstrap_interval(x, np.mean, level=level, n_resamples=n_resamples, seed=seed)
    else:
        raise ValueError(f"unknown method '{method}'; valid: t, z, bootstrap")
    return Estimate(m, float(lo), float(hi), n, level, method)


def bootstrap_interval(values: Sequence[float], statistic: Callable = np.mean,
                       level: float = 0.95, n_resamples: int = 2000, seed: int = 0,
                       method: str = "BCa") -> Estimate:
    """Bootstrap interval of ``statistic`` (``scipy.stats.bootstrap``), for statistics with no
    closed-form interval (medians, ratios, quantiles of game length...).

    Parameters
    ----------
    values : array_like
        One-dimensional sample.
    statistic : callable, default numpy.mean
        Called as ``statistic(sample, axis=-1)`` (vectorised, as scipy expects).
    level : float, default 0.95
    n_resamples : int, default 2000
    seed : int, default 0
        Seed of the resampling generator, so reports are reproducible.
    method : {"BCa", "percentile", "basic"}, default "BCa"

    Returns
    -------
    Estimate
    """
    from scipy import stats as _st

    x = np.asarray(values, dtype=float)
    est = float(statistic(x, axis=-1))
    if x.size < 2 or float(x.std()) == 0.0:
        return Estimate(est, est, est, int(x.size), level, f"bootstrap-{method}")
    res = _st.bootstrap((x,), statistic, confidence_level=level, n_resamples=n_resamples,
                        method=method, rng=np.random.default_rng(seed), vectorized=True)
    ci = res.confidence_interval
    return Estimate(est, float(ci.low), float(ci.high), int(x.size), level, f"bootstrap-{method}")


# ----------------------------------------------------------------------------------------------
# Differences
# ----------------------------------------------------------------------------------------------
def _quiet_p(test: Callable, *args, **kw) -> float:
    """p-value of a scipy test without its precision-loss RuntimeWarning: paired arms that are
    nearly identical game by game (common random numbers) trigger it, yet the p-value and the
    statsmodels interval are fine; a library warning must not reach the terminal."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(test(*args, **kw).pvalue)


def paired_difference(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Difference:
    """Mean of per-game differences ``a - b`` with a t interval (common random numbers).

    Parameters
    ----------
    a, b : array_like
        Per-game values of the two arms, aligned by game (same ``master_seed`` and
        ``game_index``), e.g. seat 0's ``win_share`` under the tweak and under the baseline.
    level : float, default 0.95

    Returns
    -------
    Difference
        Interval from ``DescrStatsW(a - b).tconfint_mean``; p-value of the paired t test
        (``scipy.stats.ttest_rel``). Identical arms give (0, 0) with p = 1.
    """
    from scipy import stats as _st
    from statsmodels.stats.weightstats import DescrStatsW

    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"paired samples must have the same length ({x.size} != {y.size})")
    d = x - y
    n = d.size
    if n == 0:
        return Difference(float("nan"), float("nan"), float("nan"), float("nan"), 0, level, "paired-t")
    m = float(d.mean())
    if n == 1 or float(d.std()) == 0.0:
        return Difference(m, m, m, 1.0 if m == 0 else 0.0, n, level, "paired-t")
    lo, hi = DescrStatsW(d).tconfint_mean(alpha=1.0 - level)
    p = _quiet_p(_st.ttest_rel, x, y)
    return Difference(m, float(lo), float(hi), p, n, level, "paired-t")


def unpaired_difference(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Difference:
    """Difference of means ``mean(a) - mean(b)`` of independent samples (Welch t interval).

    Use when the arms do not share seeds; otherwise :func:`paired_difference` is much tighter.

    Returns
    -------
    Difference
        Interval from ``CompareMeans.tconfint_diff(usevar="unequal")``; p-value from
        ``scipy.stats.ttest_ind(equal_var=False)``.
    """
    from scipy import stats as _st
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    m = float(x.mean() - y.mean())
    n = int(x.size + y.size)
    if x.std() == 0 and y.std() == 0:
        return Difference(m, m, m, 1.0 if m == 0 else 0.0, n, level, "welch")
    cm = CompareMeans(DescrStatsW(x), DescrStatsW(y))
    lo, hi = cm.tconfint_diff(alpha=1.0 - level, usevar="unequal")
    p = _quiet_p(_st.ttest_ind, x, y, equal_var=False)
    return Difference(m, float(lo), float(hi), p, n, level, "welch")


def proportion_difference(s1: float, n1: int, s2: float, n2: int,
                          level: float = 0.95) -> Difference:
    """Difference of two independent proportions ``s1/n1 - s2/n2``.

    Interval: Newcombe's hybrid score interval (built from two Wilson intervals;
    ``confint_proportions_2indep(method="newcomb")``), well behaved near 0 and 1.
    p-value: two-sided Agresti-Caffo test (``test_proportions_2indep``).
    """
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    lo, hi = confint_proportions_2indep(s1, n1, s2, n2, method="newcomb", alpha=1.0 - level)
    p = _quiet_p(test_proportions_2indep, s1, n1, s2, n2, method="agresti-caffo")
    return Difference(float(s1 / n1 - s2 / n2), float(lo), float(hi), p, int(n1 + n2), level,
                      "newcombe")


# ----------------------------------------------------------------------------------------------
# Seat balance
# ----------------------------------------------------------------------------------------------
def seat_balance_test(wins_by_seat: Sequence[float], n_players: int | None = None,
                      alpha: float = 0.05) -> BalanceTest:
    """Chi-square goodness-of-fit test of seat win counts against equal shares 1/N.

    Parameters
    ----------
    wins_by_seat : array_like of float, length N
        Wins per seat, ``sum(win_share)`` over the games of one arm (one player count).
    n_players : int, optional
        N; defaults to ``len(wins_by_seat)``.
    alpha : float, default 0.05
        Level at which :attr:`BalanceTest.significant` rejects balance.

    Returns
    -------
    BalanceTest

    Notes
    -----
    The expected count of every seat is ``total / N`` where ``total = sum(wins_by_seat)``:
    games that nobody won contribute 0 to every seat and so drop out, and a game with a
    single winner adds exactly 1 to one seat (a multinomial draw, for which the chi-square
    approximation is standard; ``scipy.stats.chisquare``, N - 1 degrees of freedom).

    **Ties.** A k-way tie adds 1/k to each tied seat (the fractional ``win_share``), so the
    counts may be fractional. Splitting a win spreads it over seats, which lowers the variance
    of the counts relative to a multinomial; the test is then slightly conservative (it
    rejects balance a little less often than ``alpha``), never anti-conservative. To test only
    decisive games, pass the wins of games with ``n_winners = 1``.
    """
    from scipy import stats as _st

    obs = np.asarray(wins_by_seat, dtype=float)
    n = int(n_players or obs.size)
    if obs.size != n:
        raise ValueError(f"expected {n} seat counts, got {obs.size}")
    total = float(obs.sum())
    expected = np.full(n, total / n)
    if total <= 0 or n < 2:
        return BalanceTest(float("nan"), float("nan"), n - 1, obs, expected, n, alpha, True)
    res = _st.chisquare(obs, expected)
    return BalanceTest(float(res.statistic), float(res.pvalue), n - 1, obs, expected, n, alpha,
                       bool((expected < 5).any()))


# ----------------------------------------------------------------------------------------------
# Planning
# ----------------------------------------------------------------------------------------------
def required_games(p: float, delta: float, alpha: float = 0.05, power: float = 0.8,
                   two_sample: bool = False) -> int:
    """Games needed to detect a change ``delta`` in a win rate ``p`` (two-sided test).

    Parameters
    ----------
    p : float
        Baseline win rate, e.g. 1/N for a seat of an N-player game.
    delta : float
        Smallest difference worth detecting, e.g. 0.02 (2 percentage points).
    alpha : float, default 0.05
        Two-sided significance level (95% confidence).
    power : float, default 0.8
    two_sample : bool, default False
        False: one seat's rate against a known value ``p`` (seat advantage vs 1/N).
        True: games *per arm* to compare two independent arms. Arms with common random
        numbers (paired) need fewer games, so this is an upper bound for them.

    Returns
    -------
    int
        Games (rounded up), from Cohen's effect size h (``proportion_effectsize``) and
        ``NormalIndPower.solve_power`` (``ratio=0`` is the one-sample case).
    """
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    if not 0 < p < 1 or not 0 < p + delta < 1 or delta == 0:
        raise ValueError("need 0 < p < 1, 0 < p + delta < 1 and delta != 0")
    h = abs(float(proportion_effectsize(p + delta, p)))
    n = NormalIndPower().solve_power(effect_size=h, alpha=alpha, power=power,
                                     ratio=1.0 if two_sample else 0.0,
                                     alternative="two-sided")
    return int(math.ceil(float(np.asarray(n).item()) - 1e-9))


def _solve_t_power(solver, effect: float, alpha: float, power: float, **kw) -> int:
    if not np.isfinite(effect) or effect <= 0:
        return 0 if effect == np.inf else -1
    n = solver.solve_power(effect_size=effect, alpha=alpha, power=power,
                           alternative="two-sided", **kw)
    return int(math.ceil(float(np.asarray(n).item()) - 1e-9))


def required_games_paired(differences: Sequence[float], delta: float, alpha: float = 0.05,
                          power: float = 0.8) -> int:
    """Games (pairs) needed to detect a mean paired difference ``delta`` (two-sided paired t test).

    Parameters
    ----------
    differences : array_like
        Per-game differences tweak − baseline from a *pilot* run with common random numbers
        (e.g. seat 0's ``win_share`` in both arms); only their standard deviation is used.
    delta : float
        Smallest difference worth detecting (same units, e.g. 0.01 = 1 point of win rate).
    alpha, power : float
        Two-sided level (0.05 = 95% confidence) and power.

    Returns
    -------
    int
        ``TTestPower().solve_power(effect_size=|delta| / sd(differences))`` rounded up. If the
        pilot's differences do not vary at all, 2 (the smallest sample a t test accepts).
    """
    from statsmodels.stats.power import TTestPower

    d = np.asarray(differences, dtype=float)
    if delta == 0 or d.size < 2:
        raise ValueError("need delta != 0 and at least 2 pilot differences")
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        return 2
    return max(2, _solve_t_power(TTestPower(), abs(delta) / sd, alpha, power))


def required_games_unpaired(a: Sequence[float], b: Sequence[float], delta: float,
                            alpha: float = 0.05, power: float = 0.8) -> int:
    """Games *per arm* to detect a difference ``delta`` between two independent arms (Welch-like).

    Uses the pilot variances of both arms: effect size ``|delta| / sqrt((var_a + var_b) / 2)``
    and ``TTestIndPower().solve_power(ratio=1)``. Compare with :func:`required_games_paired`
    on the same pilot to see what common random numbers save.
    """
    from statsmodels.stats.power import TTestIndPower

    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if delta == 0 or x.size < 2 or y.size < 2:
        raise ValueError("need delta != 0 and at least 2 pilot games per arm")
    sd = math.sqrt((float(x.var(ddof=1)) + float(y.var(ddof=1))) / 2.0)
    if sd == 0.0:
        return 2
    return max(2, _solve_t_power(TTestIndPower(), abs(delta) / sd, alpha, power, ratio=1.0))


# ----------------------------------------------------------------------------------------------
# Difficulty ladders
# ----------------------------------------------------------------------------------------------
def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the order given: statsmodels'
    ``multipletests(pvalues, method="holm")[1]``, computed as it does. Not delegated: that call
    runs a full garbage collection every time, a tenth of a second or more in a process that
    holds Numba's compiled kernels (a solo report makes 16 of them)."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    adjusted = np.maximum.accumulate(p[order] * np.arange(p.size, 0, -1))
    adjusted[adjusted > 1] = 1
    out = np.empty_like(adjusted)
    out[order] = adjusted
    return out


def ladder_monotonicity(successes: Sequence[float], n: Sequence[int],
                        labels: Sequence[str] | None = None, alpha: float = 0.05,
                        level: float = 0.95) -> LadderResult:
    """Is a ladder of win probabilities strictly decreasing (each rung harder than the last)?

    Parameters
    ----------
    successes, n : array_like
        Wins and games per rung, ordered from the easiest rung to the hardest
        (e.g. solo_easy, solo_base, solo_hard, solo_very_hard, solo_hell).
    labels : sequence of str, optional
        Rung names for the evidence text.
    alpha : float, default 0.05
        Family-wise error rate over the adjacent steps (Holm correction).
    level : float, default 0.95
        Level of the per-step intervals of the difference (Newcombe).

    Returns
    -------
    LadderResult
        ``verdict`` is

        * ``"monotone"``: every adjacent step is significantly harder (one-sided
          Agresti-Caffo test that the easier rung wins more, Holm-adjusted p < ``alpha``);
        * ``"not monotone"``: some step is significantly *easier* than the rung before it
          (one-sided test in the reverse direction, Holm-adjusted over the steps);
        * ``"inconclusive"``: neither; the steps lacking evidence are named in ``text``.

    Notes
    -----
    Rungs are treated as independent samples. Arms run with common random numbers are
    positively correlated, which makes this test conservative (it may say "inconclusive"
    where a paired test would conclude).
    """
    from statsmodels.stats.proportion import test_proportions_2indep

    s = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    k = s.size
    names = list(labels) if labels is not None else [f"rung {i}" for i in range(k)]
    if k < 2:
        return LadderResult("inconclusive", [], alpha, "Fewer than two rungs: nothing to order.")
    diffs, lows, highs, p_exp, p_rev = [], [], [], [], []
    for i in range(k - 1):
        s1, n1, s2, n2 = s[i], m[i], s[i + 1], m[i + 1]
        d = proportion_difference(s1, n1, s2, n2, level)
        diffs.append(d.estimate)
        lows.append(d.low)
        highs.append(d.high)
        p_exp.append(_quiet_p(test_proportions_2indep, s1, n1, s2, n2, method="agresti-caffo",
                              alternative="larger"))
        p_rev.append(_quiet_p(test_proportions_2indep, s1, n1, s2, n2, method="agresti-caffo",
                              alternative="smaller"))
    adj_exp = holm(p_exp)
    adj_rev = holm(p_rev)
    steps = []
    for i in range(k - 1):
        if adj_exp[i] < alpha:
            v = "harder"
        elif adj_rev[i] < alpha:
            v = "easier"
        else:
            v = "no clear difference"
        steps.append(LadderStep(names[i], names[i + 1], float(s[i] / m[i]),
                                float(s[i + 1] / m[i + 1]), diffs[i], lows[i], highs[i],
                                float(adj_exp[i]), float(adj_rev[i]), v, k - 1))
    easier = [st for st in steps if st.verdict == "easier"]
    unclear = [st for st in steps if st.verdict == "no clear difference"]
    order = " > ".join(f"{nm} {100 * st:.1f}%" for nm, st in zip(names, s / m))
    if easier:
        verdict = "not monotone"
        bad = "; ".join(
            f"{st.harder} wins more often than {st.easier} "
            f"({100 * st.p_harder:.1f}% vs {100 * st.p_easier:.1f}%, difference "
            f"{points(-st.diff)} points, 95% CI {points(-st.high)} to {points(-st.low)}, "
            f"Holm-adjusted one-sided {_p_eq(st.p_reversed)})" for st in easier)
        text = f"The ladder is NOT monotone: {bad}."
    elif unclear:
        verdict = "inconclusive"
        bad = "; ".join(st.describe() for st in unclear)
        text = f"Monotonicity is not established: {bad}. More games would settle it."
    else:
        verdict = "monotone"
        worst = max(steps, key=lambda st: st.p_expected)
        text = (f"The ladder is monotone: every step is significantly harder than the one "
                f"before ({order}; largest Holm-adjusted one-sided p-value: "
                f"{_p_eq(worst.p_expected)}, for {worst.easier} vs {worst.harder}).")
    return LadderResult(verdict, steps, alpha, text)


# ----------------------------------------------------------------------------------------------
# Ratings from head-to-head results (playtest ladder)
# ----------------------------------------------------------------------------------------------
#: Elo points per unit of log-strength: a 400-point gap is 10:1 odds in a two-player game.
ELO_PER_LOGIT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Ratings:
    """Result of :func:`bradley_terry`: one rating per player on the Elo scale, anchored at the
    ``anchor`` player (rating 0, no interval of its own: every interval is relative to it)."""

    names: list[str]
    rating: np.ndarray  # Elo points
    low: np.ndarray  # ``level`` Wald interval (Fisher information, or cluster-robust)
    high: np.ndarray
    se: np.ndarray  # standard error, Elo points
    anchor: int
    level: float
    adjusted: bool  # True: 0.5 wins were added to each side of every pair (see bradley_terry)
    method: str  # "fisher" or "cluster-robust"

    def expected(self, a: int, b: int, n_players: int = 2) -> float:
        """Probability that one seat of ``a`` wins against ``n_players - 1`` seats of ``b``."""
        gap = (self.rating[b] - self.rating[a]) / ELO_PER_LOGIT
        return 1.0 / (1.0 + (n_players - 1) * math.exp(gap))


def bradley_terry(names: Sequence[str], a: Sequence[int], b: Sequence[int],
                  wins_a: Sequence[float], wins_b: Sequence[float],
                  n_players: Sequence[int] | int = 2, anchor: int = 0,
                  level: float = 0.95, clusters: Sequence | None = None) -> Ratings:
    """Maximum-likelihood Bradley-Terry (Luce) ratings from head-to-head results.

    Each result row is one game or a total of games of one match-up: one seat of player
    ``a[i]`` against ``n_players - 1`` seats of player ``b[i]``, in which ``a`` won
    ``wins_a[i]`` and ``b``'s seats together ``wins_b[i]`` (fractional for shared wins). The
    model gives each player a strength ``exp(theta)`` and the seat of ``a`` the chance
    ``exp(theta_a) / (exp(theta_a) + (n - 1) exp(theta_b))`` of winning: the Bradley-Terry
    model for two players, Luce's choice model for more. That is a binomial GLM with logit
    ``theta_a - theta_b - log(n - 1)`` (statsmodels ``GLM``, ``offset = -log(n - 1)``), fitted
    with ``theta[anchor] = 0``.

    Parameters
    ----------
    names : sequence of str
        The players (policies).
    a, b : sequence of int
        Indices into ``names`` of each row's single seat and of the other seats.
    wins_a, wins_b : sequence of float
        Wins of ``a``'s seat and of ``b``'s seats (a game nobody won counts for neither).
    n_players : int or sequence of int, default 2
        Seats per game, per row or for all rows.
    anchor : int, default 0
        The player whose rating is fixed at 0.
    level : float, default 0.95
        Level of the Wald intervals (rating ± z·se).
    clusters : sequence, optional
        With one row per game: a label per row; rows with the same label may be correlated
        (games on the same dice), and the standard errors are cluster-robust (sandwich).
        Without it, from the Fisher information (rows independent).

    Returns
    -------
    Ratings
        Ratings in Elo points (:data:`ELO_PER_LOGIT` per unit of ``theta``): a gap of ``d``
        points means odds ``10**(d / 400)`` for a two-player game.

    Notes
    -----
    The fit uses the totals per match-up (one small GLM whatever the number of games). With
    ``clusters``, the standard errors are the sandwich ``I^-1 M I^-1``: ``I`` the Fisher
    information, ``M`` the outer products of the per-cluster score sums (times G / (G - 1)).

    The maximum-likelihood estimate exists only when the directed "won against" graph of the
    players is strongly connected (Zermelo, Ford). When it is not (say greedy won every single
    game against random), 0.5 wins are added to each side of every match-up, which keeps the
    estimates finite and shrinks them slightly toward each other; ``adjusted`` says so.
    """
    import statsmodels.api as sm
    from scipy import stats as _st
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    k = len(names)
    ia, ib = np.asarray(a, dtype=int), np.asarray(b, dtype=int)
    wa, wb = np.asarray(wins_a, dtype=float), np.asarray(wins_b, dtype=float)
    n = np.broadcast_to(np.asarray(n_players, dtype=float), ia.shape)
    if k < 2 or ia.size == 0:
        raise ValueError("need at least two players and one result")
    # the fit needs only the totals per match-up (a, b, n)
    ups, row_up = np.unique(np.column_stack([ia, ib, n]), axis=0, return_inverse=True)
    row_up = row_up.ravel()
    ua, ub, un = ups[:, 0].astype(int), ups[:, 1].astype(int), ups[:, 2]
    ta = np.bincount(row_up, weights=wa, minlength=len(ups))
    tb = np.bincount(row_up, weights=wb, minlength=len(ups))
    # edge i -> j: i won at least once against j (or shared a win)
    src = np.r_[ua[ta > 0], ub[tb > 0]]
    dst = np.r_[ub[ta > 0], ua[tb > 0]]
    graph = csr_matrix((np.ones(src.size), (src, dst)), shape=(k, k))
    adjusted = bool(connected_components(graph, directed=True, connection="strong")[0] > 1)
    if adjusted:
        ta, tb = ta + 0.5, tb + 0.5
    free = [j for j in range(k) if j != anchor]
    X = np.zeros((len(ups), k))
    X[np.arange(len(ups)), ua] += 1.0
    X[np.arange(len(ups)), ub] -= 1.0
    X = X[:, free]
    keep = ta + tb > 0  # a match-up nobody won a game of carries no information
    with warnings.catch_warnings():  # no residual df (two players): a harmless scale warning
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = sm.GLM(np.column_stack([ta, tb])[keep], X[keep], family=sm.families.Binomial(),
                     offset=-np.log(un[keep] - 1.0)).fit()
    cov = np.asarray(fit.cov_params())  # inverse Fisher information
    if clusters is not None:  # sandwich: bread = that inverse, meat = the cluster scores
        groups = np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()
        logit = X @ np.asarray(fit.params) - np.log(un - 1.0)
        p = 1.0 / (1.0 + np.exp(-logit))
        resid = wa - p[row_up] * (wa + wb)  # score of each row
        g = int(groups.max()) + 1
        scores = np.column_stack([np.bincount(groups, weights=X[row_up, c] * resid, minlength=g)
                                  for c in range(len(free))])
        meat = scores.T @ scores * (g / (g - 1.0) if g > 1 else 1.0)
        cov = cov @ meat @ cov
    theta = np.zeros(k)
    se = np.zeros(k)
    theta[free] = fit.params
    se[free] = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    z = float(_st.norm.ppf(0.5 + level / 2.0))
    r, s = theta * ELO_PER_LOGIT, se * ELO_PER_LOGIT
    return Ratings(list(names), r, r - z * s, r + z * s, s, anchor, level, adjusted,
                   "cluster-robust" if clusters is not None else "fisher")
