"""The run-level check of ``end_bonus_points`` shared by the games' tests (tests/<game>/).

A bonus is added to the final score once the game is over, and no policy reads it: with the
same seeds the games are played move for move as without it. So ``--set end_bonus_points=0,3``
(2 players) must leave every column but the score, the ranks and the winners as they were, add
exactly 0 and 3 to the scores, never take a win away from seat 1 nor give one to seat 0, and
raise seat 1's win share on a few hundred games.
"""
from __future__ import annotations

import numpy as np

from sim import batch
from sim.spec import G_N_WINNERS, G_WINNER_SEAT, S_RANK, S_SCORE, S_WON

N_GAMES = 300
SEED = 23


def win_shares(games: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Each seat's share of the wins (a shared win counts 1/k to each of the k winners)."""
    return (seats[:, :, S_WON] / np.maximum(games[:, G_N_WINNERS], 1)[:, None]).mean(axis=0)


def check_bonus_0_3(spec, policy: str = "greedy", n_games: int = N_GAMES) -> tuple:
    """Play ``n_games`` 2-player games with and without ``end_bonus_points=0,3`` (the text of
    ``--set``) on the same seeds and check what the module docstring says; returns the two win
    shares (without, with) for the test to print or check further."""
    base = batch.make_arm(spec, 2, policy=policy)
    arm = batch.make_arm(spec, 2, policy=policy, tweaks={"end_bonus_points": "0,3"})
    assert tuple(arm.rule_values["end_bonus_points"]) == (0, 3)
    g0, s0 = batch.run_games(base, SEED, 0, n_games)
    g1, s1 = batch.run_games(arm, SEED, 0, n_games)
    # the same games: only the score, the ranks and the winners move
    assert np.array_equal(s1[:, :, S_SCORE], s0[:, :, S_SCORE] + np.array([0, 3]))
    keep = [j for j in range(s0.shape[2]) if j not in (S_SCORE, S_RANK, S_WON)]
    assert np.array_equal(s1[:, :, keep], s0[:, :, keep])
    keep = [j for j in range(g0.shape[1]) if j not in (G_N_WINNERS, G_WINNER_SEAT)]
    assert np.array_equal(g1[:, keep], g0[:, keep])
    # in the expected direction, game by game and on the whole
    assert (s1[:, 1, S_WON] >= s0[:, 1, S_WON]).all()
    assert (s1[:, 0, S_WON] <= s0[:, 0, S_WON]).all()
    w0, w1 = win_shares(g0, s0), win_shares(g1, s1)
    assert w1[1] > w0[1] and w1[0] < w0[0], (w0, w1)
    if spec.audit is not None:  # the audits recompute the score with the bonus
        problems = spec.audit(arm, SEED, 0, g1, s1)
        assert not problems, problems[:10]
    return w0, w1
