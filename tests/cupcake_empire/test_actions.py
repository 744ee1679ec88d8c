"""The five columns (CE-A1 .. CE-A5, CE-T2) on hand-built states: the summary's T1, T2 and the
derived scenarios T6, T7, T14 of spec §12."""
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire import options as O
from sim.games.cupcake_empire.board import has_building

from .helpers import CHOC, FL, MIXED, PLAIN, Game, act, ctype, house, pair, shop


def test_t1_sell_with_two_green_experts_ce_a4():
    """T1: column 4 = [green, green] is level 2 (reach 3): the BEI2-d3 customer (value 3) is
    reachable, d4 is not; the sale adds 3 sales and 3 income; S3 rolls both green dice."""
    g = Game(2)
    g.clear()
    g.put(0, 4, "green", "green")
    g.building("shop", "BEI2", 0, 0)
    for d in (2, 3, 4):
        g.state[L.S_HOUSE + house("BEI2", d)] = ctype(CHOC, "mint")
    g.serve(0, CHOC, FL["mint"])
    g.set_seat(0, L.F_SALES, 6)
    g.set_seat(0, L.F_INCOME, 20)
    g.set_seat(0, L.F_PRODUCTION, 20)
    g.force(4, 4)
    g.start_turn(0)
    g.script(act(4, 2))
    assert g.run(until=(L.D_SELL,)) == 1
    assert g.options() == [house("BEI2", 2), house("BEI2", 3)]      # d4 needs level 3
    g.script(house("BEI2", 3))
    assert g.run() == 2
    assert g.seat(0, L.F_SALES) == 9
    assert g.seat(0, L.F_CUST_VAL + 2) == 1 and g.seat(0, L.F_CUST + ctype(CHOC, "mint")) == 1
    assert g.g(L.S_HOUSE + house("BEI2", 3)) == -1
    assert g.seat(0, L.F_INCOME) == 20 + 3 + 9                       # sale, then S2 min(20, 9)
    rolls = [e for e in g.events() if e[0] == L.EV_ROLL]
    assert [int(e[2]) for e in rolls] == [4, 4]                      # the two green dice
    assert g.dice(0, 4) == {"green": 2}


def test_t2_column5_level4_other_column_ce_a5_4b():
    """T2: column 5 = [pink, grey x4] is level 4; L4(b) runs column 4 at level 3 (reach 4)
    ignoring column 4's dice; column 4's INCOME3 disc does not trigger, column 5's IDEA2 may;
    S3 rolls the five column-5 dice only."""
    g = Game(2)
    g.clear()
    g.put(0, 5, "pink", "grey", "grey", "grey", "grey")
    g.put(0, 4, "grey")
    g.set_disc(0, 4, 1, L.X_INCOME3)
    g.set_disc(0, 5, 1, L.X_IDEA2)
    g.building("shop", "BEI2", 0, 0)
    g.state[L.S_HOUSE + house("BEI2", 1)] = ctype(CHOC, "mint")
    g.state[L.S_HOUSE + house("BEI2", 4)] = ctype(CHOC, "mint")
    g.serve(0, CHOC, FL["mint"])
    g.set_seat(0, L.F_INCOME, 20)
    g.set_seat(0, L.F_PRODUCTION, 0)
    g.start_turn(0)
    g.script(act(5, 4))
    assert g.run(until=(L.D_S1,)) == 1
    assert g.options() == [L.S1_MAIN, O.encode_s1_disc(0)]
    other = O.encode_l4(1, 3, 3)
    g.script(L.S1_MAIN)
    assert g.run(until=(L.D_L4,)) == 1
    assert other in g.options() and O.encode_l4(0, 4, 0) in g.options()
    g.script(other, house("BEI2", 4))
    assert g.run(until=(L.D_S1,)) == 1
    assert g.options() == [O.encode_s1_disc(0), L.S1_END]                # no column-4 disc
    g.force(1, 1, 2, 2, 5)
    g.script(O.encode_s1_disc(0))
    assert g.run() == 2
    assert g.seat(0, L.F_INCOME) == 23 and g.seat(0, L.F_IDEA_POS) == 2
    assert len([e for e in g.events() if e[0] == L.EV_ROLL]) == 5
    assert g.dice(0, 4) == {"grey": 1}                               # not rolled
    assert g.dice(0, 1) == {"grey": 2} and g.dice(0, 2) == {"grey": 2}
    assert g.dice(0, 5) == {"pink": 1}


def test_t6_displacement_ce_a3():
    """T6 (2p): YEL1 = [Q, Q, blocked, blocked]; column 3 level 1 in YEL1 displaces a Q shop
    (Q reserve +1, sales -1) and places P's (reserve -1, sales +1); YEL2 with an empty slot is
    offered without displacement; blockers are never offered."""
    g = Game(2)
    g.clear()
    g.put(0, 3, "orange")
    g.building("shop", "YEL1", 0, 1)
    g.building("shop", "YEL1", 1, 1)
    assert g.owners("shop", "YEL1")[2:] == [L.SLOT_BLOCKED, L.SLOT_BLOCKED]
    g.set_seat(0, L.F_SALES, 4)
    g.set_seat(0, L.F_SHOPS_RESERVE, 3)
    g.set_seat(1, L.F_SALES, 6)
    g.set_seat(1, L.F_SHOPS_RESERVE, 4)
    g.force(3)
    g.start_turn(0)
    g.script(act(3, 1))
    assert g.run(until=(L.D_SHOP,)) == 1
    assert g.options() == [shop("YEL1", victim=1), shop("YEL2")]
    g.script(shop("YEL1", victim=1))
    assert g.run() == 2
    assert g.owners("shop", "YEL1") == [0, 1, L.SLOT_BLOCKED, L.SLOT_BLOCKED]
    assert g.seat(1, L.F_SHOPS_RESERVE) == 5 and g.seat(1, L.F_SALES) == 5
    assert g.seat(0, L.F_SHOPS_RESERVE) == 2 and g.seat(0, L.F_SALES) == 5
    assert g.seat(1, L.F_DISPLACED) == 1


def test_t7_relocation_ce_a3_2():
    """T7: with an empty reserve a shop is relocated (no loss on removal, +1 on placement);
    into a full region it displaces the opponent, who loses 1 sales."""
    g = Game(2)
    g.clear()
    g.put(0, 3, "orange", "grey", "grey")                            # level 2: beige
    for region, slot in (("YEL1", 0), ("YEL1", 1), ("YEL2", 0), ("YEL2", 1), ("BEI2", 0),
                         ("BEI3", 0)):
        g.building("shop", region, slot, 0)
    g.set_seat(0, L.F_SHOPS_RESERVE, 0)
    g.set_seat(0, L.F_SALES, 10)
    g.force(3, 3, 3)
    g.start_turn(0)
    g.script(act(3, 2))
    assert g.run(until=(L.D_SHOP,)) == 1
    assert shop("BEI1", src="YEL2") in g.options()
    assert shop("BEI2", src="BEI2") not in g.options()
    g.script(shop("BEI1", src="YEL2"))
    assert g.run() == 2
    assert g.seat(0, L.F_SALES) == 11 and g.seat(0, L.F_SHOPS_RESERVE) == 0
    assert g.owners("shop", "YEL2")[:2] == [L.SLOT_EMPTY, 0]
    assert g.owners("shop", "BEI1")[0] == 0
    # BEI3 full of Q's shops: the relocation displaces one of them
    g.building("shop", "BEI3", 0, 1)
    g.building("shop", "BEI3", 1, 1)
    g.set_seat(1, L.F_SALES, 4)
    g.clear(0)
    g.put(0, 3, "orange", "grey", "grey")
    g.force(3, 3, 3)
    g.start_turn(0)
    g.script(act(3, 2), shop("BEI3", victim=1, src="YEL1"))
    assert g.run() == 2
    assert g.seat(1, L.F_SALES) == 3 and g.owners("shop", "BEI3")[0] == 0
    assert g.seat(0, L.F_SALES) == 12


def test_t14_beige_bakery_ce_a5():
    """T14: column 5 level 4, L4(a) in BEI2: production +2, sales +2, bakery reserve -1; the
    seat may now sell in BEI2."""
    g = Game(2)
    g.clear()
    g.put(0, 5, "pink", "grey", "grey", "grey", "grey")
    g.set_seat(0, L.F_PRODUCTION, 6)
    g.set_seat(0, L.F_SALES, 5)
    g.set_seat(0, L.F_BAKERIES_RESERVE, 2)
    g.set_seat(0, L.F_INCOME, 0)
    g.force(1, 1, 1, 1, 1)
    g.start_turn(0)
    g.script(act(5, 4), O.encode_l4(0, 4, 0))
    assert g.run() == 2
    assert g.seat(0, L.F_PRODUCTION) == 8 and g.seat(0, L.F_SALES) == 7
    assert g.seat(0, L.F_BAKERIES_RESERVE) == 1
    assert g.owners("bakery", "BEI2")[0] == 0 and has_building(g.state, 0, 4)
    assert g.seat(0, L.F_INCOME) == 7


def test_ce_a5_hire_and_yellow_bakery():
    """CE-A5 level 1: a hired die goes to its colour's column (not counted in the frozen
    L_avail) and rolls in S3; level 3: a yellow bakery (+1/+1) and a disc."""
    g = Game(2)
    g.clear()
    g.put(0, 5, "pink")
    supply = g.g(L.S_SUP_DICE + 3)
    g.force(5, 1)                                                    # orange, then pink
    g.start_turn(0)
    g.script(act(5, 1), 3)
    assert g.run() == 2
    assert g.g(L.S_SUP_DICE + 3) == supply - 1 and g.g(L.S_L_AVAIL) == 1
    assert g.dice(0, 5) == {"orange": 1} and g.dice(0, 1) == {"pink": 1}
    g.clear(0)
    g.put(0, 5, "pink", "pink", "grey")                              # n 3, e 2: level 3
    g.set_seat(0, L.F_PRODUCTION, 3)
    g.set_seat(0, L.F_SALES, 3)
    g.force(1, 1, 1)
    g.start_turn(0)
    g.script(act(5, 3), 2, O.encode_disc_gain(L.X_INCOME3, 0))
    assert g.run() == 2
    assert g.owners("bakery", "YEL2")[0] == 0
    assert g.seat(0, L.F_PRODUCTION) == 4 and g.seat(0, L.F_SALES) == 4
    assert g.disc(0, 1, 1) == L.X_INCOME3


def test_ce_a1_a2_tiles():
    """CE-A1 level 3: a chosen simple base and a mixed base; CE-A2 level 2: a chosen mixed
    frosting pair; the tiles come out of the supply into the stock."""
    g = Game(2)
    g.clear()
    g.put(0, 1, "purple", "pink", "grey", "grey")                    # T4: level 3
    sup = [g.g(L.S_SUP_BASE + i) for i in range(3)]
    g.force(2, 2, 2, 2)
    g.start_turn(0)
    g.script(act(1, 3), CHOC)
    assert g.run() == 2
    assert g.seat(0, L.F_STOCK_BASE + CHOC) == 1 and g.seat(0, L.F_STOCK_BASE + MIXED) == 1
    assert [g.g(L.S_SUP_BASE + i) for i in range(3)] == [sup[0], sup[1] - 1, sup[2] - 1]
    g.clear(0)
    g.put(0, 2, "yellow", "grey", "pink")                            # level 3, executed at 2
    g.state[L.S_SUP_FROST + pair("lemon", "mint")] = 0
    g.force(1, 1, 1)
    g.start_turn(0)
    g.script(act(2, 2))
    assert g.run(until=(L.D_PAIR,)) == 1
    assert pair("lemon", "mint") not in g.options() and len(g.options()) == 5
    g.script(pair("mint", "strawberry"))
    assert g.run() == 2
    assert g.seat(0, L.F_STOCK_FROST + pair("mint", "strawberry")) == 1


def test_ce_a3_level3_places_a_yellow_and_a_beige_shop():
    """CE-A3: level 3 places one shop in a yellow region, then one in a beige region (+1 sales
    each, two shops out of the reserve). Each placement offers only regions of its kind, and a
    region with an empty slot is taken without displacing anyone (CE-A3.2)."""
    g = Game(2)
    g.clear()
    g.put(0, 3, "orange", "grey", "grey", "grey", "grey")           # n 5, base 2, e 1: level 3
    g.building("shop", "YEL1", 0, 1)                                 # Q's shop, slot 1 empty
    g.set_seat(0, L.F_SALES, 1)
    g.set_seat(0, L.F_SHOPS_RESERVE, 6)
    g.set_seat(1, L.F_SALES, 5)
    g.force(1, 1, 2, 2, 1)
    g.start_turn(0)
    g.script(act(3, 3))
    assert g.run(until=(L.D_SHOP,)) == 1
    assert g.options() == [shop("YEL1"), shop("YEL2")]              # yellow first, no victim
    g.script(shop("YEL1"))
    assert g.run(until=(L.D_SHOP,)) == 1
    assert g.options() == [shop("BEI1"), shop("BEI2"), shop("BEI3")]
    g.script(shop("BEI3"))
    assert g.run() == 2
    assert g.owners("shop", "YEL1")[:2] == [1, 0] and g.owners("shop", "BEI3")[0] == 0
    assert g.seat(0, L.F_SHOPS_RESERVE) == 4 and g.seat(0, L.F_SALES) == 3
    assert g.seat(1, L.F_SALES) == 5 and g.seat(1, L.F_DISPLACED) == 0


def test_ce_a4_level1_sells_within_reach_2_in_own_regions_only():
    """CE-A4: level 1 reaches distance 2, only in regions with an own bakery or shop (the grey
    start bakery counts) and only to customers a menu serves; the sale moves the customer to
    the slot of the house's value and adds that value to sales and income at once."""
    g = Game(2)
    g.clear()
    g.put(0, 4, "green")                                             # level 1
    g.building("bakery", "GREY", 0, 0)
    g.building("shop", "BEI1", 0, 0)
    g.building("shop", "YEL1", 0, 1)
    served, other = ctype(CHOC, "mint"), ctype(PLAIN, "lemon")
    for region, d, t in (("GREY", 1, served), ("GREY", 2, other), ("GREY", 3, served),
                         ("BEI1", 2, served), ("BEI1", 3, served), ("YEL1", 1, served)):
        g.state[L.S_HOUSE + house(region, d)] = t
    g.serve(0, CHOC, FL["mint"])
    g.set_seat(0, L.F_SALES, 4)
    g.set_seat(0, L.F_INCOME, 10)
    g.set_seat(0, L.F_PRODUCTION, 0)                                 # S2 adds nothing
    g.force(2)
    g.start_turn(0)
    g.script(act(4, 1))
    assert g.run(until=(L.D_SELL,)) == 1
    assert g.options() == [house("GREY", 1), house("BEI1", 2)]
    g.script(house("BEI1", 2))
    assert g.run() == 2
    assert g.seat(0, L.F_SALES) == 6 and g.seat(0, L.F_INCOME) == 12
    assert g.seat(0, L.F_CUST_VAL + 1) == 1 and g.seat(0, L.F_CUST + served) == 1
    assert g.g(L.S_HOUSE + house("BEI1", 2)) == -1
    assert g.g(L.S_HOUSE + house("GREY", 1)) == served and g.g(L.S_HOUSE + house("YEL1", 1)) == served
