"""Default Flower Shop component arrays for tests, built from the spec's tables.

The CSV text below is copied verbatim from ``shared/rules/flower_shop.md`` §2.7 (``tiles.csv``)
and §2.8 (``tasks.csv``). It is parsed independently of ``rules.load_components`` so that tests
of the solo feasibility check (FS-SOLO-C1..C6) and of the task conflicts (§2.9) do not depend on
the component loader.

Encodings (§2.2): flower columns rose..hydrangea = types 0..5; vase colours yellow, blue, green,
pink, white, purple = 0..5; knickknacks cup, painting, plush, candle = 0..3. ``TL_FLOWERS`` is the
sum of the specific icons and the fuchsia ``any_flower`` icons. In ``tasks`` a blank parameter is
0 and a blank points cell is -1 ("use the rule default").
"""
from __future__ import annotations

import csv
import io

import numpy as np

from sim.games.flower_shop import layout as L
from sim.games.flower_shop import tasks as T

FLOWERS = ("rose", "lily", "sunflower", "tulip", "iris", "hydrangea")
VASES = ("yellow", "blue", "green", "pink", "white", "purple")
KNICKS = ("cup", "painting", "plush", "candle")

TILES_CSV = """\
tile_id,rose,lily,sunflower,tulip,iris,hydrangea,any_flower,vase,knickknack,stars
T01,0,3,0,0,0,0,0,yellow,cup,5
T02,3,0,0,0,0,0,0,blue,painting,5
T03,0,0,2,1,0,0,0,green,plush,5
T04,0,0,0,2,1,0,0,pink,candle,5
T05,0,0,0,0,1,2,0,white,cup,5
T06,1,0,1,0,0,1,0,purple,painting,5
T07,1,1,0,0,0,0,1,yellow,candle,4
T08,0,0,1,0,1,0,1,blue,plush,4
T09,0,0,0,1,0,1,1,green,painting,4
T10,0,1,0,0,1,0,1,pink,cup,4
T11,0,0,3,0,0,0,0,white,candle,5
T12,0,1,0,0,0,2,0,purple,plush,5
T13,2,0,0,0,0,0,0,green,cup,4
T14,0,1,0,1,0,0,0,white,plush,4
T15,0,0,1,0,0,0,1,purple,candle,3
T16,0,0,0,0,2,0,0,yellow,painting,4
T17,0,0,0,0,0,1,1,pink,painting,3
T18,1,0,0,0,1,0,0,blue,plush,4
T19,2,2,0,0,0,0,0,white,painting,6
T20,0,0,3,1,0,0,0,yellow,plush,6
T21,0,0,0,4,0,0,0,purple,cup,6
T22,0,0,0,0,2,2,0,green,candle,6
T23,1,0,0,0,0,3,0,blue,cup,6
T24,0,1,1,0,1,0,1,pink,plush,5
T25,1,0,0,1,0,0,2,green,painting,5
T26,0,0,1,0,1,1,1,white,cup,5
T27,0,3,0,1,0,0,0,purple,candle,6
T28,2,1,2,0,0,0,0,blue,plush,7
T29,0,2,0,2,1,0,0,yellow,candle,7
T30,0,0,0,0,2,3,0,pink,cup,7
T31,1,0,1,1,0,0,2,white,candle,6
T32,0,1,0,0,1,1,2,green,painting,6
"""

TASKS_CSV = """\
task_id,row_condition,row_param,row_points,col_condition,col_param,col_points
T1,SUM_FLOWERS_EQ,10,2,SAME_KNICK,,1
T2,DIFF_VASE,,2,SAME_VASE,,1
T3,DIFF_KNICK,,2,SUM_FLOWERS_EQ,7,1
T4,SUM_STARS_GE,16,2,SHARE_FLOWER_TYPE,,1
T5,SAME_FLOWER_COUNT,,2,DIFF_KNICK,,1
T6,DIFF_FLOWER_COUNT,,2,DIFF_VASE,,1
"""

# §2.9 default conflicts (card indices: T1 = 0 ... T6 = 5).
DEFAULT_CONFLICT_PAIRS = {(0, 2), (0, 4), (1, 5), (4, 5)}


def parse_tiles(text: str = TILES_CSV) -> tuple[np.ndarray, list[str]]:
    """``tiles`` int64[n, TL_W] and tile ids from §2.7-style CSV text."""
    rows = list(csv.DictReader(io.StringIO(text)))
    tiles = np.zeros((len(rows), L.TL_W), dtype=np.int64)
    for i, r in enumerate(rows):
        for f, name in enumerate(FLOWERS):
            tiles[i, f] = int(r[name])
        tiles[i, L.TL_ANY] = int(r["any_flower"])
        tiles[i, L.TL_VASE] = VASES.index(r["vase"])
        tiles[i, L.TL_KNICK] = KNICKS.index(r["knickknack"])
        tiles[i, L.TL_STARS] = int(r["stars"])
    return T.derive_tile_columns(tiles), [r["tile_id"] for r in rows]


def parse_tasks(text: str = TASKS_CSV) -> tuple[np.ndarray, list[str]]:
    """``tasks`` int64[n, TK_W] and card ids from §2.8-style CSV text."""
    rows = list(csv.DictReader(io.StringIO(text)))
    tasks = np.zeros((len(rows), L.TK_W), dtype=np.int64)
    for i, r in enumerate(rows):
        tasks[i, L.TK_ROW_COND] = L.CONDITIONS.index(r["row_condition"])
        tasks[i, L.TK_ROW_PARAM] = int(r["row_param"] or 0)
        tasks[i, L.TK_ROW_POINTS] = int(r["row_points"] or -1)
        tasks[i, L.TK_COL_COND] = L.CONDITIONS.index(r["col_condition"])
        tasks[i, L.TK_COL_PARAM] = int(r["col_param"] or 0)
        tasks[i, L.TK_COL_POINTS] = int(r["col_points"] or -1)
    return tasks, [r["task_id"] for r in rows]


def default_arrays() -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """``(tiles, tasks, tile_ids, task_ids)`` of the default component data."""
    tiles, tile_ids = parse_tiles()
    tasks, task_ids = parse_tasks()
    return tiles, tasks, tile_ids, task_ids


def tile_index(tile_id: str) -> int:
    """Row of ``tile_id`` (e.g. ``"T28"``) in the default ``tiles`` array."""
    return int(tile_id[1:]) - 1


def card_index(card_id: str) -> int:
    """Row of ``card_id`` (e.g. ``"T1"``) in the default ``tasks`` array."""
    return int(card_id[1:]) - 1
