"""Special spaces: START shop (RB-P1, RB-P2), +1 (RB-P3, RB-P4): TS-10, TS-11."""
from sim.games.rattlebones import layout as L

from .helpers import DECLINE, G, Game, MG, MW, W, mv, place_p1, plus1_options, upgrade


def _shop_game(pos, **tweaks):
    g = Game(tweaks=tweaks or None)
    g.set_monkey(0, 0, pos)
    g.set_seat(0, L.F_STARS, 5)
    g.set(L.S_STAR_SUPPLY, 15)
    return g


def test_ts10_start_shop_rb_p1_p2():
    """TS-10(a) RB-P1 / RB-P2: landing on START cashes 4 of 5 stars for 15; no install."""
    g = _shop_game(11)
    g.force(3)
    g.script(MW, mv(3, 0), 4)
    g.turn(0)
    assert g.monkey(0, 0) == 0 and g.score(0) == 15 and g.stars(0) == 1
    assert g.g(L.S_STAR_SUPPLY) == 19 and g.die(0, W) == ["R", 2, 3, 4, 5, 6]
    # legal k are 0..min(shop_max_stars, stars)
    g = _shop_game(11)
    g.set_seat(0, L.F_STARS, 2)
    g.force(3)
    g.script(MW, mv(3, 0), 2)
    g.turn(0)
    assert list(g.opts[:3]) == [0, 1, 2] and g.score(0) == 7


def test_ts10b_passing_start_does_nothing_rb_p1():
    """TS-10(b) RB-P1: passing START does not shop; the +1 space applies (RB-P3)."""
    g = _shop_game(12)
    g.force(4)
    g.script(MW, mv(4, 0), DECLINE)
    g.turn(0)
    assert g.monkey(0, 0) == 2 and g.score(0) == 0 and g.stars(0) == 5


def test_ts10c_ringmaster_move_onto_start_rb_p1_t8():
    """TS-10(c) RB-P1 / RB-T8: Ringmaster R-1 then a 1-space move onto START shops."""
    g = _shop_game(13)
    g.force(1)
    g.script(MW, mv(1, 0), 4)
    g.turn(0)
    assert g.R == 64 and g.monkey(0, 0) == 0 and g.score(0) == 15


def test_ts10d_shop_never_doubled_rb_p2():
    """TS-10(d) RB-P2 / RB-F5: a Double on the moving die does not double the shop."""
    g = _shop_game(11)
    g.set_seat(0, L.F_GOLD, 1)
    g.set_die(0, W, ["R", "DOUBLE", 3, 4, 5, 6])
    g.force(2, 3)
    g.script(1, MW | MG, G, mv(3, 0), 4)
    g.turn(0)
    assert g.g(L.S_DBL_COUNT + G) == 1 and g.score(0) == 15


def test_ts10e_shop_on_pass_rb_p1():
    """TS-10(e) RB-P1 with shop_on_pass = true (AMB-02): passing START cashes once."""
    g = _shop_game(12, shop_on_pass=True)
    g.force(4)
    g.script(MW, mv(4, 0), 4, DECLINE)
    g.turn(0)
    assert g.monkey(0, 0) == 2 and g.score(0) == 15 and g.stars(0) == 1


def test_shop_exchanges_per_landing_rb_p2():
    """RB-P2 / AMB-03: shop_exchanges_per_landing = 2 allows a second exchange."""
    g = _shop_game(11, shop_exchanges_per_landing=2)
    g.set_seat(0, L.F_STARS, 6)
    g.force(3)
    g.script(MW, mv(3, 0), 4, 2)
    g.turn(0)
    assert g.score(0) == 15 + 7 and g.stars(0) == 0


def _ts11():
    g = Game()
    for k, v in enumerate((2, 0, 3, 2, 1)):
        g.set_supply(f"POINTS_{k + 1}", v)
    g.set_die(0, G, ["R", "POINTS_1", 3, "POINTS_4", 5, 6])
    g.set_monkey(0, 0, 5)
    return g


def test_ts11_plus1_limited_supply_rb_p3():
    """TS-11 RB-P3: legal +1 choices with point supply [2,0,3,2,1] on grey."""
    g = _ts11()
    n = plus1_options(g.state, g.rules, 0, G, g.opts)
    legal = set(int(x) for x in g.opts[:n])
    want = {DECLINE, upgrade(G, 4)} | {place_p1(G, s) for s in (2, 3, 4, 5, 6)}
    assert legal == want
    assert upgrade(G, 2) not in legal                       # POINTS_2 pile is empty
    assert not any(0 <= (a % 64) // 8 != G for a in legal if a >= 0)   # only the moving die
    # upgrade slot 4 during a turn: grey 3 moves 5 -> 8 (PLUS1)
    g.force(3)
    g.script(MG, mv(3, 0), upgrade(G, 4))
    g.turn(0)
    assert g.die(0, G) == ["R", "POINTS_1", 3, "POINTS_5", 5, 6]
    assert g.supply("POINTS_4") == 3 and g.supply("POINTS_5") == 0 and g.score(0) == 0
    # POINTS_1 into slot 4 returns the POINTS_4
    g = _ts11()
    g.force(3)
    g.script(MG, mv(3, 0), place_p1(G, 4))
    g.turn(0)
    assert g.die(0, G) == ["R", "POINTS_1", 3, "POINTS_1", 5, 6]
    assert g.supply("POINTS_1") == 1 and g.supply("POINTS_4") == 3


def test_rb_p4_plus1_never_scores_no_upgrade_past_max():
    """RB-P4: +1 never scores; no upgrade past point_face_max or beyond the supply;
    plus1_any_die (AMB-14) lets the upgrade target another own die."""
    g = Game()
    g.set_die(0, W, ["R", "POINTS_5", "POINTS_3", 4, 5, 6])
    g.set_supply("POINTS_1", 0)
    n = plus1_options(g.state, g.rules, 0, W, g.opts)
    assert set(int(x) for x in g.opts[:n]) == {DECLINE, upgrade(W, 3)}
    g = Game(tweaks={"point_face_max": 3})
    g.set_die(0, W, ["R", "POINTS_2", "POINTS_3", 4, 5, 6])
    g.set_supply("POINTS_1", 0)
    n = plus1_options(g.state, g.rules, 0, W, g.opts)
    assert set(int(x) for x in g.opts[:n]) == {DECLINE, upgrade(W, 2)}
    g = Game(tweaks={"plus1_any_die": True})
    g.set_die(0, G, ["R", "POINTS_2", 3, 4, 5, 6])
    g.set_supply("POINTS_1", 0)
    n = plus1_options(g.state, g.rules, 0, W, g.opts)
    assert set(int(x) for x in g.opts[:n]) == {DECLINE, upgrade(G, 2)}
    g = Game()
    g.set_die(0, W, ["R", "POINTS_2", 3, 4, 5, 6])
    g.force(2)                          # PIP_2... slot 2 is POINTS_2: use slot 3 (PIP_3)
    g.force(3)
    g.set_monkey(0, 0, 13)              # 13 + 3 = 16 -> 2 (PLUS1)
    g.script(MW, mv(3, 0), upgrade(W, 2))
    g.turn(0)
    assert g.score(0) == 0 and g.die(0, W)[1] == "POINTS_3"
