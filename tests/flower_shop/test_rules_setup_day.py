"""Scenario tests: setup (FS-S*), day loop (FS-D*) and end of day (FS-N*) of the Flower Shop."""
import numpy as np
import pytest

from sim.spec import SpecError

from .kernel_helpers import (ARR, COMP, K, L, NOLOG, Q, blank, draw_faces, faces, replay_events,
                             rules_for, seat, set_row, set_stack, tid)


def _setup(n, seed=1, idx=0, **tweaks):
    rules = rules_for(n, **tweaks)
    st = K.new_state(n)
    K.start_streams(st, seed, idx)
    K.setup_game(st, rules, ARR, n, NOLOG)
    K.start_day(st, rules, n, NOLOG)
    return st, rules


def test_FS_S1_seats_and_seat_tie_resolution():
    """FS-S1: seats 0..n-1; the seat index is only used to resolve ties (FS-D5)."""
    st, rules = _setup(3)
    assert st[L.S_N_PLAYERS] == 3
    for s in range(3):
        st[Q.seat_base(s) + L.F_FACE + L.DIE_INIT] = 10
    k = K.turn_order(st, rules, 3)
    assert list(st[L.S_ORDER:L.S_ORDER + k]) == [0, 1, 2] and st[L.S_ORDER_N] == 3


def test_FS_S2_starting_resources():
    """FS-S2: each player has an empty shop, $5, 0 tokens, 0 ribbons."""
    st, rules = _setup(4)
    for s in range(4):
        assert seat(st, s, L.F_MONEY) == 5
        assert seat(st, s, L.F_TOKENS) == 0 and seat(st, s, L.F_RIBBONS) == 0
        b = Q.seat_base(s)
        assert all(st[b + L.F_SHOP + i] == -1 for i in range(6))


def test_FS_S2_seat_bonus_money():
    """FS-S2 with the tweak hook seat_bonus_money: seat k (the seat column) starts with
    starting_money plus its bonus, the last value repeating for the seats after it; tokens and
    ribbons as without it. Solo refuses a non-zero bonus, naming the parameter."""
    st, _ = _setup(4, seat_bonus_money=(0, 1, 3))
    assert [seat(st, s, L.F_MONEY) for s in range(4)] == [5, 6, 8, 8]
    assert all(seat(st, s, L.F_TOKENS) == 0 and seat(st, s, L.F_RIBBONS) == 0 for s in range(4))
    st, _ = _setup(3, starting_money=2, seat_bonus_money=(4, 0, 20, 0))
    assert [seat(st, s, L.F_MONEY) for s in range(3)] == [6, 2, 22]
    st, _ = _setup(2)
    assert [seat(st, s, L.F_MONEY) for s in range(2)] == [5, 5]
    with pytest.raises(SpecError, match="seat_bonus_money.*solo"):
        rules_for(1, seat_bonus_money=(2,))
    rules_for(1, seat_bonus_money=(0, 0))
    with pytest.raises(SpecError, match="seat_bonus_money"):
        rules_for(2, seat_bonus_money=(0, 21))


def test_FS_S3_initiative_dice_dealt_at_random():
    """FS-S3: 4 players get the 4 different dice; the deal varies by seed (random) or is
    seat i -> die i (fixed)."""
    deals = set()
    for idx in range(30):
        st, _ = _setup(4, idx=idx)
        dice = tuple(seat(st, s, L.F_INIT_DIE) for s in range(4))
        assert sorted(dice) == [0, 1, 2, 3]
        deals.add(dice)
    assert len(deals) > 5
    st, _ = _setup(4, initiative_assignment="fixed")
    assert [seat(st, s, L.F_INIT_DIE) for s in range(4)] == [0, 1, 2, 3]


def test_FS_S4_stack_and_row_of_n_plus_one():
    """FS-S4: the 32 tiles are shuffled into a public stack; n + 1 are dealt left to right."""
    for n in (2, 3, 4):
        st, _ = _setup(n)
        stack = st[L.S_STACK:L.S_STACK + 32]
        assert sorted(stack) == list(range(32))
        assert st[L.S_ROW_N] == n + 1
        assert list(st[L.S_ROW:L.S_ROW + n + 1]) == list(stack[:n + 1])
        assert st[L.S_STACK_POS] == n + 1


def test_FS_S5_one_random_task_card():
    """FS-S5: one task card at random (n_task_cards = 2 draws two distinct cards)."""
    cards = set()
    for idx in range(40):
        st, _ = _setup(2, idx=idx)
        assert st[L.S_N_CARDS] == 1
        cards.add(int(st[L.S_CARDS]))
    assert cards == set(range(6))
    st, _ = _setup(2, n_task_cards=2)
    assert st[L.S_N_CARDS] == 2 and st[L.S_CARDS] != st[L.S_CARDS + 1]


def test_FS_S6_supply():
    """FS-S6: 11 ribbons and 20 wild tokens in the supply."""
    st, _ = _setup(3)
    assert st[L.S_RIBBON_SUPPLY] == 11 and st[L.S_TOKEN_SUPPLY] == 20


def test_FS_S7_salary_area_by_player_count():
    """FS-S7: salary cards $4,3,2,1 (4p), $3,2,1 (3p), $3,1 (2p), stored ascending."""
    for n, cards in ((4, [1, 2, 3, 4]), (3, [1, 2, 3]), (2, [1, 3])):
        st, _ = _setup(n)
        assert list(st[L.S_SAL:L.S_SAL + st[L.S_SAL_N]]) == cards


def test_FS_S8_day_one_all_unlocked():
    """FS-S8: setup ends on day 1; the day starts with every die unlocked."""
    st, rules = _setup(2)
    assert st[L.S_DAY] == 1
    K.start_day(st, rules, 2, NOLOG)
    assert seat(st, 0, L.F_LOCKED) == 0 and seat(st, 1, L.F_LOCKED) == 0


def test_FS_D1_game_lasts_days():
    """FS-D1: a game lasts `days` days (6; a tweak to 3 gives 3)."""
    _, g, _ = replay_events(2)
    assert g[0] == 6
    _, g, _ = replay_events(2, days=3)
    assert g[0] == 3


def test_FS_D2_start_of_day_unlocks_and_activates():
    """FS-D2: at the start of a day all dice are unlocked and every player is active."""
    rules = rules_for(2)
    st = blank(2, rules)
    for s in range(2):
        st[Q.seat_base(s) + L.F_LOCKED] = Q.all_dice_mask(rules)
        st[Q.seat_base(s) + L.F_ACTIVE] = 0
    K.start_day(st, rules, 2, NOLOG)
    assert all(seat(st, s, L.F_LOCKED) == 0 and seat(st, s, L.F_ACTIVE) == 1 for s in range(2))


def test_FS_D3_only_unlocked_dice_are_rerolled():
    """FS-D3: Phase 1 rolls the unlocked dice only; locked dice keep their faces (FS-L6)."""
    rules = rules_for(2)
    st = blank(2, rules)
    K.apply_roll(st, rules, 0, faces(["rose"] * 4, ["blue"], 20), NOLOG)
    st[Q.seat_base(0) + L.F_LOCKED] = 0b11  # flower dice 1 and 2
    K.apply_roll(st, rules, 0, faces(["lily"] * 4, ["pink"], 3), NOLOG)
    b = Q.seat_base(0)
    assert list(st[b + L.F_FACE:b + L.F_FACE + 4]) == [0, 0, 1, 1]
    assert st[b + L.F_FACE + L.DIE_VASE0] == 3 and st[b + L.F_FACE + L.DIE_INIT] == 3
    # the kernel draws faces only for unlocked dice (dice stream not consumed by locked dice)
    f = np.full(L.MAX_DICE, -7, dtype=np.int64)
    K.start_streams(st, 1, 0)
    draw_faces(st, rules, ARR, 0, f)
    assert f[0] == -7 and f[1] == -7 and f[2] != -7


def test_FS_D4_TS01_turn_order_21_7_1():
    """FS-D4 / TS-01: faces Becca 21, Seth 7, Anthony 1 -> order Becca, Seth, Anthony; the
    three faces are on different dice (I-D, I-B, I-A)."""
    rules = rules_for(3)
    st = blank(3, rules)
    for s, face in ((0, 1), (1, 21), (2, 7)):  # Anthony seat 0, Becca seat 1, Seth seat 2
        st[Q.seat_base(s) + L.F_FACE + L.DIE_INIT] = face
    k = K.turn_order(st, rules, 3)
    assert list(st[L.S_ORDER:L.S_ORDER + k]) == [1, 2, 0]
    init = ARR[5]
    assert 21 in init[3] and 7 in init[1] and 1 in init[0]


def test_FS_D5_ties_lower_seat_first_or_random():
    """FS-D5: equal faces (custom data) -> lower seat first; `random` shuffles ties."""
    rules = rules_for(4)
    st = blank(4, rules)
    for s in range(4):
        st[Q.seat_base(s) + L.F_FACE + L.DIE_INIT] = 5 if s != 2 else 9
    order = st[L.S_ORDER:L.S_ORDER + 4]
    K.turn_order(st, rules, 4)
    assert list(order) == [2, 0, 1, 3]
    rr = rules_for(4, initiative_tie_break="random")
    seen = set()
    for i in range(30):
        K.start_streams(st, 1, i)  # the ties are shuffled with the dice stream
        K.turn_order(st, rr, 4)
        assert order[0] == 2
        seen.add(tuple(order))
    assert len(seen) > 1


def test_FS_D6_steps_2_to_4_right_after_the_last_lock():
    """FS-D6: a player whose dice are all locked after Step 1 does Steps 2-4 before the next
    player's Step 1, then becomes inactive."""
    ev, _, _ = replay_events(3, seed=5)
    rules = rules_for(3)
    full = Q.all_dice_mask(rules)
    n_checked = 0
    for i, e in enumerate(ev):
        if e[0] == L.EV_LOCK and e[6] == full:
            assert ev[i + 1][0] == L.EV_SALARY and ev[i + 1][1] == e[1]
            j = i + 1
            while ev[j][0] != L.EV_STEP4_DONE:
                assert ev[j][0] not in (L.EV_LOCK, L.EV_ROLL)
                j += 1
            assert ev[j][1] == e[1]
            n_checked += 1
    assert n_checked == 18


def test_FS_D7_cycles_until_nobody_is_active():
    """FS-D7: Phase 1/2 repeat while anyone is active; only active players roll."""
    ev, _, _ = replay_events(2, seed=2)
    done_today = set()
    for e in ev:
        if e[0] == L.EV_DAY:
            done_today = set()
        if e[0] == L.EV_ROLL:
            assert e[1] not in done_today
        if e[0] == L.EV_STEP4_DONE:
            done_today.add(e[1])
    assert sum(1 for e in ev if e[0] == L.EV_STEP4_DONE) == 12


def test_FS_D8_termination_guard():
    """FS-D8: games terminate; lock steps per day <= 6 + money; the guard flags truncation."""
    from sim import batch
    from .kernel_helpers import arm
    for pol in ("random", "greedy"):
        g, s = batch.run_games(arm(4, pol), 3, 0, 100)
        assert g[:, 1].sum() == 0
        # lock steps per game bounded by days * (6 + max money) (loose bound)
        assert (s[:, :, 15] <= 6 * (6 + 40)).all()
    assert L.MAX_CYCLES_PER_DAY >= 6 + 40


def test_FS_N1_day_ends_when_all_did_step4():
    """FS-N1: every player completes Step 4 exactly once per day."""
    ev, _, _ = replay_events(4, seed=9)
    per_day = []
    for e in ev:
        if e[0] == L.EV_DAY:
            per_day.append(0)
        if e[0] == L.EV_STEP4_DONE:
            per_day[-1] += 1
    assert per_day == [4] * 6


def test_FS_N3_N4_discard_and_refill_row():
    """FS-N3 / FS-N4: tiles left in the row are discarded (leave the game); the row is refilled
    to n + 1 from the stack, left to right."""
    rules = rules_for(2)
    st = blank(2, rules)
    set_stack(st, ["T01", "T02", "T03", "T04", "T05", "T06", "T07"])
    st[L.S_STACK_POS] = 3
    set_row(st, ["T09"])
    K.end_of_day_multiplayer(st, rules, 2, NOLOG)
    assert st[L.S_DISCARD_N] == 1 and st[L.S_DISCARD] == tid("T09")
    assert list(st[L.S_ROW:L.S_ROW + 3]) == [tid("T04"), tid("T05"), tid("T06")]
    assert st[L.S_ROW_N] == 3


def test_FS_N5_N6_salary_reset_and_next_day():
    """FS-N5 / FS-N6: the salary area is reset; day += 1 and dice unlock."""
    rules = rules_for(3)
    st = blank(3, rules)
    set_stack(st, ["T01", "T02", "T03", "T04", "T05"])
    K.take_salary(st, 0, NOLOG)
    K.take_salary(st, 1, NOLOG)
    K.end_of_day_multiplayer(st, rules, 3, NOLOG)
    assert list(st[L.S_SAL:L.S_SAL + st[L.S_SAL_N]]) == [1, 2, 3]
    assert st[L.S_DAY] == 2
    st[Q.seat_base(0) + L.F_LOCKED] = 5
    K.start_day(st, rules, 3, NOLOG)
    assert seat(st, 0, L.F_LOCKED) == 0


def test_components_used_by_setup_are_default():
    """Setup uses the shipped data (32 tiles, 6 cards)."""
    assert ARR[0].shape[0] == 32 and ARR[1].shape[0] == 6 and COMP.assumed
