"""Rattlebones policies: ``random`` and the parameterized ``greedy`` heuristic (§9 D01..D13).

A policy reads the state, the rules and its seat's row of ``pparams`` and returns one of the
legal options the kernel listed in ``opts[:n]`` (encodings in ``kernel.py``'s docstring). It never
mutates the state. Decision context (die, face, slot, victim) is in the ``S_CTX_*`` fields.

Policy kinds: K_RANDOM (uniform over the legal options, SUB_POLICY stream), K_GREEDY (presets
``greedy``, ``aggressive``, ``hoarder`` differ only in ``POLICY_PARAMS`` overrides).
"""
from numba import njit

from sim.rng import randint

from .kernel import (
    ARROW_ANY, D_ARROW, D_DICE, D_DOUBLE, D_EXTRA, D_INSTALL, D_MOVE, D_NINE, D_ORDER,
    D_PLUS1, D_REROLL, D_RM_MOVE, D_SHOP, D_THIEF, F_ARROW, F_FACE, F_GOLD, F_MONKEY, F_SCORE,
    F_STARS, F_STOCKS, FC_ARROW, FC_DOUBLE, FC_GAMBLE, FC_GOLD, FC_NINE, FC_PIP_2, FC_PIP_6,
    FC_POINTS_1, FC_POINTS_5, FC_RANK, FC_REROLL, FC_RINGMASTER, FC_STAR, FC_STOCK, FC_THIEF,
    FC_TRAIN, MOVE_CODE, N_SLOTS, PLUS1_DIE, PLUS1_KIND, R_ARROW_TARGETS,
    R_DOUBLE_MULTIPLIER, R_GOLD_PER_EXTRA_DIE, R_PLUS1_ANY_DIE, R_POINT_FACE_MAX,
    R_RANK_POINTS, R_SHOP_MAX_STARS, R_SHOP_ON_PASS, R_STAR_EXCHANGE, S_CTX_DIE, S_CTX_FACE,
    S_CTX_SLOT, S_CTX_VICTIM, S_FACE_SUPPLY, S_N_DICE, S_N_MONKEYS, S_N_PLAYERS, S_OPP, S_R,
    S_ROLLED, S_SPACE_FACE, S_SPACE_KIND, S_START_INDEX, S_TRACK_LEN, S_TRAIN_LEN,
    S_TRAIN_POS, S_TRAIN_TRACK, SP_FACE, SP_PLUS1, SP_START, TK_STOCK, _sb, die_result,
    double_mult,
)

K_RANDOM = 0
K_GREEDY = 1

# ---- policy parameter offsets (== sim.spec.layout(rules.POLICY_PARAMS); checked by a test) --
P_GOLD_RESERVE = 0
P_EXTRA_DICE_MODE = 1
P_EXTRA_DIE_MIN_VALUE = 2
P_V_RINGMASTER = 3
P_V_PIP = 4
P_V_NINE = 5
P_V_POINTS = 6
P_V_GOLD = 12
P_V_STAR = 13
P_V_TRAIN = 14
P_V_RANK = 15
P_V_GAMBLE = 16
P_V_DOUBLE = 17
P_V_REROLL = 18
P_V_THIEF_PER_OPPONENT = 19
P_V_STOCK = 20
P_ARROW_PENALTY = 21
P_INSTALL_MARGIN = 22
P_PROTECT_ARROW_TARGETS = 23
P_AVOID_RINGMASTER_TARGET = 24
P_PLUS1_PREFER_UPGRADE = 25
P_W_INSTALL = 26
P_W_SHOP = 27
P_STAR_CASH_MIN = 28
P_CASH_ALL_IF_GAP_LE = 29
P_GAINS_FIRST = 30
P_RINGMASTER_LAST_IF_NOT_LEADING = 31
P_MOVES_BEFORE_ABILITIES = 32
P_DECLINE_IF_BELOW = 33
P_MONKEY_TIEBREAK = 34
P_W_STEAL_GOLD = 35
P_W_STEAL_STAR = 36
P_W_STEAL_STOCK = 37
P_STOCK_RACE_OVERRIDE = 38
P_LEN = 39

MODE_NEVER = 0
MODE_MAX = 1
MODE_THRESHOLD = 2
TIE_REARMOST = 0
NEG = -1.0e18


# ==== evaluation helpers ======================================================================
@njit(cache=True, inline='always')
def face_value(state, rules, pp, seat, f):
    """Baseline value of face ``f`` (§9 table; every entry a policy parameter). ARROW: 0 here
    (see ``slot_value``)."""
    if f == FC_RINGMASTER:
        return pp[seat, P_V_RINGMASTER]
    if FC_PIP_2 <= f <= FC_PIP_6:
        return pp[seat, P_V_PIP]
    if f == FC_NINE:
        return pp[seat, P_V_NINE]
    if FC_POINTS_1 <= f <= FC_POINTS_5:
        return pp[seat, P_V_POINTS + 1 + f - FC_POINTS_1]
    if f == FC_GOLD:
        return pp[seat, P_V_GOLD]
    if f == FC_STAR:
        return pp[seat, P_V_STAR]
    if f == FC_TRAIN:
        v = pp[seat, P_V_TRAIN]
        if v >= 0:
            return v
        tot = 0.0
        for i in range(state[S_TRAIN_LEN]):
            tot += state[S_TRAIN_TRACK + i]
        return tot / state[S_TRAIN_LEN]
    if f == FC_RANK:
        v = pp[seat, P_V_RANK]
        if v >= 0:
            return v
        return (state[S_N_PLAYERS] + 1) / 2.0
    if f == FC_GAMBLE:
        return pp[seat, P_V_GAMBLE]
    if f == FC_DOUBLE:
        return pp[seat, P_V_DOUBLE]
    if f == FC_REROLL:
        return pp[seat, P_V_REROLL]
    if f == FC_THIEF:
        return pp[seat, P_V_THIEF_PER_OPPONENT] * (state[S_N_PLAYERS] - 1)
    if f == FC_STOCK:
        return pp[seat, P_V_STOCK]
    return 0.0


@njit(cache=True, inline='always')
def slot_value(state, rules, pp, seat, die, s):
    """Value of slot index ``s`` of ``die``; an ARROW is worth its target minus the penalty."""
    b = _sb(seat) + die * N_SLOTS
    f = state[b + F_FACE + s]
    if f != FC_ARROW:
        return face_value(state, rules, pp, seat, f)
    t = state[b + F_ARROW + s]
    if t < 0 or state[b + F_FACE + t] == FC_ARROW:
        return 0.0
    return face_value(state, rules, pp, seat, state[b + F_FACE + t]) - pp[seat, P_ARROW_PENALTY]


@njit(cache=True, inline='always')
def die_value(state, rules, pp, seat, die):
    """``die_value = sum of slot values / 6`` (§9 D02)."""
    v = 0.0
    for s in range(N_SLOTS):
        v += slot_value(state, rules, pp, seat, die, s)
    return v / N_SLOTS


@njit(cache=True, inline='always')
def _arrows_on(state, seat, die, s):
    """Number of arrows of ``die`` that target slot index ``s``."""
    b = _sb(seat) + die * N_SLOTS
    c = 0
    for q in range(N_SLOTS):
        if state[b + F_FACE + q] == FC_ARROW and state[b + F_ARROW + q] == s:
            c += 1
    return c


@njit(cache=True)
def best_arrow_target(state, rules, pp, seat, die, s):
    """(value, slot number) of the best arrow target for an arrow in slot index ``s`` (D09)."""
    b = _sb(seat) + die * N_SLOTS
    anyt = int(rules[R_ARROW_TARGETS]) == ARROW_ANY
    best = NEG
    bt = 0
    avoid = pp[seat, P_AVOID_RINGMASTER_TARGET] > 0.5
    for t in range(N_SLOTS):
        if t == s or (not anyt and t == state[S_OPP + s]):
            continue
        f = state[b + F_FACE + t]
        v = 0.0 if f == FC_ARROW else face_value(state, rules, pp, seat, f)
        if avoid and f == FC_RINGMASTER:
            v -= 1.0e6
        if v > best:
            best = v
            bt = t + 1
    return best - pp[seat, P_ARROW_PENALTY], bt


@njit(cache=True)
def install_gain(state, rules, pp, seat, die, s, x):
    """Value gained by installing face ``x`` in slot index ``s`` of ``die`` (D08)."""
    old = slot_value(state, rules, pp, seat, die, s)
    if x == FC_ARROW:
        new, _ = best_arrow_target(state, rules, pp, seat, die, s)
    else:
        new = face_value(state, rules, pp, seat, x)
    w = 1.0
    if pp[seat, P_PROTECT_ARROW_TARGETS] > 0.5:
        w += _arrows_on(state, seat, die, s)
    return w * (new - old)


@njit(cache=True)
def best_install(state, rules, pp, seat, die, x):
    """(gain, slot number) of the best slot 2..6 for face ``x`` on ``die``; (NEG, 0) if the
    pile is empty."""
    if state[S_FACE_SUPPLY + x] < 1:
        return NEG, 0
    best = NEG
    bs = 0
    for s in range(1, N_SLOTS):
        g = install_gain(state, rules, pp, seat, die, s, x)
        if g > best:
            best = g
            bs = s + 1
    return best, bs


@njit(cache=True)
def plus1_gain(state, rules, pp, seat, die, a):
    """Value of +1 choice ``a`` (D10 encoding); -1 (decline) is worth 0."""
    if a < 0:
        return 0.0
    kind = a // PLUS1_KIND
    d = (a % PLUS1_KIND) // PLUS1_DIE
    s = a % PLUS1_DIE - 1
    if kind == 0:
        return install_gain(state, rules, pp, seat, d, s, FC_POINTS_1)
    f = state[_sb(seat) + F_FACE + d * N_SLOTS + s]
    g = face_value(state, rules, pp, seat, f + 1) - face_value(state, rules, pp, seat, f)
    if pp[seat, P_PLUS1_PREFER_UPGRADE] > 0.5:
        g += 1.0e-6
    return g


@njit(cache=True)
def best_plus1(state, rules, pp, seat, die):
    """Best +1 gain on landing with ``die`` (same legality as kernel.plus1_options)."""
    best = 0.0
    if state[S_FACE_SUPPLY + FC_POINTS_1] >= 1:
        for s in range(1, N_SLOTS):
            best = max(best, install_gain(state, rules, pp, seat, die, s, FC_POINTS_1))
    kmax = int(rules[R_POINT_FACE_MAX])
    anyd = rules[R_PLUS1_ANY_DIE] > 0.5
    for d in range(state[S_N_DICE]):
        if d != die and not anyd:
            continue
        for s in range(1, N_SLOTS):
            f = state[_sb(seat) + F_FACE + d * N_SLOTS + s]
            if FC_POINTS_1 <= f <= FC_POINTS_5 and f - FC_POINTS_1 + 1 < kmax \
                    and state[S_FACE_SUPPLY + f + 1] >= 1:
                best = max(best, plus1_gain(state, rules, pp, seat, die,
                                            PLUS1_KIND + d * PLUS1_DIE + s + 1))
    return best


@njit(cache=True)
def shop_k(state, rules, pp, seat, kmax):
    """D11: stars to cash: all allowed when R - score <= cash_all_if_gap_le, or when holding at
    least star_cash_min stars; else 0."""
    b = _sb(seat)
    if kmax <= 0:
        return 0
    gap = state[S_R] - state[b + F_SCORE]
    if gap <= pp[seat, P_CASH_ALL_IF_GAP_LE] or state[b + F_STARS] >= pp[seat, P_STAR_CASH_MIN]:
        return kmax
    return 0


@njit(cache=True)
def shop_value(state, rules, pp, seat):
    """Points the shop would give now (D11 choice), for a landing evaluation."""
    kmax = min(int(rules[R_SHOP_MAX_STARS]), int(rules[R_STAR_EXCHANGE]) - 1,
               state[_sb(seat) + F_STARS])
    k = shop_k(state, rules, pp, seat, kmax)
    return rules[R_STAR_EXCHANGE + 1 + k] if k > 0 else 0.0


@njit(cache=True)
def landing_value(state, rules, pp, seat, die, frm, dist):
    """D06 ``landing_value``: best install / +1 gain, or shop points, of moving ``dist`` from
    ``frm`` with ``die`` as the moving die."""
    L = state[S_TRACK_LEN]
    st = state[S_START_INDEX]
    to = (frm + dist) % L
    kind = state[S_SPACE_KIND + to]
    if kind == SP_START:
        return pp[seat, P_W_SHOP] * shop_value(state, rules, pp, seat)
    v = 0.0
    if rules[R_SHOP_ON_PASS] > 0.5:
        for i in range(1, dist):
            if (frm + i) % L == st:
                v += pp[seat, P_W_SHOP] * shop_value(state, rules, pp, seat)
                break
    if kind == SP_FACE:
        g, _ = best_install(state, rules, pp, seat, die, state[S_SPACE_FACE + to])
        v += pp[seat, P_W_INSTALL] * max(g, 0.0)
    elif kind == SP_PLUS1:
        v += pp[seat, P_W_INSTALL] * best_plus1(state, rules, pp, seat, die)
    return v


# ==== greedy decisions =======================================================================
@njit(cache=True)
def greedy_extra_dice(state, rules, pp, seat, opts, n):
    """D01: never / max / threshold (extra die only if its die_value >= extra_die_min_value),
    keeping ``gold_reserve`` gold."""
    mode = int(pp[seat, P_EXTRA_DICE_MODE])
    emax = opts[n - 1]
    if mode == MODE_NEVER:
        return 0
    cost = int(rules[R_GOLD_PER_EXTRA_DIE])
    afford = emax
    if cost > 0:
        afford = max(0, (state[_sb(seat) + F_GOLD] - int(pp[seat, P_GOLD_RESERVE])) // cost)
    cap = min(emax, afford)
    if mode == MODE_MAX:
        return cap
    # threshold: count dice (besides the best, which is free) worth at least the minimum
    nd = state[S_N_DICE]
    best = NEG
    for d in range(nd):
        best = max(best, die_value(state, rules, pp, seat, d))
    good = 0
    skipped = False
    for d in range(nd):
        v = die_value(state, rules, pp, seat, d)
        if v == best and not skipped:
            skipped = True
            continue
        if v >= pp[seat, P_EXTRA_DIE_MIN_VALUE]:
            good += 1
    return min(cap, good)


@njit(cache=True)
def greedy_dice(state, rules, pp, seat, opts, n):
    """D02: the subset with the highest total die_value."""
    best = NEG
    ba = opts[0]
    for i in range(n):
        m = opts[i]
        v = 0.0
        for d in range(state[S_N_DICE]):
            if (m >> d) & 1:
                v += die_value(state, rules, pp, seat, d)
        if v > best + 1e-12:
            best = v
            ba = m
    return ba


@njit(cache=True)
def greedy_reroll(state, rules, pp, seat, opts, n):
    """D03: add the unrolled die with the highest die_value (always apply the Reroll)."""
    best = NEG
    ba = opts[0]
    for i in range(n):
        d = opts[i]
        if d < 0:
            continue
        v = die_value(state, rules, pp, seat, d)
        if v > best + 1e-12:
            best = v
            ba = d
    return ba


@njit(cache=True)
def doubled_gain(state, rules, pp, seat, d):
    """D04: value added by one more Double on die ``d`` (points, rank, train, star, gold)."""
    f = die_result(state, rules, seat, d)
    cur = double_mult(state, rules, d)
    extra = cur * (int(rules[R_DOUBLE_MULTIPLIER]) - 1)
    b = _sb(seat)
    if FC_POINTS_1 <= f <= FC_POINTS_5:
        return extra * (f - FC_POINTS_1 + 1)
    if f == FC_RANK:
        me = state[b + F_SCORE]
        r = 1
        for p in range(state[S_N_PLAYERS]):
            if state[_sb(p) + F_SCORE] > me:
                r += 1
        return extra * rules[R_RANK_POINTS + min(r, 4)]
    if f == FC_TRAIN:
        return extra * state[S_TRAIN_TRACK + state[S_TRAIN_POS]]
    if f == FC_STAR:
        return extra * pp[seat, P_V_STAR]
    if f == FC_GOLD:
        g = extra * pp[seat, P_V_GOLD]
        if state[b + F_GOLD] < pp[seat, P_GOLD_RESERVE]:
            g += 1.0e-3
        return g
    return 0.0


@njit(cache=True)
def greedy_double(state, rules, pp, seat, opts, n):
    """D04: target the die whose doubled gain is largest."""
    best = NEG
    ba = opts[0]
    for i in range(n):
        g = doubled_gain(state, rules, pp, seat, opts[i])
        if g > best + 1e-12:
            best = g
            ba = opts[i]
    return ba


@njit(cache=True)
def greedy_order(state, rules, pp, seat, opts, n):
    """D05: RANK_1234 first, then gains, moves, Ringmaster results (``gains_first``,
    ``ringmaster_last_if_not_leading``, ``moves_before_abilities``)."""
    me = state[_sb(seat) + F_SCORE]
    leading = True
    for p in range(state[S_N_PLAYERS]):
        if p != seat and state[_sb(p) + F_SCORE] > me:
            leading = False
    best = 1.0e18
    ba = opts[0]
    for i in range(n):
        d = opts[i]
        f = die_result(state, rules, seat, d)
        if f == FC_RINGMASTER:
            pr = 3.0
            if pp[seat, P_GAINS_FIRST] < 0.5:
                pr = -2.0
            if pp[seat, P_RINGMASTER_LAST_IF_NOT_LEADING] > 0.5 and not leading:
                pr = 10.0
        elif FC_PIP_2 <= f <= FC_NINE:
            pr = -1.0 if pp[seat, P_MOVES_BEFORE_ABILITIES] > 0.5 else 2.0
        elif f == FC_RANK:
            pr = 0.0
        else:
            pr = 1.0
        if pr < best:
            best = pr
            ba = d
    return ba


@njit(cache=True)
def greedy_move(state, rules, pp, seat, opts, n):
    """D06 / D07 / D13: the (distance, monkey) with the best landing value; monkey tie-break
    rearmost / frontmost; decline when the best is below ``decline_if_below``."""
    b = _sb(seat)
    die = state[S_CTX_DIE]
    L = state[S_TRACK_LEN]
    st = state[S_START_INDEX]
    sign = -1.0 if int(pp[seat, P_MONKEY_TIEBREAK]) == TIE_REARMOST else 1.0
    best = NEG
    ba = -1
    can_decline = False
    for i in range(n):
        a = opts[i]
        if a < 0:
            can_decline = True
            continue
        m = a % MOVE_CODE
        dist = a // MOVE_CODE
        frm = state[b + F_MONKEY + m]
        v = landing_value(state, rules, pp, seat, die, frm, dist)
        v += sign * 1.0e-4 * ((frm - st) % L) + 1.0e-6 * dist
        if v > best:
            best = v
            ba = a
    if can_decline and best < pp[seat, P_DECLINE_IF_BELOW]:
        return -1
    return ba


@njit(cache=True)
def greedy_install(state, rules, pp, seat, opts, n):
    """D08: replace the slot with the largest gain if it exceeds ``install_margin``."""
    g, s = best_install(state, rules, pp, seat, state[S_CTX_DIE], state[S_CTX_FACE])
    if s > 0 and g > pp[seat, P_INSTALL_MARGIN]:
        return s
    return 0


@njit(cache=True)
def greedy_arrow(state, rules, pp, seat, opts, n):
    """D09: point at the highest-value slot (``avoid_ringmaster_target``)."""
    _, t = best_arrow_target(state, rules, pp, seat, state[S_CTX_DIE], state[S_CTX_SLOT])
    return t


@njit(cache=True)
def greedy_plus1(state, rules, pp, seat, opts, n):
    """D10: the +1 choice with the largest gain above ``install_margin``, else decline."""
    die = state[S_CTX_DIE]
    best = pp[seat, P_INSTALL_MARGIN]
    ba = -1
    for i in range(n):
        a = opts[i]
        if a < 0:
            continue
        g = plus1_gain(state, rules, pp, seat, die, a)
        if g > best:
            best = g
            ba = a
    return ba


@njit(cache=True)
def greedy_thief(state, rules, pp, seat, opts, n):
    """D12: token type by ``w_steal_*``; ``stock_race_override`` takes a stock when the victim
    holds at least as many stocks as we do."""
    v = state[S_CTX_VICTIM]
    best = NEG
    ba = opts[0]
    for i in range(n):
        t = opts[i]
        if t == TK_STOCK and pp[seat, P_STOCK_RACE_OVERRIDE] > 0.5 \
                and state[_sb(v) + F_STOCKS] >= state[_sb(seat) + F_STOCKS]:
            return t
        w = pp[seat, P_W_STEAL_GOLD + t]
        if w > best:
            best = w
            ba = t
    return ba


@njit(cache=True)
def greedy(state, rules, pp, seat, dp, opts, n):
    """Dispatch the greedy heuristic on decision point ``dp``."""
    if dp == D_EXTRA:
        return greedy_extra_dice(state, rules, pp, seat, opts, n)
    if dp == D_DICE:
        return greedy_dice(state, rules, pp, seat, opts, n)
    if dp == D_REROLL:
        return greedy_reroll(state, rules, pp, seat, opts, n)
    if dp == D_DOUBLE:
        return greedy_double(state, rules, pp, seat, opts, n)
    if dp == D_ORDER:
        return greedy_order(state, rules, pp, seat, opts, n)
    if dp == D_MOVE or dp == D_NINE or dp == D_RM_MOVE:
        return greedy_move(state, rules, pp, seat, opts, n)
    if dp == D_INSTALL:
        return greedy_install(state, rules, pp, seat, opts, n)
    if dp == D_ARROW:
        return greedy_arrow(state, rules, pp, seat, opts, n)
    if dp == D_PLUS1:
        return greedy_plus1(state, rules, pp, seat, opts, n)
    if dp == D_SHOP:
        return shop_k(state, rules, pp, seat, opts[n - 1])
    if dp == D_THIEF:
        return greedy_thief(state, rules, pp, seat, opts, n)
    return opts[0]


@njit(cache=True)
def choose(state, rules, kind, pp, seat, dp, opts, n, rng):
    """Return one of ``opts[:n]`` for decision ``dp`` of ``seat`` (policy ``kind``).

    Parameters
    ----------
    state : int64[...] game state (read only)
    rules : float64[R_LEN]
    kind : int, K_RANDOM or K_GREEDY
    pp : float64[n_players, P_LEN] policy parameters (row ``seat`` is used)
    seat : int
    dp : int, decision point D_*
    opts : int64[...] legal options, ``n`` of them (n >= 2)
    rng : uint64[1] SUB_POLICY stream (random policy only)

    Returns
    -------
    int, the chosen option.
    """
    if kind == K_RANDOM:
        return opts[randint(rng, n)]
    return greedy(state, rules, pp, seat, dp, opts, n)
