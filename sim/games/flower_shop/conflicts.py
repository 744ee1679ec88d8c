"""Task-card conflicts of The Little Flower Shop Dice Game: ``components/task_conflicts.csv``.

Rule source: ``shared/rules/flower_shop.md`` §2.9 and FS-V-HELL-2. The truth is
``solo.conflict_matrix`` (exhaustive search over the tile set); the CSV documents it with a
reason per pair. ``load_conflicts`` (used by ``rules.load_components``) reads and validates the
file and checks it against the computed matrix; ``write_conflicts`` regenerates it, also from
the command line: ``python -m sim.games.flower_shop.conflicts [COMPONENTS_DIR]``.

The search is compiled and run only when the file may be out of date: ``write_conflicts`` also
writes ``task_conflicts.verified``, the digest of the tile and task data, the grid and the
listed pairs it checked. While the digest still matches, the file is the search's result and
loading needs no search (a run that does not play solo never compiles the solver). Any change
of the data or a hand edit of the file changes the digest, and the search decides again.
"""
from __future__ import annotations

import csv
import functools
import hashlib
import sys
import warnings
from pathlib import Path

import numpy as np

from sim.spec import SpecError

from . import layout as L
from .solo import conflict_matrix
from .tasks import derive_tile_columns


@functools.lru_cache(maxsize=16)
def _cached_conflicts(tasks_b: bytes, tasks_shape: tuple, tiles_b: bytes,
                      tiles_shape: tuple, rows: int, cols: int) -> bytes:
    tasks = np.frombuffer(tasks_b, dtype=np.int64).reshape(tasks_shape)
    tiles = np.frombuffer(tiles_b, dtype=np.int64).reshape(tiles_shape)
    return conflict_matrix(tasks.copy(), tiles.copy(), rows, cols).tobytes()


def computed_conflicts(tasks: np.ndarray, tiles: np.ndarray, rows: int = 2,
                       cols: int = 3) -> np.ndarray:
    """:func:`conflict_matrix`, memoised per (tasks, tiles, grid) content in this process."""
    tasks = np.ascontiguousarray(tasks, dtype=np.int64)
    tiles = np.ascontiguousarray(tiles, dtype=np.int64)
    raw = _cached_conflicts(tasks.tobytes(), tasks.shape, tiles.tobytes(), tiles.shape,
                            int(rows), int(cols))
    n = tasks.shape[0]
    return np.frombuffer(raw, dtype=np.int64).reshape(n, n).copy()


VERIFIED = "task_conflicts.verified"


def _digest(tasks, tiles, rows, cols, pairs) -> str:
    """The digest of what a verified conflicts file was checked against: the task conditions
    (not their points) and the tiles. Vase colours and knickknacks only matter by equality, so
    they are numbered by first appearance (the loader and the command line number them
    differently)."""
    tasks = np.asarray(tasks, dtype=np.int64)[:, [L.TK_ROW_COND, L.TK_ROW_PARAM, L.TK_COL_COND,
                                                   L.TK_COL_PARAM]]
    tiles = np.array(tiles, dtype=np.int64)
    for col in (L.TL_VASE, L.TL_KNICK):
        seen: dict = {}
        tiles[:, col] = [seen.setdefault(int(v), len(seen)) for v in tiles[:, col]]
    h = hashlib.sha256()
    for a in (tasks, tiles):
        a = np.ascontiguousarray(a, dtype=np.int64)
        h.update(repr(a.shape).encode())
        h.update(a.tobytes())
    h.update(repr((int(rows), int(cols), sorted(pairs))).encode())
    return h.hexdigest()


def _matrix_of(pairs, n) -> np.ndarray:
    m = np.zeros((n, n), dtype=np.int64)
    for a, b in pairs:
        m[a, b] = m[b, a] = 1
    return m


class StaleConflictsWarning(UserWarning):
    """``task_conflicts.csv`` disagrees with the tile and task data; the computed matrix is used."""


def _describe_pairs(pairs, task_ids) -> str:
    return ", ".join("{" + ", ".join(sorted({task_ids[a], task_ids[b]})) + "}"
                     for a, b in sorted(pairs)) or "none"


def _matrix_pairs(m: np.ndarray) -> set[tuple[int, int]]:
    n = m.shape[0]
    return {(a, b) for a in range(n) for b in range(a, n) if m[a, b]}


def read_conflicts_csv(path: Path, task_ids) -> tuple[set[tuple[int, int]], dict]:
    """Parse and validate ``task_conflicts.csv``.

    Required columns: ``task_a``, ``task_b``, ``provenance`` (R, RV, P, D, A or S); optional
    ``reason``, ``assumption_id``. A row with ``task_a == task_b`` states that the card alone
    cannot be satisfied.

    Returns
    -------
    (pairs, reasons)
        ``pairs``: set of ``(a, b)`` card indices with ``a <= b``; ``reasons``: pair -> text.

    Raises
    ------
    SpecError
        Naming the file, the row (line number) and the column of the first problem.
    """
    index = {str(t): i for i, t in enumerate(task_ids)}
    valid_prov = ("R", "RV", "P", "D", "A", "S")
    pairs: set[tuple[int, int]] = set()
    reasons: dict = {}
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise SpecError(f"{path}: cannot read ({e})") from None
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if header is None:
        raise SpecError(f"{path}: empty file; expected header task_a,task_b,reason,provenance")
    header = [h.strip() for h in header]
    for col in ("task_a", "task_b", "provenance"):
        if col not in header:
            raise SpecError(f"{path}, row 1: missing column '{col}' "
                            f"(header must include task_a, task_b, reason, provenance)")
    pos = {h: i for i, h in enumerate(header)}
    for line_no, row in enumerate(reader, start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise SpecError(f"{path}, row {line_no}: {len(row)} cells, expected {len(header)} "
                            f"({','.join(header)})")
        cell = {h: row[i].strip() for h, i in pos.items()}
        ab = []
        for col in ("task_a", "task_b"):
            if cell[col] not in index:
                raise SpecError(f"{path}, row {line_no}, column {col}: unknown task card "
                                f"'{cell[col]}' (valid: {', '.join(index)})")
            ab.append(index[cell[col]])
        if cell["provenance"] not in valid_prov:
            raise SpecError(f"{path}, row {line_no}, column provenance: "
                            f"'{cell['provenance']}' is not one of {', '.join(valid_prov)}")
        key = (min(ab), max(ab))
        if key in pairs:
            raise SpecError(f"{path}, row {line_no}, column task_b: pair "
                            f"{cell['task_a']}/{cell['task_b']} is listed twice")
        pairs.add(key)
        reasons[key] = cell.get("reason", "")
    return pairs, reasons


def load_conflicts(dir, task_ids, tasks, tiles, rows=2, cols=3, strict=False) -> np.ndarray:
    """Task conflicts for the hell variant (FS-V-HELL-2), consistent with the tile/task data.

    Reads ``<dir>/task_conflicts.csv`` and validates it (:func:`read_conflicts_csv`: bad card
    ids, provenance or duplicates raise ``SpecError`` naming file, row and column). The
    conflicts are *derived* data (§2.9: recomputed "whenever tile or task data changes"), so
    the exhaustive search :func:`conflict_matrix` on the given arrays is authoritative:

    * file missing: the matrix is computed (nothing is written);
    * file disagrees with the data (e.g. a designer swapped ``tiles.csv``): with
      ``strict=False`` (default) a :class:`StaleConflictsWarning` names the differing pairs and
      the computed matrix is returned, so conflicts always follow the data; with
      ``strict=True`` a ``SpecError`` is raised instead. Either way the message says how to
      regenerate the file: ``python -m sim.games.flower_shop.conflicts DIR``.

    Parameters
    ----------
    dir : str or Path
        Components folder.
    task_ids : sequence of str
        Card ids, in the row order of ``tasks``.
    tasks, tiles : int64 arrays (``TK_*``, ``TL_*`` layouts)
    rows, cols : int
        Shop grid the conflicts are defined on (default 2 x 3).
    strict : bool
        Raise instead of warn when the file is stale.

    Returns
    -------
    int64[n_cards, n_cards]
        Symmetric 0/1 matrix, 1 = the two cards conflict (diagonal: card alone unsatisfiable).
    """
    path = Path(dir) / "task_conflicts.csv"
    task_ids = [str(t) for t in task_ids]
    if len(task_ids) != len(tasks):
        raise SpecError(f"{path}: {len(task_ids)} task ids for {len(tasks)} task rows")
    if not path.exists():
        return computed_conflicts(tasks, tiles, rows, cols)
    listed, _ = read_conflicts_csv(path, task_ids)
    verified = Path(dir) / VERIFIED
    if verified.is_file():
        try:
            said = verified.read_text(encoding="utf-8").split()
        except (OSError, UnicodeDecodeError):
            said = []
        if said and said[0] == _digest(tasks, tiles, rows, cols, listed):
            return _matrix_of(listed, len(task_ids))
    computed = computed_conflicts(tasks, tiles, rows, cols)
    truth = _matrix_pairs(computed)
    if listed != truth:
        msg = (f"{path} is stale: it does not match the exhaustive search on the current tile "
               f"and task data for a {rows}x{cols} shop (§2.9). Listed but satisfiable: "
               f"{_describe_pairs(listed - truth, task_ids)}; conflicting but not listed: "
               f"{_describe_pairs(truth - listed, task_ids)}. Regenerate it with "
               f"`python -m sim.games.flower_shop.conflicts {Path(dir)}` (or delete it to have the "
               f"conflicts computed at load time).")
        if strict:
            raise SpecError(msg)
        warnings.warn(msg + " Using the computed conflicts.", StaleConflictsWarning,
                      stacklevel=2)
    return computed


def _read_task_data(dir: Path):
    """Minimal reader of ``tiles.csv``/``tasks.csv`` for :func:`write_conflicts`.

    Reads only what the conflict search needs; ``rules.load_components`` is the validating
    loader. Flower-type columns are those between ``tile_id`` and ``any_flower``; vase and
    knickknack names are numbered in order of appearance (only equality matters here).
    """
    def rows_of(name):
        path = dir / name
        try:
            return path, list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
        except OSError as e:
            raise SpecError(f"{path}: cannot read ({e})") from None

    path, trows = rows_of("tiles.csv")
    if not trows:
        raise SpecError(f"{path}: no tiles")
    header = list(trows[0].keys())
    for col in ("tile_id", "any_flower", "vase", "knickknack", "stars"):
        if col not in header:
            raise SpecError(f"{path}, row 1: missing column '{col}'")
    flower_cols = header[header.index("tile_id") + 1:header.index("any_flower")]
    vases: dict = {}
    knicks: dict = {}
    tiles = np.zeros((len(trows), L.TL_W), dtype=np.int64)
    for i, r in enumerate(trows):
        for f, col in enumerate(flower_cols):
            tiles[i, f] = _int_cell(path, i + 2, col, r[col])
        tiles[i, L.TL_ANY] = _int_cell(path, i + 2, "any_flower", r["any_flower"])
        tiles[i, L.TL_VASE] = vases.setdefault(r["vase"].strip(), len(vases))
        tiles[i, L.TL_KNICK] = knicks.setdefault(r["knickknack"].strip(), len(knicks))
        tiles[i, L.TL_STARS] = _int_cell(path, i + 2, "stars", r["stars"])
    derive_tile_columns(tiles)
    path, krows = rows_of("tasks.csv")
    tasks = np.zeros((len(krows), L.TK_W), dtype=np.int64)
    ids = []
    for i, r in enumerate(krows):
        ids.append(r["task_id"].strip())
        for cc, pc, kind in ((L.TK_ROW_COND, L.TK_ROW_PARAM, "row"), (L.TK_COL_COND, L.TK_COL_PARAM, "col")):
            name = (r.get(f"{kind}_condition") or "").strip()
            if name not in L.CONDITIONS:
                raise SpecError(f"{path}, row {i + 2}, column {kind}_condition: unknown "
                                f"condition '{name}' (valid: {', '.join(L.CONDITIONS)})")
            tasks[i, cc] = L.CONDITIONS.index(name)
            p = (r.get(f"{kind}_param") or "").strip()
            tasks[i, pc] = _int_cell(path, i + 2, f"{kind}_param", p) if p else 0
    return ids, tasks, tiles


def _int_cell(path, row, col, text):
    try:
        return int(str(text).strip())
    except ValueError:
        raise SpecError(f"{path}, row {row}, column {col}: '{text}' is not an integer") from None


def write_conflicts(dir, task_ids=None, tasks=None, tiles=None, rows=2, cols=3) -> Path:
    """Regenerate ``<dir>/task_conflicts.csv`` from the tile and task data (§2.9).

    Without arrays, ``tiles.csv`` and ``tasks.csv`` of ``dir`` are read. Reasons already in the
    file are kept for pairs that still conflict; new pairs get a generated reason. Every row has
    provenance D (derived by exhaustive search).

    Returns
    -------
    Path of the written file.
    """
    dir = Path(dir)
    if tasks is None or tiles is None or task_ids is None:
        task_ids, tasks, tiles = _read_task_data(dir)
    task_ids = [str(t) for t in task_ids]
    path = dir / "task_conflicts.csv"
    old_reasons: dict = {}
    if path.exists():
        try:
            _, old_reasons = read_conflicts_csv(path, task_ids)
        except SpecError:
            old_reasons = {}
    m = computed_conflicts(tasks, tiles, rows, cols)
    lines = [("task_a", "task_b", "reason", "provenance")]
    for a, b in sorted(_matrix_pairs(m)):
        reason = old_reasons.get((a, b)) or _generated_reason(a, b, tasks, rows, cols)
        lines.append((task_ids[a], task_ids[b], reason, "D"))
    tmp = path.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows(lines)
    tmp.replace(path)
    digest = _digest(tasks, tiles, rows, cols, _matrix_pairs(m))
    (dir / VERIFIED).write_text(
        f"{digest}\n(digest of the tile and task data, the {rows}x{cols} grid and the pairs that "
        f"{path.name} lists, as checked by the exhaustive search; written by `python -m "
        f"sim.games.flower_shop.conflicts`. While it matches, loading trusts {path.name}.)\n",
        encoding="utf-8")
    return path


def _generated_reason(a, b, tasks, rows, cols) -> str:
    def cond(card, cc, pc):
        name = L.CONDITIONS[tasks[card, cc]] if 0 <= tasks[card, cc] < len(L.CONDITIONS) else "?"
        return f"{name} {tasks[card, pc]}" if name.startswith("SUM_") else name

    if a == b:
        return (f"No arrangement of {rows * cols} distinct tiles satisfies this card alone "
                f"(exhaustive search).")
    return (f"No arrangement of {rows * cols} distinct tiles satisfies both (exhaustive search): "
            f"rows {cond(a, L.TK_ROW_COND, L.TK_ROW_PARAM)} and "
            f"{cond(b, L.TK_ROW_COND, L.TK_ROW_PARAM)}; "
            f"columns {cond(a, L.TK_COL_COND, L.TK_COL_PARAM)} and "
            f"{cond(b, L.TK_COL_COND, L.TK_COL_PARAM)}.")


def main(argv=None) -> int:
    """CLI: ``python -m sim.games.flower_shop.conflicts [DIR]`` rewrites the conflicts file."""
    argv = sys.argv[1:] if argv is None else argv
    dir = Path(argv[0]) if argv else Path(__file__).resolve().parent / "components"
    try:
        path = write_conflicts(dir)
    except SpecError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
