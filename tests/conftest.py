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


@pytest.hookimpl(trylast=True)  # after -k/-m deselection
def pytest_collection_modifyitems(config, items):
    """Start the bounds-checked build of tests/test_borrow.py (two minutes of compiling in a
    process of its own) as soon as it is known to run, so that it overlaps the other tests."""
    for item in items:
        if item.name == "test_games_never_index_arrays_with_a_negative_index":
            config.playtest_bounds_check = item.module.start_bounds_check()
            return


def pytest_sessionfinish(session):
    """Stop the bounds-checked build if the session ended before its test (-x, Ctrl-C)."""
    started = getattr(session.config, "playtest_bounds_check", None)
    if started is not None:
        proc, work = started
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(work, ignore_errors=True)
