"""Scenario tests: Step 4 (FS-U*): finishing, ribbons, tokens, money."""
import numpy as np
import pytest

from sim.games.flower_shop import options as O
from sim.games.flower_shop import tasks as T

from .kernel_helpers import (ARR, K, L, NOLOG, Q, R, VA, apply_step4_action, blank, finish_tile, mask,
                             min_tokens_to_finish, place, rules_for, seat, set_dice, tid)

V = L.DIE_VASE0


def _finish(st, rules, slot, s=0):
    return finish_tile(st, rules, ARR, s, slot, NOLOG)


def test_FS_U1_TS04_finish_T01():
    """FS-U1 / TS-04: T01 (3 lilies, yellow vase) with lily x3, rose + yellow vase: legal with
    0 tokens, 4 dice used, finished, worth 5 at the end; the spare rose may become $1."""
    rules = rules_for(2)
    st = blank(2, rules)
    place(st, 0, 0, "T01")
    set_dice(st, rules, 0, ["lily", "lily", "lily", "rose"], ["yellow"])
    assert min_tokens_to_finish(st, rules, ARR, 0, 0) == 0
    assert _finish(st, rules, 0)
    b = Q.seat_base(0)
    assert st[b + L.F_FIN] == 1 and st[b + L.F_USED] == mask(0, 1, 2, V)
    assert seat(st, 0, L.F_TOKENS) == 0
    assert K.take_money(st, rules, 0, 3, NOLOG) and seat(st, 0, L.F_MONEY) == 6
    assert K.score_seat(st, rules, ARR, 0) >= 5 and st[b + L.F_STARS] == 5


def test_FS_U2_TS06_five_flower_tile_needs_a_token():
    """FS-U2 / TS-06: T28 with rose, rose, sunflower, sunflower + blue vase: 1 token short.
    Tokens 0 and $2: illegal; $3: buy then finish (money 0); tokens 1: finish directly."""
    rules = rules_for(2)
    st = blank(2, rules, money=2)
    place(st, 0, 0, "T28")
    set_dice(st, rules, 0, ["rose", "rose", "sunflower", "sunflower"], ["blue"])
    assert min_tokens_to_finish(st, rules, ARR, 0, 0) == 1
    assert not _finish(st, rules, 0)
    assert not K.buy_token(st, rules, 0, NOLOG)
    st[Q.seat_base(0) + L.F_MONEY] = 3
    assert K.buy_token(st, rules, 0, NOLOG) and seat(st, 0, L.F_MONEY) == 0
    assert _finish(st, rules, 0) and seat(st, 0, L.F_TOKENS) == 0
    st2 = blank(2, rules, money=0)
    place(st2, 0, 0, "T28")
    set_dice(st2, rules, 0, ["rose", "rose", "sunflower", "sunflower"], ["blue"])
    st2[Q.seat_base(0) + L.F_TOKENS] = 1
    assert _finish(st2, rules, 0) and st2[L.S_TOKEN_SUPPLY] == 21  # token back to supply


def test_FS_U2_minimum_token_formula_and_all_tokens():
    """FS-U2 / AMB-25: tokens may fill every icon; the count is the FS-U2 formula; `any`
    die faces fill specific shortages first, then fuchsia icons."""
    rules = rules_for(2)
    st = blank(2, rules)
    place(st, 0, 0, "T31")  # rose, sunflower, tulip, 2 fuchsia, white vase
    set_dice(st, rules, 0, ["iris", "iris", "iris", "iris"], ["yellow"])
    # shortages 1+1+1, fuchsia 2 filled by the 4 surplus irises? only 2 needed -> 0; vase 1
    assert min_tokens_to_finish(st, rules, ARR, 0, 0) == 4
    st[Q.seat_base(0) + L.F_TOKENS] = 4
    assert _finish(st, rules, 0) and seat(st, 0, L.F_TOKENS) == 0
    st3 = blank(2, rules)
    place(st3, 0, 0, "T01")
    set_dice(st3, rules, 0, [], [], lock_all=True)
    st3[Q.seat_base(0) + L.F_USED] = Q.dice_mask(rules)  # no dice left
    st3[Q.seat_base(0) + L.F_TOKENS] = 4
    assert min_tokens_to_finish(st3, rules, ARR, 0, 0) == 4 and _finish(st3, rules, 0)
    # an `any` face fills the specific shortage first
    st4 = blank(2, rules)
    place(st4, 0, 0, "T07")  # rose, lily, fuchsia, yellow vase
    set_dice(st4, rules, 0, ["any", "rose", "iris", "iris"], ["yellow"])
    assert min_tokens_to_finish(st4, rules, ARR, 0, 0) == 0


def test_FS_U3_TS08_fuchsia_any_flower_vase_only_for_vase():
    """FS-U3 / TS-08: T07 with rose, lily, tulip + yellow vase: the tulip fills the fuchsia
    icon. With rose, lily + yellow vase only, the vase die cannot fill it: 1 token."""
    rules = rules_for(2)
    st = blank(2, rules)
    place(st, 0, 0, "T07")
    set_dice(st, rules, 0, ["rose", "lily", "tulip", "iris"], ["yellow"])
    st[Q.seat_base(0) + L.F_USED] = mask(3)  # the iris is already used
    assert min_tokens_to_finish(st, rules, ARR, 0, 0) == 0 and _finish(st, rules, 0)
    st2 = blank(2, rules)
    place(st2, 0, 0, "T07")
    set_dice(st2, rules, 0, ["rose", "lily", "iris", "iris"], ["yellow"])
    st2[Q.seat_base(0) + L.F_USED] = mask(2, 3)
    assert min_tokens_to_finish(st2, rules, ARR, 0, 0) == 1
    # a flower die never fills the vase icon
    st3 = blank(2, rules)
    place(st3, 0, 0, "T13")  # 2 roses, green vase
    set_dice(st3, rules, 0, ["rose", "rose", "rose", "rose"], ["blue"])
    assert min_tokens_to_finish(st3, rules, ARR, 0, 0) == 1


def test_FS_U4_TS07_ribbon_only_when_finishing():
    """FS-U4 / TS-07: $4, T01 finishable, spare rose. A: $1 from the rose -> $5, finish, ribbon
    -> $0. B: finish first (ribbon unaffordable), then $1 -> $5: a ribbon is now illegal.
    Ribbon supply 0: illegal in both; at most 1 ribbon per tile."""
    rules = rules_for(2)
    for supply in (11, 0):
        a = blank(2, rules, money=4)
        a[L.S_RIBBON_SUPPLY] = supply
        place(a, 0, 0, "T01")
        set_dice(a, rules, 0, ["lily", "lily", "lily", "rose"], ["yellow"])
        assert K.take_money(a, rules, 0, 3, NOLOG) and seat(a, 0, L.F_MONEY) == 5
        assert _finish(a, rules, 0)
        assert K.buy_ribbon(a, rules, 0, 0, NOLOG) == (supply > 0)
        if supply:
            assert seat(a, 0, L.F_MONEY) == 0 and a[Q.seat_base(0) + L.F_RIB] == 1
            a[Q.seat_base(0) + L.F_MONEY] = 9
            assert not K.buy_ribbon(a, rules, 0, 0, NOLOG)  # max 1 per tile
    # sequence B, as run by the kernel: the ribbon is only offered right after the finish
    b = blank(2, rules, money=4)
    place(b, 0, 0, "T01")
    set_dice(b, rules, 0, ["lily", "lily", "lily", "rose"], ["yellow"])
    assert _finish(b, rules, 0)
    assert not K.ribbon_legal(b, rules, 0, 0)
    K.take_money(b, rules, 0, 3, NOLOG)
    assert seat(b, 0, L.F_MONEY) == 5
    # the kernel never offers a ribbon outside a finish (DP-4 follows an A_FINISH only)
    ev = __import__("tests.flower_shop.kernel_helpers", fromlist=["x"]).replay_events(2, seed=7)[0]
    for i, e in enumerate(ev):
        if e[0] == L.EV_RIBBON:
            assert ev[i - 1][0] in (L.EV_FINISH, L.EV_RIBBON)


def test_FS_U5_take_token_with_two_dice():
    """FS-U5: 2 dice (any mix of flower and vase) give 1 token, only below the cap."""
    rules = rules_for(2)
    st = blank(2, rules)
    set_dice(st, rules, 0, ["rose", "lily", "iris", "iris"], ["blue"])
    assert not K.take_token(st, rules, 0, mask(0), NOLOG)
    assert K.take_token(st, rules, 0, mask(0, V), NOLOG) and seat(st, 0, L.F_TOKENS) == 1
    assert not K.take_token(st, rules, 0, mask(0, 1), NOLOG)  # die 0 already used
    assert not K.take_token(st, rules, 0, mask(1, L.DIE_INIT), NOLOG)  # initiative never used


def test_FS_U6_take_money_with_one_die():
    """FS-U6: one die (flower or vase) gives $1; a die is used at most once."""
    rules = rules_for(2)
    st = blank(2, rules)
    set_dice(st, rules, 0, ["rose", "lily", "iris", "iris"], ["blue"])
    assert K.take_money(st, rules, 0, V, NOLOG) and seat(st, 0, L.F_MONEY) == 6
    assert not K.take_money(st, rules, 0, V, NOLOG)
    assert not K.take_money(st, rules, 0, L.DIE_INIT, NOLOG)


def test_FS_U7_TS09_token_cap_applies_to_take_and_buy():
    """FS-U7 / TS-09 / AMB-09: tokens 5, two spare dice, $6: take and buy token illegal, take
    money legal (2 x $1). Buying costs $3 below the cap."""
    rules = rules_for(2)
    st = blank(2, rules, money=6)
    set_dice(st, rules, 0, ["rose", "lily", "iris", "iris"], ["blue"])
    st[Q.seat_base(0) + L.F_USED] = mask(0, 1, 2)
    st[Q.seat_base(0) + L.F_TOKENS] = 5
    assert not K.take_token(st, rules, 0, mask(3, V), NOLOG)
    assert not K.buy_token(st, rules, 0, NOLOG)
    assert K.take_money(st, rules, 0, 3, NOLOG) and K.take_money(st, rules, 0, V, NOLOG)
    assert seat(st, 0, L.F_MONEY) == 8
    st[Q.seat_base(0) + L.F_TOKENS] = 4
    assert K.buy_token(st, rules, 0, NOLOG) and seat(st, 0, L.F_MONEY) == 5
    r2 = rules_for(2, wild_cap_applies_to_buy=False)
    st[Q.seat_base(0) + L.F_TOKENS] = 5
    assert K.buy_token(st, r2, 0, NOLOG) and seat(st, 0, L.F_TOKENS) == 6


def test_FS_U8_tokens_money_carry_over_unused_dice_wasted():
    """FS-U8: money and tokens carry over to the next day; unused dice are wasted."""
    rules = rules_for(2)
    st = blank(2, rules)
    set_dice(st, rules, 0, ["rose", "lily", "iris", "iris"], ["blue"])
    st[Q.seat_base(0) + L.F_TOKENS] = 2
    K.take_money(st, rules, 0, 0, NOLOG)
    K.end_step4(st, rules, 0, NOLOG)
    assert seat(st, 0, L.F_DICE_WASTED) == 4
    K.start_day(st, rules, 2, NOLOG)
    assert seat(st, 0, L.F_MONEY) == 6 and seat(st, 0, L.F_TOKENS) == 2


def test_FS_U9_unfinished_tiles_can_be_finished_later():
    """FS-U9: a tile placed on an earlier day stays unfinished and can be finished later."""
    rules = rules_for(2)
    st = blank(2, rules)
    place(st, 0, 3, "T13")
    st[Q.seat_base(0) + L.F_PDAY + 3] = 1
    st[L.S_DAY] = 4
    set_dice(st, rules, 0, ["rose", "rose", "iris", "iris"], ["green"])
    assert _finish(st, rules, 3)
    assert st[Q.seat_base(0) + L.F_FDAY + 3] == 4
    assert not _finish(st, rules, 3)  # already finished


def test_step4_action_encoding():
    """apply_step4_action decodes ``options.encode_step4`` codes; illegal actions change
    nothing."""
    rules = rules_for(2)
    st = blank(2, rules)
    place(st, 0, 0, "T13")
    set_dice(st, rules, 0, ["rose", "rose", "iris", "iris"], ["green"])
    before = st.copy()
    assert apply_step4_action(st, rules, ARR, 0, O.encode_step4(L.A_FINISH, 4), NOLOG) == -1
    assert (st == before).all()
    assert apply_step4_action(st, rules, ARR, 0, O.encode_step4(L.A_FINISH, 0), NOLOG) == 1
    assert apply_step4_action(st, rules, ARR, 0, O.encode_step4(L.A_DONE, 0), NOLOG) == 0
    assert tid("T13") == st[Q.seat_base(0) + L.F_SHOP]


def test_FS_U2_count_form_agrees_with_the_die_by_die_assignment():
    """FS-U2 / FS-U3: the count form the policies use (``tokens_needed`` on packed face
    counts) gives the same tokens and dice used as the die-by-die minimum-token assignment,
    for every default tile and 400 random rolls and dice subsets (fixed seed)."""
    rng = np.random.default_rng(5)
    rules = rules_for(2)
    tiles = ARR[0]
    nf = int(rules[R.R_FLOWER_DICE_PER_PLAYER])
    nv = int(rules[R.R_VASE_DICE_PER_PLAYER])
    st = blank(2, rules)
    b = Q.seat_base(0)
    flower_faces = ARR[3]
    checked = 0
    for _ in range(400):
        for i in range(nf):
            st[b + L.F_FACE + i] = rng.choice(flower_faces)
        for i in range(nv):
            st[b + L.F_FACE + V + i] = rng.integers(0, len(VA))
        m = int(rng.integers(0, 1 << (V + nv))) & Q.dice_mask(rules)
        hist, n_any, n_fl, vases = T.dice_counts(st, b, nf, nv, m)
        for t in range(tiles.shape[0]):
            tok, used = T.tokens_needed(tiles, t, hist, n_any, n_fl, vases)
            tok2, u1, u2 = T.assign_icons(st, tiles, b, nf, nv, t, m, 0)
            assert (tok, used) == (tok2, bin(u1).count("1")), (t, m)
            checked += 1
    assert checked == 400 * tiles.shape[0]


def test_derived_tile_columns_pack_the_specific_icons():
    """The packed icons (TL_NEED8, TL_SPECIFIC, TL_TYPES) match the printed ones; more than 15 icons of
    one flower type are refused."""
    tiles = ARR[0]
    for t in range(tiles.shape[0]):
        assert tiles[t, L.TL_SPECIFIC] == tiles[t, :L.MAX_FLOWER_TYPES].sum()
        for f in range(L.MAX_FLOWER_TYPES):
            assert (tiles[t, L.TL_NEED8] >> (8 * f)) & 0xFF == tiles[t, f]
        types, codes = [], tiles[t, L.TL_TYPES]
        while codes:
            types.append(int(codes & 15) - 1)
            codes >>= 4
        assert types == [f for f in range(L.MAX_FLOWER_TYPES) if tiles[t, f] > 0]
    bad = tiles.copy()
    bad[0, 2] = 16
    with pytest.raises(ValueError, match="more than 15 icons"):
        T.derive_tile_columns(bad)
