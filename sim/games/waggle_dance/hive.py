"""Waggle Dance hive queries shared by the rules (``kernel.py``) and the policies.

Read-only questions about one player's hive tiles (§1.2 tile states) and the pure arithmetic
of an F move (WD-F3); nothing here changes the state.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import rules as R

no_refcount_module(__name__)
no_wraparound_module(__name__)


@njit(cache=True)
def seat_base(seat):
    """Offset of ``seat``'s block in the state (``SEAT0 + seat * SEAT_LEN``)."""
    return L.SEAT0 + seat * L.SEAT_LEN


@njit(cache=True)
def tile_cubes(state, b, t):
    """Cubes on tile ``t`` of the seat at ``b`` (all colours)."""
    s = 0
    for c in range(L.N_COL):
        s += state[b + L.F_CUBES + t * L.N_COL + c]
    return s


@njit(cache=True)
def tile_dice(state, b, t):
    """Dice on tile ``t`` this round (all values)."""
    s = 0
    for v in range(L.N_VAL):
        s += state[b + L.F_TDICE + t * L.N_VAL + v]
    return s


@njit(cache=True)
def holds_pollen(state, b, t):
    """True if tile ``t`` may hold cubes: not HONEY and no egg (§1.2, WD-QA5)."""
    return state[b + L.F_TILE_HONEY + t] == 0 and state[b + L.F_EGG + t] == 0


@njit(cache=True)
def room(state, rules, b, t):
    """Free cube space on tile ``t``: 0 unless it is an eligible pollen tile (§1.2, WD-D7)."""
    if not holds_pollen(state, b, t):
        return 0
    return int(rules[R.R_TILE_POLLEN_CAPACITY]) - tile_cubes(state, b, t)


@njit(cache=True)
def free_capacity(state, rules, b):
    """Free cube space over the whole hive (WD-D7)."""
    s = 0
    for t in range(state[b + L.F_N_TILES]):
        s += room(state, rules, b, t)
    return s


@njit(cache=True)
def has_room(state, rules, b):
    """True if a tile of the hive has free cube space (``free_capacity`` > 0, WD-D7)."""
    for t in range(state[b + L.F_N_TILES]):
        if room(state, rules, b, t) > 0:
            return True
    return False


@njit(cache=True)
def is_empty_tile(state, b, t):
    """EMPTY: no egg, no cubes, not honey (WD-C1); dice on it do not matter."""
    return holds_pollen(state, b, t) and tile_cubes(state, b, t) == 0


@njit(cache=True)
def hive_cubes(state, b):
    """Cubes in the whole hive (the WD-V3 tie-break)."""
    s = 0
    for t in range(state[b + L.F_N_TILES]):
        s += tile_cubes(state, b, t)
    return s


@njit(cache=True)
def colour_in_hive(state, b, c):
    """Cubes of colour ``c`` in the whole hive."""
    s = 0
    for t in range(state[b + L.F_N_TILES]):
        s += state[b + L.F_CUBES + t * L.N_COL + c]
    return s


@njit(cache=True)
def eggs_in_hive(state, b):
    """Eggs on the seat's tiles."""
    s = 0
    for t in range(state[b + L.F_N_TILES]):
        s += state[b + L.F_EGG + t]
    return s


@njit(cache=True)
def honey_colour(state, rules, b, t):
    """WD-F4: the colour tile ``t`` can turn into honey (>= pollen_per_honey cubes of one
    colour and no other cube), else -1."""
    if not holds_pollen(state, b, t):
        return -1
    best = -1
    for c in range(L.N_COL):
        k = state[b + L.F_CUBES + t * L.N_COL + c]
        if k > 0:
            if best >= 0:
                return -1
            best = c
    if best >= 0 and state[b + L.F_CUBES + t * L.N_COL + best] >= int(rules[R.R_POLLEN_PER_HONEY]):
        return best
    return -1


@njit(cache=True)
def gather_split(state, rules, b, x, y, c):
    """WD-F3 canonical split "gather colour ``c`` on tile ``x``" of the cubes of x and y:
    x takes as many ``c`` as fit, y keeps the rest of ``c`` and takes the other colours as far
    as its room allows, the rest of them stays on x.

    Returns
    -------
    (xc, yc, others_to_y, others_on_x): cubes of ``c`` on x and y, and other-colour cubes on
    y and x afterwards.
    """
    cap = int(rules[R.R_TILE_POLLEN_CAPACITY])
    tc = state[b + L.F_CUBES + x * L.N_COL + c] + state[b + L.F_CUBES + y * L.N_COL + c]
    o = tile_cubes(state, b, x) + tile_cubes(state, b, y) - tc
    xc = min(cap, tc)
    yc = tc - xc
    oy = min(o, cap - yc)
    return xc, yc, oy, o - oy


@njit(cache=True)
def tile_contents(state, b, t):
    """Tile ``t``'s cubes, egg and honey packed in one int64 below 2**26: cubes of colour c in
    4 bits from bit 4c (at most tile_pollen_capacity <= 8), the egg bit 24, the honey bit 25.
    Two tiles hold the same iff their packings are."""
    k = state[b + L.F_EGG + t] << 24 | state[b + L.F_TILE_HONEY + t] << 25
    for c in range(L.N_COL):
        k |= state[b + L.F_CUBES + t * L.N_COL + c] << (4 * c)
    return k


DICE_BIT = 26                     # a tile_key's dice start above its tile_contents
CONTENTS = (1 << DICE_BIT) - 1    # the bits of a tile_key that hold its tile_contents


@njit(cache=True)
def tile_key(state, b, t):
    """Everything that tells tile ``t`` apart (``tile_contents`` and this round's dice) packed in
    one int64: the dice of value v+1 in 5 bits from bit 26 + 5v (at most dice_per_player <= 30,
    plus the volunteer die). Two tiles are identical iff their keys are (§9.1: options that
    lead to the same position up to the order of the tiles are listed once)."""
    k = tile_contents(state, b, t)
    for v in range(L.N_VAL):
        k |= state[b + L.F_TDICE + t * L.N_VAL + v] << (DICE_BIT + 5 * v)
    return k


@njit(cache=True)
def rekey(state, b, t):
    """Record tile ``t``'s ``tile_key`` in F_TKEY after a change to the tile: the rules call it
    wherever a tile's cubes, egg, honey side or dice change (a new tile is empty, key 0), so
    the listings (§9.1) and the policies read one key a tile instead of packing its fields;
    the seat's distinct tiles (F_FIRST) are worked out again at the next listing."""
    state[b + L.F_TKEY + t] = tile_key(state, b, t)
    state[b + L.F_FIRST] = 0


@njit(cache=True)
def flower_dice(state, f, p, adj_seat, adj):
    """Dice of seat ``p`` on flower ``f``, plus ``adj`` if ``p`` is ``adj_seat`` (a what-if
    count for the policies; ``adj_seat = -1`` for the real count)."""
    k = state[L.S_FLOWER + f * L.MAX_PLAYERS + p]
    return k + adj if p == adj_seat else k


@njit(cache=True)
def majority_owed(state, rules, f, seat, adj_seat=-1, adj=0):
    """WD-D1 .. WD-D4: cubes ``seat`` is owed on flower ``f`` (before the supply cap), and its
    place (1 first, 2 second, 0 none); ``adj`` dice added to ``adj_seat`` (``flower_dice``)."""
    n = state[L.S_N_PLAYERS]
    mine = flower_dice(state, f, seat, adj_seat, adj)
    if mine == 0:
        return 0, 0
    m1 = 0
    for p in range(n):
        m1 = max(m1, flower_dice(state, f, p, adj_seat, adj))
    m2 = 0
    t1 = 0
    t2 = 0
    for p in range(n):
        x = flower_dice(state, f, p, adj_seat, adj)
        if x == m1:
            t1 += 1
        elif x > m2:
            m2 = x
    for p in range(n):
        if m2 > 0 and flower_dice(state, f, p, adj_seat, adj) == m2:
            t2 += 1
    if mine == m1:
        if t1 == 1:
            return int(rules[R.R_MAJORITY_FIRST_PAYOUT]), 1
        return int(rules[R.R_MAJORITY_TIED_FIRST_PAYOUT]), 1
    if mine == m2:
        if t1 > 1 and rules[R.R_PAY_SECOND_WHEN_FIRST_TIED] < 0.5:
            return 0, 2
        if t2 == 1:
            return int(rules[R.R_MAJORITY_SECOND_PAYOUT]), 2
        return int(rules[R.R_MAJORITY_TIED_SECOND_PAYOUT]), 2
    return 0, 0


@njit(cache=True)
def card_flip_ok(state, rules, b, t, kind):
    """WD-F7, WD-I18, WD-Q7: can tile ``t`` turn into honey with Efficiency (kind 1: at least
    ``efficiency_cubes`` of one colour, the other cubes go back too), Alchemy (kind 2: at
    least ``pollen_per_honey`` cubes of 2 .. ``alchemy_max_colours`` colours) or both (kind 3:
    the ``alchemy_max_colours`` biggest colours hold ``efficiency_cubes``)?"""
    if not holds_pollen(state, b, t):
        return False
    k = int(rules[R.R_ALCHEMY_MAX_COLOURS])
    top = 0
    colours = 0
    total = 0
    best = 0
    used = 0                        # bit c: colour c counted among the k biggest
    for c in range(L.N_COL):
        x = state[b + L.F_CUBES + t * L.N_COL + c]
        total += x
        if x > 0:
            colours += 1
        best = max(best, x)
    for _ in range(k):
        m = 0
        mc = -1
        for c in range(L.N_COL):
            x = state[b + L.F_CUBES + t * L.N_COL + c]
            if not (used >> c) & 1 and x > m:
                m = x
                mc = c
        if mc >= 0:
            used |= 1 << mc
            top += m
    if kind == 1:
        return best >= int(rules[R.R_EFFICIENCY_CUBES])
    if kind == 2:
        return 2 <= colours <= k and total >= int(rules[R.R_POLLEN_PER_HONEY])
    return top >= int(rules[R.R_EFFICIENCY_CUBES])
