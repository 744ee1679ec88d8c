"""Rattlebones policies: ``random`` and the parameterized ``greedy`` heuristic (§9 D01..D13).

A policy reads the state, the rules and its seat's policy parameters and returns the index of
one of the ``n`` legal options of the pending decision, listed at ``state[S_OPTIONS:]`` (the
options block of ``sim.decide``; encodings in ``layout.py``). It never mutates the state. Decision context (die, face, slot, victim) is in the ``S_CTX_*``
fields.

Inside a game the greedy heuristics read one float64 array ``cfg`` (built per game by
``fill_cfg``; offsets ``C_*`` declared in ``rules.CFG_BLOCK``): the rules (same R_* offsets),
the policy kind and parameters of each seat, each seat's face-value table (§9 ``face_value``,
which depends only on the parameters, the train track and n) and a small scratch area (die
values, slot values of the die being evaluated) that the heuristics fill and reuse within one
decision.

Policy kinds: K_RANDOM (``sim.decide.random_index``: uniform over the legal options,
SUB_POLICY stream; ``kernel.choose``), K_GREEDY (presets ``greedy``, ``novice``, ``aggressive``,
``hoarder`` differ only in ``POLICY_PARAMS`` overrides).

Three weaknesses of the first greedy (kept as preset ``novice``) are fixed by parameters
(issue 14): ``w_points`` (a POINTS_1 was worth exactly the pip it replaced, so +1 was never
taken and point faces never scored), ``keep_moves`` / ``v_keep_move`` (dice filled up with
ability faces until no die could move a monkey: no START, no new faces, games of 100+ rounds,
some 0-0) and ``star_cash_min`` = 1 with ``star_hoard_max`` (stars were cashed only 4 at a time,
and the all-STAR die kept being rolled while the stars could not be cashed).
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module
from sim.decide import index_of

from .dice import die_result, double_mult, seat_base
from .layout import (D_ARROW, D_DICE, D_DOUBLE, D_EXTRA, D_INSTALL, D_MOVE, D_NINE, D_ORDER,
                     D_PLUS1, D_REROLL, D_RM_MOVE, D_SHOP, D_THIEF, FC_ARROW, FC_DOUBLE, FC_GAMBLE,
                     FC_GOLD, FC_NINE, FC_PIP_2, FC_PIP_6, FC_POINTS_1, FC_POINTS_5, FC_RANK,
                     FC_REROLL, FC_RINGMASTER, FC_STAR, FC_STOCK, FC_THIEF, FC_TRAIN, F_ARROW,
                     F_FACE, F_GOLD, F_MONKEY, F_SCORE, F_STARS, F_STOCKS, K_RANDOM, MAX_PLAYERS,
                     MOVE_CODE, N_FACES, N_SLOTS, PLUS1_DIE, PLUS1_KIND, SP_FACE, SP_PLUS1,
                     SP_START, S_CTX_DIE, S_CTX_FACE, S_CTX_SLOT, S_CTX_VICTIM, S_FACE_SUPPLY,
                     S_N_DICE, S_N_PLAYERS, S_OPP, S_OPTIONS, S_R, S_SPACE_FACE, S_SPACE_KIND,
                     S_STAR_LIMITED, S_STAR_SUPPLY, S_START_INDEX, S_TRACK_LEN, S_TRAIN_LEN,
                     S_TRAIN_POS, S_TRAIN_TRACK, TK_STOCK)
from .rules import (ARROW_ANY, C_DV, C_FV, C_KIND, C_PP, C_SV, C_W, MODE_MAX, MODE_NEVER,
                    P_ARROW_PENALTY, P_AVOID_RINGMASTER_TARGET, P_CASH_ALL_IF_GAP_LE,
                    P_DECLINE_IF_BELOW, P_EXTRA_DICE_MODE, P_EXTRA_DIE_MIN_VALUE, P_GAINS_FIRST,
                    P_GOLD_RESERVE, P_INSTALL_MARGIN, P_KEEP_MOVES, P_LEN, P_MONKEY_TIEBREAK,
                    P_MOVES_BEFORE_ABILITIES, P_PLUS1_PREFER_UPGRADE, P_PROTECT_ARROW_TARGETS,
                    P_RINGMASTER_LAST_IF_NOT_LEADING, P_STAR_CASH_MIN, P_STAR_HOARD_MAX,
                    P_STOCK_RACE_OVERRIDE, P_V_DOUBLE, P_V_GAMBLE, P_V_GOLD, P_V_KEEP_MOVE,
                    P_V_NINE, P_V_PIP, P_V_POINTS, P_V_RANK, P_V_REROLL, P_V_RINGMASTER, P_V_STAR,
                    P_V_STOCK, P_V_THIEF_PER_OPPONENT, P_V_TRAIN, P_W_INSTALL, P_W_POINTS, P_W_SHOP,
                    P_W_STEAL_GOLD, R_ARROW_TARGETS, R_DOUBLE_MULTIPLIER, R_GOLD_PER_EXTRA_DIE,
                    R_LEN, R_PLUS1_ANY_DIE, R_POINT_FACE_MAX, R_RANK_POINTS, R_SHOP_MAX_STARS,
                    R_SHOP_ON_PASS, R_STAR_EXCHANGE, TIE_REARMOST)

no_refcount_module(__name__)  # policies never own an array (sim.borrow)
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)

NEG = -1.0e18

# The heuristics index ``cfg`` directly (cfg[C_PP + seat * P_LEN + P_*], cfg[C_FV + seat *
# N_FACES + face]) rather than through small inlined accessors: every inlined call that takes an
# array adds a reference-count pair on it.


# ==== evaluation helpers ======================================================================
@njit(cache=True)
def face_value(state, pp, seat, f):
    """Baseline value of face ``f`` (§9 table; every entry a policy parameter). ARROW: 0 here
    (see ``slot_value``). POINTS_k is worth ``w_points`` x ``v_points[k]``: a point face
    scores on every roll, without a detour to START and without help from the other faces,
    which the other values (pips, tokens) do not; with ``w_points`` = 1 a POINTS_1 is worth
    exactly the pip it would replace and the +1 is never taken. Tabulated per seat in ``cfg`` by
    ``fill_cfg``."""
    if f == FC_RINGMASTER:
        return pp[seat, P_V_RINGMASTER]
    if FC_PIP_2 <= f <= FC_PIP_6:
        return pp[seat, P_V_PIP]
    if f == FC_NINE:
        return pp[seat, P_V_NINE]
    if FC_POINTS_1 <= f <= FC_POINTS_5:
        return pp[seat, P_W_POINTS] * pp[seat, P_V_POINTS + 1 + f - FC_POINTS_1]
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


@njit(cache=True)
def fill_cfg(cfg, state, rules, kinds, pp):
    """Fill ``cfg`` (float64[C_LEN]) for a set-up game: rules, kinds, policy parameters and
    the face-value tables (they read the train track and n from ``state``)."""
    for i in range(R_LEN):
        cfg[i] = rules[i]
    for p in range(MAX_PLAYERS):
        cfg[C_KIND + p] = kinds[p] if p < kinds.shape[0] else K_RANDOM
    for p in range(min(pp.shape[0], MAX_PLAYERS)):
        for j in range(P_LEN):
            cfg[C_PP + p * P_LEN + j] = pp[p, j]
        for f in range(N_FACES):
            cfg[C_FV + p * N_FACES + f] = face_value(state, pp, p, f)


@njit(cache=True)
def slot_value(state, cfg, seat, die, s):
    """Value of slot index ``s`` of ``die``; an ARROW is worth its target minus the penalty."""
    b = seat_base(seat) + die * N_SLOTS
    f = state[b + F_FACE + s]
    if f != FC_ARROW:
        return cfg[C_FV + seat * N_FACES + f]
    t = state[b + F_ARROW + s]
    if t < 0 or state[b + F_FACE + t] == FC_ARROW:
        return 0.0
    return cfg[C_FV + seat * N_FACES + state[b + F_FACE + t]] - cfg[C_PP + seat * P_LEN + P_ARROW_PENALTY]


@njit(cache=True)
def star_roll_value(state, cfg, seat):
    """Value of rolling a STAR now (D01-D03): ``v_star``, but 0 while the seat already holds
    ``star_hoard_max`` stars (a full exchange waits at START: roll the dice that can take a
    monkey there) or the star supply is dry; ``star_hoard_max`` = 0 never lowers it."""
    hmax = cfg[C_PP + seat * P_LEN + P_STAR_HOARD_MAX]
    if hmax > 0 and (state[seat_base(seat) + F_STARS] >= hmax
                     or (state[S_STAR_LIMITED] == 1 and state[S_STAR_SUPPLY] <= 0)):
        return 0.0
    return cfg[C_PP + seat * P_LEN + P_V_STAR]


@njit(cache=True)
def die_values(state, cfg, seat):
    """``die_value = sum of slot values / 6`` (§9 D02) of each die of ``seat``, into
    ``cfg[C_DV + die]``; STAR faces (and arrows at them) count at ``star_roll_value``: its
    entry of the face-value table is swapped in for this evaluation and restored after, so
    installs keep valuing STAR at ``v_star``."""
    cfg[C_FV + seat * N_FACES + FC_STAR] = star_roll_value(state, cfg, seat)
    for d in range(state[S_N_DICE]):
        v = 0.0
        for s in range(N_SLOTS):
            v += slot_value(state, cfg, seat, d, s)
        cfg[C_DV + d] = v / N_SLOTS
    cfg[C_FV + seat * N_FACES + FC_STAR] = cfg[C_PP + seat * P_LEN + P_V_STAR]


@njit(cache=True)
def _prep_die(state, cfg, seat, die):
    """Slot values ``cfg[C_SV + s]`` and install weights ``cfg[C_W + s]`` of ``die`` (1, plus
    one per arrow of the die targeting s with ``protect_arrow_targets``), for ``install_gain``.
    While the die has at most ``keep_moves`` number faces (pips, NINE) in slots 2..6, each of
    them is worth ``v_keep_move`` more: a die without them can no longer move a monkey, so it
    can neither reach START to cash stars nor pick up faces (the stall of old greedy)."""
    b = seat_base(seat) + die * N_SLOTS
    moves = 0
    for s in range(N_SLOTS):
        cfg[C_SV + s] = slot_value(state, cfg, seat, die, s)
        cfg[C_W + s] = 1.0
        if s > 0 and FC_PIP_2 <= state[b + F_FACE + s] <= FC_NINE:
            moves += 1
    if moves <= cfg[C_PP + seat * P_LEN + P_KEEP_MOVES]:
        for s in range(1, N_SLOTS):
            if FC_PIP_2 <= state[b + F_FACE + s] <= FC_NINE:
                cfg[C_SV + s] += cfg[C_PP + seat * P_LEN + P_V_KEEP_MOVE]
    if cfg[C_PP + seat * P_LEN + P_PROTECT_ARROW_TARGETS] > 0.5:
        for q in range(N_SLOTS):
            if state[b + F_FACE + q] == FC_ARROW:
                t = state[b + F_ARROW + q]
                if 0 <= t < N_SLOTS:
                    cfg[C_W + t] += 1.0


@njit(cache=True)
def best_arrow_target(state, cfg, seat, die, s):
    """(value, slot number) of the best arrow target for an arrow in slot index ``s`` (D09)."""
    b = seat_base(seat) + die * N_SLOTS
    anyt = int(cfg[R_ARROW_TARGETS]) == ARROW_ANY
    best = NEG
    bt = 0
    avoid = cfg[C_PP + seat * P_LEN + P_AVOID_RINGMASTER_TARGET] > 0.5
    for t in range(N_SLOTS):
        if t == s or (not anyt and t == state[S_OPP + s]):
            continue
        f = state[b + F_FACE + t]
        v = cfg[C_FV + seat * N_FACES + f]   # 0 for an ARROW
        if avoid and f == FC_RINGMASTER:
            v -= 1.0e6
        if v > best:
            best = v
            bt = t + 1
    return best - cfg[C_PP + seat * P_LEN + P_ARROW_PENALTY], bt


@njit(cache=True)
def install_gain(state, cfg, seat, die, s, x):
    """Value gained by installing face ``x`` in slot index ``s`` of ``die`` (D08); ``die``
    must be prepared by ``_prep_die``."""
    old = cfg[C_SV + s]
    if x == FC_ARROW:
        new, _ = best_arrow_target(state, cfg, seat, die, s)
    else:
        new = cfg[C_FV + seat * N_FACES + x]
    return cfg[C_W + s] * (new - old)


@njit(cache=True)
def best_install(state, cfg, seat, die, x):
    """(gain, slot number) of the best slot 2..6 for face ``x`` on ``die`` (prepared by
    ``_prep_die``); (NEG, 0) if the pile is empty."""
    if state[S_FACE_SUPPLY + x] < 1:
        return NEG, 0
    best = NEG
    bs = 0
    for s in range(1, N_SLOTS):
        g = install_gain(state, cfg, seat, die, s, x)
        if g > best:
            best = g
            bs = s + 1
    return best, bs


@njit(cache=True)
def plus1_gain(state, cfg, seat, die, a):
    """Value of +1 choice ``a`` (D10 encoding) landing with ``die`` (prepared); -1 (decline)
    is worth 0."""
    if a < 0:
        return 0.0
    kind = a // PLUS1_KIND
    d = (a % PLUS1_KIND) // PLUS1_DIE
    s = a % PLUS1_DIE - 1
    if kind == 0:
        return install_gain(state, cfg, seat, d, s, FC_POINTS_1)
    f = state[seat_base(seat) + F_FACE + d * N_SLOTS + s]
    g = cfg[C_FV + seat * N_FACES + f + 1] - cfg[C_FV + seat * N_FACES + f]
    if cfg[C_PP + seat * P_LEN + P_PLUS1_PREFER_UPGRADE] > 0.5:
        g += 1.0e-6
    return g


@njit(cache=True)
def best_plus1(state, cfg, seat, die):
    """Best +1 gain on landing with ``die`` (prepared; same legality as kernel._plus1_options)."""
    best = 0.0
    if state[S_FACE_SUPPLY + FC_POINTS_1] >= 1:
        for s in range(1, N_SLOTS):
            best = max(best, install_gain(state, cfg, seat, die, s, FC_POINTS_1))
    kmax = int(cfg[R_POINT_FACE_MAX])
    anyd = cfg[R_PLUS1_ANY_DIE] > 0.5
    for d in range(state[S_N_DICE]):
        if d != die and not anyd:
            continue
        for s in range(1, N_SLOTS):
            f = state[seat_base(seat) + F_FACE + d * N_SLOTS + s]
            if FC_POINTS_1 <= f <= FC_POINTS_5 and f - FC_POINTS_1 + 1 < kmax \
                    and state[S_FACE_SUPPLY + f + 1] >= 1:
                best = max(best, plus1_gain(state, cfg, seat, die,
                                            PLUS1_KIND + d * PLUS1_DIE + s + 1))
    return best


@njit(cache=True)
def shop_k(state, cfg, seat, kmax):
    """D11: stars to cash: all allowed when R - score <= cash_all_if_gap_le, or when holding at
    least star_cash_min stars; else 0."""
    b = seat_base(seat)
    if kmax <= 0:
        return 0
    gap = state[S_R] - state[b + F_SCORE]
    if gap <= cfg[C_PP + seat * P_LEN + P_CASH_ALL_IF_GAP_LE] or \
            state[b + F_STARS] >= cfg[C_PP + seat * P_LEN + P_STAR_CASH_MIN]:
        return kmax
    return 0


@njit(cache=True)
def shop_value(state, cfg, seat):
    """Points the shop would give now (D11 choice), for a landing evaluation."""
    kmax = min(int(cfg[R_SHOP_MAX_STARS]), int(cfg[R_STAR_EXCHANGE]) - 1,
               state[seat_base(seat) + F_STARS])
    k = shop_k(state, cfg, seat, kmax)
    return cfg[R_STAR_EXCHANGE + 1 + k] if k > 0 else 0.0


# ==== greedy decisions =======================================================================
@njit(cache=True)
def greedy_extra_dice(state, cfg, seat, n):
    """D01: never / max / threshold (extra die only if its die_value >= extra_die_min_value),
    keeping ``gold_reserve`` gold. The options are e = 0..emax, so e is also the index."""
    mode = int(cfg[C_PP + seat * P_LEN + P_EXTRA_DICE_MODE])
    emax = state[S_OPTIONS + n - 1]
    if mode == MODE_NEVER:
        return 0
    cost = int(cfg[R_GOLD_PER_EXTRA_DIE])
    afford = emax
    if cost > 0:
        afford = max(0, (state[seat_base(seat) + F_GOLD] - int(cfg[C_PP + seat * P_LEN + P_GOLD_RESERVE])) // cost)
    cap = min(emax, afford)
    if mode == MODE_MAX or cap <= 0:
        return cap
    # threshold: count dice (besides the best, which is free) worth at least the minimum
    nd = state[S_N_DICE]
    die_values(state, cfg, seat)
    best = NEG
    for d in range(nd):
        best = max(best, cfg[C_DV + d])
    good = 0
    skipped = False
    vmin = cfg[C_PP + seat * P_LEN + P_EXTRA_DIE_MIN_VALUE]
    for d in range(nd):
        v = cfg[C_DV + d]
        if v == best and not skipped:
            skipped = True
            continue
        if v >= vmin:
            good += 1
    return min(cap, good)


@njit(cache=True)
def greedy_dice(state, cfg, seat, n):
    """D02: the subset with the highest total die_value."""
    die_values(state, cfg, seat)
    nd = state[S_N_DICE]
    best = NEG
    ba = 0
    for i in range(n):
        m = state[S_OPTIONS + i]
        v = 0.0
        for d in range(nd):
            if (m >> d) & 1:
                v += cfg[C_DV + d]
        if v > best + 1e-12:
            best = v
            ba = i
    return ba


@njit(cache=True)
def greedy_reroll(state, cfg, seat, n):
    """D03: add the unrolled die with the highest die_value (always apply the Reroll)."""
    die_values(state, cfg, seat)
    best = NEG
    ba = 0
    for i in range(n):
        d = state[S_OPTIONS + i]
        if d < 0:
            continue
        v = cfg[C_DV + d]
        if v > best + 1e-12:
            best = v
            ba = i
    return ba


@njit(cache=True)
def doubled_gain(state, cfg, seat, d):
    """D04: value added by one more Double on die ``d`` (points, rank, train, star, gold)."""
    f = die_result(state, cfg, seat, d)
    cur = double_mult(state, cfg, d)
    extra = cur * (int(cfg[R_DOUBLE_MULTIPLIER]) - 1)
    b = seat_base(seat)
    if FC_POINTS_1 <= f <= FC_POINTS_5:
        return extra * (f - FC_POINTS_1 + 1)
    if f == FC_RANK:
        me = state[b + F_SCORE]
        r = 1
        for p in range(state[S_N_PLAYERS]):
            if state[seat_base(p) + F_SCORE] > me:
                r += 1
        return extra * cfg[R_RANK_POINTS + min(r, 4)]
    if f == FC_TRAIN:
        return extra * state[S_TRAIN_TRACK + state[S_TRAIN_POS]]
    if f == FC_STAR:
        return extra * cfg[C_PP + seat * P_LEN + P_V_STAR]
    if f == FC_GOLD:
        g = extra * cfg[C_PP + seat * P_LEN + P_V_GOLD]
        if state[b + F_GOLD] < cfg[C_PP + seat * P_LEN + P_GOLD_RESERVE]:
            g += 1.0e-3
        return g
    return 0.0


@njit(cache=True)
def greedy_double(state, cfg, seat, n):
    """D04: target the die whose doubled gain is largest."""
    best = NEG
    ba = 0
    for i in range(n):
        g = doubled_gain(state, cfg, seat, state[S_OPTIONS + i])
        if g > best + 1e-12:
            best = g
            ba = i
    return ba


@njit(cache=True)
def greedy_order(state, cfg, seat, n):
    """D05: RANK_1234 first, then gains, moves, Ringmaster results (``gains_first``,
    ``ringmaster_last_if_not_leading``, ``moves_before_abilities``)."""
    me = state[seat_base(seat) + F_SCORE]
    leading = True
    for p in range(state[S_N_PLAYERS]):
        if p != seat and state[seat_base(p) + F_SCORE] > me:
            leading = False
    best = 1.0e18
    ba = 0
    for i in range(n):
        d = state[S_OPTIONS + i]
        f = die_result(state, cfg, seat, d)
        if f == FC_RINGMASTER:
            pr = 3.0
            if cfg[C_PP + seat * P_LEN + P_GAINS_FIRST] < 0.5:
                pr = -2.0
            if cfg[C_PP + seat * P_LEN + P_RINGMASTER_LAST_IF_NOT_LEADING] > 0.5 and not leading:
                pr = 10.0
        elif FC_PIP_2 <= f <= FC_NINE:
            pr = -1.0 if cfg[C_PP + seat * P_LEN + P_MOVES_BEFORE_ABILITIES] > 0.5 else 2.0
        elif f == FC_RANK:
            pr = 0.0
        else:
            pr = 1.0
        if pr < best:
            best = pr
            ba = i
    return ba


@njit(cache=True)
def greedy_move(state, cfg, seat, n):
    """D06 / D07 / D13: the (distance, monkey) with the best ``landing_value`` (best install /
    +1 gain x ``w_install``, or shop points x ``w_shop``, of the space reached with the moving
    die); monkey tie-break rearmost / frontmost; decline when the best is below
    ``decline_if_below``. The die's slot values, the shop value and the +1 value are computed
    once per decision."""
    b = seat_base(seat)
    die = state[S_CTX_DIE]
    L = state[S_TRACK_LEN]
    st = state[S_START_INDEX]
    sign = -1.0 if int(cfg[C_PP + seat * P_LEN + P_MONKEY_TIEBREAK]) == TIE_REARMOST else 1.0
    w_shop = cfg[C_PP + seat * P_LEN + P_W_SHOP]
    w_install = cfg[C_PP + seat * P_LEN + P_W_INSTALL]
    on_pass = cfg[R_SHOP_ON_PASS] > 0.5
    _prep_die(state, cfg, seat, die)
    shop = shop_value(state, cfg, seat)
    plus1 = 0.0
    have_plus1 = False
    best = NEG
    ba = 0
    decline = -1
    for i in range(n):
        a = state[S_OPTIONS + i]
        if a < 0:
            decline = i
            continue
        m = a % MOVE_CODE
        dist = a // MOVE_CODE
        frm = state[b + F_MONKEY + m]
        to = (frm + dist) % L
        kind = state[S_SPACE_KIND + to]
        if kind == SP_START:
            v = w_shop * shop
        else:
            v = 0.0
            if on_pass:
                for j in range(1, dist):
                    if (frm + j) % L == st:
                        v += w_shop * shop
                        break
            if kind == SP_FACE:
                g, _ = best_install(state, cfg, seat, die, state[S_SPACE_FACE + to])
                v += w_install * max(g, 0.0)
            elif kind == SP_PLUS1:
                if not have_plus1:
                    plus1 = best_plus1(state, cfg, seat, die)
                    have_plus1 = True
                v += w_install * plus1
        v += sign * 1.0e-4 * ((frm - st) % L) + 1.0e-6 * dist
        if v > best:
            best = v
            ba = i
    if decline >= 0 and best < cfg[C_PP + seat * P_LEN + P_DECLINE_IF_BELOW]:
        return decline
    return ba


@njit(cache=True)
def greedy_install(state, cfg, seat, n):
    """D08: replace the slot with the largest gain if it exceeds ``install_margin``. The
    options are 0 (decline), then slot numbers 2..6 at indices 1..5."""
    die = state[S_CTX_DIE]
    _prep_die(state, cfg, seat, die)
    g, s = best_install(state, cfg, seat, die, state[S_CTX_FACE])
    if s > 0 and g > cfg[C_PP + seat * P_LEN + P_INSTALL_MARGIN]:
        return s - 1
    return 0


@njit(cache=True)
def greedy_arrow(state, cfg, seat, n):
    """D09: point at the highest-value slot (``avoid_ringmaster_target``)."""
    _, t = best_arrow_target(state, cfg, seat, state[S_CTX_DIE], state[S_CTX_SLOT])
    return index_of(state, S_OPTIONS, n, t)


@njit(cache=True)
def greedy_plus1(state, cfg, seat, n):
    """D10: the +1 choice with the largest gain above ``install_margin``, else decline."""
    die = state[S_CTX_DIE]
    _prep_die(state, cfg, seat, die)
    best = cfg[C_PP + seat * P_LEN + P_INSTALL_MARGIN]
    ba = 0   # decline (-1) is listed first
    for i in range(n):
        a = state[S_OPTIONS + i]
        if a < 0:
            continue
        g = plus1_gain(state, cfg, seat, die, a)
        if g > best:
            best = g
            ba = i
    return ba


@njit(cache=True)
def greedy_thief(state, cfg, seat, n):
    """D12: token type by ``w_steal_*``; ``stock_race_override`` takes a stock when the victim
    holds at least as many stocks as we do."""
    v = state[S_CTX_VICTIM]
    best = NEG
    ba = 0
    for i in range(n):
        t = state[S_OPTIONS + i]
        if t == TK_STOCK and cfg[C_PP + seat * P_LEN + P_STOCK_RACE_OVERRIDE] > 0.5 \
                and state[seat_base(v) + F_STOCKS] >= state[seat_base(seat) + F_STOCKS]:
            return i
        w = cfg[C_PP + seat * P_LEN + P_W_STEAL_GOLD + t]
        if w > best:
            best = w
            ba = i
    return ba


@njit(cache=True)
def greedy(state, cfg, seat, dp, n):
    """The greedy policy: the index of the option that the D_* heuristic of decision point
    ``dp`` picks among the ``n`` pending options (``kernel.choose``; the game loop of the
    kernel calls each heuristic at its own decision point)."""
    if dp == D_MOVE or dp == D_NINE or dp == D_RM_MOVE:
        return greedy_move(state, cfg, seat, n)
    if dp == D_EXTRA:
        return greedy_extra_dice(state, cfg, seat, n)
    if dp == D_DICE:
        return greedy_dice(state, cfg, seat, n)
    if dp == D_REROLL:
        return greedy_reroll(state, cfg, seat, n)
    if dp == D_DOUBLE:
        return greedy_double(state, cfg, seat, n)
    if dp == D_ORDER:
        return greedy_order(state, cfg, seat, n)
    if dp == D_INSTALL:
        return greedy_install(state, cfg, seat, n)
    if dp == D_ARROW:
        return greedy_arrow(state, cfg, seat, n)
    if dp == D_PLUS1:
        return greedy_plus1(state, cfg, seat, n)
    if dp == D_SHOP:   # options k = 0..kmax: k is the index
        return shop_k(state, cfg, seat, state[S_OPTIONS + n - 1])
    if dp == D_THIEF:
        return greedy_thief(state, cfg, seat, n)
    return 0
