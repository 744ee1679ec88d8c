"""sim.threads: the slices cover every row once, and the thread count never changes a result;
sim.batch.gc_paused: the collector is off for a kernel's first call only."""
import numba
import numpy as np
import pytest

from sim.batch import make_arm, run_games
from sim.registry import make
from sim.threads import SLICES_PER_THREAD, slices


@pytest.mark.parametrize("n,threads", [(1, 1), (1, 4), (7, 2), (64, 2), (1000, 3), (5, 1)])
def test_slices_cover_every_row_once_in_order(n, threads):
    parts = slices(n, threads)
    assert parts[0][0] == 0 and parts[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))
    assert all(lo < hi for lo, hi in parts)
    assert len(parts) == (1 if threads == 1 else min(n, threads * SLICES_PER_THREAD))


def test_results_do_not_depend_on_the_thread_count():
    arm = make_arm(make("rattlebones"), 2)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        g1, s1 = run_games(arm, 5, 3, 300)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        g2, s2 = run_games(arm, 5, 3, 300)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(g1, g2) and np.array_equal(s1, s2)


def test_gc_paused_turns_the_collector_off_for_the_block_only():
    """A kernel's first call runs with Python's cyclic collector off (``sim.batch.gc_paused``);
    afterwards it is on again, also when the block raised, and stays off if it was off."""
    import gc

    from sim.batch import gc_paused

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    try:
        with gc_paused():
            raise KeyError("x")
    except KeyError:
        pass
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def _up_and_down(depth: int, times: int) -> int:
    """Recurse ``depth`` calls deep and back, ``times`` times (as Numba's compiler does)."""
    def down(d):
        return 0 if d == 0 else 1 + down(d - 1)
    return sum(down(depth) for _ in range(times))


@pytest.mark.skipif(not hasattr(__import__("resource"), "getrusage"), reason="needs getrusage")
def test_first_call_runs_deep_call_stacks_without_mapping_a_frame_chunk_per_call():
    """``sim.batch.first_call`` returns the callee's result, raises its errors, and keeps
    the call's frames in one large frame-stack chunk: recursing across a 16 KiB chunk boundary
    again and again costs page faults on a plain call (CPython maps and unmaps a chunk each
    time) and almost none under ``first_call``."""
    import gc
    import resource
    import sys

    from sim.batch import first_call

    def faults(call):
        r0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        assert call() == 400 * 5000
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - r0

    with pytest.raises(KeyError, match="x"):
        first_call({}.__getitem__, "x")
    assert gc.isenabled()
    assert first_call(max, 3, 7) == 7
    plain = faults(lambda: _up_and_down(400, 5000))
    deep = faults(lambda: first_call(_up_and_down, 400, 5000))
    if sys.implementation.name == "cpython" and sys.version_info >= (3, 11):
        assert plain >= 5000  # at least one chunk per trip down and back
    assert deep < max(plain // 10, 500)
