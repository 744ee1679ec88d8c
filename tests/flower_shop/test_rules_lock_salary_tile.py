"""Scenario tests: Step 1 lock (FS-L*), Step 2 salary (FS-Y*), Step 3 tile (FS-T*)."""
import pytest

from sim.games.flower_shop import options as O

from .kernel_helpers import (K, L, NOLOG, Q, at_turn, blank, events, faces, mask, replay_events,
                             rules_for, seat, set_row, tid)

F0, F1, F2, F3 = 0, 1, 2, 3
V = L.DIE_VASE0
I = L.DIE_INIT  # noqa: E741 (the initiative die, as the rulebook names it)


def _lock(st, rules, m, s=0):
    return K.apply_lock(st, rules, s, m, NOLOG)


def test_FS_L1_choose_any_subset_of_unlocked_dice():
    """FS-L1: any set of unlocked dice, the initiative die included, may be locked; a locked
    die cannot be chosen again."""
    rules = rules_for(2)
    st = blank(2, rules)
    assert _lock(st, rules, mask(F0, I))
    assert seat(st, 0, L.F_LOCKED) == mask(F0, I)
    assert not _lock(st, rules, mask(F0))  # already locked
    assert Q.lock_legal(st, rules, 0, mask(F1, V)) == 0


def test_FS_L2_one_or_two_locks_are_free():
    """FS-L2: locking 1 or 2 dice costs nothing."""
    rules = rules_for(2)
    st = blank(2, rules)
    assert _lock(st, rules, mask(F0)) and seat(st, 0, L.F_MONEY) == 5
    assert _lock(st, rules, mask(F1, F2)) and seat(st, 0, L.F_MONEY) == 5


@pytest.mark.parametrize("dice,money", [((F0, F1, F2), 4), ((F0, F1), 5), ((), 4),
                                        ((F0, F1, F2, F3, V, I), 1)])
def test_FS_L3_TS02_three_locks_cost_one(dice, money):
    """FS-L3 / TS-02: $5, lock 3 dice -> $4; lock 2 -> $5; lock 0 -> $4; lock 6 -> $1."""
    rules = rules_for(2)
    st = blank(2, rules)
    assert _lock(st, rules, mask(*dice))
    assert seat(st, 0, L.F_MONEY) == money


def test_FS_L4_lock_none_costs_one_and_repeats():
    """FS-L4 / AMB-05: locking no dice costs $1, any number of times, also with 1 die left;
    skip_lock_cost = -1 forbids it."""
    rules = rules_for(2)
    st = blank(2, rules)
    for m in (4, 3, 2):
        assert _lock(st, rules, 0) and seat(st, 0, L.F_MONEY) == m
    st[Q.seat_base(0) + L.F_LOCKED] = Q.all_dice_mask(rules) & ~mask(I)
    assert _lock(st, rules, 0) and seat(st, 0, L.F_MONEY) == 1
    r2 = rules_for(2, skip_lock_cost=-1)
    st2 = blank(2, r2)
    assert not _lock(st2, r2, 0)


def test_FS_L5_TS11_unaffordable_choices_are_illegal():
    """FS-L5 / TS-11: money $0 with 6 unlocked dice: skip illegal, k in {1, 2} legal, 3+
    illegal; money never goes negative; k = 1 is always legal."""
    rules = rules_for(2)
    st = blank(2, rules, money=0)
    assert Q.lock_legal(st, rules, 0, 0) == -1
    assert Q.lock_legal(st, rules, 0, mask(F0)) == 0
    assert Q.lock_legal(st, rules, 0, mask(F0, F1)) == 0
    assert Q.lock_legal(st, rules, 0, mask(F0, F1, F2)) == -1
    assert not _lock(st, rules, mask(F0, F1, F2)) and seat(st, 0, L.F_MONEY) == 0
    assert K.first_legal_lock(st, rules, 0) == mask(F0)


def test_FS_L6_locked_dice_keep_faces_until_next_day():
    """FS-L6: locked dice keep their faces through later rolls; unlocked at the next day."""
    rules = rules_for(2)
    st = blank(2, rules)
    K.apply_roll(st, rules, 0, faces(["tulip"] * 4, ["green"], 11), NOLOG)
    _lock(st, rules, mask(F0, V))
    K.apply_roll(st, rules, 0, faces(["rose"] * 4, ["blue"], 12), NOLOG)
    b = Q.seat_base(0)
    assert st[b + L.F_FACE + F0] == 3 and st[b + L.F_FACE + V] == 2
    assert st[b + L.F_FACE + F1] == 0
    K.start_day(st, rules, 2, NOLOG)
    assert seat(st, 0, L.F_LOCKED) == 0


def test_FS_L7_TS10_initiative_die_must_be_locked():
    """FS-L7 / TS-10: 4 flower dice + vase locked, initiative unlocked -> no Step 2; the next
    roll rerolls only the initiative die; locking it (k = 1, free) completes the dice."""
    rules = rules_for(2)
    st = blank(2, rules)
    K.apply_roll(st, rules, 0, faces(["iris"] * 4, ["white"], 5), NOLOG)
    _lock(st, rules, mask(F0, F1))
    _lock(st, rules, mask(F2, F3))
    _lock(st, rules, mask(V))
    assert not K.all_locked(st, rules, 0)
    K.apply_roll(st, rules, 0, faces(["rose"] * 4, ["blue"], 21), NOLOG)
    b = Q.seat_base(0)
    assert st[b + L.F_FACE + F0] == 4 and st[b + L.F_FACE + I] == 21
    assert _lock(st, rules, mask(I)) and seat(st, 0, L.F_MONEY) == 5
    assert K.all_locked(st, rules, 0)


def test_FS_V_VHARD_1_TS16_escalating_costs():
    """FS-V-VHARD-1 / TS-16: schedule [1,2,3,4]: locking 3/4/5/6 dice costs $1/$3/$6/$10."""
    rules = rules_for(1, "solo_very_hard")
    st = blank(1, rules, money=20)
    for k, cost in ((3, 1), (4, 3), (5, 6), (6, 10)):
        assert Q.lock_cost(st, rules, 0, k) == cost


def test_FS_V_VHARD_2_skip_still_costs_one():
    """FS-V-VHARD-2: in the much harder variant, skipping a lock still costs $1."""
    rules = rules_for(1, "solo_very_hard")
    st = blank(1, rules, money=20)
    assert Q.lock_cost(st, rules, 0, 0) == 1


def test_extra_lock_scope_day_and_min_locks():
    """FS-L3 options: scope `day` counts extras across the day; min_locks = 2 forbids k = 1
    unless only one die is left."""
    rules = rules_for(2, extra_lock_cost_scope="day", extra_lock_cost_schedule=(1, 2, 3, 4))
    st = blank(2, rules, money=20)
    assert _lock(st, rules, mask(F0, F1, F2)) and seat(st, 0, L.F_MONEY) == 19
    assert Q.lock_cost(st, rules, 0, 3) == 2
    r2 = rules_for(2, min_locks=2)
    st2 = blank(2, r2)
    assert Q.lock_cost(st2, r2, 0, 1) == -1 and Q.lock_cost(st2, r2, 0, 2) == 0
    st2[Q.seat_base(0) + L.F_LOCKED] = Q.all_dice_mask(r2) & ~mask(I)
    assert Q.lock_cost(st2, r2, 0, 1) == 0


def test_FS_Y1_TS03_salary_order():
    """FS-Y1 / TS-03: the k-th player to finish locking gets the k-th lowest card:
    3p 1,2,3; 4p 1,2,3,4; 2p 1,3."""
    for n, expect in ((3, [1, 2, 3]), (4, [1, 2, 3, 4]), (2, [1, 3])):
        rules = rules_for(n)
        st = blank(n, rules)
        got = [K.take_salary(st, s, NOLOG) for s in range(n)]
        assert got == expect
        assert [seat(st, s, L.F_MONEY) for s in range(n)] == [5 + v for v in expect]


def test_FS_Y2_empty_salary_area_pays_nothing():
    """FS-Y2: with the salary area empty there is no salary."""
    rules = rules_for(1)
    st = blank(1, rules)
    st[L.S_SAL_N] = 0
    assert K.take_salary(st, 0, NOLOG) == -1 and seat(st, 0, L.F_MONEY) == 5


def test_FS_T1_take_one_tile_from_any_position():
    """FS-T1: one tile from any row position; the row closes up."""
    rules = rules_for(2)
    st = blank(2, rules)
    set_row(st, ["T01", "T02", "T03"])
    assert K.take_tile(st, rules, 0, 1, 4, NOLOG)
    assert st[L.S_ROW_N] == 2 and list(st[L.S_ROW:L.S_ROW + 2]) == [tid("T01"), tid("T03")]
    assert not K.take_tile(st, rules, 0, 5, 0, NOLOG)
    # the kernel makes it mandatory: every player places one tile per day
    ev, _, s = replay_events(3, seed=4)
    assert all(s[:, 10] == 6)


def test_FS_T2_place_in_any_empty_slot_unfinished():
    """FS-T2 / AMB-08: the tile goes unfinished into any empty slot; occupied slots are
    illegal."""
    rules = rules_for(2)
    st = blank(2, rules)
    set_row(st, ["T01", "T02", "T03"])
    assert K.take_tile(st, rules, 0, 0, 5, NOLOG)
    b = Q.seat_base(0)
    assert st[b + L.F_SHOP + 5] == tid("T01") and st[b + L.F_FIN + 5] == 0
    assert not K.take_tile(st, rules, 0, 0, 5, NOLOG)
    assert not K.take_tile(st, rules, 0, 0, 6, NOLOG)  # no slot 6 in a 2x3 shop


def test_FS_T3_placement_is_permanent():
    """FS-T3: a placed tile never moves (no kernel function moves shop tiles)."""
    ev, _, _ = replay_events(2, seed=3)
    where = {}
    for e in ev:
        if e[0] == L.EV_TAKE_TILE:
            key = (e[1], e[4])
            assert key not in where
            where[key] = e[3]
        if e[0] == L.EV_FINISH:
            assert where[(e[1], e[2])] == e[3]


def test_FS_T4_empty_row_skips_step3():
    """FS-T4: if the row is empty Step 3 is skipped (only possible in solo)."""
    rules = rules_for(1)
    st = blank(1, rules)
    st[L.S_ROW_N] = 0
    st[Q.seat_base(0) + L.F_LOCKED] = Q.all_dice_mask(rules)
    game = at_turn(st, rules, 0, L.PH_TILE)
    assert game.advance()  # Step 3 skipped: the first decision is a Step-4 action
    assert game.steps.pending(st)[0] == L.D_STEP4
    assert [e[0] for e in events(game.log)] == [L.EV_NO_TILE]
    game.take(int(O.encode_step4(L.A_DONE, 0)))
    assert seat(st, 0, L.F_TILES_PLACED) == 0 and seat(st, 0, L.F_ACTIVE) == 0
