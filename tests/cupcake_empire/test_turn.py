"""The turn (CE-T1 .. CE-T9): levels (T4), level 0 (T18), used dice, S2 income and goals
(T11), the S3 roll (its chance points) with overflow (T8) and ideas (T3, T15)."""
import numpy as np
import pytest

from sim.games.cupcake_empire import kernel as K
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire import options as O
from sim.games.cupcake_empire.board import l_avail
from sim.trace import events
from tests.positions import position

from .helpers import CHOC, FL, PLAIN, C, Game, act, ctype, free, house

T4 = [  # column, dice, L_avail (spec §12 T4)
    (1, ("grey", "grey"), 0),
    (1, ("grey", "grey", "grey"), 1),
    (1, ("purple",), 1),
    (1, ("purple", "pink", "grey", "grey"), 3),
    (2, ("yellow",) + ("grey",) * 5, 3),
    (3, ("green", "purple"), 0),
    (5, ("pink", "grey"), 1),
    (5, ("pink", "pink", "grey", "grey"), 4),
]


@pytest.mark.parametrize("column,dice,level", T4)
def test_t4_level_table_ce_t1(column, dice, level):
    """T4: L_avail = min(M, thresholds reached + experts), from the column data."""
    g = Game(2)
    g.clear()
    g.put(0, column, *dice)
    assert l_avail(g.state, g.comp[0], g.b(0), column - 1) == level


def test_ce_t1_level_frozen_at_activation():
    """CE-T1: a pink die hired at column 5 level 1 joins column 5 but L_avail stays 1."""
    g = Game(2)
    g.clear()
    g.put(0, 5, "pink")
    g.force(1, 1)
    g.start_turn(0)
    g.script(act(5, 1), 5)
    assert g.run() == 2
    assert g.g(L.S_L_AVAIL) == 1
    hires = [e for e in g.events() if e[0] == L.EV_HIRE]
    assert [(int(e[2]), int(e[3])) for e in hires] == [(5, 5)]       # pink into column 5


def test_t18_level0_ce_t1_1():
    """T18: no column has a level, no payment is possible: column 1 at level 0 does nothing,
    S2 still pays min(P, S), S3 rolls its two dice. Without level-0 activation nothing is
    activated and nothing rolls (CE-AMB-13)."""
    for allow in (True, False):
        g = Game(2, {"allow_level0_activation": allow})
        g.clear()
        g.put(0, 1, "grey", "grey")
        g.put(0, 3, "grey")
        g.put(0, "rest", "grey", "grey", "grey")
        g.set_seat(0, L.F_INCOME, 0)
        g.set_seat(0, L.F_PRODUCTION, 2)
        g.set_seat(0, L.F_SALES, 1)
        if allow:
            g.force(2, 3)
            g.start_turn(0)
            g.script(act(1, 0))
            assert g.run(until=()) == 2
            assert g.dice(0, 1) == {} and g.dice(0, 2) == {"grey": 1} and g.dice(0, 3) == {"grey": 2}
        else:
            assert g.turn(0) == 2
            assert g.dice(0, 1) == {"grey": 2} and g.g(L.S_COL) == -1
        assert g.seat(0, L.F_INCOME) == 1 and g.dice(0, "rest") == {"grey": 3}


def test_ce_t1_2_used_dice_only():
    """CE-T1.2: only the dice in the column at activation roll: a die moved in afterwards (SP4
    in W2) stays; a used die moved out still rolls."""
    g = Game(2)
    g.clear()
    g.put(0, 1, "purple")
    g.put(0, 2, "grey")
    g.set_seat(0, L.F_INCOME, 10)
    g.force(3)
    g.start_turn(0)
    g.script(act(1, 1), 0, free(L.FA_SPECIAL), L.SP_MOVEN, O.encode_move_die(1, 0), 0, L.STOP)
    assert g.run() == 2
    assert g.dice(0, 1) == {"grey": 1} and g.dice(0, 3) == {"purple": 1}
    g = Game(2)
    g.clear()
    g.put(0, 1, "purple")
    g.put(0, 2, "grey")
    g.set_seat(0, L.F_INCOME, 10)
    g.force(4)
    g.start_turn(0)
    g.script(act(1, 1), 0, free(L.FA_SPECIAL), L.SP_MOVEN, O.encode_move_die(0, 1), 4, L.STOP)
    assert g.run() == 2
    assert g.dice(0, 5) == {} and g.dice(0, 4) == {"purple": 1}


def test_t11_income_and_goal_ce_t5_t6():
    """T11: B1 revealed; a value-2 sale (sales 5 -> 7, income 40 -> 42), S2 + min(7, 7) = 49,
    B1 claimed: 55. The goal is never claimed twice."""
    g = Game(2)
    g.clear()
    g.goal("B1")
    g.put(0, 4, "green")
    g.building("shop", "YEL1", 0, 0)
    g.state[L.S_HOUSE + house("YEL1", 2)] = ctype(CHOC, "mint")
    g.serve(0, CHOC, FL["mint"])
    g.set_seat(0, L.F_CUST + ctype(CHOC, "lemon"), 4)
    g.set_seat(0, L.F_CUST_VAL, 4)
    g.set_seat(0, L.F_PRODUCTION, 7)
    g.set_seat(0, L.F_SALES, 5)
    g.set_seat(0, L.F_INCOME, 40)
    g.force(4)
    g.start_turn(0)
    g.script(act(4, 1))
    assert g.run() == 2
    incomes = [int(e[3]) for e in g.events() if e[0] == L.EV_INCOME and e[1] == 0]
    assert incomes[-2:] == [49, 55]
    assert g.seat(0, L.F_SALES) == 7 and g.seat(0, L.F_INCOME) == 55
    assert g.seat(0, L.F_GOALS) == 1 << 1 and g.g(L.S_GOALS_CLAIMED) == 1
    g.force(4)
    g.start_turn(0)
    g.script(act(4, 1))
    assert g.run() == 2
    assert g.seat(0, L.F_INCOME) == 62 and g.g(L.S_GOALS_CLAIMED) == 1


def test_ce_t6_goal_stays_claimed():
    """CE-T6: a C goal claimed stays claimed when its condition fails later (a displaced
    shop), and another player may claim the same goal."""
    g = Game(2)
    g.clear()
    g.goal("C2")                                                    # shops in >= 4 regions
    for region in ("YEL1", "YEL2", "BEI1", "BEI2"):
        g.building("shop", region, 0, 0)
    assert g.turn(0, act(1, 0)) == 2
    assert g.seat(0, L.F_GOALS) == 1 << 2
    g.building("shop", "BEI2", 0, L.SLOT_EMPTY)
    for region in ("YEL1", "YEL2", "BEI1", "BEI2"):
        g.building("shop", region, 1, 1)
    assert g.turn(1, act(1, 0)) == 2
    assert g.seat(0, L.F_GOALS) == 1 << 2 and g.seat(1, L.F_GOALS) == 1 << 2
    assert g.g(L.S_GOALS_CLAIMED) == 2


def test_t8_overflow_to_rest_ce_t7_1():
    """T8: column 2 holds 5 dice; column 4 [grey x3, green] rolls 2, 2, 2, 5: one die joins
    column 2, two go to rest, green to column 5. With two colours the player chooses."""
    g = Game(2)
    g.clear()
    g.put(0, 2, *("grey",) * 5)
    g.put(0, 4, "grey", "grey", "grey", "green")
    g.force(2, 2, 2, 5)
    assert g.turn(0, act(4, 2)) == 2
    assert g.dice(0, 2) == {"grey": 6} and g.dice(0, "rest") == {"grey": 2}
    assert g.dice(0, 5) == {"green": 1} and g.dice(0, 4) == {}
    assert g.seat(0, L.F_IDEAS) == 0
    g = Game(2)
    g.clear()
    g.put(0, 2, *("grey",) * 5)
    g.put(0, 4, "grey", "grey", "grey", "green")
    g.force(2, 2, 5, 2)                                              # greys 2, 2, 5; green 2
    g.start_turn(0)
    g.script(act(4, 2))
    assert g.run(until=(L.D_OVERFLOW,)) == 1
    assert g.options() == [0, 4]
    g.script(4)                                                      # green to rest, then grey
    assert g.run() == 2
    assert g.dice(0, 2) == {"grey": 6} and g.dice(0, "rest") == {"grey": 1, "green": 1}
    assert g.dice(0, 5) == {"grey": 1}


def test_t3_two_sixes_and_ideas_ce_t7_3():
    """T3: P (1 idea, pos 2) rolls 1, 3, 4, 6, 6: two dice to rest, P gains an idea for the
    first 6 and one more stepping 2 -> 0; Q (pos 1) steps twice to 0 and gains one; R (3 ideas,
    pos 0) steps to 2 and gains none; the idea supply 8 -> 5."""
    g = Game(3)
    g.clear()
    g.put(0, 1, *("grey",) * 5)
    for s, (ideas, pos) in enumerate(((1, 2), (0, 1), (3, 0))):
        g.set_seat(s, L.F_IDEAS, ideas)
        g.set_seat(s, L.F_IDEA_POS, pos)
    g.set(L.S_SUP_IDEAS, 8)
    g.force(1, 3, 4, 6, 6)
    assert g.turn(0, act(1, 0)) == 2
    assert g.dice(0, 1) == {"grey": 1} and g.dice(0, 3) == {"grey": 1}
    assert g.dice(0, 4) == {"grey": 1} and g.dice(0, "rest") == {"grey": 2}
    assert [(g.seat(s, L.F_IDEAS), g.seat(s, L.F_IDEA_POS)) for s in range(3)] == [(3, 0), (1, 0), (3, 2)]
    assert g.g(L.S_SUP_IDEAS) == 5


def test_t15_idea_cap_ce_t7_4():
    """T15: P at the cap gains nothing for the first 6 and steps 1 -> 2; Q steps 2 -> 0 (+1
    idea) -> 1."""
    g = Game(2)
    g.clear()
    g.put(0, 1, "grey", "grey")
    g.set_seat(0, L.F_IDEAS, 3)
    g.set_seat(0, L.F_IDEA_POS, 1)
    g.set_seat(1, L.F_IDEAS, 1)
    g.set_seat(1, L.F_IDEA_POS, 2)
    g.force(6, 6)
    assert g.turn(0, act(1, 0)) == 2
    assert (g.seat(0, L.F_IDEAS), g.seat(0, L.F_IDEA_POS)) == (3, 2)
    assert (g.seat(1, L.F_IDEAS), g.seat(1, L.F_IDEA_POS)) == (2, 1)


def test_ce_t9_rest_dice_stay():
    """CE-T9: rest dice never roll and never come back by themselves."""
    g = Game(2)
    g.clear()
    g.put(0, "rest", "pink", "green")
    g.put(0, 1, "grey")
    g.set_seat(0, L.F_INCOME, 0)
    g.force(2)
    assert g.turn(0, act(1, 0)) == 2
    assert g.dice(0, "rest") == {"green": 1, "pink": 1}
    assert len([e for e in g.events() if e[0] == L.EV_ROLL]) == 1


def test_ce_t5_s2_income_is_the_lower_capped_track():
    """CE-T5: S2 adds min(production, sales) on the capped tracks: a menu lifts production 19
    only to its maximum 20, so S2 adds 20 with sales 20; with production 9 and sales 4 it adds
    4."""
    g = Game(2)
    g.clear()
    g.set_seat(0, L.F_STOCK_BASE + PLAIN, 1)
    g.set_seat(0, L.F_STOCK_FROST + FL["lemon"], 1)
    g.set_seat(0, L.F_INCOME, 10)
    g.set_seat(0, L.F_PRODUCTION, 19)
    g.set_seat(0, L.F_SALES, 20)
    s2 = g.seat(0, L.F_S2_INCOME)
    assert g.turn(0, free(L.FA_MENU), act(1, 0)) == 2
    assert g.seat(0, L.F_PRODUCTION) == 20
    assert g.seat(0, L.F_INCOME) == 30 and g.seat(0, L.F_S2_INCOME) == s2 + 20
    s2_events = [e for e in g.events() if e[0] == L.EV_INCOME and e[4] == L.IN_S2]
    assert [(int(e[2]), int(e[3])) for e in s2_events[-1:]] == [(20, 30)]
    g.set_seat(0, L.F_PRODUCTION, 9)
    g.set_seat(0, L.F_SALES, 4)
    assert g.turn(0, act(1, 0)) == 2
    assert g.seat(0, L.F_INCOME) == 34


def test_ce_t7_s3_rolls_used_and_hired_dice_wherever_they_are():
    """CE-T7: S3 rolls the used dice and the die hired this turn, even when the hire went to
    the rest area (its column was full); a die already resting does not roll."""
    g = Game(2)
    g.clear()
    g.put(0, 5, "pink")                                              # level 1: hire
    g.put(0, 3, *(["grey"] * 6))                                     # orange's column is full
    g.put(0, "rest", "grey")
    supply = g.g(L.S_SUP_DICE + 3)
    g.force(1, 2)                                                    # orange, then pink
    g.start_turn(0)
    g.script(act(5, 1), 3)
    assert g.run() == 2
    hires = [e for e in g.events() if e[0] == L.EV_HIRE]
    assert [(int(e[2]), int(e[3])) for e in hires] == [(3, L.LOC_REST + 1)]
    rolls = [e for e in g.events() if e[0] == L.EV_ROLL]
    assert [(int(e[2]), int(e[3]), int(e[4])) for e in rolls] == [(3, 1, L.LOC_REST + 1), (5, 2, 5)]
    assert g.dice(0, 1) == {"orange": 1} and g.dice(0, 2) == {"pink": 1} and g.dice(0, 5) == {}
    assert g.dice(0, "rest") == {"grey": 1} and g.dice(0, 3) == {"grey": 6}
    assert g.g(L.S_SUP_DICE + 3) == supply - 1


def _s3_next(seat=1):
    """Seat ``seat`` activates column 1 (grey, grey, purple) at level 0 and closes W2: its S3
    (three dice to roll, grey first) is next, no decision pending."""
    g = Game(2)
    g.clear()
    g.put(seat, 1, "grey", "grey", "purple")
    g.set_seat(seat, L.F_INCOME, 10)                                 # W2 offers SP3
    g.start_turn(seat)
    g.script(act(1, 0))
    assert g.run(until=(L.D_FREE,)) == 1 and g.g(L.S_WINDOW) == 2
    g.game.take(L.FA_DONE)
    assert g.g(L.S_PHASE) == L.PH_S2 and g.g(L.S_POINT) == 0
    return g


def _rolls(log):
    return [(int(e[2]), int(e[3]), int(e[4])) for e in events(log) if e[0] == L.EV_ROLL]


def test_ce_t7_chance_points_post_each_die_and_roll_the_faces_answered():
    """CE-T7 with chance points: the step machine stops at each die about to roll (D_ROLL,
    decided by the rolling seat, the faces 1..6 as options in face order), the die still in
    its place; the face answered is the face rolled, and the roll goes on to the next die."""
    g = _s3_next(seat=1)
    for k, face in enumerate((6, 2, 1)):
        assert K.advance_turn(g.state, g.rules, g.comp, g.game.log, True) == 1
        point, seat, codes = g.pending()
        assert (point, seat, codes) == (L.D_ROLL, 1, [1, 2, 3, 4, 5, 6])
        assert [O.option_text(point, c) for c in codes][3] == "face 4"
        assert sum(g.dice(1, 1).values()) == 3 - k                    # not yet left its place
        assert len(_rolls(g.game.log)) == k
        g.game.take(face)
    assert _rolls(g.game.log) == [(C["grey"], 6, 1), (C["grey"], 2, 1), (C["purple"], 1, 1)]
    assert g.run() == 2                                              # no die left to roll
    assert g.dice(1, 1) == {"purple": 1} and g.dice(1, 2) == {"grey": 1}
    assert g.dice(1, "rest") == {"grey": 1} and g.seat(1, L.F_IDEAS) == 1   # CE-T7.2, CE-T7.3


def test_ce_t7_without_chance_points_rolls_as_advance_and_chance_answers_match():
    """CE-T7: without chance points ``advance_turn`` rolls S3 from the dice stream exactly as
    ``advance`` (same state and events at the next decision); with them, answering the faces
    the stream rolled gives the same events and state, the dice stream aside (not drawn)."""
    g = _s3_next()

    def play(chance):
        state, log = g.state.copy(), g.game.log.copy()
        answered = []
        while True:
            if chance is None:
                assert K.advance(state, g.rules, g.comp, log) == 1
            else:
                assert K.advance_turn(state, g.rules, g.comp, log, chance is not False) == 1
            if state[L.S_POINT] != L.D_ROLL:
                return state, log, answered
            face = chance[len(answered)]
            answered.append(face)
            codes = [int(x) for x in state[L.S_OPTIONS:L.S_OPTIONS + state[L.S_N_OPTIONS]]]
            assert K.apply_option(state, g.rules, g.comp, np.int64(codes.index(face)), log)

    a, log_a, _ = play(None)
    b, log_b, none = play(False)
    assert a[L.S_POINT] == L.D_FREE and a[L.S_WINDOW] == 3 and none == []
    assert (a == b).all() and (events(log_a) == events(log_b)).all()   # the very same array
    faces = [f for _, f, _ in _rolls(log_a)]
    c, log_c, answered = play(faces)
    assert answered == faces and len(faces) == 3
    assert (events(log_c) == events(log_a)).all()
    assert c[L.S_RNG_D] == g.state[L.S_RNG_D] != a[L.S_RNG_D]
    c[L.S_RNG_D] = a[L.S_RNG_D]
    assert (position(c, L) == position(a, L)).all()


def test_option_codes_round_trip():
    """The one declaration of the packed options (``options.py``): decode(encode(x)) == x for
    every field combination the game can list, and every code reads as text."""
    pairs = [(O.encode_init_menu, O.decode_init_menu, (2, 4)),
             (O.encode_menu, O.decode_menu, (L.N_BASE, L.N_FROST)),
             (O.encode_rest, O.decode_rest, (2, L.N_COLS)),
             (O.encode_special_disc, O.decode_special_disc, (L.N_DISC_TYPES, L.N_COLS)),
             (O.encode_move_die, O.decode_move_die, (L.N_COLS, L.N_COLOURS)),
             (O.encode_activate, O.decode_activate, (L.N_COLS, L.MAX_LEVEL + 1)),
             (O.encode_house, O.decode_house, (L.N_REGIONS, 4)),
             (O.encode_disc_gain, O.decode_disc_gain, (L.N_DISC_TYPES, L.N_COLS))]
    for encode, decode, (na, nb) in pairs:
        codes = {int(encode(a, b)) for a in range(na) for b in range(nb)}
        assert len(codes) == na * nb
        for a in range(na):
            for b in range(nb):
                assert tuple(decode(encode(a, b))) == (a, b)
    assert O.encode_special_disc(L.N_DISC_TYPES - 1, L.N_COLS - 1) < L.SP_MOVE1
    for p in range(L.MAX_SPACES):
        assert O.decode_s1_disc(O.encode_s1_disc(p)) == p
    for src in list(range(L.N_REGIONS)) + [L.SRC_RESERVE]:
        for r in range(L.N_REGIONS):
            for victim in range(L.MAX_PLAYERS + 1):
                assert tuple(O.decode_shop(O.encode_shop(src, r, victim))) == (src, r, victim)
    for r in range(L.N_REGIONS):
        assert tuple(O.decode_l4(O.encode_l4(0, r, 0))) == (0, r, 0)
    for k in range(L.N_COLS):
        for lv in range(1, L.MAX_LEVEL + 1):
            assert tuple(O.decode_l4(O.encode_l4(1, k, lv))) == (1, k, lv)
    assert (O.option_text(L.D_ACTIVATE, O.encode_activate(2, 3))
            == "activate column 3 at level 3")
