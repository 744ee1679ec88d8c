"""Face abilities (RB-F*): TS-02, TS-03, TS-04, TS-05, TS-09, TS-12, TS-13, TS-14."""
import pytest

from sim.games.rattlebones import layout as L
from sim.games.rattlebones import options as O

from .helpers import BL, DECLINE, G, Game, MG, MW, W, arrow_target_options, move_options, mv


def test_rb_f1_points():
    """RB-F1: POINTS_k gives k x mult."""
    g = Game()
    g.set_die(0, W, ["R", "POINTS_5", 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.score(0) == 5
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.set_die(0, W, ["R", "POINTS_5", 3, 4, 5, 6])
    g.set_die(0, G, ["R", "DOUBLE", 3, 4, 5, 6])
    g.force(2, 2)
    g.script(1, MW | MG, W)
    g.turn(0)
    assert g.score(0) == 10


def test_ts02_arrow_at_train_rb_f3():
    """TS-02 RB-F3 / RB-F7: an arrow at TRAIN scores the train value; a Double doubles it;
    the train advances once."""
    def game(gold=0):
        g = Game()
        g.set_seat(0, L.F_GOLD, gold)
        g.set_die(0, W, ["R", ("ARROW", 3), "TRAIN", 4, 5, 6])
        g.set(L.S_TRAIN_POS, 2)
        return g
    g = game()
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.score(0) == 2 and g.g(L.S_TRAIN_POS) == 3
    g = game(gold=1)
    g.set_die(0, G, ["R", "DOUBLE", 3, 4, 5, 6])
    g.force(2, 2)
    g.script(1, MW | MG, W)            # the Double's only target is white
    g.turn(0)
    assert g.score(0) == 4 and g.g(L.S_TRAIN_POS) == 3 and g.gold(0) == 0
    g = game()
    g.force(3)
    g.script(MW)
    g.turn(0)
    assert g.score(0) == 2 and g.g(L.S_TRAIN_POS) == 3


@pytest.mark.parametrize("holdings,n,expect", [
    ((5, 0, 0, 0), 4, (15, 0, 0, 0)),
    ((4, 1, 0, 0), 4, (10, 5, 0, 0)),
    ((3, 2, 0, 0), 4, (10, 5, 0, 0)),
    ((3, 1, 1, 0), 4, (10, 2, 2, 0)),
    ((2, 2, 1, 0), 4, (7, 7, 2, 0)),
    ((2, 1, 1, 1), 4, (10, 2, 2, 2)),
    ((3, 2), 2, (10, 5)),
])
def test_ts03_stock_scoring_rb_f9_f10(holdings, n, expect):
    """TS-03(a-g) RB-F9 / RB-F10: A takes the last stock; groups pay; all stocks return."""
    g = Game(n=n)
    for s, c in enumerate(holdings):
        g.set_seat(s, L.F_STOCKS, c - 1 if s == 0 else c)
    g.set(L.S_STOCK_SUPPLY, 1)
    g.set_die(0, W, ["R", "STOCK", 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert tuple(g.score(s) for s in range(n)) == expect
    assert all(g.stocks(s) == 0 for s in range(n)) and g.g(L.S_STOCK_SUPPLY) == 5


def test_ts03h_double_on_stock_changes_nothing_rb_f9():
    """TS-03(h) RB-F9: a Double assigned to the STOCK die changes nothing."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.set_seat(0, L.F_STOCKS, 3)
    g.set_seat(1, L.F_STOCKS, 1)
    g.set(L.S_STOCK_SUPPLY, 1)
    g.set_die(0, W, ["R", "STOCK", 3, 4, 5, 6])
    g.set_die(0, G, ["R", "DOUBLE", 3, 4, 5, 6])
    g.force(2, 2)
    g.script(1, MW | MG, W)
    g.turn(0)
    assert (g.score(0), g.score(1)) == (10, 5) and g.g(L.S_STOCK_SUPPLY) == 5


def _ts04(gold=2):
    g = Game()
    g.set_seat(0, L.F_GOLD, gold)
    g.set(L.S_GOLD_SUPPLY, 20 - gold)
    g.set_die(0, W, ["R", "DOUBLE", 3, 4, 5, 6])
    g.set_die(0, G, ["R", "GOLD", 3, 4, 5, 6])
    g.set_die(0, BL, ["R", "POINTS_4", 3, 4, 5, 6])
    return g


def test_ts04_double_with_gold_rb_f5():
    """TS-04(a,b) RB-F5 / RB-F12: Double -> grey doubles its gold; -> black doubles points."""
    g = _ts04()
    g.force(2, 2, 2)
    g.script(2, G, BL, G)
    g.turn(0)
    assert g.gold(0) == 2 and g.score(0) == 4
    g = _ts04()
    g.force(2, 2, 2)
    g.script(2, BL, BL, G)
    g.turn(0)
    assert g.gold(0) == 1 and g.score(0) == 8


def test_ts04c_gamble_never_doubled_rb_f5_f6():
    """TS-04(c) RB-F5 / RB-F6: a doubled Gamble's 5 stays 5."""
    g = _ts04()
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.force(2, 2, 2, 3)                # gamble face index 3 = POINTS:5
    g.script(2, G, BL, G)
    g.turn(0)
    assert g.score(0) == 9 and g.gold(0) == 0


def test_ts04d_double_alone_rb_f5():
    """TS-04(d) RB-F5: a Double rolled alone has no effect."""
    g = _ts04()
    g.force(2)
    g.script(0, MW)
    g.turn(0)
    assert g.score(0) == 0 and g.gold(0) == 2
    assert any(e[0] == L.EV_NO_EFFECT and e[4] == L.NE_DOUBLE_ALONE for e in g.events())


def test_ts04e_double_gain_capped_by_supply_rb_f5_f12():
    """TS-04(e) RB-F5 / RB-F12: the supply holds 1 after the payment: a doubled GOLD gives 1."""
    g = _ts04()
    g.force(2, 2, 2)
    g.script(2, G, G, BL)
    g.start_turn(0)
    g.run(until=(L.D_ORDER,))          # the Double is declared; no die resolved yet
    assert g.g(L.S_RESOLVED) == 0 and g.g(L.S_DBL_TARGET + W) == G
    g.set(L.S_GOLD_SUPPLY, 1)
    assert g.run() == 2
    g.check_script()
    assert g.gold(0) == 1 and g.g(L.S_GOLD_SUPPLY) == 0 and g.score(0) == 4


def test_ts05_arrow_edge_cases_rb_f3():
    """TS-05(a,b,c) RB-F3 (AMB-05/06/07): arrow -> Ringmaster, arrow cycle, arrow -> pip."""
    g = Game()
    g.space(1, "STAR")
    g.set_die(0, W, ["R", ("ARROW", 1), 3, 4, 5, 6])
    g.force(2)
    g.script(MW, mv(1, 0), 3)
    g.turn(0)
    assert g.R == 64 and g.monkey(0, 0) == 1 and g.die(0, W)[2] == "STAR"
    g = Game()
    g.set_die(0, W, ["R", ("ARROW", 3), ("ARROW", 2), 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.R == 65 and g.score(0) == 0
    assert any(e[0] == L.EV_NO_EFFECT and e[4] == L.NE_CYCLE for e in g.events())
    g = Game()
    g.set_die(0, W, ["R", ("ARROW", 4), 3, 4, 5, 6])
    g.force(2)
    g.script(MW, mv(4, 0), 2)          # 0 -> 4 = FACE(GOLD); GOLD replaces the arrow itself
    g.turn(0)
    assert g.monkey(0, 0) == 4 and g.die(0, W) == ["R", "GOLD", 3, 4, 5, 6]
    assert g.supply("ARROW") == 16
    g = Game(tweaks={"arrow_number_mode": "none"})
    g.set_die(0, W, ["R", ("ARROW", 4), 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.monkey(0, 0) == 0


def test_arrow_target_options_rb_f3():
    """§2.2 / AMB-05: an arrow in slot s targets the 4 adjacent slots (any other with
    arrow_targets = any)."""
    g = Game()
    n = arrow_target_options(g.state, g.rules, 1, g.opts)       # slot 2
    assert sorted(g.opts[:n]) == [1, 3, 4, 6]
    g = Game(tweaks={"arrow_targets": "any"})
    n = arrow_target_options(g.state, g.rules, 1, g.opts)
    assert sorted(g.opts[:n]) == [1, 3, 4, 5, 6]


@pytest.mark.parametrize("seat,gain", [(0, 1), (1, 1), (2, 3), (3, 4)])
def test_ts09_rank_1234_rb_f4(seat, gain):
    """TS-09 RB-F4: scores 20/20/10/5 -> RANK_1234 gives 1/1/3/4 (ties take the better rank)."""
    g = Game()
    for s, v in enumerate((20, 20, 10, 5)):
        g.set_seat(s, L.F_SCORE, v)
    g.set_die(seat, W, ["R", "RANK_1234", 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    before = g.score(seat)
    g.turn(seat)
    assert g.score(seat) - before == gain


def test_ts09_rank_two_players_and_double_rb_f4():
    """TS-09 RB-F4: 2 players A 10 B 12 -> A +2, B +1; D with a Double -> +8."""
    for seat, gain in ((0, 2), (1, 1)):
        g = Game(n=2)
        g.set_seat(0, L.F_SCORE, 10)
        g.set_seat(1, L.F_SCORE, 12)
        g.set_die(seat, W, ["R", "RANK_1234", 3, 4, 5, 6])
        g.force(2)
        g.script(MW)
        before = g.score(seat)
        g.turn(seat)
        assert g.score(seat) - before == gain
    g = Game()
    for s, v in enumerate((20, 20, 10, 5)):
        g.set_seat(s, L.F_SCORE, v)
    g.set_seat(3, L.F_GOLD, 1)
    g.set_die(3, W, ["R", "RANK_1234", 3, 4, 5, 6])
    g.set_die(3, G, ["R", "DOUBLE", 3, 4, 5, 6])
    g.force(2, 2)
    g.script(1, MW | MG, W)
    g.turn(3)
    assert g.score(3) == 5 + 8


def test_ts12_thief_rb_f2():
    """TS-12 RB-F2: one token per opponent holding any, clockwise; a stolen stock never scores."""
    g = Game()
    g.set_seat(1, L.F_GOLD, 2)
    g.set_seat(1, L.F_STARS, 1)
    g.set_seat(3, L.F_STOCKS, 1)
    g.set(L.S_STOCK_SUPPLY, 4)
    g.set_die(0, W, ["R", "THIEF", 3, 4, 5, 6])
    g.force(2)
    g.script(MW, L.TK_STAR)            # B: star (D has only a stock: no choice)
    g.turn(0)
    assert (g.stars(0), g.stocks(0), g.gold(1), g.stars(1), g.stocks(3)) == (1, 1, 2, 0, 0)
    assert g.g(L.S_STOCK_SUPPLY) == 4 and g.g(L.S_STOCK_SCORINGS) == 0
    victims = [int(e[2]) for e in g.events() if e[0] == L.EV_THEFT]
    assert victims == [1, 3]


def test_ts03i_thief_steals_last_stock_no_scoring_rb_f2_f10():
    """TS-03(i) RB-F2 / RB-F10: stealing a stock while the supply is 1 triggers no scoring."""
    g = Game()
    g.set_seat(1, L.F_STOCKS, 4)
    g.set(L.S_STOCK_SUPPLY, 1)
    g.set_die(0, W, ["R", "THIEF", 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.stocks(0) == 1 and g.stocks(1) == 3 and g.g(L.S_STOCK_SCORINGS) == 0


def test_ts13_gamble_rb_f6():
    """TS-13 RB-F6: gamble 4 -> +4 (also with a Double); RINGMASTER -> R-1, no move;
    NINE -> a move with the install on the Gamble die."""
    g = Game()
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.force(2, 2)                      # gamble face index 2 = POINTS:4
    g.script(MG)
    g.turn(0)
    assert g.score(0) == 4
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.set_die(0, W, ["R", "DOUBLE", 3, 4, 5, 6])
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.force(2, 2, 2)
    g.script(1, MW | MG, G)
    g.turn(0)
    assert g.score(0) == 4
    g = Game()
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.force(2, 4)                      # RINGMASTER
    g.script(MG)                       # strict: no move decision may be asked
    g.turn(0)
    assert g.R == 64 and g.monkey(0, 0) == 0
    g = Game()
    g.space(7, "TRAIN")
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.force(2, 5)                      # NINE
    g.script(MG, mv(7, 0), 2)
    g.turn(0)
    assert g.monkey(0, 0) == 7 and g.die(0, G) == ["R", "TRAIN", 3, 4, 5, 6]
    assert g.supply("GAMBLE") == 16 and g.supply("TRAIN") == 14


def test_ts14_nine_rb_f13():
    """TS-14 RB-F13: NINE chooses N in 1..9; from 10, N = 4 lands on START and shops."""
    g = Game()
    g.set_monkey(0, 0, 10)
    g.set_seat(0, L.F_STARS, 4)
    g.set_die(0, W, ["R", "NINE", 3, 4, 5, 6])
    n = move_options(g.state, 0, 1, 9, True, g.opts)
    dists = {int(O.decode_move(a)[0]) for a in g.opts[:n] if a >= 0}
    assert dists == set(range(1, 10))
    g.force(2)
    g.script(MW, mv(4, 0), 4)
    g.turn(0)
    assert g.monkey(0, 0) == 0 and g.score(0) == 15
    g = Game(tweaks={"nine_move_min": 9})
    g.set_die(0, W, ["R", "NINE", 3, 4, 5, 6])
    g.force(2)
    g.script(MW, mv(9, 1), 0)          # only N = 9; lands on 9 (EMPTY)... index 9 is a SLOT
    g.script(MW, mv(9, 1))
    g.turn(0)
    assert g.monkey(0, 1) == 9


def test_rb_f11_f12_star_gold_supply_cap():
    """RB-F11 / RB-F12: gains are capped by a limited supply; 0 in the data = unlimited."""
    g = Game()
    g.set(L.S_STAR_SUPPLY, 0)
    g.set_die(0, W, ["R", "STAR", 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.stars(0) == 0
    g = Game(tweaks={"star_supply": 0, "gold_supply": 0})
    assert g.g(L.S_STAR_LIMITED) == 0 and g.g(L.S_GOLD_LIMITED) == 0
    g.set_die(0, W, ["R", "STAR", "GOLD", 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    g.force(3)
    g.script(MW)
    g.turn(0)
    assert g.stars(0) == 1 and g.gold(0) == 1


def test_rb_f14_pip_and_ringmaster():
    """RB-F14: PIP_k moves k; RINGMASTER resolves by RB-T8."""
    g = Game()
    g.force(6)
    g.script(MW, mv(6, 2), 0)          # 0 -> 6 = FACE(STAR): decline
    g.turn(0)
    assert g.monkey(0, 2) == 6
    g = Game()
    g.force(1)
    g.script(MW, DECLINE)
    g.turn(0)
    assert g.R == 64


def test_rb_f15_no_effect_outcomes():
    """RB-F15: REROLL after the roll phase, the Double die itself, a Thief with nobody to rob,
    a gain from an empty supply: no effect."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.set_die(0, W, ["R", "DOUBLE", 3, 4, 5, 6])
    g.set_die(0, G, ["R", "THIEF", 3, 4, 5, 6])
    g.force(2, 2)
    g.script(1, MW | MG, W)
    g.turn(0)
    reasons = {int(e[4]) for e in g.events() if e[0] == L.EV_NO_EFFECT}
    assert {L.NE_DOUBLE_DIE, L.NE_THIEF_NOBODY} <= reasons
    assert sum(g.stars(s) + g.gold(s) + g.stocks(s) for s in range(4)) == 0
    g = Game()
    g.set(L.S_GOLD_SUPPLY, 0)
    g.set_die(0, W, ["R", "GOLD", 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.gold(0) == 0
