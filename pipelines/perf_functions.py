"""Where a game's kernel time goes, by compiled function: ``make perf-functions GAME=g``
= ``python -m pipelines.perf_functions --game g [--players N] [--games N]``.

Linux ``perf`` samples a run of ``play_many`` (``perf record -e cpu-clock``, a software
clock, so it works where the hardware counters are hidden, as in most virtual machines). The
child process compiles the game afresh (a new Numba cache directory, so the compiled module's
functions are at hand), writes the address of every function of the ``play_many`` program,
then plays ``--games`` games on one thread; only the samples taken while those games were
played count. Each sample is charged to the function whose code holds it (a function ends
where the next one starts). Functions the compiler inlined are part of their caller: to see
one apart, call it from fewer places or look at ``sim.profile`` (``make profile``).

The figures are shares of the sampled time; a sample lands where the processor was when the
clock fired, so shares are trustworthy per function but not per instruction (a slow
instruction's cost may show on the next ones). ``docs/performance.md`` shows how they were
used.
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_COMPONENT = re.compile(r"(\d+)")


def demangle(symbol: str) -> str:
    """A Numba function symbol as ``module.function`` (``sim.games.waggle_dance.policies.
    _slot_now``); the CPython wrapper gets `` (wrapper)``; other symbols are returned as they
    are."""
    name = symbol.removeprefix("cfunc.")
    wrapper = ""
    if not name.startswith("_ZN"):
        return symbol
    rest, parts = name[3:], []
    while rest and rest[0].isdigit():
        n = int(_COMPONENT.match(rest).group(1))
        start = len(str(n))
        parts.append(rest[start:start + n])
        rest = rest[start + n:]
    if parts and parts[0] == "cpython":
        parts, wrapper = parts[1:], " (wrapper)"
    return ".".join(parts) + wrapper if parts else symbol


def charge(functions: list[tuple[int, str]], samples: list[int], last_size: int = 1 << 16
           ) -> tuple[dict[str, int], int]:
    """Samples (instruction addresses) by function: ``functions`` are (start address, name);
    a function ends where the next one starts (the last after ``last_size`` bytes). Returns
    the counts by name and the number of samples outside every function."""
    functions = sorted(functions)
    starts = [a for a, _ in functions]
    counts: dict[str, int] = {}
    outside = 0
    for ip in samples:
        i = bisect.bisect_right(starts, ip) - 1
        if i < 0 or ip >= (starts[i + 1] if i + 1 < len(starts) else starts[i] + last_size):
            outside += 1
            continue
        name = functions[i][1]
        counts[name] = counts.get(name, 0) + 1
    return counts, outside


def _child(game: str, players: int, games: int, out: Path) -> None:
    import numba

    numba.set_num_threads(1)
    from sim.batch import first_call, make_arm, run_games
    from sim.registry import make

    spec = make(game)
    arm = make_arm(spec, players)
    first_call(run_games, arm, 1, 0, 50)
    functions = []
    for cres in spec.play_many.overloads.values():
        lib = cres.library
        module = getattr(lib, "_final_module", None)   # Numba's linked module (not public API)
        if module is None:
            raise SystemExit("this Numba version does not keep the compiled module: "
                             "no function addresses to charge the samples to")
        for fn in module.functions:
            if not fn.is_declaration:
                addr = lib.get_pointer_to_function(fn.name)
                if addr:
                    functions.append((addr, fn.name))
    run_games(arm, 1, 0, min(games, 1000))           # warm
    t0 = time.monotonic()
    run_games(arm, 1, 0, games)
    t1 = time.monotonic()
    out.write_text(json.dumps({"functions": functions, "t0": t0, "t1": t1}))


def _samples(perf: str, data: Path, t0: float, t1: float) -> list[int]:
    text = subprocess.run([perf, "script", "-i", str(data), "-F", "time,ip"], check=True,
                          capture_output=True, text=True).stdout
    ips = []
    for line in text.splitlines():
        parts = line.replace(":", " ").split()
        if len(parts) >= 2:
            t, ip = float(parts[0]), int(parts[1], 16)
            if t0 <= t <= t1:
                ips.append(ip)
    return ips


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipelines.perf_functions", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True, help="a registered game")
    ap.add_argument("--players", type=int, help="player count (default: the game's largest)")
    ap.add_argument("--games", type=int, default=20_000, help="games sampled (default 20,000)")
    ap.add_argument("--top", type=int, default=25, help="functions shown (default 25)")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    from sim.registry import make
    from sim.errors import SpecError
    try:
        spec = make(a.game)
    except SpecError as e:
        print(e, file=sys.stderr)
        return 2
    players = a.players or spec.max_players
    if not spec.min_players <= players <= spec.max_players:
        print(f"{a.game} plays {spec.min_players}-{spec.max_players} players, not {players}",
              file=sys.stderr)
        return 2
    if a.child:
        _child(a.game, players, a.games, a.child)
        return 0
    perf = shutil.which("perf")
    if perf is None:
        print("perf (Linux perf tools) is not installed: this profile needs it", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp / "cache"))
        cmd = [perf, "record", "-q", "-e", "cpu-clock", "-F", "4000", "-k", "CLOCK_MONOTONIC",
               "-o", str(tmp / "perf.data"), "--", sys.executable, "-m", "pipelines.perf_functions",
               "--game", a.game, "--players", str(players), "--games", str(a.games),
               "--child", str(tmp / "run.json")]
        print(f"{a.game}, {players} players: compiling afresh, then sampling {a.games:,} games",
              file=sys.stderr)
        if subprocess.run(cmd, env=env).returncode != 0:
            print("perf record failed (is perf_event_paranoid above 2?)", file=sys.stderr)
            return 1
        run = json.loads((tmp / "run.json").read_text())
        ips = _samples(perf, tmp / "perf.data", run["t0"], run["t1"])
    counts, outside = charge([(a_, n) for a_, n in run["functions"]], ips)
    total = len(ips)
    if total == 0:
        print("no samples in the timed run", file=sys.stderr)
        return 1
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{a.game}, {players} players: {a.games:,} games, "
                        f"{a.games / (run['t1'] - run['t0']):,.0f} games/s, {total:,} samples")
    table.add_column("share", justify="right")
    table.add_column("function (with what the compiler inlined into it)")
    for name, k in sorted(counts.items(), key=lambda x: -x[1])[:a.top]:
        table.add_row(f"{100 * k / total:.1f}%", demangle(name))
    table.add_row(f"{100 * outside / total:.1f}%", "outside the program (Python, the C library)")
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
