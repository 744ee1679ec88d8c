"""The store's read side: where a store keeps what (design §4), reading manifests, and which
parts of an experiment are finished and sound.

Layout (fixed)::

    <store>/experiments/<experiment>.json
    <store>/results/games/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet
    <store>/results/seats/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet
    <store>/results/rounds/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet   (traced)
    <store>/results/actions/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet  (traced)

:mod:`analysis.db` reads through this module (its views hold exactly the finished parts);
:mod:`pipelines.store` writes through it (:class:`pipelines.store.Store` extends
:class:`StoreReader` with atomic writes and locks, and its runner plans chunks with
:mod:`pipelines.chunks`). Imports go one way: ``sim`` <- ``analysis`` <- ``pipelines``.

A manifest keeps each arm's chunk plan as segments and its finished chunks as ranges, so it
stays a few kilobytes at any size. A *segment* ``{"chunk": c0, "start": a, "stop": b,
"size": k}`` stands for the chunks ``c0, c0 + 1, ...`` covering game indices ``[a, b)`` in steps
of ``k`` (the last one may be shorter); finished chunks are inclusive ranges
``[[0, 19], [21, 21]]``. Manifests of format 1 (one ``{"chunk", "start", "stop"}`` entry per
chunk and a list of finished chunk numbers) read as the same plan: each old entry is a
one-chunk segment.

Manifests of format 3 also record each finished part, per arm: ``"parts": {"<chunk>": {"games":
[rows, sha256], "seats": [rows, sha256]}}``, the row count and the SHA-256 of the file's bytes,
computed when the part was written.

Round traces (``run --trace N``, :data:`TRACE_TABLES`): an arm entry's ``"trace": N`` says that
the first N games of the arm are traced (absent = 0). A finished chunk ``[start, stop)`` with
``start < N`` has a ``rounds`` and an ``actions`` part holding the games ``start ..
min(stop, N) - 1`` (:func:`trace_stop`), and they are part of the chunk only once its record
lists both (``"rounds": [rows, sha256], "actions": [rows, sha256]``); a chunk's trace parts on
disk that its record does not list (a killed run) are never read. Their row counts are the
recorded ones (a game has as many rounds as it lasts; a game longer than the trace buffer
records no rounds), and the check of their game indices is that they lie within the traced
range.

Trust is checked, not assumed, and reading is scoped per experiment (:meth:`StoreReader.scan`):

* an experiment whose manifest ``run`` wrote is read as its finished parts, each checked
  (:meth:`StoreReader.check_part`): present, its digest when recorded, its footer, its row count,
  and that it holds its own chunk (game-index range, experiment and arm from the Parquet
  statistics). A part that fails raises :class:`StoreError` naming the experiment, arm and
  chunk; parts of unfinished chunks (a killed run) are never read;
* an experiment whose manifest cannot be read (not JSON, or a run manifest gone out of shape) is
  not read at all, and named in :attr:`StoreScan.excluded` (a warning for the caller to show):
  it never changes what is read for the other experiments;
* parts without a manifest, or under a manifest ``run`` did not write (no chunk plan: a
  hand-made store), are read as they are, every part on disk.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.spec import SpecError

__all__ = ["TABLES", "GAME_TABLES", "TRACE_TABLES", "trace_stop", "StoreError", "ManifestError", "StoreWarning", "StoreReader", "StoreScan",
           "manifest_problem", "manifests_glob", "parts_glob", "segment_chunks", "expand",
           "from_ranges", "read_arm", "part_records", "file_digest"]

#: Every game of an arm (design §4): one part per finished chunk, always.
GAME_TABLES = ("games", "seats")
#: Round traces of the first N games of an arm (``run --trace N``): parts of the traced chunks.
TRACE_TABLES = ("rounds", "actions")
TABLES = GAME_TABLES + TRACE_TABLES
DIGEST = "sha256"  # of a part's file bytes, recorded in the manifest (format 3)


class StoreError(SpecError):
    """A store conflict the user must resolve (reported like bad input: exit code 2)."""


class ManifestError(StoreError):
    """A manifest file that is not valid JSON or not shaped like a playtest manifest."""


class StoreWarning(UserWarning):
    """Something of the store is left out of what is read (an experiment whose manifest cannot
    be read)."""


# ---- the layout, as strings (a URL store too) -----------------------------------------------

def manifests_glob(root: str) -> str:
    """Every manifest of the store at ``root`` (a path or URL without a trailing slash)."""
    return f"{root}/experiments/*.json"


def parts_glob(root: str, table: str) -> str:
    """Every part of ``table`` (``games``, ``seats``...) of the store at ``root``."""
    return f"{root}/results/{table}/**/part-*.parquet"


# ---- chunk plans (read side; pipelines.chunks grows and re-plans them) ----------------------

def segment_chunks(seg: dict) -> int:
    """Number of chunks in one segment."""
    span = seg["stop"] - seg["start"]
    return -(-span // seg["size"]) if span > 0 else 0


def expand(plan: list[dict]) -> Iterator[tuple[int, int, int]]:
    """``(chunk, start, stop)`` of every planned chunk, in order."""
    for seg in plan:
        for i in range(segment_chunks(seg)):
            start = seg["start"] + i * seg["size"]
            yield seg["chunk"] + i, start, min(start + seg["size"], seg["stop"])


def from_ranges(ranges: Iterable) -> set[int]:
    """Inclusive ranges ``[[lo, hi], ...]`` -> the chunk numbers they cover."""
    out: set[int] = set()
    for lo, hi in ranges:
        out.update(range(lo, hi + 1))
    return out


def read_arm(entry: dict) -> tuple[list[dict], set[int]]:
    """An arm entry of the manifest (format 1 or 2) -> (plan, finished chunk numbers)."""
    plan = [s if "size" in s else {**s, "size": max(1, s["stop"] - s["start"])}
            for s in entry.get("chunks", [])]
    if "finished" in entry:
        return plan, from_ranges(entry["finished"])
    return plan, set(entry.get("finished_chunks", []))


def part_records(entry: dict) -> dict[int, dict[str, tuple[int, str]]]:
    """An arm entry's recorded parts (format 3): ``{chunk: {table: (rows, sha256)}}``; ``{}``
    for older manifests."""
    return {int(c): {t: (int(r[0]), str(r[1])) for t, r in rec.items()}
            for c, rec in (entry.get("parts") or {}).items()}


def trace_stop(entry: dict, start: int, stop: int) -> int:
    """End of the traced games of the chunk ``[start, stop)`` of an arm entry: ``start`` when
    none of them is traced (the entry's ``trace`` N is the number of traced leading games)."""
    n = entry.get("trace", 0)
    n = n if _is_int(n) else 0
    return max(start, min(stop, n))


def file_digest(path: str | os.PathLike) -> str:
    """SHA-256 of a file's bytes (hex), as recorded for each part."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, DIGEST).hexdigest()


# ---- manifests ---------------------------------------------------------------------------

def manifest_problem(m: Any) -> str | None:
    """What is wrong with the shape of a parsed manifest, or None."""
    if not isinstance(m, dict):
        return f"a JSON {type(m).__name__}, not an object"
    arms = m.get("arms")
    if not isinstance(arms, list) or not arms:
        return "no 'arms' list"
    for i, a in enumerate(arms):
        if not isinstance(a, dict) or not isinstance(a.get("name"), str) \
                or not isinstance(a.get("game"), str) or not _is_int(a.get("n_players")):
            return f"arms[{i}] lacks name, game or n_players"
        plan = a.get("chunks")
        if not isinstance(plan, list) or not all(
                isinstance(c, dict) and all(_is_int(c.get(k)) for k in ("chunk", "start", "stop"))
                and c["start"] <= c["stop"] and (_is_int(c.get("size", 1)) and c.get("size", 1) > 0)
                for c in plan):
            return f"arms[{i}].chunks is not a chunk plan"
        fin = a.get("finished", a.get("finished_chunks"))
        if "finished" in a:
            ok = isinstance(fin, list) and all(isinstance(r, list) and len(r) == 2
                                               and all(_is_int(x) for x in r) for r in fin)
        else:
            ok = isinstance(fin, list) and all(_is_int(x) for x in fin)
        if not ok:
            return f"arms[{i}] has no valid list of finished chunks"
        if "trace" in a and not (_is_int(a["trace"]) and a["trace"] >= 0):
            return f"arms[{i}].trace is not a number of games"
        if "parts" in a and not _parts_ok(a["parts"]):
            return f"arms[{i}].parts is not a record of parts ({{chunk: {{table: [rows, sha256]}}}})"
    return None


_HEX64 = re.compile(r"[0-9a-f]{64}")


def _parts_ok(parts: Any) -> bool:
    return isinstance(parts, dict) and all(
        isinstance(c, str) and c.isdigit() and isinstance(rec, dict) and all(
            t in TABLES and isinstance(r, list) and len(r) == 2 and _is_int(r[0]) and r[0] >= 0
            and isinstance(r[1], str) and _HEX64.fullmatch(r[1]) for t, r in rec.items())
        for c, rec in parts.items())


def is_run_manifest(m: Any) -> bool:
    """Whether a parsed manifest says ``playtest run`` wrote it (a ``format``, or arms with a
    chunk plan); other JSON objects are hand-made manifests (their parts are read as they are)."""
    if not isinstance(m, dict):
        return False
    return "format" in m or any(isinstance(a, dict) and ("chunks" in a or "finished" in a)
                                for a in (m.get("arms") if isinstance(m.get("arms"), list)
                                          else []))


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class StoreReader:
    """Paths and reading under one local store root (reading never creates anything)."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)

    # ---- paths ------------------------------------------------------------------------
    @property
    def experiments_dir(self) -> Path:
        return self.root / "experiments"

    def manifest_path(self, experiment: str) -> Path:
        return self.experiments_dir / f"{experiment}.json"

    def arm_dir(self, table: str, game: str, experiment: str, arm: str) -> Path:
        return (self.root / "results" / table / f"game={game}" / f"experiment={experiment}"
                / f"arm={arm}")

    def part_path(self, table: str, game: str, experiment: str, arm: str, chunk: int) -> Path:
        return self.arm_dir(table, game, experiment, arm) / f"part-{chunk:05d}.parquet"

    def part_files(self, table: str) -> list[str]:
        """Every part of ``table`` on disk, finished or not (sorted paths)."""
        return sorted(str(p) for p in (self.root / "results" / table).glob("**/part-*.parquet"))

    def manifest_files(self) -> list[str]:
        """Every manifest file (sorted paths)."""
        return sorted(str(p) for p in self.experiments_dir.glob("*.json"))

    # ---- manifests --------------------------------------------------------------------
    def experiments(self) -> list[str]:
        """Experiment names, from the manifest file names (sorted)."""
        if not self.experiments_dir.is_dir():
            return []
        return sorted(p.stem for p in self.experiments_dir.glob("*.json"))

    def read_manifest(self, experiment: str) -> dict | None:
        """The manifest of ``experiment``, or None when it has none.

        Raises
        ------
        ManifestError
            The file is not valid JSON or not shaped like a playtest manifest.
        StoreError
            The file cannot be read.
        """
        p = self.manifest_path(experiment)
        if not p.is_file():
            return None
        try:
            m = json.loads(p.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ManifestError(f"manifest {p} is not valid JSON ({e}); move it away to start over") from None
        except OSError as e:
            raise StoreError(f"manifest {p} cannot be read ({e.strerror})") from None
        problem = manifest_problem(m)
        if problem:
            raise ManifestError(f"manifest {p} is not a playtest manifest ({problem}); move it away "
                             f"to start over")
        return m

    def manifest_state(self, experiment: str) -> tuple[str, dict | None, str | None]:
        """How the store holds ``experiment``: ``(kind, manifest, problem)`` with ``kind``

        * ``"run"``: a manifest ``playtest run`` wrote, in shape (read its finished parts);
        * ``"hand-made"``: a JSON object without a chunk plan (read every part on disk);
        * ``"missing"``: no manifest (read every part on disk);
        * ``"broken"``: a manifest that cannot be read (``problem`` says why; read nothing).
        """
        p = self.manifest_path(experiment)
        if not p.is_file():
            return "missing", None, None
        try:
            m = json.loads(p.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            return "broken", None, f"manifest {p} is not valid JSON ({e})"
        except OSError as e:
            return "broken", None, f"manifest {p} cannot be read ({e.strerror})"
        if not isinstance(m, dict):
            return "broken", None, f"manifest {p} is a JSON {type(m).__name__}, not an object"
        if not is_run_manifest(m):
            return "hand-made", m, None
        problem = manifest_problem(m)
        if problem:
            return "broken", None, f"manifest {p} is not a playtest manifest ({problem})"
        return "run", m, None

    # ---- parts ------------------------------------------------------------------------
    def check_part(self, table: str, game: str, experiment: str, arm: str, chunk: int,
                   start: int, stop: int, n_players: int, record: tuple[int, str] | None = None,
                   digests: bool = True) -> tuple[str | None, Any]:
        """Whether a finished chunk's ``table`` part is the one the manifest lists.

        Checks, in order: the file exists; its SHA-256 equals the recorded one (``record =
        (rows, sha256)``, format 3; skipped when ``digests`` is False); its footer reads; it has
        the chunk's rows; it holds the chunk's games (``game_index`` from ``start`` to
        ``stop - 1``) of this experiment and arm (the Parquet statistics, or the column when a
        writer left none).

        A trace part (:data:`TRACE_TABLES`; ``stop`` = :func:`trace_stop`) must be recorded; it
        has the recorded rows, and its game indices lie within ``start .. stop - 1``.

        Returns
        -------
        (problem, schema): why the part is not the right one (None when it is), and its Arrow
        schema (None when it has a problem).
        """
        path = self.part_path(table, game, experiment, arm, chunk)
        traced = table in TRACE_TABLES
        if traced and record is None:
            return f"{table} part {path} is not recorded in the manifest", None
        rows = record[0] if traced else (stop - start) * (1 if table == "games" else n_players)
        if not path.is_file():
            return f"{table} part {path} is missing", None
        if record is not None:
            if record[0] != rows:
                return (f"{table} part {path} is recorded with {record[0]:,} rows, not "
                        f"{rows:,}"), None
            if digests:
                try:
                    got = file_digest(path)
                except OSError as e:
                    return f"{table} part {path} cannot be read ({e.strerror})", None
                if got != record[1]:
                    return (f"{table} part {path} does not match the {DIGEST} recorded when it "
                            f"was written (changed or damaged since)"), None
        try:
            md = pq.read_metadata(path)
            schema = md.schema.to_arrow_schema()
        except (OSError, pa.ArrowException) as e:
            return f"{table} part {path} is damaged ({str(e).splitlines()[0]})", None
        if md.num_rows != rows:
            return f"{table} part {path} has {md.num_rows:,} rows, not {rows:,}", None
        try:
            held = _held(path, md, rows)
        except (OSError, pa.ArrowException, ValueError) as e:
            return f"{table} part {path} is damaged ({str(e).splitlines()[0]})", None
        lo, hi = held.get("game_index", (None, None))
        if rows and ((lo, hi) != (start, stop - 1) if not traced
                     else not (start <= lo and hi <= stop - 1)):
            return (f"{table} part {path} holds games {lo}-{hi}, not the chunk's "
                    f"{'traced games ' if traced else ''}{start}-{stop - 1}"), None
        for col, want in (("experiment", experiment), ("arm", arm)):
            got = held.get(col)
            if rows and got is not None and got != (want, want):
                what = got[0] if got[0] == got[1] else f"{got[0]}..{got[1]}"
                return f"{table} part {path} holds {col} '{what}', not '{want}'", None
        return None, schema

    def check_chunk(self, game: str, experiment: str, arm: str, chunk: int, start: int,
                    stop: int, n_players: int, records: dict | None = None,
                    digests: bool = True) -> str | None:
        """Why a finished chunk's ``games``/``seats`` parts are not the right ones
        (:meth:`check_part`), or None."""
        for table in GAME_TABLES:
            problem, _ = self.check_part(table, game, experiment, arm, chunk, start, stop,
                                         n_players, (records or {}).get(table), digests)
            if problem:
                return problem
        return None

    def check_traces(self, game: str, experiment: str, arm: str, chunk: int, start: int,
                     stop: int, n_players: int, records: dict | None = None,
                     digests: bool = True) -> str | None:
        """Why a traced chunk's ``rounds``/``actions`` parts (games ``start .. stop - 1``,
        :func:`trace_stop`) are not the recorded ones (:meth:`check_part`), or None."""
        for table in TRACE_TABLES:
            problem, _ = self.check_part(table, game, experiment, arm, chunk, start, stop,
                                         n_players, (records or {}).get(table), digests)
            if problem:
                return problem
        return None

    def finished_parts(self, manifest: dict) -> list[tuple[str, str, int, int, int, int, dict]]:
        """``(arm, game, chunk, start, stop, n_players, records)`` of every finished chunk of an
        experiment (``records``: ``{table: (rows, sha256)}``, empty before format 3)."""
        return [p[:7] for p in self._finished_parts(manifest)]

    def _finished_parts(self, manifest: dict) -> list[tuple]:
        """:meth:`finished_parts` with each chunk's :func:`trace_stop` as an eighth item."""
        out = []
        for a in manifest["arms"]:
            plan, done = read_arm(a)
            recs = part_records(a)
            out += [(a["name"], a["game"], c, start, stop, a["n_players"], recs.get(c, {}),
                     trace_stop(a, start, stop))
                    for c, start, stop in expand(plan) if c in done]
        return out

    def repair_text(self, experiment: str) -> str:
        return (f"Repair: run the command that made the experiment again (`playtest run` "
                f"re-simulates damaged chunks), or move {self.manifest_path(experiment)} and its "
                f"results away")

    def scan(self, experiments: Iterable[str] | None = None, digests: bool = True) -> "StoreScan":
        """What a reader reads: the parts of every experiment (or of ``experiments``), each
        experiment by its own manifest (see the module docstring).

        Parameters
        ----------
        experiments : iterable of str, optional
            Read only these experiments.
        digests : bool, default True
            Check each recorded part's SHA-256 (reads every byte: about 1 s per GB of parts);
            False checks footers, rows and game-index ranges only.

        Raises
        ------
        StoreError
            A finished part of a readable manifest is missing, damaged or not its chunk's; the
            message names the experiment, arm and chunk and how to repair it.
        """
        wanted = None if experiments is None else set(experiments)
        on_disk = {t: self.part_files(t) for t in TABLES}
        names = set(self.experiments())
        for files in on_disk.values():
            names.update(e for e in map(experiment_of, files) if e is not None)
        if wanted is not None:
            names &= wanted
        out = StoreScan(files={t: [] for t in TABLES}, groups={t: [] for t in TABLES})
        as_is: set[str | None] = set() if wanted is not None else {None}
        groups: dict[str, dict[Any, list[str]]] = {t: {} for t in TABLES}  # by Arrow schema
        for name in sorted(names):
            kind, m, problem = self.manifest_state(name)
            if kind == "broken":
                out.excluded[name] = problem
                continue
            if kind != "run":
                as_is.add(name)
                continue
            out.checked.append(name)
            for arm, game, c, start, stop, p, recs, tstop in self._finished_parts(m):
                for t in TABLES:
                    if t in TRACE_TABLES and not all(x in recs for x in TRACE_TABLES):
                        continue  # not traced (or not yet: a killed run's parts are not read)
                    problem, schema = self.check_part(t, game, name, arm, c, start,
                                                      tstop if t in TRACE_TABLES else stop, p,
                                                      recs.get(t), digests)
                    if problem:
                        raise StoreError(f"experiment '{name}' arm '{arm}' chunk {c}: {problem}. "
                                         + self.repair_text(name))
                    path = str(self.part_path(t, game, name, arm, c))
                    out.files[t].append(path)
                    groups[t].setdefault(schema, []).append(path)
        for t in TABLES:
            out.groups[t] = list(groups[t].values())
            loose = [f for f in on_disk[t] if experiment_of(f) in as_is]
            out.files[t] += loose
            out.unchecked[t] = loose
        out.hand_made = wanted is None and not out.checked and not out.excluded
        return out

    @staticmethod
    def read_problem(path: str | os.PathLike) -> str | None:
        """Why a part does not read in full (every page decoded), or None. For parts that have
        no recorded digest: a footer check cannot see a damaged data page."""
        try:
            pq.read_table(path)
        except (OSError, pa.ArrowException) as e:
            return f"part {path} is damaged ({str(e).splitlines()[0]})"
        return None

    def explain(self, paths: Iterable[str]) -> str | None:
        """Which part of ``paths`` is unreadable, read in full one by one (after a reader failed
        on data a footer check cannot see): ``experiment 'e' arm 'a' chunk c: ...`` with the
        repair, or None when every one reads."""
        for p in paths:
            problem = self.read_problem(p)
            if problem:
                where = part_place(p)
                head = (f"experiment '{where[0]}' arm '{where[1]}' chunk {where[2]}: "
                        if where else "")
                return f"{head}{problem}. " + (self.repair_text(where[0]) if where else "")
        return None


@dataclass
class StoreScan:
    """What a reader reads from a store (:meth:`StoreReader.scan`)."""

    #: per table, every part to read
    files: dict[str, list[str]]
    #: per table, the checked parts in groups of one Arrow schema (each group reads without
    #: unifying schemas file by file)
    groups: dict[str, list[list[str]]]
    #: per table, the parts read as they are (hand-made: schemas unknown)
    unchecked: dict[str, list[str]] = field(default_factory=dict)
    #: experiments read by their manifest
    checked: list[str] = field(default_factory=list)
    #: experiment -> why none of its parts are read (its manifest cannot be read)
    excluded: dict[str, str] = field(default_factory=dict)
    #: every experiment is hand-made (or the store is empty): every part on disk is read, and a
    #: reader may read them by glob (parts written later show up)
    hand_made: bool = False

    @property
    def warnings(self) -> list[str]:
        """One line per experiment left out, for the caller to show."""
        return [f"experiment '{e}' is left out: {why}; fix or move that file to read its parts"
                for e, why in sorted(self.excluded.items())]


def experiment_of(path: str) -> str | None:
    """The experiment of a part path (its ``experiment=<e>`` directory), or None."""
    for d in Path(path).parts:
        if d.startswith("experiment="):
            return d[len("experiment="):]
    return None


def part_place(path: str) -> tuple[str, str, int] | None:
    """``(experiment, arm, chunk)`` of a part path of the store layout, or None."""
    p = Path(path)
    m = re.fullmatch(r"part-(\d+)\.parquet", p.name)
    arm = p.parent.name
    exp = p.parent.parent.name
    if not m or not arm.startswith("arm=") or not exp.startswith("experiment="):
        return None
    return exp[len("experiment="):], arm[len("arm="):], int(m.group(1))


_HELD = ("game_index", "experiment", "arm")


def _held(path, md, rows: int) -> dict[str, tuple[Any, Any]]:
    """``{column: (min, max)}`` of the identity columns of a part, from the Parquet statistics
    (read from the column itself when a row group has none)."""
    names = [md.schema.column(i).path for i in range(md.num_columns)]
    out: dict[str, tuple[Any, Any]] = {}
    need = []
    for col in _HELD:
        if col not in names:
            continue
        j = names.index(col)
        lo = hi = None
        for g in range(md.num_row_groups):
            c = md.row_group(g).column(j)
            st = c.statistics
            if md.row_group(g).num_rows == 0:
                continue
            if st is None or not st.has_min_max:
                need.append(col)
                break
            lo = st.min if lo is None else min(lo, st.min)
            hi = st.max if hi is None else max(hi, st.max)
        else:
            out[col] = (lo, hi)
    if need and rows:
        t = pq.read_table(path, columns=need)
        for col in need:
            v = t.column(col)
            mm = pc.min_max(v)
            out[col] = (mm["min"].as_py(), mm["max"].as_py())
    if "game_index" not in names and rows:
        raise ValueError("it has no game_index column")
    return out
