"""Task-card conditions and task scoring for The Little Flower Shop Dice Game.

Rule source: ``shared/rules/flower_shop.md`` §2.6 (shop grid and lines), §2.8 (condition codes)
and FS-E3 (task points). Also used by the solo feasibility check (FS-SOLO-C4) and the offline
task-conflict search (§2.9).

Also the finish rule's matching of dice to a tile's icons (FS-U1..U3), used by the kernel and
the policies. Component array layouts (``TL_*``, ``TK_*``) and condition codes (``C_*``):
``layout.py``; the derived tile columns are filled by ``derive_tile_columns``.
"""
import numpy as np
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L

no_refcount_module(__name__, exclude=("lines_met",))  # only lines_met allocates (sim.borrow)
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)


def derive_tile_columns(tiles):
    """Fill the derived columns of ``tiles`` (TL_FLOWERS, TL_NEED8, TL_SPECIFIC, TL_TYPES) from
    the printed icons (columns 0..TL_ANY) in place, and return ``tiles``.

    Raises
    ------
    ValueError
        If a tile shows more than ``MAX_ICONS_PER_TYPE`` icons of one flower type.
    """
    specific = tiles[:, :L.MAX_FLOWER_TYPES]
    if specific.size and (specific.max() > L.MAX_ICONS_PER_TYPE or specific.min() < 0):
        raise ValueError(f"a tile shows more than {L.MAX_ICONS_PER_TYPE} icons of one flower type")
    tiles[:, L.TL_SPECIFIC] = specific.sum(axis=1)
    tiles[:, L.TL_FLOWERS] = tiles[:, L.TL_SPECIFIC] + tiles[:, L.TL_ANY]
    need8 = np.zeros(tiles.shape[0], dtype=np.int64)
    for f in range(L.MAX_FLOWER_TYPES):
        need8 |= specific[:, f] << (8 * f)
    tiles[:, L.TL_NEED8] = need8
    for t in range(tiles.shape[0]):
        codes = [f + 1 for f in range(L.MAX_FLOWER_TYPES) if specific[t, f] > 0]
        tiles[t, L.TL_TYPES] = sum(c << (4 * i) for i, c in enumerate(codes))
    return tiles


@njit(cache=True)
def _all_equal(tiles, ids, n, col):
    """Whether column ``col`` is equal over the tiles ``ids[:n]``."""
    for i in range(1, n):
        if tiles[ids[i], col] != tiles[ids[0], col]:
            return False
    return True


@njit(cache=True)
def _all_different(tiles, ids, n, col):
    """Whether column ``col`` is pairwise different over the tiles ``ids[:n]``."""
    for i in range(n):
        for j in range(i + 1, n):
            if tiles[ids[i], col] == tiles[ids[j], col]:
                return False
    return True


@njit(cache=True)
def _sum(tiles, ids, n, col):
    """Sum of column ``col`` over the tiles ``ids[:n]``."""
    s = 0
    for i in range(n):
        s += tiles[ids[i], col]
    return s


@njit(cache=True)
def line_meets(cond, param, tiles, ids, n):
    """Whether the tiles ``ids[:n]`` of one line meet condition ``cond`` (§2.8).

    Parameters
    ----------
    cond, param : int
        Condition code (``C_*``) and its parameter k (ignored by codes without one).
    tiles : int64[n_tiles, TL_W]
    ids : int64 array
        Tile ids of the line; only the first ``n`` are used.
    n : int
        Number of tiles in the line (a line with no tile never meets a condition).

    Returns
    -------
    bool
    """
    if n <= 0:
        return False
    if cond == L.C_SUM_FLOWERS_EQ:
        return _sum(tiles, ids, n, L.TL_FLOWERS) == param
    if cond == L.C_SUM_FLOWERS_GE:
        return _sum(tiles, ids, n, L.TL_FLOWERS) >= param
    if cond == L.C_SUM_FLOWERS_LE:
        return _sum(tiles, ids, n, L.TL_FLOWERS) <= param
    if cond == L.C_SUM_STARS_GE:
        return _sum(tiles, ids, n, L.TL_STARS) >= param
    if cond == L.C_SAME_KNICK:
        return _all_equal(tiles, ids, n, L.TL_KNICK)
    if cond == L.C_DIFF_KNICK:
        return _all_different(tiles, ids, n, L.TL_KNICK)
    if cond == L.C_SAME_VASE:
        return _all_equal(tiles, ids, n, L.TL_VASE)
    if cond == L.C_DIFF_VASE:
        return _all_different(tiles, ids, n, L.TL_VASE)
    if cond == L.C_SAME_FLOWER_COUNT:
        return _all_equal(tiles, ids, n, L.TL_FLOWERS)
    if cond == L.C_DIFF_FLOWER_COUNT:
        return _all_different(tiles, ids, n, L.TL_FLOWERS)
    if cond == L.C_SHARE_FLOWER_TYPE:
        # Fuchsia icons do not count (§2.8).
        for f in range(L.MAX_FLOWER_TYPES):
            ok = True
            for i in range(n):
                if tiles[ids[i], f] < 1:
                    ok = False
                    break
            if ok:
                return True
        return False
    return False


@njit(cache=True)
def line_slots(rows, cols, line, out):
    """Slots of line ``line`` into ``out``; lines are rows 0..rows-1 then columns (§2.6).

    Returns
    -------
    int, the number of slots written.
    """
    if line < rows:
        for c in range(cols):
            out[c] = line * cols + c
        return cols
    c = line - rows
    for r in range(rows):
        out[r] = r * cols + c
    return rows


@njit(cache=True)
def lines_met(shop, finished, rows, cols, card, tasks, tiles, require_full):
    """Rows and columns of one shop that meet task card ``card`` (FS-E3, AMB-12).

    Parameters
    ----------
    shop : int64[rows*cols]
        Tile id per slot, -1 for empty.
    finished : int64[rows*cols]
        1 where the slot's tile is finished.
    require_full : bool
        If True (default rule) a line counts only when every slot holds a finished tile;
        otherwise its finished tiles are evaluated (an empty line never counts).

    Returns
    -------
    (rows_met, cols_met) : tuple of int
    """
    slots = np.empty(max(rows, cols), dtype=np.int64)
    ids = np.empty(max(rows, cols), dtype=np.int64)
    rows_met = 0
    cols_met = 0
    for line in range(rows + cols):
        k = line_slots(rows, cols, line, slots)
        n = 0
        full = True
        for i in range(k):
            s = slots[i]
            if shop[s] >= 0 and finished[s] == 1:
                ids[n] = shop[s]
                n += 1
            else:
                full = False
        if require_full and not full:
            continue
        if line < rows:
            if line_meets(tasks[card, L.TK_ROW_COND], tasks[card, L.TK_ROW_PARAM], tiles, ids, n):
                rows_met += 1
        else:
            if line_meets(tasks[card, L.TK_COL_COND], tasks[card, L.TK_COL_PARAM], tiles, ids, n):
                cols_met += 1
    return rows_met, cols_met


@njit(cache=True)
def task_points(shop, finished, rows, cols, cards, n_cards, tasks, tiles,
                row_default, col_default, require_full):
    """Task points of one shop over the cards in play (FS-E3): the points of all cards add up.

    Parameters
    ----------
    cards : int64 array
        Card ids in play; the first ``n_cards`` are used.
    row_default, col_default : int
        Points per line used where the card leaves them blank (-1 in ``tasks``).

    Returns
    -------
    int
    """
    total = 0
    for i in range(n_cards):
        card = cards[i]
        rm, cm = lines_met(shop, finished, rows, cols, card, tasks, tiles, require_full)
        rp = tasks[card, L.TK_ROW_POINTS]
        cp = tasks[card, L.TK_COL_POINTS]
        if rp < 0:
            rp = row_default
        if cp < 0:
            cp = col_default
        total += rm * rp + cm * cp
    return total


@njit(cache=True)
def card_fully_satisfied(shop, finished, rows, cols, card, tasks, tiles):
    """Solo win test for one card (FS-SOLO-E1): every slot finished, every line met."""
    for s in range(rows * cols):
        if shop[s] < 0 or finished[s] != 1:
            return False
    rm, cm = lines_met(shop, finished, rows, cols, card, tasks, tiles, True)
    return rm == rows and cm == cols


# =========================================================================================
# the finish rule: dice against a tile's icons (FS-U1..U3)
# =========================================================================================
def _lowest_k_table():
    """LOWEST_K[x, k]: the k lowest set bits of the 6-bit mask x (all of them if fewer). Bytes:
    the table (448 bytes) and POPCOUNT6 stay in the L1 cache between the heuristics' calls (as
    int64, 3.5 KB, ``assign_icons`` waited on their loads)."""
    t = np.zeros((64, 7), dtype=np.uint8)
    for x in range(64):
        for k in range(7):
            m, left = 0, k
            for i in range(6):
                if left and (x >> i) & 1:
                    m |= 1 << i
                    left -= 1
            t[x, k] = m
    return t


LOWEST_K = _lowest_k_table()  # flower dice are bits 0..5 (MAX_FLOWER_DICE = 6)
POPCOUNT6 = np.array([bin(x).count("1") for x in range(64)], dtype=np.uint8)


@njit(cache=True)
def assign_icons(state, tiles, b, nf, nv, tile, m1, m2):
    """Minimum-token assignment of dice to the icons of ``tile`` (FS-U1..U3, FS-U2).

    Dice of ``m1`` are used before dice of ``m2`` (the policy uses m1 = locked dice,
    m2 = unlocked dice to plan locks; the kernel uses m1 = unused dice, m2 = 0). Specific icons
    take matching flower dice; ``any``-faced dice fill specific shortages first, then fuchsia
    icons; fuchsia icons take surplus flower dice (lowest index first); the vase icon takes a
    vase die of its colour. The vase die never fills a flower icon (FS-U3).

    Parameters
    ----------
    state : int64 state array; ``b`` = ``seat_base(seat)`` of the player whose dice are used.
    tiles : int64[n_tiles, TL_W]
    nf, nv : int
        Flower and vase dice per player.

    Returns
    -------
    (tokens, used1, used2) : tokens needed for the icons no die fills, and the dice used.
    """
    m = m1 | m2
    # dice of each flower face, 8 bits per type (at most 6 flower dice, 8 types), and any-faced
    by_face = 0
    any_faced = 0
    for i in range(nf):
        f = state[b + L.F_FACE + i]
        if f < 0:
            any_faced |= np.int64(1) << i
        else:
            by_face |= np.int64(1) << (8 * f + i)
    used = 0
    short = 0
    types = tiles[tile, L.TL_TYPES]  # the types with specific icons, ascending
    while types:
        f = (types & 15) - 1
        types >>= 4
        need = tiles[tile, f]
        for pref in range(2):
            mp = m1 if pref == 0 else m2 & ~m1
            cand = (by_face >> (8 * f)) & 0x3F & mp & ~used
            take = np.int64(LOWEST_K[cand, min(need, 6)])  # lowest index first
            used |= take
            need -= np.int64(POPCOUNT6[take])
        short += need
    fuchsia = tiles[tile, L.TL_ANY]
    # any-faced dice: specific shortages first, then fuchsia (FS-U2)
    for pref in range(2):
        mp = m1 if pref == 0 else m2 & ~m1
        take = np.int64(LOWEST_K[any_faced & mp & ~used & 0x3F, min(short + fuchsia, 6)])
        used |= take
        n = np.int64(POPCOUNT6[take])
        from_short = min(n, short)
        short -= from_short
        fuchsia -= n - from_short
    # fuchsia icons: any remaining flower die (FS-U3)
    flower_dice = (np.int64(1) << nf) - 1
    for pref in range(2):
        mp = m1 if pref == 0 else m2 & ~m1
        take = np.int64(LOWEST_K[flower_dice & mp & ~used, min(fuchsia, 6)])
        used |= take
        fuchsia -= np.int64(POPCOUNT6[take])
    vase_short = 1
    colour = tiles[tile, L.TL_VASE]
    for pref in range(2):
        mp = m1 if pref == 0 else m2 & ~m1
        for i in range(L.DIE_VASE0, L.DIE_VASE0 + nv):
            if vase_short == 0:
                break
            if (mp >> i) & 1 and not (used >> i) & 1 and state[b + L.F_FACE + i] == colour:
                used |= np.int64(1) << i
                vase_short = 0
    return short + fuchsia + vase_short, used & m1, used & ~m1 & m


@njit(cache=True)
def dice_counts(state, b, nf, nv, mask):
    """Face counts of the dice of ``mask`` (FS-U2's formula works on counts only).

    Returns
    -------
    (hist, n_any, n_flower, vases) : ``hist`` holds the count of flower type f in bits
    8f..8f+7 (the layout of the tiles' TL_NEED8), ``n_any`` the ``any``-faced dice,
    ``n_flower`` all flower dice, ``vases`` a bit per vase colour rolled.
    """
    hist = 0
    n_any = 0
    n_fl = 0
    for i in range(nf):  # without branches: faces and masks are not predictable
        sel = (mask >> i) & 1
        f = state[b + L.F_FACE + i]
        is_any = np.int64(f < 0)
        n_fl += sel
        n_any += sel & is_any
        hist += (sel & (1 - is_any)) << (8 * (f + is_any))
    vases = 0
    for i in range(L.DIE_VASE0, L.DIE_VASE0 + nv):
        vases |= ((mask >> i) & 1) << state[b + L.F_FACE + i]
    return hist, n_any, n_fl, vases


LANES_GUARD = 0x1010101010101010  # bit 4 of every 8-bit lane (counts are at most 15)
LANES_LOW = 0x0F0F0F0F0F0F0F0F


@njit(cache=True)
def lanes_min_sum(have, need):
    """Sum over the 8-bit lanes of min(have, need), both packed as in ``dice_counts`` with
    every lane at most 15: one borrow-free subtraction per lane marks have >= need in the
    lane's guard bit."""
    ge = (((have | LANES_GUARD) - need) & LANES_GUARD) >> 4
    keep = ge * 15
    m = (need & keep) | (have & ~keep & LANES_LOW)
    m += m >> 32
    m += m >> 16
    m += m >> 8
    return m & 0xFF


@njit(cache=True)
def tokens_needed(tiles, tile, hist, n_any, n_fl, vases):
    """Tokens a finish of ``tile`` needs with dice of the given counts (``dice_counts``), and
    the number of dice it uses: the count form of ``assign_icons`` (FS-U2, FS-U3).

    Returns
    -------
    (tokens, dice_used)
    """
    matched = lanes_min_sum(hist, tiles[tile, L.TL_NEED8])
    short = tiles[tile, L.TL_SPECIFIC] - matched
    fill = n_any if n_any < short else short
    short -= fill
    surplus = n_fl - matched - fill
    fuchsia = tiles[tile, L.TL_ANY]
    fu_dice = fuchsia if fuchsia < surplus else surplus
    vase = 1 - ((vases >> tiles[tile, L.TL_VASE]) & 1)
    return short + fuchsia - fu_dice + vase, matched + fill + fu_dice + 1 - vase
