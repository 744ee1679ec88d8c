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

from . import layout as L
from . import options as O
from . import rules as R
from .dice import die_result, double_mult, passes, seat_base, space_after

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
    if f == L.FC_RINGMASTER:
        return pp[seat, R.P_V_RINGMASTER]
    if L.FC_PIP_2 <= f <= L.FC_PIP_6:
        return pp[seat, R.P_V_PIP]
    if f == L.FC_NINE:
        return pp[seat, R.P_V_NINE]
    if L.FC_POINTS_1 <= f <= L.FC_POINTS_5:
        return pp[seat, R.P_W_POINTS] * pp[seat, R.P_V_POINTS + 1 + f - L.FC_POINTS_1]
    if f == L.FC_GOLD:
        return pp[seat, R.P_V_GOLD]
    if f == L.FC_STAR:
        return pp[seat, R.P_V_STAR]
    if f == L.FC_TRAIN:
        v = pp[seat, R.P_V_TRAIN]
        if v >= 0:
            return v
        tot = 0.0
        for i in range(state[L.S_TRAIN_LEN]):
            tot += state[L.S_TRAIN_TRACK + i]
        return tot / state[L.S_TRAIN_LEN]
    if f == L.FC_RANK:
        v = pp[seat, R.P_V_RANK]
        if v >= 0:
            return v
        return (state[L.S_N_PLAYERS] + 1) / 2.0
    if f == L.FC_GAMBLE:
        return pp[seat, R.P_V_GAMBLE]
    if f == L.FC_DOUBLE:
        return pp[seat, R.P_V_DOUBLE]
    if f == L.FC_REROLL:
        return pp[seat, R.P_V_REROLL]
    if f == L.FC_THIEF:
        return pp[seat, R.P_V_THIEF_PER_OPPONENT] * (state[L.S_N_PLAYERS] - 1)
    if f == L.FC_STOCK:
        return pp[seat, R.P_V_STOCK]
    return 0.0


@njit(cache=True)
def fill_cfg(cfg, state, rules, kinds, pp):
    """Fill ``cfg`` (float64[C_LEN]) for a set-up game: rules, kinds, policy parameters and
    the face-value tables (they read the train track and n from ``state``)."""
    for i in range(R.R_LEN):
        cfg[i] = rules[i]
    for p in range(L.MAX_PLAYERS):
        cfg[R.C_KIND + p] = kinds[p] if p < kinds.shape[0] else L.K_RANDOM
    for p in range(min(pp.shape[0], L.MAX_PLAYERS)):
        for j in range(R.P_LEN):
            cfg[R.C_PP + p * R.P_LEN + j] = pp[p, j]
        for f in range(L.N_FACES):
            cfg[R.C_FV + p * L.N_FACES + f] = face_value(state, pp, p, f)


@njit(cache=True)
def slot_value(state, cfg, seat, die, s):
    """Value of slot index ``s`` of ``die``; an ARROW is worth its target minus the penalty."""
    b = seat_base(seat) + die * L.N_SLOTS
    f = state[b + L.F_FACE + s]
    if f != L.FC_ARROW:
        return cfg[R.C_FV + seat * L.N_FACES + f]
    t = state[b + L.F_ARROW + s]
    if t < 0 or state[b + L.F_FACE + t] == L.FC_ARROW:
        return 0.0
    return cfg[R.C_FV + seat * L.N_FACES + state[b + L.F_FACE + t]] - cfg[R.C_PP + seat * R.P_LEN + R.P_ARROW_PENALTY]


@njit(cache=True)
def star_roll_value(state, cfg, seat):
    """Value of rolling a STAR now (D01-D03): ``v_star``, but 0 while the seat already holds
    ``star_hoard_max`` stars (a full exchange waits at START: roll the dice that can take a
    monkey there) or the star supply is dry; ``star_hoard_max`` = 0 never lowers it."""
    hmax = cfg[R.C_PP + seat * R.P_LEN + R.P_STAR_HOARD_MAX]
    if hmax > 0 and (state[seat_base(seat) + L.F_STARS] >= hmax
                     or (state[L.S_STAR_LIMITED] == 1 and state[L.S_STAR_SUPPLY] <= 0)):
        return 0.0
    return cfg[R.C_PP + seat * R.P_LEN + R.P_V_STAR]


@njit(cache=True)
def die_values(state, cfg, seat):
    """``die_value = sum of slot values / 6`` (§9 D02) of each die of ``seat``, into
    ``cfg[C_DV + die]``; STAR faces (and arrows at them) count at ``star_roll_value``: its
    entry of the face-value table is swapped in for this evaluation and restored after, so
    installs keep valuing STAR at ``v_star``."""
    cfg[R.C_FV + seat * L.N_FACES + L.FC_STAR] = star_roll_value(state, cfg, seat)
    for d in range(state[L.S_N_DICE]):
        v = 0.0
        for s in range(L.N_SLOTS):
            v += slot_value(state, cfg, seat, d, s)
        cfg[R.C_DV + d] = v / L.N_SLOTS
    cfg[R.C_FV + seat * L.N_FACES + L.FC_STAR] = cfg[R.C_PP + seat * R.P_LEN + R.P_V_STAR]


@njit(cache=True)
def _prep_die(state, cfg, seat, die):
    """Slot values ``cfg[C_SV + s]`` and install weights ``cfg[C_W + s]`` of ``die`` (1, plus
    one per arrow of the die targeting s with ``protect_arrow_targets``), for ``install_gain``.
    While the die has at most ``keep_moves`` number faces (pips, NINE) in slots 2..6, each of
    them is worth ``v_keep_move`` more: a die without them can no longer move a monkey, so it
    can neither reach START to cash stars nor pick up faces (the stall of old greedy)."""
    b = seat_base(seat) + die * L.N_SLOTS
    moves = 0
    for s in range(L.N_SLOTS):
        cfg[R.C_SV + s] = slot_value(state, cfg, seat, die, s)
        cfg[R.C_W + s] = 1.0
        if s > 0 and L.FC_PIP_2 <= state[b + L.F_FACE + s] <= L.FC_NINE:
            moves += 1
    if moves <= cfg[R.C_PP + seat * R.P_LEN + R.P_KEEP_MOVES]:
        for s in range(1, L.N_SLOTS):
            if L.FC_PIP_2 <= state[b + L.F_FACE + s] <= L.FC_NINE:
                cfg[R.C_SV + s] += cfg[R.C_PP + seat * R.P_LEN + R.P_V_KEEP_MOVE]
    if cfg[R.C_PP + seat * R.P_LEN + R.P_PROTECT_ARROW_TARGETS] > 0.5:
        for q in range(L.N_SLOTS):
            if state[b + L.F_FACE + q] == L.FC_ARROW:
                t = state[b + L.F_ARROW + q]
                if 0 <= t < L.N_SLOTS:
                    cfg[R.C_W + t] += 1.0


@njit(cache=True)
def best_arrow_target(state, cfg, seat, die, s):
    """(value, slot number) of the best arrow target for an arrow in slot index ``s`` (D09)."""
    b = seat_base(seat) + die * L.N_SLOTS
    anyt = int(cfg[R.R_ARROW_TARGETS]) == R.ARROW_ANY
    best = NEG
    bt = 0
    avoid = cfg[R.C_PP + seat * R.P_LEN + R.P_AVOID_RINGMASTER_TARGET] > 0.5
    for t in range(L.N_SLOTS):
        if t == s or (not anyt and t == state[L.S_OPP + s]):
            continue
        f = state[b + L.F_FACE + t]
        v = cfg[R.C_FV + seat * L.N_FACES + f]   # 0 for an ARROW
        if avoid and f == L.FC_RINGMASTER:
            v -= 1.0e6
        if v > best:
            best = v
            bt = t + 1
    return best - cfg[R.C_PP + seat * R.P_LEN + R.P_ARROW_PENALTY], bt


@njit(cache=True)
def install_gain(state, cfg, seat, die, s, x):
    """Value gained by installing face ``x`` in slot index ``s`` of ``die`` (D08); ``die``
    must be prepared by ``_prep_die``."""
    old = cfg[R.C_SV + s]
    if x == L.FC_ARROW:
        new, _ = best_arrow_target(state, cfg, seat, die, s)
    else:
        new = cfg[R.C_FV + seat * L.N_FACES + x]
    return cfg[R.C_W + s] * (new - old)


@njit(cache=True)
def best_install(state, cfg, seat, die, x):
    """(gain, slot number) of the best slot 2..6 for face ``x`` on ``die`` (prepared by
    ``_prep_die``); (NEG, 0) if the pile is empty."""
    if state[L.S_FACE_SUPPLY + x] < 1:
        return NEG, 0
    best = NEG
    bs = 0
    for s in range(1, L.N_SLOTS):
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
    kind, d, s = O.decode_plus1(a)
    if kind == 0:
        return install_gain(state, cfg, seat, d, s, L.FC_POINTS_1)
    f = state[seat_base(seat) + L.F_FACE + d * L.N_SLOTS + s]
    g = cfg[R.C_FV + seat * L.N_FACES + f + 1] - cfg[R.C_FV + seat * L.N_FACES + f]
    if cfg[R.C_PP + seat * R.P_LEN + R.P_PLUS1_PREFER_UPGRADE] > 0.5:
        g += 1.0e-6
    return g


@njit(cache=True)
def best_plus1(state, cfg, seat, die):
    """Best +1 gain on landing with ``die`` (prepared; same legality as kernel.list_plus1)."""
    best = 0.0
    if state[L.S_FACE_SUPPLY + L.FC_POINTS_1] >= 1:
        for s in range(1, L.N_SLOTS):
            best = max(best, install_gain(state, cfg, seat, die, s, L.FC_POINTS_1))
    kmax = int(cfg[R.R_POINT_FACE_MAX])
    anyd = cfg[R.R_PLUS1_ANY_DIE] > 0.5
    for d in range(state[L.S_N_DICE]):
        if d != die and not anyd:
            continue
        for s in range(1, L.N_SLOTS):
            f = state[seat_base(seat) + L.F_FACE + d * L.N_SLOTS + s]
            if L.FC_POINTS_1 <= f <= L.FC_POINTS_5 and f - L.FC_POINTS_1 + 1 < kmax \
                    and state[L.S_FACE_SUPPLY + f + 1] >= 1:
                best = max(best, plus1_gain(state, cfg, seat, die, O.encode_plus1(1, d, s)))
    return best


@njit(cache=True)
def shop_k(state, cfg, seat, kmax):
    """D11: stars to cash: all allowed when R - score <= cash_all_if_gap_le, or when holding at
    least star_cash_min stars; else 0."""
    b = seat_base(seat)
    if kmax <= 0:
        return 0
    gap = state[L.S_R] - state[b + L.F_SCORE]
    if gap <= cfg[R.C_PP + seat * R.P_LEN + R.P_CASH_ALL_IF_GAP_LE] or \
            state[b + L.F_STARS] >= cfg[R.C_PP + seat * R.P_LEN + R.P_STAR_CASH_MIN]:
        return kmax
    return 0


@njit(cache=True)
def shop_value(state, cfg, seat):
    """Points the shop would give now (D11 choice), for a landing evaluation."""
    kmax = min(int(cfg[R.R_SHOP_MAX_STARS]), int(cfg[R.R_STAR_EXCHANGE]) - 1,
               state[seat_base(seat) + L.F_STARS])
    k = shop_k(state, cfg, seat, kmax)
    return cfg[R.R_STAR_EXCHANGE + 1 + k] if k > 0 else 0.0


# ==== greedy decisions =======================================================================
@njit(cache=True)
def greedy_extra_dice(state, cfg, seat, n):
    """D01: never / max / threshold (extra die only if its die_value >= extra_die_min_value),
    keeping ``gold_reserve`` gold. The options are e = 0..emax, so e is also the index."""
    mode = int(cfg[R.C_PP + seat * R.P_LEN + R.P_EXTRA_DICE_MODE])
    emax = state[L.S_OPTIONS + n - 1]
    if mode == R.MODE_NEVER:
        return 0
    cost = int(cfg[R.R_GOLD_PER_EXTRA_DIE])
    cap = emax
    if cost > 0:   # the most dice the gold above the reserve pays for (cap x cost <= spare)
        spare = (state[seat_base(seat) + L.F_GOLD]
                 - int(cfg[R.C_PP + seat * R.P_LEN + R.P_GOLD_RESERVE]))
        while cap > 0 and cap * cost > spare:
            cap -= 1
    if mode == R.MODE_MAX or cap <= 0:
        return cap
    # threshold: count dice (besides the best, which is free) worth at least the minimum
    nd = state[L.S_N_DICE]
    die_values(state, cfg, seat)
    best = NEG
    for d in range(nd):
        best = max(best, cfg[R.C_DV + d])
    good = 0
    skipped = False
    vmin = cfg[R.C_PP + seat * R.P_LEN + R.P_EXTRA_DIE_MIN_VALUE]
    for d in range(nd):
        v = cfg[R.C_DV + d]
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
    nd = state[L.S_N_DICE]
    best = NEG
    ba = 0
    for i in range(n):
        m = state[L.S_OPTIONS + i]
        v = 0.0
        for d in range(nd):
            if (m >> d) & 1:
                v += cfg[R.C_DV + d]
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
        d = state[L.S_OPTIONS + i]
        if d < 0:
            continue
        v = cfg[R.C_DV + d]
        if v > best + 1e-12:
            best = v
            ba = i
    return ba


@njit(cache=True)
def doubled_gain(state, cfg, seat, d):
    """D04: value added by one more Double on die ``d`` (points, rank, train, star, gold)."""
    f = die_result(state, cfg, seat, d)
    cur = double_mult(state, cfg, d)
    extra = cur * (int(cfg[R.R_DOUBLE_MULTIPLIER]) - 1)
    b = seat_base(seat)
    if L.FC_POINTS_1 <= f <= L.FC_POINTS_5:
        return extra * (f - L.FC_POINTS_1 + 1)
    if f == L.FC_RANK:
        me = state[b + L.F_SCORE]
        r = 1
        for p in range(state[L.S_N_PLAYERS]):
            if state[seat_base(p) + L.F_SCORE] > me:
                r += 1
        return extra * cfg[R.R_RANK_POINTS + min(r, 4)]
    if f == L.FC_TRAIN:
        return extra * state[L.S_TRAIN_TRACK + state[L.S_TRAIN_POS]]
    if f == L.FC_STAR:
        return extra * cfg[R.C_PP + seat * R.P_LEN + R.P_V_STAR]
    if f == L.FC_GOLD:
        g = extra * cfg[R.C_PP + seat * R.P_LEN + R.P_V_GOLD]
        if state[b + L.F_GOLD] < cfg[R.C_PP + seat * R.P_LEN + R.P_GOLD_RESERVE]:
            g += 1.0e-3
        return g
    return 0.0


@njit(cache=True)
def greedy_double(state, cfg, seat, n):
    """D04: target the die whose doubled gain is largest."""
    best = NEG
    ba = 0
    for i in range(n):
        g = doubled_gain(state, cfg, seat, state[L.S_OPTIONS + i])
        if g > best + 1e-12:
            best = g
            ba = i
    return ba


@njit(cache=True)
def greedy_order(state, cfg, seat, n):
    """D05: RANK_1234 first, then gains, moves, Ringmaster results (``gains_first``,
    ``ringmaster_last_if_not_leading``, ``moves_before_abilities``)."""
    me = state[seat_base(seat) + L.F_SCORE]
    leading = True
    for p in range(state[L.S_N_PLAYERS]):
        if p != seat and state[seat_base(p) + L.F_SCORE] > me:
            leading = False
    best = 1.0e18
    ba = 0
    for i in range(n):
        d = state[L.S_OPTIONS + i]
        f = die_result(state, cfg, seat, d)
        if f == L.FC_RINGMASTER:
            pr = 3.0
            if cfg[R.C_PP + seat * R.P_LEN + R.P_GAINS_FIRST] < 0.5:
                pr = -2.0
            if (cfg[R.C_PP + seat * R.P_LEN + R.P_RINGMASTER_LAST_IF_NOT_LEADING] > 0.5
                    and not leading):
                pr = 10.0
        elif L.FC_PIP_2 <= f <= L.FC_NINE:
            pr = -1.0 if cfg[R.C_PP + seat * R.P_LEN + R.P_MOVES_BEFORE_ABILITIES] > 0.5 else 2.0
        elif f == L.FC_RANK:
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
    die = state[L.S_CTX_DIE]
    track_len = state[L.S_TRACK_LEN]
    st = state[L.S_START_INDEX]
    rearmost = int(cfg[R.C_PP + seat * R.P_LEN + R.P_MONKEY_TIEBREAK]) == R.TIE_REARMOST
    sign = -1.0 if rearmost else 1.0
    w_shop = cfg[R.C_PP + seat * R.P_LEN + R.P_W_SHOP]
    w_install = cfg[R.C_PP + seat * R.P_LEN + R.P_W_INSTALL]
    on_pass = cfg[R.R_SHOP_ON_PASS] > 0.5
    _prep_die(state, cfg, seat, die)
    shop = shop_value(state, cfg, seat)
    plus1 = 0.0
    have_plus1 = False
    best = NEG
    ba = 0
    decline = -1
    for i in range(n):
        a = state[L.S_OPTIONS + i]
        if a < 0:
            decline = i
            continue
        dist, m = O.decode_move(a)
        frm = state[b + L.F_MONKEY + m]
        to = space_after(frm, dist, track_len)
        kind = state[L.S_SPACE_KIND + to]
        if kind == L.SP_START:
            v = w_shop * shop
        else:
            v = 0.0
            if on_pass and passes(frm, dist, st, track_len):
                v += w_shop * shop
            if kind == L.SP_FACE:
                g, _ = best_install(state, cfg, seat, die, state[L.S_SPACE_FACE + to])
                v += w_install * max(g, 0.0)
            elif kind == L.SP_PLUS1:
                if not have_plus1:
                    plus1 = best_plus1(state, cfg, seat, die)
                    have_plus1 = True
                v += w_install * plus1
        past = frm - st   # spaces past START, (frm - st) mod track_len
        if past < 0:
            past += track_len
        v += sign * 1.0e-4 * past + 1.0e-6 * dist
        if v > best:
            best = v
            ba = i
    if decline >= 0 and best < cfg[R.C_PP + seat * R.P_LEN + R.P_DECLINE_IF_BELOW]:
        return decline
    return ba


@njit(cache=True)
def greedy_install(state, cfg, seat, n):
    """D08: replace the slot with the largest gain if it exceeds ``install_margin``. The
    options are 0 (decline), then slot numbers 2..6 at indices 1..5."""
    die = state[L.S_CTX_DIE]
    _prep_die(state, cfg, seat, die)
    g, s = best_install(state, cfg, seat, die, state[L.S_CTX_FACE])
    if s > 0 and g > cfg[R.C_PP + seat * R.P_LEN + R.P_INSTALL_MARGIN]:
        return s - 1
    return 0


@njit(cache=True)
def greedy_arrow(state, cfg, seat, n):
    """D09: point at the highest-value slot (``avoid_ringmaster_target``)."""
    _, t = best_arrow_target(state, cfg, seat, state[L.S_CTX_DIE], state[L.S_CTX_SLOT])
    return index_of(state, L.S_OPTIONS, n, t)


@njit(cache=True)
def greedy_plus1(state, cfg, seat, n):
    """D10: the +1 choice with the largest gain above ``install_margin``, else decline."""
    die = state[L.S_CTX_DIE]
    _prep_die(state, cfg, seat, die)
    best = cfg[R.C_PP + seat * R.P_LEN + R.P_INSTALL_MARGIN]
    ba = 0   # decline (-1) is listed first
    for i in range(n):
        a = state[L.S_OPTIONS + i]
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
    v = state[L.S_CTX_VICTIM]
    best = NEG
    ba = 0
    for i in range(n):
        t = state[L.S_OPTIONS + i]
        if t == L.TK_STOCK and cfg[R.C_PP + seat * R.P_LEN + R.P_STOCK_RACE_OVERRIDE] > 0.5 \
                and state[seat_base(v) + L.F_STOCKS] >= state[seat_base(seat) + L.F_STOCKS]:
            return i
        w = cfg[R.C_PP + seat * R.P_LEN + R.P_W_STEAL_GOLD + t]
        if w > best:
            best = w
            ba = i
    return ba


@njit(cache=True)
def greedy(state, cfg, seat, dp, n):
    """The greedy policy: the index of the option that the D_* heuristic of decision point
    ``dp`` picks among the ``n`` pending options (``kernel.choose``; the game loop of the
    kernel calls each heuristic at its own decision point)."""
    if dp == L.D_MOVE or dp == L.D_NINE or dp == L.D_RM_MOVE:
        return greedy_move(state, cfg, seat, n)
    if dp == L.D_EXTRA:
        return greedy_extra_dice(state, cfg, seat, n)
    if dp == L.D_DICE:
        return greedy_dice(state, cfg, seat, n)
    if dp == L.D_REROLL:
        return greedy_reroll(state, cfg, seat, n)
    if dp == L.D_DOUBLE:
        return greedy_double(state, cfg, seat, n)
    if dp == L.D_ORDER:
        return greedy_order(state, cfg, seat, n)
    if dp == L.D_INSTALL:
        return greedy_install(state, cfg, seat, n)
    if dp == L.D_ARROW:
        return greedy_arrow(state, cfg, seat, n)
    if dp == L.D_PLUS1:
        return greedy_plus1(state, cfg, seat, n)
    if dp == L.D_SHOP:   # options k = 0..kmax: k is the index
        return shop_k(state, cfg, seat, state[L.S_OPTIONS + n - 1])
    if dp == L.D_THIEF:
        return greedy_thief(state, cfg, seat, n)
    return 0
