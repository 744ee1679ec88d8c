"""Task-card conditions and task scoring for The Little Flower Shop Dice Game.

Rule source: ``shared/rules/flower_shop.md`` §2.6 (shop grid and lines), §2.8 (condition codes)
and FS-E3 (task points). Also used by the solo feasibility check (FS-SOLO-C4) and the offline
task-conflict search (§2.9).

Component array layouts (built by ``rules.load_components`` from the editable data files):

``tiles``: int64[n_tiles, TL_W]

=============== ==================================================================
column          meaning
=============== ==================================================================
0..7            specific flower icons of flower type 0..7 (unused types are 0)
TL_ANY = 8      fuchsia "any flower" icons
TL_VASE = 9     vase colour index
TL_KNICK = 10   knickknack index
TL_STARS = 11   printed stars
TL_FLOWERS = 12 total flower icons (specific + fuchsia)
TL_NEED8 = 13   derived: the specific icons packed 8 bits per flower type (type f in
                bits 8f..8f+7), for the count form of the finish rule (``tokens_needed``)
TL_SPECIFIC = 14 derived: specific flower icons in all
TL_TYPES = 15   derived: the flower types with specific icons, ascending, as 4-bit codes
                f + 1 (first type in the low bits; 0 ends the list)
=============== ==================================================================

The derived columns are filled by ``derive_tile_columns`` from columns 0..TL_ANY.

``tasks``: int64[n_cards, TK_W]: row condition, row parameter, row points, column condition,
column parameter, column points. Points of -1 mean "use the rule default".
"""
import numpy as np
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

no_refcount_module(__name__, exclude=("lines_met",))  # only lines_met allocates (sim.borrow)
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)

MAX_FLOWER_TYPES = 8
TL_ANY = 8
TL_VASE = 9
TL_KNICK = 10
TL_STARS = 11
TL_FLOWERS = 12
TL_NEED8 = 13
TL_SPECIFIC = 14
TL_TYPES = 15
TL_W = 16
MAX_ICONS_PER_TYPE = 15  # the packed form (TL_NEED8) keeps a guard bit above 4 bits per type

TK_ROW_COND = 0
TK_ROW_PARAM = 1
TK_ROW_POINTS = 2
TK_COL_COND = 3
TK_COL_PARAM = 4
TK_COL_POINTS = 5
TK_W = 6


def derive_tile_columns(tiles):
    """Fill the derived columns of ``tiles`` (TL_FLOWERS, TL_NEED8, TL_SPECIFIC, TL_TYPES) from
    the printed icons (columns 0..TL_ANY) in place, and return ``tiles``.

    Raises
    ------
    ValueError
        If a tile shows more than ``MAX_ICONS_PER_TYPE`` icons of one flower type.
    """
    specific = tiles[:, :MAX_FLOWER_TYPES]
    if specific.size and (specific.max() > MAX_ICONS_PER_TYPE or specific.min() < 0):
        raise ValueError(f"a tile shows more than {MAX_ICONS_PER_TYPE} icons of one flower type")
    tiles[:, TL_SPECIFIC] = specific.sum(axis=1)
    tiles[:, TL_FLOWERS] = tiles[:, TL_SPECIFIC] + tiles[:, TL_ANY]
    need8 = np.zeros(tiles.shape[0], dtype=np.int64)
    for f in range(MAX_FLOWER_TYPES):
        need8 |= specific[:, f] << (8 * f)
    tiles[:, TL_NEED8] = need8
    for t in range(tiles.shape[0]):
        codes = [f + 1 for f in range(MAX_FLOWER_TYPES) if specific[t, f] > 0]
        tiles[t, TL_TYPES] = sum(c << (4 * i) for i, c in enumerate(codes))
    return tiles


# Condition codes (§2.8); CONDITIONS lists their names in code order.
C_SUM_FLOWERS_EQ = 0
C_SUM_FLOWERS_GE = 1
C_SUM_FLOWERS_LE = 2
C_SUM_STARS_GE = 3
C_SAME_KNICK = 4
C_DIFF_KNICK = 5
C_SAME_VASE = 6
C_DIFF_VASE = 7
C_SAME_FLOWER_COUNT = 8
C_DIFF_FLOWER_COUNT = 9
C_SHARE_FLOWER_TYPE = 10
CONDITIONS = (
    "SUM_FLOWERS_EQ", "SUM_FLOWERS_GE", "SUM_FLOWERS_LE", "SUM_STARS_GE",
    "SAME_KNICK", "DIFF_KNICK", "SAME_VASE", "DIFF_VASE",
    "SAME_FLOWER_COUNT", "DIFF_FLOWER_COUNT", "SHARE_FLOWER_TYPE",
)
CONDITIONS_WITH_PARAM = ("SUM_FLOWERS_EQ", "SUM_FLOWERS_GE", "SUM_FLOWERS_LE", "SUM_STARS_GE")


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
    if cond == C_SUM_FLOWERS_EQ:
        return _sum(tiles, ids, n, TL_FLOWERS) == param
    if cond == C_SUM_FLOWERS_GE:
        return _sum(tiles, ids, n, TL_FLOWERS) >= param
    if cond == C_SUM_FLOWERS_LE:
        return _sum(tiles, ids, n, TL_FLOWERS) <= param
    if cond == C_SUM_STARS_GE:
        return _sum(tiles, ids, n, TL_STARS) >= param
    if cond == C_SAME_KNICK:
        return _all_equal(tiles, ids, n, TL_KNICK)
    if cond == C_DIFF_KNICK:
        return _all_different(tiles, ids, n, TL_KNICK)
    if cond == C_SAME_VASE:
        return _all_equal(tiles, ids, n, TL_VASE)
    if cond == C_DIFF_VASE:
        return _all_different(tiles, ids, n, TL_VASE)
    if cond == C_SAME_FLOWER_COUNT:
        return _all_equal(tiles, ids, n, TL_FLOWERS)
    if cond == C_DIFF_FLOWER_COUNT:
        return _all_different(tiles, ids, n, TL_FLOWERS)
    if cond == C_SHARE_FLOWER_TYPE:
        # Fuchsia icons do not count (§2.8).
        for f in range(MAX_FLOWER_TYPES):
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
            if line_meets(tasks[card, TK_ROW_COND], tasks[card, TK_ROW_PARAM], tiles, ids, n):
                rows_met += 1
        else:
            if line_meets(tasks[card, TK_COL_COND], tasks[card, TK_COL_PARAM], tiles, ids, n):
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
        rp = tasks[card, TK_ROW_POINTS]
        cp = tasks[card, TK_COL_POINTS]
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
