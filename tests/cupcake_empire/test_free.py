"""Free actions (CE-F1 .. CE-F4, SP1 .. SP4): T5, T9 and T10 of spec §12."""
from sim.games.cupcake_empire import kernel as K
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire import options as O

from .helpers import CHOC, FL, MIXED, PLAIN, Game, act, ctype, free, pair

C_GREY, C_GREEN, C_PINK = 0, 4, 5


def _served(g, s):
    return {t for t in range(8) if (g.seat(s, L.F_SERVED) >> t) & 1}


def test_t5_menus_and_serving_ce_f1():
    """T5: (MIXED, MINT) then (CHOC, LEMON/STRAW): production 2 -> 5 -> 8, one menu of each
    part kind, and the customer types served."""
    g = Game(2)
    g.clear()
    g.set_seat(0, L.F_PRODUCTION, 2)
    for bk in (MIXED, CHOC):
        g.set_seat(0, L.F_STOCK_BASE + bk, 1)
    for fk in (FL["mint"], pair("lemon", "strawberry")):
        g.set_seat(0, L.F_STOCK_FROST + fk, 1)
    g.start_turn(0)
    g.script(free(L.FA_MENU), O.encode_menu(MIXED, FL["mint"]), free(L.FA_MENU), act(1, 0))
    assert g.run() == 2
    menus = [e for e in g.events() if e[0] == L.EV_MENU and e[6] == 0]
    assert [(int(e[2]), int(e[3]), int(e[5])) for e in menus] == [
        (MIXED, FL["mint"], 5), (CHOC, pair("lemon", "strawberry"), 8)]
    assert g.seat(0, L.F_PRODUCTION) == 8 and g.seat(0, L.F_MENUS) == 2
    assert [g.seat(0, f) for f in (L.F_SS_BASE, L.F_MX_BASE, L.F_SS_FROST, L.F_MX_FROST)] == [1, 1, 1, 1]
    assert _served(g, 0) == {ctype(PLAIN, "mint"), ctype(CHOC, "mint"), ctype(CHOC, "lemon"),
                             ctype(CHOC, "strawberry")}
    assert ctype(PLAIN, "lemon") not in _served(g, 0)


def _t9(income=20, ideas=1):
    g = Game(2)
    g.clear()
    g.put(0, "rest", "grey", "grey", "green", "pink")
    g.put(0, 4, "grey")
    g.set_seat(0, L.F_IDEAS, ideas)
    g.set_seat(0, L.F_INCOME, income)
    g.start_turn(0)
    return g


def _level(g, k):
    from sim.games.cupcake_empire.board import l_avail
    return l_avail(g.state, g.comp[0], g.b(0), k - 1)


def test_t9_rest_recall_ce_f2():
    """T9 (a): one idea recalls any number of rest dice into one column (level 3, capped);
    afterwards no second rest use this turn. (b): 2 income for green + pink, also level 3.
    CE-F4: income 1 pays for one die only; with no idea and no income nothing is offered."""
    g = _t9()
    ideas0 = g.g(L.S_SUP_IDEAS)
    g.script(free(L.FA_REST), O.encode_rest(0, 3), C_PINK, L.MORE, C_GREEN, L.MORE, L.STOP)  # grey forced
    assert g.run(until=(L.D_FREE,)) == 1
    assert L.FA_REST not in g.options()                               # once per turn
    assert g.seat(0, L.F_IDEAS) == 0 and g.g(L.S_SUP_IDEAS) == ideas0 + 1
    assert g.dice(0, 4) == {"grey": 2, "green": 1, "pink": 1} and _level(g, 4) == 3
    assert g.dice(0, "rest") == {"grey": 1}
    g = _t9()
    g.script(free(L.FA_REST), O.encode_rest(1, 3), C_GREEN, L.MORE, C_PINK, L.STOP)
    assert g.run(until=(L.D_ACTIVATE,)) == 1
    assert g.seat(0, L.F_INCOME) == 18 and g.seat(0, L.F_INCOME_PAID) == 2 and _level(g, 4) == 3
    g = _t9(income=1, ideas=0)
    g.script(free(L.FA_REST), O.encode_rest(1, 3), C_PINK)
    assert g.run(until=(L.D_ACTIVATE,)) == 1                          # no D_MORE: income 0
    assert g.seat(0, L.F_INCOME) == 0 and g.dice(0, 4) == {"grey": 1, "pink": 1}
    g = _t9(income=0, ideas=0)
    assert g.run(until=(L.D_ACTIVATE, L.D_FREE)) == 1
    assert g.pending()[0] == L.D_ACTIVATE                             # nothing free to do



def test_t10_special_actions_ce_f3():
    """T10: SP4 pays 3 per die (income 7: two dice, income 1); a second special action the same
    turn is not offered; SP3 needs income >= 2 and ideas < cap."""
    g = Game(2)
    g.clear()
    g.put(0, 1, "grey")
    g.put(0, 2, "grey")
    g.set_seat(0, L.F_INCOME, 7)
    g.start_turn(0)
    g.script(free(L.FA_SPECIAL), L.SP_MOVEN, O.encode_move_die(0, 0), 3, L.MORE,
             O.encode_move_die(1, 0), 3)
    assert g.run(until=(L.D_FREE, L.D_ACTIVATE)) == 1
    assert g.seat(0, L.F_INCOME) == 1 and g.dice(0, 4) == {"grey": 2}
    assert g.pending()[0] == L.D_ACTIVATE                             # nothing left to do in W1
    g = Game(2)
    g.clear()
    g.set_seat(0, L.F_INCOME, 10)
    g.set_seat(0, L.F_IDEAS, 0)
    g.put(0, 1, "grey")
    g.start_turn(0)
    g.script(free(L.FA_SPECIAL), L.SP_IDEA)
    assert g.run(until=(L.D_ACTIVATE,)) == 1
    assert g.seat(0, L.F_IDEAS) == 1 and g.seat(0, L.F_INCOME) == 8
    for income, ideas, offered in ((1, 0, False), (10, 3, False), (2, 2, True)):
        g = Game(2)
        g.clear()
        g.set_seat(0, L.F_INCOME, income)
        g.set_seat(0, L.F_IDEAS, ideas)
        opts = g.listed(K.list_special, g.rules, g.comp, 0)
        assert (L.SP_IDEA in opts) == offered, (income, ideas)


def test_sp1_disc():
    """SP1: one idea buys a disc of a chosen type, placed on the first empty space of a chosen
    column (the idea returns to the supply, the disc leaves it)."""
    g = Game(2)
    g.clear()
    g.set_seat(0, L.F_IDEAS, 1)
    g.set_seat(0, L.F_INCOME, 0)
    g.set_disc(0, 3, 1, L.X_BASE)
    discs, ideas = g.g(L.S_SUP_DISCS + L.X_INCOME3), g.g(L.S_SUP_IDEAS)
    g.start_turn(0)
    g.script(free(L.FA_SPECIAL), O.encode_special_disc(L.X_INCOME3, 2))
    assert g.run(until=(L.D_ACTIVATE,)) == 1
    assert g.disc(0, 3, 2) == L.X_INCOME3
    assert g.g(L.S_SUP_DISCS + L.X_INCOME3) == discs - 1 and g.g(L.S_SUP_IDEAS) == ideas + 1
    assert g.seat(0, L.F_IDEAS) == 0


def test_sp2_move_one_die():
    """SP2: one idea moves exactly one die to another column with room."""
    g = Game(2)
    g.clear()
    g.set_seat(0, L.F_IDEAS, 1)
    g.set_seat(0, L.F_INCOME, 0)
    g.put(0, 1, "pink", "grey")
    g.start_turn(0)
    g.script(free(L.FA_SPECIAL), L.SP_MOVE1, O.encode_move_die(0, 5))
    assert g.run(until=(L.D_MOVE_TO,)) == 1
    assert g.options() == [1, 2, 3, 4]
    g.game.take(4)
    assert g.run(until=(L.D_ACTIVATE, L.D_MORE)) == 1
    assert g.pending()[0] == L.D_ACTIVATE
    assert g.dice(0, 5) == {"pink": 1} and g.dice(0, 1) == {"grey": 1}
    assert g.seat(0, L.F_IDEAS) == 0


def test_ce_f2_rest_recall_stops_at_the_column_capacity():
    """CE-F2: a full column is no target; paying one idea moves rest dice into the chosen
    column only while it has room (column 2 holds 5 of 6: one die moves, no 'one more')."""
    g = Game(2)
    g.clear()
    g.put(0, 2, "yellow", "grey", "grey", "grey", "grey")
    g.put(0, 3, *(["grey"] * 6))
    g.put(0, "rest", "grey", "grey", "pink")
    g.set_seat(0, L.F_IDEAS, 1)
    g.set_seat(0, L.F_INCOME, 10)
    opts = g.listed(K.list_rest, g.rules, g.comp, 0)
    assert opts == [O.encode_rest(m, k) for m in (0, 1) for k in (0, 1, 3, 4)]
    g = Game(2)
    g.clear()
    g.put(0, 2, "yellow", "grey", "grey", "grey", "grey")
    g.put(0, "rest", "grey", "grey", "pink")
    g.set_seat(0, L.F_IDEAS, 1)
    g.set_seat(0, L.F_INCOME, 0)
    g.start_turn(0)
    g.script(free(L.FA_REST), O.encode_rest(0, 1), C_PINK)
    assert g.run(until=(L.D_FREE, L.D_MORE, L.D_ACTIVATE)) == 1
    assert g.pending()[0] == L.D_ACTIVATE                             # no D_MORE: column full
    assert g.dice(0, 2) == {"yellow": 1, "grey": 4, "pink": 1} and g.dice(0, "rest") == {"grey": 2}
    assert g.seat(0, L.F_IDEAS) == 0


def test_ce_f3_one_special_action_per_turn_besides_the_rest_use():
    """CE-F3: after a special action (SP3 in W1) no further special action is offered this turn
    (neither in W1 nor in W2/W3, though affordable), while the rest use (CE-F2) still is."""
    g = Game(2)
    g.clear()
    g.put(0, 1, "grey")
    g.put(0, "rest", "grey")
    g.set_seat(0, L.F_INCOME, 10)
    g.set_seat(0, L.F_IDEAS, 0)
    g.set_seat(0, L.F_PRODUCTION, 0)
    g.start_turn(0)
    g.script(free(L.FA_SPECIAL), L.SP_IDEA)
    assert g.run(until=(L.D_FREE,)) == 1
    assert g.options() == [L.FA_DONE, L.FA_REST]
    assert g.seat(0, L.F_IDEAS) == 1 and g.seat(0, L.F_INCOME) == 8
    g.script(free(L.FA_REST), O.encode_rest(1, 0))                              # 1 income, the grey die
    assert g.run(until=(L.D_ACTIVATE,)) == 1
    assert g.dice(0, 1) == {"grey": 2} and g.seat(0, L.F_INCOME) == 7
    g.force(2, 3)
    g.script(act(1, 0))
    assert g.run(until=(L.D_FREE,)) == 2                              # W2, W3: nothing offered
    assert g.seat(0, L.F_IDEAS) == 1 and g.seat(0, L.F_INCOME) == 7
