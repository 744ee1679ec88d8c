"""sim.borrow: borrowed views alias their owners; no_refcount_module drops reference counts safely."""
import types

import numpy as np
from numba import njit

from sim.borrow import borrowed, no_refcount_module

no_refcount_module(__name__, exclude=("_counted",))


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


def _jitted_copy(name):
    """``_view_sum`` compiled under another name (the exclusion list works by name)."""
    f = types.FunctionType(_view_sum.__code__, globals(), name)
    f.__qualname__ = name
    return njit(f)


_uncounted = _jitted_copy("_uncounted")
_counted = _jitted_copy("_counted")


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


def test_games_free_every_array_they_allocate(tmp_path):
    """Modules compiled without reference counting (sim.borrow.no_refcount_module) must not
    own arrays: over 50 and 500 games, every array the kernels allocate (per-game state,
    work arrays, the solo feasibility search) is freed again, and the count of allocations
    grows with the games (so the check sees them)."""
    import json
    import os
    import subprocess
    import sys

    cases = [("flower_shop", 1, "greedy"), ("flower_shop", 1, "random"),
             ("flower_shop", 4, "greedy"), ("flower_shop", 3, "random"),
             ("rattlebones", 2, "greedy"), ("rattlebones", 4, "random")]
    env = dict(os.environ, NUMBA_NRT_STATS="1", NUMBA_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-c", _LEAK_CHECK % (cases,)], env=env,
                         capture_output=True, text=True, check=True, timeout=1800)
    out = json.loads(res.stdout.strip().splitlines()[-1])
    for case, ((alloc50, free50), (alloc500, free500)) in out.items():
        assert alloc50 == free50 and alloc500 == free500, (case, out[case])
        assert alloc500 > alloc50 > 0, (case, out[case])
