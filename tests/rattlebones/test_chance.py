"""Chance mechanics: fresh-die faces (RB-T3) and the gamble die (RB-F6) vs exact 1/6."""
import numpy as np
from scipy import stats

from sim import rng
from sim.games.rattlebones import layout as L

from .helpers import Game, draw_gamble, draw_slot

N = 60_000


def _hist(draw):
    g = Game()
    counts = np.zeros(6, dtype=np.int64)
    for i in range(N):
        counts[draw(g.state, rng.make_stream(2024, i, rng.SUB_DICE))] += 1
    return counts


def _check(counts):
    # each cell ~ Binomial(N, 1/6): 5 sigma honest tolerance, plus a chi-square test
    sd = np.sqrt(N * (1 / 6) * (5 / 6))
    assert np.all(np.abs(counts - N / 6) < 5 * sd), counts
    assert stats.chisquare(counts).pvalue > 1e-4


def test_rb_t3_fresh_die_distribution():
    """RB-T3: a fresh die shows each slot (RINGMASTER, 2..6) with probability 1/6."""
    _check(_hist(draw_slot))


def test_rb_f6_gamble_die_distribution():
    """RB-F6: the gamble die shows 2, 3, 4, 5, RINGMASTER, NINE with probability 1/6 each."""
    counts = _hist(draw_gamble)
    _check(counts)
    g = Game()
    faces = [g.g(L.S_GAMBLE + i) for i in range(6)]
    assert faces == [2, 3, 4, 5, L.GB_RINGMASTER, L.GB_NINE]
