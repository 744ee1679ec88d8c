"""Turn structure scenarios (RB-T*), forced dice on hand-built states."""
from sim.games.rattlebones import layout as L

from .helpers import BL, DECLINE, G, Game, MB, MG, MW, W, move_options, mv


def test_ts01_worked_example_rb_t13():
    """TS-01 / RB-T13 worked example; RB-T10 (two dice move the same monkey)."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.set(L.S_GOLD_SUPPLY, 19)
    g.space(3, "THIEF")
    g.space(4, "ARROW")
    g.force(1, 3)                      # die-id order: white slot 1, grey slot 3
    g.script(1, MW | MG,               # e = 1, roll white + grey
             G, mv(3, 0), 3,           # grey first: M1 0 -> 3, THIEF into grey slot 3
             mv(1, 0), 2, 3)           # white: R 65 -> 64, M1 3 -> 4, ARROW into white slot 2 -> 3
    g.turn(0)
    assert g.gold(0) == 0 and g.score(0) == 0
    assert g.R == 64 and g.monkey(0, 0) == 4
    assert g.die(0, G) == ["R", 2, "THIEF", 4, 5, 6]
    assert g.die(0, W) == ["R", ("ARROW", 3), 3, 4, 5, 6]
    assert g.supply("THIEF") == 14 and g.supply("ARROW") == 14
    assert not g.ended and g.g(L.S_ACTIVE) == 1


def _extra_dice(g, e):
    """Start seat 0's turn and take D01 = ``e``; returns (the D01 options, or None when the
    turn skipped D01 as single-option, and the e paid)."""
    g.start_turn(0)
    g.run(until=(L.D_EXTRA, L.D_DICE))
    point, _, offered = g.pending()
    if point == L.D_DICE:
        return None, g.g(L.S_EXTRA)
    assert point == L.D_EXTRA
    g.game.take(e)
    return offered, g.g(L.S_EXTRA)


def test_rb_t1_extra_dice_cost():
    """RB-T1: e <= min(max_dice_per_turn - 1, gold // cost); the first die is free."""
    for gold, want_max in ((0, 0), (1, 1), (5, 2)):
        g = Game()
        g.set_seat(0, L.F_GOLD, gold)
        # legal e are 0..want_max (no decision when only e = 0); script the largest one
        offered, e = _extra_dice(g, want_max)
        assert offered == (list(range(want_max + 1)) if want_max > 0 else None)
        assert e == want_max and g.gold(0) == gold - want_max
    g = Game(tweaks={"gold_per_extra_die": 0})
    offered, e = _extra_dice(g, 2)
    assert e == 2 and g.gold(0) == 0
    g = Game(tweaks={"max_dice_per_turn": 2})
    g.set_seat(0, L.F_GOLD, 5)
    offered, e = _extra_dice(g, 1)
    assert e == 1
    assert offered == [0, 1] and g.gold(0) == 4


def test_rb_t2_dice_choice():
    """RB-T2: the player chooses which 1 + e dice to roll; the others stay unrolled."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.force(2, 3)                       # black slot 2, grey slot 3
    g.script(1, MB | MG, BL, mv(2, 0), DECLINE, mv(3, 1))   # index 2 = PLUS1: decline
    g.turn(0)
    assert g.g(L.S_ROLLED) == MB | MG
    assert g.monkey(0, 0) == 2 and g.monkey(0, 1) == 3
    assert g.seat(0, L.F_DICE_ROLLED) == 2


def test_rb_t5_free_order_and_double_declaration():
    """RB-T5: Doubles are declared before any die resolves (AMB-09); order is free (AMB-25)."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 2)
    g.set_die(0, W, ["R", "DOUBLE", 3, 4, 5, 6])
    g.set_die(0, BL, ["R", "POINTS_4", 3, 4, 5, 6])
    g.set_die(0, G, ["R", "POINTS_2", 3, 4, 5, 6])
    g.force(2, 2, 2)
    g.script(2, G,                      # e = 2; Double -> grey
             BL, G)                     # resolve black, grey, then white
    g.turn(0)
    assert g.score(0) == 4 + 2 * 2
    codes = g.codes()
    assert codes.index(L.EV_DOUBLE) < codes.index(L.EV_RESOLVE)
    order = [int(e[2]) for e in g.events() if e[0] == L.EV_RESOLVE]
    assert order == [BL, G, W]


def test_rb_t6_number_move_wraps_and_optional():
    """RB-T6: move one own monkey exactly N clockwise, wrapping; declining is allowed (AMB-04)."""
    g = Game()
    g.set_monkey(0, 2, 12)
    g.force(4)
    g.script(MW, mv(4, 2), DECLINE)     # 12 + 4 = 16 -> 2 (PLUS1): decline the +1
    g.turn(0)
    assert g.monkey(0, 2) == 2
    g = Game()
    g.force(4)
    g.script(MW, DECLINE)
    g.turn(0)
    assert [g.monkey(0, m) for m in range(3)] == [0, 0, 0]
    g = Game(tweaks={"move_optional": False})
    n = move_options(g.state, 0, 4, 4, False, g.opts)
    assert list(g.opts[:n]) == [mv(4, 0), mv(4, 1), mv(4, 2)]


def test_rb_t7_landing_install():
    """RB-T7: landing offers the space's face for slot 2..6 of the moving die; the ability is
    not triggered; the removed face returns to its pile, a pip leaves the game."""
    g = Game()
    g.force(4)                          # white PIP_4: 0 -> 4 = FACE(GOLD) on the base board
    g.script(MW, mv(4, 0), 4)           # replace the slot just rolled (allowed)
    g.turn(0)
    assert g.die(0, W) == ["R", 2, 3, "GOLD", 5, 6]
    assert g.gold(0) == 0 and g.supply("GOLD") == 14
    g = Game()
    g.set_die(0, W, ["R", 2, "STAR", 4, 5, 6])
    g.force(4)
    g.script(MW, mv(4, 0), 3)
    g.turn(0)
    assert g.die(0, W) == ["R", 2, "GOLD", 4, 5, 6]
    assert g.supply("STAR") == 16 and g.supply("GOLD") == 14
    g = Game()
    g.set_supply("GOLD", 0)             # empty pile: no offer, no decision
    g.force(4)
    g.script(MW, mv(4, 0))
    g.turn(0)
    assert g.die(0, W) == ["R", 2, 3, 4, 5, 6]


def test_rb_t8_ringmaster_result():
    """RB-T8: R - 1 (mandatory), end check, then an optional 1-space move (AMB-24)."""
    g = Game()
    g.force(1)
    g.script(MW, mv(1, 1))
    g.turn(0)
    assert g.R == 64 and g.monkey(0, 1) == 1
    g = Game()
    g.force(1)
    g.script(MW, DECLINE)
    g.turn(0)
    assert g.R == 64 and g.monkey(0, 1) == 0
    g = Game(tweaks={"ringmaster_face_move": 0, "ringmaster_step": 2})
    g.force(1)
    g.script(MW)                        # no move decision at all
    g.turn(0)
    assert g.R == 63


def test_rb_t9_ability_does_not_move():
    """RB-T9: an ability face applies its effect and moves no monkey."""
    g = Game()
    g.set_die(0, W, ["R", "POINTS_3", 3, 4, 5, 6])
    g.force(2)
    g.script(MW)
    g.turn(0)
    assert g.score(0) == 3 and [g.monkey(0, m) for m in range(3)] == [0, 0, 0]


def test_rb_t11_replacement_only_moving_die():
    """RB-T11: an install changes only the moving die; other dice keep their shown result."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 1)
    g.space(2, "GOLD")
    g.force(2, 4)                       # white slot 2 (PIP_2), black slot 4 (PIP_4)
    g.script(1, MW | MB, W, mv(2, 0), 4,  # white moves 0 -> 2, GOLD into white slot 4
             mv(4, 1), 0)               # black still shows 4: monkey 2 moves 0 -> 4 (GOLD, declined)
    g.turn(0)
    assert g.die(0, W) == ["R", 2, 3, "GOLD", 5, 6]
    assert g.die(0, BL) == ["R", 2, 3, 4, 5, 6]
    assert g.monkey(0, 1) == 4


def test_rb_t12_next_seat():
    """RB-T12: after all rolled dice are resolved the turn passes clockwise."""
    g = Game()
    g.force(3)
    g.script(MW, DECLINE)
    g.turn(3)
    assert g.g(L.S_ACTIVE) == 0 and g.g(L.S_TURN) == 1
    assert g.seat(3, L.F_TURNS) == 1
