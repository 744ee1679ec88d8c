"""Victory (WD-V1 .. WD-V6, T-23, T-24)."""

from sim import batch
from sim.games.waggle_dance import SPEC
from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L

from tests.end_bonus import check_bonus_0_3

from .helpers import G, Table


def _ranked(honey, cubes, **tweaks):
    t = Table(len(honey), tweaks or None)
    for p, (h, c) in enumerate(zip(honey, cubes)):
        t.seat(p, L.F_HONEY, h)
        if c:
            t.cubes(p, 0, c0=min(c, 4))
            t.cubes(p, 1, c1=max(0, c - 4))
    ranks = [K.final_rank(t.state, t.rules, p) for p in range(len(honey))]
    return t, K.winners(t.state, t.rules), ranks


def test_t23_tie_break_wd_v3():
    """T-23, WD-V3, WD-V5: 7 honey / 3 cubes, 7 / 5, 6 / 9: P1 wins on cubes; with 8 honey P2
    wins (honey first; eggs, dice and tiles do not count)."""
    t, (nw, ws), ranks = _ranked([7, 7, 6], [3, 5, 8])
    assert (nw, ws) == (1, 1) and ranks == [2, 1, 3]
    t, (nw, ws), _ = _ranked([7, 7, 8], [3, 5, 8])
    assert (nw, ws) == (1, 2)
    t.egg(0, 3)
    t.seat(0, L.F_POOL, 18)
    assert K.winners(t.state, t.rules) == (1, 2)


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


# ---- end_bonus_points: added to the final score (honey) before WD-V3's ranking ------------
SCOLS = {c: i for i, c in enumerate(SPEC.seat_column_names)}
GCOLS = {c: i for i, c in enumerate(SPEC.game_column_names)}


def _rows(t):
    return t.game.results(t.n, len(GCOLS), len(SCOLS))


def test_wd_v3_end_bonus_points_lifts_second_to_first():
    """(0, 3): seat 1's 5 honey + 3 = 8 passes seat 0's 7; the score column includes the
    bonus, the honey column does not."""
    t, (nw, ws), ranks = _ranked([7, 5], [0, 0])
    assert ws == 0
    t, (nw, ws), ranks = _ranked([7, 5], [0, 0], end_bonus_points=(0, 3))
    assert (nw, ws) == (1, 1) and ranks == [2, 1]
    g, s = _rows(t)
    assert list(s[:, SCOLS["score"]]) == [7, 8] and list(s[:, SCOLS["honey"]]) == [7, 5]
    assert g[GCOLS["winner_seat"]] == 1 and list(s[:, SCOLS["rank"]]) == [2, 1]


def test_wd_v3_v4_end_bonus_points_tie_goes_to_cubes_then_shared():
    """(0, 2) ties 7 and 5 honey at 7: the most cubes in the hive win (WD-V3); equal cubes
    share the win (WD-V4)."""
    t, (nw, ws), ranks = _ranked([7, 5], [3, 5], end_bonus_points=(0, 2))
    assert (nw, ws) == (1, 1) and ranks == [2, 1]
    t, (nw, ws), ranks = _ranked([7, 5], [5, 3], end_bonus_points=(0, 2))
    assert (nw, ws) == (1, 0) and ranks == [1, 2]
    t, (nw, ws), ranks = _ranked([7, 5, 1], [4, 4, 8], end_bonus_points=(0, 2, 0))
    assert (nw, ws) == (2, -1) and ranks == [1, 1, 3]
    g, s = _rows(t)
    assert g[GCOLS["n_winners"]] == 2 and list(s[:, SCOLS["won"]]) == [1, 1, 0]


def test_wd_v3_end_bonus_points_negative_and_repeated_for_later_seats():
    """A negative bonus costs the lead; a short list repeats its last value (3 players,
    (0, -2): seats 1 and 2 lose 2)."""
    t, (nw, ws), ranks = _ranked([7, 5], [0, 0], end_bonus_points=(-3, 0))
    assert ws == 1 and list(_rows(t)[1][:, SCOLS["score"]]) == [4, 5]
    t, _, ranks = _ranked([7, 6, 5], [0, 0, 0], end_bonus_points=(0, -2))
    assert list(_rows(t)[1][:, SCOLS["score"]]) == [7, 4, 3] and ranks == [1, 2, 3]


def test_wd_v3_end_bonus_points_default_zeros_change_nothing():
    """The default and an explicit (0, 0, 0, 0) give the same rows; score = honey."""
    a, _, ra = _ranked([7, 7, 6], [3, 5, 8])
    b, _, rb = _ranked([7, 7, 6], [3, 5, 8], end_bonus_points=(0, 0, 0, 0))
    assert ra == rb == [2, 1, 3]
    assert all((x == y).all() for x, y in zip(_rows(a), _rows(b)))
    assert list(_rows(a)[1][:, SCOLS["score"]]) == [7, 7, 6]


def test_wd_v1_v2_end_bonus_points_never_ends_the_game_but_decides_it():
    """The end (WD-V2) reads the honey alone: 6 honey + 5 does not end the night. T-24 with
    (0, 2): seat 0 reaches 7 and ends the game, seat 1's 6 + 2 = 8 wins it, in the rows and
    the replay's end event alike."""
    t = Table(2, {"end_bonus_points": (5, 0)})
    t.seat(0, L.F_HONEY, 6)
    t.night()
    assert t.state[L.S_ENDED] == 0
    t = Table(2, {"end_bonus_points": (0, 2)})
    t.seat(0, L.F_HONEY, 6)
    t.seat(1, L.F_HONEY, 6)
    t.cubes(0, 0, c2=4)
    t.tile_dice(0, 0, 1, 1)
    t.night()
    assert t.state[L.S_ENDED] == 1 and t.seat(0, L.F_HONEY) == 7
    g, s = _rows(t)
    assert g[GCOLS["winner_seat"]] == 1 and list(s[:, SCOLS["score"]]) == [7, 8]
    end = t.events(L.EV_END)
    assert len(end) == 1 and end[0][3] == 1 and end[0][4] == 1     # winner seat 1, 1 winner


def test_wd_v3_end_bonus_points_run_0_3_favours_seat_1():
    """--set end_bonus_points=0,3, 2 players, 300 greedy games (fixed seed): the same games,
    seat 1's scores 3 higher, its win share up and seat 0's down (tests/end_bonus.py)."""
    check_bonus_0_3(SPEC)
