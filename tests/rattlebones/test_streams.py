"""Kernel streams kept in the state (S_RNG_D / S_RNG_P) draw exactly like ``sim.rng``."""
import numpy as np

from sim import rng as R
from sim.games.rattlebones import kernel as K
from sim.games.rattlebones import layout as L


def test_state_stream_matches_sim_rng():
    """RB-T3 / RB-S11: ``_rand`` on a state field gives the draws of ``sim.rng.randint``."""
    assert K.RNG_STEP == R._GOLDEN
    ref = R.make_stream(5, 3, R.SUB_DICE)
    state = np.zeros(K.state_size(2), dtype=np.int64)
    state[L.S_RNG_D] = np.int64(ref[0])
    got = [int(K._rand(state, np.int64(L.S_RNG_D), np.int64(n))) for n in (6, 6, 2, 13, 6, 4)]
    want = [int(R.randint(ref, n)) for n in (6, 6, 2, 13, 6, 4)]
    assert got == want
    assert np.uint64(state[L.S_RNG_D]) == ref[0]
