"""The store's read side: where a store keeps what (design §4), reading manifests, and which
parts of an experiment are finished and sound.

Layout (fixed)::

    <store>/experiments/<experiment>.json
    <store>/results/games/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet
    <store>/results/seats/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet

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

Trust is checked, not assumed: :meth:`StoreReader.finished_files` re-reads every finished
chunk's Parquet footers and refuses a missing or damaged part, naming the experiment, arm and
chunk.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Iterator

import pyarrow as pa
import pyarrow.parquet as pq

from sim.spec import SpecError

__all__ = ["TABLES", "StoreError", "ManifestError", "StoreReader", "manifest_problem",
           "manifests_glob", "parts_glob", "segment_chunks", "expand", "from_ranges", "read_arm"]

TABLES = ("games", "seats")


class StoreError(SpecError):
    """A store conflict the user must resolve (reported like bad input: exit code 2)."""


class ManifestError(StoreError):
    """A manifest file that is not valid JSON or not shaped like a playtest manifest."""


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
    return None


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

    # ---- parts ------------------------------------------------------------------------
    def check_chunk(self, game: str, experiment: str, arm: str, chunk: int, n_games: int,
                    n_players: int) -> str | None:
        """Why a finished chunk's parts are unusable (missing, unreadable footer, wrong row
        count), or None when both are fine. Reads only the Parquet footers."""
        for table, rows in (("games", n_games), ("seats", n_games * n_players)):
            path = self.part_path(table, game, experiment, arm, chunk)
            try:
                got = pq.read_metadata(path).num_rows
            except FileNotFoundError:
                return f"{table} part {path} is missing"
            except (OSError, pa.ArrowException) as e:
                return f"{table} part {path} is damaged ({str(e).splitlines()[0]})"
            if got != rows:
                return f"{table} part {path} has {got:,} rows, not {rows:,}"
        return None

    def finished_parts(self, manifest: dict) -> list[tuple[str, str, int, int, int]]:
        """``(arm, game, chunk, n_games, n_players)`` of every finished chunk of an experiment."""
        out = []
        for a in manifest["arms"]:
            plan, done = read_arm(a)
            out += [(a["name"], a["game"], c, stop - start, a["n_players"])
                    for c, start, stop in expand(plan) if c in done]
        return out

    def finished_files(self) -> dict[str, list[str]]:
        """Every finished part of every experiment, per table, after checking each one.

        Raises
        ------
        StoreError
            A manifest is unreadable, or a finished chunk's part is missing or damaged: the
            message names the experiment, arm and chunk and how to repair it.
        """
        files: dict[str, list[str]] = {t: [] for t in TABLES}
        for name in self.experiments():
            m = self.read_manifest(name)
            for arm, game, c, n, p in self.finished_parts(m):
                problem = self.check_chunk(game, name, arm, c, n, p)
                if problem:
                    raise StoreError(
                        f"experiment '{name}' arm '{arm}' chunk {c}: {problem}. Repair: run the "
                        f"command that made the experiment again (`playtest run` re-simulates "
                        f"damaged chunks), or move {self.manifest_path(name)} and its results "
                        f"away")
                for t in TABLES:
                    files[t].append(str(self.part_path(t, game, name, arm, c)))
        return files
