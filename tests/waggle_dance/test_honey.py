"""Make honey and move pollen at F (WD-F1 .. WD-F8, T-08 .. T-11, T-26 .. T-28)."""
from sim.games.waggle_dance import layout as L

from .helpers import Table, gather, pair

YELLOW, BLUE, WHITE, PINK, ORANGE = 0, 1, 2, 3, 4


def test_t08_honey_wd_f4():
    """T-08, WD-F4, WD-F6: a tile of 4 yellow with two 3s: the 4 yellow go back, the tile is
    HONEY, honey +1, both dice back to the pool."""
    t = Table(4)
    t.cubes(3, 1, c0=4)
    t.tile_dice(3, 1, 3, 3)
    yellow = t.state[L.S_CUBE_SUPPLY + YELLOW]
    t.night()
    assert t.state[t.b(3) + L.F_TILE_HONEY + 1] == 1 and t.seat(3, L.F_HONEY) == 1
    assert t.state[L.S_CUBE_SUPPLY + YELLOW] == yellow + 4 and t.tile(3, 1) == [0] * 6
    assert t.seat(3, L.F_POOL) == 6


def test_t09_honey_supply_wd_f8():
    """T-09, WD-F8: 4 blue and two 5s: HONEY, blue supply +4 at once, honey +1."""
    t = Table(2)
    t.cubes(1, 0, c1=4)
    t.tile_dice(1, 0, 5, 5)
    blue = t.state[L.S_CUBE_SUPPLY + BLUE]
    t.night()
    assert t.seat(1, L.F_HONEY) == 1 and t.state[L.S_CUBE_SUPPLY + BLUE] == blue + 4


def test_t10_move_wd_f3():
    """T-10, WD-F3, WD-QA2: X = {white 2, yellow 1} and Y = {yellow 2, white 1} with a 4
    each: the cubes may be shared out (X = {white 3}, Y = {yellow 3}); Z (no dice) stays as it
    is; no flip."""
    t = Table(2)
    t.cubes(0, 0, c2=2, c0=1)
    t.cubes(0, 1, c0=2, c2=1)
    t.cubes(0, 2, c3=1, c4=1, c1=1)
    t.tile_dice(0, 0, 4)
    t.tile_dice(0, 1, 4)
    t.night([gather(WHITE, 0)])
    moves = [o for ph, s, o in t.seen if ph == L.PH_F_MOVE][0]
    assert L.MV_NONE in moves and gather(YELLOW, 1) in moves
    assert t.tile(0, 0) == [0, 0, 3, 0, 0, 0] and t.tile(0, 1) == [3, 0, 0, 0, 0, 0]
    assert t.tile(0, 2) == [0, 1, 0, 1, 1, 0] and t.seat(0, L.F_HONEY) == 0


def test_t11_move_and_honey_wd_f5():
    """T-11, WD-F5, WD-I7: X = {blue 1}, Y = {blue 3}, a 6 on each: move the blue to Y, flip
    Y: X EMPTY, Y HONEY, blue supply +4, honey +1."""
    t = Table(2)
    t.cubes(0, 0, c1=1)
    t.cubes(0, 1, c1=3)
    t.tile_dice(0, 0, 6)
    t.tile_dice(0, 1, 6)
    blue = t.state[L.S_CUBE_SUPPLY + BLUE]
    t.night([gather(BLUE, 1)])
    assert t.tile(0, 0) == [0] * 6 and t.state[t.b(0) + L.F_TILE_HONEY + 1] == 1
    assert t.state[L.S_CUBE_SUPPLY + BLUE] == blue + 4 and t.seat(0, L.F_HONEY) == 1


def test_t26_t27_mixed_and_unequal_wd_f7():
    """T-26, T-27, WD-F7, WD-QA3, WD-QA4: {blue 3, pink 1} with two 2s, and {yellow 4} with a 2
    and a 5: no flip (Alchemy and Expertise are queen cards, not played yet)."""
    t = Table(2)
    t.cubes(0, 0, c1=3, c3=1)
    t.tile_dice(0, 0, 2, 2)
    t.cubes(1, 0, c0=4)
    t.tile_dice(1, 0, 2, 5)
    t.night()
    assert t.seat(0, L.F_HONEY) == 0 and t.seat(1, L.F_HONEY) == 0
    assert t.tile(0, 0) == [0, 3, 0, 1, 0, 0] and t.tile(1, 0) == [4, 0, 0, 0, 0, 0]


def test_t28_three_equal_dice_wd_f2():
    """T-28, WD-F2, WD-I6: 3s on X = {blue 2}, Y = {blue 2}, Z = {blue 1}: one pair only;
    pair (X, Y), gather blue on X, flip X; Z's die stays unpaired and Z keeps its blue."""
    t = Table(2)
    t.cubes(0, 0, c1=2)
    t.cubes(0, 1, c1=2)
    t.cubes(0, 2, c1=1)
    for x in range(3):
        t.tile_dice(0, x, 3)
    t.night([pair(0, 1, 3), gather(BLUE, 0)])
    pairs = [o for ph, s, o in t.seen if ph == L.PH_F][0]
    assert sorted(pairs) == sorted([pair(0, 1, 3), pair(0, 2, 3), pair(1, 2, 3)])
    assert t.seat(0, L.F_HONEY) == 1 and t.state[t.b(0) + L.F_TILE_HONEY] == 1
    assert t.tile(0, 2) == [0, 1, 0, 0, 0, 0]
    assert len([1 for ph, s, o in t.seen if ph == L.PH_F]) == 1, "no second pair"


def test_t18_egg_tile_dice_wd_f1():
    """WD-F1, WD-I5: dice on a tile that got its egg at C (after B) are F-dice, but the tile
    holds no cubes: a pair linking it to a pollen tile allows no move."""
    t = Table(2)
    t.tile_dice(0, 0, 2)
    t.cubes(0, 1, c0=3)
    t.tile_dice(0, 1, 2)
    t.slot(1, 4, 0)                       # C4
    t.night([0])                          # the egg onto tile 0
    assert t.state[t.b(0) + L.F_EGG] == 1
    assert [ph for ph, s, o in t.seen if ph == L.PH_F_MOVE] == []
    assert t.tile(0, 1) == [3, 0, 0, 0, 0, 0]
