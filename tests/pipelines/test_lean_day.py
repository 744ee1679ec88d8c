"""pipelines.lean_day, the lean prototype of a Waggle Dance placement day (issue 40's bound):
it places every die of a recorded day where the kernel does, so its timings are of the same
work."""
import numpy as np
import pytest

from pipelines import lean_day as LD
from sim.batch import make_arm
from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L
from sim.registry import make


@pytest.fixture(scope="module")
def days():
    arm = make_arm(make("waggle_dance"), 4)
    kinds, params = arm.policy_arrays
    n = 40
    snaps = np.zeros((n, K.state_size(4)), dtype=np.int64)
    placed = np.zeros((n, LD.MAX_DAY), dtype=np.int64)
    n_placed = np.zeros(n, dtype=np.int64)
    kept, all_days, decisions = LD.record_days(arm.rules, arm.comp, kinds, params, np.uint64(7), 8,
                                               n, snaps, placed, n_placed)
    return arm, params, snaps[:kept], placed[:kept], n_placed[:kept], all_days, decisions


def test_recording_keeps_the_plain_days_and_their_placements(days):
    _, _, snaps, placed, n_placed, all_days, decisions = days
    assert 0 < len(snaps) < all_days                # card days met and left out
    assert n_placed.sum() == decisions
    assert (snaps[:, L.S_PHASE] == L.PH_PLACE).all()
    assert (snaps[:, L.S_POINT] == L.D_PLACE).all()


def test_kernel_and_prototype_place_every_die_as_the_game_did(days):
    """WD-R4 turn order, WD-R6 destinations, greedy's DP-04 choice (first on ties)."""
    arm, params, snaps, placed, n_placed, _, _ = days
    scr = np.zeros(L.SCR_LEN, dtype=np.float64)
    ws = LD.workspace()
    log = np.zeros((1, 8), dtype=np.int64)
    out = np.zeros(LD.MAX_DAY, dtype=np.int64)
    for d in range(len(snaps)):
        want = placed[d, :n_placed[d]]
        k = LD.kernel_day(snaps[d].copy(), arm.rules, params, scr, log, out)
        np.testing.assert_array_equal(out[:k], want)
        state = snaps[d].copy()
        k = LD.lean_day(state, arm.rules, params, scr, ws, out, np.full(1, LD.GREEDY, dtype=np.int64))
        np.testing.assert_array_equal(out[:k], want)
        np.testing.assert_array_equal(state, snaps[d])      # the prototype only reads the state
        k = LD.lean_day(state, arm.rules, params, scr, ws, out, placed[d])
        np.testing.assert_array_equal(out[:k], want)


def test_the_prototype_follows_the_greedy_weights(days):
    """With greedy's flower weight raised far above the others more dice go to the flowers
    (WD-R6b), in the prototype as in the kernel: the prototype values, it does not replay."""
    arm, params, snaps, placed, n_placed, _, _ = days
    from sim.games.waggle_dance import rules as R
    heavy = params.copy()
    heavy[:, R.P_W_FLOWER] = 1e6
    scr = np.zeros(L.SCR_LEN, dtype=np.float64)
    out = np.zeros(LD.MAX_DAY, dtype=np.int64)
    flowers = before = compared = 0
    for d in range(len(snaps)):
        k2 = LD.kernel_day(snaps[d].copy(), arm.rules, heavy, scr, np.zeros((1, 8), dtype=np.int64), out)
        if k2 < 0:
            continue                # other placements made a queen card playable: not plain
        theirs = out[:k2].copy()
        k = LD.lean_day(snaps[d].copy(), arm.rules, heavy, scr, LD.workspace(), out,
                        np.full(1, LD.GREEDY, dtype=np.int64))
        mine = out[:k].copy()
        np.testing.assert_array_equal(mine, theirs)
        compared += 1
        flowers += ((mine & LD.CODE_MASK) % L.PLACE_CODE == L.DEST_FLOWER).sum()
        before += ((placed[d, :n_placed[d]] & LD.CODE_MASK) % L.PLACE_CODE == L.DEST_FLOWER).sum()
    assert compared > len(snaps) // 2
    assert flowers > 1.5 * before


def test_time_days_counts_the_placements_of_each_play(days):
    arm, params, snaps, placed, n_placed, _, decisions = days
    args = (snaps, placed, len(snaps), arm.rules, params, np.zeros(L.SCR_LEN), snaps[0].copy(),
            LD.workspace(), np.zeros((1, 8), dtype=np.int64), np.zeros(LD.MAX_DAY, dtype=np.int64))
    for what in (LD.KERNEL, LD.LEAN, LD.RULES, LD.KEPT, LD.AFRESH):
        assert LD.time_days(what, *args) == decisions
    for what in (LD.COPY, LD.SETUP):
        assert LD.time_days(what, *args) == 0


def test_whole_games_with_the_prototype_days_are_the_runs_games():
    """Games whose sure-plain days the prototype plays (its placements applied by the rules)
    end with the very rows of ``run_games``: same dice, same choices, same results."""
    from sim.batch import run_games
    arm = make_arm(make("waggle_dance"), 4)
    kinds, params = arm.policy_arrays
    g0, s0 = run_games(arm, 11, 5, 12)
    for lean in (0, 1):
        g, s = np.zeros_like(g0), np.zeros_like(s0)
        days = LD.play_games(lean, arm.rules, arm.comp, kinds, params, np.uint64(11), 5, g, s,
                             LD.workspace())
        assert (days > 12) if lean else days == 0
        np.testing.assert_array_equal(g, g0)
        np.testing.assert_array_equal(s, s0)
