"""Scenario tests: the solo game flow (FS-SOLO-*) and the solo variants (FS-V-*)."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.rng import make_stream, randint

from .kernel_helpers import (ARR, FEAS_WORK, SOLO_ARR, K, L, NOLOG, Q, R, arm, blank, cid, place,
                             replay_events, rules_for, seat, set_row, set_stack, tid)

ROOT = Path(__file__).resolve().parents[2]

ALL_TILES = [f"T{i:02d}" for i in range(1, 33)]


def _solo_setup(variant=None, idx=0, **tweaks):
    rules = rules_for(1, variant, **tweaks)
    st = K.new_state(1)
    K.start_streams(st, 1, idx)
    K.setup_game(st, rules, ARR, 1, NOLOG)
    K.start_day(st, rules, 1, NOLOG)
    return st, rules


def _sal(st):
    return list(st[L.S_SAL:L.S_SAL + st[L.S_SAL_N]])


def _row(st):
    return list(st[L.S_ROW:L.S_ROW + st[L.S_ROW_N]])


def _p(st, face):
    st[Q.seat_base(0) + L.F_FACE + L.DIE_INIT] = face


# ---- setup ------------------------------------------------------------------------------
def test_FS_SOLO_S1_S2_dice_roles():
    """FS-SOLO-S1 / FS-SOLO-S2: the player's die is I-D (lowest face 4); the opponent die is
    I-A (lowest face 1)."""
    st, _ = _solo_setup()
    assert seat(st, 0, L.F_INIT_DIE) == 3 and st[L.S_OPP_DIE] == 0
    assert ARR[5][3].min() == 4 and ARR[5][0].min() == 1


def test_FS_SOLO_S3_row_of_four():
    """FS-SOLO-S3: 4 tiles in the solo row."""
    st, _ = _solo_setup()
    assert st[L.S_ROW_N] == 4


def test_FS_SOLO_S4_one_task_card():
    """FS-SOLO-S4: one random task card in the base solo game."""
    st, _ = _solo_setup()
    assert st[L.S_N_CARDS] == 1 and 0 <= st[L.S_CARDS] < 6


def test_FS_SOLO_S5_supply():
    """FS-SOLO-S5: the supply as in FS-S6; the player starts with $5."""
    st, _ = _solo_setup()
    assert st[L.S_RIBBON_SUPPLY] == 11 and st[L.S_TOKEN_SUPPLY] == 20 and seat(st, 0, L.F_MONEY) == 5


def test_FS_SOLO_S6_N3_salary_3_2_1_1():
    """FS-SOLO-S6 / FS-SOLO-N3: solo salary area $3, $2, $1, $1 (reset every day)."""
    st, rules = _solo_setup()
    assert _sal(st) == [1, 1, 2, 3]
    st[L.S_SAL_N] = 0
    K.reset_salary(st, rules, 1)
    assert _sal(st) == [1, 1, 2, 3]


# ---- opponent roll ------------------------------------------------------------------------
def test_FS_SOLO_R1_opponent_rolls_after_player_before_step1():
    """FS-SOLO-R1 / AMB-15: every Phase 1, after the player's roll and before Step 1, the
    opponent die is rolled and compared with the player's current initiative face."""
    ev, _, _ = replay_events(1, seed=3, policy="greedy")
    n = 0
    for i, e in enumerate(ev):
        if e[0] == L.EV_ROLL:
            nxt = ev[i + 1]
            assert nxt[0] == L.EV_OPP_ROLL and nxt[2] == e[4]  # p = current initiative face
            assert nxt[1] in ARR[5][0]
            n += 1
    assert n >= 6


def test_FS_SOLO_R2_R3_R6_TS12_opponent_sequence():
    """FS-SOLO-R2 / FS-SOLO-R3 / FS-SOLO-R6 / TS-12: salary {3,2,1,1}, row [a,b,c,d], p = 13 locked.
    o = 9 (lower, odd): lowest card out, leftmost tile out. o = 16 (higher): highest card out.
    o = 8 (lower, even): lowest card out, rightmost tile out. Then the salary is $2 and the
    player picks b or c. Row [x] and o lower: lowest card out, x stays."""
    rules = rules_for(1)
    st = blank(1, rules)
    set_row(st, ["T01", "T02", "T03", "T04"])
    _p(st, 13)
    K.resolve_opponent_roll(st, rules, 9, NOLOG)
    assert _sal(st) == [1, 2, 3] and _row(st) == [tid("T02"), tid("T03"), tid("T04")]
    K.resolve_opponent_roll(st, rules, 16, NOLOG)
    assert _sal(st) == [1, 2] and _row(st) == [tid("T02"), tid("T03"), tid("T04")]
    K.resolve_opponent_roll(st, rules, 8, NOLOG)
    assert _sal(st) == [2] and _row(st) == [tid("T02"), tid("T03")]
    assert K.take_salary(st, 0, NOLOG) == 2
    assert K.take_tile(st, rules, 0, 1, 0, NOLOG) and st[Q.seat_base(0) + L.F_SHOP] == tid("T03")
    st2 = blank(1, rules)
    set_row(st2, ["T05"])
    _p(st2, 13)
    K.resolve_opponent_roll(st2, rules, 9, NOLOG)
    assert _sal(st2) == [1, 2, 3] and _row(st2) == [tid("T05")]


def test_FS_SOLO_R4_ties_no_effect_or_configured():
    """FS-SOLO-R4 / AMB-16: o = p has no effect by default; `as_lower` / `as_higher` apply
    the lower / higher effects."""
    for rule, sal, row_n in (("none", [1, 1, 2, 3], 4), ("as_lower", [1, 2, 3], 3),
                             ("as_higher", [1, 1, 2], 4)):
        rules = rules_for(1, solo_tie_rule=rule)
        st = blank(1, rules)
        set_row(st, ["T01", "T02", "T03", "T04"])
        _p(st, 13)
        K.resolve_opponent_roll(st, rules, 13, NOLOG)
        assert _sal(st) == sal and st[L.S_ROW_N] == row_n


def test_FS_SOLO_R5_empty_salary_area():
    """FS-SOLO-R5: with the salary area empty the money part does nothing (tile still goes)."""
    rules = rules_for(1)
    st = blank(1, rules)
    st[L.S_SAL_N] = 0
    set_row(st, ["T01", "T02"])
    _p(st, 13)
    K.resolve_opponent_roll(st, rules, 9, NOLOG)
    assert st[L.S_SAL_N] == 0 and _row(st) == [tid("T02")]


def test_FS_SOLO_R7_TS21_outcome_probabilities():
    """FS-SOLO-R7 / TS-21: both dice fresh: P(lower, odd) = 1/3, P(lower, even) = 1/6,
    P(higher) = 1/2, no ties. 60,000 rolls, fixed seed, tolerance 0.015 (> 5 sd)."""
    init = ARR[5]
    rng = make_stream(2024, 0, 1)
    n = 60000
    lo_odd = lo_even = hi = tie = 0
    p_faces = init[3]
    o_faces = init[0]
    for _ in range(n):
        p = p_faces[randint(rng, 6)]
        o = o_faces[randint(rng, 6)]
        if o < p:
            if o % 2:
                lo_odd += 1
            else:
                lo_even += 1
        elif o > p:
            hi += 1
        else:
            tie += 1
    assert tie == 0
    assert abs(lo_odd / n - 1 / 3) < 0.015
    assert abs(lo_even / n - 1 / 6) < 0.015
    assert abs(hi / n - 1 / 2) < 0.015


# ---- feasibility check (solo.py) through the kernel ----------------------------------------
def _check_state(day, top, cards=("T1",), finished=True, **tweaks):
    rules = rules_for(1, **tweaks)
    st = blank(1, rules)
    st[L.S_DAY] = day
    st[L.S_N_CARDS] = len(cards)
    for i, c in enumerate(cards):
        st[L.S_CARDS + i] = cid(c)
    for slot, t in top:
        place(st, 0, slot, t, finished=finished)
    used = {t for _, t in top}
    set_stack(st, [t for t in ALL_TILES if t not in used])
    return st, rules


@pytest.mark.parametrize("mode,ok", [("off", True), ("complete_lines", False), ("lines", False),
                                     ("full", False)])
def test_FS_SOLO_C1_TS13_loss_on_complete_line(mode, ok):
    """FS-SOLO-C1 / FS-SOLO-C4 / TS-13: task T1, end of day 3, top row T28, T29, T01
    (13 flowers): immediate loss recorded on day 3 in every mode except `off`."""
    st, rules = _check_state(3, [(0, "T28"), (1, "T29"), (2, "T01")],
                             solo_feasibility_mode=mode)
    assert K.solo_end_of_day_check(st, rules, SOLO_ARR, FEAS_WORK, NOLOG) == ok
    if not ok:
        assert st[L.S_LOSS_DAY] == 3 and st[L.S_END_REASON] == L.END_SOLO_INFEASIBLE


@pytest.mark.parametrize("mode,ok", [("complete_lines", True), ("lines", False), ("full", False)])
def test_FS_SOLO_C4_TS14_partial_line(mode, ok):
    """FS-SOLO-C4 / TS-14: task T1, end of day 2, top row T28, T29 + an empty slot: the best
    total is 12 != 10: loss in `lines` and `full`, pass in `complete_lines`."""
    st, rules = _check_state(2, [(0, "T28"), (1, "T29")], solo_feasibility_mode=mode)
    assert K.solo_end_of_day_check(st, rules, SOLO_ARR, FEAS_WORK, NOLOG) == ok


def test_FS_SOLO_C5_TS15_capacity_loss():
    """FS-SOLO-C5 / TS-15: end of day 5, T28, T29, T30 unfinished, 2 finished, 1 empty slot,
    tokens 2, $4: need 21 > cap 9: loss whatever the line check says (mode off)."""
    st, rules = _check_state(5, [(0, "T28"), (1, "T29"), (2, "T30")], finished=False,
                             solo_feasibility_mode="off")
    place(st, 0, 3, "T01", finished=True)
    place(st, 0, 4, "T02", finished=True)
    st[Q.seat_base(0) + L.F_TOKENS] = 2
    st[Q.seat_base(0) + L.F_MONEY] = 4
    used = {"T28", "T29", "T30", "T01", "T02"}
    set_stack(st, [t for t in ALL_TILES if t not in used])
    assert not K.solo_end_of_day_check(st, rules, SOLO_ARR, FEAS_WORK, NOLOG)
    r_off = rules_for(1, solo_feasibility_mode="off", solo_check_capacity=False)
    assert K.solo_end_of_day_check(st, r_off, SOLO_ARR, FEAS_WORK, NOLOG)


def test_FS_SOLO_C2_C3_pool_is_the_stack_and_structure():
    """FS-SOLO-C2 / FS-SOLO-C3: the pool is the draw stack only; |P| < |E| fails."""
    st, rules = _check_state(4, [(0, "T01"), (1, "T02"), (2, "T19"), (3, "T04")],
                             solo_feasibility_mode="off", solo_check_capacity=False)
    assert K.solo_end_of_day_check(st, rules, SOLO_ARR, FEAS_WORK, NOLOG)
    set_stack(st, ["T05"])  # 2 empty slots, 1 tile left in the stack
    set_row(st, ["T06", "T07", "T08"])  # row tiles are not in the pool
    assert not K.solo_end_of_day_check(st, rules, SOLO_ARR, FEAS_WORK, NOLOG)


_GATE = """
import numpy as np
from sim.games.flower_shop import kernel as K, rules as R, solo
from tests.flower_shop.kernel_helpers import ARR, FEAS_WORK, NOLOG, rules_for
st = K.new_state(1)
rules = rules_for(1)
K.setup_game(st, rules, ARR, 1, NOLOG)
multi = R.kernel_components(ARR, (2, 3, 4))
try:
    K.solo_end_of_day_check(st, rules, multi, FEAS_WORK, NOLOG)
    print("multi ran")
except ValueError as e:
    print("multi raised", len(solo.feasible_in.signatures))
print("solo", K.solo_end_of_day_check(st, rules, R.kernel_components(ARR, (1, 2)), FEAS_WORK,
                                      NOLOG), len(solo.feasible_in.signatures))
"""


@pytest.mark.slow
def test_FS_SOLO_C1_solver_is_compiled_only_into_kernels_that_may_play_solo_games(tmp_path):
    """The components of kernels for multiplayer games only (``kernel_components``) have
    another type than those of kernels that may play a solo game, and the end-of-day check
    (FS-SOLO-C1) compiled for them holds no feasibility solver: a solo game there is an error,
    not a silent pass. A run of 1-4 players compiles one kernel, with the solver."""
    assert len(R.kernel_components(ARR, (2, 4))) == len(ARR)
    assert len(R.kernel_components(ARR, (1,))) == len(R.kernel_components(ARR, (1, 4))) \
        == len(ARR) + 1
    r = subprocess.run([sys.executable, "-c", _GATE], cwd=ROOT, capture_output=True, text=True,
                       timeout=600, env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)))
    assert r.returncode == 0, r.stderr[-3000:]
    st = K.new_state(1)
    rules = rules_for(1)
    K.setup_game(st, rules, ARR, 1, NOLOG)
    ok = K.solo_end_of_day_check(st, rules, SOLO_ARR, FEAS_WORK, NOLOG)
    assert r.stdout.split() == ["multi", "raised", "0", "solo", str(ok), "1"]


def test_FS_SOLO_C6_any_versus_all():
    """FS-SOLO-C6: with cards {T2, T6} (columns need the same and different vases), rule `all`
    fails after day 1 while `any` still passes."""
    st, r_all = _check_state(1, [(0, "T01")], cards=("T2", "T6"))
    assert not K.solo_end_of_day_check(st, r_all, SOLO_ARR, FEAS_WORK, NOLOG)
    st2, r_any = _check_state(1, [(0, "T01")], cards=("T2", "T6"), solo_win_rule="any")
    assert K.solo_end_of_day_check(st2, r_any, SOLO_ARR, FEAS_WORK, NOLOG)


def test_FS_N2_solo_check_runs_before_refill_and_ends_the_game():
    """FS-N2 / FS-SOLO-C1 / AMB-19: in solo the check runs at the end of days 1-5 (not 6)
    before the refill; a failure ends the game with the loss day."""
    from sim import batch
    g, s = batch.run_games(arm(1, "random"), 5, 0, 200)
    lost = g[:, 4] == 1
    assert lost.any()
    assert (g[lost, 7] <= 5).all() and (g[lost, 0] == g[lost, 7]).all()
    assert (s[lost, 0, 2] == 0).all()
    ev, g1, _ = replay_events(1, seed=5, index=int(np.argmax(lost)), policy="random")
    checks = [e for e in ev if e[0] == L.EV_FEASIBLE]
    assert checks[-1][2] == 0 and all(c[2] == 1 for c in checks[:-1])
    assert [c[1] for c in checks] == list(range(1, len(checks) + 1))


# ---- new day ------------------------------------------------------------------------------
def test_FS_SOLO_N1_discard_and_deal_four():
    """FS-SOLO-N1: the row is discarded and 4 new tiles are dealt (or as many as remain)."""
    rules = rules_for(1)
    st = blank(1, rules)
    set_stack(st, ["T01", "T02", "T03", "T04", "T05", "T06"])
    set_row(st, ["T10", "T11"])
    K.solo_new_day_row(st, rules, NOLOG)
    assert _row(st) == [tid(t) for t in ("T01", "T02", "T03", "T04")]
    assert st[L.S_DISCARD_N] == 2 and st[L.S_DAY] == 2
    K.solo_new_day_row(st, rules, NOLOG)
    assert _row(st) == [tid("T05"), tid("T06")]


def test_FS_SOLO_N2_refresh_rules():
    """FS-SOLO-N2 / AMB-20: pay $3 to discard the row and deal a new one; once per day; only
    if the stack is not empty and money suffices."""
    rules = rules_for(1)
    st = blank(1, rules)
    set_stack(st, ["T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08", "T09"])
    K.solo_new_day_row(st, rules, NOLOG)
    assert K.solo_refresh_legal(st, rules)
    assert K.solo_refresh(st, rules, NOLOG)
    assert seat(st, 0, L.F_MONEY) == 2 and _row(st) == [tid(t) for t in ("T05", "T06", "T07", "T08")]
    assert not K.solo_refresh_legal(st, rules)  # once per day
    st[L.S_REFRESHES_TODAY] = 0
    assert not K.solo_refresh_legal(st, rules)  # $2 < $3
    st[Q.seat_base(0) + L.F_MONEY] = 9
    st[L.S_STACK_POS] = st[L.S_STACK_N]
    assert not K.solo_refresh_legal(st, rules)  # stack empty


def test_FS_SOLO_N2_refresh_is_asked_of_the_policy():
    """FS-SOLO-N2 / DP-7: random refreshes sometimes; every refresh costs $3."""
    from sim import batch
    g, s = batch.run_games(arm(1, "random", solo_feasibility_mode="off"), 1, 0, 300)
    assert g[:, 10].sum() > 0


def test_FS_SOLO_N4_no_reshuffle_partial_rows():
    """FS-SOLO-N4 / AMB-21: the stack is never reshuffled: rows are dealt partially; with
    reshuffle_discards_when_empty the discards come back."""
    rules = rules_for(1)
    st = blank(1, rules)
    set_stack(st, ["T01"])
    set_row(st, ["T10", "T11"])
    K.solo_new_day_row(st, rules, NOLOG)
    assert _row(st) == [tid("T01")]
    K.solo_new_day_row(st, rules, NOLOG)
    assert _row(st) == []
    r2 = rules_for(1, reshuffle_discards_when_empty=True)
    st2 = blank(1, r2)
    set_stack(st2, ["T01"])
    set_row(st2, ["T10", "T11"])
    K.solo_new_day_row(st2, r2, NOLOG)
    K.solo_new_day_row(st2, r2, NOLOG)
    assert sorted(_row(st2)) == sorted(tid(t) for t in ("T10", "T11", "T01"))


# ---- game end ------------------------------------------------------------------------------
def _ts19(cards=("T2",), unfinished=None, **tweaks):
    rules = rules_for(1, **tweaks)
    st = blank(1, rules)
    st[L.S_N_CARDS] = len(cards)
    for i, c in enumerate(cards):
        st[L.S_CARDS + i] = cid(c)
    for slot, t in enumerate(("T01", "T02", "T03", "T07", "T08", "T09")):
        place(st, 0, slot, t, finished=(t != unfinished))
    return st, rules


def test_FS_SOLO_E1_TS19_win_and_loss():
    """FS-SOLO-E1 / TS-19: task T2, top T01, T02, T03, bottom T07, T08, T09, all finished: WIN.
    With T09 unfinished it is removed: LOSS."""
    st, rules = _ts19()
    assert K.final_scoring(st, rules, ARR, 1, NOLOG)
    st, rules = _ts19(unfinished="T09")
    assert not K.final_scoring(st, rules, ARR, 1, NOLOG)
    assert st[Q.seat_base(0) + L.F_SHOP + 5] == -1


def test_FS_V_EASY_2_TS19_any_versus_all():
    """FS-V-EASY-2 / FS-V-HELL-3 / TS-19: cards {T1, T2}: the shop wins via T2 under `any`
    (T1 fails: the top row has 9 flowers) and loses under `all`."""
    st, rules = _ts19(("T1", "T2"), solo_win_rule="any")
    assert K.final_scoring(st, rules, ARR, 1, NOLOG)
    st, rules = _ts19(("T1", "T2"), solo_win_rule="all")
    assert not K.final_scoring(st, rules, ARR, 1, NOLOG)


def test_FS_V_HELL_3_both_cards_required():
    """FS-V-HELL-3: in the hell preset the win rule is `all`: both cards must be satisfied."""
    rules = rules_for(1, "solo_hell")
    st, _ = _ts19(("T1", "T2"))
    assert not K.solo_won(st, rules, ARR)
    st, _ = _ts19(("T2", "T2"))
    assert K.solo_won(st, rules, ARR)


def test_FS_SOLO_E2_records_score_and_loss_day():
    """FS-SOLO-E2: the score is recorded for solo games too; loss_day = 7 when the game
    reaches its end (won or lost), else the day of the loss."""
    from sim import batch
    g, s = batch.run_games(arm(1, "greedy"), 1, 0, 200)
    done = g[:, 4] == 0
    assert (g[done, 7] == 7).all() and (g[~done, 7] < 6).all()
    assert (s[:, 0, 0] == s[:, 0, 3] + s[:, 0, 4] + s[:, 0, 5]).all()
    assert (g[:, 2] == s[:, 0, 2]).all() and set(np.unique(g[:, 3])) <= {-1, 0}


# ---- variants ------------------------------------------------------------------------------
def test_FS_V_EASY_1_two_cards():
    """FS-V-EASY-1: the easier variant sets up 2 random task cards."""
    st, _ = _solo_setup("solo_easy")
    assert st[L.S_N_CARDS] == 2 and st[L.S_CARDS] != st[L.S_CARDS + 1]


def test_FS_V_HARD_1_row_of_five():
    """FS-V-HARD-1: the row holds 5 tiles at setup and after every refill."""
    st, rules = _solo_setup("solo_hard")
    assert st[L.S_ROW_N] == 5
    K.solo_new_day_row(st, rules, NOLOG)
    assert st[L.S_ROW_N] == 5


def test_FS_V_HARD_2_TS17_discard_on_every_roll():
    """FS-V-HARD-2 / TS-17: row of 5, p = 13, o = 24 (higher, even): the highest salary card
    is removed and the rightmost tile discarded."""
    rules = rules_for(1, "solo_hard")
    st = blank(1, rules)
    set_row(st, ["T01", "T02", "T03", "T04", "T05"])
    _p(st, 13)
    K.resolve_opponent_roll(st, rules, 24, NOLOG)
    assert _sal(st) == [1, 1, 2] and _row(st) == [tid(t) for t in ("T01", "T02", "T03", "T04")]


def test_FS_V_HARD_3_salary_and_keep_last_unchanged():
    """FS-V-HARD-3 / AMB-17 / AMB-23: salary removal is as in the base game and the last row
    tile is kept, also under solo_always_discard."""
    rules = rules_for(1, "solo_hard")
    st = blank(1, rules)
    set_row(st, ["T01"])
    _p(st, 13)
    K.resolve_opponent_roll(st, rules, 17, NOLOG)  # higher, odd
    assert _sal(st) == [1, 1, 2] and _row(st) == [tid("T01")]
    K.resolve_opponent_roll(st, rules, 9, NOLOG)  # lower
    assert _sal(st) == [1, 2] and _row(st) == [tid("T01")]


def test_FS_V_HELL_1_two_cards():
    """FS-V-HELL-1: the hell variant sets up 2 task cards."""
    st, _ = _solo_setup("solo_hell")
    assert st[L.S_N_CARDS] == 2


def test_FS_V_HELL_2_TS18_redraw_conflicting_card():
    """FS-V-HELL-2 / TS-18: draws T2 then T6 (conflict) -> T6 discarded, the next card is
    drawn; the final pair is never a conflicting pair."""
    conflicts = ARR[2]
    assert conflicts[cid("T2"), cid("T6")] == 1
    st = K.new_state(1)
    perm = np.array([cid(c) for c in ("T2", "T6", "T3", "T1", "T4", "T5")], dtype=np.int64)
    K.choose_task_cards(st, 2, True, conflicts, perm)
    assert st[L.S_CARDS] == cid("T2") and st[L.S_CARDS + 1] == cid("T3")
    K.choose_task_cards(st, 2, False, conflicts, perm)
    assert st[L.S_CARDS + 1] == cid("T6")
    bad = {frozenset((cid(a), cid(b))) for a, b in (("T1", "T3"), ("T1", "T5"), ("T2", "T6"),
                                                    ("T5", "T6"))}
    for idx in range(60):
        s2, _ = _solo_setup("solo_hell", idx=idx)
        assert frozenset((int(s2[L.S_CARDS]), int(s2[L.S_CARDS + 1]))) not in bad
