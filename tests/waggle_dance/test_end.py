"""Victory (WD-V1 .. WD-V6, T-23, T-24)."""
import numpy as np

from sim import batch
from sim.games.waggle_dance import SPEC
from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L

from .helpers import G, Table


def _ranked(honey, cubes):
    t = Table(len(honey))
    for p, (h, c) in enumerate(zip(honey, cubes)):
        t.seat(p, L.F_HONEY, h)
        if c:
            t.cubes(p, 0, c0=min(c, 4))
            t.cubes(p, 1, c1=max(0, c - 4))
    return t, K.winners(t.state), [K.final_rank(t.state, p) for p in range(len(honey))]


def test_t23_tie_break_wd_v3():
    """T-23, WD-V3, WD-V5: 7 honey / 3 cubes, 7 / 5, 6 / 9: P1 wins on cubes; with 8 honey P2
    wins (honey first; eggs, dice and tiles do not count)."""
    t, (nw, ws), ranks = _ranked([7, 7, 6], [3, 5, 8])
    assert (nw, ws) == (1, 1) and ranks == [2, 1, 3]
    t, (nw, ws), _ = _ranked([7, 7, 8], [3, 5, 8])
    assert (nw, ws) == (1, 2)
    t.egg(0, 3)
    t.seat(0, L.F_POOL, 18)
    assert K.winners(t.state) == (1, 2)


def test_wd_v4_shared_win():
    """WD-V4, WD-I21: equal honey and cubes share the win (winner_seat -1)."""
    _, (nw, ws), ranks = _ranked([7, 7, 2], [4, 4, 8])
    assert (nw, ws) == (2, -1) and ranks == [1, 1, 3]


def test_t24_win_only_after_g_wd_v1():
    """T-24, WD-V1, WD-V2: P0 reaches 7 honey at F; the game ends after G of that round (G
    still resolves), not at F."""
    t = Table(2)
    t.seat(0, L.F_HONEY, 6)
    t.cubes(0, 0, c2=4)
    t.tile_dice(0, 0, 1, 1)
    t.slot(G, 3, 1)
    t.night()
    codes = t.events()[:, 0].tolist()
    assert codes.index(L.EV_FLIP) < codes.index(L.EV_DRAW) < codes.index(L.EV_END)
    assert t.state[L.S_ENDED] == 1 and t.state[L.S_END_TRIGGER] == L.ET_HONEY
    assert t.state[L.S_PHASE] == L.PH_OVER and t.state[L.S_ROUND] == 1
    assert t.seat(1, L.F_DRAWN) == 1


def test_wd_v6_max_rounds():
    """WD-V6: at max_rounds the game stops, flagged truncated (end_reason 1, trigger 0),
    ranked by honey then cubes; without the cap every game ends by honey."""
    arm = batch.make_arm(SPEC, 4, policy="random", tweaks={"max_rounds": 20})
    g, s = batch.run_games(arm, 2, 0, 50)
    col = SPEC.game_column_names.index
    assert (g[:, col("truncated")] == 1).all() and (g[:, col("rounds")] == 20).all()
    assert (g[:, col("end_reason")] == 1).all() and (g[:, col("end_trigger")] == 0).all()
    assert (s[:, :, 0] < 7).all()
    arm = batch.make_arm(SPEC, 4, policy="random", tweaks={"max_rounds": 1000})
    g, s = batch.run_games(arm, 2, 0, 50)
    assert (g[:, col("truncated")] == 0).all() and (s[:, :, 0].max(axis=1) >= 7).all()
