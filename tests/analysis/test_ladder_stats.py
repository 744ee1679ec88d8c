"""Ladder statistics: the Bradley-Terry (Luce) fit on synthetic results with known strengths,
the clustered win-rate interval, and the pair / skill tables on hand-made games."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import optimize

from analysis import ladder, stats

NAMES = ["random", "novice", "greedy", "expert"]
TRUE_ELO = np.array([0.0, 80.0, 200.0, 330.0])


def _synthetic(n_players: int, games: int, seed: int):
    """Every pair (b below a) played ``games`` times: one seat of a against n - 1 seats of b,
    a's seat winning with the Luce probability of the true strengths."""
    rng = np.random.default_rng(seed)
    rows = []
    for j in range(len(NAMES)):
        for i in range(j):
            p = 1.0 / (1.0 + (n_players - 1) * 10 ** ((TRUE_ELO[i] - TRUE_ELO[j]) / 400))
            w = rng.binomial(games, p)
            rows.append((j, i, float(w), float(games - w)))
    a, b, wa, wb = map(np.array, zip(*rows))
    return a, b, wa, wb


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_bradley_terry_recovers_known_strengths(n_players):
    a, b, wa, wb = _synthetic(n_players, 4000, seed=n_players)
    r = stats.bradley_terry(NAMES, a, b, wa, wb, n_players)
    assert list(np.argsort(r.rating)) == [0, 1, 2, 3]  # the order of the true strengths
    assert r.rating[0] == 0 and r.se[0] == 0 and not r.adjusted and r.method == "fisher"
    # each true rating within its interval (4 standard errors: a fixed seed, not a coin flip)
    assert np.all(np.abs(r.rating - TRUE_ELO) <= 4 * r.se + 1e-9)
    assert np.all(r.low[1:] < r.rating[1:]) and np.all(r.rating[1:] < r.high[1:])
    # the predicted pair probability follows the model
    p = r.expected(3, 0, n_players)
    assert p == pytest.approx(1 / (1 + (n_players - 1) * 10 ** (-r.rating[3] / 400)))


def test_bradley_terry_is_the_maximum_likelihood():
    """Same estimate as maximising the Luce likelihood directly (scipy), for 3 players."""
    a, b, wa, wb = _synthetic(3, 500, seed=7)

    def nll(t):
        theta = np.r_[0.0, t]
        logit = theta[a] - theta[b] - math.log(2)
        return -np.sum(wa * -np.logaddexp(0, -logit) + wb * -np.logaddexp(0, logit))

    best = optimize.minimize(nll, np.zeros(3), method="BFGS").x
    r = stats.bradley_terry(NAMES, a, b, wa, wb, 3)
    np.testing.assert_allclose(r.rating[1:], best * stats.ELO_PER_LOGIT, atol=0.05)


def test_bradley_terry_one_game_rows_and_clusters():
    """Per-game rows give the same estimate as totals; clusters of perfectly correlated copies
    (each game duplicated) widen the interval by about sqrt(2) over treating them as
    independent."""
    a, b, wa, wb = _synthetic(2, 300, seed=3)
    ga, gb, gwa, gwb = [], [], [], []
    for i in range(len(a)):
        n = int(wa[i] + wb[i])
        ga += [a[i]] * n
        gb += [b[i]] * n
        gwa += [1.0] * int(wa[i]) + [0.0] * int(wb[i])
        gwb += [0.0] * int(wa[i]) + [1.0] * int(wb[i])
    total = stats.bradley_terry(NAMES, a, b, wa, wb)
    per_game = stats.bradley_terry(NAMES, ga, gb, gwa, gwb, clusters=np.arange(len(ga)))
    np.testing.assert_allclose(per_game.rating, total.rating, atol=1e-6)
    twice = stats.bradley_terry(NAMES, ga * 2, gb * 2, gwa * 2, gwb * 2,
                                clusters=np.r_[np.arange(len(ga)), np.arange(len(ga))])
    naive = stats.bradley_terry(NAMES, ga * 2, gb * 2, gwa * 2, gwb * 2)
    np.testing.assert_allclose(twice.rating, total.rating, atol=1e-6)
    ratio = twice.se[1:] / naive.se[1:]
    assert np.all((ratio > 1.3) & (ratio < 1.5)) and twice.method == "cluster-robust"


def test_bradley_terry_separation_is_adjusted_not_infinite():
    """One policy won every game: no finite MLE; 0.5 wins per side keep the order, finitely."""
    r = stats.bradley_terry(["random", "greedy", "expert"], [1, 2, 2], [0, 0, 1],
                            [200, 200, 130], [0, 0, 70])
    assert r.adjusted and np.all(np.isfinite(r.rating)) and np.all(np.isfinite(r.high))
    assert r.rating[0] < r.rating[1] < r.rating[2]


def test_clustered_proportion_widens_only_for_correlated_copies():
    rng = np.random.default_rng(1)
    x = rng.binomial(1, 0.7, 2000).astype(float)
    indep = stats.clustered_proportion(x, np.arange(x.size))
    wilson = stats.proportion_estimate(x.sum(), x.size)
    assert (indep.low, indep.high) == pytest.approx((wilson.low, wilson.high), abs=2e-3)
    dup = stats.clustered_proportion(np.r_[x, x], np.r_[np.arange(x.size), np.arange(x.size)])
    assert dup.estimate == pytest.approx(x.mean())
    assert (dup.high - dup.low) == pytest.approx(indep.high - indep.low, rel=0.02)  # n_eff = n


def _games(rates: dict, n_players: int, games: int = 600, seed: int = 0) -> pd.DataFrame:
    """Hand-made match games: a's seat wins with the given rate, seats rotated evenly."""
    rng = np.random.default_rng(seed)
    rows = []
    for (a, b), p in rates.items():
        for seat in range(n_players):
            for i in range(games):
                w = float(rng.random() < p)
                rows.append({"arm": f"{a}-{b}-{seat}", "a": a, "b": b, "seat": seat,
                             "master_seed": 1, "game_index": i, "n_players": n_players,
                             "a_share": w, "b_share": 1.0 - w})
    return pd.DataFrame(rows)


def test_pair_table_verdicts_and_ladder_summary():
    rungs = ["random", "greedy", "expert"]
    g = _games({("greedy", "random"): 0.5, ("expert", "random"): 0.62,
                ("expert", "greedy"): 0.2}, 3)
    pairs = ladder.pair_table(g, rungs, 3)
    v = dict(zip(zip(pairs["a"], pairs["b"]), pairs["verdict"]))
    assert v[("greedy", "random")] == ladder.BEATS  # 50% vs a fair share of 33%
    assert v[("expert", "greedy")] == ladder.LOSES  # 20% < 33%
    assert pairs["games"].tolist() == [1800, 1800, 1800]
    assert all(len(s) == 3 for s in pairs["by_seat"])
    steps = pairs[[(a, b) in {("greedy", "random"), ("expert", "greedy")}
                   for a, b in zip(pairs["a"], pairs["b"])]]
    text, ok = ladder._verdict(steps, 2, False)
    assert not ok and "goes the wrong way: expert over greedy" in text
    rt = ladder.fit_ratings(g, rungs, 3)
    sk = ladder.skill_versus_luck(g, rt, 3)
    assert sk["fair"] == pytest.approx(1 / 3) and sk["games"] == 5400
    assert 0 < sk["index"] < 1 and sk["low"] < sk["rate"] < sk["high"]


def test_skill_index_is_zero_when_luck_decides():
    g = _games({("greedy", "random"): 0.5}, 2, games=3000, seed=4)
    rt = ladder.fit_ratings(g, ["random", "greedy"], 2)
    sk = ladder.skill_versus_luck(g, rt, 2)
    # the better-rated side is picked after the fact, so the index is >= 0, but near it
    assert 0 <= sk["index"] < 0.03 and sk["index_low"] < 0 < sk["index_high"]


def test_cluster_robust_errors_match_statsmodels():
    """The sandwich from the totals equals statsmodels' cluster-robust GLM on per-game rows."""
    import statsmodels.api as sm

    rng = np.random.default_rng(5)
    n = 3000
    a = rng.integers(1, 3, n)
    b = np.where(a == 2, rng.integers(0, 2, n), 0)
    clusters = rng.integers(0, 700, n)
    luck = rng.normal(0, 1.0, 700)[clusters]  # shared within a cluster: correlated results
    p = 1 / (1 + 2 * np.exp(-(0.4 * a - 0.4 * b + luck)))
    wa = (rng.random(n) < p).astype(float)
    r = stats.bradley_terry(["x", "y", "z"], a, b, wa, 1 - wa, 3, clusters=clusters)
    X = np.zeros((n, 3))
    X[np.arange(n), a] += 1
    X[np.arange(n), b] -= 1
    ref = sm.GLM(np.column_stack([wa, 1 - wa]), X[:, 1:], family=sm.families.Binomial(),
                 offset=np.full(n, -np.log(2))).fit(cov_type="cluster",
                                                    cov_kwds={"groups": clusters})
    np.testing.assert_allclose(r.rating[1:] / stats.ELO_PER_LOGIT, ref.params, rtol=1e-6)
    np.testing.assert_allclose(r.se[1:] / stats.ELO_PER_LOGIT, ref.bse, rtol=2e-3)
