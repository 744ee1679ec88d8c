"""The bootstrap over many games (analysis/insights/_intervals.py, docs/metrics_play.md "The
bootstrap over many games"): above FAST_N games the resampled sums come from the exact grouped
draw or the normal approximation; they must give the intervals the multinomial draw gives."""
from __future__ import annotations

import time

import numpy as np
import pytest

from analysis.insights import _intervals as iv
from analysis.insights._intervals import FAST_N, Bootstrap


def _sd(s):
    """The sample sd from the sums of (1, x, x^2), as analysis.insights.duration has it."""
    m = s[..., 1] / s[..., 0]
    var = (s[..., 2] / s[..., 0] - m ** 2) * s[..., 0] / (s[..., 0] - 1)
    return np.sqrt(np.maximum(var, 0.0))[..., None]


def _cols(x):
    return np.column_stack([np.ones(len(x)), x, x ** 2])


def _sd_interval(x, method="auto", seed=0):
    b = Bootstrap(len(x), seed=seed, method=method)
    p, lo, hi = b.interval(_cols(x), _sd)
    return p[0], lo[0], hi[0], b.last_method


def _auto_method(X) -> str:
    """The draw ``method="auto"`` takes for the rows ``X`` (a few resamples: the choice depends
    on the rows alone, and 2,000 multinomial draws over 20,000 games take seconds)."""
    b = Bootstrap(len(X), n_resamples=10)
    b.sums(X)
    return b.last_method


def test_auto_picks_the_draw_by_size_and_data():
    rng = np.random.default_rng(1)
    small = rng.normal(size=FAST_N)
    assert _auto_method(_cols(small)) == "multinomial"          # unchanged up to FAST_N games
    assert _auto_method(_cols(rng.poisson(30, FAST_N + 1).astype(float))) == "grouped"
    assert _auto_method(_cols(rng.normal(size=FAST_N + 1))) == "normal"
    # a column that varies in a few games only (a rare event): its sum is not normal
    rare = np.zeros(FAST_N + 1)
    rare[:5] = 1.0
    assert _auto_method(np.column_stack([rng.normal(size=len(rare)), rare])) == "multinomial"
    with pytest.raises(ValueError, match="method"):
        Bootstrap(10, method="poisson")


def test_small_arms_resample_as_before():
    """Up to FAST_N games the draw is the multinomial one of before, bit for bit."""
    x = np.random.default_rng(2).normal(size=500)
    X = _cols(x)
    rng = np.random.default_rng(iv.SEED)
    W = rng.multinomial(500, np.full(500, 1 / 500), size=iv.N_RESAMPLES).astype(float)
    assert np.array_equal(Bootstrap(500).sums(X), W @ X)


@pytest.mark.parametrize("method", ["grouped", "normal"])
def test_fast_draws_are_reproducible(method):
    x = np.random.default_rng(3).poisson(20, 30_000).astype(float)
    a = Bootstrap(len(x), seed=5, method=method).sums(_cols(x))
    b = Bootstrap(len(x), seed=5, method=method).sums(_cols(x))
    c = Bootstrap(len(x), seed=6, method=method).sums(_cols(x))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.all(a[:, 0] == len(x))   # the resample size is exactly n under either draw


def test_the_normal_draw_covers_a_known_sd_and_agrees_with_the_multinomial_one():
    """A large normal sample of sd 2 (every value distinct: the normal draw): the interval
    covers the true sd; on 10,000 games, each draw forced, the three draws give the same
    interval (to the Monte Carlo error of 2,000 resamples: a few percent of its width, whatever
    the number of games; the multinomial draw's time grows with it)."""
    true_sd = 2.0
    big = np.random.default_rng(4).normal(10.0, true_sd, 400_000)
    p, lo, hi, how = _sd_interval(big)
    assert how == "normal"
    assert lo < true_sd < hi
    # its width is what theory gives: se(sd) = sd / sqrt(2(n-1)) for normal data
    assert (hi - lo) / (2 * 1.96) == pytest.approx(true_sd / np.sqrt(2 * len(big)), rel=0.1)

    mid = big[:10_000]
    ref = _sd_interval(mid, "multinomial")
    for method in ("normal", "grouped"):
        got = _sd_interval(mid, method)
        width = ref[2] - ref[1]
        assert got[0] == ref[0]
        assert abs(got[1] - ref[1]) < 0.1 * width, (method, got, ref)
        assert abs(got[2] - ref[2]) < 0.1 * width, (method, got, ref)


def test_the_grouped_draw_has_the_multinomial_moments():
    """Integer data (game lengths): the grouped sums have mean n * mean(X) and covariance
    n * Cov(X), like the multinomial sums, and the same interval (10,000 games, the draw
    forced: the reference multinomial draw's time grows with the games)."""
    x = np.random.default_rng(5).poisson(30, 10_000).astype(float)
    X = _cols(x)
    s = Bootstrap(len(x), n_resamples=4000, method="grouped").sums(X)
    n = len(x)
    se = np.sqrt(np.diag((X - X.mean(0)).T @ (X - X.mean(0))))
    assert np.all(np.abs(s.mean(0) - n * X.mean(0)) <= 4 * se[None] / np.sqrt(4000) + 1e-9)
    cov = (X - X.mean(0)).T @ (X - X.mean(0))
    assert np.allclose(np.cov(s[:, 1:].T), cov[1:, 1:], rtol=0.1)
    ref = _sd_interval(x, "multinomial")
    got = _sd_interval(x, "grouped")
    width = ref[2] - ref[1]
    assert abs(got[1] - ref[1]) < 0.1 * width and abs(got[2] - ref[2]) < 0.1 * width


def test_a_million_games_take_seconds():
    """The draw that took minutes (2,000 x 1,000,000 weights) now takes seconds: a loose
    bound, the machine is shared (the measured figures are in docs/metrics_play.md)."""
    rng = np.random.default_rng(6)
    n = 1_000_000
    for x in (rng.poisson(30, n).astype(float), rng.normal(size=n)):
        t = time.perf_counter()
        Bootstrap(n).interval(_cols(x), _sd)
        assert time.perf_counter() - t < 60
