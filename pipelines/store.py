"""The result store's write side: Parquet parts and manifests, written atomically.

The layout, manifest reading and the listing of finished parts are the read side,
:mod:`analysis.storage` (design §4); :class:`Store` extends its :class:`StoreReader` with
writes and locks. Layout (fixed)::

    <store>/experiments/<experiment>.json
    <store>/results/games/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet
    <store>/results/seats/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet
    <store>/results/rounds/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet   (traced)
    <store>/results/actions/game=<g>/experiment=<e>/arm=<a>/part-<chunk:05d>.parquet  (traced)

The partition columns (``game``, ``experiment``, ``arm``) are also stored in every file, as
plain strings, so a part is self-describing; names are restricted to strings a hive reader cannot
mistake for numbers or dates (see :func:`pipelines.experiment.check_name`). DuckDB
(``hive_partitioning=true``) and Polars (``hive_partitioning=True``) read the same string values
either way.

Atomicity: a part is written to ``.part-<chunk>.parquet.<pid>.tmp`` in its final directory,
fsynced and renamed with :func:`os.replace`; the manifest the same way, after the chunk's parts.
Globs ending in ``*.parquet`` / ``*.json`` never match the temporary names, so a killed run never
leaves a readable half-file. A chunk is finished only once the manifest lists it; a part on disk
that the manifest does not list is simulated again (same content) on resume.

The manifest keeps each arm's chunk plan as segments and its finished chunks as ranges
(:mod:`pipelines.chunks`), and (format 3) each finished part's rows and SHA-256, computed from the
file when it is written (:func:`write_parquet_atomic`). Trust is checked, not assumed: a run
checks every finished chunk's parts (:meth:`Store.check_chunk`: digest, footer, rows, game-index
range) and simulates a wrong one again, and the DuckDB views read exactly the finished parts
(:meth:`Store.scan`), refusing a wrong one with the experiment, arm and chunk.

The experiment's lock (:meth:`Store.lock`) is taken before its manifest is read: what a run
checks its settings against is what no other run can change until it ends.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from analysis.storage import TABLES, StoreError, StoreReader, file_digest
from sim.spec import G_END_REASON, G_N_WINNERS, G_TRUNCATED, S_WON, SpecError

from . import arrow

# 2: chunk plan as segments, finished chunks as ranges (pipelines.chunks);
# 3: and each finished part's rows and SHA-256 per arm: "parts": {"<chunk>": {"games": [rows,
#    sha256], "seats": [rows, sha256]}} (analysis.storage.part_records); format 2 reads as before.
#    Traced chunks (run --trace N, the arm's "trace": N) add "rounds" and "actions" records.
MANIFEST_FORMAT = 3
GAME_KEYS = ("experiment", "arm", "game", "n_players", "master_seed", "game_index")
SEAT_KEYS = GAME_KEYS + ("seat",)
# The traced tables' contract columns (analysis.insights.ROUNDS_COLUMNS / ACTIONS_COLUMNS; not
# imported from there: ``playtest run`` does not load the statistics stack). ``rounds`` adds
# the game's declared resources after these.
ROUNDS_COLUMNS = GAME_KEYS + ("round", "seat", "score")
ACTIONS_COLUMNS = GAME_KEYS + ("seat", "point", "kind", "legal", "chosen", "faced", "forced",
                               "no_legal", "n_options_sum")
PARQUET_OPTIONS = dict(compression="zstd", compression_level=3)


class TraceError(SpecError):
    """A game's round trace is not what the trace tables hold (its results differ from
    ``play_many``'s, or its rounds are not numbered 1..R): a bug in the game's step machine or
    ``TraceSpec``. One message (exit code 2); ``--trace 0`` runs without traces."""


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store(StoreReader):
    """Paths, reading (:class:`analysis.storage.StoreReader`) and atomic writes under one store
    root (nothing is created until written)."""

    def write_manifest(self, manifest: dict) -> Path:
        manifest["updated_at"] = now_iso()
        p = self.manifest_path(manifest["name"])
        atomic_write_bytes(p, manifest_json(manifest).encode("utf-8"))
        return p

    def check_root(self) -> None:
        """The store root is a directory, or can become one (raises StoreError)."""
        for d in (self.root, *self.root.parents):
            if d.exists():
                if not d.is_dir():
                    raise StoreError(f"--store {self.root}: {d} is not a directory")
                break

    def lock_path(self, experiment: str) -> Path:
        return self.experiments_dir / f".{experiment}.lock"

    def is_locked(self, experiment: str) -> bool:
        """True while a process holds the experiment's lock (:meth:`lock`), i.e. runs it; a
        killed run's lock is released by the OS. Probes with a shared lock, creates nothing."""
        import fcntl

        try:
            with open(self.lock_path(experiment), "rb") as f:
                try:
                    fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except BlockingIOError:
                    return True
                fcntl.flock(f, fcntl.LOCK_UN)
        except OSError:  # no lock file (nobody runs it), or no locking here
            pass
        return False

    @contextlib.contextmanager
    def lock(self, experiment: str):
        """Exclusive per-experiment lock (released by the OS if the process dies).

        Take it before reading the manifest. On the way out the lock file is removed, and so
        are the directories taken for it when they stayed empty (a run refused under the lock
        leaves the store as it was).

        Raises
        ------
        StoreError
            Another process holds the experiment's lock.
        """
        import fcntl

        made = [d for d in (self.experiments_dir, *self.experiments_dir.parents)
                if not d.exists()]
        path = self.lock_path(experiment)
        held = None
        try:
            self.experiments_dir.mkdir(parents=True, exist_ok=True)
            for _ in range(5):  # the lock file may be replaced between open and flock
                f = open(path, "a+")
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    f.close()
                    break
                if _same_file(path, f):
                    held = f
                    break
                f.close()  # locked a file its holder removed on release: take the new one
            if held is None:
                raise StoreError(f"experiment '{experiment}' is being run by another process "
                                 f"(lock {path})")
            yield
        finally:
            if held is not None:
                with contextlib.suppress(OSError):
                    path.unlink()
                held.close()
            for d in made:  # deepest first
                with contextlib.suppress(OSError):
                    d.rmdir()

    def remove_stale_manifest_temp(self, experiment: str) -> None:
        """Delete the temporary manifests a killed run of ``experiment`` left (hold its lock)."""
        if not self.experiments_dir.is_dir():
            return
        stale = re.compile(rf"\.{re.escape(experiment)}\.json\.\d+\.tmp")
        for p in self.experiments_dir.iterdir():
            if stale.fullmatch(p.name):
                with contextlib.suppress(OSError):
                    p.unlink()

    # ---- parts ------------------------------------------------------------------------
    def write_part(self, table: str, game: str, experiment: str, arm: str, chunk: int,
                   data: pa.Table) -> list:
        """Write one part atomically; return its manifest record ``[rows, sha256]``."""
        path = self.part_path(table, game, experiment, arm, chunk)
        return [data.num_rows, write_parquet_atomic(path, data)]

    def part_record(self, table: str, game: str, experiment: str, arm: str, chunk: int) -> list:
        """The manifest record ``[rows, sha256]`` of a part on disk (one written before
        format 3, once checked)."""
        path = self.part_path(table, game, experiment, arm, chunk)
        return [pq.read_metadata(path).num_rows, file_digest(path)]

    def remove_parts(self, game: str, experiment: str, arm: str, chunks) -> None:
        """Delete the parts of chunks dropped from the plan (``--replan``)."""
        for c in chunks:
            for table in TABLES:
                with contextlib.suppress(FileNotFoundError):
                    self.part_path(table, game, experiment, arm, c).unlink()

    def remove_stale_temp(self, game: str, experiment: str, arm: str) -> None:
        """Delete temporary files left by a killed run of this arm."""
        for table in TABLES:
            d = self.arm_dir(table, game, experiment, arm)
            if d.is_dir():
                for p in d.glob(".part-*.tmp"):
                    with contextlib.suppress(OSError):
                        p.unlink()


def check_out_file(out_file: str | os.PathLike, store_root: str | os.PathLike,
                   force: bool = False) -> Path:
    """Where ``playtest sql --out FILE`` may write: a new file (or, with ``force``, an existing
    regular file) in an existing directory, outside the store. Returns the resolved path.

    Raises
    ------
    sim.spec.SpecError
        Inside the store, a directory, a missing directory, or an existing file without
        ``force`` (naming the option that overwrites it).
    """
    from sim.spec import SpecError

    out_file = Path(out_file)
    target = out_file.expanduser().resolve()
    if target.is_relative_to(Path(store_root).expanduser().resolve()):
        raise SpecError(f"--out {out_file}: inside the store {store_root}; write results "
                        f"elsewhere")
    if target.is_dir():
        raise SpecError(f"--out {out_file}: is a directory; give a file name")
    if not target.parent.is_dir():
        raise SpecError(f"--out {out_file}: directory {target.parent} does not exist")
    if target.exists() and not force:
        raise SpecError(f"--out {out_file}: the file exists; give another name, or --force to "
                        f"overwrite it")
    if target.exists() and not target.is_file():
        raise SpecError(f"--out {out_file}: not a regular file")
    return target


def _same_file(path: Path, f) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(f.fileno()).st_ino
    except FileNotFoundError:
        return False


def manifest_json(manifest: dict) -> str:
    """The manifest as JSON text: one key per line, each arm on one line (the C encoder: a
    manifest of a thousand arms is rewritten after every chunk)."""
    lines = []
    for k, v in manifest.items():
        if k == "arms" and isinstance(v, list) and v:
            body = ",\n".join("    " + json.dumps(a, default=_json_default) for a in v)
            text = "[\n" + body + "\n  ]"
        else:
            text = json.dumps(v, default=_json_default)
        lines.append(f"  {json.dumps(k)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _json_default(o: Any):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, (np.bool_,)):
        return bool(o)
    if isinstance(o, (tuple, set)):
        return list(o)
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o)}")


def _fsync_dir(d: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file + fsync + :func:`os.replace`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    _fsync_dir(path.parent)


def write_parquet_atomic(path: Path, data: pa.Table) -> str:
    """Write a Parquet file under a temporary name and rename it when complete; return the
    SHA-256 of its bytes (read back from the complete file before the rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        pq.write_table(data, tmp, **PARQUET_OPTIONS)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        digest = file_digest(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    _fsync_dir(path.parent)
    return digest


# ---- result columns -> Arrow tables ------------------------------------------------------

def win_share(won: np.ndarray, n_winners: np.ndarray) -> np.ndarray:
    """A seat's share of the win (the ``win_share`` column): 1/n_winners if it won (winners
    share), else 0."""
    return np.where(won, 1.0 / np.maximum(n_winners, 1), 0.0)


def build_tables(experiment: str, arm_name: str, arm, master_seed: int, first_index: int,
                 games: np.ndarray, seats: np.ndarray) -> tuple[pa.Table, pa.Table]:
    """Kernel output arrays of one chunk -> the ``games`` and ``seats`` tables (design §4).

    Rows are in (game_index, seat) order, so part content is deterministic. The arrays are
    built by :mod:`pipelines.arrow` (``pa.array`` would import pandas).
    """
    spec = arm.spec
    n, p = games.shape[0], arm.n_players
    idx = np.arange(first_index, first_index + n, dtype=np.int64)
    reasons = spec.end_reasons
    codes = games[:, G_END_REASON]
    if n and (codes.min() < 0 or codes.max() >= len(reasons)):
        bad = int(codes[(codes < 0) | (codes >= len(reasons))][0])
        raise RuntimeError(f"{spec.id} kernel wrote end_reason {bad}; valid indices "
                           f"0..{len(reasons) - 1} ({', '.join(spec.end_reasons)})")

    common = {
        "experiment": arrow.repeat(experiment, n, pa.string()),
        "arm": arrow.repeat(arm_name, n, pa.string()),
        "game": arrow.repeat(spec.id, n, pa.string()),
        "n_players": arrow.repeat(p, n, pa.int64()),
        "variant": arrow.repeat(arm.variant, n, pa.string()),
        "master_seed": arrow.repeat(master_seed, n, pa.int64()),
        "game_index": arrow.column(idx, pa.int64()),
    }
    gcols = dict(common)
    for j, name in enumerate(spec.game_column_names):
        col = games[:, j]
        if j == G_TRUNCATED:
            gcols[name] = arrow.column(col != 0, pa.bool_())
        elif j == G_END_REASON:
            gcols[name] = arrow.strings(reasons, col)
        else:
            gcols[name] = arrow.column(col, pa.int64())
    games_tbl = pa.table(gcols)

    m = n * p
    flat = seats.reshape(m, seats.shape[2]) if m else seats.reshape(0, seats.shape[2])
    seat = np.tile(np.arange(p, dtype=np.int64), n)
    scols = {
        "experiment": arrow.repeat(experiment, m, pa.string()),
        "arm": arrow.repeat(arm_name, m, pa.string()),
        "game": arrow.repeat(spec.id, m, pa.string()),
        "n_players": arrow.repeat(p, m, pa.int64()),
        "variant": arrow.repeat(arm.variant, m, pa.string()),
        "master_seed": arrow.repeat(master_seed, m, pa.int64()),
        "game_index": arrow.column(np.repeat(idx, p), pa.int64()),
        "seat": arrow.column(seat, pa.int64()),
        "policy": arrow.strings(arm.policy_names, seat),
    }
    n_winners = np.repeat(games[:, G_N_WINNERS], p)
    for j, name in enumerate(spec.seat_column_names):
        col = flat[:, j]
        if j == S_WON:
            won = col != 0
            scols[name] = arrow.column(won, pa.bool_())
            scols["win_share"] = arrow.column(win_share(won, n_winners), pa.float64())
        else:
            scols[name] = arrow.column(col, pa.int64())
    # win_share goes right after won (design column order), game-specific stats after it.
    return games_tbl, pa.table(scols)


# ---- round traces (sim.tracing.play) -> Arrow tables --------------------------------------

def _keys(experiment: str, arm_name: str, spec_id: str, n_players: int, master_seed: int,
          game_index: np.ndarray) -> dict:
    m = game_index.size
    return {
        "experiment": arrow.repeat(experiment, m, pa.string()),
        "arm": arrow.repeat(arm_name, m, pa.string()),
        "game": arrow.repeat(spec_id, m, pa.string()),
        "n_players": arrow.repeat(n_players, m, pa.int64()),
        "master_seed": arrow.repeat(master_seed, m, pa.int64()),
        "game_index": arrow.column(game_index, pa.int64()),
    }


def build_trace_tables(experiment: str, arm_name: str, arm, master_seed: int, first_index: int,
                       n_rounds: np.ndarray, rounds: np.ndarray, kinds: np.ndarray,
                       points: np.ndarray) -> tuple[pa.Table, pa.Table]:
    """:func:`sim.tracing.play`'s arrays of games ``first_index ..`` -> the ``rounds`` and
    ``actions`` tables (``analysis.insights``' contract, design §4).

    ``rounds``: per game, round and seat (in that order) the recorded round number, ``seat``,
    ``score`` and the game's declared resources (``TraceSpec.resources``); a game longer than
    the trace buffer (``n_rounds = -1``) has no rows, and rounds not numbered 1..R raise
    :class:`TraceError`. ``actions``: per game, seat, decision
    point (by code) and option kind (in ``TraceSpec.kinds`` order), the kinds of the point that
    were legal or chosen; a point the seat faced without any such kind gets one row with
    ``kind = ""``. ``faced`` counts every decision of the point, ``forced`` those with one
    legal option and ``no_legal`` those with none (``sim.tracing``; a game whose ``Steps``
    has no ``advance_all`` records the real choices only, and both are 0).
    """
    from sim.tracing import AC_CHOSEN, AC_LEGAL, PC_FACED, PC_FORCED, PC_NO_LEGAL, \
        PC_OPTIONS, RC_LEN, RC_ROUND, RC_SCORE, RC_SEAT

    spec = arm.spec
    t = spec.trace
    p = arm.n_players
    clash = set(t.resources) & set(ROUNDS_COLUMNS)
    if clash:
        raise RuntimeError(f"{spec.id}: trace resources {sorted(clash)} clash with the rounds "
                           f"columns")
    # rounds
    mr = rounds.shape[1]
    gi, ri = np.nonzero(np.arange(mr)[None, :] < n_rounds[:, None])
    bad = (rounds[gi, ri, :, RC_ROUND] != (ri + 1)[:, None]).any(axis=1)
    if bad.any():
        g = int(gi[np.argmax(bad)])
        got = rounds[g, :n_rounds[g], 0, RC_ROUND].tolist()
        raise TraceError(
            f"{spec.id}: the trace of game {first_index + g} records rounds "
            f"{got[:12]}{' ...' if len(got) > 12 else ''}, not 1..{n_rounds[g]}: the game's "
            f"TraceSpec.round_of must count the rounds from 1 without gaps (a round in which "
            f"nobody decides anything is never seen by the trace loop); run with --trace 0 to "
            f"simulate without traces")
    rows = rounds[gi, ri].reshape(gi.size * p, rounds.shape[3])
    idx = np.repeat(first_index + gi, p).astype(np.int64)
    rc = _keys(experiment, arm_name, spec.id, p, master_seed, idx)
    for name, j in (("round", RC_ROUND), ("seat", RC_SEAT), ("score", RC_SCORE)):
        rc[name] = arrow.column(rows[:, j], pa.int64())
    for j, name in enumerate(t.resources):
        rc[name] = arrow.column(rows[:, RC_LEN + j], pa.int64())
    rounds_tbl = pa.table(rc)

    # actions: slots = (point, kind index) in point order, each point's kinds then its "" slot
    names = dict(spec.steps.points)
    kind_point = np.array([k[0] for k in t.kinds], dtype=np.int64)
    n_points = points.shape[2]
    if kind_point.size and (kind_point.min() < 0 or kind_point.max() >= n_points):
        raise RuntimeError(f"{spec.id}: TraceSpec.kinds names a decision point outside "
                           f"0..{n_points - 1}")
    slot_point, slot_kind = [], []
    for pt in range(n_points):
        for k in np.flatnonzero(kind_point == pt):
            slot_point.append(pt)
            slot_kind.append(int(k))
        slot_point.append(pt)
        slot_kind.append(-1)
    slot_point = np.array(slot_point, dtype=np.int64)
    slot_kind = np.array(slot_kind, dtype=np.int64)
    is_kind = slot_kind >= 0
    kk = np.where(is_kind, slot_kind, 0)
    if kinds.shape[2] == 0:  # no kinds declared: every faced point gets its "" row
        kinds = np.zeros(kinds.shape[:2] + (1, 2), dtype=np.int64)
    legal = np.where(is_kind, kinds[:, :, kk, AC_LEGAL], 0)         # (games, seats, slots)
    chosen = np.where(is_kind, kinds[:, :, kk, AC_CHOSEN], 0)
    faced = points[:, :, slot_point, PC_FACED]
    shown = is_kind & (faced > 0) & ((legal > 0) | (chosen > 0))
    any_kind = np.zeros(points.shape[:3], dtype=bool)                # (games, seats, points)
    for j in np.flatnonzero(is_kind):
        any_kind[:, :, slot_point[j]] |= shown[:, :, j]
    shown |= ~is_kind & (faced > 0) & ~any_kind[:, :, slot_point]
    g, s, sl = np.nonzero(shown)
    ac = _keys(experiment, arm_name, spec.id, p, master_seed,
               (first_index + g).astype(np.int64))
    ac["seat"] = arrow.column(s, pa.int64())
    point_names = [names.get(pt, f"point {pt}") for pt in range(n_points)]
    ac["point"] = arrow.strings(point_names, slot_point[sl])
    ac["kind"] = arrow.strings([k[1] for k in t.kinds] + [""],
                               np.where(slot_kind[sl] >= 0, slot_kind[sl], len(t.kinds)))
    ac["legal"] = arrow.column(legal[g, s, sl], pa.int64())
    ac["chosen"] = arrow.column(chosen[g, s, sl], pa.int64())
    ac["faced"] = arrow.column(faced[g, s, sl], pa.int64())
    ac["forced"] = arrow.column(points[g, s, slot_point[sl], PC_FORCED], pa.int64())
    ac["no_legal"] = arrow.column(points[g, s, slot_point[sl], PC_NO_LEGAL], pa.int64())
    ac["n_options_sum"] = arrow.column(points[g, s, slot_point[sl], PC_OPTIONS], pa.int64())
    return rounds_tbl, pa.table(ac)
