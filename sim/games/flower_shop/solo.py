"""Solo feasibility check and task-card conflicts for The Little Flower Shop Dice Game.

Rule source: ``shared/rules/flower_shop.md`` §6 FS-SOLO-C1..C6 (end-of-day feasibility check),
§2.9 and FS-V-HELL-2 (task conflicts), §10 AMB-18, AMB-19, AMB-21, AMB-24 and A-12.

Entry points
------------
``feasible(shop, finished, rows, cols, pool, n_pool, cards, n_cards, win_any, mode,
check_capacity, days_left, n_dice_per_day, tokens, money, max_salary, wild_token_cost, tasks,
tiles) -> bool`` (``@njit``): False means the solo player provably cannot win any more
(FS-SOLO-C1: the game ends as a LOSS). Order of the checks, cheapest first: C3 structural,
C5 capacity, C4 line check (mode ``MODE_*``, combined over the cards per C6). The game loop
calls ``feasible_in(..., work)``, the same check with the caller's scratch (``WORK_MAX``).

``conflict_matrix(tasks, tiles, rows, cols)`` (``@njit``): int64[n_cards, n_cards], 1 where two
cards cannot both be fully satisfied by one arrangement of ``rows*cols`` distinct tiles (§2.9);
the diagonal is 1 where a card alone cannot be satisfied.

Reading, checking and regenerating ``components/task_conflicts.csv`` from this matrix lives in
:mod:`sim.games.flower_shop.conflicts`. The work area bound ``WORK_MAX`` (``work_len`` at the
largest grid, pool and card count) and the ``MODE_*`` codes are declared in ``layout.py``.

Algorithms (FS-SOLO-C4)
-----------------------
* ``lines``: per line, is there a set of distinct pool tiles for its empty slots such that the
  line (placed tiles counted as finished, C2) meets every required condition? A single condition
  is answered by a closed form over the pool: top-/bottom-k sums for ``_GE``/``_LE``, a bitset
  DP over "sums reachable with exactly j distinct tiles" for ``SUM_FLOWERS_EQ``, value
  multiplicities (``SAME_*``), bitmasks of distinct values outside the placed ones (``DIFF_*``)
  and per-type counts (``SHARE_FLOWER_TYPE``). Two conditions at once (win rule ``all`` with 2
  cards) are first screened one by one, then decided exactly: SAME_*/SHARE_FLOWER_TYPE split
  the pool by value (or flower type) and the other condition's closed form runs on each part;
  DIFF_* with a SUM_* takes at most one tile per value group (best-per-group top/bottom k, or
  the bitset DP with one tile per group); any other combination (or attribute values outside
  the fast-path range) uses a search over multisets of pool *classes* (tiles equal on every
  attribute the conditions read are interchangeable), pruned by partial sums and by the
  hereditary conditions (SAME, DIFF, SHARE hold on every subset of a line that meets them).
* ``complete_lines``: only lines with no empty slot, evaluated directly.
* ``full``: ``lines`` first (a necessary condition), then an exact depth-first search assigning
  pool classes to the empty slots (line by line, most-filled lines first) with the same pruning
  on every line through the slot just filled.

Component arrays and condition codes: ``layout.py`` (``TL_*``, ``TK_*``, ``C_*``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module, whole_program

from . import layout as L
from .tasks import line_meets

# The search only sees arrays its callers own (sim.borrow), except these four, which allocate.
no_refcount_module(__name__, exclude=("_line_generic", "_full_ok", "feasible", "conflict_matrix"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)
whole_program(__name__, "conflict_matrix")  # called from Python: optimised (sim.borrow)

# Tile attributes read by the conditions (bit flags), used to group interchangeable tiles.
A_FLOWERS = 1
A_STARS = 2
A_KNICK = 4
A_VASE = 8
A_TYPES = 16

# Fast paths use int64 bitmasks indexed by attribute value 0..FAST_MAX_VALUE; other values
# fall back to the exact class search.
FAST_MAX_VALUE = 61
# Longest line the SAME_* fast path handles (rules allow shop_rows <= 3, shop_cols <= 4).
FAST_MAX_K = 4
# Results of the single-condition fast path.
UNDECIDED = -1


# ---------------------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _slot(rows, cols, line, i):
    """Slot of the ``i``-th cell of line ``line`` (rows 0..rows-1, then columns; §2.6)."""
    if line < rows:
        return line * cols + i
    return i * cols + (line - rows)


@njit(cache=True)
def _popcount(x):
    """Number of set bits of a non-negative int64."""
    c = 0
    while x != 0:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _type_mask(tiles, t):
    """Bitmask of flower types with >= 1 specific icon on tile ``t`` (fuchsia excluded, §2.8)."""
    m = 0
    for f in range(L.MAX_FLOWER_TYPES):
        if tiles[t, f] >= 1:
            m |= 1 << f
    return m


@njit(cache=True)
def _cond_attrs(cond):
    """Attribute flags (``A_*``) that condition ``cond`` reads (§2.8)."""
    if cond == L.C_SUM_FLOWERS_EQ or cond == L.C_SUM_FLOWERS_GE or cond == L.C_SUM_FLOWERS_LE:
        return A_FLOWERS
    if cond == L.C_SAME_FLOWER_COUNT or cond == L.C_DIFF_FLOWER_COUNT:
        return A_FLOWERS
    if cond == L.C_SUM_STARS_GE:
        return A_STARS
    if cond == L.C_SAME_KNICK or cond == L.C_DIFF_KNICK:
        return A_KNICK
    if cond == L.C_SAME_VASE or cond == L.C_DIFF_VASE:
        return A_VASE
    if cond == L.C_SHARE_FLOWER_TYPE:
        return A_TYPES
    return 0


@njit(cache=True)
def _value_col(cond):
    """Tile column compared by a SAME_*/DIFF_* condition (-1 for other codes)."""
    if cond == L.C_SAME_KNICK or cond == L.C_DIFF_KNICK:
        return L.TL_KNICK
    if cond == L.C_SAME_VASE or cond == L.C_DIFF_VASE:
        return L.TL_VASE
    if cond == L.C_SAME_FLOWER_COUNT or cond == L.C_DIFF_FLOWER_COUNT:
        return L.TL_FLOWERS
    return -1


@njit(cache=True)
def _is_sum(cond):
    """Whether ``cond`` is one of the additive SUM_* conditions."""
    return (cond == L.C_SUM_FLOWERS_EQ or cond == L.C_SUM_FLOWERS_GE or cond == L.C_SUM_FLOWERS_LE
            or cond == L.C_SUM_STARS_GE)


@njit(cache=True)
def _topk_push(buf, m, k, v, largest):
    """Insert ``v`` into ``buf[:m]`` (kept sorted best first, at most ``k`` values).

    Returns
    -------
    int, the new number of values in ``buf``.
    """
    if m < k:
        j = m
        m += 1
    elif (largest and v > buf[k - 1]) or (not largest and v < buf[k - 1]):
        j = k - 1
    else:
        return m
    while j > 0 and ((largest and buf[j - 1] < v) or (not largest and buf[j - 1] > v)):
        buf[j] = buf[j - 1]
        j -= 1
    buf[j] = v
    return m


@njit(cache=True)
def _extreme_sum(tiles, pool, n_pool, col, k, largest, buf):
    """Sum of the ``k`` largest (or smallest) values of column ``col`` over ``pool[:n_pool]``.

    ``buf`` (length >= k) holds the running best values, kept sorted best first.
    Requires ``n_pool >= k``.
    """
    m = 0
    for i in range(n_pool):
        m = _topk_push(buf, m, k, tiles[pool[i], col], largest)
    s = 0
    for j in range(k):
        s += buf[j]
    return s


# ---------------------------------------------------------------------------------------------
# one line, one condition: closed forms (FS-SOLO-C4, mode lines)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _line_fast(cond, param, tiles, ids, n_p, k, pool, n_pool, buf):
    """Can ``k`` distinct pool tiles complete a line holding ``ids[:n_p]`` so it meets ``cond``?

    Parameters
    ----------
    cond, param : int
        Condition code (``C_*``) and parameter (§2.8).
    ids : int64 array
        Tile ids placed in the line (placed tiles count as finished, FS-SOLO-C2).
    n_p, k : int
        Placed tiles and empty slots of the line.
    pool, n_pool : int64 array, int
        Tiles still in the draw stack (FS-SOLO-C2).
    buf : int64 array
        Scratch of length >= k + 1.

    Returns
    -------
    int
        1 if possible, 0 if impossible, ``UNDECIDED`` if an attribute value is outside the
        fast-path range (the caller then runs the exact class search).
    """
    if k == 0:
        return 1 if line_meets(cond, param, tiles, ids, n_p) else 0
    if n_pool < k:
        return 0
    if _is_sum(cond):
        col = L.TL_STARS if cond == L.C_SUM_STARS_GE else L.TL_FLOWERS
        s0 = 0
        for i in range(n_p):
            s0 += tiles[ids[i], col]
        if cond == L.C_SUM_FLOWERS_GE or cond == L.C_SUM_STARS_GE:
            return 1 if s0 + _extreme_sum(tiles, pool, n_pool, col, k, True, buf) >= param else 0
        if cond == L.C_SUM_FLOWERS_LE:
            return 1 if s0 + _extreme_sum(tiles, pool, n_pool, col, k, False, buf) <= param else 0
        # SUM_FLOWERS_EQ: bitset DP, buf[j] = sums (<= target) reachable with j distinct tiles.
        t = param - s0
        if t < 0:
            return 0
        if t > FAST_MAX_VALUE:
            return UNDECIDED
        lim = (np.int64(1) << (t + 1)) - 1
        buf[0] = 1
        for j in range(1, k + 1):
            buf[j] = 0
        for i in range(n_pool):
            f = tiles[pool[i], L.TL_FLOWERS]
            if f < 0:
                return UNDECIDED
            if f > t:
                continue
            top = k if i + 1 > k else i + 1
            for j in range(top, 0, -1):
                buf[j] |= (buf[j - 1] << f) & lim
            if (buf[k] >> t) & 1:
                return 1
        return 0
    col = _value_col(cond)
    if cond == L.C_SAME_KNICK or cond == L.C_SAME_VASE or cond == L.C_SAME_FLOWER_COUNT:
        if n_p > 0:
            v = tiles[ids[0], col]
            for i in range(1, n_p):
                if tiles[ids[i], col] != v:
                    return 0
            c = 0
            for i in range(n_pool):
                if tiles[pool[i], col] == v:
                    c += 1
                    if c >= k:
                        return 1
            return 0
        if k == 1:
            return 1
        if k > FAST_MAX_K:
            return UNDECIDED
        # Some value must occur >= k times: m[j] = values seen more than j times.
        m1 = 0
        m2 = 0
        m3 = 0
        for i in range(n_pool):
            v = tiles[pool[i], col]
            if v < 0 or v > FAST_MAX_VALUE:
                return UNDECIDED
            bit = np.int64(1) << v
            if k == 4 and (m3 & bit) != 0:
                return 1
            if k == 3 and (m2 & bit) != 0:
                return 1
            if k == 2 and (m1 & bit) != 0:
                return 1
            m3 |= m2 & bit
            m2 |= m1 & bit
            m1 |= bit
        return 0
    if cond == L.C_DIFF_KNICK or cond == L.C_DIFF_VASE or cond == L.C_DIFF_FLOWER_COUNT:
        pm = 0
        for i in range(n_p):
            v = tiles[ids[i], col]
            if v < 0 or v > FAST_MAX_VALUE:
                return UNDECIDED
            if (pm >> v) & 1:
                return 0
            pm |= np.int64(1) << v
        qm = 0
        for i in range(n_pool):
            v = tiles[pool[i], col]
            if v < 0 or v > FAST_MAX_VALUE:
                return UNDECIDED
            qm |= np.int64(1) << v
        return 1 if _popcount(qm & ~pm) >= k else 0
    if cond == L.C_SHARE_FLOWER_TYPE:
        m = (1 << L.MAX_FLOWER_TYPES) - 1
        for i in range(n_p):
            m &= _type_mask(tiles, ids[i])
        if m == 0:
            return 0
        for f in range(L.MAX_FLOWER_TYPES):
            if (m >> f) & 1:
                c = 0
                for i in range(n_pool):
                    if tiles[pool[i], f] >= 1:
                        c += 1
                if c >= k:
                    return 1
        return 0
    return 0  # unknown code: line_meets never accepts it


# ---------------------------------------------------------------------------------------------
# exact search over classes of interchangeable pool tiles
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _same_class(tiles, a, b, attrs):
    """Whether tiles ``a`` and ``b`` agree on every attribute in ``attrs`` (``A_*`` flags)."""
    if (attrs & A_FLOWERS) and tiles[a, L.TL_FLOWERS] != tiles[b, L.TL_FLOWERS]:
        return False
    if (attrs & A_STARS) and tiles[a, L.TL_STARS] != tiles[b, L.TL_STARS]:
        return False
    if (attrs & A_KNICK) and tiles[a, L.TL_KNICK] != tiles[b, L.TL_KNICK]:
        return False
    if (attrs & A_VASE) and tiles[a, L.TL_VASE] != tiles[b, L.TL_VASE]:
        return False
    if (attrs & A_TYPES) and _type_mask(tiles, a) != _type_mask(tiles, b):
        return False
    return True


@njit(cache=True)
def _class_key(tiles, t, attrs):
    """Packed key of tile ``t`` on ``attrs`` (8 bits per attribute), -1 if a value is > 255."""
    key = 0
    if attrs & A_FLOWERS:
        v = tiles[t, L.TL_FLOWERS]
        if v < 0 or v > 255:
            return -1
        key = v
    if attrs & A_STARS:
        v = tiles[t, L.TL_STARS]
        if v < 0 or v > 255:
            return -1
        key |= v << 8
    if attrs & A_KNICK:
        v = tiles[t, L.TL_KNICK]
        if v < 0 or v > 255:
            return -1
        key |= v << 16
    if attrs & A_VASE:
        v = tiles[t, L.TL_VASE]
        if v < 0 or v > 255:
            return -1
        key |= v << 24
    if attrs & A_TYPES:
        key |= _type_mask(tiles, t) << 32
    return key


@njit(cache=True)
def _build_classes(pool, n_pool, tiles, attrs, rep, size, keys):
    """Group ``pool[:n_pool]`` into classes of tiles equal on ``attrs``.

    Fills ``rep[c]`` (a representative tile id) and ``size[c]`` (tiles in the class).
    ``keys`` is scratch of length >= n_pool. Tiles are sorted by their packed key
    (:func:`_class_key`); with attribute values beyond the key range the classes are found by
    pairwise comparison instead.

    Returns
    -------
    int, the number of classes.
    """
    packed = True
    for i in range(n_pool):
        t = pool[i]
        key = _class_key(tiles, t, attrs)
        if key < 0:
            packed = False
            break
        # insertion sort of (key, tile) on key; rep doubles as the tile column
        j = i
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            rep[j] = rep[j - 1]
            j -= 1
        keys[j] = key
        rep[j] = t
    n_cls = 0
    if packed:
        for i in range(n_pool):
            if n_cls > 0 and keys[i] == keys[i - 1]:
                size[n_cls - 1] += 1
            else:
                rep[n_cls] = rep[i]
                size[n_cls] = 1
                n_cls += 1
        return n_cls
    for i in range(n_pool):
        t = pool[i]
        found = False
        for c in range(n_cls):
            if _same_class(tiles, rep[c], t, attrs):
                size[c] += 1
                found = True
                break
        if not found:
            rep[n_cls] = t
            size[n_cls] = 1
            n_cls += 1
    return n_cls


@njit(cache=True)
def _pool_bounds(tiles, pool, n_pool, out):
    """``out[0..2]`` = min flowers, max flowers, max stars over the pool (0 if empty)."""
    lo_f = 0
    hi_f = 0
    hi_s = 0
    for i in range(n_pool):
        t = pool[i]
        f = tiles[t, L.TL_FLOWERS]
        s = tiles[t, L.TL_STARS]
        if i == 0 or f < lo_f:
            lo_f = f
        if i == 0 or f > hi_f:
            hi_f = f
        if i == 0 or s > hi_s:
            hi_s = s
    out[0] = lo_f
    out[1] = hi_f
    out[2] = hi_s


@njit(cache=True)
def _partial_ok(cond, param, tiles, ids, n, r, bounds):
    """Can a line holding ``ids[:n]`` plus ``r`` more pool tiles still meet ``cond``?

    Sound pruning (never rejects a completable line): SUM_* conditions use the pool's min/max
    (``bounds`` from :func:`_pool_bounds`, flowers and stars are non-negative counts);
    SAME_*, DIFF_* and SHARE_FLOWER_TYPE are hereditary, so the tiles so far must meet them.
    With ``r == 0`` this is the exact test :func:`line_meets`.
    """
    if r == 0 or not _is_sum(cond):
        return line_meets(cond, param, tiles, ids, n)
    col = L.TL_STARS if cond == L.C_SUM_STARS_GE else L.TL_FLOWERS
    s = 0
    for i in range(n):
        s += tiles[ids[i], col]
    if cond == L.C_SUM_STARS_GE:
        return s + r * bounds[2] >= param
    if cond == L.C_SUM_FLOWERS_GE:
        return s + r * bounds[1] >= param
    if cond == L.C_SUM_FLOWERS_LE:
        return s + r * bounds[0] <= param
    return s + r * bounds[0] <= param and s + r * bounds[1] >= param


@njit(cache=True)
def _line_joint(ids, n_p, k, conds, params, n_c, tiles, rep, size, n_cls, bounds, choice):
    """Exact: do ``k`` distinct pool tiles complete the line so that it meets all ``n_c`` conds?

    Enumerates multisets of classes (non-decreasing class index, multiplicity <= class size)
    depth first; ``ids[n_p + d]`` receives the representative chosen at depth ``d``.

    Parameters
    ----------
    ids : int64 array
        Placed tiles first; length >= n_p + k.
    rep, size, n_cls : classes of the pool (:func:`_build_classes`) on the conditions' attributes.
    choice : int64 array
        Scratch of length >= k.

    Returns
    -------
    bool
    """
    if k == 0:
        for j in range(n_c):
            if not line_meets(conds[j], params[j], tiles, ids, n_p):
                return False
        return True
    d = 0
    choice[0] = -1
    while d >= 0:
        if choice[d] == -1:
            c = choice[d - 1] if d > 0 else 0
        else:
            c = choice[d] + 1
        placed = False
        while c < n_cls:
            used = 0
            j = d - 1
            while j >= 0 and choice[j] == c:
                used += 1
                j -= 1
            if used < size[c]:
                ids[n_p + d] = rep[c]
                ok = True
                for q in range(n_c):
                    if not _partial_ok(conds[q], params[q], tiles, ids, n_p + d + 1,
                                       k - d - 1, bounds):
                        ok = False
                        break
                if ok:
                    placed = True
                    break
            c += 1
        if not placed:
            choice[d] = -1
            d -= 1
            continue
        choice[d] = c
        if d == k - 1:
            return True
        d += 1
        choice[d] = -1
    return False


@njit(cache=True)
def _is_diff(cond):
    """Whether ``cond`` is one of the DIFF_* conditions."""
    return cond == L.C_DIFF_KNICK or cond == L.C_DIFF_VASE or cond == L.C_DIFF_FLOWER_COUNT


@njit(cache=True)
def _is_partition(cond):
    """SAME_* and SHARE_FLOWER_TYPE split the pool: all tiles of the line share one value."""
    return (cond == L.C_SAME_KNICK or cond == L.C_SAME_VASE or cond == L.C_SAME_FLOWER_COUNT
            or cond == L.C_SHARE_FLOWER_TYPE)


@njit(cache=True)
def _line_partition(pcond, ocond, oparam, tiles, ids, n_p, k, pool, n_pool, buf, fpool):
    """Two conditions on one line, ``pcond`` being SAME_* or SHARE_FLOWER_TYPE (exact).

    A line meets SAME_X iff all its tiles have one value v of X, and SHARE_FLOWER_TYPE iff all
    have some type f. So: for each such v (or f) compatible with the placed tiles, restrict the
    pool to the tiles having it and answer ``ocond`` with the single-condition closed form.

    Returns
    -------
    int
        1, 0, or ``UNDECIDED`` (then the caller runs the class search).
    """
    undecided = False
    if pcond == L.C_SHARE_FLOWER_TYPE:
        m = (1 << L.MAX_FLOWER_TYPES) - 1
        for i in range(n_p):
            m &= _type_mask(tiles, ids[i])
        for f in range(L.MAX_FLOWER_TYPES):
            if (m >> f) & 1:
                nf = np.int64(0)
                for i in range(n_pool):
                    if tiles[pool[i], f] >= 1:
                        fpool[nf] = pool[i]
                        nf += 1
                if nf >= k:
                    r = _line_fast(ocond, oparam, tiles, ids, n_p, k, fpool, nf, buf)
                    if r == 1:
                        return 1
                    if r == UNDECIDED:
                        undecided = True
        return UNDECIDED if undecided else 0
    col = _value_col(pcond)
    if n_p > 0:
        for i in range(1, n_p):
            if tiles[ids[i], col] != tiles[ids[0], col]:
                return 0
    for i in range(n_pool if n_p == 0 else 1):
        v = tiles[ids[0], col] if n_p > 0 else tiles[pool[i], col]
        seen = False
        if n_p == 0:
            for j in range(i):
                if tiles[pool[j], col] == v:
                    seen = True
                    break
        if seen:
            continue
        nf = np.int64(0)
        for j in range(n_pool):
            if tiles[pool[j], col] == v:
                fpool[nf] = pool[j]
                nf += 1
        if nf >= k:
            r = _line_fast(ocond, oparam, tiles, ids, n_p, k, fpool, nf, buf)
            if r == 1:
                return 1
            if r == UNDECIDED:
                undecided = True
    return UNDECIDED if undecided else 0


@njit(cache=True)
def _line_diff_sum(dcond, scond, sparam, tiles, ids, n_p, k, pool, n_pool, buf, fpool):
    """DIFF_* together with a SUM_* condition on one line (exact closed form).

    Pool tiles whose value is already on the line are dropped; the rest are grouped by value
    (at most one tile per group may be chosen). ``_GE``/``_LE``: the best tile of each group,
    then the top/bottom k groups; ``SUM_FLOWERS_EQ``: the bitset DP of :func:`_line_fast`,
    taking at most one tile per group.

    Parameters
    ----------
    buf : int64 array
        Scratch of length >= 2 * (k + 1).

    Returns
    -------
    int
        1, 0, or ``UNDECIDED``.
    """
    if k == 0:
        ok = (line_meets(dcond, sparam, tiles, ids, n_p)
              and line_meets(scond, sparam, tiles, ids, n_p))
        return 1 if ok else 0
    col = _value_col(dcond)
    scol = L.TL_STARS if scond == L.C_SUM_STARS_GE else L.TL_FLOWERS
    pm = 0
    s0 = 0
    for i in range(n_p):
        v = tiles[ids[i], col]
        if v < 0 or v > FAST_MAX_VALUE:
            return UNDECIDED
        if (pm >> v) & 1:
            return 0
        pm |= np.int64(1) << v
        s0 += tiles[ids[i], scol]
    # eligible tiles, insertion-sorted by value
    m = np.int64(0)
    for i in range(n_pool):
        t = pool[i]
        v = tiles[t, col]
        if v < 0 or v > FAST_MAX_VALUE:
            return UNDECIDED
        if (pm >> v) & 1:
            continue
        j = m
        while j > 0 and tiles[fpool[j - 1], col] > v:
            fpool[j] = fpool[j - 1]
            j -= 1
        fpool[j] = t
        m += 1
    if scond == L.C_SUM_FLOWERS_EQ:
        target = sparam - s0
        if target < 0:
            return 0
        if target > FAST_MAX_VALUE:
            return UNDECIDED
        lim = (np.int64(1) << (target + 1)) - 1
        reach = buf[:k + 1]
        snap = buf[k + 1:2 * k + 2]
        reach[0] = 1
        for j in range(1, k + 1):
            reach[j] = 0
        i = 0
        while i < m:
            for j in range(k + 1):
                snap[j] = reach[j]
            v = tiles[fpool[i], col]
            while i < m and tiles[fpool[i], col] == v:
                f = tiles[fpool[i], L.TL_FLOWERS]
                if f < 0:
                    return UNDECIDED
                if f <= target:
                    for j in range(1, k + 1):
                        reach[j] |= (snap[j - 1] << f) & lim
                i += 1
            if (reach[k] >> target) & 1:
                return 1
        return 0
    largest = scond != L.C_SUM_FLOWERS_LE
    # best value per group, kept as the top (or bottom) k in buf[0..k-1]
    n_best = 0
    i = 0
    while i < m:
        v = tiles[fpool[i], col]
        best = tiles[fpool[i], scol]
        while i < m and tiles[fpool[i], col] == v:
            x = tiles[fpool[i], scol]
            if (largest and x > best) or (not largest and x < best):
                best = x
            i += 1
        n_best = _topk_push(buf, n_best, k, best, largest)
    if n_best < k:
        return 0
    tot = s0
    for j in range(k):
        tot += buf[j]
    return 1 if (tot >= sparam if largest else tot <= sparam) else 0


# ---------------------------------------------------------------------------------------------
# FS-SOLO-C4 over the whole shop
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _card_conditions(tasks, cards, n_cards, cnd):
    """Row and column conditions of the cards, duplicates removed (FS-SOLO-C6, rule ``all``).

    Fills ``cnd[0, :]``/``cnd[1, :]`` (row codes/params) and ``cnd[2, :]``/``cnd[3, :]``
    (column codes/params).

    Returns
    -------
    (n_row, n_col) : tuple of int
    """
    n_r = 0
    n_c = 0
    for i in range(n_cards):
        card = cards[i]
        n_r = _add_condition(cnd, 0, n_r, tasks[card, L.TK_ROW_COND], tasks[card, L.TK_ROW_PARAM])
        n_c = _add_condition(cnd, 2, n_c, tasks[card, L.TK_COL_COND], tasks[card, L.TK_COL_PARAM])
    return n_r, n_c


@njit(cache=True)
def _add_condition(cnd, row, n, code, param):
    """Append (code, param) to ``cnd[row, :n]``/``cnd[row + 1, :n]`` unless already there
    (parameters matter only for sum conditions). Returns the new count."""
    for j in range(n):
        if cnd[row, j] == code and (cnd[row + 1, j] == param or not _is_sum(code)):
            return n
    cnd[row, n] = code
    cnd[row + 1, n] = param
    return n + 1


@njit(cache=True)
def _scratch_len(rows, cols, n_pool, multi):
    """Length of the scratch array of :func:`_lines_ok` (class tables only if ``multi``)."""
    length_max = rows if rows > cols else cols
    n = 4 * length_max + 5
    if multi:
        n += 6 * (n_pool if n_pool > 0 else 1) + 2
    return n


@njit(cache=True)
def _line_generic(ids, n_p, k, conds, params, nq, tiles, pool, n_pool, bounds, choice):
    """Exact search for one line with its own class tables (rare path: attribute values
    outside the fast-path range on a single-condition line)."""
    npl = n_pool if n_pool > 0 else 1
    rep = np.empty(npl, dtype=np.int64)
    size = np.empty(npl, dtype=np.int64)
    attrs = 0
    for q in range(nq):
        attrs |= _cond_attrs(conds[q])
    n_cls = _build_classes(pool, n_pool, tiles, attrs, rep, size, np.empty(npl, dtype=np.int64))
    return _line_joint(ids, n_p, k, conds, params, nq, tiles, rep, size, n_cls, bounds, choice)


@njit(cache=True)
def _lines_ok(shop, rows, cols, pool, n_pool, cnd, n_r, n_c, complete_only, tiles, work):
    """FS-SOLO-C4 modes ``lines`` and ``complete_lines`` for one set of conditions.

    Each line is checked independently (a pool tile may serve two lines). Placed tiles count
    as finished (FS-SOLO-C2). With ``complete_only``, lines with an empty slot are skipped.

    Parameters
    ----------
    cnd, n_r, n_c : conditions from :func:`_card_conditions`.
    work : int64 array
        Scratch of length ``_scratch_len(rows, cols, n_pool, n_r > 1 or n_c > 1)`` (one
        allocation per call of :func:`feasible`: it runs for every candidate placement of the
        greedy policy, so allocations matter).

    Returns
    -------
    bool
    """
    length_max = rows if rows > cols else cols
    npl = n_pool if n_pool > 0 else 1
    ids = work[:length_max]
    o = length_max
    buf = work[o:o + 2 * length_max + 2]
    o += 2 * length_max + 2
    choice = work[o:o + length_max]
    o += length_max
    bounds = work[o:o + 3]
    o += 3
    have_cls = work.shape[0] >= o + 6 * npl + 2
    have_bounds = False
    built_r = False
    built_c = False
    for line in range(rows + cols):
        kind = 0 if line < rows else 1
        length = cols if kind == 0 else rows
        nq = n_r if kind == 0 else n_c
        n_p = np.int64(0)
        for i in range(length):
            t = shop[_slot(rows, cols, line, i)]
            if t >= 0:
                ids[n_p] = t
                n_p += 1
        k = length - n_p
        if complete_only and k > 0:
            continue
        if nq == 0:
            if k > n_pool:
                return False
            continue
        undecided = False
        for q in range(nq):
            r = _line_fast(cnd[2 * kind, q], cnd[2 * kind + 1, q], tiles, ids, n_p, k,
                           pool, n_pool, buf)
            if r == 0:
                return False
            if r == UNDECIDED:
                undecided = True
        if (nq == 1 or k == 0) and not undecided:
            continue  # one condition, or a complete line: the closed forms are exact
        # Two conditions, one of them SAME_* or SHARE_FLOWER_TYPE: split the pool by value.
        if nq == 2 and have_cls:
            pq = 0 if _is_partition(cnd[2 * kind, 0]) else 1
            if _is_partition(cnd[2 * kind, pq]):
                r = _line_partition(cnd[2 * kind, pq], cnd[2 * kind, 1 - pq],
                                    cnd[2 * kind + 1, 1 - pq], tiles, ids, n_p, k, pool,
                                    n_pool, buf, work[o + 5 * npl + 2:o + 6 * npl + 2])
                if r == 0:
                    return False
                if r == 1:
                    continue
            # DIFF_* with a SUM_*: one tile per value group.
            dq = 0 if _is_diff(cnd[2 * kind, 0]) else 1
            if _is_diff(cnd[2 * kind, dq]) and _is_sum(cnd[2 * kind, 1 - dq]):
                r = _line_diff_sum(cnd[2 * kind, dq], cnd[2 * kind, 1 - dq],
                                   cnd[2 * kind + 1, 1 - dq], tiles, ids, n_p, k, pool,
                                   n_pool, buf, work[o + 5 * npl + 2:o + 6 * npl + 2])
                if r == 0:
                    return False
                if r == 1:
                    continue
        # Several conditions at once (or values outside the fast range): exact search.
        if not have_bounds:
            _pool_bounds(tiles, pool, n_pool, bounds)
            have_bounds = True
        if not have_cls:
            if not _line_generic(ids, n_p, k, cnd[2 * kind], cnd[2 * kind + 1], nq, tiles,
                                 pool, n_pool, bounds, choice):
                return False
            continue
        # Class tables per line kind, built once: [rep | size] x 2 kinds, keys, n_cls.
        base = o + kind * 2 * npl
        rep = work[base:base + npl]
        size = work[base + npl:base + 2 * npl]
        n_cls_at = o + 5 * npl + kind
        if (kind == 0 and not built_r) or (kind == 1 and not built_c):
            attrs = 0
            for q in range(nq):
                attrs |= _cond_attrs(cnd[2 * kind, q])
            work[n_cls_at] = _build_classes(pool, n_pool, tiles, attrs, rep, size,
                                            work[o + 4 * npl:o + 5 * npl])
            if kind == 0:
                built_r = True
            else:
                built_c = True
        if not _line_joint(ids, n_p, k, cnd[2 * kind], cnd[2 * kind + 1], nq, tiles,
                           rep, size, work[n_cls_at], bounds, choice):
            return False
    return True


@njit(cache=True)
def _slot_lines_ok(grid, rows, cols, s, cnd, n_r, n_c, tiles, bounds, ids):
    """Can the row and the column through slot ``s`` of ``grid`` still meet their conditions?"""
    for kind in range(2):
        line = s // cols if kind == 0 else rows + s % cols
        length = cols if kind == 0 else rows
        nq = n_r if kind == 0 else n_c
        n = np.int64(0)
        for i in range(length):
            t = grid[_slot(rows, cols, line, i)]
            if t >= 0:
                ids[n] = t
                n += 1
        for q in range(nq):
            if not _partial_ok(cnd[2 * kind, q], cnd[2 * kind + 1, q], tiles, ids, n,
                               length - n, bounds):
                return False
    return True


@njit(cache=True)
def _full_ok(shop, rows, cols, pool, n_pool, cnd, n_r, n_c, tiles):
    """FS-SOLO-C4 mode ``full``: one injective assignment of pool tiles to all empty slots.

    Exact depth-first search over classes of interchangeable pool tiles (equal on every
    attribute the conditions read), filling the lines with the fewest empty slots first and
    pruning with :func:`_partial_ok` on the row and column of each filled slot. The ``lines``
    check runs first as a cheap necessary condition.

    Returns
    -------
    bool
    """
    work = np.empty(_scratch_len(rows, cols, n_pool, n_r > 1 or n_c > 1), dtype=np.int64)
    # complete_only = False, passed as a computed bool: a literal False would make numba
    # compile a second specialisation of the whole line check (compile time).
    if not _lines_ok(shop, rows, cols, pool, n_pool, cnd, n_r, n_c, n_pool < 0, tiles, work):
        return False
    n_slots = rows * cols
    grid = shop[:n_slots].copy()
    # Slot order: lines by increasing number of empty slots, each line's empty slots in turn.
    n_lines = rows + cols
    empties = np.zeros(n_lines, dtype=np.int64)
    for line in range(n_lines):
        length = cols if line < rows else rows
        for i in range(length):
            if grid[_slot(rows, cols, line, i)] < 0:
                empties[line] += 1
    order = np.empty(n_slots, dtype=np.int64)
    queued = np.zeros(n_slots, dtype=np.int64)
    m = 0
    done = np.zeros(n_lines, dtype=np.int64)
    for _ in range(n_lines):
        best = -1
        for line in range(n_lines):
            if done[line] == 0 and (best < 0 or empties[line] < empties[best]):
                best = line
        done[best] = 1
        length = cols if best < rows else rows
        for i in range(length):
            s = _slot(rows, cols, best, i)
            if grid[s] < 0 and queued[s] == 0:
                queued[s] = 1
                order[m] = s
                m += 1
        # Slots now queued no longer count as empty for the remaining lines.
        for line in range(n_lines):
            if done[line] == 0:
                ln = cols if line < rows else rows
                e = 0
                for i in range(ln):
                    s = _slot(rows, cols, line, i)
                    if grid[s] < 0 and queued[s] == 0:
                        e += 1
                empties[line] = e
    if m == 0:
        return True
    attrs = 0
    for q in range(n_r):
        attrs |= _cond_attrs(cnd[0, q])
    for q in range(n_c):
        attrs |= _cond_attrs(cnd[2, q])
    rep = np.empty(n_pool, dtype=np.int64)
    rem = np.empty(n_pool, dtype=np.int64)
    n_cls = _build_classes(pool, n_pool, tiles, attrs, rep, rem,
                           np.empty(n_pool, dtype=np.int64))
    bounds = np.empty(3, dtype=np.int64)
    _pool_bounds(tiles, pool, n_pool, bounds)
    ids = np.empty(rows if rows > cols else cols, dtype=np.int64)
    choice = np.empty(m, dtype=np.int64)
    d = 0
    choice[0] = -1
    while d >= 0:
        s = order[d]
        if choice[d] >= 0:
            rem[choice[d]] += 1
            grid[s] = -1
        c = choice[d] + 1
        found = False
        while c < n_cls:
            if rem[c] > 0:
                grid[s] = rep[c]
                if _slot_lines_ok(grid, rows, cols, s, cnd, n_r, n_c, tiles, bounds, ids):
                    found = True
                    break
                grid[s] = -1
            c += 1
        if not found:
            choice[d] = -1
            d -= 1
            continue
        rem[c] -= 1
        choice[d] = c
        if d == m - 1:
            return True
        d += 1
        choice[d] = -1
    return False


@njit(cache=True)
def work_len(rows, cols, n_pool, n_cards):
    """Length of the scratch of :func:`feasible_in`: the conditions and the line scratch
    (class tables only when a line kind has several conditions)."""
    nc = n_cards if n_cards > 0 else 1
    return 4 * nc + _scratch_len(rows, cols, n_pool, n_cards > 1)




@njit(cache=True)
def _c4_ok(shop, rows, cols, pool, n_pool, cards, n_cards, mode, tasks, tiles, work):
    """FS-SOLO-C4 for cards that must all be satisfied at once (win rule ``all``, C6), with
    the caller's scratch ``work`` (at least ``work_len(rows, cols, n_pool, n_cards)``)."""
    nc = n_cards if n_cards > 0 else 1
    cnd = work[:4 * nc].reshape((4, nc))
    n_r, n_c = _card_conditions(tasks, cards, n_cards, cnd)
    if mode == L.MODE_FULL:
        return _full_ok(shop, rows, cols, pool, n_pool, cnd, n_r, n_c, tiles)
    return _lines_ok(shop, rows, cols, pool, n_pool, cnd, n_r, n_c,
                     mode == L.MODE_COMPLETE_LINES, tiles,
                     work[4 * nc:work_len(rows, cols, n_pool, n_cards)])


@njit(cache=True)
def feasible(shop, finished, rows, cols, pool, n_pool, cards, n_cards, win_any, mode,
             check_capacity, days_left, n_dice_per_day, tokens, money, max_salary,
             wild_token_cost, tasks, tiles):
    """:func:`feasible_in` with a scratch of its own (the game loop passes its scratch to
    ``feasible_in``: the check runs for every candidate placement of the greedy policy)."""
    work = np.empty(work_len(rows, cols, n_pool, n_cards), dtype=np.int64)
    return feasible_in(shop, finished, rows, cols, pool, n_pool, cards, n_cards, win_any, mode,
                       check_capacity, days_left, n_dice_per_day, tokens, money, max_salary,
                       wild_token_cost, tasks, tiles, work)


@njit(cache=True)
def feasible_in(shop, finished, rows, cols, pool, n_pool, cards, n_cards, win_any, mode,
                check_capacity, days_left, n_dice_per_day, tokens, money, max_salary,
                wild_token_cost, tasks, tiles, work):
    """End-of-day solo feasibility check FS-SOLO-C1 (C2-C6); False = provable LOSS.

    Run after Step 4 of days 1..days-1, before the refill (AMB-19). Optimistic (AMB-18, A-12):
    it returns False only when the analysis proves that no card combination required by the
    win rule can still be fully satisfied.

    Parameters
    ----------
    shop : int64[rows*cols]
        Tile id per slot, -1 = empty (slot ``s = cols*row + col``, §2.6).
    finished : int64[rows*cols]
        1 where the slot's tile is finished. Only C5 reads it: for the line checks every placed
        tile counts as finished (FS-SOLO-C2).
    rows, cols : int
        Shop grid.
    pool : int64 array
        Tiles still in the draw stack; the first ``n_pool`` are used (FS-SOLO-C2: the current
        row, discarded tiles and shop tiles are not in the pool).
    cards : int64 array
        Task card ids in play; the first ``n_cards`` are used.
    win_any : bool
        Win rule (FS-SOLO-C6). False (``all``): every line must meet the conditions of all
        cards at once. True (``any``, FS-V-EASY-2): C4 is evaluated per card and passes if
        some card passes.
    mode : int
        ``solo_feasibility_mode`` (FS-SOLO-C4): ``MODE_OFF`` 0, ``MODE_COMPLETE_LINES`` 1,
        ``MODE_LINES`` 2, ``MODE_FULL`` 3.
    check_capacity : bool
        ``solo_check_capacity`` (FS-SOLO-C5).
    days_left : int
        R = days - d (FS-SOLO-C2).
    n_dice_per_day : int
        Flower dice + vase dice per player.
    tokens, money : int
        Wild tokens held and money.
    max_salary : int
        Largest solo salary card (``max(solo_salary)``).
    wild_token_cost : int
        Price of a wild token (a value <= 0 makes the capacity unbounded).
    tasks : int64[n_cards_total, TK_W]
    tiles : int64[n_tiles, TL_W]
    work : int64 array
        Scratch of at least ``work_len(rows, cols, n_pool, n_cards)`` (``WORK_MAX`` fits any
        legal game).

    Returns
    -------
    bool
        True while the player may still win; False = LOSS (FS-SOLO-C1).

    Notes
    -----
    * FS-SOLO-C3 (|E| > R or |P| < |E|) and C5 apply in every mode, ``off`` included; ``mode``
      only selects the line check C4.
    * C5: need = sum over unfinished placed tiles of (flowers + 1) + |E| * min over the pool of
      (flowers + 1); cap = R * n_dice_per_day + tokens + (money + R * max_salary) //
      wild_token_cost.
    * With ``n_cards <= 0`` no condition has to be met and C4 passes.
    """
    n_slots = rows * cols
    n_empty = 0
    need = 0
    for s in range(n_slots):
        t = shop[s]
        if t < 0:
            n_empty += 1
        elif finished[s] == 0:
            need += tiles[t, L.TL_FLOWERS] + 1
    # FS-SOLO-C3: structural.
    if n_empty > days_left or n_pool < n_empty:
        return False
    # FS-SOLO-C5: capacity.
    if check_capacity and wild_token_cost > 0:
        if n_empty > 0:
            lo = tiles[pool[0], L.TL_FLOWERS]
            for i in range(1, n_pool):
                f = tiles[pool[i], L.TL_FLOWERS]
                if f < lo:
                    lo = f
            need += n_empty * (lo + 1)
        cap = (days_left * n_dice_per_day + tokens
               + (money + days_left * max_salary) // wild_token_cost)
        if need > cap:
            return False
    # FS-SOLO-C4 combined over the cards per FS-SOLO-C6.
    if mode == L.MODE_OFF or n_cards <= 0:
        return True
    if win_any:
        for i in range(n_cards):
            if _c4_ok(shop, rows, cols, pool, n_pool, cards[i:i + 1], np.int64(1), mode, tasks,
                      tiles, work):
                return True
        return False
    return _c4_ok(shop, rows, cols, pool, n_pool, cards, n_cards, mode, tasks, tiles, work)


# ---------------------------------------------------------------------------------------------
# §2.9 task conflicts
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def conflict_matrix(tasks, tiles, rows, cols):
    """Which task cards cannot be fully satisfied together (§2.9, FS-V-HELL-2, AMB-24).

    Two cards conflict iff no arrangement of ``rows*cols`` distinct tiles of ``tiles`` meets
    both cards' row conditions on every row and both cards' column conditions on every column.
    Decided exactly by the ``full`` search of FS-SOLO-C4 on an empty shop with every tile in
    the pool.

    Parameters
    ----------
    tasks : int64[n_cards, TK_W]
    tiles : int64[n_tiles, TL_W]
    rows, cols : int
        Shop grid (§2.6).

    Returns
    -------
    int64[n_cards, n_cards]
        Symmetric; 1 = conflict. ``out[a, a]`` is 1 iff card ``a`` alone cannot be satisfied
        (such a card then conflicts with every card).
    """
    n_cards = tasks.shape[0]
    n_tiles = tiles.shape[0]
    out = np.zeros((n_cards, n_cards), dtype=np.int64)
    shop = np.full(rows * cols, -1, dtype=np.int64)
    pool = np.arange(n_tiles, dtype=np.int64)
    pair = np.empty(2, dtype=np.int64)
    cnd = np.empty((4, 2), dtype=np.int64)
    for a in range(n_cards):
        pair[0] = a
        n_r, n_c = _card_conditions(tasks, pair, np.int64(1), cnd)
        if rows * cols > n_tiles or not _full_ok(shop, rows, cols, pool, n_tiles, cnd, n_r,
                                                 n_c, tiles):
            out[a, a] = 1
    for a in range(n_cards):
        for b in range(a + 1, n_cards):
            if out[a, a] == 1 or out[b, b] == 1:
                ok = False
            else:
                pair[0] = a
                pair[1] = b
                n_r, n_c = _card_conditions(tasks, pair, np.int64(2), cnd)
                ok = _full_ok(shop, rows, cols, pool, n_tiles, cnd, n_r, n_c, tiles)
            if not ok:
                out[a, b] = 1
                out[b, a] = 1
    return out
