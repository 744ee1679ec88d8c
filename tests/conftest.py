"""Shared test fixtures."""
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_NUM_THREADS", "2")
# A store fsyncs every file and directory it writes (pipelines/store.py): on this disk that was
# most of the time of the tests that run studies (25 of the 33 s of a 1,146-point sweep's run).
# On a RAM file system an fsync costs nothing, so tmp_path goes there where the machine has one
# (pytest's own variable: numbered per-session directories, safe for concurrent sessions).
if "PYTEST_DEBUG_TEMPROOT" not in os.environ and os.access("/dev/shm", os.W_OK):
    os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"


_GAMES = ("flower_shop", "rattlebones", "cupcake_empire", "waggle_dance")


def pytest_xdist_make_scheduler(config, log):
    """``-n 2 --dist loadgroup`` (make check): one work unit per game, so that a game's tests
    share one worker, which types and compiles the game's Python-called kernel functions once
    (they are not cached on disk, see sim/borrow.py) where two workers would each pay for it;
    every other test is a unit of its own. (pytest-xdist's own ``xdist_group`` marks do not
    group under pytest 9, whose node ids ignore the suffix they add.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGame(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return next((g for g in _GAMES if g in nodeid), nodeid)

    return ByGame(config, log)


@pytest.hookimpl(trylast=True)  # after -k/-m deselection
def pytest_collection_modifyitems(config, items):
    """Start the bounds-checked and the unpatched builds of tests/test_borrow.py (two minutes of
    compiling each, in processes of their own) as soon as they are known to run, so that they
    overlap the other tests."""
    for item in items:
        if item.name == "test_games_never_index_arrays_with_a_negative_index":
            config.playtest_bounds_check = item.module.start_bounds_check()
        if item.name == "test_results_are_identical_with_the_patches_off":
            config.playtest_unpatched = item.module.start_unpatched_run()


def pytest_sessionfinish(session):
    """Stop the background builds if the session ended before their tests (-x, Ctrl-C)."""
    for attr in ("playtest_bounds_check", "playtest_unpatched"):
        started = getattr(session.config, attr, None)
        if started is not None:
            proc, work = started
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            shutil.rmtree(work, ignore_errors=True)
