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


# the tests of tests/test_borrow.py that wait for a build of their own in a background process
# (about two minutes of compiling each): the config attribute of the build and its starter
_BUILDS = {"test_games_never_index_arrays_with_a_negative_index":
           ("playtest_bounds_check", "start_bounds_check"),
           "test_results_are_identical_with_the_patches_off":
           ("playtest_unpatched", "start_unpatched_run")}


def pytest_xdist_make_scheduler(config, log):
    """``-n 2 --dist loadgroup`` (make check, make test): one work unit per game, so that a
    game's tests share one worker, which types and compiles the game's Python-called kernel
    functions once (they are not cached on disk, see sim/borrow.py) where two workers would
    each pay for it; the tests that wait for background builds form the first unit, so the
    builds overlap everything else; every other test is a unit of its own. (pytest-xdist's
    own ``xdist_group`` marks do not group under pytest 9, whose node ids ignore the suffix
    they add.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from collections import OrderedDict

    from xdist.scheduler import LoadScopeScheduling

    from sim.registry import available_games
    games = available_games()

    class BuildsFirst(OrderedDict):
        def __setitem__(self, key, value):
            super().__setitem__(key, value)
            if key == "builds":
                self.move_to_end(key, last=False)

    class ByGame(LoadScopeScheduling):
        def __init__(self, config, log=None):
            super().__init__(config, log)
            self.workqueue = BuildsFirst()

        def _split_scope(self, nodeid):
            if nodeid.rsplit("::", 1)[-1] in _BUILDS:
                return "builds"
            return next((g for g in games if g in nodeid), nodeid)

    return ByGame(config, log)


@pytest.hookimpl(trylast=True)  # after -k/-m deselection
def pytest_collection_modifyitems(config, items):
    """Note which background builds the selected tests wait for, and start them at once, to
    overlap the other tests. Under pytest-xdist every worker collects every test, so there the
    builds start with the first test that waits for one (the scheduler gives both tests to one
    worker, first)."""
    config.playtest_builds = {_BUILDS[item.name][0]: getattr(item.module, _BUILDS[item.name][1])
                              for item in items if item.name in _BUILDS}
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        start_builds(config)


def start_builds(config):
    for attr, start in config.playtest_builds.items():
        if getattr(config, attr, None) is None:
            setattr(config, attr, start())


@pytest.fixture
def background_build(request):
    """``background_build(attr)``: the (process, work directory) of a background build of
    ``_BUILDS``, started now with the others if the session has not started it yet."""
    def get(attr):
        start_builds(request.config)
        return getattr(request.config, attr)
    return get


def pytest_sessionfinish(session):
    """Stop the background builds if the session ended before their tests (-x, Ctrl-C)."""
    for attr, _ in _BUILDS.values():
        started = getattr(session.config, attr, None)
        if started is not None:
            proc, work = started
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            shutil.rmtree(work, ignore_errors=True)
