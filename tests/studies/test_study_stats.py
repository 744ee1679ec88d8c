"""Statistics behind compare / plan: reference values, A/A false-positive rate, pairing gain."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st
from statsmodels.stats.power import TTestIndPower, TTestPower

from analysis import stats, studies


def synth_arm(rng, n, n_players=4, p_first=None, seed=1, scores=None):
    """A per-game table shaped like analysis.db.arm_games: one random winner per game."""
    p = np.full(n_players, 1.0 / n_players) if p_first is None else np.array(
        [p_first] + [(1 - p_first) / (n_players - 1)] * (n_players - 1))
    winner = rng.choice(n_players, size=n, p=p)
    df = {"master_seed": np.full(n, seed), "game_index": np.arange(n),
          "n_players": np.full(n, n_players), "rounds": rng.integers(5, 9, n),
          "truncated": np.zeros(n, bool), "n_winners": np.ones(n, int),
          "end_reason": np.where(rng.random(n) < 0.8, "days", "stack")}
    sc = rng.normal(40, 6, (n, n_players)) if scores is None else scores
    for s in range(n_players):
        df[f"win_share_{s}"] = (winner == s).astype(float)
        df[f"score_{s}"] = sc[:, s]
    return pd.DataFrame(df)


def test_required_games_paired_matches_statsmodels_and_formula():
    rng = np.random.default_rng(0)
    d = rng.normal(0.0, 0.3, 500)
    sd = d.std(ddof=1)
    n = stats.required_games_paired(d, 0.02)
    ref = TTestPower().solve_power(effect_size=0.02 / sd, alpha=0.05, power=0.8,
                                   alternative="two-sided")
    assert n == math.ceil(ref)
    z = st.norm.ppf(0.975) + st.norm.ppf(0.8)
    assert abs(n - (z * sd / 0.02) ** 2) / n < 0.01  # normal approximation, large n
    assert stats.required_games_paired(d, -0.02) == n
    assert stats.required_games_paired(np.zeros(10), 0.01) == 2
    with pytest.raises(ValueError):
        stats.required_games_paired(d, 0.0)


def test_required_games_unpaired_matches_statsmodels():
    rng = np.random.default_rng(1)
    a = (rng.random(800) < 0.25).astype(float)
    b = (rng.random(900) < 0.25).astype(float)
    sd = math.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    ref = TTestIndPower().solve_power(effect_size=0.01 / sd, alpha=0.05, power=0.8, ratio=1.0,
                                      alternative="two-sided")
    n = stats.required_games_unpaired(a, b, 0.01)
    assert n == math.ceil(ref)
    # close to the textbook two-proportion figure (Cohen's h) at p = 0.25
    assert abs(n - stats.required_games(0.25, 0.01, two_sample=True)) / n < 0.05


def test_compare_frames_matches_paired_t_and_wilson():
    rng = np.random.default_rng(2)
    b = synth_arm(rng, 400)
    t = synth_arm(rng, 400)
    tab = studies.compare_frames(t, b).set_index("metric")
    r = tab.loc["win_rate_seat0"]
    ref = st.ttest_rel(t["win_share_0"], b["win_share_0"])
    d = t["win_share_0"] - b["win_share_0"]
    half = st.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    assert r["diff"] == pytest.approx(d.mean())
    assert r["low"] == pytest.approx(d.mean() - half) and r["high"] == pytest.approx(d.mean() + half)
    assert r["p_value"] == pytest.approx(ref.pvalue)
    lo, hi = stats.wilson_interval(b["win_share_0"].sum(), len(b))
    assert (r["baseline_low"], r["baseline_high"]) == pytest.approx((lo, hi))
    fpa = tab.loc["first_player_advantage"]
    assert fpa["baseline"] == pytest.approx(b["win_share_0"].mean() - 0.25)
    assert fpa["baseline_low"] == pytest.approx(lo - 0.25)
    assert fpa["diff"] == pytest.approx(r["diff"])
    assert set(tab.index) >= {"mean_score", "score_margin", "rounds", "end:days", "end:stack"}
    top = np.sort(t[[f"score_{s}" for s in range(4)]].to_numpy(), axis=1)
    assert tab.loc["score_margin", "tweak"] == pytest.approx((top[:, -1] - top[:, -2]).mean())


def test_aa_false_positive_rate_is_nominal():
    """A/A on independent Bernoulli data through compare_frames: ~5% of intervals exclude 0."""
    rng = np.random.default_rng(12345)
    reps, flagged = 250, 0
    seat_flags = 0
    keep = ["master_seed", "game_index"] + [f"win_share_{s}" for s in range(4)]
    for _ in range(reps):
        a = synth_arm(rng, 300)[keep]
        b = synth_arm(rng, 300)[keep]
        tab = studies.compare_frames(a, b).set_index("metric")
        flagged += tab.loc["win_rate_seat0", "verdict"] != studies.NOT_DISTINGUISHABLE
        seat_flags += sum(tab.loc[f"win_rate_seat{s}", "verdict"] != studies.NOT_DISTINGUISHABLE
                          for s in range(4))
    # binomial(250, 0.05): mean 12.5, sd 3.4 -> accept about mean ± 3 sd
    assert 3 <= flagged <= 23, flagged
    # 1000 seat tests (weakly dependent within a game): mean 50, sd ~7 -> ± 3.5 sd
    assert 25 <= seat_flags <= 75, seat_flags


def test_paired_intervals_narrower_than_unpaired():
    """Common random numbers: a tweak that changes few games gives much tighter intervals."""
    rng = np.random.default_rng(7)
    b = synth_arm(rng, 2000)
    t = b.copy()
    flip = rng.random(len(t)) < 0.1  # the tweak changes the winner of 10% of the games
    new = rng.integers(0, 4, len(t))
    for s in range(4):
        t.loc[flip, f"win_share_{s}"] = (new[flip] == s).astype(float)
    tab = studies.compare_frames(t, b)
    prop = tab[tab["metric"].str.startswith("win_rate")]
    paired = prop["high"] - prop["low"]
    unpaired = prop["unpaired_high"] - prop["unpaired_low"]
    assert (paired < 0.6 * unpaired).all()
    unp = studies.compare_frames(t, b, paired=False)
    assert np.allclose(unp["high"] - unp["low"], unp["unpaired_high"] - unp["unpaired_low"])


def test_planted_effect_detected_with_sign():
    rng = np.random.default_rng(3)
    b = synth_arm(rng, 3000)
    t = synth_arm(rng, 3000, p_first=0.35)
    tab = studies.compare_frames(t, b).set_index("metric")
    assert tab.loc["win_rate_seat0", "verdict"] == "higher"
    assert tab.loc["first_player_advantage", "verdict"] == "higher"
    assert tab.loc["win_rate_seat0", "low"] > 0.03


def test_balance_status():
    rows = pd.DataFrame({"estimate": [0.25, 0.26], "low": [0.24, 0.25], "high": [0.26, 0.27]})
    assert studies.balance_status(rows, 4, 0.03) == "balanced"
    assert studies.balance_status(rows, 4, 0.015) == "plausibly balanced"
    far = pd.DataFrame({"estimate": [0.35], "low": [0.33], "high": [0.37]})
    assert studies.balance_status(far, 4, 0.02) == "unbalanced"
    assert studies.balance_status(far, 1, 0.02) == "n/a"


def test_plan_table_paired_below_unpaired():
    rng = np.random.default_rng(4)
    b = synth_arm(rng, 2000)
    t = b.copy()
    flip = rng.random(len(t)) < 0.1
    new = rng.integers(0, 4, len(t))
    for s in range(4):
        t.loc[flip, f"win_share_{s}"] = (new[flip] == s).astype(float)
    plan = studies.plan_table(b, 0.01, t).set_index("metric")
    assert (plan["paired"] < plan["unpaired"]).all()
    assert plan.loc["win_rate_seat0", "vs_fair"] == stats.required_games(0.25, 0.01)
    alone = studies.plan_table(b, 0.01)
    assert alone["paired"].isna().all() and (alone["unpaired"] > 0).all()
