"""Reroll scenarios (RB-T4, RB-F8, AMB-10/11): TS-05(d) and TS-06."""
from sim.games.rattlebones import layout as L

from .helpers import BL, DECLINE, G, MG, MW, W, Game, mv


def test_ts06a_reroll_chain_rb_t4_f8():
    """TS-06(a) RB-T4 / RB-F8: event 1 rerolls K + added die, event 2 rerolls all three."""
    g = Game()
    g.set_die(0, W, ["R", "REROLL", "POINTS_3", 4, 5, 6])
    g.set_die(0, G, ["R", "REROLL", 3, 4, 5, 6])
    g.set_die(0, BL, ["R", "GOLD", 3, 4, 5, 6])
    g.force(2,            # white REROLL
            3, 2,         # event 1: white POINTS_3, grey REROLL
            5, 2, 2)      # event 2 (die order white, black, grey): 5, GOLD, REROLL
    g.script(MW, G,       # roll white alone; event 1 adds grey (event 2 adds black: only option)
             W, mv(5, 0), BL)
    g.turn(0)
    assert g.g(L.S_REROLL_EVENTS) == 2 and g.g(L.S_ROLLED) == 7
    assert g.monkey(0, 0) == 5 and g.gold(0) == 1 and g.score(0) == 0
    assert g.seat(0, L.F_GOLD_SPENT) == 0


def test_ts06b_reroll_keeps_other_dice_rb_f8():
    """TS-06(b) RB-F8: event 1 rerolls only the Reroll die and the added die; grey keeps its 6."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.set_die(0, W, ["R", "REROLL", "STAR", 4, 5, 6])
    g.set_die(0, BL, ["R", "REROLL", 3, 4, 5, 6])
    g.force(2, 6,         # white REROLL, grey 6
            3, 2)         # event 1 rerolls white + black: STAR, REROLL; nothing left to add
    g.script(1, MW | MG, G, mv(6, 0), 0, W)   # grey moves 6 (STAR space: decline), then white
    g.turn(0)
    assert g.g(L.S_REROLL_EVENTS) == 1 and g.g(L.S_UP_SLOT + G) == 5
    assert g.monkey(0, 0) == 6 and g.stars(0) == 1 and g.g(L.S_STAR_SUPPLY) == 19


def test_ts06c_reroll_with_all_dice_rolled_rb_f8():
    """TS-06(c) RB-F8: with three dice rolled a Reroll yields nothing and nothing is rerolled."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 2)
    g.set_die(0, W, ["R", "REROLL", 3, 4, 5, 6])
    g.force(2, 3, 4)
    g.script(2, W, BL, mv(3, 0), mv(4, 1), 0)
    g.turn(0)
    assert g.g(L.S_REROLL_EVENTS) == 0 and g.seat(0, L.F_DICE_ROLLED) == 3
    ne = [e for e in g.events() if e[0] == L.EV_NO_EFFECT]
    assert ne and ne[0][4] == L.NE_REROLL_LATE


def test_ts05d_arrow_to_reroll_rb_f3_f8():
    """TS-05(d) / AMB-11: an arrow pointing at REROLL counts as Reroll in the roll phase."""
    g = Game()
    g.set_die(0, W, ["R", ("ARROW", 3), "REROLL", 4, 5, 6])
    g.force(2, 4, 5)      # white ARROW->REROLL; event 1 rerolls white + grey
    g.script(MW, G, W, mv(4, 0), 0, mv(5, 1))
    g.turn(0)
    assert g.g(L.S_REROLL_EVENTS) == 1 and g.g(L.S_ROLLED) == MW | MG


def test_reroll_second_scope_reroll_only_rb_f8():
    """RB-F8 with reroll_second_scope = reroll_only: event 2 rerolls K + the new die only."""
    g = Game(tweaks={"reroll_second_scope": "reroll_only"})
    g.set_die(0, W, ["R", "REROLL", "POINTS_3", 4, 5, 6])
    g.set_die(0, G, ["R", "REROLL", 3, 4, 5, 6])
    g.set_die(0, BL, ["R", "GOLD", 3, 4, 5, 6])
    g.force(2, 3, 2,      # white REROLL; event 1: white POINTS_3, grey REROLL
            2, 4)         # event 2 rerolls black + grey: GOLD, PIP_4
    g.script(MW, G, W, BL, mv(4, 0), 4)
    g.turn(0)
    assert g.score(0) == 3 and g.gold(0) == 1 and g.monkey(0, 0) == 4


def test_reroll_not_mandatory_rb_f8():
    """RB-F8 with reroll_mandatory = false: the player may decline the Reroll."""
    g = Game(tweaks={"reroll_mandatory": False})
    g.set_die(0, W, ["R", "REROLL", 3, 4, 5, 6])
    g.force(2)
    g.script(MW, DECLINE)
    g.turn(0)
    assert g.g(L.S_REROLL_EVENTS) == 0 and g.g(L.S_ROLLED) == MW
