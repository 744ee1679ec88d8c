"""Statistical sanity check of the solo difficulty ladder (issue "Flower Shop solo mode").

With paired seeds (game i of every variant uses the same master seed and index, so the same
shuffles and dice streams), the greedy policy must win at least as often on ``solo_easy`` as on
``solo_base``, and on ``solo_base`` at least as often as on ``solo_hell``.

Tolerance: the paired win difference d_i = win_i(easier) - win_i(harder) must have a mean no
lower than -3 standard errors (a one-sided 3-sigma check; a correct ladder fails it with
probability ~0.1%, and the seeds are fixed, so the test is deterministic). The easy and hell
ends must also be strictly ordered, which the data separate by many standard errors.
"""
import numpy as np

from sim import batch

from .kernel_helpers import SPEC

N_GAMES = 20_000
SEED = 20240611


def _wins(variant, policy="greedy"):
    arm = batch.make_arm(SPEC, 1, variant=variant, policy=policy)
    games, seats = batch.run_games(arm, SEED, 0, N_GAMES)
    return seats[:, 0, 2].astype(np.float64)


def _paired_ok(easier, harder):
    d = easier - harder
    se = d.std(ddof=1) / np.sqrt(d.size)
    return d.mean() >= -3.0 * se, d.mean(), se


def test_solo_ladder_easy_base_hell_for_greedy():
    easy = _wins("solo_easy")
    base = _wins("solo_base")
    hell = _wins("solo_hell")
    for name, (a, b) in {"easy >= base": (easy, base), "base >= hell": (base, hell)}.items():
        ok, mean, se = _paired_ok(a, b)
        assert ok, f"{name}: paired win difference {mean:.4f} (SE {se:.4f})"
    assert easy.mean() > hell.mean(), (easy.mean(), hell.mean())
