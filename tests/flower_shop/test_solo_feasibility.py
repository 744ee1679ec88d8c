"""Solo feasibility check FS-SOLO-C1..C6 and task conflicts (§2.9, FS-V-HELL-2).

Scenario tests TS-13, TS-14, TS-15, TS-18 (conflicting pairs) and TS-19 (easier variant,
FS-V-EASY-2) of ``shared/rules/flower_shop.md`` §11, hand-built shops, and randomized
cross-checks of the fast ``feasible`` against a plain brute-force oracle written below.
"""
from __future__ import annotations

import itertools
import math
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from sim.games.flower_shop import conflicts, solo
from sim.games.flower_shop import layout as L
from sim.games.flower_shop import tasks as T
from sim.spec import SpecError

from . import fs_data

TILES, TASKS, TILE_IDS, TASK_IDS = fs_data.default_arrays()
COMPONENTS = Path(L.__file__).resolve().parent / "components"
OFF, COMPLETE, LINES, FULL = (L.MODE_OFF, L.MODE_COMPLETE_LINES, L.MODE_LINES,
                              L.MODE_FULL)
ALL_MODES = (OFF, COMPLETE, LINES, FULL)


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def shop_of(names, finished=1):
    """Shop arrays from 6 tile names (None = empty), slots 0..5 = top row then bottom row."""
    shop = np.array([-1 if n is None else fs_data.tile_index(n) for n in names], dtype=np.int64)
    fin = np.where(shop >= 0, finished, 0).astype(np.int64)
    return shop, fin


def pool_without(*excluded):
    """Pool = every default tile except the given names / shop arrays."""
    out = set()
    for e in excluded:
        if isinstance(e, str):
            out.add(fs_data.tile_index(e))
        else:
            out.update(int(t) for t in e if t >= 0)
    return np.array([t for t in range(len(TILES)) if t not in out], dtype=np.int64)


def pool_of(*names):
    return np.array([fs_data.tile_index(n) for n in names], dtype=np.int64)


def cards_of(*names):
    return np.array([fs_data.card_index(n) for n in names], dtype=np.int64)


def run(shop, fin, pool, cards, mode=LINES, win_any=False, capacity=False, days_left=None,
        n_dice=5, tokens=0, money=5, max_salary=3, token_cost=3, rows=2, cols=3,
        tasks=TASKS, tiles=TILES):
    if days_left is None:
        days_left = int((shop < 0).sum())
    return bool(solo.feasible(shop, fin, rows, cols, pool, len(pool), cards, len(cards),
                              win_any, mode, capacity, days_left, n_dice, tokens, money,
                              max_salary, token_cost, tasks, tiles))


# ---------------------------------------------------------------------------------------------
# brute-force oracle, written plainly from the rules text (independent of solo.py / tasks.py)
# ---------------------------------------------------------------------------------------------
def o_meets(cond, param, ts, tiles):
    """§2.8 condition on the multiset of tiles ``ts`` of one line."""
    if not ts:
        return False
    flowers = [int(tiles[t, L.TL_FLOWERS]) for t in ts]
    stars = [int(tiles[t, L.TL_STARS]) for t in ts]
    knick = [int(tiles[t, L.TL_KNICK]) for t in ts]
    vase = [int(tiles[t, L.TL_VASE]) for t in ts]
    name = L.CONDITIONS[cond]
    if name == "SUM_FLOWERS_EQ":
        return sum(flowers) == param
    if name == "SUM_FLOWERS_GE":
        return sum(flowers) >= param
    if name == "SUM_FLOWERS_LE":
        return sum(flowers) <= param
    if name == "SUM_STARS_GE":
        return sum(stars) >= param
    if name == "SAME_KNICK":
        return len(set(knick)) == 1
    if name == "DIFF_KNICK":
        return len(set(knick)) == len(knick)
    if name == "SAME_VASE":
        return len(set(vase)) == 1
    if name == "DIFF_VASE":
        return len(set(vase)) == len(vase)
    if name == "SAME_FLOWER_COUNT":
        return len(set(flowers)) == 1
    if name == "DIFF_FLOWER_COUNT":
        return len(set(flowers)) == len(flowers)
    if name == "SHARE_FLOWER_TYPE":
        return any(all(tiles[t, f] >= 1 for t in ts) for f in range(L.MAX_FLOWER_TYPES))
    raise AssertionError(name)


def o_lines(rows, cols):
    """Slots of every line: rows first, then columns (§2.6)."""
    out = [("row", [r * cols + c for c in range(cols)]) for r in range(rows)]
    out += [("col", [r * cols + c for r in range(rows)]) for c in range(cols)]
    return out


def o_line_ok(kind, ts, group, tasks, tiles):
    for card in group:
        cc, pc = ((L.TK_ROW_COND, L.TK_ROW_PARAM) if kind == "row"
                  else (L.TK_COL_COND, L.TK_COL_PARAM))
        if not o_meets(int(tasks[card, cc]), int(tasks[card, pc]), ts, tiles):
            return False
    return True


def o_c4(shop, rows, cols, pool, group, mode, tasks, tiles):
    lines = o_lines(rows, cols)
    if mode == COMPLETE:
        return all(o_line_ok(kind, [shop[s] for s in slots], group, tasks, tiles)
                   for kind, slots in lines if all(shop[s] >= 0 for s in slots))
    if mode == LINES:
        for kind, slots in lines:
            placed = [shop[s] for s in slots if shop[s] >= 0]
            k = len(slots) - len(placed)
            if not any(o_line_ok(kind, placed + list(c), group, tasks, tiles)
                       for c in itertools.combinations(pool, k)):
                return False
        return True
    assert mode == FULL
    empty = [s for s in range(rows * cols) if shop[s] < 0]
    for perm in itertools.permutations(pool, len(empty)):
        g = list(shop)
        for s, t in zip(empty, perm):
            g[s] = t
        if all(o_line_ok(kind, [g[s] for s in slots], group, tasks, tiles)
               for kind, slots in lines):
            return True
    return False


def oracle(shop, fin, rows, cols, pool, cards, win_any, mode, capacity, days_left, n_dice,
           tokens, money, max_salary, token_cost, tasks, tiles):
    """FS-SOLO-C3, C5, C4 and C6 by brute force."""
    shop = [int(t) for t in shop]
    pool = [int(t) for t in pool]
    empty = [s for s, t in enumerate(shop) if t < 0]
    if len(empty) > days_left or len(pool) < len(empty):  # C3
        return False
    if capacity and token_cost > 0:  # C5
        need = sum(int(tiles[t, L.TL_FLOWERS]) + 1 for s, t in enumerate(shop)
                   if t >= 0 and fin[s] == 0)
        if empty:
            need += len(empty) * min(int(tiles[t, L.TL_FLOWERS]) + 1 for t in pool)
        cap = days_left * n_dice + tokens + (money + days_left * max_salary) // token_cost
        if need > cap:
            return False
    if mode == OFF or len(cards) == 0:
        return True
    groups = [[int(c)] for c in cards] if win_any else [[int(c) for c in cards]]
    return any(o_c4(shop, rows, cols, pool, g, mode, tasks, tiles) for g in groups)


# ---------------------------------------------------------------------------------------------
# §11 scenario tests
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("finished", [0, 1])
def test_TS13_complete_line_loss_in_every_mode_but_off(mode, finished):
    """TS-13 / FS-SOLO-C4: T1, end of day 3, top row T28 T29 T01 = 13 flowers -> LOSS."""
    shop, fin = shop_of(["T28", "T29", "T01", None, None, None], finished)
    pool = pool_without(shop, "T05", "T06", "T07", "T08")  # some tiles left the stack
    # Capacity off: the case is about the line check ("finished or not").
    assert run(shop, fin, pool, cards_of("T1"), mode, days_left=3) == (mode == OFF)


@pytest.mark.parametrize("mode,expect", [(COMPLETE, True), (LINES, False), (FULL, False),
                                         (OFF, True)])
def test_TS14_partial_line_loss_in_lines_and_full(mode, expect):
    """TS-14 / FS-SOLO-C4: T1, day 2, top row T28 T29 + 1 empty; pool min 2 -> 12 != 10."""
    shop, fin = shop_of(["T28", "T29", None, None, None, None])
    pool = pool_without(shop)
    assert TILES[pool, L.TL_FLOWERS].min() == 2
    assert run(shop, fin, pool, cards_of("T1"), mode, capacity=True, days_left=4) == expect


@pytest.mark.parametrize("mode", ALL_MODES)
def test_TS15_capacity_loss_need_21_cap_9(mode):
    """TS-15 / FS-SOLO-C5: R = 1, T28 T29 T30 unfinished + 2 finished + 1 empty; tokens 2, $4."""
    shop = np.array([fs_data.tile_index(n) for n in ("T28", "T29", "T30", "T01", "T19")]
                    + [-1], dtype=np.int64)
    fin = np.array([0, 0, 0, 1, 1, 0], dtype=np.int64)
    pool = pool_without(shop)
    # need = 6 + 6 + 6 + 3 = 21 > cap = 1*5 + 2 + (4 + 1*3) // 3 = 9
    assert not run(shop, fin, pool, cards_of("T4"), mode, capacity=True, days_left=1,
                   n_dice=5, tokens=2, money=4, max_salary=3, token_cost=3)
    # Same shop without the capacity check: the lines of T4 can still be met in every mode
    # (rows 21 and 11 + 5 stars; columns share lily, lily, iris/hydrangea).
    assert run(shop, fin, pool, cards_of("T4"), mode, capacity=False, days_left=1)


def test_FS_SOLO_C5_capacity_boundary_need_equal_cap_passes():
    """FS-SOLO-C5: fail only if need > cap; need == cap passes (optimistic bound)."""
    shop = np.array([fs_data.tile_index(n) for n in ("T28", "T29", "T30", "T01", "T19")]
                    + [-1], dtype=np.int64)
    fin = np.array([0, 0, 0, 1, 1, 0], dtype=np.int64)
    pool = pool_without(shop)
    kw = dict(mode=OFF, capacity=True, days_left=1, n_dice=5, money=4, max_salary=3,
              token_cost=3)
    assert run(shop, fin, pool, cards_of("T4"), tokens=14, **kw)  # cap 21 = need
    assert not run(shop, fin, pool, cards_of("T4"), tokens=13, **kw)  # cap 20 < 21
    # Finished tiles need nothing: all finished -> need = 3 only.
    assert run(shop, np.where(shop >= 0, 1, 0), pool, cards_of("T4"), tokens=0, **kw)
    # min over the pool: a pool of 5-flower tiles makes the empty slot cost 6.
    p5 = np.array([t for t in pool if TILES[t, L.TL_FLOWERS] == 5], dtype=np.int64)
    assert len(p5) > 0
    fin_all = np.where(shop >= 0, 1, 0).astype(np.int64)
    kw0 = dict(kw, money=0, max_salary=0)
    assert run(shop, fin_all, p5, cards_of("T4"), tokens=0, **dict(kw0, n_dice=6))
    assert not run(shop, fin_all, p5, cards_of("T4"), tokens=0, **dict(kw0, n_dice=5))


@pytest.mark.parametrize("mode", ALL_MODES)
def test_TS19_easy_variant_feasible_only_via_any(mode):
    """TS-19 / FS-V-EASY-2 / FS-SOLO-C6: cards {T1, T2}; T1 is dead (top row 9 flowers)."""
    shop, fin = shop_of(["T01", "T02", "T03", None, None, None])
    pool = pool_without(shop)
    cards = cards_of("T1", "T2")
    assert run(shop, fin, pool, cards, mode, win_any=True)          # rule any: T2 alone
    assert run(shop, fin, pool, cards, mode, win_any=False) == (mode == OFF)  # rule all
    assert run(shop, fin, pool, cards_of("T2"), mode)
    assert run(shop, fin, pool, cards_of("T1"), mode) == (mode == OFF)


def test_FS_SOLO_C6_all_requires_each_line_to_meet_both_cards():
    """FS-SOLO-C6 / FS-V-HELL-3: win rule all; T2 + T6 columns need same and different vases."""
    shop, fin = shop_of([None] * 6)
    pool = pool_without()
    for mode in (LINES, FULL):
        assert run(shop, fin, pool, cards_of("T2", "T6"), mode, days_left=6) is False
        assert run(shop, fin, pool, cards_of("T2", "T6"), mode, win_any=True, days_left=6)
        assert run(shop, fin, pool, cards_of("T1", "T4"), mode, days_left=6)


# ---------------------------------------------------------------------------------------------
# hand-built shops
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ALL_MODES)
def test_FS_SOLO_C4_hand_built_feasible_shop(mode):
    """T1 mid-game: T01 (cup, 3) and T02 (painting, 3) on top, a 4-flower tile still needed."""
    shop, fin = shop_of(["T01", "T02", None, None, None, None], finished=0)
    pool = pool_without(shop, "T19")
    assert run(shop, fin, pool, cards_of("T1"), mode, capacity=True, days_left=4)


@pytest.mark.parametrize("mode", [COMPLETE, LINES, FULL])
def test_FS_SOLO_C4_infeasible_by_line_condition(mode):
    """T2: column T01 (yellow) over T02 (blue) can never meet SAME_VASE."""
    shop, fin = shop_of(["T01", None, None, "T02", None, None])
    pool = pool_without(shop)
    assert not run(shop, fin, pool, cards_of("T2"), mode)
    assert run(shop, fin, pool, cards_of("T2"), OFF)


def test_FS_SOLO_C4_partial_line_hereditary_conditions():
    """A partial row with two yellow vases already fails DIFF_VASE (T2) in lines and full."""
    shop, fin = shop_of(["T01", "T07", None, None, None, None])
    pool = pool_without(shop)
    assert not run(shop, fin, pool, cards_of("T2"), LINES)
    assert not run(shop, fin, pool, cards_of("T2"), FULL)
    assert run(shop, fin, pool, cards_of("T2"), COMPLETE)


def test_FS_SOLO_C4_full_stricter_than_lines():
    """Each line can be completed alone, but not all at once with distinct pool tiles.

    T1; top row T01 T02 T19 = 10 flowers; bottom row _, _, T32 (5 flowers, painting).
    Columns need a cup under T01 and a painting under T02; the bottom row needs 5 more flowers.
    Pool {T13 cup 2, T10 cup 3, T25 painting 4}: the row alone works with T13 + T10 (two cups),
    the columns alone work, but cup + painting gives 6 or 7, never 5.
    """
    shop, fin = shop_of(["T01", "T02", "T19", None, None, "T32"])
    pool = pool_of("T13", "T10", "T25")
    assert run(shop, fin, pool, cards_of("T1"), LINES)
    assert run(shop, fin, pool, cards_of("T1"), COMPLETE)
    assert not run(shop, fin, pool, cards_of("T1"), FULL)
    # With a 2-flower painting (T16) in the pool, T10 (cup 3) + T16 (painting 2) = 5 works.
    assert run(shop, fin, pool_of("T13", "T10", "T25", "T16"), cards_of("T1"), FULL)


def test_FS_SOLO_C4_empty_line_checked_from_pool_alone():
    """A line with no placed tile must be completable from the pool (lines and full).

    T1; top row T01 T02 T19 (10 flowers, cup / painting / painting); bottom row empty.
    Pool {T13 cup 2, T16 painting 2, T17 painting 2, T28 plush 5}: no 3 tiles sum to 10.
    """
    shop, fin = shop_of(["T01", "T02", "T19", None, None, None])
    pool = pool_of("T13", "T16", "T17", "T28")
    assert not run(shop, fin, pool, cards_of("T1"), LINES)
    assert not run(shop, fin, pool, cards_of("T1"), FULL)
    assert run(shop, fin, pool, cards_of("T1"), COMPLETE)  # not checked there
    # Add T10 (cup, 3): T10 + T16 + T28 = 10, so every line alone can be completed.
    pool2 = pool_of("T13", "T16", "T17", "T28", "T10")
    assert run(shop, fin, pool2, cards_of("T1"), LINES)
    # Full also needs same knickknacks per column: col 2 needs a painting under T19, but the
    # only 10-sums are T10 + T16 + T28 (cup, painting, plush) -> the plush must go under a
    # painting or cup: infeasible.
    assert not run(shop, fin, pool2, cards_of("T1"), FULL)


def test_FS_SOLO_C2_placed_tiles_count_as_finished_for_lines():
    """FS-SOLO-C2: unfinished placed tiles count as finished in the line check (C5 aside)."""
    shop, fin0 = shop_of(["T01", "T02", "T19", None, None, None], finished=0)
    _, fin1 = shop_of(["T01", "T02", "T19", None, None, None], finished=1)
    pool = pool_without(shop)
    for mode in (COMPLETE, LINES, FULL):
        assert run(shop, fin0, pool, cards_of("T1"), mode)
        assert run(shop, fin1, pool, cards_of("T1"), mode)


def test_FS_SOLO_C2_pool_is_what_is_passed():
    """FS-SOLO-C2: only the draw stack counts; removing the needed tiles from the pool kills T1.

    T01 + T02 on top need exactly one 4-flower tile in the row.
    """
    shop, fin = shop_of(["T01", "T02", None, None, None, None])
    pool = pool_without(shop)
    no4 = np.array([t for t in pool if TILES[t, L.TL_FLOWERS] != 4], dtype=np.int64)
    assert run(shop, fin, pool, cards_of("T1"), LINES)
    assert not run(shop, fin, no4, cards_of("T1"), LINES)


def test_FS_SOLO_C3_structural_failures():
    """FS-SOLO-C3: |E| > R, or |P| < |E| (AMB-21: no tile taken / stack exhausted)."""
    shop, fin = shop_of(["T01", "T02", "T19", None, None, None])
    pool = pool_without(shop)
    for mode in ALL_MODES:
        assert run(shop, fin, pool, cards_of("T4"), mode, days_left=3)
        # AMB-21: a day without a tile leaves 3 empty slots for 2 remaining days.
        assert not run(shop, fin, pool, cards_of("T4"), mode, days_left=2)
        assert not run(shop, fin, pool[:2], cards_of("T4"), mode, days_left=3)
        assert run(shop, fin, pool[:3], cards_of("T4"), OFF, days_left=3)


def test_FS_SOLO_C1_day_by_day_game_with_the_check():
    """FS-SOLO-C1: a scripted T1 game stays feasible each day and ends fully satisfied."""
    # TS-05 top row (10 flowers; cup, painting, painting) over T21 (cup 4), T17 (painting 2),
    # T25 (painting 4) = 10 flowers.
    final = ["T01", "T02", "T19", "T21", "T17", "T25"]
    shop = np.full(6, -1, dtype=np.int64)
    fin = np.zeros(6, dtype=np.int64)
    pool = pool_without(*final)
    pool = np.concatenate([pool, pool_of(*final)])
    for day, name in enumerate(final, start=1):
        t = fs_data.tile_index(name)
        shop[final.index(name)] = t
        fin[final.index(name)] = 1
        pool = pool[pool != t]
        if day < 6:
            assert run(shop, fin, pool, cards_of("T1"), FULL, capacity=True, days_left=6 - day)
    assert T.card_fully_satisfied(shop, fin, 2, 3, fs_data.card_index("T1"), TASKS, TILES)


# ---------------------------------------------------------------------------------------------
# §2.9 conflicts
# ---------------------------------------------------------------------------------------------
def brute_conflicts(tasks, tiles):
    """Independent exhaustive check of §2.9 on a 2 x 3 shop, vectorised with numpy.

    A card set is satisfiable iff two disjoint row triples meet the row conditions and the
    second row can be permuted so each column pair meets the column conditions.
    """
    n = len(tiles)
    triples = np.array(list(itertools.combinations(range(n), 3)), dtype=np.int64)
    masks = (np.int64(1) << triples).sum(axis=1)
    perms = list(itertools.permutations(range(3)))

    def satisfiable(group):
        rows_ok = np.array([all(o_meets(int(tasks[c, L.TK_ROW_COND]), int(tasks[c, L.TK_ROW_PARAM]),
                                        list(tr), tiles) for c in group) for tr in triples])
        R, M = triples[rows_ok], masks[rows_ok]
        colc = np.array([[x != y and all(o_meets(int(tasks[c, L.TK_COL_COND]),
                                                 int(tasks[c, L.TK_COL_PARAM]), [x, y], tiles)
                                         for c in group) for y in range(n)] for x in range(n)])
        for lo in range(0, len(R), 256):
            r0, m0 = R[lo:lo + 256], M[lo:lo + 256]
            disjoint = (m0[:, None] & M[None, :]) == 0
            for p in perms:
                ok = disjoint.copy()
                for i in range(3):
                    ok &= colc[r0[:, None, i], R[None, :, p[i]]]
                if ok.any():
                    return True
        return False

    k = len(tasks)
    out = np.zeros((k, k), dtype=np.int64)
    for a in range(k):
        for b in range(a, k):
            out[a, b] = out[b, a] = 0 if satisfiable([a] if a == b else [a, b]) else 1
    return out


def test_FS_V_HELL_2_conflict_matrix_is_the_four_default_pairs():
    """§2.9 / FS-V-HELL-2 / AMB-24 / TS-18: {T1,T3}, {T1,T5}, {T2,T6}, {T5,T6}; no self-conflict."""
    m = solo.conflict_matrix(TASKS, TILES, 2, 3)
    pairs = {(a, b) for a in range(6) for b in range(a, 6) if m[a, b]}
    assert pairs == fs_data.DEFAULT_CONFLICT_PAIRS
    assert (m == m.T).all()
    # TS-18: after T2 and a redraw, each of T1, T3, T4, T5 is compatible with T2.
    t2 = fs_data.card_index("T2")
    assert [m[t2, fs_data.card_index(c)] for c in ("T1", "T3", "T4", "T5", "T6")] == [0, 0, 0, 0, 1]


def test_FS_V_HELL_2_conflict_matrix_matches_brute_force():
    """§2.9: the pruned search equals an independent exhaustive check on the default data."""
    assert (solo.conflict_matrix(TASKS, TILES, 2, 3) == brute_conflicts(TASKS, TILES)).all()


@pytest.mark.parametrize("seed,n", [(0, 14), (4, 12), (2, 16)])
def test_conflict_matrix_on_modified_tiles_matches_brute_force(seed, n):
    """§2.9 'whenever tile data changes': random tile subsets, every card + pair vs brute force."""
    rng = np.random.default_rng(seed)
    tiles = TILES[rng.choice(len(TILES), n, replace=False)].copy()
    tiles[:, L.TL_VASE] = rng.integers(0, 3, len(tiles))  # fewer colours: DIFF_VASE harder
    m = solo.conflict_matrix(TASKS, tiles, 2, 3)
    assert (m == brute_conflicts(TASKS, tiles)).all()
    assert m.sum() > 8  # the data change does create new conflicts


def test_conflict_matrix_unsatisfiable_single_card_on_diagonal():
    """A card that cannot be met alone conflicts with itself and with every card."""
    tiles = TILES.copy()
    tiles[:, L.TL_VASE] = 0  # every vase yellow: T2 / T6 DIFF_VASE impossible
    m = solo.conflict_matrix(TASKS, tiles, 2, 3)
    for c in ("T2", "T6"):
        i = fs_data.card_index(c)
        assert m[i, i] == 1 and m[i].sum() == 6
    assert m[fs_data.card_index("T1"), fs_data.card_index("T1")] == 0


def test_conflict_matrix_speed():
    """§2.9 search on the default data is cheap enough to run at component-load time."""
    import time
    solo.conflict_matrix(TASKS, TILES, 2, 3)
    t0 = time.perf_counter()
    solo.conflict_matrix(TASKS, TILES, 2, 3)
    assert time.perf_counter() - t0 < 2.0


# ---------------------------------------------------------------------------------------------
# task_conflicts.csv: load, validate, regenerate
# ---------------------------------------------------------------------------------------------
def write_component_copy(tmp_path, with_conflicts=True, tiles_text=fs_data.TILES_CSV):
    (tmp_path / "tiles.csv").write_text(tiles_text)
    (tmp_path / "tasks.csv").write_text(fs_data.TASKS_CSV)
    if with_conflicts:
        shutil.copy(COMPONENTS / "task_conflicts.csv", tmp_path / "task_conflicts.csv")
    return tmp_path


def test_FS_V_HELL_2_shipped_task_conflicts_csv_is_current():
    """components/task_conflicts.csv = the 4 default pairs, provenance D, reasons from §2.9."""
    m = conflicts.load_conflicts(COMPONENTS, TASK_IDS, TASKS, TILES, 2, 3, strict=True)
    assert {(a, b) for a in range(6) for b in range(a, 6) if m[a, b]} == \
        fs_data.DEFAULT_CONFLICT_PAIRS
    pairs, reasons = conflicts.read_conflicts_csv(COMPONENTS / "task_conflicts.csv", TASK_IDS)
    assert pairs == fs_data.DEFAULT_CONFLICT_PAIRS
    assert all(reasons[p] for p in pairs)
    text = (COMPONENTS / "task_conflicts.csv").read_text()
    assert text.splitlines()[0] == "task_a,task_b,reason,provenance"
    assert all(line.endswith(",D") for line in text.splitlines()[1:])


def test_load_conflicts_missing_file_is_computed(tmp_path):
    m = conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, TILES)
    assert {(a, b) for a in range(6) for b in range(a, 6) if m[a, b]} == \
        fs_data.DEFAULT_CONFLICT_PAIRS


def test_load_conflicts_stale_after_tile_swap(tmp_path):
    """Designer swaps tiles.csv: the old CSV is stale -> warning + computed matrix (or error)."""
    write_component_copy(tmp_path)
    tiles = TILES.copy()
    tiles[:, L.TL_VASE] = 0
    with pytest.warns(conflicts.StaleConflictsWarning, match="stale"):
        m = conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, tiles)
    assert (m == solo.conflict_matrix(TASKS, tiles, 2, 3)).all()
    with pytest.raises(SpecError, match=r"stale.*python -m sim\.games\.flower_shop\.conflicts"):
        conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, tiles, strict=True)


def test_load_conflicts_stale_hand_edit(tmp_path):
    p = write_component_copy(tmp_path) / "task_conflicts.csv"
    lines = p.read_text().splitlines()
    p.write_text("\n".join(lines[:-1]) + "\n")  # drop {T5, T6}
    with pytest.raises(SpecError, match=r"conflicting but not listed: \{T5, T6\}"):
        conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, TILES, strict=True)


@pytest.mark.parametrize("body,match", [
    ("task_a,task_b,reason,provenance\nT1,T9,x,D\n", r"row 2, column task_b: unknown task card 'T9'"),
    ("task_a,task_b,reason,provenance\nT1,T3,x,D\nX,T3,x,D\n", r"row 3, column task_a"),
    ("task_a,task_b,reason,provenance\nT1,T3,x,Q\n", r"row 2, column provenance"),
    ("task_a,task_b,reason,provenance\nT1,T3,x,D\nT3,T1,y,D\n", r"row 3.*listed twice"),
    ("task_a,reason,provenance\nT1,x,D\n", r"row 1: missing column 'task_b'"),
    ("task_a,task_b,reason,provenance\nT1,T3,D\n", r"row 2: 3 cells"),
])
def test_load_conflicts_malformed_file_names_file_row_column(tmp_path, body, match):
    (tmp_path / "task_conflicts.csv").write_text(body)
    with pytest.raises(SpecError, match="task_conflicts.csv") as e:
        conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, TILES)
    assert e.match(match)


def test_write_conflicts_round_trips_the_shipped_file(tmp_path):
    write_component_copy(tmp_path)
    conflicts.write_conflicts(tmp_path)
    assert (tmp_path / "task_conflicts.csv").read_text() == \
        (COMPONENTS / "task_conflicts.csv").read_text()


def test_write_conflicts_cli_entry_point(tmp_path, capsys):
    """``python -m sim.games.flower_shop.conflicts DIR`` (conflicts.main): writes the file; exit 2 on error."""
    write_component_copy(tmp_path, with_conflicts=False)
    assert conflicts.main([str(tmp_path)]) == 0
    pairs, _ = conflicts.read_conflicts_csv(tmp_path / "task_conflicts.csv", TASK_IDS)
    assert pairs == fs_data.DEFAULT_CONFLICT_PAIRS
    assert conflicts.main([str(tmp_path / "missing")]) == 2
    assert "tiles.csv" in capsys.readouterr().err


def _no_search(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the exhaustive search ran")
    monkeypatch.setattr(conflicts, "computed_conflicts", refuse)


def test_verified_conflicts_file_is_trusted_without_the_search(tmp_path, monkeypatch):
    """write_conflicts records what it checked (task_conflicts.verified); while the data and the
    file still match it, loading needs no search (a multiplayer run never compiles the solver).
    The shipped file is verified against the shipped data."""
    write_component_copy(tmp_path, with_conflicts=False)
    conflicts.write_conflicts(tmp_path)
    assert (tmp_path / conflicts.VERIFIED).is_file()
    expected = solo.conflict_matrix(TASKS, TILES, 2, 3)
    _no_search(monkeypatch)
    assert (conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, TILES, strict=True) == expected).all()
    assert (conflicts.load_conflicts(COMPONENTS, TASK_IDS, TASKS, TILES, strict=True) == expected).all()
    tasks = TASKS.copy()
    tasks[:, L.TK_ROW_POINTS] = 7       # points play no part in the search: still verified
    assert (conflicts.load_conflicts(tmp_path, TASK_IDS, tasks, TILES, strict=True) == expected).all()


@pytest.mark.parametrize("change", ["tiles", "hand_edit", "garbled_digest"])
def test_a_change_since_verification_runs_the_search_again(tmp_path, change):
    write_component_copy(tmp_path, with_conflicts=False)
    conflicts.write_conflicts(tmp_path)
    tiles = TILES.copy()
    if change == "tiles":
        tiles[:, L.TL_VASE] = 0
    elif change == "hand_edit":
        p = tmp_path / "task_conflicts.csv"
        p.write_text("\n".join(p.read_text().splitlines()[:-1]) + "\n")   # drop {T5, T6}
    else:
        (tmp_path / conflicts.VERIFIED).write_bytes(b"\xff\xfe")
    if change == "garbled_digest":
        m = conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, tiles, strict=True)
    else:
        with pytest.warns(conflicts.StaleConflictsWarning, match="stale"):
            m = conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, tiles)
    assert (m == solo.conflict_matrix(TASKS, tiles, 2, 3)).all()


def test_write_conflicts_after_tile_change(tmp_path):
    """Regenerating from swapped tiles makes the file current again (new reasons generated)."""
    text = fs_data.TILES_CSV
    for v in ("blue", "green", "pink", "white", "purple"):
        text = text.replace(f",{v},", ",yellow,")
    write_component_copy(tmp_path, tiles_text=text)
    conflicts.write_conflicts(tmp_path)
    tiles, _ = fs_data.parse_tiles(text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = conflicts.load_conflicts(tmp_path, TASK_IDS, TASKS, tiles, strict=True)
    assert m[1, 1] == 1 and m[5, 5] == 1
    body = (tmp_path / "task_conflicts.csv").read_text()
    assert "T2,T2,No arrangement of 6 distinct tiles satisfies this card alone" in body
    assert "T1,T3,Rows need 2 × 10 = 20 flowers; columns need 3 × 7 = 21.,D" in body


# ---------------------------------------------------------------------------------------------
# randomized cross-checks against the brute-force oracle
# ---------------------------------------------------------------------------------------------
def random_tiles(rng, n):
    tiles = np.zeros((n, L.TL_W), dtype=np.int64)
    big = rng.random() < 0.2  # attribute values outside the fast-path range
    for i in range(n):
        nf = rng.integers(1, 4)
        for f in rng.choice(6, size=nf, replace=False):
            tiles[i, f] = rng.integers(1, 3)
        tiles[i, L.TL_ANY] = rng.integers(0, 2)
        tiles[i, L.TL_VASE] = rng.integers(0, 4) * (40 if big else 1)
        tiles[i, L.TL_KNICK] = rng.integers(0, 3) * (35 if big else 1)
        tiles[i, L.TL_STARS] = rng.integers(2, 7)
        tiles[i, L.TL_FLOWERS] = tiles[i, :6].sum() + tiles[i, L.TL_ANY]
        if big and rng.random() < 0.3:
            tiles[i, L.TL_FLOWERS] += 30  # sums beyond the bitset DP
    return tiles


def random_tasks(rng, tiles, rows, cols, n):
    tasks = np.zeros((n, L.TK_W), dtype=np.int64)
    for c in range(n):
        for cc, pc, length in ((L.TK_ROW_COND, L.TK_ROW_PARAM, cols),
                               (L.TK_COL_COND, L.TK_COL_PARAM, rows)):
            cond = int(rng.integers(0, len(L.CONDITIONS)))
            col = L.TL_STARS if L.CONDITIONS[cond] == "SUM_STARS_GE" else L.TL_FLOWERS
            sample = tiles[rng.choice(len(tiles), size=length, replace=False), col].sum()
            tasks[c, cc] = cond
            tasks[c, pc] = sample + int(rng.integers(-2, 3))
    tasks[:, L.TK_ROW_POINTS] = -1
    tasks[:, L.TK_COL_POINTS] = -1
    return tasks


def random_grid_shape(rng):
    if rng.random() < 0.6:
        return 2, 3
    while True:
        rows, cols = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        if rows * cols <= 8:
            return rows, cols


def planted_tasks(rng, tiles, grid, rows, cols, n):
    """Random cards whose conditions a given full grid meets (params sometimes nudged by 1)."""
    tasks = np.full((n, L.TK_W), -1, dtype=np.int64)
    lines = o_lines(rows, cols)
    for c in range(n):
        for kind, cc, pc in (("row", L.TK_ROW_COND, L.TK_ROW_PARAM),
                             ("col", L.TK_COL_COND, L.TK_COL_PARAM)):
            sets = [[int(grid[s]) for s in slots] for k, slots in lines if k == kind]
            for _ in range(30):
                cond = int(rng.integers(0, len(L.CONDITIONS)))
                name = L.CONDITIONS[cond]
                col = L.TL_STARS if name == "SUM_STARS_GE" else L.TL_FLOWERS
                sums = [int(tiles[ts, col].sum()) for ts in sets]
                param = {"SUM_FLOWERS_GE": min(sums), "SUM_STARS_GE": min(sums),
                         "SUM_FLOWERS_LE": max(sums)}.get(name, sums[0])
                if all(o_meets(cond, param, ts, tiles) for ts in sets):
                    break
            if rng.random() < 0.25:
                param += int(rng.choice([-1, 1]))
            tasks[c, cc], tasks[c, pc] = cond, param
    return tasks


def random_instance(rng):
    """A random solo end-of-day situation; half of them planted around a satisfying grid."""
    rows, cols = random_grid_shape(rng)
    n_slots = rows * cols
    planted = rng.random() < 0.5
    if not planted and rng.random() < 0.5 and (rows, cols) == (2, 3):
        tiles, tasks = TILES, TASKS
    else:
        tiles = TILES if rng.random() < 0.3 else random_tiles(rng, int(rng.integers(10, 21)))
        tasks = None
    deck = rng.permutation(len(tiles)).astype(np.int64)
    n_empty = int(rng.integers(0, min(n_slots, 4) + 1))
    empty = rng.choice(n_slots, size=n_empty, replace=False)
    if planted:
        grid = deck[:n_slots].copy()
        tasks = planted_tasks(rng, tiles, grid, rows, cols, 4)
        shop = grid.copy()
        shop[empty] = -1
        removed = [int(t) for t in grid[empty] if rng.random() < 0.85]
        others = list(deck[n_slots:n_slots + int(rng.integers(0, 8))])
        pool = np.array(removed + others, dtype=np.int64)
        rng.shuffle(pool)
    else:
        if tasks is None:
            tasks = random_tasks(rng, tiles, rows, cols, 4)
        shop = np.full(n_slots, -1, dtype=np.int64)
        filled = np.setdiff1d(np.arange(n_slots), empty)
        shop[filled] = deck[:len(filled)]
        rest = deck[len(filled):]
        pool = rest[:int(min(len(rest), max(0, n_empty + rng.integers(-1, 9))))].copy()
    while len(pool) > n_empty and math.perm(len(pool), n_empty) > 3000:  # keep the oracle fast
        pool = pool[:-1]
    fin = np.where(shop >= 0, rng.integers(0, 2, n_slots), 0).astype(np.int64)
    n_cards = int(rng.integers(1, 3))
    cards = rng.choice(len(tasks), size=n_cards, replace=False).astype(np.int64)
    days_left = n_empty + int(rng.random() < 0.1) - int(rng.random() < 0.05)
    return dict(shop=shop, fin=fin, rows=rows, cols=cols, pool=pool, cards=cards,
                win_any=bool(rng.random() < 0.3), capacity=bool(rng.random() < 0.3),
                days_left=days_left, n_dice=int(rng.integers(3, 7)),
                tokens=int(rng.integers(0, 6)), money=int(rng.integers(0, 12)), max_salary=3,
                token_cost=3, tiles=tiles, tasks=tasks)


@pytest.mark.parametrize("mode", [COMPLETE, LINES, FULL])
def test_FS_SOLO_C4_random_shops_match_brute_force(mode):
    """FS-SOLO-C3..C6: fast feasible == brute force on random shops, pools, cards (seeded);
    the game loop's form (feasible_in on one reused, never cleared scratch of WORK_MAX, which
    fits the largest legal grid, pool and card count) answers the same."""
    assert L.WORK_MAX == solo.work_len(L.MAX_SLOTS, 1, L.MAX_TILES, 2)
    work = np.full(L.WORK_MAX, -7, dtype=np.int64)
    rng = np.random.default_rng(20240 + mode)
    results = []
    for _ in range(600):
        x = random_instance(rng)
        args = (x["shop"], x["fin"], x["rows"], x["cols"], x["pool"], len(x["pool"]),
                x["cards"], len(x["cards"]), x["win_any"], mode, x["capacity"], x["days_left"],
                x["n_dice"], x["tokens"], x["money"], x["max_salary"], x["token_cost"],
                x["tasks"], x["tiles"])
        got = bool(solo.feasible(*args))
        in_game = bool(solo.feasible_in(*args, work))
        want = oracle(x["shop"], x["fin"], x["rows"], x["cols"], x["pool"], x["cards"],
                      x["win_any"], mode, x["capacity"], x["days_left"], x["n_dice"],
                      x["tokens"], x["money"], x["max_salary"], x["token_cost"], x["tasks"],
                      x["tiles"])
        assert got == want == in_game, x
        results.append(want)
    assert 150 < sum(results) < 450  # both outcomes well represented


def test_FS_SOLO_C4_full_and_lines_differ_somewhere_on_random_shops():
    """`full` is never looser than `lines`, and strictly stricter on some random shops."""
    rng = np.random.default_rng(99)
    stricter = 0
    for _ in range(300):
        x = random_instance(rng)
        def args(mode, x=x):
            return (x["shop"], x["fin"], x["rows"], x["cols"], x["pool"], len(x["pool"]),
                    x["cards"], len(x["cards"]), x["win_any"], mode, False, x["days_left"], 5,
                    0, 0, 3, 3, x["tasks"], x["tiles"])
        lines, full = solo.feasible(*args(LINES)), solo.feasible(*args(FULL))
        assert not (full and not lines)
        stricter += bool(lines and not full)
    assert stricter > 0


def _random_line(rng):
    tiles = TILES if rng.random() < 0.5 else random_tiles(rng, 16)
    length = int(rng.integers(1, 5))
    perm = rng.permutation(len(tiles))
    n_p = int(rng.integers(0, length + 1))
    ids = np.zeros(length, dtype=np.int64)
    ids[:n_p] = perm[:n_p]
    pool = perm[n_p:n_p + int(rng.integers(0, 12))].astype(np.int64)
    cond = int(rng.integers(0, len(L.CONDITIONS)))
    col = L.TL_STARS if L.CONDITIONS[cond] == "SUM_STARS_GE" else L.TL_FLOWERS
    param = int(tiles[perm[:length], col].sum() + rng.integers(-3, 4))
    return tiles, ids, n_p, length - n_p, pool, cond, param


def test_FS_SOLO_C4_single_line_fast_path_and_class_search_match_brute_force():
    """Per-condition closed forms (sum DP, counts, masks) == class search == combinations."""
    rng = np.random.default_rng(5)
    buf = np.zeros(8, dtype=np.int64)
    seen = set()
    for _ in range(3000):
        tiles, ids, n_p, k, pool, cond, param = _random_line(rng)
        want = any(o_meets(cond, param, [int(t) for t in ids[:n_p]] + list(c), tiles)
                   for c in itertools.combinations([int(t) for t in pool], k))
        fast = solo._line_fast(cond, param, tiles, ids.copy(), n_p, k, pool, len(pool), buf)
        assert fast in (want, solo.UNDECIDED), (cond, param, ids, n_p, k, pool)
        rep = np.zeros(max(len(pool), 1), dtype=np.int64)
        size = np.zeros(max(len(pool), 1), dtype=np.int64)
        n_cls = solo._build_classes(pool, len(pool), tiles, solo._cond_attrs(cond), rep, size,
                                    np.zeros(max(len(pool), 1), dtype=np.int64))
        bounds = np.zeros(3, dtype=np.int64)
        solo._pool_bounds(tiles, pool, len(pool), bounds)
        joint = solo._line_joint(ids.copy(), n_p, k, np.array([cond]), np.array([param]), 1,
                                 tiles, rep, size, n_cls, bounds, np.zeros(4, dtype=np.int64))
        assert joint == want, (cond, param, ids, n_p, k, pool)
        seen.add((cond, want))
    assert len(seen) == 2 * len(L.CONDITIONS)


def test_FS_SOLO_C6_two_conditions_on_one_line_match_brute_force():
    """Win rule all with 2 cards: split-by-value (SAME_*/SHARE), DIFF_* + SUM_* grouping and
    the class search each agree with the combinations oracle on random lines."""
    rng = np.random.default_rng(11)
    buf = np.zeros(16, dtype=np.int64)
    fpool = np.zeros(40, dtype=np.int64)
    used = {"partition": 0, "diff_sum": 0}
    outcomes = set()
    for _ in range(4000):
        tiles, ids, n_p, k, pool, c1, p1 = _random_line(rng)
        _, _, _, _, _, c2, p2 = _random_line(rng)
        if c2 == c1:
            continue
        placed = [int(t) for t in ids[:n_p]]
        want = any(o_meets(c1, p1, placed + list(c), tiles) and o_meets(c2, p2, placed + list(c), tiles)
                   for c in itertools.combinations([int(t) for t in pool], k))
        outcomes.add(want)
        for (ca, _pa), (cb, pb) in (((c1, p1), (c2, p2)), ((c2, p2), (c1, p1))):
            if solo._is_partition(ca):
                r = solo._line_partition(ca, cb, pb, tiles, ids.copy(), n_p, k, pool, len(pool),
                                         buf, fpool)
                assert r in (want, solo.UNDECIDED), (ca, cb, pb, ids, n_p, k, pool)
                used["partition"] += 1
            if solo._is_diff(ca) and solo._is_sum(cb):
                r = solo._line_diff_sum(ca, cb, pb, tiles, ids.copy(), n_p, k, pool, len(pool),
                                        buf, fpool)
                assert r in (want, solo.UNDECIDED), (ca, cb, pb, ids, n_p, k, pool)
                used["diff_sum"] += 1
        npl = max(len(pool), 1)
        rep, size = np.zeros(npl, dtype=np.int64), np.zeros(npl, dtype=np.int64)
        n_cls = solo._build_classes(pool, len(pool), tiles,
                                    solo._cond_attrs(c1) | solo._cond_attrs(c2), rep, size,
                                    np.zeros(npl, dtype=np.int64))
        bounds = np.zeros(3, dtype=np.int64)
        solo._pool_bounds(tiles, pool, len(pool), bounds)
        joint = solo._line_joint(ids.copy(), n_p, k, np.array([c1, c2]), np.array([p1, p2]), 2,
                                 tiles, rep, size, n_cls, bounds, np.zeros(4, dtype=np.int64))
        assert joint == want, (c1, p1, c2, p2, ids, n_p, k, pool)
    assert outcomes == {True, False}
    assert used["partition"] > 500 and used["diff_sum"] > 200


# ---------------------------------------------------------------------------------------------
# pure-Python run (NUMBA_DISABLE_JIT=1)
# ---------------------------------------------------------------------------------------------
NOJIT_SCRIPT = r"""
import sys
sys.path.insert(0, {tests!r})
import numpy as np
from flower_shop import fs_data
from sim.games.flower_shop import solo
tiles, tasks, _, _ = fs_data.default_arrays()
rng = np.random.default_rng(3)
out = []
for i in range(40):
    deck = rng.permutation(32)
    n_empty = int(rng.integers(1, 5))
    shop = np.full(6, -1, dtype=np.int64)
    shop[rng.choice(6, 6 - n_empty, replace=False)] = deck[:6 - n_empty]
    fin = np.where(shop >= 0, i % 2, 0).astype(np.int64)
    pool = deck[6 - n_empty:6 - n_empty + 6].astype(np.int64)
    cards = rng.choice(6, 1 + i % 2, replace=False).astype(np.int64)
    out.append(int(solo.feasible(shop, fin, 2, 3, pool, len(pool), cards, len(cards),
                                 i % 3 == 0, i % 4, i % 5 == 0, n_empty, 5, 1, 4, 3, 3,
                                 tasks, tiles)))
small = tiles[:14].copy()
out.append(int(solo.conflict_matrix(tasks[:3], small, 2, 2).sum()))
print(out)
"""


@pytest.mark.slow
def test_runs_with_numba_jit_disabled():
    """The same kernels run as plain Python (NUMBA_DISABLE_JIT=1) with identical answers."""
    script = NOJIT_SCRIPT.format(tests=str(Path(__file__).resolve().parents[1]))
    root = Path(__file__).resolve().parents[2]
    res = {}
    for flag in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=flag, PYTHONPATH=str(root))
        p = subprocess.run([sys.executable, "-c", script], env=env, cwd=root,
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        res[flag] = p.stdout.strip()
    assert res["0"] == res["1"]
