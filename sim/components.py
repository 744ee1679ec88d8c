"""Generic reading of editable component data files (CSV and TOML), shared by all games.

Every game keeps its component data (tiles, cards, die faces...) in a folder of small CSV/TOML
files that a designer can copy and pass as ``--components DIR``. This module reads those files
and turns every malformed datum into one :class:`sim.spec.SpecError` naming the file, the row
and the column, so the CLI can print it and exit with code 2.

Provenance tags (``shared/rules/*.md``): R rulebook, RV rules review, P preview, D derived,
A assumption (needs an ``assumption_id``), S sensitivity alternative.
"""
from __future__ import annotations

import csv
import hashlib
import io
import tomllib
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .spec import SpecError

PROVENANCE_TAGS = ("R", "RV", "P", "D", "A", "S")


def cell_int(lo: int | None = None, hi: int | None = None, blank: int | None = None) -> Callable:
    """A cell parser for integers in [lo, hi]; ``blank`` is the value of an empty cell
    (None = an empty cell is an error)."""

    def parse(text: str) -> int:
        t = text.strip()
        if t == "":
            if blank is None:
                raise ValueError("is empty (an integer is required)")
            return blank
        try:
            f = float(t)
        except ValueError:
            raise ValueError(f"'{text}' is not an integer") from None
        if f != int(f):
            raise ValueError(f"'{text}' is not an integer")
        v = int(f)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise ValueError(f"{v} is out of range ({_r(lo)}..{_r(hi)})")
        return v

    return parse


def cell_choice(choices: Sequence[str], what: str = "value", blank: str | None = None) -> Callable:
    """A cell parser accepting one of ``choices`` (case-insensitive); returns its index."""
    low = [c.lower() for c in choices]

    def parse(text: str) -> int:
        t = text.strip().lower()
        if t == "" and blank is not None:
            t = blank.lower()
        if t not in low:
            raise ValueError(f"unknown {what} '{text.strip()}' (valid: {', '.join(choices)})")
        return low.index(t)

    return parse


def cell_str(nonempty: bool = True) -> Callable:
    """A cell parser for text."""

    def parse(text: str) -> str:
        t = text.strip()
        if nonempty and not t:
            raise ValueError("is empty")
        return t

    return parse


def cell_provenance(text: str) -> str:
    t = text.strip().upper()
    if t not in PROVENANCE_TAGS:
        raise ValueError(f"unknown provenance '{text.strip()}' (valid: {', '.join(PROVENANCE_TAGS)})")
    return t


def read_csv(path: Path, columns: Mapping[str, Callable], optional: Mapping[str, Callable] | None = None,
             unique: str | None = None, provenance: bool = True) -> list[dict[str, Any]]:
    """Read a CSV file whose header contains every column of ``columns``.

    Parameters
    ----------
    path : Path
    columns : mapping column name -> cell parser (``str -> value``, raising ValueError)
        Required columns. Extra columns are ignored.
    optional : mapping, optional
        Columns parsed when present (missing cells are passed as '').
    unique : str, optional
        A column whose values must be unique.
    provenance : bool
        Require a ``provenance`` column (R/RV/P/D/A/S) and an ``assumption_id`` on rows tagged A.

    Returns
    -------
    list of dict, one per data row, with parsed values and ``_row`` (1-based data row number).

    Raises
    ------
    SpecError naming the file, the row and the column of the first malformed datum.
    """
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"{path}: component file is missing")
    optional = dict(optional or {})
    if provenance:
        optional.setdefault("assumption_id", cell_str(nonempty=False))
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(f"{path}: cannot read ({e})") from None
    reader = _content_rows(text)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise SpecError(f"{path}: file is empty (expected a header row)") from None
    need = dict(columns)
    if provenance:
        need["provenance"] = cell_provenance
    missing = [c for c in need if c not in header]
    if missing:
        raise SpecError(f"{path}: missing column(s) {', '.join(repr(m) for m in missing)} "
                        f"(header has: {', '.join(header)})")
    idx = {h: i for i, h in enumerate(header)}
    rows, seen = [], {}
    for n, cells in enumerate(reader, start=1):
        if len(cells) > len(header):
            raise SpecError(f"{path}: row {n}: {len(cells)} cells but the header has {len(header)} columns")
        cells = cells + [""] * (len(header) - len(cells))
        out: dict[str, Any] = {"_row": n}
        for col, parse in list(need.items()) + list(optional.items()):
            raw = cells[idx[col]] if col in idx else ""
            try:
                out[col] = parse(raw)
            except ValueError as e:
                raise SpecError(f"{path}: row {n}, column '{col}': {e}") from None
        if provenance and out["provenance"] == "A" and not out.get("assumption_id"):
            raise SpecError(f"{path}: row {n}, column 'assumption_id': rows tagged A need an "
                            f"assumption id (e.g. A-06)")
        if unique:
            key = out[unique]
            if key in seen:
                raise SpecError(f"{path}: row {n}, column '{unique}': duplicate '{key}' "
                                f"(also row {seen[key]})")
            seen[key] = n
        rows.append(out)
    if not rows:
        raise SpecError(f"{path}: no data rows")
    return rows


def _content_rows(text: str):
    """The CSV rows of ``text`` without comments and blank rows.

    The text is parsed first, so a comment is recognised however a spreadsheet saved it: a row
    whose first cell starts with ``#`` (``# note``, ``"# note, with commas"``, ``"# note",,``),
    and a quoted cell may span lines. A row whose cells are all blank (``,,``) is skipped too.
    """
    for cells in csv.reader(io.StringIO(text, newline="")):
        if not any(c.strip() for c in cells) or cells[0].lstrip().startswith("#"):
            continue
        yield cells


def read_toml(path: Path, required: Sequence[str] = ()) -> dict[str, Any]:
    """Read a TOML file and check that it has the ``required`` top-level keys."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"{path}: component file is missing")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise SpecError(f"{path}: cannot parse TOML ({e})") from None
    missing = [k for k in required if k not in data]
    if missing:
        raise SpecError(f"{path}: missing key(s) {', '.join(missing)}")
    return data


def toml_list(path: Path, data: Mapping[str, Any], key: str, parse: Callable,
              min_len: int = 1, max_len: int | None = None) -> list:
    """Parse the list ``data[key]`` item by item; errors name the file, key and item number."""
    val = data.get(key)
    if not isinstance(val, list):
        raise SpecError(f"{path}: key '{key}' must be a list, got {val!r}")
    if len(val) < min_len or (max_len is not None and len(val) > max_len):
        raise SpecError(f"{path}: key '{key}' must have {min_len}..{max_len or 'any'} items, "
                        f"got {len(val)}")
    out = []
    for i, item in enumerate(val, start=1):
        try:
            out.append(parse(str(item)))
        except ValueError as e:
            raise SpecError(f"{path}: key '{key}', item {i}: {e}") from None
    return out


def check_toml_provenance(path: Path, data: Mapping[str, Any], keys: Sequence[str]) -> bool:
    """Check the ``[provenance]`` table: one ``{tag=..., assumption_id=...}`` per key.

    Returns
    -------
    bool, True if any of ``keys`` is tagged A (an assumption).
    """
    prov = data.get("provenance")
    if not isinstance(prov, dict):
        raise SpecError(f"{path}: missing [provenance] table")
    assumed = False
    for k in keys:
        entry = prov.get(k)
        if not isinstance(entry, dict) or "tag" not in entry:
            raise SpecError(f"{path}: [provenance] needs an entry {k} = {{ tag = \"...\" }}")
        try:
            tag = cell_provenance(str(entry["tag"]))
        except ValueError as e:
            raise SpecError(f"{path}: [provenance] key '{k}': {e}") from None
        if tag == "A":
            assumed = True
            if not entry.get("assumption_id"):
                raise SpecError(f"{path}: [provenance] key '{k}': tag A needs an assumption_id")
    return assumed


def digest_dir(directory: Path, patterns: Sequence[str] = ("*.csv", "*.toml")) -> str:
    """SHA-256 (first 16 hex digits) over the names and contents of the data files."""
    directory = Path(directory)
    h = hashlib.sha256()
    files = sorted({p for pat in patterns for p in directory.glob(pat) if p.is_file()})
    for p in files:
        h.update(p.name.encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _r(v):
    return "any" if v is None else str(v)
