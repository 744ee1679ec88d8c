"""Pollen majority at D (WD-D1 .. WD-D8, T-01 .. T-05, T-19, T-20)."""
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O

from .helpers import Table


def _gains(counts, n=4, supply=None, tweaks=None):
    """Cubes of colour 0 each seat ends the night with, dice ``counts`` on flower 1."""
    t = Table(n, tweaks)
    for seat, k in enumerate(counts):
        t.flower(1, seat, k)
    if supply is not None:
        t.state[L.S_CUBE_SUPPLY] = supply
    t.night()
    return [sum(t.tile(p, x)[0] for x in range(3)) for p in range(n)], t


def test_t01_majority_example1():
    """T-01, WD-D1, WD-D2: Purple 3, Yellow 2, Blue 1: +2, +1, 0."""
    assert _gains([3, 2, 1, 0])[0] == [2, 1, 0, 0]


def test_t02_tied_first_sole_second():
    """T-02, WD-D2, WD-D3: 2, 2, 1: tied first +1 each, sole second +1 (paid after a tie)."""
    assert _gains([2, 2, 1, 0])[0] == [1, 1, 1, 0]
    assert _gains([2, 2, 1, 0], tweaks={"pay_second_when_first_tied": False})[0] == [1, 1, 0, 0]


def test_t03_tied_second_gets_nothing():
    """T-03, WD-D3: 3, 1, 1: +2; tied second gets nothing."""
    assert _gains([3, 1, 1, 0])[0] == [2, 0, 0, 0]


def test_t04_example4():
    """T-04, WD-D4: 2, 2, 1, 1: +1, +1, then tied second 0, 0."""
    assert _gains([2, 2, 1, 1])[0] == [1, 1, 0, 0]


def test_t05_alone():
    """T-05: Orange alone with 2 dice: +2 (sole first)."""
    assert _gains([0, 0, 0, 2])[0] == [0, 0, 0, 2]


def test_t20_short_supply_turn_and_rank():
    """T-20, WD-D5, WD-I8: colour supply 1; S = P0 sole second (1 die), P1 sole first (2 dice):
    turn order pays P0 +1 and P1 0; rank order pays P1 +1 and P0 0."""
    got, t = _gains([1, 2], n=2, supply=1)
    assert got == [1, 0] and t.state[L.S_CUBE_SUPPLY] == 0
    got, _ = _gains([1, 2], n=2, supply=1, tweaks={"d_payout_order": "rank"})
    assert got == [0, 1]


def test_t19_overflow_wd_d7():
    """T-19, WD-D7, WD-D8, WD-QA1, WD-I9: P0's only eligible tile {pink 2} has room for 2; P0
    wins +2 colour 1 (sole first on flower 1) and +1 colour 3 (sole second on flower 3): it
    keeps 2 of the 3 cubes, choosing which, and the third goes back; its pink stays."""
    t = Table(2)
    t.cubes(0, 0, c3=2)
    t.egg(0, 1)
    t.honey(0, 2)
    t.flower(1, 0, 2)
    t.flower(1, 1, 1)
    t.flower(3, 0, 1)
    t.flower(3, 1, 2)
    supply = list(t.state[L.S_CUBE_SUPPLY:L.S_CUBE_SUPPLY + 6])
    t.night([O.encode_cube(2, 0)])         # colour 3 (index 2) first
    assert t.seen[0][2] == [O.encode_cube(0, 0), O.encode_cube(2, 0)]
    assert t.tile(0, 0) == [1, 0, 1, 2, 0, 0]
    assert t.seat(0, L.F_CUBES_LOST) == 1 and t.seat(0, L.F_CUBES_GAINED) == 3
    after = list(t.state[L.S_CUBE_SUPPLY:L.S_CUBE_SUPPLY + 6])
    assert after[0] == supply[0] - 2 - 1 + 1 and after[2] == supply[2] - 1 - 2
