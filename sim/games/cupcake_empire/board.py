"""Cupcake Empire queries shared by the rules and the policies (jitted, read-only).

Levels (§2.2), buildings and reach (CE-A4.2), serving (§2.5) and goal conditions (§8). ``comp``
is the tuple of ``rules.load_components``: ``(columns, regions, supply, goals, misc)``.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import rules as R

no_refcount_module(__name__)
no_wraparound_module(__name__)

PAIR_A = tuple(a for a, b in R.FROST_PAIRS)
PAIR_B = tuple(b for a, b in R.FROST_PAIRS)


@njit(cache=True)
def seat_base(seat):
    """Offset of ``seat``'s block in the state."""
    return L.SEAT0 + seat * L.SEAT_LEN


@njit(cache=True)
def dice_at(state, b, loc):
    """Number of dice of the seat at ``b`` in location ``loc`` (column 0..4 or the rest area)."""
    t = 0
    for c in range(L.N_COLOURS):
        t += state[b + L.F_DICE + loc * L.N_COLOURS + c]
    return t


@njit(cache=True)
def room(state, cols, b, k):
    """Free capacity of column ``k`` (CE-AMB-03)."""
    return cols[k, L.CD_CAPACITY] - dice_at(state, b, k)


@njit(cache=True)
def level_of(cols, k, n, e):
    """L_avail of column ``k`` with ``n`` dice of which ``e`` experts: ``min(M_k, base + e)``,
    base = thresholds reached (§2.2, CE-AMB-01)."""
    base = 0
    for i in range(cols[k, L.CD_N_THRESH]):
        if cols[k, L.CD_THRESH + i] <= n:
            base += 1
    return min(cols[k, L.CD_MAX_LEVEL], base + e)


@njit(cache=True)
def experts(state, cols, b, k):
    """Dice of column ``k`` whose colour is the column's colour or pink (a pink die once)."""
    e = state[b + L.F_DICE + k * L.N_COLOURS + L.PINK]
    if cols[k, L.CD_COLOUR] != L.PINK:
        e += state[b + L.F_DICE + k * L.N_COLOURS + cols[k, L.CD_COLOUR]]
    return e


@njit(cache=True)
def l_avail(state, cols, b, k):
    """L_avail(k) of the seat at ``b`` now (§2.2, CE-T1)."""
    return level_of(cols, k, dice_at(state, b, k), experts(state, cols, b, k))


@njit(cache=True)
def is_expert(cols, k, c):
    """True if a die of colour ``c`` is an expert in column ``k``."""
    return c == L.PINK or cols[k, L.CD_COLOUR] == c


@njit(cache=True)
def column_of_colour(cols, c):
    """The column whose colour is ``c`` (CE-S7), -1 for grey."""
    for k in range(L.N_COLS):
        if cols[k, L.CD_COLOUR] == c:
            return k
    return -1


@njit(cache=True)
def free_space(state, cols, b, k, t):
    """First empty disc space of column ``k`` for a disc of type ``t``; -1 if the column is
    full or already holds type ``t`` (CE-X3, CE-X4)."""
    first = -1
    for p in range(cols[k, L.CD_SPACES]):
        d = state[b + L.F_DISC + k * L.MAX_SPACES + p]
        if d == t:
            return -1
        if d < 0 and first < 0:
            first = p
    return first


@njit(cache=True)
def menu_mask(bk, fk):
    """Bit t = customer type ``pants * 4 + shirt`` served by a menu of base kind ``bk`` and
    frosting kind ``fk`` (§2.5)."""
    m = 0
    for pants in range(2):
        if bk != 2 and bk != pants:
            continue
        for shirt in range(4):
            if fk < L.FR_SIMPLE:
                ok = fk == shirt
            else:
                ok = PAIR_A[fk - L.FR_SIMPLE] == shirt or PAIR_B[fk - L.FR_SIMPLE] == shirt
            if ok:
                m |= 1 << (pants * 4 + shirt)
    return m


@njit(cache=True)
def has_building(state, seat, r):
    """True if ``seat`` has a bakery or a shop in region ``r`` (CE-A4.2 step 1); every slot is
    read, without branches."""
    mine = False
    for i in range(L.MAX_SLOTS):
        mine |= (state[L.S_BAKERY + r * L.MAX_SLOTS + i] == seat) | \
            (state[L.S_SHOP + r * L.MAX_SLOTS + i] == seat)
    return mine


@njit(cache=True)
def shops_in(state, seat, r):
    """Own shops of ``seat`` in region ``r``."""
    t = 0
    for i in range(L.MAX_SLOTS):
        if state[L.S_SHOP + r * L.MAX_SLOTS + i] == seat:
            t += 1
    return t


@njit(cache=True)
def bakeries_in(state, seat, r):
    """Own bakeries of ``seat`` in region ``r``."""
    t = 0
    for i in range(L.MAX_SLOTS):
        if state[L.S_BAKERY + r * L.MAX_SLOTS + i] == seat:
            t += 1
    return t


@njit(cache=True)
def shops_on_board(state, seat):
    """Own shops on the city board (CE-E3 tie-break, goal C1)."""
    t = 0
    for r in range(L.N_REGIONS):
        t += shops_in(state, seat, r)
    return t


@njit(cache=True)
def customers(state, b):
    """Customers in the customer area of the seat at ``b``."""
    t = 0
    for i in range(3):
        t += state[b + L.F_CUST_VAL + i]
    return t


@njit(cache=True)
def _buildings_by_kind(state, regions, seat, kind, bakeries):
    """Own bakeries (or shops) of ``seat`` in the regions of ``kind`` (goals C3-C5)."""
    t = 0
    for r in range(L.N_REGIONS):
        if regions[r, L.RD_KIND] == kind:
            t += bakeries_in(state, seat, r) if bakeries else shops_in(state, seat, r)
    return t


@njit(cache=True)
def _disc_stats(state, b, t1, t2, which):
    """D goals (§8): 1 max discs in a column, 2 total, 3 distinct types, 4 columns with >= t2
    discs, 5 types with >= t2 copies."""
    total = 0
    best = 0
    cols2 = 0
    types = 0
    types2 = 0
    for k in range(L.N_COLS):
        n = 0
        for p in range(L.MAX_SPACES):
            if state[b + L.F_DISC + k * L.MAX_SPACES + p] >= 0:
                n += 1
        total += n
        best = max(best, n)
        if n >= t2:
            cols2 += 1
    for t in range(L.N_DISC_TYPES):
        c = 0
        for k in range(L.N_COLS):
            for p in range(L.MAX_SPACES):
                if state[b + L.F_DISC + k * L.MAX_SPACES + p] == t:
                    c += 1
        if c > 0:
            types += 1
        if c >= t2:
            types2 += 1
    if which == 1:
        return best >= t1
    if which == 2:
        return total >= t1
    if which == 3:
        return types >= t1
    if which == 4:
        return cols2 >= t1
    return types2 >= t1


@njit(cache=True)
def customer_goal(state, comp, b, gid, et, ev):
    """B goal ``gid`` (5..9, §8) for the seat at ``b``, counting one more customer of type
    ``et`` and value ``ev`` when ``et >= 0`` (the greedy policy asks what a sale would do)."""
    goals = comp[3]
    t1 = goals[gid, L.GD_FIRST]
    t2 = goals[gid, L.GD_SECOND]
    g = gid % 5
    if g == 0:
        return customers(state, b) + (1 if et >= 0 else 0) >= t1
    if g == 1:
        plain = 0
        choc = 0
        for s in range(4):
            plain += state[b + L.F_CUST + s] + (1 if et == s else 0)
            choc += state[b + L.F_CUST + 4 + s] + (1 if et == 4 + s else 0)
        return plain >= t1 and choc >= t2
    if g == 2:
        shirts = 0
        for s in range(4):
            if (state[b + L.F_CUST + s] + state[b + L.F_CUST + 4 + s] > 0
                    or (et >= 0 and et % 4 == s)):
                shirts += 1
        return shirts >= t1
    v1 = state[b + L.F_CUST_VAL] + (1 if et >= 0 and ev == 1 else 0)
    v2 = state[b + L.F_CUST_VAL + 1] + (1 if et >= 0 and ev == 2 else 0)
    v3 = state[b + L.F_CUST_VAL + 2] + (1 if et >= 0 and ev == 3 else 0)
    if g == 3:
        return v1 >= t1 and v2 >= t2
    return v1 >= t1 and v3 >= t2


@njit(cache=True)
def goal_met(state, comp, seat, gid):
    """The condition of goal ``gid`` (0..19 = A1..D5, §8) for ``seat`` on the current state,
    with the thresholds of ``goals.csv``."""
    regions = comp[1]
    goals = comp[3]
    b = seat_base(seat)
    t1 = goals[gid, L.GD_FIRST]
    t2 = goals[gid, L.GD_SECOND]
    stack = gid // 5
    g = gid % 5
    if stack == 0:
        sf, sb = state[b + L.F_SS_FROST], state[b + L.F_SS_BASE]
        mf, mb = state[b + L.F_MX_FROST], state[b + L.F_MX_BASE]
        if g == 0:
            return sf >= t1
        if g == 1:
            return sb >= t1
        if g == 2:
            return sf >= t1 and mf >= t2
        if g == 3:
            return sb >= t1 and mb >= t2
        return mf >= t1 and mb >= t2
    if stack == 1:
        return customer_goal(state, comp, b, gid, -1, 0)
    if stack == 2:
        if g == 0:
            return shops_on_board(state, seat) >= t1
        if g == 1:
            n = 0
            for r in range(L.N_REGIONS):
                if shops_in(state, seat, r) > 0:
                    n += 1
            return n >= t1
        if g == 2:
            return (_buildings_by_kind(state, regions, seat, L.KIND_YELLOW, False) >= t1 and
                    _buildings_by_kind(state, regions, seat, L.KIND_BEIGE, False) >= t2)
        kind = L.KIND_YELLOW if g == 3 else L.KIND_BEIGE
        return (_buildings_by_kind(state, regions, seat, kind, True) >= t1 and
                _buildings_by_kind(state, regions, seat, kind, False) >= t2)
    return _disc_stats(state, b, t1, t2, g + 1)


@njit(cache=True)
def serves_house(served, t):
    """1 if house content ``t`` is a customer (t >= 0) of a type in ``served`` (a seat's
    F_SERVED mask, §2.5), else 0; without branches (an empty house's shift is masked), so a
    caller can multiply a value by it."""
    return (t >= 0) & ((served >> (t & 63)) & 1)
