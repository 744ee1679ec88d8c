"""Trade at E (WD-E1 .. WD-E6, T-21, T-22)."""
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O

from .helpers import E, Table

BLUE, PINK, ORANGE = 1, 3, 4


def test_t21_trade_feeds_honey_wd_e2():
    """T-21, WD-E1, WD-E2, WD-I10: X = {blue 3, pink 1}, Y = {pink 1}, a die on E and two 6s
    on X: pay 1 pink from X and 1 from Y, take 1 blue onto X (X = {blue 4}); F flips X and
    4 blue go back."""
    t = Table(2)
    t.cubes(0, 0, c1=3, c3=1)
    t.cubes(0, 1, c3=1)
    t.slot(E, 4, 0)
    t.tile_dice(0, 0, 6, 6)
    blue = t.state[L.S_CUBE_SUPPLY + BLUE]
    used = t.night([O.encode_trade(PINK, BLUE), 0, 0])
    assert used == 3
    assert t.seat(0, L.F_HONEY) == 1 and t.state[t.b(0) + L.F_TILE_HONEY] == 1
    assert t.tile(0, 0) == [0] * 6 and t.tile(0, 1) == [0] * 6
    assert t.state[L.S_CUBE_SUPPLY + BLUE] == blue - 1 + 4
    assert t.seat(0, L.F_TRADES) == 1


def test_t22_egg_trade_wd_e3():
    """T-22, WD-E3, WD-E4: an egg on Z and a die on E: the egg goes back, Z is EMPTY, and one
    orange goes on Z or any eligible tile."""
    t = Table(2)
    t.cubes(0, 0, c0=4)            # full: no room
    t.cubes(0, 1, c5=1)
    t.egg(0, 2)
    t.slot(E, 1, 0)
    eggs = t.state[L.S_EGG_SUPPLY]
    t.night([O.encode_trade(-1, ORANGE), 2])
    assert t.state[L.S_EGG_SUPPLY] == eggs + 1 and t.state[t.b(0) + L.F_EGG + 2] == 0
    assert t.tile(0, 2)[ORANGE] == 1
    gain_opts = [o for ph, s, o in t.seen if ph == L.PH_E_GAIN][0]
    assert gain_opts == [1, 2]


def test_wd_e5_optional_and_empty_colour():
    """WD-E5: skipping is always offered; a colour with no cube in the supply is not."""
    t = Table(2)
    t.cubes(0, 0, c0=2)
    t.state[L.S_CUBE_SUPPLY + BLUE] = 0
    t.slot(E, 2, 0)
    t.night([L.TR_SKIP])
    opts = t.seen[0][2]
    assert L.TR_SKIP in opts and O.encode_trade(0, BLUE) not in opts
    assert O.encode_trade(0, 0) not in opts, "c' != c"
    assert t.tile(0, 0)[0] == 2 and t.seat(0, L.F_TRADES) == 0


def test_wd_e6_paid_cubes_back_at_once():
    """WD-E6: cubes paid by the start player's trade are in the supply for the next die:
    pink supply 0, P0 pays 2 pink for a blue, then P1 can take a pink."""
    t = Table(2)
    t.cubes(0, 0, c3=2)
    t.cubes(1, 0, c0=2)
    t.state[L.S_CUBE_SUPPLY + PINK] = 0
    t.slot(E, 1, 0)
    t.slot(E, 2, 1)
    t.night([O.encode_trade(PINK, BLUE), O.encode_trade(0, PINK)])
    assert t.tile(1, 0)[PINK] == 1 or t.tile(1, 1)[PINK] == 1
    assert t.state[L.S_CUBE_SUPPLY + PINK] == 1
