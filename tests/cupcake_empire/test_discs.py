"""Extra-action discs (CE-T3, CE-T4, CE-X1 .. CE-X6): T12 and T13 of spec §12."""
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire import options as O

from .helpers import PLAIN, FL, Game, act, ctype, house, shop


def _col3_with_discs(tweaks=None):
    g = Game(2, tweaks)
    g.clear()
    g.put(0, 3, "orange", "grey", "grey")                            # L_avail 2
    g.set_disc(0, 3, 1, L.X_INCOME3)
    g.set_disc(0, 3, 2, L.X_IDEA2)
    return g


def test_t12_disc_trigger_by_executed_level_ce_t3():
    """T12 / CE-X5: at L_exec 1 only the space-1 disc may trigger (even with L_avail 2), at
    L_exec 2 both; each resolves once, before or after the main action; discs stay (CE-X6)."""
    g = _col3_with_discs()
    g.start_turn(0)
    g.script(act(3, 1))
    assert g.run(until=(L.D_S1,)) == 1
    assert g.options() == [L.S1_MAIN, O.encode_s1_disc(0)]
    g = _col3_with_discs()
    g.set_seat(0, L.F_INCOME, 10)
    g.set_seat(0, L.F_PRODUCTION, 0)
    g.force(3, 3, 3)
    g.start_turn(0)
    g.script(act(3, 2))
    assert g.run(until=(L.D_S1,)) == 1
    assert g.options() == [L.S1_MAIN, O.encode_s1_disc(0), O.encode_s1_disc(1)]
    g.game.take(O.encode_s1_disc(0))                                       # INCOME3 before the action
    assert g.run(until=(L.D_S1,)) == 1
    assert g.options() == [L.S1_MAIN, O.encode_s1_disc(1)]
    assert g.seat(0, L.F_INCOME) == 13
    g.game.take(L.S1_MAIN)
    assert g.run(until=(L.D_SHOP,)) == 1                             # level 2: a beige shop
    g.game.take(shop("BEI1"))
    assert g.run(until=(L.D_S1,)) == 1
    assert g.options() == [O.encode_s1_disc(1), L.S1_END]
    g.game.take(L.S1_END)                                            # IDEA2 skipped
    assert g.run() == 2
    assert g.seat(0, L.F_IDEA_POS) == 0 and g.seat(0, L.F_DISCS_USED) == 1
    assert g.disc(0, 3, 1) == L.X_INCOME3 and g.disc(0, 3, 2) == L.X_IDEA2


def test_t12_disc_trigger_on_available_variant_ce_t3():
    """CE-AMB-07 alternative: with ``disc_trigger_on_available`` both discs may trigger at
    L_exec 1 when L_avail is 2."""
    g = _col3_with_discs({"disc_trigger_on_available": True})
    g.start_turn(0)
    g.script(act(3, 1))
    assert g.run(until=(L.D_S1,)) == 1
    assert g.options() == [L.S1_MAIN, O.encode_s1_disc(0), O.encode_s1_disc(1)]


def _t13(disc_column):
    g = Game(2)
    g.clear()
    g.put(0, 5, "pink", "grey", "grey")                              # L_avail 2
    g.set_disc(0, 5, 1, L.X_BASE)
    g.building("bakery", "GREY", 0, 0)
    g.state[L.S_HOUSE + house("GREY", 1)] = ctype(PLAIN, "lemon")
    g.serve(0, PLAIN, FL["lemon"])
    g.start_turn(0)
    g.script(act(5, 2), L.S1_MAIN, 3)                                # hire orange
    assert g.run(until=(L.D_DISC,)) == 1
    assert O.encode_disc_gain(L.X_BASE, 4) not in g.options()                       # CE-X4: no second BASE
    assert O.encode_disc_gain(L.X_BASE, 0) in g.options()
    g.script(O.encode_disc_gain(L.X_SELL2, disc_column - 1))
    assert g.run(until=(L.D_S1,)) == 1
    return g


def test_t13_disc_gained_and_used_ce_t4():
    """T13: column 5 at L2 hires an orange die (into column 3, rolled in S3) and gains SELL2 on
    column 5 space 2 (first empty space, CE-X3): both discs resolve this turn (CE-T4)."""
    g = _t13(5)
    assert g.disc(0, 5, 2) == L.X_SELL2
    assert g.dice(0, 3) == {"orange": 1}
    assert g.options() == [O.encode_s1_disc(0), O.encode_s1_disc(1), L.S1_END]
    g.force(1, 1, 2, 4)                                              # grey, grey, orange, pink
    g.script(O.encode_s1_disc(1), O.encode_s1_disc(0), PLAIN)
    assert g.run() == 2
    assert g.seat(0, L.F_CUST + ctype(PLAIN, "lemon")) == 1           # SELL2 sold
    assert g.seat(0, L.F_STOCK_BASE + PLAIN) == 1                    # BASE taken
    assert g.dice(0, 2) == {"orange": 1} and g.dice(0, 3) == {}      # the hired die rolled


def test_t13_disc_on_another_column_waits_ce_t4():
    """T13: the same SELL2 placed on column 4 does not trigger this turn."""
    g = _t13(4)
    assert g.disc(0, 4, 1) == L.X_SELL2
    assert g.options() == [O.encode_s1_disc(0), L.S1_END]


def test_ce_x1_x4_disc_supply_and_duplicates():
    """CE-X1: a type with an empty supply is not offered; CE-X2: column 5 has 4 spaces,
    columns 1-4 three; CE-X4: a full column or a column holding the type is not offered."""
    g = Game(2)
    g.clear()
    g.put(0, 5, "pink", "grey", "grey")
    g.state[L.S_SUP_DISCS + L.X_INCOME3] = 0
    for space, t in ((1, L.X_BASE), (2, L.X_FROST), (3, L.X_SHOP_Y)):
        g.set_disc(0, 1, space, t)                                   # column 1 full (3 spaces)
        g.set_disc(0, 5, space, t)                                   # column 5: one space left
    g.start_turn(0)
    g.script(act(5, 2), L.S1_MAIN, 1)
    assert g.run(until=(L.D_DISC,)) == 1
    opts = g.options()
    assert all(O.decode_disc_gain(o)[0] != L.X_INCOME3 for o in opts)
    assert all(O.decode_disc_gain(o)[1] != 0 for o in opts)                             # column 1 is full
    assert O.encode_disc_gain(L.X_SELL2, 4) in opts and O.encode_disc_gain(L.X_BASE, 4) not in opts
    assert O.encode_disc_gain(L.X_IDEA2, 1) in opts
