"""Cupcake Empire policies: ``random`` and the parameterized ``greedy`` heuristic (§10).

A policy reads the state, the rules, the components and its seat's policy parameters and
returns the index of one of the ``n`` legal options of the pending decision, listed at
``state[S_OPTIONS:]`` (encodings in ``layout.py``). It never changes the state (the random
draws come from the policy stream kept in the state).

``greedy`` scores every listed option with a one-ply estimate (``option_value``) and takes the
best (the first on ties); with probability ``epsilon`` it takes a uniform option instead. The
estimate values a track point by how much it raises ``min(production, sales)`` times the own
turns left ``H`` (§10.2), immediate income at ``w_income``, and goods (tiles, dice, discs,
ideas, buildings) by the §10.2 weights. Presets (``rules.POLICIES``) only change parameters.

With ``careful`` (on by default; off = the greedy of version 1.1) three habits change. On a turn
the seat knows to be its last (``last_turn``) an option is worth only the income it brings this
turn (income is the score, CE-E3): ``outlook`` gives the horizon ``LAST`` and the valuations
read it; no income is paid (rest recalls by income, SP3, SP4). On a tie between levels of
columns 1-4 the higher level is taken (version 1.1 took the lower): a higher level never loses
there under the rules, since level 3 of columns 1-3 is levels 1 and 2 together (CE-A1 ..
CE-A3), column 4's reach grows with the level (CE-A4), more disc spaces only add optional
discs (CE-T3) and the same dice are rolled (CE-T1.2); the values already rank level 3 of
columns 1-3 and column 4's levels so, the tie was the gap. Levels 1 and 2 of columns 1-3 are
different goods (simple or mixed tile, yellow or beige shop) and column 5's levels different
actions (level 3 drops the hire, level 4 the disc): there the values decide. And an empty
column (level 0, nothing to roll: the turn is a pass) is activated only when nothing else is
listed.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module
from sim.decide import random_index
from sim.rng import uniform_in

from . import layout as L
from . import options as O
from . import rules as R
from .board import (customer_goal, dice_at, experts, free_space, has_building, is_expert,
                    l_avail, level_of, menu_mask, room, seat_base, serves_house)

no_refcount_module(__name__)
no_wraparound_module(__name__)

NEG = -1.0e18
LAST = -1.0         # the horizon H of a seat on its known last turn (``outlook`` with careful)
IDLE = -1.0e9       # careful: activating an empty column (no action, no roll) while others can act


@njit(cache=True)
def last_turn(state, rules, seat):
    """True when the turn being played is known to be ``seat``'s last: the end was triggered
    (CE-E1; only seats after the trigger seat play on, CE-E2, so this is their final turn), this
    is round max_rounds (CE-E4), or the seat's income plus its S2 income still to come,
    min(production, sales), reaches end_threshold (neither track falls in its own turn, so it
    triggers the end at this turn's end unless it pays income away; CE-T5, CE-T8)."""
    if state[L.S_END_TRIGGERED] == 1 or state[L.S_ROUND] >= int(rules[R.R_MAX_ROUNDS]):
        return True
    b = seat_base(seat)
    s2 = 0 if state[L.S_WINDOW] == 3 else min(state[b + L.F_PRODUCTION], state[b + L.F_SALES])
    return state[b + L.F_INCOME] + s2 >= int(rules[R.R_END_THRESHOLD])


@njit(cache=True)
def careful_last(state, rules, pp, seat):
    """``careful`` is on and this is ``seat``'s known last turn (``last_turn``)."""
    return pp[R.P_CAREFUL] > 0.5 and last_turn(state, rules, seat)


@njit(cache=True)
def turns_left(state, rules, pp, b):
    """H = clamp((end_threshold - income) / max(1, min(P, S)), 0, h_cap) (§10.2)."""
    m = max(1, min(state[b + L.F_PRODUCTION], state[b + L.F_SALES]))
    h = (rules[R.R_END_THRESHOLD] - state[b + L.F_INCOME]) / m
    return max(0.0, min(pp[R.P_H_CAP], h))


@njit(cache=True)
def outlook(state, rules, pp, seat):
    """What every valuation of one decision reads, worked out once: ``(H, built)``, the own
    turns left (``turns_left``; ``LAST`` on a careful seat's known last turn) and a bit per
    region where ``seat`` has a building (``has_building``, CE-A4.2)."""
    built = 0
    for r in range(L.N_REGIONS):
        built |= (1 << r) * has_building(state, seat, r)
    if careful_last(state, rules, pp, seat):
        return LAST, built
    return turns_left(state, rules, pp, seat_base(seat)), built


@njit(cache=True)
def track_value(state, rules, pp, b, dp, ds):
    """``track_at`` with H worked out here."""
    return track_at(state, pp, b, turns_left(state, rules, pp, b), dp, ds)


@njit(cache=True)
def track_at(state, pp, b, h, dp, ds):
    """Value of production += dp and sales += ds: the rise of min(P, S) times w_min_track * H,
    the rise of the larger track times w_excess_track; 0 in the endgame (H <= endgame_turns).
    On the last turn (``LAST``): the rise of min(P, S), paid once by S2 (CE-T5), as income."""
    if h < 0.0:
        p, s = state[b + L.F_PRODUCTION], state[b + L.F_SALES]
        return (min(p + dp, s + ds) - min(p, s)) * pp[R.P_W_INCOME]
    if h <= pp[R.P_ENDGAME_TURNS]:
        return 0.0
    p, s = state[b + L.F_PRODUCTION], state[b + L.F_SALES]
    lo = min(p + dp, s + ds) - min(p, s)
    hi = max(p + dp, s + ds) - max(p, s)
    return lo * pp[R.P_W_MIN_TRACK] * h + hi * pp[R.P_W_EXCESS_TRACK]


@njit(cache=True)
def reach_value(state, comp, seat, r, reach):
    """Sale values of the customers within ``reach`` of region ``r`` that ``seat`` serves
    (each house's value times ``serves_house``, without branches)."""
    served = state[seat_base(seat) + L.F_SERVED]
    v = 0.0
    for d in range(min(reach, 4)):
        h = O.encode_house(r, d)
        v += comp[1][r, L.RD_VALUE + d] * serves_house(served, state[L.S_HOUSE + h])
    return v


@njit(cache=True)
def tile_value(state, pp, b, h, base, mixed):
    """A base (``base``) or frosting tile, simple or ``mixed``: about half the production of
    the menu it completes (all of it if a partner tile is in stock), plus prefer_mixed. On the
    last turn only a menu made with a partner in stock before S2 counts (CE-F1)."""
    partner = 0
    if base:
        for f in range(L.N_FROST):
            partner += state[b + L.F_STOCK_FROST + f]
    else:
        for f in range(L.N_BASE):
            partner += state[b + L.F_STOCK_BASE + f]
    prod = 2.0 if mixed else 1.0
    if partner > 0:
        prod += 1.0
    if h < 0.0:
        return track_at(state, pp, b, h, int(prod + 0.5), 0) if partner > 0 else 0.0
    v = track_at(state, pp, b, h, int(prod + 0.5), 0)
    return v + (pp[R.P_PREFER_MIXED] if mixed else 0.0)


@njit(cache=True)
def best_sale(state, comp, seat, built, reach):
    """Highest sale value ``seat`` can take within ``reach`` (0 if none); ``built``: the
    regions of its buildings (``outlook``)."""
    served = state[seat_base(seat) + L.F_SERVED]
    best = 0
    for r in range(L.N_REGIONS):
        mine = (built >> r) & 1
        for d in range(min(reach, 4)):
            ok = mine & serves_house(served, state[L.S_HOUSE + O.encode_house(r, d)])
            best = max(best, comp[1][r, L.RD_VALUE + d] * ok)
    return best


@njit(cache=True)
def shop_value(state, comp, pp, seat, look, kind):
    """A shop in the best region of ``kind``: +1 sales and the reach it opens (``look``:
    ``outlook``; on the last turn only the sales point)."""
    h, built = look
    if h < 0.0:
        return track_at(state, pp, seat_base(seat), h, 0, 1)
    best = 0.0
    for r in range(L.N_REGIONS):
        if comp[1][r, L.RD_KIND] == kind and (built >> r) & 1 == 0:
            best = max(best, reach_value(state, comp, seat, r, 4))
    return track_at(state, pp, seat_base(seat), h, 0, 1) + pp[R.P_W_REACH] * best


@njit(cache=True)
def sale_value(state, pp, seat, h, v):
    """A sale of value v: v income now and v sales."""
    if h < 0.0:
        return v * pp[R.P_W_INCOME] + track_at(state, pp, seat_base(seat), h, 0, v)
    return v * pp[R.P_W_INCOME] * pp[R.P_CUSTOMER_W_VALUE] + \
        track_at(state, pp, seat_base(seat), h, 0, v)


@njit(cache=True)
def disc_value(state, rules, comp, pp, seat, look, t):
    """Value of resolving a disc of type ``t`` now (§2.7; ``look``: ``outlook``)."""
    b = seat_base(seat)
    h, built = look
    if t == 0:
        return tile_value(state, pp, b, h, True, False)
    if t == 1:
        return tile_value(state, pp, b, h, False, False)
    if t == 2:
        return shop_value(state, comp, pp, seat, look, 1)
    if t == 3:
        return sale_value(state, pp, seat, h, best_sale(state, comp, seat, built, 2))
    if t == 4:
        return rules[R.R_DISC_INCOME_GAIN] * pp[R.P_W_INCOME]
    return 0.0 if h < 0.0 else pp[R.P_W_IDEA] * 0.67


@njit(cache=True)
def action_value(state, rules, comp, pp, seat, look, k, lv):
    """Estimated value of column ``k``'s action at level ``lv`` (CE-A1 .. CE-A5; ``look``:
    ``outlook``)."""
    b = seat_base(seat)
    h, built = look
    if lv == 0:
        return 0.0
    if k == 0 or k == 1:
        v = 0.0
        if lv != 2:
            v += tile_value(state, pp, b, h, k == 0, False)
        if lv >= 2:
            v += tile_value(state, pp, b, h, k == 0, True)
        return v
    if k == 2:
        v = 0.0
        if lv != 2:
            v += shop_value(state, comp, pp, seat, look, 1)
        if lv >= 2:
            v += shop_value(state, comp, pp, seat, look, 2)
        return v
    if k == 3:
        reach = int(rules[R.R_SELL_REACH_L1 + lv - 1])
        return sale_value(state, pp, seat, h, best_sale(state, comp, seat, built, reach))
    if h < 0.0:
        # the last turn: a hired die is worth nothing, the disc of L2/L3 only as an INCOME3
        # (X5) placed on column 5 within lv and resolved at once (CE-T4), a bakery its S2
        # income, no l4_bakery_bias (the recursion stays in this function: Numba's cache
        # cannot load mutually recursive functions)
        wdisc = 0.0
        if lv <= 3 and state[L.S_SUP_DISCS + 4] > 0:
            p = free_space(state, comp[0], b, 4, 4)
            if p >= 0 and p + 1 <= lv:
                wdisc = disc_value(state, rules, comp, pp, seat, look, 4)
        if lv == 1:
            return 0.0
        if lv == 2:
            return wdisc
        bias = 0.0
    else:
        if lv == 1:
            return pp[R.P_W_DIE]
        wdisc = 0.0
        for t in range(6):
            wdisc = max(wdisc, pp[R.P_W_DISC + 1 + t])
        if lv == 2:
            return pp[R.P_W_DIE] + wdisc
        bias = pp[R.P_L4_BAKERY_BIAS]
    g = rules[R.R_BAKERY_YELLOW_GAIN]
    if lv == 3:
        return track_at(state, pp, b, h, int(g), int(g)) + wdisc
    g = rules[R.R_BAKERY_BEIGE_GAIN]
    other = 0.0
    for j in range(4):
        other = max(other, action_value(state, rules, comp, pp, seat, look, j,
                                        comp[0][j, L.CD_MAX_LEVEL]))
    return max(track_at(state, pp, b, h, int(g), int(g)) + bias, other)


@njit(cache=True)
def level_bias(state, pp, b, k, lv):
    """The small term added to an activation's value: -0.01 per level (the lower level on a
    tie); with ``careful``, +0.01 per level in columns 1-4 (a higher level never loses there)
    and ``IDLE`` for an empty column (level 0 with no dice: no action and no roll, CE-T1.2)."""
    if pp[R.P_CAREFUL] <= 0.5:
        return -0.01 * lv
    if dice_at(state, b, k) == 0:
        return IDLE
    return -0.01 * lv if k == 4 else 0.01 * lv


@njit(cache=True)
def activation_value(state, rules, comp, pp, seat, code):
    """D10: the action at the level, its discs (spaces <= level), minus w_expert_keep per
    expert die rerolled (not on the last turn), plus ``level_bias``."""
    b = seat_base(seat)
    k, lv = O.decode_activate(code)
    look = outlook(state, rules, pp, seat)
    v = action_value(state, rules, comp, pp, seat, look, k, lv)
    for p in range(lv):
        t = state[b + L.F_DISC + k * L.MAX_SPACES + p]
        if t >= 0:
            v += disc_value(state, rules, comp, pp, seat, look, t)
    keep = 0.0 if look[0] < 0.0 else pp[R.P_W_EXPERT_KEEP] * experts(state, comp[0], b, k)
    return v - keep + level_bias(state, pp, b, k, lv)


@njit(cache=True)
def _disc_values(state, rules, comp, pp, seat, look, k, top):
    """The ``disc_value`` of the discs on spaces 1..``top`` of column ``k`` (0.0 for an empty
    space or one above ``top``), as a tuple by space."""
    b = seat_base(seat)
    d0 = d1 = d2 = d3 = 0.0
    for p in range(top):
        t = state[b + L.F_DISC + k * L.MAX_SPACES + p]
        if t >= 0:
            v = disc_value(state, rules, comp, pp, seat, look, t)
            if p == 0:
                d0 = v
            elif p == 1:
                d1 = v
            elif p == 2:
                d2 = v
            else:
                d3 = v
    return (d0, d1, d2, d3)


@njit(cache=True)
def _best_activation(state, rules, comp, pp, seat, n):
    """D10 (CE-T1): the greedy choice among the listed activations, the first with the highest
    ``activation_value``. ``list_activate`` lists a column's levels together, so the column's
    experts and the values of its discs (CE-T3) are taken once per column; each option's score
    is summed as in ``activation_value``, so the scores are the same."""
    b = seat_base(seat)
    look = outlook(state, rules, pp, seat)
    best = 0
    bv = NEG - 1.0e17
    col = -1
    keep = 0.0
    dv = (0.0, 0.0, 0.0, 0.0)
    for i in range(n):
        code = state[L.S_OPTIONS + i]
        k, lv = O.decode_activate(code)
        if k != col:
            col = k
            keep = 0.0 if look[0] < 0.0 else pp[R.P_W_EXPERT_KEEP] * experts(state, comp[0], b, k)
            top = lv
            j = i + 1
            while j < n:
                kj, lvj = O.decode_activate(state[L.S_OPTIONS + j])
                if kj != k:
                    break
                top = max(top, lvj)
                j += 1
            dv = _disc_values(state, rules, comp, pp, seat, look, k, top)
        # level 0 is worth 0.0 (as action_value says), without the call: half the options
        v = action_value(state, rules, comp, pp, seat, look, k, lv) if lv > 0 else 0.0
        for p in range(lv):
            if state[b + L.F_DISC + k * L.MAX_SPACES + p] >= 0:
                v += dv[p]
        v = v - keep + level_bias(state, pp, b, k, lv)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def recall_gain(state, comp, b, k):
    """Levels column ``k`` would gain if the rest dice that fit moved in, experts first (CE-F2)."""
    cols = comp[0]
    n = dice_at(state, b, k)
    e = experts(state, cols, b, k)
    free = room(state, cols, b, k)
    rest = b + L.F_DICE + L.LOC_REST * L.N_COLOURS
    ex = state[rest + L.PINK]     # the rest dice that are experts in column k (is_expert)
    if cols[k, L.CD_COLOUR] != L.PINK:
        ex += state[rest + cols[k, L.CD_COLOUR]]
    other = dice_at(state, b, L.LOC_REST) - ex
    me = min(free, ex)
    mo = min(free - me, other)
    return level_of(cols, k, n + me + mo, e + me) - level_of(cols, k, n, e)


@njit(cache=True)
def _rest_value(gain, method, use_idea, last):
    """D05 (CE-F2): ten per level the recall gains, plus one for the method the policy prefers
    (ideas when the rest area holds recall_min_dice_idea dice or more, else income); ``last``
    (careful, known last turn): ideas only, income is never paid."""
    if last and method == 1:
        return NEG
    return gain * 10.0 + (1.0 if (method == 0) == use_idea else 0.0)


@njit(cache=True)
def _best_rest(state, rules, comp, pp, seat, n):
    """D05 (CE-F2): the greedy choice among the listed rest uses, the first with the highest
    ``_rest_value``; the gains of the columns (each listed once per method) and the preferred
    method are worked out once for the decision."""
    b = seat_base(seat)
    last = careful_last(state, rules, pp, seat)
    use_idea = last or dice_at(state, b, L.LOC_REST) >= pp[R.P_RECALL_MIN_DICE_IDEA]
    gains = 0       # recall_gain of column k (0..4) in bits 8k..8k+7
    for k in range(L.N_COLS):
        gains |= recall_gain(state, comp, b, k) << (8 * k)
    best = 0
    bv = NEG - 1.0e17
    for i in range(n):
        code = state[L.S_OPTIONS + i]
        method, k = O.decode_rest(code)
        v = _rest_value((gains >> (8 * k)) & 255, method, use_idea, last)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def option_value(state, rules, comp, pp, seat, dp, code):
    """The greedy score of option ``code`` of decision ``dp``."""
    b = seat_base(seat)
    cols = comp[0]
    free = pp[R.P_USE_FREE_ACTIONS] > 0.5
    if dp == L.D_START_DISC:
        return pp[R.P_W_DISC_COLUMN + 1 + code] + l_avail(state, cols, b, code)
    if dp == L.D_INIT_MENU:
        base, flavour = O.decode_init_menu(code)
        m = menu_mask(base, flavour)
        v = 0.0
        for h in range(24):
            t = state[L.S_HOUSE + h]
            if t >= 0 and (m >> t) & 1:
                v += 1.0 + (1.0 if h < 4 else 0.0)
        return v
    if dp == L.D_FREE:
        if code == L.FA_MENU:
            return 3.0
        if code == L.FA_REST:
            if not free or state[L.S_WINDOW] != 1:
                return NEG
            rest = dice_at(state, b, L.LOC_REST)
            if careful_last(state, rules, pp, seat):    # ideas only: income is the score
                ok = state[b + L.F_IDEAS] >= rules[R.R_REST_RECALL_IDEA_COST]
            else:
                ok = (state[b + L.F_IDEAS] >= 1 and rest >= pp[R.P_RECALL_MIN_DICE_IDEA]) or \
                    (pp[R.P_RECALL_MAX_INCOME] >= 1 and state[b + L.F_INCOME] >= 1)
            if ok:      # and some column gains a level
                for k in range(L.N_COLS):
                    if recall_gain(state, comp, b, k) >= 1:
                        return 2.0
            return NEG
        if code == L.FA_SPECIAL:
            if not free:
                return NEG
            ideas = state[b + L.F_IDEAS]
            if ideas >= 1:
                return 1.0
            if careful_last(state, rules, pp, seat):    # SP3 / SP4 would pay score for nothing
                return NEG
            if (state[b + L.F_INCOME] >= pp[R.P_BUY_IDEA_MIN_INCOME]
                    and ideas < pp[R.P_BUY_IDEA_MAX_HELD]):
                return 1.0
            return NEG
        return 0.0
    if dp == L.D_MENU:
        bk, fk = O.decode_menu(code)
        mixed = (1 if bk == 2 else 0) + (1 if fk >= L.FR_SIMPLE else 0)
        new = menu_mask(bk, fk) & ~state[b + L.F_SERVED]
        c = 0
        while new:
            c += new & 1
            new >>= 1
        return mixed + 0.3 * c
    if dp == L.D_REST:
        last = careful_last(state, rules, pp, seat)
        use_idea = last or dice_at(state, b, L.LOC_REST) >= pp[R.P_RECALL_MIN_DICE_IDEA]
        method, k = O.decode_rest(code)
        return _rest_value(recall_gain(state, comp, b, k), method, use_idea, last)
    if dp == L.D_REST_DIE:
        return 2.0 if is_expert(cols, state[L.S_REST_COL], code) else 1.0
    if dp == L.D_MORE:
        more = state[L.S_MORE_PHASE] == L.PH_REST_DIE and (
            state[L.S_REST_METHOD] == 0 or state[L.S_REST_MOVED] < pp[R.P_RECALL_MAX_INCOME])
        return 1.0 if (code == L.MORE) == more else 0.0
    if dp == L.D_SPECIAL:
        if code < L.SP_MOVE1:
            t, k = O.decode_special_disc(code)
            v = pp[R.P_W_DISC + 1 + t] * pp[R.P_W_DISC_COLUMN + 1 + k]
            return v - pp[R.P_W_IDEA] * 0.5
        if code == L.SP_IDEA:
            if careful_last(state, rules, pp, seat):
                return NEG
            if state[b + L.F_INCOME] >= pp[R.P_BUY_IDEA_MIN_INCOME] and \
                    state[b + L.F_IDEAS] < pp[R.P_BUY_IDEA_MAX_HELD]:
                return pp[R.P_W_IDEA]
            return NEG
        if code == L.SP_MOVEN and careful_last(state, rules, pp, seat):
            return NEG
        return NEG + 1.0      # SP2 / SP4: only when nothing else is listed
    if dp == L.D_MOVE_DIE:
        a, c = O.decode_move_die(code)
        return 0.5 if not is_expert(cols, a, c) else 0.0
    if dp == L.D_MOVE_TO:
        return 1.0 if is_expert(cols, code, 0) else 0.5
    if dp == L.D_ACTIVATE:
        return activation_value(state, rules, comp, pp, seat, code)
    if dp == L.D_S1:
        if code >= L.S1_DISC:
            return 4.0 - 0.1 * O.decode_s1_disc(code)
        if code == L.S1_MAIN:
            return 3.0
        if code == L.S1_MENU:
            return 2.0
        return 1.0
    if dp == L.D_BASE or dp == L.D_FROST or dp == L.D_PAIR:
        return _flavour_value(_unserved(state, b), code, dp == L.D_BASE)
    if dp == L.D_SHOP:
        src, r, victim = O.decode_shop(code)
        v = pp[R.P_REGION_W_CUSTOMERS] * pp[R.P_W_REACH] * reach_value(state, comp, seat, r, 4)
        if victim == 0:
            v += pp[R.P_REGION_W_EMPTY_SLOT]
        else:
            v += pp[R.P_W_DENIAL] * rules[R.R_SHOP_DISPLACED_SALES_LOSS]
        if src != L.SRC_RESERVE:
            v -= pp[R.P_W_REACH] * reach_value(state, comp, seat, src, 4)
        return v
    if dp == L.D_SELL:
        r, d = O.decode_house(code)
        v = comp[1][r, L.RD_VALUE + d]
        goal = 0.0
        for s in range(L.N_STACKS):
            gid = state[L.S_GOAL + s]
            if gid // 5 == 1 and (state[b + L.F_GOALS] >> s) & 1 == 0 and \
                    customer_goal(state, comp, b, gid, state[L.S_HOUSE + code], v):
                goal += rules[R.R_GOAL_BONUS]
        return v * pp[R.P_CUSTOMER_W_VALUE] + goal * pp[R.P_W_GOAL] * pp[R.P_CUSTOMER_W_GOAL] - \
            0.01 * d
    if dp == L.D_HIRE:
        if code == L.PINK:
            return 3.0
        k = 0
        for j in range(L.N_COLS):
            if cols[j, L.CD_COLOUR] == code:
                k = j
        return 1.0 + pp[R.P_W_DISC_COLUMN + 1 + k] - 0.1 * l_avail(state, cols, b, k)
    if dp == L.D_DISC:
        t, k = O.decode_disc_gain(code)
        look = outlook(state, rules, pp, seat)
        v = 0.0 if look[0] < 0.0 else pp[R.P_W_DISC + 1 + t] * pp[R.P_W_DISC_COLUMN + 1 + k]
        p = free_space(state, cols, b, k, t)
        if k == state[L.S_COL] and p + 1 <= state[L.S_L_EXEC]:
            v += disc_value(state, rules, comp, pp, seat, look, t)
        return v
    if dp == L.D_BAKERY_Y:
        return pp[R.P_W_REACH] * reach_value(state, comp, seat, code, 4)
    if dp == L.D_L4:
        kind, x, lv = O.decode_l4(code)
        look = outlook(state, rules, pp, seat)
        if kind == 1:
            return action_value(state, rules, comp, pp, seat, look, x, lv) - 0.01 * (3 - lv)
        g = rules[R.R_BAKERY_BEIGE_GAIN]
        if look[0] < 0.0:       # the last turn: the bakery's S2 income only
            return track_at(state, pp, b, look[0], int(g), int(g))
        return track_value(state, rules, pp, b, int(g), int(g)) + pp[R.P_L4_BAKERY_BIAS] + \
            pp[R.P_W_REACH] * reach_value(state, comp, seat, x, 4)
    if dp == L.D_OVERFLOW:
        # the die sent to rest: a grey one first, then one that is no expert in this column
        if pp[R.P_OVERFLOW_KEEP_EXPERTS] > 0.5:
            if code == L.GREY:
                return 2.0
            return 0.0 if is_expert(cols, state[L.S_CURSOR], code) else 1.0
        return 0.0
    return 0.0


@njit(cache=True)
def _unserved(state, b):
    """The customers on the board whose type the seat at ``b`` serves no menu for, counted by
    type (8 bits per type: type t in bits 8t..8t+7)."""
    served = state[b + L.F_SERVED]
    counts = 0
    for h in range(24):
        t = state[L.S_HOUSE + h]
        if t >= 0 and (served >> t) & 1 == 0:
            counts += 1 << (8 * t)
    return counts


@njit(cache=True)
def _flavour_value(unserved, code, base):
    """D12 / D13 / D14 (CE-A1, CE-A2): customers on the board whose type a menu with this tile
    would add (``unserved``: ``_unserved`` of the seat): a base serves its pants (both when
    mixed), a frosting its shirts."""
    shirts = 0 if base else menu_mask(0, code)     # bit s: the frosting serves shirt s
    c = 0
    for t in range(8):
        pants, shirt = t // 4, t % 4
        if (code == 2 or code == pants) if base else (shirts >> shirt) & 1 == 1:
            c += (unserved >> (8 * t)) & 255
    return float(c)


@njit(cache=True)
def _best_tile(state, seat, n, base):
    """D12 / D13 / D14 (CE-A1, CE-A2): the greedy choice among the listed tiles, the first with
    the highest ``_flavour_value``; the unserved customers are counted once for the decision."""
    unserved = _unserved(state, seat_base(seat))
    best = 0
    bv = NEG - 1.0e17
    for i in range(n):
        v = _flavour_value(unserved, state[L.S_OPTIONS + i], base)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def greedy(state, rules, comp, pp, seat, dp, n):
    """The greedy policy: the listed option with the highest ``option_value`` (first on ties);
    with probability ``epsilon`` a uniform option (SUB_POLICY stream)."""
    if pp[R.P_EPSILON] > 0.0:
        if uniform_in(state, L.S_RNG_P) < pp[R.P_EPSILON]:
            return random_index(state, L.S_RNG_P, n)
    if dp == L.D_ACTIVATE:
        return _best_activation(state, rules, comp, pp, seat, n)
    if dp == L.D_BASE or dp == L.D_FROST or dp == L.D_PAIR:
        return _best_tile(state, seat, n, dp == L.D_BASE)
    if dp == L.D_REST:
        return _best_rest(state, rules, comp, pp, seat, n)
    best = 0
    bv = NEG - 1.0e17
    for i in range(n):
        v = option_value(state, rules, comp, pp, seat, dp, state[L.S_OPTIONS + i])
        if v > bv:
            bv = v
            best = i
    return best

