"""The ``greedy`` heuristics (parameterized; the presets are parameter sets) of The Little Flower
Shop Dice Game. The ``random`` policy is the generic one of ``sim.decide``.

The kernel's ``choose`` (the one decision interface, ``sim.decide``) asks them at every
decision point of ``shared/rules/flower_shop.md`` §9; each computes the option code it wants,
which ``choose`` looks up among the listed options (``layout.D_*`` gives the encodings):

========= ===================== ===============================================================
DP        heuristic             returns
========= ===================== ===============================================================
DP-1      ``greedy_lock``       bitmask of unlocked dice to lock (0 = skip, pay)
DP-2      ``greedy_tile``       row position and empty shop slot (``options.encode_tile``)
DP-3/5/6  ``greedy_step4``      Step-4 action and argument (``options.encode_step4``: finish a
/8                              slot, take a token with a dice mask, take money with a die, buy
                                a token, done)
DP-4      ``greedy_ribbon``     bool, asked right after each finish while a ribbon is legal
DP-7      ``greedy_refresh``    bool (solo, between days, while a refresh is legal)
========= ===================== ===============================================================

Policies never mutate the game state; they read it (plus rules, components and their own
parameter row) and may use the per-game scratch arrays ``scr``/``fscr`` for caching.
Policy parameters: ``P_*`` offsets, derived in
``rules.py`` from ``POLICY_PARAMS``; scratch layouts (``SCR_*``, ``FSCR_*``, ``LS_*``):
``layout.py``.
"""
import numpy as np
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import options as O
from . import rules as R
from .queries import (all_dice_mask, buy_token_legal, dice_mask, lock_cost, lock_legal, n_slots,
                      popcount, seat_base, solo_feasible, token_room, unused_dice)
from .tasks import assign_icons, dice_counts, tokens_needed

no_refcount_module(__name__)  # policies never allocate (sim.borrow)
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)

NEG = -1.0e18


@njit(cache=True)
def prepare_scratch(state, rules, comp, scr, fscr):
    """Per-game constants of the tile set used by the heuristics (min/max flowers, max stars,
    flower-type masks) and empty caches."""
    tiles = comp[0]
    lo = 1 << 30
    hi = 0
    st = 0
    for t in range(tiles.shape[0]):
        f = tiles[t, L.TL_FLOWERS]
        if f < lo:
            lo = f
        if f > hi:
            hi = f
        if tiles[t, L.TL_STARS] > st:
            st = tiles[t, L.TL_STARS]
        m = 0
        for k in range(L.MAX_FLOWER_TYPES):
            if tiles[t, k] >= 1:
                m |= 1 << k
        scr[L.SCR_TMASK + t] = m
        scr[L.SCR_TFL + t] = tiles[t, L.TL_FLOWERS]
        scr[L.SCR_TST + t] = tiles[t, L.TL_STARS]
        scr[L.SCR_TKN + t] = tiles[t, L.TL_KNICK]
        scr[L.SCR_TVA + t] = tiles[t, L.TL_VASE]
    scr[L.SCR_MIN_FL] = lo
    scr[L.SCR_MAX_FL] = hi
    scr[L.SCR_MAX_STARS] = st
    for i in range(L.SCR_TV_DAY, L.SCR_BEFORE_DAY + L.MAX_PLAYERS):  # the blocks are adjacent
        scr[i] = -1


# =========================================================================================
# task-line potential (heuristic used by DP-1 and DP-2)
# =========================================================================================
@njit(cache=True)
def line_summaries(state, rules, seat, tiles, scr):
    """Summaries of every line of ``seat``'s shop (placed tiles, flowers, stars, common
    flower types) into ``scr[SCR_LINES + seat*MAX_LINES*LS_W ...]``; placed tiles count as finished
    (they can still be)."""
    rows = np.int64(rules[R.R_SHOP_ROWS])
    cols = np.int64(rules[R.R_SHOP_COLS])
    b = seat_base(seat)
    for line in range(rows + cols):
        lo = L.SCR_LINES + (seat * L.MAX_LINES + line) * L.LS_W
        n_line = cols if line < rows else rows
        n = 0
        fl = 0
        stars = 0
        tm = 0xFF
        for i in range(n_line):
            s = line * cols + i if line < rows else i * cols + (line - rows)
            t = state[b + L.F_SHOP + s]
            if t >= 0:
                scr[lo + L.LS_IDS + n] = t
                n += 1
                fl += tiles[t, L.TL_FLOWERS]
                stars += tiles[t, L.TL_STARS]
                tm &= scr[L.SCR_TMASK + t]
        scr[lo + L.LS_N] = n
        scr[lo + L.LS_LEN] = n_line
        scr[lo + L.LS_FL] = fl
        scr[lo + L.LS_ST] = stars
        scr[lo + L.LS_TMASK] = tm


@njit(cache=True)
def line_potential(cond, param, scr, lo, extra):
    """Heuristic chance that a line (summary at ``scr[lo]``, see ``line_summaries``) with the
    tile ``extra`` added (-1 = none) meets ``cond``: 1 met (full), 0 failed or impossible,
    0.5 still possible. Partial lines are judged by bounds on the sums and by the conditions
    that hold on every part of a line that meets them (SAME_*, DIFF_*, SHARE_FLOWER_TYPE).
    Tile attributes come from the per-tile copies in ``scr`` (``prepare_scratch``), so the hot
    call takes a single array (fewer reference-count operations)."""
    n = scr[lo + L.LS_N]
    fl = scr[lo + L.LS_FL]
    stars = scr[lo + L.LS_ST]
    tm = scr[lo + L.LS_TMASK]
    if extra >= 0:
        n += 1
        fl += scr[L.SCR_TFL + extra]
        stars += scr[L.SCR_TST + extra]
        tm &= scr[L.SCR_TMASK + extra]
    m = scr[lo + L.LS_LEN] - n
    if m > 0 and n == 0:
        return 0.5
    ok = False
    if cond == L.C_SUM_FLOWERS_EQ or cond == L.C_SUM_FLOWERS_GE or cond == L.C_SUM_FLOWERS_LE:
        low = fl + m * scr[L.SCR_MIN_FL]
        high = fl + m * scr[L.SCR_MAX_FL]
        if cond == L.C_SUM_FLOWERS_EQ:
            ok = low <= param <= high
        elif cond == L.C_SUM_FLOWERS_GE:
            ok = high >= param
        else:
            ok = low <= param
    elif cond == L.C_SUM_STARS_GE:
        ok = stars + m * scr[L.SCR_MAX_STARS] >= param
    elif cond == L.C_SHARE_FLOWER_TYPE:
        ok = tm != 0
    elif (cond == L.C_SAME_KNICK or cond == L.C_SAME_VASE or cond == L.C_SAME_FLOWER_COUNT
          or cond == L.C_DIFF_KNICK or cond == L.C_DIFF_VASE or cond == L.C_DIFF_FLOWER_COUNT):
        col = L.SCR_TKN
        if cond == L.C_SAME_VASE or cond == L.C_DIFF_VASE:
            col = L.SCR_TVA
        elif cond == L.C_SAME_FLOWER_COUNT or cond == L.C_DIFF_FLOWER_COUNT:
            col = L.SCR_TFL
        same = cond == L.C_SAME_KNICK or cond == L.C_SAME_VASE or cond == L.C_SAME_FLOWER_COUNT
        ok = True
        for i in range(n):
            vi = (scr[col + extra] if i == n - 1 and extra >= 0
                  else scr[col + scr[lo + L.LS_IDS + i]])
            for j in range(i):
                vj = scr[col + scr[lo + L.LS_IDS + j]]
                if (vi == vj) != same:
                    ok = False
    elif m > 0:
        return 0.5
    if m == 0:
        return 1.0 if ok else 0.0
    return 0.5 if ok else 0.0


@njit(cache=True)
def placement_feasible(state, rules, comp, seat, tile, slot, scr):
    """Solo: would the shop with ``tile`` placed (unfinished) at ``slot`` pass the
    feasibility check of this day's end (FS-SOLO-C1 via solo.feasible)?"""
    b = seat_base(seat)
    ns = n_slots(rules)
    for s in range(ns):
        scr[L.SCR_SHOP + s] = state[b + L.F_SHOP + s]
        scr[L.SCR_FIN + s] = state[b + L.F_FIN + s]
    scr[L.SCR_SHOP + slot] = tile
    scr[L.SCR_FIN + slot] = 0
    days_left = np.int64(rules[R.R_DAYS]) - state[L.S_DAY]
    return solo_feasible(state, rules, comp, scr[L.SCR_SHOP:L.SCR_SHOP + ns],
                         scr[L.SCR_FIN:L.SCR_FIN + ns], days_left, scr[L.SCR_FEAS:])


# =========================================================================================
# DP-1 lock
# =========================================================================================
@njit(cache=True)
def _line_condition(tasks, card, is_row):
    """(condition, parameter) of ``card`` for a row (``is_row``) or a column (§2.8)."""
    if is_row:
        return tasks[card, L.TK_ROW_COND], tasks[card, L.TK_ROW_PARAM]
    return tasks[card, L.TK_COL_COND], tasks[card, L.TK_COL_PARAM]


@njit(cache=True)
def _line_points(rules, tasks, card, is_row):
    """Points of one satisfied row (``is_row``) or column of ``card`` (FS-E3, AMB-13)."""
    if is_row:
        p = tasks[card, L.TK_ROW_POINTS]
        return p if p >= 0 else np.int64(rules[R.R_TASK_ROW_POINTS_DEFAULT])
    p = tasks[card, L.TK_COL_POINTS]
    return p if p >= 0 else np.int64(rules[R.R_TASK_COL_POINTS_DEFAULT])


@njit(cache=True)
def _line_gain(state, rules, tasks, scr, fscr, l0, bb, cw, line, is_row, tile):
    """Task gain of ``tile`` added to ``line`` (a row if ``is_row``) of the seat whose line
    summaries start at ``l0`` and potentials without the tile at ``fscr[bb]``, summed over the
    cards in play, each weighted by ``fscr[cw + k]`` (see ``tile_gains``)."""
    g = 0.0
    for k in range(state[L.S_N_CARDS]):
        card = state[L.S_CARDS + k]
        cond, param = _line_condition(tasks, card, is_row)
        g += fscr[cw + k] * _line_points(rules, tasks, card, is_row) * (
            line_potential(cond, param, scr, l0 + line * L.LS_W, tile)
            - fscr[bb + line * L.MAX_CARDS_IN_PLAY + k])
    return g


@njit(cache=True)
def _commit_to_a_card(state, rules, pp, fscr, bb, cw, n_lines):
    """Card commitment (``w_other_card``): in solo with two or more cards of which any one
    wins (FS-V-EASY-2), the card closest to done (the largest sum of its line potentials,
    a card with a failed line last) keeps weight 1 in the seat's task gains and the others get
    ``w_other_card``; otherwise every card weighs 1. Written to ``fscr[cw]``, the seat's
    weights."""
    nc = state[L.S_N_CARDS]
    for k in range(nc):
        fscr[cw + k] = 1.0
    if nc < 2 or state[L.S_N_PLAYERS] != 1 or rules[R.R_SOLO_WIN_RULE] != R.WIN_ANY:
        return
    best = 0
    bv = NEG
    for k in range(nc):
        v = 0.0
        for line in range(n_lines):
            p = fscr[bb + line * L.MAX_CARDS_IN_PLAY + k]
            v += p if p > 0 else -1000.0  # a failed line: this card cannot win
        if v > bv:
            bv = v
            best = k
    for k in range(nc):
        if k != best:
            fscr[cw + k] = pp[R.P_W_OTHER_CARD]


@njit(cache=True)
def tile_gains(state, rules, tiles, tasks, seat, tile, scr, fscr, pp):
    """Task gain of ``tile`` at every empty slot of ``seat``'s shop: the change of task-line
    potential (x line points) of the row and column through the slot, summed over the cards in
    play (DP-2 heuristic). Cached per (seat, tile, day): it depends only on the seat's own
    shop, which changes once a day (at its Step 3). Line summaries and the potentials without
    the tile are cached per (seat, day).

    Returns
    -------
    int, offset in ``fscr`` of the gains by slot; ``fscr[FSCR_TV + seat*MAX_TILES + tile]``
    holds the best gain over the empty slots.
    """
    i = seat * L.MAX_TILES + tile
    base = L.FSCR_TG + i * L.MAX_SLOTS
    day = state[L.S_DAY]
    if scr[L.SCR_TV_DAY + i] == day:
        return base
    rows = np.int64(rules[R.R_SHOP_ROWS])
    cols = np.int64(rules[R.R_SHOP_COLS])
    nc = state[L.S_N_CARDS]
    bb = L.FSCR_BEFORE + seat * L.MAX_LINES * L.MAX_CARDS_IN_PLAY
    l0 = L.SCR_LINES + seat * L.MAX_LINES * L.LS_W
    cw = L.FSCR_CARD_W + seat * L.MAX_CARDS_IN_PLAY
    if scr[L.SCR_BEFORE_DAY + seat] != day:
        line_summaries(state, rules, seat, tiles, scr)
        for line in range(rows + cols):
            for k in range(nc):
                cond, param = _line_condition(tasks, state[L.S_CARDS + k], line < rows)
                fscr[bb + line * L.MAX_CARDS_IN_PLAY + k] = line_potential(
                    cond, param, scr, l0 + line * L.LS_W, np.int64(-1))
        _commit_to_a_card(state, rules, pp, fscr, bb, cw, rows + cols)
        scr[L.SCR_BEFORE_DAY + seat] = day
    b = seat_base(seat)
    best = NEG
    cols_done = 0  # the gain of a line does not depend on the slot: each line once
    for r in range(rows):
        row_done = False
        g_row = 0.0
        for c in range(cols):
            s = r * cols + c
            if state[b + L.F_SHOP + s] >= 0:
                continue
            if not row_done:
                g_row = _line_gain(state, rules, tasks, scr, fscr, l0, bb, cw, r, True, tile)
                row_done = True
            if not (cols_done >> c) & 1:
                fscr[L.FSCR_COL + c] = _line_gain(state, rules, tasks, scr, fscr, l0, bb, cw, rows + c,
                                                False, tile)
                cols_done |= 1 << c
            # sums of multiples of 1/2 are exact: the same value as adding card by card
            g = g_row + fscr[L.FSCR_COL + c]
            fscr[base + s] = g
            if g > best:
                best = g
    if best == NEG:
        best = 0.0
    scr[L.SCR_TV_DAY + i] = day
    fscr[L.FSCR_TV + i] = best
    return base


@njit(cache=True)
def greedy_lock(state, rules, tiles, tasks, n_players, seat, pp, scr, fscr):
    """DP-1 heuristic: lock the unlocked dice that fill unmet icons of the best targets.

    Targets are the row tiles (at most one per day can be taken) and the player's own
    unfinished tiles, scored by ``w_stars``·stars + ``w_task``·task value + ``w_prob``·icons
    matched − ``w_tokens``·icons missing (with all the player's dice, FS-U2's count form).
    Dice for the best target come first, then the initiative die (if its face ≥
    ``init_lock_min``), then dice for further targets. At most ``free_locks_max +
    max_paid_extras_per_step`` dice, keeping ``money_reserve``. When the first target is
    complete, the remaining dice are locked to proceed (paying up to ``rush_factor`` per other
    active player). With no useful die: lock the initiative die, else skip
    (``skip_if_no_match``, ``max_skips_per_day``), else lock one die.
    """
    b = seat_base(seat)
    nf = np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER])
    nv = np.int64(rules[R.R_VASE_DICE_PER_PLAYER])
    locked = state[b + L.F_LOCKED]
    allm = all_dice_mask(rules)
    dm = dice_mask(rules)
    unl = allm & ~locked
    unl_d = unl & dm
    init_unl = (unl >> L.DIE_INIT) & 1
    money = state[b + L.F_MONEY]
    budget = money - np.int64(pp[R.P_MONEY_RESERVE])
    tokens = state[b + L.F_TOKENS] - np.int64(pp[R.P_TOKEN_RESERVE])
    if tokens < 0:
        tokens = 0
    w_stars = pp[R.P_W_STARS]
    w_task = pp[R.P_W_TASK]
    w_prob = pp[R.P_W_PROB]
    w_tok = pp[R.P_W_TOKENS]
    focus = n_players == 1 and pp[R.P_SOLO_WIN_FOCUS] != 0
    if focus:
        w_stars = 0.0
    hist, n_any, n_fl, vases = dice_counts(state, b, nf, nv, dm)
    day = state[L.S_DAY]
    # ---- candidate targets
    nt = 0
    for i in range(state[L.S_ROW_N]):
        t = state[L.S_ROW + i]
        tok, nu = tokens_needed(tiles, t, hist, n_any, n_fl, vases)
        icons = tiles[t, L.TL_FLOWERS] + 1
        v = w_stars * tiles[t, L.TL_STARS] + w_prob * (icons - tok) - w_tok * tok
        if w_task > 0:
            ci = seat * L.MAX_TILES + t
            if scr[L.SCR_TV_DAY + ci] != day:
                tile_gains(state, rules, tiles, tasks, seat, t, scr, fscr, pp)
            v += w_task * fscr[L.FSCR_TV + ci]
        scr[L.SCR_TGT + nt] = t
        scr[L.SCR_TGT_KIND + nt] = 0
        fscr[L.FSCR_TGT + nt] = v
        nt += 1
    ns = n_slots(rules)
    for s in range(ns):
        t = state[b + L.F_SHOP + s]
        if t < 0 or state[b + L.F_FIN + s]:
            continue
        tok, nu = tokens_needed(tiles, t, hist, n_any, n_fl, vases)
        icons = tiles[t, L.TL_FLOWERS] + 1
        v = w_stars * tiles[t, L.TL_STARS] + w_prob * (icons - tok) - w_tok * tok + w_task * 0.5
        scr[L.SCR_TGT + nt] = t
        scr[L.SCR_TGT_KIND + nt] = 1
        fscr[L.FSCR_TGT + nt] = v
        nt += 1
    # ---- assign dice to the best targets
    rem_l = locked & dm
    rem_u = unl_d
    want1 = 0
    want2 = 0
    complete1 = False
    row_taken = False
    n_targets = np.int64(pp[R.P_N_TARGETS])
    for r in range(n_targets):
        best = -1
        bv = NEG
        for j in range(nt):
            if fscr[L.FSCR_TGT + j] > bv and not (row_taken and scr[L.SCR_TGT_KIND + j] == 0):
                bv = fscr[L.FSCR_TGT + j]
                best = j
        if best < 0:
            break
        fscr[L.FSCR_TGT + best] = NEG
        if scr[L.SCR_TGT_KIND + best] == 0:
            row_taken = True
        tok, u1, u2 = assign_icons(state, tiles, b, nf, nv, scr[L.SCR_TGT + best], rem_l, rem_u)
        rem_l &= ~u1
        rem_u &= ~u2
        if r == 0:
            want1 = u2
            complete1 = tok <= tokens
        else:
            want2 |= u2
    free = np.int64(rules[R.R_FREE_LOCKS_MAX])
    max_paid = np.int64(pp[R.P_MAX_PAID_EXTRAS_PER_STEP])
    max_k = free + max_paid
    init_bit = np.int64(1) << L.DIE_INIT
    init_face = state[b + L.F_FACE + L.DIE_INIT]
    init_early = init_unl and pp[R.P_INIT_LOCK_LAST] == 0 and init_face >= np.int64(pp[R.P_INIT_LOCK_MIN])
    # ---- target complete: lock the rest to proceed (rush pays more when others are active)
    if complete1 and want2 == 0 and nt > 0:
        k_all = popcount(unl)
        c_all = lock_cost(state, rules, seat, k_all)
        others = 0
        for s2 in range(n_players):
            if s2 != seat and state[seat_base(s2) + L.F_ACTIVE]:
                others += 1
        # the paid extras the policy accepts anyway, plus the rush allowance
        allowance = 0.0
        if k_all > free:
            allowance = lock_cost(state, rules, seat, min(k_all, max_k)) - lock_cost(state, rules, seat, free)
        allowance += pp[R.P_RUSH_FACTOR] * others
        if c_all >= 0 and c_all <= budget and c_all <= allowance + 1e-9:
            return unl
        # otherwise lock as many as allowed: wanted first, then initiative, then the rest
        return _take_first(state, rules, seat, want1, init_bit & unl, unl & ~want1 & ~init_bit,
                           max_k, budget)
    if want1 == 0 and want2 == 0:
        if init_unl and (pp[R.P_INIT_LOCK_LAST] == 0 or unl_d == 0):
            return init_bit
        if (pp[R.P_SKIP_IF_NO_MATCH] != 0 and not focus
                and state[b + L.F_SKIPS_TODAY] < np.int64(pp[R.P_MAX_SKIPS_PER_DAY])):
            c = lock_legal(state, rules, seat, 0)
            if c >= 0 and c <= budget:
                return 0
        # lock one die: a flower die first (lowest index), else a vase die, else the initiative
        if unl_d:
            return unl_d & -unl_d
        return unl & -unl
    second = want2
    if init_early:
        second = want2 | init_bit
    # the initiative die goes with the final dice
    if (unl_d & ~(want1 | want2)) == 0 and init_unl:
        second = second | init_bit
    chosen = _take_first(state, rules, seat, want1, second, 0, max_k, budget)
    if pp[R.P_FILL_FREE_LOCKS] != 0:  # lock tempo: every free lock of the step is used
        rest = unl_d & ~chosen
        while rest and popcount(chosen) < free:
            bit = rest & -rest  # lowest index first
            rest ^= bit
            if lock_legal(state, rules, seat, chosen | bit) != 0:
                break  # tempo never pays for a lock
            chosen |= bit
    return chosen


@njit(cache=True)
def _take_first(state, rules, seat, m1, m2, m3, max_k, budget):
    """The largest prefix of dice (m1, then m2, then m3, lowest index first) of at most
    ``max_k`` dice whose lock cost fits ``budget``; at least one die."""
    chosen = 0
    k = 0
    for g in range(3):
        m = m1 if g == 0 else (m2 & ~m1 if g == 1 else m3 & ~m1 & ~m2)
        while m:
            bit = m & -m
            m ^= bit
            if k + 1 > max_k:
                return chosen if chosen else bit
            c = lock_legal(state, rules, seat, chosen | bit)
            if k > 0 and (c < 0 or c > budget):
                return chosen
            chosen |= bit
            k += 1
    return chosen


# =========================================================================================
# DP-2 tile and slot
# =========================================================================================
@njit(cache=True)
def _buyable(state, rules, seat, pp):
    """Tokens the greedy policy could buy now to finish (DP-3 ``buy_wild_to_finish``)."""
    if pp[R.P_BUY_WILD_TO_FINISH] == 0:
        return 0
    b = seat_base(seat)
    n = state[b + L.F_MONEY] // np.int64(rules[R.R_WILD_TOKEN_COST])
    left = np.int64(pp[R.P_MAX_BUYS_PER_DAY]) - state[b + L.F_BUYS_TODAY]
    if left < n:
        n = left
    if state[L.S_TOKEN_SUPPLY] < n:
        n = state[L.S_TOKEN_SUPPLY]
    if rules[R.R_WILD_CAP_APPLIES_TO_BUY] != 0:
        room = np.int64(rules[R.R_WILD_TOKEN_MAX]) - state[b + L.F_TOKENS]
        if room < n:
            n = room
    return n if n > 0 else 0


@njit(cache=True)
def score_tile_options(state, rules, tiles, tasks, seat, pp, scr, fscr):
    """Score every (row position, empty slot) for DP-2 into the candidate scratch.

    Score = ``w_stars``·stars (0 if it cannot be finished any more) + ``w_now``·[finishable in
    this Step 4 with dice, tokens, conversions and affordable buys] − ``w_tokens``·tokens
    needed + ``w_future``/(1 + tokens needed) while days remain + ``w_task``·task gain at the
    slot.

    Returns
    -------
    int, the number of candidates (0 if none).
    """
    b = seat_base(seat)
    ns = n_slots(rules)
    nf = np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER])
    nv = np.int64(rules[R.R_VASE_DICE_PER_PLAYER])
    avail = unused_dice(state, rules, seat)
    n_avail = popcount(avail)
    hist, n_any, n_fl, vases = dice_counts(state, b, nf, nv, avail)
    tokens = state[b + L.F_TOKENS] - np.int64(pp[R.P_TOKEN_RESERVE])
    if tokens < 0:
        tokens = 0
    buy = _buyable(state, rules, seat, pp)
    dpw = np.int64(rules[R.R_DICE_PER_WILD])
    days_left = np.int64(rules[R.R_DAYS]) - state[L.S_DAY]
    w_task = pp[R.P_W_TASK]
    w_stars = pp[R.P_W_STARS]
    if state[L.S_N_PLAYERS] == 1 and pp[R.P_SOLO_WIN_FOCUS] != 0:
        w_stars = 0.0
    nc = 0
    for pos in range(state[L.S_ROW_N]):
        t = state[L.S_ROW + pos]
        tok, n_used = tokens_needed(tiles, t, hist, n_any, n_fl, vases)
        conv = (n_avail - n_used) // dpw
        now = 1.0 if (tok <= tokens + buy + conv and tok <= np.int64(pp[R.P_MAX_TOKENS_PER_FINISH])) else 0.0
        base = pp[R.P_W_NOW] * now - pp[R.P_W_TOKENS] * tok
        if now > 0 or days_left > 0:
            base += w_stars * tiles[t, L.TL_STARS]
        if days_left > 0:
            base += pp[R.P_W_FUTURE] / (1.0 + tok)
        gb = 0
        if w_task > 0:
            ci = seat * L.MAX_TILES + t
            if scr[L.SCR_TV_DAY + ci] == state[L.S_DAY]:
                gb = L.FSCR_TG + ci * L.MAX_SLOTS  # cached today (see tile_gains)
            else:
                gb = tile_gains(state, rules, tiles, tasks, seat, t, scr, fscr, pp)
        for s in range(ns):
            if state[b + L.F_SHOP + s] >= 0:
                continue
            sc = base
            if w_task > 0:
                sc += w_task * fscr[gb + s]
            scr[L.SCR_CAND + nc] = O.encode_tile(pos, s)
            fscr[L.FSCR_CAND + nc] = sc
            nc += 1
    return nc


@njit(cache=True)
def _best_candidate(nc, fscr):
    """Index of the best scored candidate (first on ties), or -1."""
    best = -1
    bv = NEG
    for j in range(nc):
        if fscr[L.FSCR_CAND + j] > bv:
            bv = fscr[L.FSCR_CAND + j]
            best = j
    return best


@njit(cache=True)
def greedy_tile(state, rules, comp, n_players, seat, pp, scr, fscr):
    """DP-2 heuristic: the best scored (tile, slot); solo with ``solo_check_placements``: the
    best one that passes the feasibility check afterwards (hard constraint), tried best-first;
    if none passes, the best overall."""
    nc = score_tile_options(state, rules, comp[0], comp[1], seat, pp, scr, fscr)
    if nc == 0:
        return 0
    first = scr[L.SCR_CAND + _best_candidate(nc, fscr)]
    if n_players != 1 or pp[R.P_SOLO_CHECK_PLACEMENTS] == 0:
        return first
    for _ in range(nc):
        best = _best_candidate(nc, fscr)
        if best < 0:
            break
        d = scr[L.SCR_CAND + best]
        fscr[L.FSCR_CAND + best] = NEG
        pos, slot = O.decode_tile(d)
        if placement_feasible(state, rules, comp, seat, state[L.S_ROW + pos], slot, scr):
            return d
    return first


# =========================================================================================
# DP-3 / DP-5 / DP-6 / DP-8 step 4
# =========================================================================================
@njit(cache=True)
def _first_dice(mask, k):
    """The k lowest dice of ``mask`` (vase dice 6..7 are higher than flower dice)."""
    m = 0
    for i in range(9):
        if k == 0:
            break
        if (mask >> i) & 1:
            m |= np.int64(1) << i
            k -= 1
    return m


@njit(cache=True)
def greedy_step4(state, rules, tiles, seat, pp):
    """DP-3/5/6/8 heuristic.

    1. Finish the best finishable tile (``finish_priority``: stars, or fewest tokens), using at
       most ``max_tokens_per_finish`` and keeping ``token_reserve``; missing tokens come from
       spare dice (take token) or, with ``buy_wild_to_finish``, purchases (max per day). With
       ``convert_before_finish`` a spare die is first turned into money when that makes the
       ribbon affordable (TS-07).
    2. Leftover dice: tokens up to ``wild_stock_target`` (``leftover_pref`` wild), else money.
    3. Buy stock tokens up to ``wild_stock_target`` with money >= ``buy_wild_stock_money_min``.
    4. Done.
    """
    b = seat_base(seat)
    ns = n_slots(rules)
    nf = np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER])
    nv = np.int64(rules[R.R_VASE_DICE_PER_PLAYER])
    avail = unused_dice(state, rules, seat)
    n_avail = popcount(avail)
    hist, n_any, n_fl, vases = dice_counts(state, b, nf, nv, avail)
    tokens = state[b + L.F_TOKENS]
    money = state[b + L.F_MONEY]
    usable = tokens - np.int64(pp[R.P_TOKEN_RESERVE])
    if usable < 0:
        usable = 0
    dpw = np.int64(rules[R.R_DICE_PER_WILD])
    can_buy = _buyable(state, rules, seat, pp)
    room = token_room(state, rules, seat)
    best = -1
    best_key = NEG
    best_short = 0
    for s in range(ns):
        t = state[b + L.F_SHOP + s]
        if t < 0 or state[b + L.F_FIN + s]:
            continue
        tok, n_used = tokens_needed(tiles, t, hist, n_any, n_fl, vases)
        if tok > np.int64(pp[R.P_MAX_TOKENS_PER_FINISH]):
            continue
        short = tok - usable
        if short > 0:
            conv = (n_avail - n_used) // dpw if room else 0
            if short > conv + can_buy:
                continue
        if pp[R.P_FINISH_PRIORITY] == R.PRIORITY_STARS:
            key = tiles[t, L.TL_STARS] * 100.0 - tok
        else:
            key = -tok * 100.0 + tiles[t, L.TL_STARS]
        if key > best_key:
            best_key = key
            best = s
            best_short = short
    if best >= 0:
        tok, best_used, u2 = assign_icons(state, tiles, b, nf, nv, state[b + L.F_SHOP + best],
                                          avail, np.int64(0))
        spare = avail & ~best_used
        if best_short > 0:
            if room and popcount(spare) >= dpw:
                return O.encode_step4(L.A_TAKE_TOKEN, _first_dice(spare, dpw))
            return O.encode_step4(L.A_BUY_TOKEN, 0)
        if (pp[R.P_CONVERT_BEFORE_FINISH] != 0 and spare != 0
                and np.int64(rules[R.R_MONEY_PER_DIE]) > 0):
            cost = np.int64(rules[R.R_RIBBON_COST])
            want = cost + np.int64(pp[R.P_RIBBON_MONEY_RESERVE])
            if (state[L.S_RIBBON_SUPPLY] > 0 and state[L.S_DAY] >= np.int64(pp[R.P_RIBBON_MIN_DAY])
                    and state[b + L.F_RIB + best] < np.int64(rules[R.R_MAX_RIBBONS_PER_TILE])
                    and money < want):
                # spare dice not needed by another unfinished tile
                other = 0
                for s in range(ns):
                    t = state[b + L.F_SHOP + s]
                    if s != best and t >= 0 and state[b + L.F_FIN + s] == 0:
                        tok, u1, u2 = assign_icons(state, tiles, b, nf, nv, t, spare, np.int64(0))
                        other |= u1
                free_spare = spare & ~other
                if money + popcount(free_spare) * np.int64(rules[R.R_MONEY_PER_DIE]) >= want and free_spare:
                    return O.encode_step4(L.A_TAKE_MONEY, _lowest_die(free_spare))
        return O.encode_step4(L.A_FINISH, best)
    u = n_avail
    if u > 0:
        want_tok = room and u >= dpw and tokens < np.int64(pp[R.P_WILD_STOCK_TARGET])
        if want_tok and (pp[R.P_LEFTOVER_PREF] == R.PREF_WILD
                         or np.int64(rules[R.R_MONEY_PER_DIE]) == 0):
            return O.encode_step4(L.A_TAKE_TOKEN, _first_dice(avail, dpw))
        if np.int64(rules[R.R_MONEY_PER_DIE]) > 0:
            return O.encode_step4(L.A_TAKE_MONEY, _lowest_die(avail))
        if room and u >= dpw:
            return O.encode_step4(L.A_TAKE_TOKEN, _first_dice(avail, dpw))
    if (tokens < np.int64(pp[R.P_WILD_STOCK_TARGET]) and buy_token_legal(state, rules, seat)
            and state[b + L.F_BUYS_TODAY] < np.int64(pp[R.P_MAX_BUYS_PER_DAY])
            and money - np.int64(rules[R.R_WILD_TOKEN_COST]) >= np.int64(pp[R.P_BUY_WILD_STOCK_MONEY_MIN])):
        return O.encode_step4(L.A_BUY_TOKEN, 0)
    return L.A_DONE


@njit(cache=True)
def _lowest_die(mask):
    """Index of the lowest die in ``mask``."""
    for i in range(9):
        if (mask >> i) & 1:
            return i
    return 0


# =========================================================================================
# DP-4 ribbon
# =========================================================================================
@njit(cache=True)
def greedy_ribbon(state, rules, seat, pp):
    """DP-4: buy a ribbon for the tile just finished when money - cost stays >=
    ``ribbon_money_reserve`` from ``ribbon_min_day`` on; never with ``solo_win_focus`` (solo)."""
    b = seat_base(seat)
    if state[L.S_N_PLAYERS] == 1 and pp[R.P_SOLO_WIN_FOCUS] != 0:
        return False
    return (state[b + L.F_MONEY] - np.int64(rules[R.R_RIBBON_COST]) >= np.int64(pp[R.P_RIBBON_MONEY_RESERVE])
            and state[L.S_DAY] >= np.int64(pp[R.P_RIBBON_MIN_DAY]))


# =========================================================================================
# DP-7 solo refresh
# =========================================================================================
@njit(cache=True)
def greedy_refresh(state, rules, comp, pp, scr, fscr):
    """DP-7: refresh if the row is empty, or (``refresh_if_no_feasible_tile``) no row tile has
    a placement passing the feasibility check, or the best tile scores below
    ``refresh_if_best_tile_score_below``; always keeping ``refresh_money_reserve``."""
    b = seat_base(0)
    if state[b + L.F_MONEY] - np.int64(rules[R.R_SOLO_REFRESH_COST]) < np.int64(pp[R.P_REFRESH_MONEY_RESERVE]):
        return False
    if state[L.S_ROW_N] == 0:
        return True
    nc = score_tile_options(state, rules, comp[0], comp[1], 0, pp, scr, fscr)
    if nc == 0:
        return False
    if fscr[L.FSCR_CAND + _best_candidate(nc, fscr)] < pp[R.P_REFRESH_IF_BEST_TILE_SCORE_BELOW]:
        return True
    if pp[R.P_REFRESH_IF_NO_FEASIBLE_TILE] != 0:
        for j in range(nc):
            d = scr[L.SCR_CAND + j]
            pos, slot = O.decode_tile(d)
            if placement_feasible(state, rules, comp, 0, state[L.S_ROW + pos], slot, scr):
                return False
        return True
    return False
