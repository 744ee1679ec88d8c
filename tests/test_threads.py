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
