"""Benchmarks: ``make bench`` = ``python -m pipelines.bench [--game G] [--players N] [--quick]``.

For each registered game and player count:

* kernel games/s of ``play_many`` with 1 and 2 threads (median of several runs, JIT excluded);
* end-to-end games/s of a run into a temporary store (chunking + Parquet + manifest);
* per-game time jitted vs ``NUMBA_DISABLE_JIT=1`` (a few games in a subprocess), as a ratio.

Once per game (its largest player count):

* peak memory (``ru_maxrss``, read by a small helper process) of a ``playtest run`` of
  ``--mem-games`` games;
* time for ``playtest run`` in a new process to start simulating, with a cold and a warm
  Numba cache (wall time of a 1-game run).

``--profile`` prints instead where a game's time goes (``sim.profile``): per game on one
thread, the rules alone (the games replayed from their recorded choices), setting up, and the
policies' time at each decision point.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-m", "pipelines"]


def _arm(game: str, n_players: int):
    from sim.batch import make_arm

    spec = importlib.import_module("sim.registry").make(game)
    return make_arm(spec, n_players)


def kernel_rate(game: str, n_players: int, threads: int, games: int, repeats: int) -> float:
    """Median games/s of ``run_games`` (one warm-up call first, so JIT is excluded)."""
    import numba

    from sim.batch import first_call, run_games

    arm = _arm(game, n_players)
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    first_call(run_games, arm, 1, 0, min(games, 100))  # compile / load from cache
    times = []
    for r in range(repeats):
        t = time.perf_counter()
        run_games(arm, 1 + r, 0, games)
        times.append(time.perf_counter() - t)
    return games / statistics.median(times)


def end_to_end_rate(game: str, n_players: int, games: int, chunk_size: int | None = None) -> float:
    """games/s of a full run (simulate + Parquet + manifest) into a temporary store."""
    from . import experiment, runner

    exp = experiment.from_cli(game, players=str(n_players), games=games, seed=1,
                              chunk_size=chunk_size or max(1, games // 4))
    with tempfile.TemporaryDirectory(prefix="ptbench-warm-") as d:
        runner.run(exp, d, quiet=True)  # warm-up (JIT, imports)
    with tempfile.TemporaryDirectory(prefix="ptbench-") as d:
        exp = experiment.from_cli(game, players=str(n_players), games=games, seed=2,
                                  chunk_size=chunk_size or max(1, games // 4))
        t = time.perf_counter()
        runner.run(exp, d, quiet=True)
        return games / (time.perf_counter() - t)


_PER_GAME = """
import time, importlib
{prelude}
from sim.batch import make_arm, run_games
import numba
numba.set_num_threads(1)
arm = make_arm(importlib.import_module("sim.registry").make({game!r}), {n})
run_games(arm, 1, 0, 2)
t = time.perf_counter(); run_games(arm, 1, 0, {games}); print((time.perf_counter() - t) / {games})
"""


def per_game_seconds(game: str, n_players: int, games: int, disable_jit: bool,
                     prelude: str = "") -> float:
    # ``prelude``: code run first in the subprocess (tests use it to register a fake game).
    """Seconds per game in a fresh subprocess (1 thread), optionally with NUMBA_DISABLE_JIT=1."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0")
    code = _PER_GAME.format(prelude=prelude, game=game, n=n_players, games=games)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                         capture_output=True, text=True, check=True, timeout=3600)
    return float(out.stdout.strip().splitlines()[-1])


# Runs a command and prints its exit code and peak RSS in KiB. Linux charges a child that was
# spawned by vfork+exec with its parent's high-water mark, so a child of the bench process
# (hundreds of MB after compiling kernels in-process) would report the bench's own peak; this
# small helper process is the parent instead.
_PEAK_RSS_HELPER = ("import os, subprocess, sys\n"
                    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, "
                    "stderr=subprocess.DEVNULL)\n"
                    "_, status, ru = os.wait4(p.pid, 0)\n"
                    "print(os.waitstatus_to_exitcode(status), ru.ru_maxrss)\n")


def child_peak_rss_mb(cmd: list[str]) -> float:
    """Peak RSS (MB) of the process ``cmd``, measured from a small helper process so the
    figure is the command's own, not the caller's (see ``_PEAK_RSS_HELPER``)."""
    out = subprocess.run([sys.executable, "-c", _PEAK_RSS_HELPER, *cmd], capture_output=True,
                         text=True, check=True).stdout.split()
    code, kib = int(out[0]), int(out[1])
    if code != 0:
        raise RuntimeError(f"memory run failed with exit code {code}")
    return kib / 1024.0


def peak_memory_mb(game: str, n_players: int, games: int, cli: list[str] = CLI) -> float:
    """Peak RSS (MB) of ``playtest run`` of ``games`` games in a subprocess.

    A 1-game run first fills the JIT cache for the CLI's call signatures, so the figure is the
    memory of simulating and writing, not of compiling (LLVM alone takes several hundred MB)."""
    with tempfile.TemporaryDirectory(prefix="ptbench-warm-") as d:
        subprocess.run([*cli, "run", game, "--players", str(n_players), "--games", "1",
                        "--store", d, "--quiet"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
    with tempfile.TemporaryDirectory(prefix="ptbench-mem-") as d:
        return child_peak_rss_mb([*cli, "run", game, "--players", str(n_players), "--games",
                                  str(games), "--store", d, "--quiet"])


def start_seconds(game: str, n_players: int, cli: list[str] = CLI,
                  cache_dir: str | None = None) -> float:
    """Wall time of a 1-game ``playtest run`` in a new process (≈ time to start simulating)."""
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    with tempfile.TemporaryDirectory(prefix="ptbench-start-") as d:
        t = time.perf_counter()
        subprocess.run([*cli, "run", game, "--players", str(n_players), "--games", "1",
                        "--store", d, "--quiet"], env=env, check=True, capture_output=True,
                       timeout=3600)
        return time.perf_counter() - t


def profile_tables(con, specs, players, games: int, repeats: int) -> None:
    """``--profile``: a table per game and player count (``sim.profile``), on one thread."""
    import numba

    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        _profile_tables(con, specs, players, games, repeats)
    finally:
        numba.set_num_threads(threads)


def _profile_tables(con, specs, players, games: int, repeats: int) -> None:
    from rich.table import Table

    from sim.batch import make_arm
    from sim.profile import profile

    for spec in specs:
        for n in range(spec.min_players, spec.max_players + 1):
            if players and n not in players:
                continue
            con.print(f"[dim]{spec.id} {n}p …[/]")
            p = profile(make_arm(spec, n), games, repeats=repeats)
            t = Table(title=f"{spec.id}, {n} players, default policy: {p.total_us:,.1f} us a "
                            f"game ({p.decisions:,.1f} decisions), 1 thread, {games:,} games",
                      caption="the rules by point: shares of a replay timed by the cycle "
                              "counter (steps to a point: the forced steps and the listing "
                              "before its decisions); a policy's time at a point is a "
                              "difference of two timings: within a few tenths of a us a game "
                              "of 0 it is noise; no time a decision below one decision a game")
            for c in ("part", "decisions a game", "us a game", "share", "ns a decision"):
                t.add_column(c, justify="right")
            counts = {name: dec for name, dec, _ in p.points}
            parts = [("rules (replayed choices)", p.decisions, p.rules_us),
                     ("  of which setting up", 0, p.setup_us)]
            for name, listing, applying in p.rules_points:   # sim.profile.TIMED
                parts.append((f"  steps to {name}", counts.get(name, 0), listing))
                if name in counts:
                    parts.append((f"  applying {name}", counts[name], applying))
            parts.append(("policies", p.decisions, p.policy_us))
            parts += [(f"  {name}", dec, us) for name, dec, us in p.points]
            for name, dec, us in parts:
                t.add_row(name, f"{dec:,.1f}" if dec else "", f"{us:,.1f}",
                          f"{us / p.total_us:.0%}", f"{us / dec * 1000:,.0f}" if dec >= 1 else "")
            con.print(t)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipelines.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--players", type=int, action="append", help="only this player count")
    ap.add_argument("--quick", action="store_true", help="small counts, fewer repeats")
    ap.add_argument("--games", type=int, help="games per kernel timing run")
    ap.add_argument("--repeats", type=int, help="timing repeats (median)")
    ap.add_argument("--mem-games", type=int, help="games of the peak-memory run (default 1,000,000)")
    ap.add_argument("--nojit-games", type=int, help="games of the NUMBA_DISABLE_JIT run")
    ap.add_argument("--skip-subprocess", action="store_true",
                    help="skip memory, no-JIT and start-up measurements")
    ap.add_argument("--json", type=Path, help="also write the results as JSON")
    ap.add_argument("--profile", action="store_true",
                    help="where the time goes: rules, setup and policy per decision point "
                         "(--games games, default 5,000; 1 thread)")
    a = ap.parse_args(argv)
    games = a.games or (20_000 if a.quick else 100_000)
    repeats = a.repeats or 3
    mem_games = a.mem_games or (100_000 if a.quick else 1_000_000)
    nojit_games = a.nojit_games or (20 if a.quick else 200)

    from rich.console import Console
    from rich.table import Table

    from sim.spec import SpecError

    con = Console(width=max(130, Console().width))
    try:
        reg = importlib.import_module("sim.registry")
        ids = a.game or reg.available_games()
        specs = [reg.make(g) for g in ids]
    except (ImportError, SpecError) as e:
        con.print(f"error: {e}", markup=False)
        return 2
    if a.profile:
        profile_tables(con, specs, a.players, a.games or 5_000, repeats)
        return 0
    rows = []
    for spec in specs:
        counts = [n for n in range(spec.min_players, spec.max_players + 1)
                  if not a.players or n in a.players]
        for n in counts:
            con.print(f"[dim]{spec.id} {n}p …[/]")
            r = {"game": spec.id, "players": n,
                 "kernel_1t": kernel_rate(spec.id, n, 1, games, repeats),
                 "kernel_2t": kernel_rate(spec.id, n, 2, games, repeats),
                 "end_to_end": end_to_end_rate(spec.id, n, games)}
            if not a.skip_subprocess:
                jit = 1.0 / r["kernel_1t"]
                r["nojit_ratio"] = per_game_seconds(spec.id, n, nojit_games, True) / jit
            rows.append(r)
        if counts and not a.skip_subprocess:
            n = max(counts)
            rows[-1]["peak_mb"] = peak_memory_mb(spec.id, n, mem_games)
            rows[-1]["mem_games"] = mem_games
            with tempfile.TemporaryDirectory(prefix="ptbench-cache-") as cache:
                rows[-1]["start_cold_s"] = start_seconds(spec.id, n, cache_dir=cache)
                rows[-1]["start_warm_s"] = start_seconds(spec.id, n, cache_dir=cache)

    t = Table(title=f"playtest bench ({games:,} games x {repeats} repeats; "
                    f"{os.cpu_count()} cores)")
    for c in ("game", "players", "kernel 1 thread", "kernel 2 threads", "end-to-end",
              "no-JIT slower", "peak RSS", "start cold/warm"):
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(r["game"], str(r["players"]), f"{r['kernel_1t']:,.0f}/s",
                  f"{r['kernel_2t']:,.0f}/s", f"{r['end_to_end']:,.0f}/s",
                  f"{r['nojit_ratio']:,.0f}x" if "nojit_ratio" in r else "-",
                  f"{r['peak_mb']:,.0f} MB ({r['mem_games']:,} games)" if "peak_mb" in r else "",
                  f"{r['start_cold_s']:.1f}/{r['start_warm_s']:.1f} s" if "start_warm_s" in r else "")
    con.print(t)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"games": games, "repeats": repeats, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
