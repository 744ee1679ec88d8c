"""Waggle Dance policies on the one decision interface (``sim.decide``).

``K_RANDOM`` (kind 0) is ``sim.decide.random_index``, in ``kernel.choose``. ``K_GREEDY`` (the
``greedy`` and ``honey_rush`` presets) scores every listed option of the pending decision with
a one-step heuristic of spec §9.3 and takes the best (the first on ties): placement by action
value (DP-04), eggs (DP-14), cube routing toward single-colour tiles (DP-16, DP-17), and pairs,
moves and flips that make honey (DP-18, DP-19), and queen cards (DP-01..03, DP-09..11, DP-15):
a card is played when its one-step value beats ``card_min_value`` (the value of passing). On
the own turn (DP-05..DP-08) a card that changes the placement is scored against the best plain
placement and is played when it beats it by ``turn_card_margin`` (``turn_card_value``).

With ``careful`` (on by default; off = the greedy of version 0.5) a die is valued by what it
will do at night. A slot die that will do nothing (``_slot_idle``: A with no tile left for it,
WD-A2; C with no egg left, no EMPTY tile to put it on, WD-C2, WD-C3, or no egg wanted, DP-14;
E with no trade greedy would make, DP-17; G with no card left to draw, WD-G2, WD-G3; judged from
the dice already on the card) is worth ``IDLE``, with the blocking bonus only where another
player could still use the slot. Feint (DP-08) is not played while another die of its value is
unplaced: placing that die at the new spot does the same and keeps the card (the die fed back
to the old spot was the habit). Wrong Turn (DP-09) counts the cubes it hands the opponent on
the flower the die is moved to.
Policies never change the state.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import options as O
from . import rules as R
from .hive import (CONTENTS, colour_in_hive, eggs_in_hive, free_capacity, gather_split,
                   holds_pollen, honey_colour, is_empty_tile, majority_owed, room, seat_base,
                   tile_cubes)

no_refcount_module(__name__)  # policies never own an array (sim.borrow)
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)

IDLE = -1.0     # careful: a slot die that will do nothing at night (a lone tile die is -0.3)


@njit(cache=True)
def _max_pure(state, b, t):
    """(colour, count) of the biggest colour on tile ``t`` and the cubes of other colours."""
    best, bc, tot = -1, 0, 0
    for c in range(L.N_COL):
        k = state[b + L.F_CUBES + t * L.N_COL + c]
        tot += k
        if k > bc:
            best, bc = c, k
    return best, bc, tot - bc


@njit(cache=True)
def _flower_gain(state, rules, seat, f):
    """DP-04: cubes one more die on flower ``f`` would add to ``seat``'s payout (WD-D2/D3),
    counting the dice placed so far."""
    n = state[L.S_N_PLAYERS]
    mine = state[L.S_FLOWER + f * L.MAX_PLAYERS + seat]
    top = 0
    for p in range(n):
        if p != seat:
            top = max(top, state[L.S_FLOWER + f * L.MAX_PLAYERS + p])
    return majority_gain(rules, mine, top)


@njit(cache=True, inline='always')
def majority_gain(rules, mine, top):
    """DP-04: cubes one more die adds to the payout of a seat with ``mine`` dice on a flower
    where the most an opponent has is ``top`` (WD-D2/D3; a second place counted at half)."""
    if mine + 1 > top:
        after = rules[R.R_MAJORITY_FIRST_PAYOUT]
    elif mine + 1 == top:
        after = rules[R.R_MAJORITY_TIED_FIRST_PAYOUT]
    else:
        after = rules[R.R_MAJORITY_SECOND_PAYOUT] * 0.5
    if mine == 0:
        return after
    if mine > top:
        before = rules[R.R_MAJORITY_FIRST_PAYOUT]
    elif mine == top:
        before = rules[R.R_MAJORITY_TIED_FIRST_PAYOUT]
    else:
        before = rules[R.R_MAJORITY_SECOND_PAYOUT] * 0.5
    return after - before


@njit(cache=True)
def _wants_eggs(state, pp, b):
    """DP-04 / DP-14: eggs are wanted (pool small, supply of dice left, few eggs waiting)."""
    return (state[b + L.F_POOL] < pp[R.P_EGG_IF_POOL_BELOW] and state[b + L.F_PERSONAL] > 0
            and eggs_in_hive(state, b) < pp[R.P_MAX_EGGS_WAITING]
            and state[b + L.F_HONEY] < pp[R.P_ENDGAME_HONEY_THRESHOLD])


@njit(cache=True)
def _same_hive(state, scr, seat):
    """True if ``seat``'s hive and dice (its tiles, their cubes, eggs and honey, its honey
    count, pool and personal supply: all that its free capacity, the links between its tiles, their ripeness
    and its slot values depend on) are the ones recorded in ``scr`` (``SCR_HIVE``; the tiles
    by ``tile_contents``, exact in a float64, read from the key the rules keep: F_TKEY) at its
    last placement decision; else records them. A zeroed scratch matches no hive."""
    b = seat_base(seat)
    k = L.SCR_HIVE + seat * L.HIVE_KEY
    nt = state[b + L.F_N_TILES]
    same = ((scr[k] == nt + 1) & (scr[k + 1] == state[b + L.F_POOL])
            & (scr[k + 2] == state[b + L.F_PERSONAL]) & (scr[k + 3] == state[b + L.F_HONEY]))
    scr[k] = nt + 1
    scr[k + 1] = state[b + L.F_POOL]
    scr[k + 2] = state[b + L.F_PERSONAL]
    scr[k + 3] = state[b + L.F_HONEY]
    for t in range(nt):                   # branch-free: compare and record every tile
        x = state[b + L.F_TKEY + t] & CONTENTS     # tile_contents, kept by the rules
        same &= scr[k + 4 + t] == x
        scr[k + 4 + t] = x
    return same


@njit(cache=True)
def _empty_cache(state, scr, seat):
    """Empty the placement cache ``scr`` (``SCR_*``) for a new placement decision of ``seat``.
    The tiles that hold a die waiting for its pair and the rivals for a slot, by value
    (``_waiting``, ``_cached_rivals``), and the value of a die on each slot card
    (``_slot_now``) are NaN until first asked for; so are the values that depend on the seat's hive and dice alone (its slot
    values, its free capacity, the links between its tiles, its tiles' values) if they
    changed since the seat's last placement decision (``_same_hive``): in a round's
    placements they do not."""
    nan = float("nan")
    for v in range(L.N_VAL):
        scr[L.SCR_WAIT_N + v] = nan
        scr[L.SCR_RIVALS + v] = nan
    for d in range(L.N_SLOTCARDS):
        scr[L.SCR_SLOT_NOW + d] = nan
    if _same_hive(state, scr, seat):
        return
    for d in range(L.DEST_FLOWER):
        scr[L.SCR_SLOT + seat * L.DEST_FLOWER + d] = nan
    scr[L.SCR_FREE_CAP + seat] = nan
    scr[L.SCR_TRADE_OK + seat] = nan
    scr[L.SCR_TRADE_COLOURS + seat * 3] = nan
    scr[L.SCR_EGG_ROOM + seat * 2] = nan
    o = seat * L.MAX_HIVE
    nt = state[seat_base(seat) + L.F_N_TILES]
    for t in range(nt):
        scr[L.SCR_TILE_PAIR + o + t] = nan
        scr[L.SCR_TILE_FIRST + o + t] = nan
        for u in range(nt):
            scr[_link_at(seat, t, u)] = nan


@njit(cache=True)
def _waiting(state, scr, seat, v):
    """DP-04, WD-F3: the tiles of ``seat`` that hold an odd number of dice of value v (a die
    waiting for its pair: only a die of value v completes a split pair with it), listed at
    ``SCR_WAIT + (v - 1) * MAX_HIVE`` once per decision; returns their number."""
    i = L.SCR_WAIT_N + v - 1
    if scr[i] != scr[i]:
        b = seat_base(seat)
        k = 0
        for t in range(state[b + L.F_N_TILES]):   # branch-free: write t, count it if its die waits
            scr[L.SCR_WAIT + (v - 1) * L.MAX_HIVE + k] = t
            k += state[b + L.F_TDICE + t * L.N_VAL + v - 1] & 1
        scr[i] = k
    return int(scr[i])


@njit(cache=True)
def _cached_free_capacity(state, rules, scr, seat):
    """``free_capacity`` of ``seat``'s hive, once per hive (``scr``)."""
    i = L.SCR_FREE_CAP + seat
    if scr[i] != scr[i]:
        scr[i] = free_capacity(state, rules, seat_base(seat))
    return scr[i]


@njit(cache=True)
def _cached_trade_ok(state, rules, scr, seat):
    """True if ``seat``'s hive holds trade_pollen_cost cubes of some colour (a trade on E can
    be paid), once per hive (``scr``)."""
    i = L.SCR_TRADE_OK + seat
    if scr[i] != scr[i]:
        b = seat_base(seat)
        scr[i] = 0.0
        for c in range(L.N_COL):
            if colour_in_hive(state, b, c) >= rules[R.R_TRADE_POLLEN_COST]:
                scr[i] = 1.0
                break
    return scr[i] == 1.0


@njit(cache=True, inline='always')
def _link_at(seat, t, u):
    """Where ``_link_value(t, u)`` of ``seat``'s tiles is kept in the scratch (SCR_LINK)."""
    return L.SCR_LINK + (seat * L.MAX_HIVE + t) * L.MAX_HIVE + u


@njit(cache=True)
def _cached_link(state, rules, scr, seat, t, u):
    """``_link_value(t, u)`` of ``seat``'s tiles, once per hive (``scr``): it does not depend on
    the die, nor on the order of t and u (a gather splits the two tiles' cubes by their sums,
    ``gather_split``), so both are filled."""
    i = _link_at(seat, t, u)
    if scr[i] != scr[i]:
        scr[i] = _link_value(state, rules, seat_base(seat), t, u)
        scr[_link_at(seat, u, t)] = scr[i]
    return scr[i]


@njit(cache=True)
def _ripe(state, rules, seat, t):
    """DP-04: (ripe, most) of ``seat``'s tile ``t``: the cubes of its biggest colour as a
    fraction of a honey (WD-F4), less a quarter per cube of another colour, and the cubes of
    that colour."""
    _, bc, other = _max_pure(state, seat_base(seat), t)
    return bc / rules[R.R_POLLEN_PER_HONEY] - 0.25 * other, bc


@njit(cache=True)
def _tile_pair(state, rules, pp, scr, seat, t):
    """DP-04, once per hive (``scr``): the value of a die on ``seat``'s pollen tile ``t`` that
    completes a pair there (WD-F6): ``w_pair`` times how ripe the tile is (``_ripe``), a fifth
    of it while its biggest colour is small."""
    i = L.SCR_TILE_PAIR + seat * L.MAX_HIVE + t
    if scr[i] != scr[i]:
        ripe, most = _ripe(state, rules, seat, t)
        big = most >= pp[R.P_HONEY_PAIR_MIN_SAME_COLOUR]
        scr[i] = pp[R.P_W_PAIR] * ripe if big else 0.2 * pp[R.P_W_PAIR] * ripe
    return scr[i]


@njit(cache=True)
def _tile_first(state, rules, pp, scr, seat, t):
    """DP-04, once per hive (``scr``): the value of a die on ``seat``'s pollen tile ``t`` as
    the first of a pair to come (a die of its value to spare): 0.4 ``w_pair`` times how ripe
    the tile is (``_ripe``) when its biggest colour is big enough, and, when the tile holds
    cubes, 0.3 ``w_pair`` times the best link to another tile with cubes the pair may gather
    from (WD-F3, ``_link_value``; the least link if that weight is negative): the better of
    the two, -1e18 if neither applies."""
    i = L.SCR_TILE_FIRST + seat * L.MAX_HIVE + t
    if scr[i] != scr[i]:
        b = seat_base(seat)
        ripe, most = _ripe(state, rules, seat, t)
        first = 0.4 * pp[R.P_W_PAIR] * ripe if most >= pp[R.P_HONEY_PAIR_MIN_SAME_COLOUR] else -1e18
        if holds_pollen(state, b, t) and most > 0:
            lo = hi = -1.0
            for u in range(state[b + L.F_N_TILES]):
                if u != t and holds_pollen(state, b, u) and tile_cubes(state, b, u) > 0:
                    x = _cached_link(state, rules, scr, seat, t, u)
                    lo = x if hi < 0.0 else min(lo, x)
                    hi = max(hi, x)
            w = 0.3 * pp[R.P_W_PAIR]
            if hi >= 0.0:       # w * link is highest at the best link (w >= 0), else the least
                first = max(first, w * (hi if w >= 0.0 else lo))
        scr[i] = first
    return scr[i]


@njit(cache=True, inline='always')
def _place_value_inline(state, rules, pp, seat, code, scr):
    """DP-04: value of placing a die of value v at a destination (§9.3 weights). ``scr``: the
    decision's cache (``_empty_cache``)."""
    b = seat_base(seat)
    v, dest = O.decode_place(code)
    if dest < L.DEST_FLOWER:
        if pp[R.P_CAREFUL] != 0.0:
            i = L.SCR_SLOT_NOW + dest
            if scr[i] != scr[i]:
                _slot_now(state, rules, pp, seat, dest, scr)
            if scr[L.SCR_BLOCK_NOW + dest] == 0.0:
                return scr[i]
            x = scr[i]
        else:
            x = _cached_slot_value(state, rules, pp, seat, dest, scr)
        return x + pp[R.P_BLOCK_WEIGHT] * _cached_rivals(state, scr, seat, v)
    if dest == L.DEST_FLOWER:
        g = _flower_gain(state, rules, seat, v - 1)
        if _cached_free_capacity(state, rules, scr, seat) == 0:
            g *= 0.2
        return pp[R.P_W_FLOWER] * g
    t = dest - L.DEST_TILE
    d = state[b + L.F_TDICE + t * L.N_VAL + v - 1]
    spare = state[b + L.F_UNPLACED + v - 1] >= 2
    if state[b + L.F_EGG + t]:
        if state[b + L.F_PERSONAL] == 0:
            return -0.5
        if d & 1:
            return pp[R.P_W_HATCH]
        return 0.3 * pp[R.P_W_HATCH] if spare and d == 0 else -0.2
    o = seat * L.MAX_HIVE          # the per-hive values are read here, worked out (a call) once
    if d & 1:                       # completes a pair on this tile (WD-F6)
        x = scr[L.SCR_TILE_PAIR + o + t]
        return x if x == x else _tile_pair(state, rules, pp, scr, seat, t)
    best = -0.3
    for k in range(_waiting(state, scr, seat, v)):    # a die of value v waits on tile u:
        u = int(scr[L.SCR_WAIT + (v - 1) * L.MAX_HIVE + k])  # a split pair with it (WD-F3)
        if u != t:
            x = scr[_link_at(seat, t, u)]
            if x != x:
                x = _cached_link(state, rules, scr, seat, t, u)
            best = max(best, 0.9 * pp[R.P_W_PAIR] * x)
    if spare:                                # first die of a pair to come
        x = scr[L.SCR_TILE_FIRST + o + t]
        best = max(best, x if x == x else _tile_first(state, rules, pp, scr, seat, t))
    return best


@njit(cache=True)
def _place_value(state, rules, pp, seat, code, scr):
    """``_place_value_inline`` as a function of its own, for the card plays' valuations
    (DP-05 .. DP-08), which call it from several places, and ``greedy_value``; greedy's scoring of the listed
    placements inlines it (Numba ``inline='always'``): it runs about 10,000 times a 4-player
    game."""
    return _place_value_inline(state, rules, pp, seat, code, scr)


@njit(cache=True)
def _link_value(state, rules, b, t, u):
    """DP-04/DP-18: 1 if a pair linking tiles t and u can gather a flip, else the best
    fraction of a honey tile a gather reaches (0 if the tiles cannot hold cubes)."""
    if not holds_pollen(state, b, t) or not holds_pollen(state, b, u):
        return 0.0
    best = 0.0
    for c in range(L.N_COL):
        xc, yc, oy, ox = gather_split(state, rules, b, t, u, c)
        if ox == 0 and xc >= rules[R.R_POLLEN_PER_HONEY]:
            return 1.0
        best = max(best, xc / rules[R.R_POLLEN_PER_HONEY] - 0.25 * ox)
    return 0.5 * best


@njit(cache=True)
def _rivals(state, seat, v):
    """Opponents that still hold an unplaced die of value ``v`` (block_weight, §9.3)."""
    k = 0
    for p in range(state[L.S_N_PLAYERS]):
        if p != seat and state[seat_base(p) + L.F_UNPLACED + v - 1] > 0:
            k += 1
    return k


@njit(cache=True)
def _cached_rivals(state, scr, seat, v):
    """``_rivals`` of value v, once per decision (``scr``): the same for the four slot cards."""
    i = L.SCR_RIVALS + v - 1
    if scr[i] != scr[i]:
        scr[i] = _rivals(state, seat, v)
    return scr[i]


@njit(cache=True)
def _slot_value(state, rules, pp, seat, dest, scr):
    """DP-04: value of a die on A, C, E or G (``dest``) for ``seat``; the same whatever its
    value (``scr``: the placement cache, emptied for ``seat`` by ``_empty_cache``)."""
    b = seat_base(seat)
    if dest == L.DEST_A:
        if (state[b + L.F_N_TILES] < pp[R.P_TARGET_HIVE_SIZE]
                and (_cached_free_capacity(state, rules, scr, seat)
                     < pp[R.P_BUILD_IF_FREE_CAPACITY_BELOW])
                and state[b + L.F_HONEY] < pp[R.P_ENDGAME_HONEY_THRESHOLD]):
            return pp[R.P_W_BUILD]
        return 0.1 * pp[R.P_W_BUILD]
    if dest == L.DEST_C:
        return pp[R.P_W_EGG] if _wants_eggs(state, pp, b) else -0.1
    if dest == L.DEST_E:
        return pp[R.P_W_TRADE] if _cached_trade_ok(state, rules, scr, seat) else 0.0
    return pp[R.P_W_DRAW]


@njit(cache=True)
def _cached_slot_value(state, rules, pp, seat, dest, scr):
    """``_slot_value`` of slot card ``dest``, once per hive (``scr``)."""
    i = L.SCR_SLOT + seat * L.DEST_FLOWER + dest
    if scr[i] != scr[i]:
        scr[i] = _slot_value(state, rules, pp, seat, dest, scr)
    return scr[i]


@njit(cache=True)
def _slot_now(state, rules, pp, seat, dest, scr):
    """DP-04 with ``careful``, once per decision: the value of a die of ``seat`` on slot card ``dest`` before its
    blocking bonus (``SCR_SLOT_NOW + dest``) and whether that bonus counts (``SCR_BLOCK_NOW +
    dest``) with ``careful``: the hive's ``_slot_value`` (once per hive), or ``IDLE`` where
    the die does nothing at night (``_slot_idle``), without the bonus where it does nothing
    for anyone."""
    idle = _slot_idle(state, rules, pp, seat, dest, scr)
    scr[L.SCR_SLOT_NOW + dest] = _cached_slot_value(state, rules, pp, seat, dest, scr) if idle == 0 else IDLE
    scr[L.SCR_BLOCK_NOW + dest] = 0.0 if idle == 2 else 1.0


@njit(cache=True)
def _slot_dice(state, card, seat):
    """(dice on slot card ``card``, those of ``seat``)."""
    taken = 0
    mine = 0
    for v in range(L.N_VAL):
        o = state[L.S_SLOT_OWNER + card * L.N_VAL + v]
        taken += o != 0
        mine += o == seat + 1
    return taken, mine


@njit(cache=True)
def _slot_idle(state, rules, pp, seat, dest, scr):
    """careful, DP-04: 2 if a die on slot card ``dest`` (A, C, E, G) would do nothing at night
    for anyone, 1 if for ``seat`` only, else 0; judged from the dice already on the card (they
    resolve first or alongside, WD-R13). A: no tile left for it (WD-A2). C: no egg left
    (WD-C3); for ``seat``: no egg wanted (greedy declines, DP-14) or no EMPTY tile left for it
    (WD-C2), counting the tiles its dice on A bring and its egg tiles that hatch at B, before C.
    E, for ``seat``: no trade greedy would make beyond those of its dice already there, one per
    colour it would buy that the supply holds (``_trade_colours``). G: no card left to draw (WD-G2); for ``seat``: a full hand (WD-G3)."""
    b = seat_base(seat)
    taken, mine = _slot_dice(state, dest, seat)
    if dest == L.DEST_A:
        return 2 if state[L.S_TILE_SUPPLY] <= taken * rules[R.R_TILES_PER_BUILD_DIE] else 0
    if dest == L.DEST_C:
        if state[L.S_EGG_SUPPLY] <= taken * rules[R.R_EGGS_PER_EGG_DIE]:
            return 2
        free, eggs = _egg_room(state, pp, scr, seat)
        if free < 0:
            return 1
        if eggs > 0 and state[b + L.F_PERSONAL] > 0:       # egg tiles that hatch at B
            for t in range(state[b + L.F_N_TILES]):
                if state[b + L.F_EGG + t]:
                    for v in range(L.N_VAL):
                        if state[b + L.F_TDICE + t * L.N_VAL + v] >= 2:
                            free += 1
                            break
        built = _slot_dice(state, L.CARD_A, seat)[1]
        free += min(built * rules[R.R_TILES_PER_BUILD_DIE], state[L.S_TILE_SUPPLY])
        return 1 if free <= mine * rules[R.R_EGGS_PER_EGG_DIE] else 0
    if dest == L.DEST_E:
        return e_idle(state, rules, pp, seat, scr, mine)
    return g_idle(state, rules, seat, taken, mine)


@njit(cache=True, inline='always')
def e_idle(state, rules, pp, seat, scr, mine):
    """``_slot_idle`` of E for ``seat`` with ``mine`` of its dice on E: 1 if no trade greedy
    would make is left (``_trade_colours``), else 0."""
    i = L.SCR_TRADE_COLOURS + seat * 3
    if scr[i] != scr[i]:
        _trade_colours(state, rules, pp, seat, scr)
    pollen = 0
    by_egg = 0
    for c2 in range(L.N_COL):
        if state[L.S_CUBE_SUPPLY + c2] > 0:
            pollen += (int(scr[i]) >> c2) & 1
            by_egg += (int(scr[i + 1]) >> c2) & 1
    return 1 if pollen + min(by_egg, scr[i + 2]) <= mine else 0


@njit(cache=True, inline='always')
def g_idle(state, rules, seat, taken, mine):
    """``_slot_idle`` of G with ``taken`` dice on G, ``mine`` of them the seat's: 2 if no card
    is left to draw (WD-G2), 1 if the seat's hand would be full (WD-G3), else 0."""
    cards = rules[R.R_CARDS_PER_DRAW_DIE]
    if state[L.S_DECK_N] - state[L.S_DECK_POS] <= taken * cards:
        return 2
    limit = rules[R.R_HAND_LIMIT]
    if limit > 0:
        held = 0
        b = seat_base(seat)
        for q in range(L.N_QUEEN):
            held += state[b + L.F_HAND + q]
        if held + mine * cards >= limit:
            return 1
    return 0


@njit(cache=True)
def _egg_room(state, pp, scr, seat):
    """careful, C: (EMPTY tiles of ``seat``, its egg tiles), once per hive (``scr``); (-1, 0)
    when it wants no egg (greedy declines, DP-14)."""
    i = L.SCR_EGG_ROOM + seat * 2
    if scr[i] != scr[i]:
        b = seat_base(seat)
        free = 0
        for t in range(state[b + L.F_N_TILES]):
            free += is_empty_tile(state, b, t)
        scr[i] = free if _wants_eggs(state, pp, b) else -1
        scr[i + 1] = eggs_in_hive(state, b)
    return int(scr[i]), int(scr[i + 1])


@njit(cache=True)
def _trade_colours(state, rules, pp, seat, scr):
    """careful, DP-17, once per hive: the colours ``seat``'s greedy would buy at E, a colour
    whose best trade (``_trade_value``) beats skipping: by a pollen trade, and only by an egg
    trade (6-bit masks at ``SCR_TRADE_COLOURS + seat * 3`` and ``+ 1``), and the egg trades
    its eggs pay for (``+ 2``). Whether the supply holds the colour is asked per decision."""
    b = seat_base(seat)
    _completions(state, rules, b, 1, scr)
    keen = state[b + L.F_POOL] >= pp[R.P_TRADE_EGG_WHEN_POOL_GE] or state[b + L.F_PERSONAL] == 0
    cost = rules[R.R_TRADE_POLLEN_COST]
    diff = rules[R.R_TRADE_REQUIRES_DIFFERENT_COLOUR] > 0.5
    egg_trades = eggs_in_hive(state, b) // int(rules[R.R_TRADE_EGG_COST])
    skip = _trade_value(L.TR_SKIP, keen, scr)
    pollen = 0
    by_egg = 0
    for c2 in range(L.N_COL):
        best = -1e18
        for c in range(L.N_COL):
            if (c != c2 or not diff) and scr[L.SCR_COLOUR + c] >= cost:
                best = max(best, _trade_value(O.encode_trade(c, c2), keen, scr))
        if best > skip:
            pollen |= 1 << c2
        elif egg_trades > 0 and _trade_value(O.encode_trade(-1, c2), keen, scr) > skip:
            by_egg |= 1 << c2
    i = L.SCR_TRADE_COLOURS + seat * 3
    scr[i] = pollen
    scr[i + 1] = by_egg
    scr[i + 2] = egg_trades


@njit(cache=True)
def _cube_value(state, rules, b, c, t):
    """DP-16 / DP-17: value of one cube of colour ``c`` on tile ``t``: single-colour tiles
    first, the colours the hive holds most of kept first."""
    same = state[b + L.F_CUBES + t * L.N_COL + c]
    other = tile_cubes(state, b, t) - same
    return 3.0 * same - 2.0 * other + 0.3 * colour_in_hive(state, b, c) + (
        0.5 if other == 0 and same == 0 else 0.0)


@njit(cache=True)
def _completions(state, rules, b, extra, scr):
    """DP-17, for every colour c in one pass over the hive: ``SCR_COMPLETION + c`` is 3 if
    ``extra`` cubes of ``c`` complete a single-colour tile with room, else the best fraction of
    one filled; ``SCR_COLOUR + c`` the hive's cubes of ``c``."""
    for c in range(L.N_COL):
        scr[L.SCR_COMPLETION + c] = 0.0
        scr[L.SCR_COLOUR + c] = 0.0
    for t in range(state[b + L.F_N_TILES]):
        total = tile_cubes(state, b, t)
        open_ = room(state, rules, b, t) > 0
        for c in range(L.N_COL):
            same = state[b + L.F_CUBES + t * L.N_COL + c]
            scr[L.SCR_COLOUR + c] += same
            if open_ and total == same:
                if same + extra >= rules[R.R_POLLEN_PER_HONEY]:
                    scr[L.SCR_COMPLETION + c] = 3.0
                else:
                    scr[L.SCR_COMPLETION + c] = max(scr[L.SCR_COMPLETION + c],
                                                    (same + extra) / rules[R.R_POLLEN_PER_HONEY])


@njit(cache=True)
def _trade_value(code, keen, scr):
    """DP-17: trade only when the cube bought completes or nearly completes a tile
    (``_completions`` of one more cube, by colour, in ``scr``); a pollen trade costs a quarter
    of a cube per cube of the paid colour in the hive. ``keen``: eggs are wanted (the pool is
    big enough, or no personal dice are left)."""
    if code == L.TR_SKIP:
        return 0.5
    c, c2 = O.decode_trade(code)
    if c < 0:
        return scr[L.SCR_COMPLETION + c2] + (1.0 if keen else -2.0)
    return scr[L.SCR_COMPLETION + c2] - 0.3 * scr[L.SCR_COLOUR + c]


@njit(cache=True)
def _best_trade(state, rules, pp, seat, n, scr):
    """DP-17 (D_TRADE): the greedy choice among the ``n`` listed trades, the first with the
    highest ``_trade_value``. The completions and the hive's cubes depend on the colours alone,
    so they are worked out once for the decision (``_completions``)."""
    b = seat_base(seat)
    _completions(state, rules, b, 1, scr)
    keen = state[b + L.F_POOL] >= pp[R.P_TRADE_EGG_WHEN_POOL_GE] or state[b + L.F_PERSONAL] == 0
    best = 0
    bv = -1e18
    for i in range(n):
        v = _trade_value(state[L.S_OPTIONS + i], keen, scr)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def _pair_value(state, rules, b, code):
    """DP-18: a pair that makes honey at once, else one that links tiles for a useful move."""
    if code == L.PAIR_DONE:
        return -1.0
    x, y, v, w = O.decode_pair(code)
    if w >= 0:                     # Expertise: worth it when the pair makes honey (§9.3)
        return _pair_tiles_value(state, rules, b, x, y) - 3.0
    return _pair_tiles_value(state, rules, b, x, y)


@njit(cache=True)
def _pair_tiles_value(state, rules, b, x, y):
    """DP-18: the value of a pair on tiles x and y (``_pair_value``)."""
    if honey_colour(state, rules, b, x) >= 0 or honey_colour(state, rules, b, y) >= 0:
        return 10.0
    if x == y or not holds_pollen(state, b, x) or not holds_pollen(state, b, y):
        return 0.0
    best = 0.0
    for c in range(L.N_COL):
        for side in range(2):
            best = max(best, _gather_value(state, rules, b, x, y, c, side))
    return best


@njit(cache=True)
def _gather_value(state, rules, b, x, y, c, side):
    """DP-19: value of gathering ``c`` on x (side 0) or y (side 1): 10 for a flip, else the
    gain of the target's count of ``c``, less the other colours left on it."""
    if side == 1:
        x, y = y, x
    xc, yc, oy, ox = gather_split(state, rules, b, x, y, c)
    if ox == 0 and xc >= rules[R.R_POLLEN_PER_HONEY]:
        return 10.0
    before = max(state[b + L.F_CUBES + x * L.N_COL + c], state[b + L.F_CUBES + y * L.N_COL + c])
    return (xc - before) - 0.5 * ox


@njit(cache=True)
def _wrong_turn_value(state, rules, seat, p, f, f2, careful):
    """DP-09: my cubes won by moving opponent ``p``'s die from flower f to f2 (WD-D2/D3),
    plus half of what ``p`` loses there; ``careful``: less half of what ``p`` gains on f2 (a
    die moved to an empty flower hands ``p`` that flower)."""
    mine = (majority_owed(state, rules, f, seat, p, -1)[0] - majority_owed(state, rules, f, seat)[0]
            + majority_owed(state, rules, f2, seat, p, 1)[0] - majority_owed(state, rules, f2, seat)[0])
    theirs = majority_owed(state, rules, f, p)[0] - majority_owed(state, rules, f, p, p, -1)[0]
    if careful:
        theirs -= majority_owed(state, rules, f2, p, p, 1)[0] - majority_owed(state, rules, f2, p)[0]
    return mine + 0.5 * theirs


@njit(cache=True)
def _relocation_value(state, rules, b, x, y, move):
    """DP-11: 10 when the split makes a honey tile that carries an equal pair of dice (it
    flips at F), else a quarter of the gain of ``_gather_value``."""
    c, side = O.decode_move(move)
    tx = x if side == 0 else y
    ty = y if side == 0 else x
    xc, yc, oy, ox = gather_split(state, rules, b, tx, ty, c)
    if ox == 0 and xc >= rules[R.R_POLLEN_PER_HONEY]:
        for v in range(L.N_VAL):
            if state[b + L.F_TDICE + tx * L.N_VAL + v] >= 2:
                return 10.0
    return 0.25 * _gather_value(state, rules, b, x, y, c, side)


@njit(cache=True)
def card_value(state, rules, pp, seat, code):
    """DP-01..03, DP-09..11, DP-15 (§9.3 per-card rules): the one-step value of a card play;
    passing is worth ``card_min_value``. Sick Day: the leader's die, most if I hold that value
    too; Volunteer: a die; Scout: while the deck holds ``scout_min_deck``; Wrong Turn: the
    cubes it wins me; Queen's Gift: an egg while eggs are wanted, else a tile below the target
    hive size; Relocation: a flip; Harvest: always, on the colour I hold most of."""
    if code == L.CARD_PASS:
        return pp[R.P_CARD_MIN_VALUE]
    b = seat_base(seat)
    q, a = O.decode_card(code)
    if q == L.Q_SICK_DAY:
        p, v = O.decode_sick_day(a)
        return (0.6 + 0.25 * state[seat_base(p) + L.F_HONEY]
                + (0.5 if state[b + L.F_UNPLACED + v] > 0 else 0.0))
    if q == L.Q_VOLUNTEER:
        return 1.0
    if q == L.Q_SCOUT:
        return 1.0 if state[L.S_DECK_N] - state[L.S_DECK_POS] >= pp[R.P_SCOUT_MIN_DECK] else 0.0
    if q == L.Q_WRONG_TURN:
        p, f, f2 = O.decode_wrong_turn(a)
        return _wrong_turn_value(state, rules, seat, p, f, f2, pp[R.P_CAREFUL] != 0.0)
    if q == L.Q_QUEENS_GIFT:
        if O.decode_gift(a) >= 0:
            return 1.2 if _wants_eggs(state, pp, b) else 0.2
        return 1.0 if state[b + L.F_N_TILES] < pp[R.P_TARGET_HIVE_SIZE] else 0.3
    if q == L.Q_RELOCATION:
        x, y, move = O.decode_relocation(a)
        return _relocation_value(state, rules, b, x, y, move)
    if q == L.Q_HARVEST:
        return 1.0 + 0.1 * colour_in_hive(state, b, a)
    if q == L.Q_EXPERTISE:         # DP-13: a hatch, +1 die
        return 1.5
    return 0.0


@njit(cache=True)
def _best_places(state, rules, pp, seat, scr):
    """DP-05: ``_best_place`` of each value 1..6 (once per decision, for the Overtime plays)."""
    return (_best_place(state, rules, pp, seat, 1, scr),
            _best_place(state, rules, pp, seat, 2, scr),
            _best_place(state, rules, pp, seat, 3, scr),
            _best_place(state, rules, pp, seat, 4, scr),
            _best_place(state, rules, pp, seat, 5, scr),
            _best_place(state, rules, pp, seat, 6, scr))


@njit(cache=True)
def _best_place(state, rules, pp, seat, v, scr):
    """DP-05: the best placement value of a die of value v (WD-R6 destinations)."""
    b = seat_base(seat)
    best = _place_value(state, rules, pp, seat, O.encode_place(v, L.DEST_FLOWER), scr)
    for card in range(L.DEST_FLOWER):
        i = card * L.N_VAL + v - 1
        if state[L.S_BLOCKED + i] == 0 and state[L.S_SLOT_OWNER + i] == 0:
            best = max(best, _place_value(state, rules, pp, seat, O.encode_place(v, card), scr))
    for t in range(state[b + L.F_N_TILES]):
        if state[b + L.F_TILE_HONEY + t] == 0:
            best = max(best, _place_value(state, rules, pp, seat,
                                          O.encode_place(v, L.DEST_TILE + t), scr))
    return best


@njit(cache=True)
def _feint_gain(state, rules, pp, seat, a, scr):
    """DP-08 (§9.3 "grab a better slot"): the value of the die of value v at its new
    destination less its value where it stands (a slot's use, the cubes its flower wins me,
    half a pair on a tile)."""
    b = seat_base(seat)
    v, src, dest = O.decode_feint(a)
    if src < L.FROM_FLOWER:
        old = _slot_value(state, rules, pp, seat, src, scr)
    elif src < L.FROM_TILE:
        f = src - L.FROM_FLOWER
        old = pp[R.P_W_FLOWER] * (majority_owed(state, rules, f, seat)[0]
                                - majority_owed(state, rules, f, seat, seat, -1)[0])
    else:
        old = 0.5 * pp[R.P_W_PAIR] if state[b + L.F_TDICE + (src - L.FROM_TILE) * L.N_VAL + v - 1] % 2 == 0 else 0.0
    return _place_value(state, rules, pp, seat, O.encode_place(v, dest), scr) - old


@njit(cache=True)
def _two_contested(state, rules, pp, seat, plain, scr):
    """DP-07 (§9.3 "double-place to grab two contested slots"): the summed value of the two
    best slot placements an opponent could still take (-1e18 without two)."""
    b = seat_base(seat)
    s1 = -1e18
    c1 = -1
    for i in range(plain):
        code = state[L.S_OPTIONS + i]
        v, dest = O.decode_place(code)
        if dest < L.DEST_FLOWER and _rivals(state, seat, v) > 0:
            x = _place_value(state, rules, pp, seat, code, scr)
            if x > s1:
                s1, c1 = x, code
    s2 = -1e18
    for i in range(plain):
        code = state[L.S_OPTIONS + i]
        v, dest = O.decode_place(code)
        if (code != c1 and dest < L.DEST_FLOWER and _rivals(state, seat, v) > 0
                and (v != O.decode_place(c1)[0] or state[b + L.F_UNPLACED + v - 1] >= 2)):
            s2 = max(s2, _place_value(state, rules, pp, seat, code, scr))
    return s1 + s2


@njit(cache=True)
def turn_card_value(state, rules, pp, seat, code, top, plain, bests, scr):
    """DP-02, DP-03, DP-05..DP-09 (§9.3 per-card rules) on the own turn, against ``top``, the
    best plain placement of the first ``plain`` options. Overtime: the best placement of the
    new value (``bests``: ``_best_places``; "the value needed is missing"); Command: the cubes one more die wins on my
    flower ("secure or keep a majority"); Feint: the better spot for a placed die, the
    placement kept for later (careful: none while a die of its value is unplaced); Shift Change: two contested slots, or a pass while my best
    placement is below ``shift_pass_below``; each less ``turn_card_margin``. Wrong Turn, Scout
    and Volunteer leave the turn's placement: worth ``top`` plus their gain over passing."""
    q, a = O.decode_card(code)
    b = seat_base(seat)
    margin = pp[R.P_TURN_CARD_MARGIN]
    if q == L.Q_OVERTIME:
        v, w = O.decode_overtime(a)
        return bests[w] - margin + 0.01 * state[b + L.F_UNPLACED + v]
    if q == L.Q_COMMAND:
        v, f = O.decode_command(a)
        return (_place_value(state, rules, pp, seat, O.encode_place(f + 1, L.DEST_FLOWER), scr)
                - margin + 0.01 * state[b + L.F_UNPLACED + v])
    if q == L.Q_FEINT:
        if pp[R.P_CAREFUL] != 0.0 and state[b + L.F_UNPLACED + O.decode_feint(a)[0] - 1] > 0:
            return -1e18        # a plain placement of that die does the same, the card kept
        return top + _feint_gain(state, rules, pp, seat, a, scr) - margin
    if q == L.Q_SHIFT_CHANGE:
        if a == L.SHIFT_PASS:
            return pp[R.P_SHIFT_PASS_BELOW] if top < pp[R.P_SHIFT_PASS_BELOW] else -1e18
        return _two_contested(state, rules, pp, seat, plain, scr) - margin
    gain = card_value(state, rules, pp, seat, code) - pp[R.P_CARD_MIN_VALUE]
    return top + gain if gain > 0 else -1e18


@njit(cache=True)
def keep_value(q):
    """DP-03: which Scout card to keep: the surest to be played first (Harvest and Queen's
    Gift are nearly always playable; the own-turn cards wait for a turn where they help)."""
    if q == L.Q_HARVEST:
        return 3.0
    if q == L.Q_QUEENS_GIFT:
        return 2.5
    if q == L.Q_RELOCATION or q == L.Q_SICK_DAY:
        return 2.0
    if q == L.Q_WRONG_TURN or q == L.Q_VOLUNTEER or q >= L.Q_EXPERTISE or q == L.Q_OVERTIME or q == L.Q_COMMAND:
        return 1.5
    if q == L.Q_SCOUT or q == L.Q_FEINT or q == L.Q_SHIFT_CHANGE:
        return 1.0
    return 0.0


@njit(cache=True)
def greedy_value(state, rules, pp, seat, point, code, scr):
    """The greedy score of option ``code`` at decision ``point`` of ``seat`` (``scr``: see
    ``greedy``)."""
    b = seat_base(seat)
    if point == L.D_PLACE:         # greedy's own loop inlines it; here, a call
        return _place_value(state, rules, pp, seat, code, scr)
    if point == L.D_EGG:
        if code < 0:
            return 0.0
        if not _wants_eggs(state, pp, b):
            return -1.0
        return 1.0 - 0.1 * state[b + L.F_TDICE + code * L.N_VAL]
    if point == L.D_CUBE:
        c, t = O.decode_cube(code)
        return _cube_value(state, rules, b, c, t)
    if point == L.D_GAIN:
        return _cube_value(state, rules, b, state[L.S_CTX_GAIN], code)
    if point == L.D_PAY:
        c = state[L.S_CTX_COLOUR]
        if c < 0:
            return -1.0 * is_empty_tile(state, b, code)
        same = state[b + L.F_CUBES + code * L.N_COL + c]
        return tile_cubes(state, b, code) - 2.0 * same
    if point == L.D_PAIR:
        return _pair_value(state, rules, b, code)
    if point == L.D_FLIP:          # a plain flip, else a card flip (§9.3: when it creates one)
        if code == L.FLIP_NONE:
            return pp[R.P_CARD_MIN_VALUE]
        return 3.0 if O.decode_flip(code)[0] == L.FLIP_PLAIN else 2.0
    if point == L.D_CARD or point == L.D_HARVEST or point == L.D_HATCH:
        return card_value(state, rules, pp, seat, code)
    if point == L.D_KEEP:
        return keep_value(code)
    if point == L.D_MOVE:
        if code == L.MV_NONE:
            return 0.0
        c, side = O.decode_move(code)
        return _gather_value(state, rules, b, state[L.S_CTX_X], state[L.S_CTX_Y], c, side)
    return 0.0


@njit(cache=True)
def greedy(state, rules, pparams, seat, point, n, scr):
    """K_GREEDY: the index of the best-scoring listed option (the first on ties). On the own
    turn the card plays (listed after the placements) are scored against the best placement.
    ``scr``: float64[SCR_LEN] scratch, the placement cache (``_empty_cache``; only placement
    decisions read it) and a trade decision's values by colour (``_completions``)."""
    pp = pparams[seat]
    if point == L.D_TRADE:
        return _best_trade(state, rules, pp, seat, n, scr)
    plain = n
    if point == L.D_PLACE:
        _empty_cache(state, scr, seat)
        while plain > 0 and state[L.S_OPTIONS + plain - 1] >= L.TURN_CARD:
            plain -= 1
    best = 0
    bv = -1e18
    if point == L.D_PLACE:          # the loop that runs most: its own, placements only
        for i in range(plain):
            v = _place_value_inline(state, rules, pp, seat, state[L.S_OPTIONS + i], scr)
            if v > bv:
                bv = v
                best = i
    else:
        for i in range(plain):
            v = greedy_value(state, rules, pp, seat, point, state[L.S_OPTIONS + i], scr)
            if v > bv:
                bv = v
                best = i
    top = bv
    first_card = O.decode_card(O.decode_turn_card(state[L.S_OPTIONS + plain]))[0] if plain < n else -1
    if first_card == L.Q_OVERTIME:
        bests = _best_places(state, rules, pp, seat, scr)   # Overtime plays come first
    else:
        bests = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for i in range(plain, n):
        v = turn_card_value(state, rules, pp, seat, O.decode_turn_card(state[L.S_OPTIONS + i]),
                            top, plain, bests, scr)
        if v > bv:
            bv = v
            best = i
    return best
