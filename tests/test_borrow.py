"""sim.borrow: borrowed views alias their owners; no_refcount_module drops reference counts,
no_wraparound_module the wraparound of negative indices, safely; whole_program makes a game
entry's callees private to it; PLAYTEST_NUMBA_PATCHES=0 (or another Numba version) turns all of
it off with the same results."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import numba
import numpy as np
import pytest
from llvmlite.binding import Linkage
from numba import njit

from sim import borrow
from sim.borrow import borrowed, no_refcount_module, no_wraparound_module, whole_program

ROOT = Path(__file__).resolve().parents[1]

no_refcount_module(__name__, exclude=("_counted",))
no_wraparound_module(__name__, exclude=("_wrapped",))
whole_program(__name__, "_whole")


@njit
def _write_through(a, t):
    v = borrowed(a)
    v[0] = 7
    u = borrowed(t)
    u[1][2] = 9
    w = v[1:3]          # slices of a view are views too
    w[1] = 5
    return v.sum() + u[0].shape[0] + u[1].shape[0]


def _view_sum(a, b, k):
    v = a if k > 0 else b
    w = v[1:]
    s = 0
    for i in range(w.shape[0]):
        if w[i] > k:
            break
        s += w[i]
    return s


def _pick(a, i):
    return a[i] + a[i + 1]


@njit
def _tally(a, lo, hi):
    """Large enough that LLVM does not inline an exported copy of it."""
    s = 0
    for i in range(a.shape[0]):
        x = a[i]
        if x < lo:
            s += 3 * x - 1
        elif x > hi:
            s -= x // 7
        elif x % 3 == 0:
            s += x * x
        else:
            s ^= x << 2
    for i in range(a.shape[0] - 1, -1, -1):
        if a[i] % 5 == 0:
            s += i
        elif a[i] % 5 == 1:
            s -= 2 * i
        elif a[i] % 5 == 2:
            s = s * 3 + 1
        else:
            s = (s >> 1) ^ a[i]
    return s


def _tally_all(a):
    return _tally(a, 3, 30) + 1


def _jitted_copy(func, name):
    """``func`` compiled under another name (the declarations work by name)."""
    f = types.FunctionType(func.__code__, globals(), name)
    f.__qualname__ = name
    return njit(f)


_uncounted = _jitted_copy(_view_sum, "_uncounted")
_counted = _jitted_copy(_view_sum, "_counted")
_unwrapped = _jitted_copy(_pick, "_unwrapped")
_wrapped = _jitted_copy(_pick, "_wrapped")
_whole = _jitted_copy(_tally_all, "_whole")
_parts = _jitted_copy(_tally_all, "_parts")


def _body(dispatcher, name):
    """LLVM IR of the compiled function itself (not its Python wrapper)."""
    ir = dispatcher.inspect_llvm(dispatcher.signatures[0])
    tag = f"{len(name)}{name}B"
    for block in ir.split("\ndefine ")[1:]:
        fname = block.split("@", 1)[1].split("(", 1)[0]
        if tag in fname and fname.startswith("_ZN") and "cpython" not in fname:
            return block.split("\n}\n", 1)[0]
    raise AssertionError(f"no compiled body of {name}")


def test_no_refcount_module_emits_no_reference_counts():
    """Functions of a module declared with ``no_refcount_module`` compile without any
    NRT_incref/NRT_decref call; the excluded ones keep those that Numba's pruning leaves."""
    a, b = np.arange(5), np.ones(3, np.int64)
    assert _uncounted(a, b, 3) == _counted(a, b, 3) == 6
    ir_uncounted = _body(_uncounted, "_uncounted")
    ir_counted = _body(_counted, "_counted")
    assert "call void @NRT_decref" in ir_counted
    assert "call void @NRT_incref" not in ir_uncounted
    assert "call void @NRT_decref" not in ir_uncounted


def test_no_wraparound_module_emits_no_negative_index_wraparound():
    """Functions of a module declared with ``no_wraparound_module`` index without the
    ``i < 0 ? i + n : i`` select; the excluded ones keep it (and wrap negative indices)."""
    a = np.arange(10, 20)
    assert _unwrapped(a, 3) == _wrapped(a, 3) == 27
    assert _wrapped(a, -2) == 18 + 19
    ir_unwrapped = _body(_unwrapped, "_unwrapped")
    ir_wrapped = _body(_wrapped, "_wrapped")
    assert "icmp slt i64" in ir_wrapped and " select " in ir_wrapped
    assert "icmp slt i64" not in ir_unwrapped and " select " not in ir_unwrapped


def test_whole_program_makes_the_callees_private_and_inlines_them():
    """The module of a ``whole_program`` entry holds its callees as private (internal) copies,
    so LLVM inlines one called once whatever its size; another entry compiled from the same
    code keeps the exported copy and calls it. Both compute the same."""
    a = np.arange(-20, 60, 3)
    assert _whole(a) == _parts(a) == _tally.py_func(a, 3, 30) + 1
    callee = "6_tallyB"
    ir_parts = _parts.inspect_llvm(_parts.signatures[0])
    ir_whole = _whole.inspect_llvm(_whole.signatures[0])
    parts, whole = ir_parts.splitlines(), ir_whole.splitlines()
    assert [ln for ln in parts if " call " in ln and callee in ln], "exported: still a call"
    assert [ln for ln in parts if ln.startswith("define linkonce_odr") and callee in ln]
    assert not [ln for ln in whole if " call " in ln and callee in ln]
    assert not [ln for ln in whole
                if ln.startswith("define") and callee in ln and "internal" not in ln]


def test_a_function_compiled_after_a_whole_program_entry_runs():
    """Regression: after a game's entry (``play_many``) is compiled or loaded, a rule function
    that calls one of its private callees (the test helper ``min_tokens_to_finish`` calls
    ``assign_icons``) is compiled or loaded in the same process, and runs (a private copy kept
    under the exported name crashed it). In a subprocess, as a crash would end the session; the session's JIT
    cache usually holds both already, and loading them reproduced the crash too."""
    code = (
        "from sim import batch\n"
        "from sim.games.flower_shop import SPEC\n"
        "import sys\n"
        "sys.path.insert(0, 'tests')  # the helpers' module name as pytest imports it (JIT cache)\n"
        "from flower_shop.kernel_helpers import (ARR, blank, min_tokens_to_finish, place,\n"
        "                                        rules_for, set_dice)\n"
        "batch.run_games(batch.make_arm(SPEC, 2, policy='greedy'), 1, 0, 5)\n"
        "rules = rules_for(2)\n"
        "st = blank(2, rules)\n"
        "place(st, 0, 0, 'T01')\n"
        "set_dice(st, rules, 0, ['lily', 'lily', 'lily', 'rose'], ['yellow'])\n"
        "print('tokens', min_tokens_to_finish(st, rules, ARR, 0, 0))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split()[-2:] == ["tokens", "0"]


_WARM = """
import hashlib, os, numpy as np
from sim import batch
from sim.games.flower_shop import SPEC, kernel
g, s = batch.run_games(batch.make_arm(SPEC, 2, policy='greedy'), 1, 0, 20)
state = kernel.new_state(2)
kernel.start_streams(state, np.uint64(5), np.int64(7))
print(hashlib.md5(g.tobytes() + s.tobytes()).hexdigest(), state[state != 0][:6].tolist())
print(sorted(f.split('-')[0] for _, _, fs in os.walk(os.environ['NUMBA_CACHE_DIR'])
             for f in fs if f.endswith('.nbi') and f.startswith('kernel.')))
"""


@pytest.mark.slow
def test_rule_functions_run_from_python_with_a_warm_cache(tmp_path):
    """A rule function is compiled for this process only (its code calls its callees' code),
    never cached, so a second process with a warm JIT cache calls it from Python as the first
    did; the game's entry (``play_many``) is cached (warm starts stay warm) and plays the same
    games, and the one-game function it holds whole is not cached on its own."""
    first = _python(_WARM, NUMBA_CACHE_DIR=str(tmp_path))
    second = _python(_WARM, NUMBA_CACHE_DIR=str(tmp_path))
    assert first.returncode == 0, first.stderr[-3000:]
    assert second.returncode == 0, second.stderr[-3000:]
    assert first.stdout == second.stdout
    cached = eval(first.stdout.splitlines()[1])
    assert "kernel.play_many" in cached and "kernel._play" not in cached
    assert "kernel.start_streams" not in cached and "kernel.new_state" not in cached


def test_rule_functions_compile_only_their_own_code():
    """A function that is not an entry is compiled to machine code alone: the copies of its
    callees linked into its module for callers to inline are available_externally (not
    emitted), and a caller that links the module gets them back as copies it may inline."""
    ours = types.FunctionType(_tally_all.__code__, dict(globals(), __name__="sim._probe"),
                              "_ours")
    ours.__qualname__ = "_ours"
    ours = njit(ours)
    a = np.arange(-20, 60, 3)
    assert ours(a) == _tally.py_func(a, 3, 30) + 1
    assert "6_tallyB" in _body(ours, "_ours")  # its own code calls the callee's
    library = ours.overloads[ours.signatures[0]].library
    linked = [f for f in library._final_module.functions
              if not f.is_declaration and "6_tallyB" in f.name]
    assert linked and all(f.linkage == Linkage.available_externally for f in linked)
    relinked = [f for f in library._get_module_for_linking().functions
                if not f.is_declaration and "6_tallyB" in f.name]
    assert relinked and all(f.linkage == Linkage.linkonce_odr for f in relinked)


def test_a_function_gets_its_python_wrapper_when_python_first_calls_it():
    """A function of ours compiled for a jitted caller has no Python-callable wrapper (its
    library defines no ``cpython.`` function) and is not in the dispatcher's table of Python
    calls; the first call from Python adds the wrapper alone (the function's code is not
    compiled again) and computes what the caller's copy and the Python function compute."""
    probe = dict(globals(), __name__="sim._probe")
    callee = types.FunctionType(_tally.py_func.__code__, probe, "_lazy")
    callee.__qualname__ = "_lazy"
    callee = njit(callee)
    caller = types.FunctionType(_tally_all.__code__, dict(probe, _tally=callee), "_lazy_all")
    caller.__qualname__ = "_lazy_all"
    caller = njit(caller)
    a = np.arange(-20, 60, 3)
    assert caller(a) == _tally.py_func(a, 3, 30) + 1
    (cres,) = callee.overloads.values()
    own = [f.name for f in cres.library._final_module.functions if not f.is_declaration]
    assert own and not [name for name in own if name.startswith("cpython.")]
    assert cres.library._playtest_unwrapped
    assert callee(a, 3, 30) == _tally.py_func(a, 3, 30)
    (wrapped,) = callee.overloads.values()
    assert wrapped.library is cres.library and not wrapped.library._playtest_unwrapped
    assert callee(a, 3, 31) == _tally.py_func(a, 3, 31)  # now from the table, same overload
    assert len(callee.overloads) == 1


def test_borrowed_views_alias_the_owner_arrays():
    a = np.zeros(4, np.int64)
    t = (np.zeros(3), np.zeros(5, np.int64))
    r = _write_through(a, t)
    assert list(a) == [7, 0, 5, 0]
    assert t[1][2] == 9
    assert r == 12 + 3 + 5


_LEAK_CHECK = """
import json, sys
from numba.core.runtime import rtsys
from sim import batch
from sim.registry import make
out = {}
for game, n, policy in %s:
    arm = batch.make_arm(make(game), n, policy=policy)
    batch.run_games(arm, 3, 0, 20)  # compile and warm up
    counts = []
    for games in (50, 500):
        before = rtsys.get_allocation_stats()
        batch.run_games(arm, 3, 1000, games)
        after = rtsys.get_allocation_stats()
        counts.append((after.alloc - before.alloc, after.free - before.free))
    out[f"{game} {n}p {policy}"] = counts
print(json.dumps(out))
"""


def test_games_free_every_array_they_allocate():
    """Modules compiled without reference counting (sim.borrow.no_refcount_module) must not
    own arrays: over 50 and 500 games, every array the kernels allocate (per-game state,
    work arrays, the solo feasibility search) is freed again, and the count of allocations
    grows with the games (so the check sees them)."""
    cases = [("flower_shop", 1, "greedy"), ("flower_shop", 1, "random"),
             ("flower_shop", 4, "greedy"), ("flower_shop", 3, "random"),
             ("rattlebones", 2, "greedy"), ("rattlebones", 4, "random"),
             ("cupcake_empire", 2, "random"), ("cupcake_empire", 4, "greedy"),
             ("waggle_dance", 2, "greedy"), ("waggle_dance", 4, "random")]
    env = dict(os.environ, NUMBA_NRT_STATS="1", NUMBA_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-c", _LEAK_CHECK % (cases,)], env=env,
                         capture_output=True, text=True, check=True, timeout=1800)
    out = json.loads(res.stdout.strip().splitlines()[-1])
    for case, ((alloc50, free50), (alloc500, free500)) in out.items():
        assert alloc50 == free50 and alloc500 == free500, (case, out[case])
        assert alloc500 > alloc50 > 0, (case, out[case])


_BOUNDS_CHECK = """
import numpy as np
from numba import njit
from sim import batch
from sim.borrow import no_wraparound_module
from sim.registry import make

no_wraparound_module("__main__")


@njit
def probe(a, i):
    return a[i]


try:  # the check below would see a negative index
    probe(np.arange(3), -1)
    raise SystemExit("a negative index passed the bounds check")
except IndexError:
    pass
for game, n, policy, variant in %s:
    arm = batch.make_arm(make(game), n, policy=policy, variant=variant)
    batch.run_games(arm, 5, 0, 300)
    batch.replay(arm, 5, 1)
print("ok")
"""


BOUNDS_CHECK_CASES = [
    ("flower_shop", 1, "greedy", "solo_easy"), ("flower_shop", 1, "expert", "solo_hell"),
    ("flower_shop", 1, "random", "solo_base"), ("flower_shop", 4, "greedy", None),
    ("flower_shop", 3, "random", None), ("flower_shop", 2, "thrifty", None),
    ("rattlebones", 2, "greedy", None), ("rattlebones", 3, "aggressive", None),
    ("rattlebones", 4, "random", None), ("cupcake_empire", 2, "greedy", None),
    ("cupcake_empire", 3, "random", None), ("cupcake_empire", 4, "salesman", None),
    ("rattlebones", 4, "random", None), ("waggle_dance", 2, "greedy", None),
    ("waggle_dance", 3, "builder", None), ("waggle_dance", 4, "random", None)]


def start_bounds_check():
    """Start the bounds-checked games in a process with a build of its own (unoptimized: it
    compiles in 2/3 of the time, with the same indices). It takes about two minutes, so
    ``conftest.py`` starts it as soon as the session has collected the test, to overlap the
    other tests. Returns (process, work directory with its cache, stdout and stderr)."""
    work = Path(tempfile.mkdtemp(prefix="playtest-boundscheck-"))
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_OPT="0", NUMBA_NUM_THREADS="1",
               NUMBA_CACHE_DIR=str(work / "cache"))
    with open(work / "out.txt", "w") as out, open(work / "err.txt", "w") as err:
        proc = subprocess.Popen([sys.executable, "-c", _BOUNDS_CHECK % (BOUNDS_CHECK_CASES,)],
                                env=env, stdout=out, stderr=err, cwd=ROOT)
    return proc, work


@pytest.mark.slow
def test_games_never_index_arrays_with_a_negative_index(background_build):
    """Modules compiled without index wraparound (sim.borrow.no_wraparound_module) must never
    use a negative index: with NUMBA_BOUNDSCHECK=1 one would raise an IndexError. Games of
    every game, solo variant and policy family, and replays, run through the bounds check."""
    proc, work = background_build("playtest_bounds_check")
    try:
        rc = proc.wait(timeout=1800)
        out = (work / "out.txt").read_text()
        err = (work / "err.txt").read_text()
        assert rc == 0 and out.strip().endswith("ok"), err[-3000:]
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---- the off-switch ------------------------------------------------------------------------

def test_patches_are_in_force_on_the_pinned_numba():
    """The test environment runs the pinned Numba (pyproject.toml), so the patches are on; a
    new pin without a review of sim.borrow fails here."""
    pin = [ln for ln in (ROOT / "pyproject.toml").read_text().splitlines()
           if ln.strip().startswith('"numba==')]
    assert pin and pin[0].strip().strip('",') == f"numba=={borrow.PINNED_NUMBA}"
    assert numba.__version__ == borrow.PINNED_NUMBA
    assert borrow.ENABLED, borrow.WHY_OFF
    assert borrow._NO_REFCOUNT and borrow._NO_WRAPAROUND and borrow._WHOLE_PROGRAM
    assert not borrow._lock_event_callbacks()  # Numba's LLVM lock events are off


def _python(code, **env):
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, **env))


_STATE = ("from sim import borrow\n"
          "import sim.registry\n"
          "print(borrow.ENABLED, len(borrow._NO_REFCOUNT), len(borrow._NO_WRAPAROUND),"
          " len(borrow._WHOLE_PROGRAM), borrow.borrowed.__class__.__name__)\n")


def test_numba_pass_timings_still_work(tmp_path):
    """With NUMBA_LLVM_PASS_TIMINGS=1 (a pipeline records its timings once) a function of ours
    compiles through Numba's own function passes and reports the timings."""
    code = ("import numpy as np\n"
            "from sim.games.flower_shop import kernel\n"
            "state = kernel.new_state(2)\n"
            "kernel.start_streams(state, np.uint64(5), np.int64(7))\n"
            "(cres,) = kernel.start_streams.overloads.values()\n"
            "print(not cres.metadata['llvm_pass_timings'].is_empty)\n")
    r = _python(code, NUMBA_LLVM_PASS_TIMINGS="1", NUMBA_CACHE_DIR=str(tmp_path))
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split()[-1] == "True"


def test_the_switch_turns_every_patch_off_quietly():
    """PLAYTEST_NUMBA_PATCHES=0: no declaration takes effect, ``borrowed`` is a plain jitted
    identity, nothing is wrapped in Numba, and no warning (the user asked for it)."""
    r = _python(_STATE + "from numba.core.runtime import context\n"
                "print(hasattr(context.NRTContext, '_playtest_installed'))\n",
                PLAYTEST_NUMBA_PATCHES="0")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["False", "0", "0", "0", "CPUDispatcher", "False"]
    assert "patches" not in r.stderr


def test_another_numba_version_turns_them_off_with_one_warning():
    """On a Numba version they were not written for, the patches turn themselves off with one
    warning, and commands still work (``playtest games`` used to die with an AttributeError)."""
    code = ("import numba\nnumba.__version__ = '0.99.0'\n" + _STATE +
            "import sys\nfrom pipelines.cli import main\nsys.argv = ['playtest', 'games']\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n")
    r = _python(code)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split()[:5] == ["False", "0", "0", "0", "CPUDispatcher"]
    assert "flower_shop" in r.stdout
    assert r.stderr.count("speed patches (sim.borrow) are off: Numba 0.99.0") == 1


def test_a_declaration_naming_an_unknown_function_fails_when_declared(tmp_path):
    (tmp_path / "kern.py").write_text(
        "from sim.borrow import no_refcount_module, whole_program\n"
        "no_refcount_module(__name__, exclude=('setup', 'play_mnay'))\n"
        "def setup():\n    pass\n")
    (tmp_path / "entry.py").write_text(
        "from sim.borrow import whole_program\nwhole_program(__name__, 'play')\n")
    code = ("import sys\nsys.path.insert(0, %r)\n" % str(tmp_path) +
            "for mod in ('kern', 'entry'):\n"
            "    try:\n        __import__(mod)\n    except ValueError as e:\n        print(e)\n")
    r = _python(code)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert "exclude list of kern names play_mnay, not defined" in lines[0]
    assert "whole_program's entry of entry names play, not defined" in lines[1]


_UNPATCHED = """
import json, sys
import numpy as np
from sim import batch, borrow
from sim.registry import make
assert not borrow.ENABLED
out = {}
for game, n, policy, variant in %s:
    arm = batch.make_arm(make(game), n, policy=policy, variant=variant)
    g, s = batch.run_games(arm, 11, 0, 200)
    ev, _, _ = batch.replay(arm, 11, 3)
    out[f"{game} {n} {policy} {variant}"] = [g.tolist(), s.tolist(), ev.tolist()]
json.dump(out, open(sys.argv[1], "w"))
print("ok")
"""

PATCH_CASES = [("flower_shop", 1, "greedy", "solo_base"), ("flower_shop", 1, "expert", "solo_hell"),
               ("flower_shop", 2, "greedy", None), ("flower_shop", 3, "random", None),
               ("flower_shop", 4, "greedy", None), ("rattlebones", 2, "greedy", None),
               ("rattlebones", 3, "random", None), ("rattlebones", 4, "greedy", None),
               ("cupcake_empire", 2, "random", None), ("cupcake_empire", 4, "greedy", None),
               ("waggle_dance", 2, "random", None), ("waggle_dance", 4, "greedy", None)]


def start_unpatched_run():
    """Play PATCH_CASES with PLAYTEST_NUMBA_PATCHES=0 in a process with a build of its own
    (about two minutes of compiling; ``conftest.py`` starts it early to overlap the other
    tests). Returns (process, work directory)."""
    work = Path(tempfile.mkdtemp(prefix="playtest-unpatched-"))
    env = dict(os.environ, PLAYTEST_NUMBA_PATCHES="0", NUMBA_NUM_THREADS="1",
               NUMBA_CACHE_DIR=str(work / "cache"))
    with open(work / "out.txt", "w") as out, open(work / "err.txt", "w") as err:
        proc = subprocess.Popen([sys.executable, "-c", _UNPATCHED % (PATCH_CASES,),
                                 str(work / "results.json")],
                                env=env, stdout=out, stderr=err, cwd=ROOT)
    return proc, work


@pytest.mark.slow
def test_results_are_identical_with_the_patches_off(background_build):
    """Every game and player count (and the solo variants' extremes) gives bit-identical
    result rows and replay logs with the Numba patches switched off."""
    from sim import batch
    from sim.registry import make
    proc, work = background_build("playtest_unpatched")
    try:
        rc = proc.wait(timeout=1800)
        assert rc == 0, (work / "err.txt").read_text()[-3000:]
        theirs = json.loads((work / "results.json").read_text())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for game, n, policy, variant in PATCH_CASES:
        arm = batch.make_arm(make(game), n, policy=policy, variant=variant)
        g, s = batch.run_games(arm, 11, 0, 200)
        ev, _, _ = batch.replay(arm, 11, 3)
        g2, s2, ev2 = theirs[f"{game} {n} {policy} {variant}"]
        case = (game, n, policy, variant)
        assert np.array_equal(g, np.array(g2)), case
        assert np.array_equal(s, np.array(s2)), case
        assert np.array_equal(ev, np.array(ev2)), case
