"""Statistics agree with scipy/statsmodels references and with hand-worked textbook examples."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from analysis import stats


# ---------------------------------------------------------------- Wilson
def test_wilson_textbook_8_of_10():
    # Hand-worked: p = 0.8, z = 1.959964; centre = (p + z^2/2n)/(1 + z^2/n) = 0.7167,
    # half-width = z/(1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2) = 0.2266 -> [0.4902, 0.9433]
    lo, hi = stats.wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=5e-5)
    assert hi == pytest.approx(0.9433, abs=5e-5)


@pytest.mark.parametrize("k,n", [(0, 20), (1, 3), (50, 100), (999, 1000), (12.5, 40)])
def test_wilson_matches_statsmodels_and_formula(k, n):
    lo, hi = stats.wilson_interval(k, n)
    ref = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert (lo, hi) == pytest.approx(ref, abs=1e-12)
    z = st.norm.ppf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (lo, hi) == pytest.approx((max(0, centre - half), min(1, centre + half)), abs=1e-9)


def test_wilson_vectorised_levels_and_empty():
    lo, hi = stats.wilson_interval(np.array([8, 0]), np.array([10, 0]))
    assert lo[0] == pytest.approx(0.4902, abs=5e-5) and np.isnan(lo[1]) and np.isnan(hi[1])
    lo99, hi99 = stats.wilson_interval(8, 10, level=0.99)
    assert (lo99, hi99) == pytest.approx(proportion_confint(8, 10, alpha=0.01, method="wilson"))
    est = stats.proportion_estimate(8, 10)
    assert est.estimate == 0.8 and est.contains(0.8) and est.method == "wilson"


@pytest.mark.parametrize("level", [0.95, 0.9, 0.99, 0.5])
def test_wilson_is_statsmodels_to_the_last_bit(level):
    """The closed form (numpy only, so `playtest run` imports no scipy) gives statsmodels'
    numbers exactly: the win-rate tables print the same digits as before."""
    rng = np.random.default_rng(7)
    n = rng.integers(1, 10 ** 7, size=2000).astype(float)
    k = np.minimum(np.round(rng.random(2000) ** 3 * n * 4) / 4, n)  # fractional shares, 0, n
    k[:3], n[:3] = (0.0, 5.0, 1.0), (5.0, 5.0, 1.0)
    lo, hi = stats.wilson_interval(k, n, level)
    ref_lo, ref_hi = proportion_confint(k, n, alpha=1.0 - level, method="wilson")
    assert np.array_equal(lo, ref_lo) and np.array_equal(hi, ref_hi)
    assert stats.wilson_interval(3.5, 7, level) == tuple(
        float(x) for x in proportion_confint(3.5, 7, alpha=1.0 - level, method="wilson"))
    assert stats._Z_95 == st.norm.isf((1.0 - 0.95) / 2.0)


# ---------------------------------------------------------------- means
def test_mean_interval_t_and_z_match_scipy():
    x = np.random.default_rng(3).normal(10, 2, 50)
    e = stats.mean_interval(x)
    ref = st.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=st.sem(x))
    assert (e.low, e.high) == pytest.approx(ref)
    ez = stats.mean_interval(x, method="z")
    assert (ez.low, ez.high) == pytest.approx(st.norm.interval(0.95, loc=x.mean(), scale=st.sem(x)))
    # textbook: 1..5 -> mean 3, sd 1.5811, t(0.975, 4) = 2.7764 -> 3 -/+ 1.9632
    e5 = stats.mean_interval([1, 2, 3, 4, 5])
    assert (e5.low, e5.high) == pytest.approx((1.0368, 4.9632), abs=1e-4)
    assert stats.mean_interval([4, 4, 4]).low == 4


def test_bootstrap_interval_reproducible_and_close_to_t():
    x = np.random.default_rng(5).exponential(3.0, 400)
    b1 = stats.mean_interval(x, method="bootstrap", n_resamples=1000, seed=1)
    b2 = stats.bootstrap_interval(x, np.mean, n_resamples=1000, seed=1)
    assert (b1.low, b1.high) == (b2.low, b2.high)
    t = stats.mean_interval(x)
    assert b1.low == pytest.approx(t.low, rel=0.05) and b1.high == pytest.approx(t.high, rel=0.05)
    med = stats.bootstrap_interval(x, np.median, n_resamples=1000, seed=1, method="percentile")
    assert med.low < np.median(x) < med.high


# ---------------------------------------------------------------- differences
def test_paired_difference_matches_ttest_rel():
    rng = np.random.default_rng(7)
    base = rng.normal(20, 5, 200)
    a = base + rng.normal(0.8, 1.0, 200)  # common random numbers: tiny noise around base
    d = stats.paired_difference(a, base)
    ref = st.ttest_rel(a, base)
    ci = ref.confidence_interval(0.95)
    assert (d.low, d.high) == pytest.approx((ci.low, ci.high))
    assert d.p_value == pytest.approx(ref.pvalue)
    assert d.significant and d.estimate == pytest.approx(np.mean(a - base))
    # paired is far tighter than unpaired on the same data
    u = stats.unpaired_difference(a, base)
    assert (d.high - d.low) < (u.high - u.low) / 3
    same = stats.paired_difference(base, base)
    assert (same.estimate, same.low, same.high, same.p_value) == (0, 0, 0, 1.0)
    with pytest.raises(ValueError):
        stats.paired_difference([1, 2], [1])


def test_unpaired_difference_matches_welch():
    rng = np.random.default_rng(8)
    a, b = rng.normal(1, 1, 80), rng.normal(0.5, 2, 120)
    d = stats.unpaired_difference(a, b)
    ref = st.ttest_ind(a, b, equal_var=False)
    ci = ref.confidence_interval(0.95)
    assert (d.low, d.high) == pytest.approx((ci.low, ci.high))
    assert d.p_value == pytest.approx(ref.pvalue)


def test_proportion_difference_newcombe_textbook():
    # Newcombe (1998), method 10, example 56/70 vs 48/80: 0.2000 (0.0524, 0.3339)
    d = stats.proportion_difference(56, 70, 48, 80)
    assert d.estimate == pytest.approx(0.2)
    assert (d.low, d.high) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    ref = confint_proportions_2indep(56, 70, 48, 80, method="newcomb")
    assert (d.low, d.high) == pytest.approx(tuple(map(float, ref)))


# ---------------------------------------------------------------- planning
def test_required_games_matches_formula_and_textbook():
    z = st.norm.ppf(0.975) + st.norm.ppf(0.8)
    h = 2 * math.asin(math.sqrt(0.27)) - 2 * math.asin(math.sqrt(0.25))
    assert stats.required_games(0.25, 0.02) == math.ceil((z / h) ** 2)
    # textbook (Cohen's h, two groups): 50% vs 60% needs ~388 per group
    h2 = 2 * math.asin(math.sqrt(0.6)) - 2 * math.asin(math.sqrt(0.5))
    assert h2 == pytest.approx(0.2014, abs=1e-4)
    assert stats.required_games(0.5, 0.1, two_sample=True) == 388
    assert stats.required_games(0.5, -0.1, two_sample=True) == stats.required_games(0.5, 0.1, two_sample=True)
    assert stats.required_games(0.5, 0.02, power=0.9) > stats.required_games(0.5, 0.02)
    with pytest.raises(ValueError):
        stats.required_games(0.5, 0.0)


# ---------------------------------------------------------------- seat balance
def test_seat_balance_detects_planted_imbalance():
    rng = np.random.default_rng(42)
    wins = np.bincount(rng.choice(4, 4000, p=[0.29, 0.25, 0.24, 0.22]), minlength=4)
    res = stats.seat_balance_test(wins, 4)
    assert res.significant and res.p_value < 1e-3
    ref = st.chisquare(wins)
    assert res.statistic == pytest.approx(ref.statistic) and res.p_value == pytest.approx(ref.pvalue)
    assert res.dof == 3 and "differ" in res.describe()


def test_seat_balance_does_not_flag_balanced_case():
    rng = np.random.default_rng(2024)
    flagged = 0
    for _ in range(20):
        wins = np.bincount(rng.choice(3, 3000), minlength=3)
        flagged += stats.seat_balance_test(wins, 3).significant
    assert flagged <= 3  # ~5% false alarms expected; a fixed seed keeps this deterministic
    res = stats.seat_balance_test([500, 500, 500])
    assert not res.significant and "No evidence" in res.describe()


def test_seat_balance_fractional_ties_and_degenerate():
    res = stats.seat_balance_test([10.5, 9.5], 2)
    assert res.expected.tolist() == [10.0, 10.0] and not res.significant
    assert np.isnan(stats.seat_balance_test([0, 0], 2).p_value)
    assert stats.seat_balance_test([2, 1, 1], 3).approximate
    with pytest.raises(ValueError):
        stats.seat_balance_test([1, 2, 3], 2)


# ---------------------------------------------------------------- ladders
LABELS = ["solo_easy", "solo_base", "solo_hard", "solo_very_hard", "solo_hell"]


def test_ladder_monotone_for_clearly_decreasing():
    n = [2000] * 5
    res = stats.ladder_monotonicity([1600, 1200, 800, 400, 100], n, LABELS)
    assert res.verdict == "monotone" and res.monotone
    assert all(s.verdict == "harder" for s in res.steps)
    assert "monotone" in res.text and "solo_hell" in res.text


def test_ladder_not_monotone_when_swapped():
    # solo_hard is planted clearly easier than solo_base
    res = stats.ladder_monotonicity([1600, 800, 1200, 400, 100], [2000] * 5, LABELS)
    assert res.verdict == "not monotone"
    bad = [s for s in res.steps if s.verdict == "easier"]
    assert [(s.easier, s.harder) for s in bad] == [("solo_base", "solo_hard")]
    assert "solo_hard wins more often than solo_base" in res.text


def test_ladder_inconclusive_when_too_close():
    res = stats.ladder_monotonicity([1600, 1200, 1190, 400, 100], [2000] * 5, LABELS)
    assert res.verdict == "inconclusive"
    assert "no significant difference between solo_base and solo_hard" in res.text
    assert [s.label for s in res.steps][1] == "no clear difference"


def test_ladder_says_harder_by_the_interval_but_not_after_holm():
    """Three steps of 3.3 points on 2,000 games each: every unadjusted 95% interval excludes 0,
    yet no Holm-adjusted one-sided test is significant; the text says so, never "no
    significant difference"."""
    res = stats.ladder_monotonicity([1000, 934, 868, 802, 200], [2000] * 5, LABELS)
    assert res.verdict == "inconclusive"
    unclear = [s for s in res.steps if s.verdict == "no clear difference"]
    assert len(unclear) == 3 and all(s.low > 0 and s.p_expected >= 0.05 for s in unclear)
    assert "no significant difference" not in res.text
    assert ("solo_hard is harder than solo_base by the interval (46.7% vs 43.4%, difference "
            "+3.3 points, 95% CI +0.2 to +6.4), but not significant after correcting for 4 "
            "comparisons (Holm-adjusted one-sided p = 0.05") in res.text
    assert {s.label for s in unclear} == {"harder by the interval; not significant after Holm"}


def test_ladder_says_the_step_goes_the_wrong_way():
    """solo_base planted 3.3 points *easier* than solo_easy: the interval excludes 0 on the wrong
    side, the Holm-adjusted reverse test is not significant (p = 0.074)."""
    res = stats.ladder_monotonicity([1000, 1066, 1000, 934, 200], [2000] * 5, LABELS)
    step = res.steps[0]
    assert step.verdict == "no clear difference" and step.high < 0 and step.p_reversed > 0.05
    assert ("the step goes the wrong way: solo_base is easier than solo_easy by the interval "
            "(50.0% vs 53.3%, difference -3.3 points, 95% CI -6.4 to -0.2), though not "
            "significant after correcting for 4 comparisons") in res.text
    assert step.label == "goes the wrong way by the interval; not significant after Holm"
    # a wrong-way estimate whose interval includes 0 says so too
    res = stats.ladder_monotonicity([1000, 1010, 600], [2000] * 3, LABELS[:3])
    assert "the step goes the wrong way in the estimate: solo_base wins more often" in res.text


def test_ladder_holm_adjustment():
    s, n = [530, 500, 470], [1000] * 3
    res = stats.ladder_monotonicity(s, n, ["a", "b", "c"])
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.proportion import test_proportions_2indep
    raw = [test_proportions_2indep(s[i], n[i], s[i + 1], n[i + 1], alternative="larger").pvalue
           for i in range(2)]
    assert [st_.p_expected for st_ in res.steps] == pytest.approx(
        list(multipletests(raw, method="holm")[1]))


@pytest.mark.parametrize("p", [
    [0.01, 0.04, 0.03], [0.2, 0.2, 0.01, 0.2], [0.6, 0.5, 0.9], [0.03], [0.02, float("nan"), 0.01],
    list(np.random.default_rng(4).random(9) ** 3),
])
def test_holm_is_statsmodels_holm(p):
    """Ties, values adjusted past 1, a NaN p-value: the same numbers as statsmodels'."""
    from statsmodels.stats.multitest import multipletests

    np.testing.assert_array_equal(stats.holm(p), multipletests(p, method="holm")[1])


def test_ladder_with_zero_wins_warns_nothing():
    """A rung nobody wins (hell with a weak policy) made statsmodels warn on the terminal."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = stats.ladder_monotonicity([10, 0, 0], [100, 100, 100], LABELS[:3])
    assert res.steps[1].diff == 0 and res.steps[1].verdict == "no clear difference"


def test_points_never_hides_the_sign_of_a_tiny_bound():
    assert stats.points(0.0331) == "+3.3" and stats.points(-0.033) == "-3.3"
    assert stats.points(-0.0004) == "-0.04" and stats.points(0.00004) == "+0.004"
    assert stats.points(0.0) == "+0.0" and stats.points(-0.0) == "+0.0"
