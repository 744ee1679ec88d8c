"""Night cards A, B, C, G and the dice going home (WD-A*, WD-B*, WD-C*, WD-G*, WD-R13/R14)."""
import pytest

from sim.games.waggle_dance import layout as L
from sim.spec import SpecError

from .helpers import A, C, E, G, Table


def test_t12_build_wd_a1():
    """T-12, WD-A1, WD-A3, WD-A4: three players each with a die on A gain one EMPTY tile."""
    t = Table(3)
    for seat, v in ((0, 2), (1, 4), (2, 6)):
        t.slot(A, v, seat)
    supply = t.state[L.S_TILE_SUPPLY]
    t.night()
    for p in range(3):
        assert t.seat(p, L.F_N_TILES) == 4 and t.tile(p, 3) == [0] * 6
        assert t.seat(p, L.F_BUILDS) == 1
    assert t.state[L.S_TILE_SUPPLY] == supply - 3


def test_t16_build_short_supply_wd_a2():
    """T-16, WD-A2, WD-R13: one tile left; the start player's die resolves first and takes
    it, P1's die comes back with nothing; both slots are free again."""
    t = Table(2)
    t.state[L.S_TILE_SUPPLY] = 1
    t.slot(A, 5, 0)
    t.slot(A, 2, 1)
    t.night()
    assert t.seat(0, L.F_N_TILES) == 4 and t.seat(1, L.F_N_TILES) == 3
    assert t.state[L.S_TILE_SUPPLY] == 0
    assert t.state[L.S_SLOT_OWNER:L.S_SLOT_OWNER + 24].sum() == 0


def _hatch_table(value):
    t = Table(4)
    t.egg(2, 0)
    t.state[L.S_EGG_SUPPLY] = 5
    t.tile_dice(2, 0, value, value)
    return t


def test_t06_hatch_wd_b1():
    """T-06, WD-B1, WD-B2, WD-B4, WD-R16: an egg tile with two 1s hatches: the egg returns
    (supply 5 -> 6), the tile is EMPTY, personal supply 12 -> 11, pool 6 -> 7; the next round
    rolls 7 dice."""
    t = _hatch_table(1)
    t.night()
    assert t.state[t.b(2) + L.F_EGG] == 0 and t.state[L.S_EGG_SUPPLY] == 6
    assert t.seat(2, L.F_PERSONAL) == 11 and t.seat(2, L.F_POOL) == 7
    assert t.seat(2, L.F_EGGS_HATCHED) == 1
    t.game.advance()
    roll = t.events(L.EV_ROLL)
    assert roll[roll[:, 1] == 2][-1, 2] == 7, "seat 2 rolls 7 dice in round 2"


def test_t07_hatch_threes_wd_b1():
    """T-07: the same with two 3s on the egg tile."""
    t = _hatch_table(3)
    t.night()
    assert t.seat(2, L.F_POOL) == 7 and t.state[t.b(2) + L.F_EGG] == 0


def test_t25_hatch_dice_cap_wd_b3():
    """T-25, WD-B3, WD-X2, WD-I11: all 18 dice in the pool: no hatch, the egg stays, the dice
    go back; with hatch_without_supply = return_egg the egg goes back without a die."""
    for tweaks, egg_after in (({}, 1), ({"hatch_without_supply": "return_egg"}, 0)):
        t = Table(2, tweaks)
        t.seat(0, L.F_POOL, 18)
        t.seat(0, L.F_PERSONAL, 0)
        t.egg(0, 1)
        t.tile_dice(0, 1, 4, 4)
        t.night()
        assert t.state[t.b(0) + L.F_EGG + 1] == egg_after
        assert t.seat(0, L.F_POOL) == 18 and t.seat(0, L.F_PERSONAL) == 0
        assert t.state[t.b(0) + L.F_TDICE + 6:t.b(0) + L.F_TDICE + 12].sum() == 0


def test_t18_no_hatch_on_egg_day_wd_b5():
    """T-18, WD-B5, WD-R11, WD-QA9: two 2s on EMPTY tile T and a die on C4: B has nothing to
    hatch, C puts the egg on T; at F the pair sits on an egg tile: no cubes, no flip, no hatch;
    the egg stays for a later round."""
    t = Table(2)
    t.tile_dice(0, 0, 2, 2)
    t.slot(C, 4, 0)
    t.night([0])                      # C: the egg onto tile 0
    assert t.state[t.b(0) + L.F_EGG] == 1 and t.seat(0, L.F_EGGS_HATCHED) == 0
    assert t.seat(0, L.F_POOL) == 6 and t.seat(0, L.F_HONEY) == 0
    assert t.state[t.b(0) + L.F_TDICE:t.b(0) + L.F_TDICE + 6].sum() == 0


def test_wd_c1_take_egg():
    """WD-C1, WD-C4, WD-QA5, WD-I24: a die on C may take an egg onto an EMPTY tile (dice on
    it do not matter), or decline; pollen tiles and egg tiles are never offered."""
    t = Table(2)
    t.cubes(0, 0, c1=1)
    t.egg(0, 1)
    t.seat(0, L.F_N_TILES, 4)
    t.tile_dice(0, 3, 5)
    t.slot(C, 1, 0)
    t.slot(C, 2, 0)
    eggs = t.state[L.S_EGG_SUPPLY]
    t.night([3, -1])
    assert t.seen[0][2] == [-1, 2, 3]
    assert t.state[t.b(0) + L.F_EGG + 3] == 1 and t.state[t.b(0) + L.F_EGG + 2] == 0
    assert t.state[L.S_EGG_SUPPLY] == eggs - 1 and t.seat(0, L.F_EGGS_TAKEN) == 1


def test_t17_no_empty_tile_wd_c2():
    """T-17, WD-C2: all tiles are pollen, egg or honey: no egg is taken."""
    t = Table(2)
    t.cubes(0, 0, c0=1)
    t.egg(0, 1)
    t.honey(0, 2)
    t.slot(C, 3, 0)
    eggs = t.state[L.S_EGG_SUPPLY]
    t.night()
    assert t.state[L.S_EGG_SUPPLY] == eggs and t.seat(0, L.F_EGGS_TAKEN) == 0
    assert t.state[L.S_SLOT_OWNER + C * 6 + 2] == 0


def test_wd_c3_no_egg_supply():
    """WD-C3, WD-X1: egg supply 0: the die comes back with no effect."""
    t = Table(2)
    t.state[L.S_EGG_SUPPLY] = 0
    t.slot(C, 6, 1)
    t.night()
    assert t.seat(1, L.F_EGGS_TAKEN) == 0 and t.state[L.S_EGG_SUPPLY] == 0


def test_t31_empty_deck_wd_g2():
    """T-31, WD-G1..G3, WD-Q4, WD-QA10, WD-I12: one card left; P0 (S) on G2 and G5, P1 on G6:
    P0 draws it, the other dice draw nothing (no reshuffle); hand_limit stops draws."""
    t = Table(2)
    t.state[L.S_DECK_POS] = t.state[L.S_DECK_N] - 1
    top = t.state[L.S_DECK + t.state[L.S_DECK_POS]]
    t.slot(G, 2, 0)
    t.slot(G, 5, 0)
    t.slot(G, 6, 1)
    t.night()
    assert t.state[t.b(0) + L.F_HAND + top] == 1 and t.seat(0, L.F_DRAWN) == 1
    assert t.seat(1, L.F_DRAWN) == 0
    assert t.events(L.EV_DRAW)[:, 3].tolist() == [top, -1, -1]
    t = Table(2, {"hand_limit": 1})
    t.slot(G, 1, 0)
    t.slot(G, 3, 0)
    t.night()
    assert t.seat(0, L.F_DRAWN) == 1


def test_wd_r14_dice_return():
    """WD-R14, WD-B6: after the night no die is left on a card or a tile; the pools keep
    their size."""
    t = Table(3)
    t.slot(A, 1, 0)
    t.slot(E, 2, 1)
    t.slot(G, 3, 2)
    t.flower(4, 1, 2)
    t.egg(0, 0)
    t.tile_dice(0, 0, 5)
    t.tile_dice(1, 2, 6, 1)
    t.night()
    s = t.state
    assert s[L.S_SLOT_OWNER:L.S_SLOT_OWNER + 24].sum() == 0 and s[L.S_FLOWER:L.S_FLOWER + 24].sum() == 0
    for p in range(3):
        b = t.b(p)
        assert s[b + L.F_TDICE:b + L.F_TDICE + L.MAX_HIVE * 6].sum() == 0
        assert t.seat(p, L.F_POOL) == 6


def test_wd_g2_no_reshuffle():
    """WD-G2, WD-I12: with the deck empty and cards on the discard pile, a die on G draws
    nothing (the discards are not shuffled back); reshuffling is refused as not implemented."""
    t = Table(2)
    t.state[L.S_DECK_POS] = t.state[L.S_DECK_N]
    t.state[L.S_DISCARD] = 5
    t.slot(G, 4, 1)
    t.night()
    assert t.seat(1, L.F_DRAWN) == 0 and t.state[L.S_DISCARD] == 5
    assert t.events(L.EV_DRAW)[:, 3].tolist() == [-1]
    with pytest.raises(SpecError, match="queen_discard_reshuffle"):
        Table(2, {"queen_discard_reshuffle": True})


def test_wd_g3_no_hand_limit():
    """WD-G3, WD-Q4: a hand of 10 cards still draws (hand_limit = 0); with hand_limit = 10 it
    does not."""
    for limit, drawn in ((0, 1), (10, 0)):
        t = Table(2, {"hand_limit": limit})
        t.seat(0, L.F_HAND + L.Q_OVERTIME, 10)
        t.slot(G, 1, 0)
        t.night()
        assert t.seat(0, L.F_DRAWN) == drawn
        assert t.state[t.b(0) + L.F_HAND:t.b(0) + L.F_HAND + L.N_QUEEN].sum() == 10 + drawn
