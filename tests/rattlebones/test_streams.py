"""Kernel streams kept in the state (S_RNG_D / S_RNG_P) draw exactly like ``sim.rng``."""
import numpy as np

from sim import rng as R
from sim.games.rattlebones import kernel as K
from sim.games.rattlebones import layout as L

from .helpers import arm_for


def test_state_streams_are_the_sim_rng_streams():
    """RB-T3 / RB-S11: a new game keeps its dice and policy streams in the state, and its die
    rolls are the draws of ``sim.rng.randint`` on the SUB_DICE stream."""
    arm = arm_for(2)
    kinds, pp = arm.policy_arrays
    log = np.zeros((1, 8), dtype=np.int64)
    state, _ = K.new_game(arm.rules, arm.comp, 2, kinds, pp, np.uint64(5),
                          np.int64(3), log)
    assert np.uint64(state[L.S_RNG_P]) == R.make_stream(5, 3, R.SUB_POLICY)[0]
    ref = R.make_stream(5, 3, R.SUB_DICE)
    assert np.uint64(state[L.S_RNG_D]) == ref[0]
    got = [int(K._draw_slot(state)) for _ in range(6)] + [int(K._draw_gamble(state))]
    want = [int(R.randint(ref, 6)) for _ in range(7)]
    assert got == want
    assert np.uint64(state[L.S_RNG_D]) == ref[0]
