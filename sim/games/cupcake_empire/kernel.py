"""Cupcake Empire (Al Leduc & Yves Tourigny, Ludonova 2018) simulation kernel.

Rule source: ``shared/rules/cupcake_empire.md``; rule IDs CE-S*, CE-T*, CE-F*, SP1-SP4, CE-A*,
CE-X*, CE-E* are cited in each function's docstring. Parameters: ``rules.PARAMS`` (spec §9,
``playtest rules cupcake_empire``); component data: ``components/`` (spec §2).

Seats: seat 0 is the start player (CE-S11); play is clockwise = increasing seat.

State: one flat int64 array declared field by field in ``layout.py`` (``playtest layout
cupcake_empire``), as are the decision points and their option encodings. The game is a
resumable step machine (``sim.decide``): ``S_PHASE`` and the turn context fields say where play
goes on, so ``advance`` / ``apply_option`` / ``choose`` / ``finish`` (and ``new_game``) stop and
resume at any decision and a copy of the state plays on like the original. ``play_many`` is the
loop ``while advance: apply_option(choose)``.

The turn (§4.1): W1 free actions (``PH_FREE``), S1 activation (``PH_ACTIVATE``), the main action
and the discs in the player's order (``PH_S1``; each resolves through the task queue
``PH_TASK``), W2, S2 income and goals, S3 roll, placement and ideas, W3, end check.
"""
import numpy as np
from numba import njit

from sim.borrow import borrowed, no_refcount_module, no_wraparound_module, whole_program
from sim.decide import random_index
from sim.rng import (SUB_DICE, SUB_POLICY, SUB_SETUP, draw, make_stream, randint, shuffle, start_in,
                     substream_in)
from sim.trace import emit

from . import layout as L
from . import options as O
from . import rules as R
from .board import (column_of_colour, customers, dice_at, free_space, goal_met,
                    has_building, l_avail, menu_mask, room, seat_base, serves_house,
                    shops_on_board)
from .policies import greedy

no_refcount_module(__name__, exclude=("_begin", "new_game", "play_one", "play_many"))
no_wraparound_module(__name__)
# a run's and a replay's calls are private to them (sim.borrow)
whole_program(__name__, "play_many")
whole_program(__name__, "play_one")

BLOCK_GAMES = 32   # games per block of play_many (one state array reused)


# ==== small helpers =========================================================================
@njit(cache=True)
def state_size(n_players):
    """Length of the state array for ``n_players`` seats."""
    return L.SEAT0 + n_players * L.SEAT_LEN


@njit(cache=True)
def add_track(state, rules, b, field, amount):
    """Add ``amount`` to production or sales, within 0..max (§2.3: gains above the maximum are
    lost, levels never go below 0)."""
    top = int(rules[R.R_PRODUCTION_MAX]) if field == L.F_PRODUCTION else int(rules[R.R_SALES_MAX])
    state[b + field] = max(0, min(top, state[b + field] + amount))


@njit(cache=True)
def gain_income(state, seat, amount, source, log):
    """Income += amount (no cap, CE-AMB: the track loops)."""
    b = seat_base(seat)
    state[b + L.F_INCOME] += amount
    if log.shape[0] > 1:
        emit(log, L.EV_INCOME, seat, amount, state[b + L.F_INCOME], source)


@njit(cache=True)
def pay_income(state, seat, amount, what, log):
    """CE-F4: pay ``amount`` income (the caller checked income >= amount)."""
    b = seat_base(seat)
    state[b + L.F_INCOME] -= amount
    state[b + L.F_INCOME_PAID] += amount
    if log.shape[0] > 1:
        emit(log, L.EV_PAY, seat, amount, state[b + L.F_INCOME], what)


@njit(cache=True)
def gain_idea(state, rules, seat):
    """One idea disc if held < idea_cap and the supply has one (CE-T7.3, CE-T7.4, SP3)."""
    b = seat_base(seat)
    if state[b + L.F_IDEAS] < int(rules[R.R_IDEA_CAP]) and state[L.S_SUP_IDEAS] > 0:
        state[b + L.F_IDEAS] += 1
        state[L.S_SUP_IDEAS] -= 1
        state[b + L.F_IDEAS_GAINED] += 1
        return 1
    return 0


@njit(cache=True)
def idea_steps(state, rules, seat, steps, log):
    """CE-T7.4: move the idea marker ``steps`` times; each arrival on the green box (0) gains
    an idea if held < cap and the supply has one (else nothing; the step still happens)."""
    b = seat_base(seat)
    gained = 0
    for _ in range(steps):
        state[b + L.F_IDEA_POS] = (state[b + L.F_IDEA_POS] + 1) % int(rules[R.R_IDEA_TRACK_LEN])
        if state[b + L.F_IDEA_POS] == 0:
            gained += gain_idea(state, rules, seat)
    if log.shape[0] > 1 and steps > 0:
        emit(log, L.EV_IDEA, seat, steps, state[b + L.F_IDEA_POS], state[b + L.F_IDEAS], gained)


@njit(cache=True)
def move_die(state, b, src, dst, c):
    """Move one die of colour ``c`` from location ``src`` to ``dst``. A die not due to roll
    moves first; a die due to roll in S3 keeps that mark (CE-T1.2, CE-T7: used and gained dice
    roll wherever they are)."""
    i = b + L.F_DICE + src * L.N_COLOURS + c
    r = b + L.F_ROLL + src * L.N_COLOURS + c
    state[i] -= 1
    state[b + L.F_DICE + dst * L.N_COLOURS + c] += 1
    if state[r] > state[i]:
        state[r] -= 1
        state[b + L.F_ROLL + dst * L.N_COLOURS + c] += 1


@njit(cache=True)
def place_disc(state, comp, seat, t, k, source, log):
    """Take a disc of type ``t`` from the supply to the first empty space of column ``k``
    (CE-X3; the caller checked CE-X4 and the supply). Returns the space."""
    b = seat_base(seat)
    p = free_space(state, comp[0], b, k, t)
    state[b + L.F_DISC + k * L.MAX_SPACES + p] = t
    state[L.S_SUP_DISCS + t] -= 1
    if log.shape[0] > 1:
        emit(log, L.EV_DISC, seat, t, k + 1, p + 1, source)
    return p


@njit(cache=True)
def _post(state, seat, dp, n):
    """Post decision ``dp`` of ``seat`` with ``n`` listed options; returns 1."""
    state[L.S_POINT] = dp
    state[L.S_DECIDER] = seat
    state[L.S_N_OPTIONS] = n
    return 1


@njit(cache=True)
def _opt(state, n, code):
    """Append option ``code``; returns the new count."""
    state[L.S_OPTIONS + n] = code
    return n + 1


@njit(cache=True)
def _opt_if(state, n, code, ok):
    """Append option ``code`` if ``ok``, without a branch (the slot after the last option may
    be written); returns the new count."""
    state[L.S_OPTIONS + n] = code
    return n + ok


# ==== setup (CE-S1 .. CE-S11) =================================================================
@njit(cache=True)
def setup_board(state, comp, n, rng):
    """CE-S1 customers shuffled onto the houses; CE-S9 shop slots blocked by player count; empty
    bakery slots."""
    regions = comp[1]
    per = comp[4][L.MI_PER_TYPE]
    for i in range(L.N_HOUSES):
        state[L.S_HOUSE + i] = (i // per) % L.N_CUST
    shuffle(rng, state[L.S_HOUSE:L.S_HOUSE + L.N_HOUSES])
    for r in range(L.N_REGIONS):
        for i in range(L.MAX_SLOTS):
            state[L.S_BAKERY + r * L.MAX_SLOTS + i] = L.SLOT_EMPTY if i < regions[r, L.RD_BAKERY_SLOTS] else L.SLOT_NONE
            if i >= regions[r, L.RD_N_SHOP_SLOTS]:
                state[L.S_SHOP + r * L.MAX_SLOTS + i] = L.SLOT_NONE
            elif regions[r, L.RD_SHOP_MIN + i] > n:
                state[L.S_SHOP + r * L.MAX_SLOTS + i] = L.SLOT_BLOCKED
            else:
                state[L.S_SHOP + r * L.MAX_SLOTS + i] = L.SLOT_EMPTY


@njit(cache=True)
def setup_supply(state, comp, n):
    """CE-S2: the supply for N players (supply.csv); grey dice are never in it."""
    row = comp[2][n - 2]
    for f in range(2):
        state[L.S_SUP_BASE + f] = row[L.SU_SIMPLE_BASE]
    state[L.S_SUP_BASE + 2] = row[L.SU_MIXED_BASE]
    for f in range(L.N_FROST):
        state[L.S_SUP_FROST + f] = (row[L.SU_SIMPLE_FROST] if f < L.FR_SIMPLE
                                    else row[L.SU_MIXED_FROST])
    for t in range(L.N_DISC_TYPES):
        state[L.S_SUP_DISCS + t] = row[L.SU_DISCS]
    state[L.S_SUP_IDEAS] = row[L.SU_IDEAS]
    for c in range(L.N_COLOURS):
        state[L.S_SUP_DICE + c] = 0 if c == L.GREY else (row[L.SU_PINK] if c == L.PINK
                                                         else row[L.SU_DICE])


@njit(cache=True)
def setup_goals(state, rules, rng):
    """CE-S3: one goal of each of the first ``goal_stacks`` stacks A, B, C, D at random."""
    stacks = int(rules[R.R_GOAL_STACKS])
    for g in range(L.N_STACKS):
        state[L.S_GOAL + g] = g * 5 + randint(rng, 5) if g < stacks else -1


@njit(cache=True)
def setup_players(state, rules, comp, n, rng, log):
    """CE-S4 .. CE-S8: tracks, reserves, start bakery in the grey region, coloured dice on their
    columns, grey dice rolled (6s rerolled) and placed by face (rest area if full). Seat k's
    income starts at ``start_income`` plus its ``seat_bonus_income`` (CE-S5)."""
    cols, regions = comp[0], comp[1]
    grey = 0
    for r in range(L.N_REGIONS):
        if regions[r, L.RD_KIND] == L.KIND_GREY and regions[r, L.RD_BAKERY_SLOTS] >= n:
            grey = r
            break
    for seat in range(n):
        b = seat_base(seat)
        state[b + L.F_INCOME] = int(rules[R.R_START_INCOME]) + int(rules[R.R_SEAT_BONUS_INCOME + 1 + seat])
        state[b + L.F_PRODUCTION] = int(rules[R.R_START_PRODUCTION])
        state[b + L.F_SALES] = int(rules[R.R_START_SALES])
        state[b + L.F_IDEA_POS] = int(rules[R.R_START_IDEA_POS])
        state[b + L.F_IDEAS] = int(rules[R.R_START_IDEAS])
        state[L.S_SUP_IDEAS] -= min(state[L.S_SUP_IDEAS], int(rules[R.R_START_IDEAS]))
        state[b + L.F_SHOPS_RESERVE] = int(rules[R.R_SHOPS_PER_PLAYER])
        state[b + L.F_BAKERIES_RESERVE] = int(rules[R.R_BAKERIES_PER_PLAYER]) - 1
        state[L.S_BAKERY + grey * L.MAX_SLOTS + seat] = seat
        for i in range(L.N_COLS * L.MAX_SPACES):
            state[b + L.F_DISC + i] = -1
        for c in range(1, L.N_COLOURS):
            k = column_of_colour(cols, c)
            state[b + L.F_DICE + k * L.N_COLOURS + c] = int(rules[R.R_START_COLOUR_DICE])
    for seat in range(n):
        b = seat_base(seat)
        for _ in range(int(rules[R.R_START_GREY_DICE])):
            f = 6
            while f == 6:
                f = randint(rng, 6) + 1
            loc = f - 1 if room(state, cols, b, f - 1) > 0 else L.LOC_REST
            state[b + L.F_DICE + loc * L.N_COLOURS + L.GREY] += 1
            if log.shape[0] > 1:
                emit(log, L.EV_GREY, seat, f, loc + 1)


@njit(cache=True)
def deal_start_discs(state, rules, n, rng):
    """CE-S10: one disc of each type shuffled and dealt, one per player (``start_discs``
    rounds); the undealt discs stay in the supply. The players place them in PH_START_DISC."""
    arr = state[L.S_OPTIONS:L.S_OPTIONS + L.N_DISC_TYPES]     # scratch: no decision is pending
    for i in range(L.MAX_PLAYERS * 2):
        state[L.S_DEALT + i] = -1
    for j in range(int(rules[R.R_START_DISCS])):
        for t in range(L.N_DISC_TYPES):
            arr[t] = t
        shuffle(rng, arr)
        for seat in range(n):
            t = arr[seat % L.N_DISC_TYPES]
            if state[L.S_SUP_DISCS + t] > 0:
                state[L.S_DEALT + seat * 2 + j] = t


@njit(cache=True)
def setup_game(state, rules, comp, n, rng, log):
    """Set a game up (CE-S1 .. CE-S11) with the setup stream in the spec's order (§2.10):
    customers, goals, grey dice, start discs; seat 0 is the start player (no draw)."""
    state[:] = 0
    state[L.S_N_PLAYERS] = n
    state[L.S_TRIGGER_SEAT] = -1
    state[L.S_COL] = -1
    state[L.S_ROUND] = 1
    setup_supply(state, comp, n)
    setup_board(state, comp, n, rng)
    setup_goals(state, rules, rng)
    setup_players(state, rules, comp, n, rng, log)
    deal_start_discs(state, rules, n, rng)
    for t in range(L.N_DISC_TYPES):
        state[L.S_OPTIONS + t] = 0
    state[L.S_CURSOR] = 0
    state[L.S_PHASE] = L.PH_START_DISC
    if log.shape[0] > 1:
        emit(log, L.EV_SETUP, n, state[L.S_GOAL], state[L.S_GOAL + 1], state[L.S_GOAL + 2], state[L.S_GOAL + 3])
        for h in range(L.N_HOUSES):
            emit(log, L.EV_CUSTOMER, h, state[L.S_HOUSE + h])


@njit(cache=True)
def list_start_disc(state, comp):
    """CE-S10 (D01): columns where the dealt disc S_CURSOR may go (space 1 at setup)."""
    t = state[L.S_DEALT + state[L.S_CURSOR]]
    b = seat_base(state[L.S_CURSOR] // 2)
    n = 0
    for k in range(L.N_COLS):
        if free_space(state, comp[0], b, k, t) >= 0:
            n = _opt(state, n, k)
    return n


@njit(cache=True)
def _next_start_disc(state, rules):
    """Move the setup cursor to the next dealt disc; then the initial menus (CE-S11)."""
    c = state[L.S_CURSOR] + 1
    while c < L.MAX_PLAYERS * 2 and (c // 2 >= state[L.S_N_PLAYERS] or state[L.S_DEALT + c] < 0):
        c += 1
    if c < L.MAX_PLAYERS * 2 and c // 2 < state[L.S_N_PLAYERS]:
        state[L.S_CURSOR] = c
        return
    if rules[R.R_INITIAL_MENU] > 0.5:
        state[L.S_CURSOR] = state[L.S_N_PLAYERS] - 1
        state[L.S_PHASE] = L.PH_INIT_MENU
    else:
        state[L.S_PHASE] = L.PH_TURN


@njit(cache=True)
def list_init_menu(state):
    """CE-S11 (D02): (simple base, simple frosting) pairs in the supply not yet taken."""
    n = 0
    for bk in range(2):
        for f in range(4):
            code = O.encode_init_menu(bk, f)
            if (state[L.S_INIT_PAIRS] >> code) & 1 == 0 and state[L.S_SUP_BASE + bk] > 0 \
                    and state[L.S_SUP_FROST + f] > 0:
                n = _opt(state, n, code)
    return n


@njit(cache=True)
def initial_menu(state, rules, seat, code, log):
    """CE-S11: take the tiles and form the initial menu; production += initial_menu_production;
    it counts for A goals if ``initial_menu_counts_for_goals``. Then the previous seat; after
    seat 0 the first turn."""
    b = seat_base(seat)
    bk, f = O.decode_init_menu(code)
    state[L.S_INIT_PAIRS] |= 1 << code
    state[L.S_SUP_BASE + bk] -= 1
    state[L.S_SUP_FROST + f] -= 1
    state[b + L.F_SERVED] |= menu_mask(bk, f)
    state[b + L.F_MENUS] += 1
    if rules[R.R_INITIAL_MENU_COUNTS_FOR_GOALS] > 0.5:
        state[b + L.F_SS_BASE] += 1
        state[b + L.F_SS_FROST] += 1
    add_track(state, rules, b, L.F_PRODUCTION, int(rules[R.R_INITIAL_MENU_PRODUCTION]))
    if log.shape[0] > 1:
        emit(log, L.EV_MENU, seat, bk, f, int(rules[R.R_INITIAL_MENU_PRODUCTION]), state[b + L.F_PRODUCTION], 1)
    if seat == 0:
        state[L.S_PHASE] = L.PH_TURN
    else:
        state[L.S_CURSOR] = seat - 1


# ==== free actions (CE-F1 .. CE-F4, SP1 .. SP4) ===============================================
@njit(cache=True)
def list_menu(state, seat):
    """CE-F1 (D04): every (base kind, frosting kind) pair in the seat's stock."""
    b = seat_base(seat)
    n = 0
    for bk in range(L.N_BASE):
        if state[b + L.F_STOCK_BASE + bk] > 0:
            for fk in range(L.N_FROST):
                if state[b + L.F_STOCK_FROST + fk] > 0:
                    n = _opt(state, n, O.encode_menu(bk, fk))
    return n


@njit(cache=True)
def _can_menu(state, seat):
    """CE-F1: True if the seat's stock holds a base and a frosting, so D04 lists a menu (a
    legality check that writes nothing). The stock counts are summed, without branches."""
    b = seat_base(seat)
    base = 0
    for bk in range(L.N_BASE):
        base += state[b + L.F_STOCK_BASE + bk]
    frost = 0
    for fk in range(L.N_FROST):
        frost += state[b + L.F_STOCK_FROST + fk]
    return (base > 0) & (frost > 0)


@njit(cache=True)
def create_menu(state, rules, seat, code, log):
    """CE-F1: discard a base and a frosting from stock; production +2 / +3 / +4 (simple+simple,
    one mixed, mixed+mixed); the A-goal counters; the customer types served."""
    b = seat_base(seat)
    bk, fk = O.decode_menu(code)
    state[b + L.F_STOCK_BASE + bk] -= 1
    state[b + L.F_STOCK_FROST + fk] -= 1
    mixed = (1 if bk == 2 else 0) + (1 if fk >= L.FR_SIMPLE else 0)
    gain = int(rules[R.R_MENU_PROD_SS]) if mixed == 0 else (
        int(rules[R.R_MENU_PROD_SM]) if mixed == 1 else int(rules[R.R_MENU_PROD_MM]))
    add_track(state, rules, b, L.F_PRODUCTION, gain)
    state[b + L.F_MENUS] += 1
    if bk == 2:
        state[b + L.F_MX_BASE] += 1
    else:
        state[b + L.F_SS_BASE] += 1
    if fk >= L.FR_SIMPLE:
        state[b + L.F_MX_FROST] += 1
    else:
        state[b + L.F_SS_FROST] += 1
    state[b + L.F_SERVED] |= menu_mask(bk, fk)
    if log.shape[0] > 1:
        emit(log, L.EV_MENU, seat, bk, fk, gain, state[b + L.F_PRODUCTION], 0)


@njit(cache=True)
def list_rest(state, rules, comp, seat, one=False):
    """CE-F2 (D05): ``encode_rest(method, column)``: method 0 pays rest_recall_idea_cost ideas,
    method 1 pays rest_recall_income_per_die income per die (CE-F4); the column needs room. With
    ``one`` it stops at the first option (a legality check)."""
    b = seat_base(seat)
    if dice_at(state, b, L.LOC_REST) == 0:
        return 0
    can_idea = state[b + L.F_IDEAS] >= int(rules[R.R_REST_RECALL_IDEA_COST])
    can_income = state[b + L.F_INCOME] >= int(rules[R.R_REST_RECALL_INCOME_PER_DIE])
    n = 0
    for method in range(2):
        if (method == 0 and can_idea) or (method == 1 and can_income):
            for k in range(L.N_COLS):
                if room(state, comp[0], b, k) > 0:
                    n = _opt(state, n, O.encode_rest(method, k))
                    if one:
                        return n
    return n


@njit(cache=True)
def start_rest(state, rules, seat, code, log):
    """CE-F2: one rest use this turn; method 0 pays its ideas now (they return to the supply)."""
    b = seat_base(seat)
    state[L.S_REST_USED] += 1
    method, column = O.decode_rest(code)
    state[L.S_REST_METHOD] = method
    state[L.S_REST_COL] = column
    state[L.S_REST_MOVED] = 0
    if method == 0:
        cost = int(rules[R.R_REST_RECALL_IDEA_COST])
        state[b + L.F_IDEAS] -= cost
        state[L.S_SUP_IDEAS] += cost
    state[L.S_PHASE] = L.PH_REST_DIE


@njit(cache=True)
def list_rest_die(state, rules, comp, seat):
    """CE-F2 (D06): the colour of the next rest die moved into the column (room, and income for
    method 1)."""
    b = seat_base(seat)
    k = state[L.S_REST_COL]
    n = 0
    ok = room(state, comp[0], b, k) > 0
    if (state[L.S_REST_METHOD] == 1
            and state[b + L.F_INCOME] < int(rules[R.R_REST_RECALL_INCOME_PER_DIE])):
        ok = False
    if ok:
        for c in range(L.N_COLOURS):
            if state[b + L.F_DICE + L.LOC_REST * L.N_COLOURS + c] > 0:
                n = _opt(state, n, c)
    return n


@njit(cache=True)
def rest_die(state, rules, seat, c, log):
    """CE-F2: move one rest die of colour ``c`` into the column (method 1 pays per die); then
    one more or stop (D22)."""
    b = seat_base(seat)
    k = state[L.S_REST_COL]
    if state[L.S_REST_METHOD] == 1:
        pay_income(state, seat, int(rules[R.R_REST_RECALL_INCOME_PER_DIE]), 1, log)
    move_die(state, b, L.LOC_REST, k, c)
    state[L.S_REST_MOVED] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_REST, seat, state[L.S_REST_METHOD], k + 1, c, state[b + L.F_INCOME], state[b + L.F_IDEAS])
    state[L.S_MORE_PHASE] = L.PH_REST_DIE
    state[L.S_PHASE] = L.PH_MORE


@njit(cache=True)
def _occupied_and_roomy(state, comp, b):
    """Two bit masks over the columns of the seat at ``b``: those holding dice, and those with
    room (CE-AMB-03)."""
    held = 0
    roomy = 0
    for k in range(L.N_COLS):
        n = dice_at(state, b, k)
        if n > 0:
            held |= 1 << k
        if comp[0][k, L.CD_CAPACITY] - n > 0:     # room(), with the count at hand
            roomy |= 1 << k
    return held, roomy


@njit(cache=True)
def _can_leave(held, roomy, a):
    """True if column ``a`` holds a die and another column has room (masks of
    ``_occupied_and_roomy``)."""
    return ((held >> a) & 1) == 1 and (roomy & ~(1 << a)) != 0


@njit(cache=True)
def _movable(state, comp, b):
    """True if some die of a column can move to another column with room (SP2, SP4)."""
    held, roomy = _occupied_and_roomy(state, comp, b)
    for a in range(L.N_COLS):
        if _can_leave(held, roomy, a):
            return True
    return False


@njit(cache=True)
def list_special(state, rules, comp, seat, one=False):
    """CE-F3 (D07): SP1 (disc type and column), SP2, SP3, SP4 as far as affordable (CE-F4).
    With ``one`` it stops at the first legal option it finds (a legality check)."""
    b = seat_base(seat)
    ideas = state[b + L.F_IDEAS]
    income = state[b + L.F_INCOME]
    n = 0
    if ideas >= int(rules[R.R_SP_DISC_IDEA_COST]):
        for t in range(L.N_DISC_TYPES):
            if state[L.S_SUP_DISCS + t] > 0:
                for k in range(L.N_COLS):
                    if free_space(state, comp[0], b, k, t) >= 0:
                        n = _opt(state, n, O.encode_special_disc(t, k))
                        if one:
                            return n
    sp3 = income >= int(rules[R.R_SP_IDEA_INCOME_COST]) and ideas < int(rules[R.R_IDEA_CAP]) \
        and state[L.S_SUP_IDEAS] > 0
    if one and sp3:     # legal: no need to look for a movable die
        return _opt(state, n, L.SP_IDEA)
    sp2 = ideas >= int(rules[R.R_SP_MOVE_IDEA_COST])
    sp4 = income >= int(rules[R.R_SP_MOVE_INCOME_PER_DIE])
    movable = (sp2 or sp4) and _movable(state, comp, b)
    if sp2 and movable:
        n = _opt(state, n, L.SP_MOVE1)
    if sp3:
        n = _opt(state, n, L.SP_IDEA)
    if sp4 and movable:
        n = _opt(state, n, L.SP_MOVEN)
    return n


@njit(cache=True)
def special_action(state, rules, comp, seat, code, log):
    """CE-F3: SP1 pay ideas, place a disc; SP2 pay ideas, move one die; SP3 pay income, gain
    an idea; SP4 move dice at sp_move_income_per_die each (paid per die)."""
    b = seat_base(seat)
    state[L.S_SPECIAL_USED] += 1
    state[L.S_PHASE] = L.PH_FREE
    if code < L.SP_MOVE1:
        cost = int(rules[R.R_SP_DISC_IDEA_COST])
        state[b + L.F_IDEAS] -= cost
        state[L.S_SUP_IDEAS] += cost
        t, k = O.decode_special_disc(code)
        place_disc(state, comp, seat, t, k, 2, log)
    elif code == L.SP_MOVE1:
        cost = int(rules[R.R_SP_MOVE_IDEA_COST])
        state[b + L.F_IDEAS] -= cost
        state[L.S_SUP_IDEAS] += cost
        state[L.S_MOVE_KIND] = L.SP_MOVE1
        state[L.S_MOVED] = 0
        state[L.S_PHASE] = L.PH_MOVE_DIE
    elif code == L.SP_IDEA:
        pay_income(state, seat, int(rules[R.R_SP_IDEA_INCOME_COST]), 2, log)
        gain_idea(state, rules, seat)
    else:
        state[L.S_MOVE_KIND] = L.SP_MOVEN
        state[L.S_MOVED] = 0
        state[L.S_PHASE] = L.PH_MOVE_DIE
    if log.shape[0] > 1:
        emit(log, L.EV_SPECIAL, seat, code, state[b + L.F_INCOME], state[b + L.F_IDEAS])


@njit(cache=True)
def list_move_die(state, rules, comp, seat):
    """SP2 / SP4 (D08): a die ``encode_move_die(column, colour)`` that can move to another column
    with room (SP4: with income for it)."""
    b = seat_base(seat)
    sp4 = state[L.S_MOVE_KIND] == L.SP_MOVEN
    n = 0
    if not sp4 or state[b + L.F_INCOME] >= int(rules[R.R_SP_MOVE_INCOME_PER_DIE]):
        held, roomy = _occupied_and_roomy(state, comp, b)
        for a in range(L.N_COLS):
            if _can_leave(held, roomy, a):
                for c in range(L.N_COLOURS):
                    if state[b + L.F_DICE + a * L.N_COLOURS + c] > 0:
                        n = _opt(state, n, O.encode_move_die(a, c))
    return n


@njit(cache=True)
def list_move_to(state, comp, seat):
    """SP2 / SP4 (D09): target columns with room, other than the die's column."""
    b = seat_base(seat)
    a, _ = O.decode_move_die(state[L.S_MOVE_FROM])
    n = 0
    for k in range(L.N_COLS):
        if k != a and room(state, comp[0], b, k) > 0:
            n = _opt(state, n, k)
    return n


@njit(cache=True)
def move_to(state, rules, seat, k, log):
    """SP2 / SP4: move the chosen die to column ``k`` (SP4 pays per die)."""
    b = seat_base(seat)
    a, c = O.decode_move_die(state[L.S_MOVE_FROM])
    if state[L.S_MOVE_KIND] == L.SP_MOVEN:
        pay_income(state, seat, int(rules[R.R_SP_MOVE_INCOME_PER_DIE]), 3, log)
    move_die(state, b, a, k, c)
    state[L.S_MOVED] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_MOVE, seat, a + 1, k + 1, c)
    state[L.S_MORE_PHASE] = L.PH_MOVE_DIE
    state[L.S_PHASE] = L.PH_MORE if state[L.S_MOVE_KIND] == L.SP_MOVEN else L.PH_FREE


@njit(cache=True)
def list_more(state, rules, comp, seat):
    """CE-F2 / SP4 (D22): STOP, or MORE when one more die can move (checked by listing it)."""
    if state[L.S_MORE_PHASE] == L.PH_REST_DIE:
        more = list_rest_die(state, rules, comp, seat) > 0
    else:
        more = list_move_die(state, rules, comp, seat) > 0
    if not more:
        state[L.S_PHASE] = L.PH_FREE
        return 0
    n = _opt(state, 0, L.STOP)
    return _opt(state, n, L.MORE)


@njit(cache=True)
def list_free(state, rules, comp, seat):
    """W1 / W2 / W3 (D03): done, or a menu, a rest use or a special action while legal."""
    menu = _has(state, rules, comp, seat, L.FA_MENU)
    rest = _has(state, rules, comp, seat, L.FA_REST)
    special = _has(state, rules, comp, seat, L.FA_SPECIAL)
    n = _opt(state, 0, L.FA_DONE)     # the checks above wrote into the options block
    if menu:
        n = _opt(state, n, L.FA_MENU)
    if rest:
        n = _opt(state, n, L.FA_REST)
    if special:
        n = _opt(state, n, L.FA_SPECIAL)
    return n


@njit(cache=True)
def _has(state, rules, comp, seat, code):
    """True if the free action ``code`` is legal now (the rest and special checks rewrite the
    options block)."""
    if code == L.FA_MENU:
        return _can_menu(state, seat)
    if code == L.FA_REST:
        return state[L.S_REST_USED] < int(rules[R.R_REST_USES_PER_TURN]) and \
            list_rest(state, rules, comp, seat, True) > 0
    return state[L.S_SPECIAL_USED] < int(rules[R.R_SPECIALS_PER_TURN]) and \
        list_special(state, rules, comp, seat, True) > 0


@njit(cache=True)
def free_action(state, code):
    """D03: go to the chosen free action, or close the window (W1 -> S1, W2 -> S2, W3 -> end)."""
    if code == L.FA_MENU:
        state[L.S_RETURN] = L.PH_FREE
        state[L.S_PHASE] = L.PH_MENU
    elif code == L.FA_REST:
        state[L.S_PHASE] = L.PH_REST
    elif code == L.FA_SPECIAL:
        state[L.S_PHASE] = L.PH_SPECIAL
    else:
        w = state[L.S_WINDOW]
        state[L.S_PHASE] = L.PH_ACTIVATE if w == 1 else (L.PH_S2 if w == 2 else L.PH_END_TURN)


# ==== S1: activation, main action, discs (CE-T1 .. CE-T4, CE-A1 .. CE-A5, CE-X5) ============
@njit(cache=True)
def list_activate(state, rules, comp, seat):
    """CE-T1 / CE-T1.1 (D10): ``encode_activate(column, L_exec)`` for L_exec in 0..L_avail (from 1
    when ``allow_level0_activation`` is off). A fixed loop over the levels up to MAX_LEVEL with
    ``_opt_if``: a loop up to L_avail was vectorized, and its vector constants were set up at every
    entry to the step machine."""
    b = seat_base(seat)
    lo = 0 if rules[R.R_ALLOW_LEVEL0_ACTIVATION] > 0.5 else 1
    n = 0
    for k in range(L.N_COLS):
        la = l_avail(state, comp[0], b, k)
        for lv in range(L.MAX_LEVEL + 1):     # L_avail <= max_level <= MAX_LEVEL (columns.csv)
            n = _opt_if(state, n, O.encode_activate(k, lv), (lv >= lo) & (lv <= la))
    return n


@njit(cache=True)
def activate(state, comp, seat, code, log):
    """CE-T1: activate column ``k``; L_avail is frozen now; CE-T1.2: the column's dice now are
    the used dice (marked to roll in S3)."""
    b = seat_base(seat)
    k, lv = O.decode_activate(code)
    state[L.S_COL] = k
    state[L.S_L_AVAIL] = l_avail(state, comp[0], b, k)
    state[L.S_L_EXEC] = lv
    state[L.S_MAIN_DONE] = 1 if lv == 0 else 0
    state[L.S_DISC_DONE] = 0
    for c in range(L.N_COLOURS):
        state[b + L.F_ROLL + k * L.N_COLOURS + c] = state[b + L.F_DICE + k * L.N_COLOURS + c]
    if lv > 0:
        state[b + L.F_ACTIVATIONS + k] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_ACTIVATE, seat, k + 1, state[L.S_L_AVAIL], lv)
    state[L.S_PHASE] = L.PH_S1


@njit(cache=True)
def list_s1(state, rules, seat):
    """CE-T2 / CE-T3 (D11): the main action (once), each eligible disc (once, before or after
    it), a menu (CE-AMB-30), or the end of S1 once the main action is done.

    CE-T3 / CE-X5: the disc on space p + 1 of the activated column is eligible if p + 1 <=
    L_exec (L_avail with ``disc_trigger_on_available``) and it is unresolved. Each space's
    option is appended by ``_opt_if`` (no branch on the spaces' contents)."""
    b = seat_base(seat)
    menu = _can_menu(state, seat)
    n = 0
    if state[L.S_MAIN_DONE] == 0:
        n = _opt(state, n, L.S1_MAIN)
    lim = state[L.S_L_AVAIL] if rules[R.R_DISC_TRIGGER_ON_AVAILABLE] > 0.5 else state[L.S_L_EXEC]
    row = b + L.F_DISC + state[L.S_COL] * L.MAX_SPACES
    done = state[L.S_DISC_DONE]
    for p in range(L.MAX_SPACES):
        n = _opt_if(state, n, O.encode_s1_disc(p),
                    (p + 1 <= lim) & (state[row + p] >= 0) & ((done >> p) & 1 == 0))
    if menu:
        n = _opt(state, n, L.S1_MENU)
    if state[L.S_MAIN_DONE] == 1:
        n = _opt(state, n, L.S1_END)
    return n


@njit(cache=True)
def _push(state, code, arg):
    """Queue one S1 task."""
    state[L.S_TASKS + state[L.S_N_TASKS]] = code * L.TASK_CODE + arg
    state[L.S_N_TASKS] += 1


@njit(cache=True)
def push_column_action(state, rules, k, lv):
    """The tasks of column ``k``'s action at level ``lv`` (CE-A1 .. CE-A5)."""
    if k == 0:
        if lv != 2:
            _push(state, L.T_BASE_SIMPLE, 0)
        if lv >= 2:
            _push(state, L.T_BASE_MIXED, 0)
    elif k == 1:
        if lv != 2:
            _push(state, L.T_FROST_SIMPLE, 0)
        if lv >= 2:
            _push(state, L.T_FROST_MIXED, 0)
    elif k == 2:
        if lv != 2:
            _push(state, L.T_SHOP, L.KIND_YELLOW)
        if lv >= 2:
            _push(state, L.T_SHOP, L.KIND_BEIGE)
    elif k == 3:
        _push(state, L.T_SELL, int(rules[R.R_SELL_REACH_L1 + min(lv, 3) - 1]))
    else:
        if lv <= 2:
            _push(state, L.T_HIRE, 0)
        elif lv == 3:
            _push(state, L.T_BAKERY_Y, 0)
        else:
            _push(state, L.T_L4, 0)
        if lv == 2 or lv == 3:
            _push(state, L.T_DISC_GAIN, 0)


@njit(cache=True)
def s1_step(state, rules, seat, code, log):
    """D11: start the main action or a disc (CE-T3), a menu, or end S1 (W2 follows)."""
    b = seat_base(seat)
    if code == L.S1_MAIN:
        state[L.S_MAIN_DONE] = 1
        push_column_action(state, rules, state[L.S_COL], state[L.S_L_EXEC])
        state[L.S_PHASE] = L.PH_TASK
    elif code == L.S1_MENU:
        state[L.S_RETURN] = L.PH_S1
        state[L.S_PHASE] = L.PH_MENU
    elif code == L.S1_END:
        state[L.S_WINDOW] = 2
        state[L.S_PHASE] = L.PH_FREE
    else:
        p = O.decode_s1_disc(code)
        t = state[b + L.F_DISC + state[L.S_COL] * L.MAX_SPACES + p]
        state[L.S_DISC_DONE] |= 1 << p
        state[b + L.F_DISCS_USED] += 1
        if log.shape[0] > 1:
            emit(log, L.EV_DISC_USE, seat, t, state[L.S_COL] + 1, p + 1)
        if t == L.X_BASE:
            _push(state, L.T_BASE_SIMPLE, 0)
        elif t == L.X_FROST:
            _push(state, L.T_FROST_SIMPLE, 0)
        elif t == L.X_SHOP_Y:
            _push(state, L.T_SHOP, L.KIND_YELLOW)
        elif t == L.X_SELL2:
            _push(state, L.T_SELL, int(rules[R.R_DISC_SELL_REACH]))
        elif t == L.X_INCOME3:
            _push(state, L.T_INCOME, int(rules[R.R_DISC_INCOME_GAIN]))
        else:
            _push(state, L.T_IDEA_STEPS, int(rules[R.R_DISC_IDEA_STEPS]))
        state[L.S_PHASE] = L.PH_TASK


# ---- the tasks ------------------------------------------------------------------------------
@njit(cache=True)
def list_shop(state, comp, seat, kind):
    """CE-A3.2 (D15): ``encode_shop(src, region, victim)`` over regions of ``kind``: the shop
    comes from the reserve (src = SRC_RESERVE) or, with an empty reserve, is relocated from a
    region ``src`` holding an own shop; it takes an empty unblocked slot (victim 0) or, with
    none, displaces an opponent's shop (victim 1 + seat). Blockers and own shops stay."""
    regions = comp[1]
    b = seat_base(seat)
    n = 0
    for src in range(L.N_REGIONS + 1):
        if state[b + L.F_SHOPS_RESERVE] > 0:
            if src != L.N_REGIONS:
                continue
            s = L.SRC_RESERVE
        else:
            if src == L.N_REGIONS:
                continue
            s = src
            if not _own_shop(state, seat, src):
                continue
        for r in range(L.N_REGIONS):
            if regions[r, L.RD_KIND] != kind or r == s:
                continue
            empty = False
            for i in range(L.MAX_SLOTS):
                if state[L.S_SHOP + r * L.MAX_SLOTS + i] == L.SLOT_EMPTY:
                    empty = True
            if empty:
                n = _opt(state, n, O.encode_shop(s, r, 0))
            else:
                for q in range(state[L.S_N_PLAYERS]):
                    if q != seat and _own_shop(state, q, r):
                        n = _opt(state, n, O.encode_shop(s, r, 1 + q))
    return n


@njit(cache=True)
def _own_shop(state, seat, r):
    """True if ``seat`` has a shop in region ``r``."""
    for i in range(L.MAX_SLOTS):
        if state[L.S_SHOP + r * L.MAX_SLOTS + i] == seat:
            return True
    return False


@njit(cache=True)
def _slot_of(state, r, owner):
    """First shop slot of region ``r`` holding ``owner`` (a seat or SLOT_EMPTY)."""
    for i in range(L.MAX_SLOTS):
        if state[L.S_SHOP + r * L.MAX_SLOTS + i] == owner:
            return i
    return -1


@njit(cache=True)
def place_shop(state, rules, seat, code, log):
    """CE-A3.2: take the shop (reserve: +shop_sales_gain sales; relocation: no loss on removal,
    +relocation_sales_gain), displacing an opponent's shop when the region is full (its owner
    gets it back and loses shop_displaced_sales_loss sales)."""
    b = seat_base(seat)
    src, r, victim = O.decode_shop(code)
    if src == L.SRC_RESERVE:
        state[b + L.F_SHOPS_RESERVE] -= 1
        gain = int(rules[R.R_SHOP_SALES_GAIN])
        src_log = -1
    else:
        state[L.S_SHOP + src * L.MAX_SLOTS + _slot_of(state, src, seat)] = L.SLOT_EMPTY
        gain = int(rules[R.R_RELOCATION_SALES_GAIN])
        src_log = src
    vsales = 0
    if victim == 0:
        i = _slot_of(state, r, L.SLOT_EMPTY)
    else:
        q = victim - 1
        i = _slot_of(state, r, q)
        qb = seat_base(q)
        state[qb + L.F_SHOPS_RESERVE] += 1
        add_track(state, rules, qb, L.F_SALES, -int(rules[R.R_SHOP_DISPLACED_SALES_LOSS]))
        state[qb + L.F_DISPLACED] += 1
        vsales = state[qb + L.F_SALES]
    state[L.S_SHOP + r * L.MAX_SLOTS + i] = seat
    add_track(state, rules, b, L.F_SALES, gain)
    if log.shape[0] > 1:
        emit(log, L.EV_SHOP, seat, r, victim - 1, src_log, state[b + L.F_SALES], vsales)


@njit(cache=True)
def list_sell(state, comp, seat, reach):
    """CE-A4.2 (D16): houses at distance <= ``reach`` of regions where ``seat`` has a bakery or
    shop, holding a customer one of its menus serves."""
    served = state[seat_base(seat) + L.F_SERVED]
    n = 0
    for r in range(L.N_REGIONS):
        if not has_building(state, seat, r):
            continue
        for d in range(min(reach, 4)):
            h = O.encode_house(r, d)
            if serves_house(served, state[L.S_HOUSE + h]):
                n = _opt(state, n, h)
    return n


@njit(cache=True)
def sell(state, rules, comp, seat, h, log):
    """CE-A4.2: the customer of house ``h`` joins the customer area at the house's value v;
    sales += v, income += v; the house stays empty (CE-AMB-24)."""
    b = seat_base(seat)
    t = state[L.S_HOUSE + h]
    r, d = O.decode_house(h)
    v = comp[1][r, L.RD_VALUE + d]
    state[L.S_HOUSE + h] = -1
    state[b + L.F_CUST + t] += 1
    state[b + L.F_CUST_VAL + v - 1] += 1
    add_track(state, rules, b, L.F_SALES, v)
    state[b + L.F_INCOME] += v
    state[b + L.F_SALE_INCOME] += v
    if log.shape[0] > 1:
        emit(log, L.EV_SALE, seat, h, t, v, state[b + L.F_SALES], state[b + L.F_INCOME])


@njit(cache=True)
def list_bakery(state, comp, seat, kind, l4):
    """CE-A5 L3 / L4(a): the regions of ``kind`` with an empty bakery slot (D19: the region;
    D20 with ``l4``: ``encode_l4(0, region, 0)``), if the seat has a bakery in reserve."""
    if state[seat_base(seat) + L.F_BAKERIES_RESERVE] == 0:
        return 0
    n = 0
    for r in range(L.N_REGIONS):
        if comp[1][r, L.RD_KIND] == kind:
            for i in range(L.MAX_SLOTS):
                if state[L.S_BAKERY + r * L.MAX_SLOTS + i] == L.SLOT_EMPTY:
                    n = _opt(state, n, O.encode_l4(0, r, 0) if l4 else r)
                    break
    return n


@njit(cache=True)
def place_bakery(state, rules, comp, seat, r, log):
    """CE-A5 L3 / L4(a): a bakery from the reserve in region ``r``; production and sales +
    bakery_yellow_gain / bakery_beige_gain. Bakeries are never displaced."""
    b = seat_base(seat)
    for i in range(L.MAX_SLOTS):
        if state[L.S_BAKERY + r * L.MAX_SLOTS + i] == L.SLOT_EMPTY:
            state[L.S_BAKERY + r * L.MAX_SLOTS + i] = seat
            break
    state[b + L.F_BAKERIES_RESERVE] -= 1
    g = int(rules[R.R_BAKERY_YELLOW_GAIN]) if comp[1][r, L.RD_KIND] == L.KIND_YELLOW else \
        int(rules[R.R_BAKERY_BEIGE_GAIN])
    add_track(state, rules, b, L.F_PRODUCTION, g)
    add_track(state, rules, b, L.F_SALES, g)
    if log.shape[0] > 1:
        emit(log, L.EV_BAKERY, seat, r, state[b + L.F_PRODUCTION], state[b + L.F_SALES])


@njit(cache=True)
def hire(state, comp, seat, c, log):
    """CE-A5 L1: a die of colour ``c`` from the supply to its colour's column (rest area if
    full, CE-AMB-11); it rolls in S3 (CE-T7) and does not change L_avail (frozen)."""
    b = seat_base(seat)
    state[L.S_SUP_DICE + c] -= 1
    k = column_of_colour(comp[0], c)
    loc = k if k >= 0 and room(state, comp[0], b, k) > 0 else L.LOC_REST
    state[b + L.F_DICE + loc * L.N_COLOURS + c] += 1
    state[b + L.F_ROLL + loc * L.N_COLOURS + c] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_HIRE, seat, c, loc + 1)


@njit(cache=True)
def list_disc_gain(state, comp, seat):
    """CE-A5 L2/L3 (D18): ``encode_disc_gain(type, column)``: a type in the supply on the first
    empty space of a column without that type (CE-X3, CE-X4)."""
    b = seat_base(seat)
    n = 0
    for t in range(L.N_DISC_TYPES):
        if state[L.S_SUP_DISCS + t] > 0:
            for k in range(L.N_COLS):
                if free_space(state, comp[0], b, k, t) >= 0:
                    n = _opt(state, n, O.encode_disc_gain(t, k))
    return n


@njit(cache=True)
def list_task(state, rules, comp, seat, task):
    """The options of S1 task ``task`` and its decision point: (n, point); n = 0 when the task
    cannot be done (an empty supply, no legal slot: that part is skipped, §5). Point 0: the
    task is no decision (a mixed base, income, idea steps: nothing to choose ever)."""
    code, arg = task // L.TASK_CODE, task % L.TASK_CODE
    if code == L.T_BASE_SIMPLE:
        n = 0
        for f in range(2):
            if state[L.S_SUP_BASE + f] > 0:
                n = _opt(state, n, f)
        return n, L.D_BASE
    if code == L.T_BASE_MIXED:
        return (1 if state[L.S_SUP_BASE + 2] > 0 else 0), 0
    if code == L.T_FROST_SIMPLE or code == L.T_FROST_MIXED:
        n = 0
        lo = 0 if code == L.T_FROST_SIMPLE else L.FR_SIMPLE
        hi = lo + (L.FR_SIMPLE if code == L.T_FROST_SIMPLE else L.N_FROST - L.FR_SIMPLE)
        for f in range(lo, hi):
            if state[L.S_SUP_FROST + f] > 0:
                n = _opt(state, n, f)
        return n, (L.D_FROST if code == L.T_FROST_SIMPLE else L.D_PAIR)
    if code == L.T_SHOP:
        return list_shop(state, comp, seat, arg), L.D_SHOP
    if code == L.T_SELL:
        return list_sell(state, comp, seat, arg), L.D_SELL
    if code == L.T_HIRE:
        n = 0
        for c in range(L.N_COLOURS):
            if state[L.S_SUP_DICE + c] > 0:
                n = _opt(state, n, c)
        return n, L.D_HIRE
    if code == L.T_DISC_GAIN:
        return list_disc_gain(state, comp, seat), L.D_DISC
    if code == L.T_BAKERY_Y:
        return list_bakery(state, comp, seat, L.KIND_YELLOW, False), L.D_BAKERY_Y
    if code == L.T_L4:
        n = list_bakery(state, comp, seat, L.KIND_BEIGE, True)
        for k in range(4):
            for lv in range(1, comp[0][k, L.CD_MAX_LEVEL] + 1):
                n = _opt(state, n, O.encode_l4(1, k, lv))
        return n, L.D_L4
    state[L.S_OPTIONS] = 0
    return 1, 0     # T_INCOME, T_IDEA_STEPS: nothing to choose

@njit(cache=True)
def do_task(state, rules, comp, seat, task, code, log):
    """Carry out S1 task ``task`` with option ``code`` (CE-A1 .. CE-A5, §2.7)."""
    t, arg = task // L.TASK_CODE, task % L.TASK_CODE
    b = seat_base(seat)
    if t == L.T_BASE_SIMPLE or t == L.T_BASE_MIXED:
        f = code if t == L.T_BASE_SIMPLE else 2
        state[L.S_SUP_BASE + f] -= 1
        state[b + L.F_STOCK_BASE + f] += 1
        if log.shape[0] > 1:
            emit(log, L.EV_TILE, seat, 0, f)
    elif t == L.T_FROST_SIMPLE or t == L.T_FROST_MIXED:
        state[L.S_SUP_FROST + code] -= 1
        state[b + L.F_STOCK_FROST + code] += 1
        if log.shape[0] > 1:
            emit(log, L.EV_TILE, seat, 1, code)
    elif t == L.T_SHOP:
        place_shop(state, rules, seat, code, log)
    elif t == L.T_SELL:
        sell(state, rules, comp, seat, code, log)
    elif t == L.T_HIRE:
        hire(state, comp, seat, code, log)
    elif t == L.T_DISC_GAIN:
        disc, k = O.decode_disc_gain(code)
        place_disc(state, comp, seat, disc, k, 1, log)
    elif t == L.T_BAKERY_Y:
        place_bakery(state, rules, comp, seat, code, log)
    elif t == L.T_L4:
        kind, x, lv = O.decode_l4(code)
        if kind == 1:
            push_column_action(state, rules, x, lv)
        else:
            place_bakery(state, rules, comp, seat, x, log)
    elif t == L.T_INCOME:
        gain_income(state, seat, arg, L.IN_DISC, log)
    else:
        idea_steps(state, rules, seat, arg, log)


# ==== S2, S3 and the end of the turn (CE-T5 .. CE-T9, CE-E1, CE-E2) =========================
@njit(cache=True)
def s2_income_and_goals(state, rules, comp, seat, log):
    """CE-T5: income += min(production, sales); CE-T6: every revealed goal not yet claimed by
    ``seat`` whose condition holds now is claimed (+goal_bonus), once and for good."""
    b = seat_base(seat)
    g = min(state[b + L.F_PRODUCTION], state[b + L.F_SALES])
    state[b + L.F_S2_INCOME] += g
    gain_income(state, seat, g, L.IN_S2, log)
    for s in range(L.N_STACKS):
        gid = state[L.S_GOAL + s]
        if gid >= 0 and (state[b + L.F_GOALS] >> s) & 1 == 0 and goal_met(state, comp, seat, gid):
            state[b + L.F_GOALS] |= 1 << s
            state[L.S_GOALS_CLAIMED] += 1
            bonus = int(rules[R.R_GOAL_BONUS])
            state[b + L.F_GOAL_INCOME] += bonus
            gain_income(state, seat, bonus, L.IN_GOAL, log)
            if log.shape[0] > 1:
                emit(log, L.EV_GOAL, seat, gid, state[b + L.F_INCOME])


@njit(cache=True)
def s3_begin(state):
    """CE-T7: S3 begins with no die of this roll yet (``S_ROLLED`` cleared); the roll is next.
    Done once per S3 as S2 hands over, not in the roll step, which a chance point may pause and
    resume."""
    for i in range(L.N_COLOURS * L.N_COLOURS):
        state[L.S_ROLLED + i] = 0
    state[L.S_PHASE] = L.PH_S3


@njit(cache=True)
def ce_t7_die_shows(state, seat, die, f, log):
    """CE-T7: one die marked to roll, at location and colour ``die`` (``loc * N_COLOURS +
    colour``), leaves its place and shows face ``f`` (1..6); it waits in ``S_ROLLED`` to be
    placed (CE-T7.1, CE-T7.2). The one place a face is applied: drawn from the dice stream
    (``s3_roll``) or answered at the chance point D_ROLL (``_apply``)."""
    b = seat_base(seat)
    c = die % L.N_COLOURS
    state[b + L.F_ROLL + die] -= 1
    state[b + L.F_DICE + die] -= 1
    state[L.S_ROLLED + (f - 1) * L.N_COLOURS + c] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_ROLL, seat, c, f, die // L.N_COLOURS + 1)


@njit(cache=True)
def _post_roll(state, seat, die):
    """Post the chance point D_ROLL of ``seat``'s die ``die`` (kept in ``S_CURSOR``): the faces
    1..6 in face order; returns 1."""
    state[L.S_CURSOR] = die
    for f in range(L.N_FACES):
        state[L.S_OPTIONS + f] = f + 1
    return _post(state, seat, L.D_ROLL, L.N_FACES)


@njit(cache=True)
def s3_roll(state, seat, log, chance):
    """CE-T7: every die marked to roll (used, CE-T1.2, and gained, CE-AMB-11) leaves its place
    and is rolled, in colour-id order (grey first, §2.10), then location; CE-T7.2: 6s go to the
    rest area. The marks (``F_ROLL``) say which dice remain, so the step resumes after a chance
    point: with ``chance`` the die about to roll is posted as D_ROLL (returns 1; the answer
    rolls it, ``_apply``), else it draws from the dice stream. 0 once the 6s are placed."""
    b = seat_base(seat)
    for c in range(L.N_COLOURS):
        for loc in range(L.N_LOCS):
            die = loc * L.N_COLOURS + c
            while state[b + L.F_ROLL + die] > 0:
                if chance:
                    return _post_roll(state, seat, die)
                ce_t7_die_shows(state, seat, die, draw(state, L.S_RNG_D, L.N_FACES) + 1, log)
    s = 0
    for c in range(L.N_COLOURS):
        m = state[L.S_ROLLED + 5 * L.N_COLOURS + c]
        s += m
        state[b + L.F_DICE + L.LOC_REST * L.N_COLOURS + c] += m
        state[L.S_ROLLED + 5 * L.N_COLOURS + c] = 0
        if log.shape[0] > 1 and m > 0:
            emit(log, L.EV_PLACE, seat, c, L.LOC_REST + 1, m, 6)
    state[L.S_SIXES] = s
    state[L.S_CURSOR] = 0
    state[L.S_PHASE] = L.PH_OVERFLOW
    return 0


@njit(cache=True)
def _rolled_on(state, f):
    """Dice of this roll still to place that show face f + 1."""
    t = 0
    for c in range(L.N_COLOURS):
        t += state[L.S_ROLLED + f * L.N_COLOURS + c]
    return t


@njit(cache=True)
def list_overflow(state, comp, seat):
    """CE-T7.1 (D21): place the dice showing each face 1..5 in that column; when they exceed its
    free capacity, the colour of one die sent to the rest area (the active player chooses,
    CE-AMB-14). Returns 0 when every column is placed."""
    b = seat_base(seat)
    while state[L.S_CURSOR] < L.N_COLS:
        f = state[L.S_CURSOR]
        if _rolled_on(state, f) <= room(state, comp[0], b, f):
            for c in range(L.N_COLOURS):
                m = state[L.S_ROLLED + f * L.N_COLOURS + c]
                state[b + L.F_DICE + f * L.N_COLOURS + c] += m
                state[L.S_ROLLED + f * L.N_COLOURS + c] = 0
            state[L.S_CURSOR] = f + 1
            continue
        n = 0
        for c in range(L.N_COLOURS):
            if state[L.S_ROLLED + f * L.N_COLOURS + c] > 0:
                n = _opt(state, n, c)
        return n
    return 0


@njit(cache=True)
def overflow(state, seat, c, log):
    """CE-T7.1: one die of colour ``c`` showing the current column goes to the rest area."""
    b = seat_base(seat)
    f = state[L.S_CURSOR]
    state[L.S_ROLLED + f * L.N_COLOURS + c] -= 1
    state[b + L.F_DICE + L.LOC_REST * L.N_COLOURS + c] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_PLACE, seat, c, L.LOC_REST + 1, 1, f + 1)


@njit(cache=True)
def s3_ideas(state, rules, seat, log):
    """CE-T7.3: with s >= 1 sixes the active player gains first_six_idea ideas then moves
    own_steps_per_extra_six * (s - 1) steps; every other player, clockwise, moves
    others_steps_per_six * s steps (CE-T7.4; CE-AMB-31 order)."""
    s = state[L.S_SIXES]
    if s == 0:
        return
    n = state[L.S_N_PLAYERS]
    got = 0
    for _ in range(int(rules[R.R_FIRST_SIX_IDEA])):
        got += gain_idea(state, rules, seat)
    if log.shape[0] > 1:
        b = seat_base(seat)
        emit(log, L.EV_IDEA, seat, 0, state[b + L.F_IDEA_POS], state[b + L.F_IDEAS], got)
    idea_steps(state, rules, seat, int(rules[R.R_OWN_STEPS_PER_EXTRA_SIX]) * (s - 1), log)
    for j in range(1, n):
        idea_steps(state, rules, (seat + j) % n, int(rules[R.R_OTHERS_STEPS_PER_SIX]) * s, log)


@njit(cache=True)
def end_turn(state, rules, seat):
    """CE-T8 / CE-E1: the end is triggered once, at the end of a turn with income >=
    end_threshold; CE-E2: the game ends after seat N-1's turn (at once if ``finish_round`` is
    off). Otherwise the next seat clockwise."""
    n = state[L.S_N_PLAYERS]
    if state[L.S_END_TRIGGERED] == 0 and \
            state[seat_base(seat) + L.F_INCOME] >= int(rules[R.R_END_THRESHOLD]):
        state[L.S_END_TRIGGERED] = 1
        state[L.S_TRIGGER_SEAT] = seat
    if state[L.S_END_TRIGGERED] == 1 and (seat == n - 1 or rules[R.R_FINISH_ROUND] < 0.5):
        state[L.S_OVER] = 1
        return
    state[L.S_ACTIVE] = (seat + 1) % n
    if state[L.S_ACTIVE] == 0:
        state[L.S_ROUND] += 1
    state[L.S_PHASE] = L.PH_TURN


@njit(cache=True)
def begin_turn(state, seat, log):
    """Reset the turn context for ``seat``'s turn (W1 follows)."""
    b = seat_base(seat)
    state[L.S_TURNS] += 1
    state[b + L.F_TURNS] += 1
    state[L.S_COL] = -1
    state[L.S_REST_USED] = 0
    state[L.S_SPECIAL_USED] = 0
    state[L.S_MAIN_DONE] = 0
    state[L.S_DISC_DONE] = 0
    state[L.S_N_TASKS] = 0
    state[L.S_TASK_POS] = 0
    state[L.S_WINDOW] = 1
    state[L.S_PHASE] = L.PH_FREE
    if log.shape[0] > 1:
        emit(log, L.EV_TURN, seat, state[L.S_ROUND], state[b + L.F_INCOME],
             state[b + L.F_PRODUCTION], state[b + L.F_SALES])


# ==== the step machine (sim.decide) ============================================================
@njit(cache=True)
def list_options(state, rules, comp, ph, seat, log):
    """List the options of the decision at control position ``ph`` for ``seat``; with none,
    move on to where play goes on and return 0."""
    n = 0
    if ph == L.PH_START_DISC:
        c = state[L.S_CURSOR]
        if c // 2 < state[L.S_N_PLAYERS] and state[L.S_DEALT + c] >= 0:
            n = list_start_disc(state, comp)
        if n == 0:
            _next_start_disc(state, rules)
    elif ph == L.PH_INIT_MENU:
        n = list_init_menu(state)
        if n == 0:
            if seat == 0:
                state[L.S_PHASE] = L.PH_TURN
            else:
                state[L.S_CURSOR] = seat - 1
    elif ph == L.PH_FREE:
        n = list_free(state, rules, comp, seat)
    elif ph == L.PH_MENU:
        n = list_menu(state, seat)
        if n == 0:
            state[L.S_PHASE] = state[L.S_RETURN]
    elif ph == L.PH_REST:
        n = list_rest(state, rules, comp, seat)
        if n == 0:
            state[L.S_PHASE] = L.PH_FREE
    elif ph == L.PH_REST_DIE:
        n = list_rest_die(state, rules, comp, seat)
        if n == 0:
            state[L.S_PHASE] = L.PH_FREE
    elif ph == L.PH_SPECIAL:
        n = list_special(state, rules, comp, seat)
        if n == 0:
            state[L.S_PHASE] = L.PH_FREE
    elif ph == L.PH_MOVE_DIE:
        n = list_move_die(state, rules, comp, seat)
        if n == 0:
            state[L.S_PHASE] = L.PH_FREE
    elif ph == L.PH_MORE:
        n = list_more(state, rules, comp, seat)
    elif ph == L.PH_MOVE_TO:
        n = list_move_to(state, comp, seat)
        if n == 0:
            state[L.S_PHASE] = L.PH_FREE
    elif ph == L.PH_ACTIVATE:
        n = list_activate(state, rules, comp, seat)
        if n == 0:      # CE-AMB-13 with allow_level0_activation off: nothing activated
            state[L.S_WINDOW] = 2
            state[L.S_PHASE] = L.PH_FREE
    elif ph == L.PH_S1:
        n = list_s1(state, rules, seat)
    elif ph == L.PH_OVERFLOW:
        n = list_overflow(state, comp, seat)
        if n == 0:
            s3_ideas(state, rules, seat, log)
            state[L.S_WINDOW] = 3
            state[L.S_PHASE] = L.PH_FREE
    return n


@njit(cache=True)
def decision_point(ph):
    """The decision point D_* of control position ``ph`` (PH_TASK: see ``list_task``)."""
    if ph == L.PH_START_DISC:
        return L.D_START_DISC
    if ph == L.PH_INIT_MENU:
        return L.D_INIT_MENU
    if ph == L.PH_FREE:
        return L.D_FREE
    if ph == L.PH_MENU:
        return L.D_MENU
    if ph == L.PH_REST:
        return L.D_REST
    if ph == L.PH_REST_DIE:
        return L.D_REST_DIE
    if ph == L.PH_SPECIAL:
        return L.D_SPECIAL
    if ph == L.PH_MOVE_DIE:
        return L.D_MOVE_DIE
    if ph == L.PH_MOVE_TO:
        return L.D_MOVE_TO
    if ph == L.PH_MORE:
        return L.D_MORE
    if ph == L.PH_ACTIVATE:
        return L.D_ACTIVATE
    if ph == L.PH_S1:
        return L.D_S1
    return L.D_OVERFLOW


@njit(cache=True)
def _apply(state, rules, comp, seat, dp, code, log):
    """Carry out option ``code`` of decision ``dp`` taken by ``seat``."""
    if dp == L.D_START_DISC:
        c = state[L.S_CURSOR]
        t = state[L.S_DEALT + c]
        place_disc(state, comp, c // 2, t, code, 0, log)
        _next_start_disc(state, rules)
    elif dp == L.D_INIT_MENU:
        initial_menu(state, rules, seat, code, log)
    elif dp == L.D_FREE:
        free_action(state, code)
    elif dp == L.D_MENU:
        create_menu(state, rules, seat, code, log)
        state[L.S_PHASE] = state[L.S_RETURN]
    elif dp == L.D_REST:
        start_rest(state, rules, seat, code, log)
    elif dp == L.D_REST_DIE:
        rest_die(state, rules, seat, code, log)
    elif dp == L.D_SPECIAL:
        special_action(state, rules, comp, seat, code, log)
    elif dp == L.D_MOVE_DIE:
        state[L.S_MOVE_FROM] = code
        state[L.S_PHASE] = L.PH_MOVE_TO
    elif dp == L.D_MORE:
        state[L.S_PHASE] = L.PH_FREE if code == L.STOP else state[L.S_MORE_PHASE]
    elif dp == L.D_MOVE_TO:
        move_to(state, rules, seat, code, log)
    elif dp == L.D_ACTIVATE:
        activate(state, comp, seat, code, log)
    elif dp == L.D_S1:
        s1_step(state, rules, seat, code, log)
    elif dp == L.D_OVERFLOW:
        overflow(state, seat, code, log)
    elif dp == L.D_ROLL:   # a chance point (tests): the die shows face ``code``
        ce_t7_die_shows(state, seat, state[L.S_CURSOR], code, log)
    else:   # a task of the S1 queue
        do_task(state, rules, comp, seat, state[L.S_TASK], code, log)
        state[L.S_TASK_POS] += 1


@njit(cache=True)
def _decider(state, ph):
    """The seat deciding at control position ``ph``: the setup cursor's seat, else the active
    seat."""
    if ph == L.PH_START_DISC:
        return state[L.S_CURSOR] // 2
    if ph == L.PH_INIT_MENU:
        return state[L.S_CURSOR]
    return state[L.S_ACTIVE]


@njit(cache=True)
def _steps(state, rules, comp, log, turn_stop, self_play, chance=False):
    """The step machine from the control position S_PHASE: play the forced steps up to the
    next decision, post it and return 1; 0 once the game is over. With ``turn_stop`` it also
    returns 2 when a turn is over (CE-T8), before the next begins.

    With ``self_play`` (the game loop, ``playout``) a decision with a single option is taken
    at once and only those with two or more are posted. Without it every decision is posted,
    whatever its number of options (one: a forced decision, which ``advance`` takes with
    option 0; an S1 task that is no decision, point 0 of ``list_task``, is done at once),
    and so is a decision point the rules reach with no legal option, posted with
    n = 0 once the rules' fallback is played (the caller only passes it): an S1 task part that
    cannot be done (an empty supply, no legal slot: skipped, section 5 of the rules) and an
    activation with no column to activate (CE-AMB-13 with ``allow_level0_activation`` off).
    The other empty lists are not decisions but the end of a sequence (the menu, the rest
    or the move of a die done, no overflow). ``sim.tracing`` counts them (``advance_all``).

    With ``chance`` (tests and tools only) each S3 die about to roll is posted as the chance
    point D_ROLL (options: the faces 1..6) and the answer rolls it; without it (every
    production path) the dice draw from the dice stream as they roll (CE-T7).
    The production loops leave ``chance`` out: compiled with its default (False) as a
    constant, their roll loops carry no test for it (``sim.decide``)."""
    while True:
        if state[L.S_OVER] == 1:
            if state[L.S_PHASE] != L.PH_OVER:
                _game_over(state, rules, log)
            return 0
        ph = state[L.S_PHASE]
        seat = _decider(state, ph)
        if ph == L.PH_TURN:
            if state[L.S_ROUND] > int(rules[R.R_MAX_ROUNDS]):    # CE-E4
                state[L.S_TRUNCATED] = 1
                state[L.S_OVER] = 1
                if log.shape[0] > 1:
                    emit(log, L.EV_TRUNCATED, state[L.S_ROUND])
                continue
            begin_turn(state, seat, log)
            continue
        if ph == L.PH_S2:
            s2_income_and_goals(state, rules, comp, seat, log)
            s3_begin(state)
            continue
        if ph == L.PH_S3:
            if s3_roll(state, seat, log, chance):
                return 1
            continue
        if ph == L.PH_END_TURN:
            end_turn(state, rules, seat)
            if turn_stop and state[L.S_OVER] == 0:
                return 2
            continue
        if ph == L.PH_TASK:
            if state[L.S_TASK_POS] >= state[L.S_N_TASKS]:
                state[L.S_N_TASKS] = 0
                state[L.S_TASK_POS] = 0
                state[L.S_PHASE] = L.PH_S1
                continue
            task = state[L.S_TASKS + state[L.S_TASK_POS]]
            state[L.S_TASK] = task
            n, dp = list_task(state, rules, comp, seat, task)
            if n == 0:
                state[L.S_TASK_POS] += 1
                if not self_play and dp != 0:
                    return _post(state, seat, dp, 0)
                continue
        else:
            n = list_options(state, rules, comp, ph, seat, log)
            if n == 0:
                if ph == L.PH_ACTIVATE and not self_play:
                    return _post(state, seat, L.D_ACTIVATE, 0)
                continue
            dp = decision_point(ph)
        if n == 1 and (self_play or dp == 0):
            _apply(state, rules, comp, seat, dp, state[L.S_OPTIONS], log)
            continue
        return _post(state, seat, dp, n)


@njit(cache=True)
def advance(state, rules, comp, log):
    """Play the forced steps up to the next decision with two or more legal options (listed in
    the options block) and return 1; 0 once the game is over (``sim.decide``). A decision
    with one legal option is taken here (option 0), one with none passed. With a decision
    pending: 1, nothing changes."""
    return _advance(state, rules, comp, log, False, False)


@njit(cache=True)
def advance_turn(state, rules, comp, log, chance):
    """``advance`` that also stops when the active seat's turn is over (returns 2; the next
    call begins the next turn): tests and tools that look at one turn. With ``chance`` it
    also stops at each S3 die about to roll, posted as the chance point D_ROLL (the faces
    1..6; applying one rolls the die as showing it, CE-T7); without it the dice draw from the
    dice stream, as in ``advance``."""
    return _advance(state, rules, comp, log, True, chance)


@njit(cache=True)
def _advance(state, rules, comp, log, turn_stop, chance):
    """``advance`` (and with ``turn_stop``, ``advance_turn``): step to each posted decision,
    take the forced ones and pass those without options, stop at a real choice (or, with
    ``chance``, a chance point)."""
    while True:
        if state[L.S_POINT] != 0:
            n = state[L.S_N_OPTIONS]
            if n >= 2:
                return 1
            if n == 1:
                apply_option(state, rules, comp, np.int64(0), log)
            else:
                state[L.S_POINT] = 0
        r = _steps(state, rules, comp, log, turn_stop, False, chance)
        if r != 1:
            return r


@njit(cache=True)
def advance_all(state, rules, comp, log):
    """``advance`` that stops at every decision the rules pose (``sim.decide``): 1 with it
    posted, whatever its number of options n; n = 0 (no legal option, the rules' fallback
    played): the next call passes it and goes on; 0 once the game is over."""
    if state[L.S_POINT] != 0:
        if state[L.S_N_OPTIONS] > 0:
            return 1
        state[L.S_POINT] = 0
    return _steps(state, rules, comp, log, False, False, False)   # as advance's: one compiled loop for both


@njit(cache=True)
def apply_option(state, rules, comp, index, log):
    """Carry out option ``index`` of the pending decision (``sim.decide``); False (and no
    change) when no decision is pending or ``index`` is out of range."""
    dp = state[L.S_POINT]
    if dp == 0 or index < 0 or index >= state[L.S_N_OPTIONS]:
        return False
    state[L.S_POINT] = 0
    state[L.S_N_OPTIONS] = 0
    _apply(state, rules, comp, state[L.S_DECIDER], dp, state[L.S_OPTIONS + index], log)
    return True


@njit(cache=True)
def choose(state, rules, comp, kinds, pparams, work):
    """The deciding seat's policy: an index into the pending options (``sim.decide``).
    K_RANDOM: uniform (SUB_POLICY stream in the state); K_GREEDY and its presets:
    ``policies.greedy`` with the seat's policy parameters."""
    seat = state[L.S_DECIDER]
    n = state[L.S_N_OPTIONS]
    if kinds[seat] == L.K_GREEDY:
        return greedy(state, rules, comp, pparams[seat], seat, state[L.S_POINT], n)
    return random_index(state, L.S_RNG_P, n)


# ==== the end (CE-E3, CE-E4) and entry points ================================================
@njit(cache=True)
def final_score(state, rules, p):
    """The final score of seat ``p``: its income plus its ``end_bonus_points`` (added once the
    game is over, so the bonus never triggers the end, CE-E1)."""
    return state[seat_base(p) + L.F_INCOME] + np.int64(rules[R.R_END_BONUS_POINTS + 1 + p])


@njit(cache=True)
def beats(state, rules, p, q):
    """CE-E3: True if seat ``p`` ranks above ``q``: final score (income + end bonus), then
    customers, then own shops on the board."""
    bp, bq = seat_base(p), seat_base(q)
    sp, sq = final_score(state, rules, p), final_score(state, rules, q)
    if sp != sq:
        return sp > sq
    cp, cq = customers(state, bp), customers(state, bq)
    if cp != cq:
        return cp > cq
    return shops_on_board(state, p) > shops_on_board(state, q)


@njit(cache=True)
def final_rank(state, rules, p):
    """CE-E3: 1 + the seats ranking above ``p`` (ties share the rank)."""
    r = 1
    for q in range(state[L.S_N_PLAYERS]):
        if q != p and beats(state, rules, q, p):
            r += 1
    return r


@njit(cache=True)
def winners(state, rules):
    """(n_winners, winner_seat) of CE-E3; winner_seat = -1 when the win is shared."""
    nw = 0
    ws = -1
    for p in range(state[L.S_N_PLAYERS]):
        if final_rank(state, rules, p) == 1:
            nw += 1
            ws = p
    return nw, (ws if nw == 1 else -1)


@njit(cache=True)
def _game_over(state, rules, log):
    """The game is over (CE-E2 or CE-E4): no decision is pending any more."""
    state[L.S_PHASE] = L.PH_OVER
    state[L.S_POINT] = 0
    state[L.S_N_OPTIONS] = 0
    if log.shape[0] > 1:
        nw, ws = winners(state, rules)
        emit(log, L.EV_END, state[L.S_TRIGGER_SEAT], state[L.S_ACTIVE], ws, nw,
             state[L.S_TRUNCATED])


@njit(cache=True)
def finish(state, rules, comp, games_row, seats_rows):
    """Fill the result rows of a finished game (``GO_*``, ``SO_*``)."""
    n = state[L.S_N_PLAYERS]
    nw, ws = winners(state, rules)
    games_row[L.GO_ROUNDS] = (state[L.S_TURNS] + n - 1) // n
    games_row[L.GO_TRUNCATED] = state[L.S_TRUNCATED]
    games_row[L.GO_N_WINNERS] = nw
    games_row[L.GO_WINNER_SEAT] = ws
    games_row[L.GO_END_REASON] = 1 if state[L.S_TRUNCATED] else 0    # SPEC.end_reasons
    games_row[L.GO_END_TRIGGER_SEAT] = -1 if state[L.S_TRUNCATED] else state[L.S_TRIGGER_SEAT]
    games_row[L.GO_TURNS] = state[L.S_TURNS]
    games_row[L.GO_GOALS_CLAIMED] = state[L.S_GOALS_CLAIMED]
    for g in range(L.N_STACKS):
        gid = state[L.S_GOAL + g]
        games_row[L.GO_GOAL_A + g] = gid - g * 5 if gid >= 0 else -1
    left = 0
    for h in range(L.N_HOUSES):
        if state[L.S_HOUSE + h] >= 0:
            left += 1
    games_row[L.GO_CUSTOMERS_LEFT] = left
    for p in range(n):
        b = seat_base(p)
        row = seats_rows[p]
        rank = final_rank(state, rules, p)
        row[L.SO_SCORE] = final_score(state, rules, p)
        row[L.SO_RANK] = rank
        row[L.SO_WON] = 1 if rank == 1 else 0
        row[L.SO_INCOME] = state[b + L.F_INCOME]
        row[L.SO_PRODUCTION] = state[b + L.F_PRODUCTION]
        row[L.SO_SALES] = state[b + L.F_SALES]
        row[L.SO_CUSTOMERS] = customers(state, b)
        row[L.SO_SHOPS_ON_BOARD] = shops_on_board(state, p)
        row[L.SO_BAKERIES] = int(rules[R.R_BAKERIES_PER_PLAYER]) - state[b + L.F_BAKERIES_RESERVE]
        row[L.SO_MENUS] = state[b + L.F_MENUS]
        g = 0
        for s in range(L.N_STACKS):
            g += (state[b + L.F_GOALS] >> s) & 1
        row[L.SO_GOALS] = g
        row[L.SO_GOAL_INCOME] = state[b + L.F_GOAL_INCOME]
        row[L.SO_IDEAS] = state[b + L.F_IDEAS]
        row[L.SO_IDEAS_GAINED] = state[b + L.F_IDEAS_GAINED]
        d = 0
        for i in range(L.N_COLS * L.MAX_SPACES):
            if state[b + L.F_DISC + i] >= 0:
                d += 1
        row[L.SO_DISCS] = d
        row[L.SO_DISCS_USED] = state[b + L.F_DISCS_USED]
        for k in range(L.N_COLS):
            row[L.SO_DICE_C1 + k] = dice_at(state, b, k)
            row[L.SO_ACTIVATIONS_C1 + k] = state[b + L.F_ACTIVATIONS + k]
        row[L.SO_DICE_REST] = dice_at(state, b, L.LOC_REST)
        row[L.SO_TURNS_TAKEN] = state[b + L.F_TURNS]
        row[L.SO_SALE_INCOME] = state[b + L.F_SALE_INCOME]
        row[L.SO_S2_INCOME] = state[b + L.F_S2_INCOME]
        row[L.SO_INCOME_PAID] = state[b + L.F_INCOME_PAID]
        row[L.SO_DISPLACED] = state[b + L.F_DISPLACED]


@njit(cache=True)
def _begin(rules, comp, n_players, master_seed, game_index, state, log):
    """Set game ``game_index`` of the run ``master_seed`` up in ``state`` with its streams."""
    rng_s = make_stream(master_seed, game_index, np.int64(SUB_SETUP))
    setup_game(state, rules, comp, n_players, rng_s, log)
    start_in(state, L.S_RNG_D, master_seed, game_index, np.int64(SUB_DICE))
    start_in(state, L.S_RNG_P, master_seed, game_index, np.int64(SUB_POLICY))


@njit(cache=True)
def new_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, log):
    """A new game set up for stepping (``sim.decide``): ``(state, work)``; the policies keep no
    per-game cache, so ``work`` is an empty placeholder."""
    state = np.zeros(state_size(n_players), dtype=np.int64)
    _begin(rules, comp, n_players, master_seed, game_index, state, log)
    return state, (np.zeros(1, dtype=np.float64),)


@njit(cache=True)
def _play(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, games_row,
          seats_rows, log):
    """Set up and play one game in the caller's ``state`` and write its rows, on borrowed views
    of the arguments (``sim.borrow``)."""
    _play_game(borrowed(rules), borrowed(comp), n_players, borrowed(kinds), borrowed(pparams),
               master_seed, game_index, borrowed(state), borrowed(games_row),
               borrowed(seats_rows), borrowed(log))


@njit(cache=True)
def _play_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, state,
               games_row, seats_rows, log):
    """The loop of ``sim.decide``: ``while advance: apply_option(choose)``."""
    _begin(rules, comp, n_players, master_seed, game_index, state, log)
    playout(state, rules, comp, kinds, pparams, (pparams[0],), log)
    finish(state, rules, comp, games_row, seats_rows)


@njit(cache=True)
def playout(state, rules, comp, kinds, pparams, work, log):
    """Play on from the current position to the end with the seats' policies, ``while
    advance: apply_option(choose)``: the game loop, and a search policy's rollouts
    (``sim.search``; ``work`` as ``new_game`` makes it, unused by the policies)."""
    while _steps(state, rules, comp, log, False, True):
        apply_option(state, rules, comp, choose(state, rules, comp, kinds, pparams, work), log)


@njit(cache=True)
def resample(state, rules, comp, seat, key):
    """Re-sample what ``seat`` cannot know, for a search policy's rollout (``sim.search``).

    Everything drawn at setup is open: the customers on the houses (CE-S1), the goal tiles
    (CE-S3) and the start discs (CE-S10) lie face up. The only hidden information is the dice
    not yet rolled (the S3 rolls of CE-T7, on the dice stream) and the random seats' draws:
    both streams restart from ``key`` (the search's stream)."""
    substream_in(state, L.S_RNG_D, key, SUB_DICE)
    substream_in(state, L.S_RNG_P, key, SUB_POLICY)


@njit(cache=True)
def play_one(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index,
             games_row, seats_rows, log):
    """Play game ``game_index`` of the run ``master_seed`` with an event log (replay)."""
    state = np.zeros(state_size(n_players), dtype=np.int64)
    _play(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index, state,
          games_row, seats_rows, log)


@njit(cache=True, nogil=True)
def play_many(rules, comp, n_players, policy_kind, policy_params, master_seed, first_index,
              games_out, seats_out):
    """Play games ``first_index + i`` for i < games_out.shape[0]; each writes only its rows
    ``games_out[i]`` and ``seats_out[i]``, directly. Games run in blocks of BLOCK_GAMES that
    reuse one state array; a game is a pure function of (seed, index). Serial and ``nogil``:
    ``sim.threads`` plays slices of the rows on threads."""
    n_games = games_out.shape[0]
    n_blocks = (n_games + BLOCK_GAMES - 1) // BLOCK_GAMES
    for blk in range(n_blocks):
        state = np.zeros(state_size(n_players), dtype=np.int64)
        log = np.zeros((1, 8), dtype=np.int64)
        lo = blk * BLOCK_GAMES
        hi = min(lo + BLOCK_GAMES, n_games)
        for i in range(lo, hi):
            _play(rules, comp, n_players, policy_kind, policy_params, master_seed,
                  first_index + i, state, games_out[i], seats_out[i], log)
