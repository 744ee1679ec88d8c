"""Run an experiment into the store: plan chunks, simulate the missing ones, write them.

Order of work (so that bad input writes nothing and a killed run resumes):

1. The :class:`~pipelines.experiment.Experiment` is already fully validated (every arm went
   through ``sim.batch.make_arm``). Here the executor options are checked, the experiment's lock
   is taken, and then the stored manifest (if any) is read and checked under it — a manifest
   with a different seed or other results-defining settings is an error, never mixed, and no
   other run can write the experiment until this one ends. A refused run leaves the store as it
   was.
2. Every finished chunk's parts are checked (digest, footer, rows, game-index range:
   :meth:`~analysis.storage.StoreReader.check_chunk`); a wrong one is simulated again. The chunk
   plan is fixed in the manifest (``status = "running"``), then each missing chunk is simulated
   (a pure function of arm + game-index range, see :func:`simulate_chunk`) and its two parts
   written atomically; the manifest lists the chunk as finished, with each part's rows and
   SHA-256, right after. Before the first chunk, :func:`load_kernels` compiles or loads each
   game's kernel under a status line.
3. ``status = "complete"`` when every planned chunk is finished.

Round traces (``run --trace N``, :data:`analysis.storage.TRACE_TABLES`): the first N games of
every arm are also played through :func:`sim.tracing.play`, and a chunk holding some of them
writes a ``rounds`` and an ``actions`` part beside its ``games`` and ``seats`` parts. The result
rows still come from ``play_many`` (the trace loop's rows must be equal, or the run stops: see
:func:`play_chunk`); the trace parts are recorded with the chunk, so a killed run never has a
chunk with half its traces. N is recorded per arm (``"trace"``), not part of the experiment's
identity (:mod:`pipelines.experiment`): it only grows. A run asking for more traced games than
recorded traces the finished chunks that lack them (without playing their results again); one
asking for fewer (``--trace 0`` too) keeps the traces there are. A game that declares no trace
(``GameSpec.trace``) and an arm with search seats (the trace loop plays the seats' own
policies, not a search) record none; asked for explicitly, the run says so in a note. Chunks
past N do no extra work.

A failing executor (a lost Dask scheduler or worker) is an :class:`ExecutorError`, a failing
store write a :class:`~analysis.storage.StoreError` saying what to free or fix; either way the
finished chunks are in the store and the same command resumes.

Chunks are game-index ranges. A new experiment's chunk ``c`` covers
``[c * chunk_size, min((c + 1) * chunk_size, n))``. Growing an experiment (a larger ``--games``)
appends chunks after the last planned one; earlier chunks and their files are never touched.
Every game's result depends only on ``(rules, policies, components, master_seed, game_index)``,
so the data is identical for any worker count, chunk size or executor.
"""
from __future__ import annotations

import concurrent.futures
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from analysis.storage import GAME_TABLES, TRACE_TABLES, StoreError, part_records, trace_stop
from analysis.words import count, plural
from sim.spec import SpecError

from . import settings
from . import chunks
from .experiment import Experiment, ResolvedArm, added_at_default, check_chunk_size, comparable
from .store import MANIFEST_FORMAT, Store, TraceError, build_tables, build_trace_tables, now_iso

EXECUTORS = ("local", "dask")


class ExecutorError(SpecError):
    """The executor failed while simulating (a lost Dask scheduler or worker...), not the
    store: one message (exit code 2, like a ``--scheduler`` that cannot be reached); the
    finished chunks are in the store and the same command resumes."""


@dataclass(frozen=True)
class ChunkTask:
    """Everything needed to simulate one chunk (picklable, for remote executors)."""

    arm_name: str
    chunk: int
    start: int
    stop: int
    master_seed: int
    game: str
    n_players: int
    variant: str
    rule_values: dict
    policies: tuple
    components: Any  # sim.spec.Components (data travels with the task)
    kernel_counts: tuple = ()  # sim.batch.Arm.kernel_counts
    # games start .. trace_stop - 1 are traced too (none when trace_stop <= start)
    trace_stop: int = 0
    # False: a finished chunk that only lacks its traces (its games/seats parts are kept)
    results: bool = True

    @property
    def n(self) -> int:
        return self.stop - self.start

    @property
    def n_traced(self) -> int:
        return max(0, min(self.trace_stop, self.stop) - self.start)

    @property
    def work(self) -> int:
        """Games this task plays (for the progress bar)."""
        return self.n if self.results else self.n_traced


#: What a chunk task gives: (games, seats) result arrays (None for a trace-only task) and the
#: trace arrays ``(n_rounds, rounds, kinds, points)`` of its traced games (None: none traced).
ChunkOutput = tuple


def can_trace(arm) -> bool:
    """Whether the games of ``arm`` (:class:`sim.batch.Arm`) can be traced: its game declares a
    trace and no seat plays a search (the trace loop plays the seats' own policies)."""
    from sim.search import uses_search

    return arm.spec.trace is not None and arm.spec.steps is not None and not uses_search(arm)


#: A local chunk is played in sub-batches of about this many seconds each (the progress bar
#: moves after each, so a slow arm's bar and ETA move every second or two, not once per chunk).
SUB_BATCH_S = 1.0


def play_results(arm, task: ChunkTask, played: Callable[[int], None] | None = None,
                 batch: int | None = None, clock: Callable[[], float] = time.perf_counter):
    """``run_games`` over the task's games, in sub-batches when ``played`` is given (called
    with each sub-batch's game count): ``batch`` games each, or (``batch`` None) a size
    grown from one game per thread so that a sub-batch takes about :data:`SUB_BATCH_S`.
    Every game is a pure function of (seed, index): the rows are the same however the
    chunk is cut (``batch=0``: in one piece)."""
    from sim.batch import run_games

    if played is None or batch == 0 or task.n <= 1:
        out = run_games(arm, task.master_seed, task.start, task.n)
        if played is not None:
            played(task.n)
        return out
    import numba

    threads = max(1, numba.get_num_threads())
    size = batch or threads
    gs, ss = [], []
    pos = task.start
    while pos < task.stop:
        k = min(size, task.stop - pos)
        t0 = clock()
        g, s = run_games(arm, task.master_seed, pos, k)
        took = clock() - t0
        gs.append(g)
        ss.append(s)
        pos += k
        played(k)
        if not batch:  # grow at most 8-fold a step, towards SUB_BATCH_S a sub-batch
            fit = int(k * SUB_BATCH_S / took) if took > 0 else 8 * k
            size = max(threads, min(8 * k, fit))
    if len(gs) == 1:
        return gs[0], ss[0]
    return np.concatenate(gs), np.concatenate(ss)


def play_chunk(arm, task: ChunkTask, played: Callable[[int], None] | None = None,
               batch: int | None = None) -> ChunkOutput:
    """Pure function of (arm, game-index range): the kernel output arrays of one chunk, and
    the traces of its games below ``task.trace_stop``. ``played``/``batch``: the result games
    in sub-batches, ``played(n)`` after each (:func:`play_results`; the same rows).

    The traced games are played again by :func:`sim.tracing.play`; its result rows must equal
    ``play_many``'s (for a trace-only task, ``play_many`` plays the traced games again to
    compare), else :class:`TraceError`: the game's step machine and kernel disagree, and
    traces of other games than the stored ones are never written.
    """
    from sim.batch import run_games

    g = s = tr = None
    if task.results:
        g, s = play_results(arm, task, played, batch)
    k = task.n_traced
    if k:
        from sim import tracing

        tg, ts, *tr = tracing.play(arm, task.master_seed, task.start, k)
        if g is not None:
            rg, rs = g[:k], s[:k]
        else:
            rg, rs = run_games(arm, task.master_seed, task.start, k)
        if not (np.array_equal(tg, rg) and np.array_equal(ts, rs)):
            bad = int(np.flatnonzero((tg != rg).any(axis=1) | (ts != rs).any(axis=(1, 2)))[0])
            raise TraceError(
                f"{arm.spec.id}: the traced game {task.start + bad} (seed {task.master_seed}) "
                f"ended otherwise than play_many's: the game's step machine and kernel "
                f"disagree (a bug in the game); run with --trace 0 to simulate without traces")
        tr = tuple(tr)
    return g, s, tr


def simulate_chunk(task: ChunkTask, threads: int | None = None) -> ChunkOutput:
    """Pure function of (arm, game-index range): :func:`play_chunk` of a task (remote
    executors: the arm is rebuilt from the task)."""
    import importlib

    from sim.batch import Arm

    if threads is not None:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    spec = importlib.import_module("sim.registry").make(task.game)
    arm = Arm(spec, task.n_players, task.variant, dict(task.rule_values), task.components,
              tuple(task.policies), tuple(task.kernel_counts))
    return play_chunk(arm, task)


def make_task(ra: ResolvedArm, chunk: int, start: int, stop: int, seed: int,
              trace_stop: int = 0, results: bool = True) -> ChunkTask:
    a = ra.arm
    return ChunkTask(ra.name, chunk, start, stop, seed, a.spec.id, a.n_players, a.variant,
                     dict(a.rule_values), tuple(a.policies), a.components, a.kernel_counts,
                     trace_stop, results)


def share_kernels(arms: Iterable[ResolvedArm]) -> dict[str, ResolvedArm]:
    """The arms by name, each to be played by a kernel compiled for every player count its
    game has in the run (``sim.batch.Arm.kernel_counts``): a Flower Shop run of 1-4 players
    compiles one kernel, not a solo and a multiplayer one."""
    counts: dict[str, set] = {}
    for ra in arms:
        counts.setdefault(ra.arm.spec.id, set()).add(ra.arm.n_players)
    return {ra.name: replace(ra, arm=replace(ra.arm, kernel_counts=tuple(sorted(counts[ra.game]))))
            for ra in arms}


# ---- planning ----------------------------------------------------------------------------

def _differences(old: dict, new: dict) -> list[str]:
    new = added_at_default(old, new)
    a, b = comparable(old), comparable(new)
    out = []
    for k in a:
        if a[k] != b[k]:
            if k == "rule_values":
                keys = sorted(set(a[k] or {}) | set(b[k] or {}))
                diff = [f"{x}: {a[k].get(x)!r} -> {b[k].get(x)!r}" for x in keys
                        if (a[k] or {}).get(x) != (b[k] or {}).get(x)]
                out.append("rule values (" + "; ".join(diff[:5]) + ")")
            elif k == "components":
                out.append(f"component data ({a[k]} -> {b[k]})")
            else:
                out.append(f"{k} ({a[k]!r} -> {b[k]!r})")
    return out


def _check_plan(exp: Experiment, entry: dict, ra: ResolvedArm, chunk_size: int,
                chunk_size_given: bool, replan: bool) -> tuple[list[dict], set[int], list[int]]:
    """The arm's new chunk plan (and finished chunks, and chunks to delete) for this run.

    Growing (more games) appends chunks. A plan that would change otherwise is refused unless
    ``replan``: fewer games than an unfinished plan (it would silently go on simulating the
    larger one), or another ``--chunk-size`` for chunks not yet finished.
    """
    plan, finished = chunks.read_arm(entry)
    planned = chunks.planned_games(plan)
    open_sizes = {seg["size"] for seg in plan  # chunk sizes of segments with unfinished chunks
                  if any(c not in finished for c, _, _ in chunks.expand([seg]))}
    unfinished = bool(open_sizes)
    smaller = ra.n_games < planned
    other_size = chunk_size_given and unfinished and chunk_size not in open_sizes
    if replan and (smaller or other_size):
        return chunks.replan(plan, finished, ra.n_games, chunk_size)
    if unfinished and (smaller or other_size):
        done = sum(b - a for c, a, b in chunks.expand(plan) if c in finished)
        what = (f"{planned:,} games per arm, not {ra.n_games:,}" if smaller else
                f"chunks of {max(open_sizes):,} games, not {chunk_size:,}")
        raise StoreError(
            f"experiment '{exp.name}' arm '{ra.name}' was planned with {what} "
            f"({done:,} games finished). Run it with the earlier --games/--chunk-size to "
            f"finish it, or add --replan to re-plan it (finished chunks within the new size are "
            f"kept, the rest is dropped)")
    return chunks.extend(plan, ra.n_games, chunk_size), finished, []


def _check_size(exp: Experiment, name: str, plan: list[dict]) -> None:
    n = chunks.count(plan)
    if n > settings.MAX_CHUNKS:
        raise SpecError(f"experiment '{exp.name}' arm '{name}': {n:,} chunks is above the limit "
                        f"of {settings.MAX_CHUNKS:,} chunks per arm; use a larger --chunk-size")


def build_manifest(exp: Experiment, old: dict | None, chunk_size: int,
                   chunk_size_given: bool = False, replan: bool = False
                   ) -> tuple[dict, list[str], dict[str, list[int]]]:
    """The manifest for this run (pure: nothing is written).

    Returns (manifest, notes, chunks to delete per arm (``--replan``)).
    """
    notes: list[str] = []
    drop: dict[str, list[int]] = {}
    if old is not None:
        if old.get("master_seed") != exp.seed:
            raise StoreError(
                f"experiment '{exp.name}' already exists with seed {old.get('master_seed')}, "
                f"not {exp.seed}; use another --experiment name (or the same seed)")
        old_arms = {a["name"]: a for a in old.get("arms", [])}
        for ra in exp.arms:
            if ra.name in old_arms:
                diff = _differences(old_arms[ra.name], ra.definition())
                if diff:
                    raise StoreError(
                        f"experiment '{exp.name}' arm '{ra.name}' was run with different "
                        f"settings: {'; '.join(diff)}. Results are never mixed: use another "
                        f"--experiment name, or move {Store('.').manifest_path(exp.name).name} "
                        f"and its results away")
        manifest = {k: v for k, v in old.items()}
        arms = [dict(a) for a in old.get("arms", [])]
        missing = [a["name"] for a in arms if a["name"] not in {r.name for r in exp.arms}]
        if missing:
            notes.append(f"arms kept from earlier runs, not run now: {', '.join(missing)}")
    else:
        manifest = {"name": exp.name, "created_at": now_iso()}
        arms = []
    by_name = {a["name"]: a for a in arms}
    untraceable: dict[str, list[str]] = {}
    for ra in exp.arms:
        entry = by_name.get(ra.name)
        if entry is None:
            entry = {"name": ra.name, **ra.definition(), "n_games": 0, "chunks": [],
                     "finished": []}
            arms.append(entry)
            by_name[ra.name] = entry
        else:
            entry.update({k: v for k, v in ra.definition().items()
                          if k in ("tweaks", "policies", "components")})
        if ra.games_from:  # an --also-games/--budget count: kept by later runs
            entry["games_from"] = dict(ra.games_from)
        _check_size(exp, ra.name, chunks.read_arm(entry)[0])
        plan, finished, dropped = _check_plan(exp, entry, ra, arm_chunk_size(ra, chunk_size,
                                                                         chunk_size_given),
                                              chunk_size_given, replan)
        _check_size(exp, ra.name, plan)
        if dropped:
            drop[ra.name] = dropped
            notes.append(f"arm {ra.name}: re-planned to {ra.n_games:,} games "
                         f"({count(len(dropped), 'chunk')} dropped)")
        elif ra.n_games < chunks.planned_games(plan):
            notes.append(f"arm {ra.name}: already has {entry['n_games']:,} games "
                         f"(more than the {ra.n_games:,} asked); nothing removed")
        entry["chunks"] = plan
        entry["finished"] = chunks.to_ranges(finished)
        entry.pop("finished_chunks", None)
        entry["parts"] = {c: dict(r) for c, r in (entry.get("parts") or {}).items()
                          if int(c) in finished}
        entry["n_games"] = chunks.planned_games(plan)
        _plan_traces(exp, ra, entry, notes, untraceable)
    for game, names in untraceable.items():
        notes.append(f"{game} declares no round trace yet (GameSpec.trace): --trace records "
                     f"no rounds/actions for {plural(len(names), 'arm')} {', '.join(names)}")
    code = settings.code_version()
    manifest.update({
        "format": MANIFEST_FORMAT,
        "status": "running",
        "master_seed": exp.seed,
        "n_games": max(a["n_games"] for a in arms),
        "chunk_size": chunk_size,
        "game_versions": {a["game"]: a["game_version"] for a in arms},
        "code_version": code,
        "code_versions": sorted(set(manifest.get("code_versions", [])) | {code}),
        "spec": _spec_with_kept_pairs(exp.source, old, missing) if old is not None
        else exp.source,
        "content_hash": exp.content_hash(),
        "arms": arms,
    })
    manifest["finished_chunks"] = _finished(manifest)
    return manifest, notes, drop


def _spec_with_kept_pairs(source, old: dict, kept: list[str]):
    """The manifest's ``spec`` for this run: ``source``, plus the compared pairs of the old
    spec whose arms are kept from earlier runs without being run now (``compare`` without the
    ``--also-policy`` an earlier run had: its pairs stay in the store, so they stay in the
    report), with their also-policies."""
    old_spec = old.get("spec")
    if not kept or not isinstance(source, dict) or not isinstance(old_spec, dict) \
            or "pairs" not in source:
        return source
    kept_set = set(kept)
    have = {(p.get("baseline"), p.get("tweak")) for p in source.get("pairs") or []}
    more = [p for p in old_spec.get("pairs") or [] if isinstance(p, dict)
            and {p.get("baseline"), p.get("tweak")} <= kept_set
            and (p.get("baseline"), p.get("tweak")) not in have]
    if not more:
        return source
    spec = {**source, "pairs": list(source["pairs"]) + more}
    pols = list(source.get("also_policy") or [])
    pols += [p for p in old_spec.get("also_policy") or [] if p not in pols]
    if pols:
        spec["also_policy"] = pols
    return spec


def _plan_traces(exp: Experiment, ra: ResolvedArm, entry: dict, notes: list[str],
                 untraceable: dict[str, list[str]]) -> None:
    """Set the arm's traced games (``entry["trace"]``): the recorded N, grown to the asked one
    when the arm can be traced, never shrunk. A finished chunk whose traced range grows loses
    its trace records here (its parts are traced again, whole, by this run), so a recorded
    trace part always holds the chunk's games below the arm's N."""
    old = entry.get("trace", 0)
    old = old if isinstance(old, int) and not isinstance(old, bool) and old >= 0 else 0
    asked = exp.trace
    if asked and not can_trace(ra.arm):
        if exp.trace_given:
            if ra.arm.spec.trace is None or ra.arm.spec.steps is None:
                untraceable.setdefault(ra.game, []).append(ra.name)
            else:
                notes.append(f"arm {ra.name}: plays search seats, which the trace loop cannot "
                             f"play; --trace records no rounds/actions for it")
        asked = 0
    new = max(old, asked)
    if exp.trace_given and exp.trace < old:
        notes.append(f"arm {ra.name}: already has round traces of the first {old:,} games "
                     f"(more than the {exp.trace:,} asked); nothing removed")
    if new != old:
        parts = entry.get("parts") or {}
        for c, start, stop in chunks.expand(entry["chunks"]):
            rec = parts.get(str(c))
            if rec and trace_stop({"trace": old}, start, stop) != trace_stop({"trace": new},
                                                                             start, stop):
                for t in TRACE_TABLES:
                    rec.pop(t, None)
    entry["trace"] = new


def arm_chunk_size(ra: ResolvedArm, chunk_size: int, given: bool) -> int:
    """Games per chunk of one arm: the run's, except that an arm with search seats takes at
    most ``settings.SEARCH_CHUNK_SIZE`` unless ``--chunk-size`` was given."""
    from sim.search import uses_search
    if given or not uses_search(ra.arm):
        return chunk_size
    return min(chunk_size, settings.SEARCH_CHUNK_SIZE)


def _finished(manifest: dict) -> dict:
    """Finished chunk ranges per arm (top-level summary; the arms hold the authoritative ones)."""
    return {a["name"]: a["finished"] for a in manifest["arms"]}


# ---- executors ---------------------------------------------------------------------------

class LocalExecutor:
    """Chunks one after another; numba threads inside each chunk. ``sub_batch``: a chunk's
    games in sub-batches (:func:`play_results`; None: sized to about a second each, 0: the
    whole chunk at once), so the progress bar moves within a chunk."""

    name = "local"

    def __init__(self, workers: int, sub_batch: int | None = None):
        import numba

        self.workers = max(1, min(workers, numba.config.NUMBA_NUM_THREADS))
        self.sub_batch = sub_batch
        numba.set_num_threads(self.workers)

    def map(self, tasks: list[ChunkTask], arms: dict[str, ResolvedArm],
            started: Callable[[ChunkTask], None] | None = None,
            played: Callable[[int], None] | None = None
            ) -> Iterator[tuple[ChunkTask, ChunkOutput]]:
        """Each task's output; ``started(task)`` before a task plays, ``played(n)`` after each
        sub-batch of its games."""
        for t in tasks:
            if started is not None:
                started(t)
            yield t, play_chunk(arms[t.arm_name].arm, t, played, self.sub_batch)

    def close(self):
        pass


class DaskExecutor:
    """Chunks as tasks on a Dask cluster (``scheduler`` address, or a LocalCluster)."""

    name = "dask"

    def __init__(self, workers: int, scheduler: str | None = None, processes: bool = True):
        from distributed import Client, LocalCluster

        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="15s")
            except (OSError, TimeoutError) as e:
                raise StoreError(f"--scheduler {scheduler}: cannot connect ({e})") from None
            self.threads = None
        else:
            self.cluster = LocalCluster(n_workers=workers if processes else 1,
                                        threads_per_worker=1, processes=processes,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
            # One numba thread per single-threaded worker process; in-process: all workers.
            self.threads = 1 if processes else workers
        self.window = 2 * max(1, len(self.client.scheduler_info().get("workers", {})) or workers)

    def map(self, tasks: list[ChunkTask], arms: dict[str, ResolvedArm], started=None,
            played=None):
        """Each task's output as it completes (several play at once on the cluster: the bar
        moves per chunk and keeps the experiment's label)."""
        from distributed import as_completed

        pending = list(tasks)[::-1]
        futures = as_completed()
        by_key = {}

        def submit():
            t = pending.pop()
            f = self.client.submit(simulate_chunk, t, self.threads, pure=False)
            by_key[f.key] = t
            futures.add(f)

        for _ in range(min(self.window, len(pending))):
            submit()
        for f in futures:
            res = f.result()
            t = by_key.pop(f.key)
            if pending:
                submit()
            yield t, res

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


# ---- progress ----------------------------------------------------------------------------

class GameProgress:
    """A progress bar over games (games/s, ETA) on stderr; nothing when ``quiet``."""

    def __init__(self, total: int, quiet: bool, label: str):
        self.p = None
        if quiet or total <= 0:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                                   TextColumn, TimeElapsedColumn, TimeRemainingColumn)
        from rich.text import Text

        class Speed(ProgressColumn):
            def render(self, task):
                s = task.finished_speed or task.speed
                return Text(f"{s:,.0f} games/s" if s else "… games/s", style="cyan")

        self.p = Progress(TextColumn("{task.description}", style="bold", markup=False),
                          BarColumn(),
                          MofNCompleteColumn(), Speed(), TimeElapsedColumn(), TextColumn("ETA"),
                          TimeRemainingColumn(), console=Console(stderr=True),
                          transient=False)
        self.p.start()
        self.task = self.p.add_task(label, total=total)

    def advance(self, n: int):
        if self.p and n:
            self.p.advance(self.task, n)

    def describe(self, label: str):
        """Name what plays now (an arm's label)."""
        if self.p:
            self.p.update(self.task, description=label)

    def close(self):
        if self.p:
            self.p.stop()


# A kernel that takes longer than this to load was compiled (first run on this machine).
COMPILE_NOTE_S = 5.0


def load_kernels(arms: Iterable, quiet: bool, traced: Iterable = ()) -> float:
    """Compile or load the kernel of each game of ``arms`` (:class:`sim.batch.Arm`) with a
    one-game warm-up, before the progress bar; and the trace loop (:mod:`sim.tracing`) of each
    game of ``traced``.

    Numba compiles a kernel on its first use on a machine (15-30 s) and caches it: later
    processes load it in about a second. Doing it here, under a status line, tells a first run
    why it waits, and keeps compile time out of the bar's games/s and ETA. Nothing is written.

    Returns
    -------
    float, seconds spent (all games).
    """
    from rich.console import Console

    from sim.batch import first_call, run_games
    from sim.search import uses_search

    console = Console(stderr=True, quiet=quiet)
    one_arm = {}  # every arm of a game runs the same compiled kernel (or its search loop):
    for arm in arms:  # the runner's arms share it (share_kernels), tune's have one count
        one_arm.setdefault((arm.spec.id, uses_search(arm)), arm)
    total = 0.0
    for (game, _), arm in one_arm.items():
        t0 = time.perf_counter()
        with console.status(f"Loading the {game} kernel (a first run on this machine "
                            "compiles it: 15-30 s, then it is cached)"):
            first_call(run_games, arm, 0, 0, 1)
        took = time.perf_counter() - t0
        total += took
        if took > COMPILE_NOTE_S:
            console.print(f"{game}: kernel compiled in {took:.0f} s "
                          "(cached: later runs load it in about a second)")
    one_traced = {}
    for arm in traced:
        one_traced.setdefault(arm.spec.id, arm)
    for game, arm in one_traced.items():
        from sim import tracing

        t0 = time.perf_counter()
        with console.status(f"Loading the {game} trace loop (a first run on this machine "
                            "compiles it, then it is cached)"):
            first_call(tracing.play, arm, 0, 0, 1)
        took = time.perf_counter() - t0
        total += took
        if took > COMPILE_NOTE_S:
            console.print(f"{game}: trace loop compiled in {took:.0f} s "
                          "(cached: later runs load it in about a second)")
    return total


# ---- run ---------------------------------------------------------------------------------

@dataclass
class RunResult:
    experiment: str
    store: Path
    manifest_path: Path
    arms: list[str]
    total_games: int  # games in the experiment after this run (all arms)
    simulated: int  # games simulated by this run
    chunks_done: int
    chunks_skipped: int
    elapsed: float
    executor: str
    workers: int
    notes: list[str] = field(default_factory=list)
    kernel_load_s: float = 0.0  # compiling or loading the kernels (part of elapsed)
    traced: int = 0  # games traced by this run (rounds/actions written)
    trace: dict = field(default_factory=dict)  # arm -> its traced leading games (manifest)

    @property
    def games_per_s(self) -> float:
        """Simulation speed: games per second of the run without the kernel load."""
        t = self.elapsed - self.kernel_load_s
        return self.simulated / t if t > 0 else 0.0


def check_run_options(workers: int | None, executor: str, scheduler: str | None) -> int:
    if executor not in EXECUTORS:
        raise SpecError(f"--executor: unknown executor '{executor}'; valid: {', '.join(EXECUTORS)}")
    if scheduler and executor != "dask":
        raise SpecError("--scheduler needs --executor dask")
    if workers is None:
        return settings.default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SpecError(f"--workers: must be a positive integer, got {workers!r}")
    return workers


def run(exp: Experiment, store_root: str | Path | None = None, *, workers: int | None = None,
        executor: str = "local", scheduler: str | None = None, quiet: bool = False,
        dask_processes: bool = True, replan: bool = False,
        after_chunk: Callable[[str, int], None] | None = None,
        sub_batch: int | None = None) -> RunResult:
    """Run (or resume, or grow) ``exp`` into the store. See the module docstring.

    Finished chunks whose parts are missing or damaged (:meth:`Store.check_chunk`) are simulated
    again, with a note. ``replan`` applies a changed plan (see :func:`_check_plan`).
    ``after_chunk(arm, chunk)`` is called once a chunk is recorded (tests inject failures here).
    ``sub_batch``: games per sub-batch of a local chunk (:class:`LocalExecutor`; the rows are
    the same for any value).
    """
    t0 = time.perf_counter()
    workers = check_run_options(workers, executor, scheduler)
    if exp.chunk_size is not None:
        check_chunk_size(exp.chunk_size)
    store = Store(settings.store_root(store_root))
    store.check_root()
    try:
        with store.lock(exp.name):  # before the manifest is read: nobody changes it meanwhile
            old = store.read_manifest(exp.name)
            chunk_size = (exp.chunk_size or (old or {}).get("chunk_size")
                          or settings.DEFAULT_CHUNK_SIZE)
            check_chunk_size(chunk_size)
            # raises before anything is written (the lock leaves nothing behind)
            manifest, notes, drop = build_manifest(exp, old, chunk_size,
                                                   exp.chunk_size is not None, replan)
            return _run_into(exp, store, manifest, notes, drop, workers, executor, scheduler,
                             quiet, dask_processes, after_chunk, t0, sub_batch)
    except OSError as e:
        raise _write_error(store, e) from None


def _write_error(store: Store, e: OSError) -> StoreError:
    """A failed write (read-only store, disk full...) as one message (exit code 2)."""
    import errno

    what = f"{e.filename}: {e.strerror}" if e.filename else (e.strerror or str(e))
    hint = ("free some space, then run the same command again to resume"
            if e.errno == errno.ENOSPC else
            "check the store's permissions or pick another --store; a re-run resumes")
    return StoreError(f"cannot write to the store {store.root} ({what}); {hint}")


def _run_into(exp, store, manifest, notes, drop, workers, executor, scheduler, quiet,
              dask_processes, after_chunk, t0, sub_batch=None) -> RunResult:
    """The writing part of :func:`run` (the caller holds the experiment's lock)."""
    arms = share_kernels(exp.arms)
    simulated = 0
    load_s = 0.0
    store.remove_stale_manifest_temp(exp.name)
    for ra in exp.arms:
        store.remove_stale_temp(ra.game, exp.name, ra.name)
        store.remove_parts(ra.game, exp.name, ra.name, drop.get(ra.name, ()))
    tasks, skipped = _tasks(exp, manifest, store, arms, notes)
    mpath = store.write_manifest(manifest)
    entries = {a["name"]: a for a in manifest["arms"]}
    traced = 0
    if tasks:
        if executor == "local":
            load_s = load_kernels((arms[t.arm_name].arm for t in tasks if t.results), quiet,
                                  (arms[t.arm_name].arm for t in tasks if t.n_traced))
        ex = (LocalExecutor(workers, sub_batch) if executor == "local"
              else DaskExecutor(workers, scheduler, processes=dask_processes))
        total = sum(t.work for t in tasks)
        local = executor == "local"
        # locally, the bar names the arm that plays (rattlebones 2p search) and moves per
        # sub-batch of games; on a cluster, several arms play at once: the experiment's label
        bar = GameProgress(total, quiet, arms[tasks[0].arm_name].label() if local
                           else exp.label())
        reported = [0]  # games of the current task already on the bar

        def started(t):
            reported[0] = 0
            bar.describe(arms[t.arm_name].label())

        def played(n):
            reported[0] += n
            bar.advance(n)

        saver = _ManifestSaver(store, manifest)
        try:
            for t, (g, s, tr) in _executed(ex, tasks, arms, started if local else None,
                                           played if local else None):
                ra = arms[t.arm_name]
                e = entries[t.arm_name]
                # a trace-only task adds to the chunk's record; a simulated chunk starts anew
                rec = dict(e.get("parts", {}).get(str(t.chunk), {})) if not t.results else {}
                if g is not None:
                    gt, st = build_tables(exp.name, ra.name, ra.arm, exp.seed, t.start, g, s)
                    for name, tbl in (("games", gt), ("seats", st)):
                        rec[name] = store.write_part(name, ra.game, exp.name, ra.name, t.chunk,
                                                     tbl)
                if tr is not None:
                    for name, tbl in zip(TRACE_TABLES, build_trace_tables(
                            exp.name, ra.name, ra.arm, exp.seed, t.start, *tr)):
                        rec[name] = store.write_part(name, ra.game, exp.name, ra.name, t.chunk,
                                                     tbl)
                    traced += t.n_traced
                e.setdefault("parts", {})[str(t.chunk)] = rec  # the chunk's parts, all at once
                e["finished"] = chunks.to_ranges(chunks.from_ranges(e["finished"]) | {t.chunk})
                saver.chunk_done()
                simulated += t.n if t.results else 0
                bar.advance(max(0, t.work - (reported[0] if local else 0)))
                reported[0] = 0
                if after_chunk is not None:
                    after_chunk(t.arm_name, t.chunk)
        finally:
            if local:
                bar.describe(exp.label())  # what the finished bar stands for: every arm
            bar.close()
            ex.close()
            saver.flush()  # chunks finished before a failure stay recorded
    manifest["finished_chunks"] = _finished(manifest)
    complete = all(len(chunks.from_ranges(a["finished"])) == chunks.count(a["chunks"])
                   for a in manifest["arms"])
    manifest["status"] = "complete" if complete else "partial"  # "running" = under way or killed
    manifest["finished_at"] = now_iso() if complete else None
    store.write_manifest(manifest)
    total_games = sum(a["n_games"] for a in manifest["arms"] if a["name"] in arms)
    return RunResult(exp.name, store.root, mpath, list(arms), total_games, simulated,
                     sum(t.results for t in tasks), skipped, time.perf_counter() - t0, executor,
                     workers, notes, load_s, traced,
                     {a["name"]: a.get("trace", 0) for a in manifest["arms"] if a["name"] in arms})


class _ManifestSaver:
    """Writes the manifest after each finished chunk; once it is large (a study of many arms,
    thousands of chunks) at most as often as keeps its writing under about a tenth of the run,
    so the run stays linear in its chunks. :meth:`flush` writes what is pending (at the end,
    and when the run stops on an error); a chunk written but not yet recorded when the process
    is killed is simulated again on resume, with the same content."""

    SMALL = 256 * 1024  # bytes: always written right away

    def __init__(self, store: Store, manifest: dict):
        self.store, self.manifest = store, manifest
        self.pending = False
        self.cost = 0.0  # seconds the last write took
        self.last = time.perf_counter()
        self.size = 0

    def chunk_done(self) -> None:
        self.pending = True
        if self.size < self.SMALL or time.perf_counter() - self.last >= 10 * self.cost:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        t = time.perf_counter()
        self.manifest["finished_chunks"] = _finished(self.manifest)
        path = self.store.write_manifest(self.manifest)
        self.pending = False
        self.last = time.perf_counter()
        self.cost = self.last - t
        try:
            self.size = path.stat().st_size
        except OSError:
            self.size = 0


# What a failing executor raises (distributed: CommClosedError is an OSError, a lost
# scheduler cancels the futures, a worker that keeps dying kills the task).
_EXECUTOR_FAILURES = (OSError, TimeoutError, concurrent.futures.CancelledError)
_EXECUTOR_FAILURE_NAMES = ("KilledWorker", "CommClosedError", "FutureCancelledError")


def _executed(ex, tasks: list[ChunkTask], arms: dict[str, ResolvedArm], started=None,
              played=None):
    """``ex.map(tasks, arms, started, played)``, with a failure of the executor itself (not of
    a store write, which happens between two results) raised as :class:`ExecutorError`."""
    it = iter(ex.map(tasks, arms, started, played))
    while True:
        try:
            item = next(it)
        except StopIteration:
            return
        except Exception as e:
            if isinstance(e, _EXECUTOR_FAILURES) or type(e).__name__ in _EXECUTOR_FAILURE_NAMES:
                what = str(e).strip().splitlines()[0] if str(e).strip() else "no message"
                raise ExecutorError(
                    f"the {ex.name} executor failed while simulating ({type(e).__name__}: "
                    f"{what}); the store is fine and holds every chunk finished so far: run "
                    f"the same command again to resume") from None
            raise
        yield item


def _tasks(exp: Experiment, manifest: dict, store: Store, arms: dict[str, ResolvedArm],
           notes: list[str]) -> tuple[list[ChunkTask], int]:
    """The chunks to simulate: unfinished ones, and finished ones whose parts are not the right
    ones (missing, damaged, another digest, rows or game-index range: taken off the finished
    list, with a note). A part recorded before format 3 is read in full, then gets its record
    (rows, SHA-256). Returns (tasks, chunks skipped)."""
    tasks: list[ChunkTask] = []
    skipped = 0
    added = 0  # finished chunks that get their traces now
    for entry in manifest["arms"]:
        ra = arms.get(entry["name"])
        if ra is None:
            continue
        done = chunks.from_ranges(entry["finished"])
        records = part_records(entry)
        parts = entry.setdefault("parts", {})
        traceable = can_trace(ra.arm)
        for c, start, stop in chunks.expand(entry["chunks"]):
            tstop = trace_stop(entry, start, stop) if traceable else start
            if c in done:
                problem = store.check_chunk(ra.game, exp.name, ra.name, c, start, stop,
                                            ra.arm.n_players, records.get(c))
                old = not set(GAME_TABLES) <= set(records.get(c, ()))  # before format 3
                if problem is None and old:  # its digest is recorded once it reads in full
                    problem = next(filter(None, (store.read_problem(store.part_path(
                        t, ra.game, exp.name, ra.name, c)) for t in GAME_TABLES)), None)
                if problem is None:
                    skipped += 1
                    if old:
                        parts[str(c)] = {t: store.part_record(t, ra.game, exp.name, ra.name, c)
                                         for t in GAME_TABLES}
                    if tstop > start:
                        rec = records.get(c, {})
                        bad = None
                        if all(t in rec for t in TRACE_TABLES):
                            bad = store.check_traces(ra.game, exp.name, ra.name, c, start,
                                                     tstop, ra.arm.n_players, rec)
                            if bad is None:
                                continue
                            notes.append(f"arm {ra.name} chunk {c}: {bad}; tracing it again")
                        else:
                            added += 1
                        for t in TRACE_TABLES:  # recorded again once both are written
                            parts.get(str(c), {}).pop(t, None)
                        tasks.append(make_task(ra, c, start, stop, exp.seed, tstop, False))
                    continue
                done.discard(c)
                parts.pop(str(c), None)
                notes.append(f"arm {ra.name} chunk {c}: {problem}; simulating it again")
            tasks.append(make_task(ra, c, start, stop, exp.seed, tstop))
        entry["finished"] = chunks.to_ranges(done)
    if added:
        notes.append(f"adding round traces to {count(added, 'finished chunk')} (their games are "
                     f"kept)")
    manifest["finished_chunks"] = _finished(manifest)
    # Interleave arms chunk by chunk so a partial run has comparable arms.
    order = list(arms)
    tasks.sort(key=lambda t: (t.chunk, order.index(t.arm_name)))
    return tasks, skipped
