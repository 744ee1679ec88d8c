"""``python tests/pipelines/fakecli.py ARGS`` = ``playtest ARGS`` with the fake game registered.

Used by the subprocess tests (kill/resume). ``PLAYTEST_TEST_CHUNK_DELAY=s`` sleeps after each
part is written (so a test can kill the process mid-run).
"""
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

import fakegame  # noqa: E402

fakegame.install()

delay = float(os.environ.get("PLAYTEST_TEST_CHUNK_DELAY", "0") or 0)
if delay:
    from pipelines import store as _store

    _orig = _store.Store.write_part

    def _slow_write_part(self, *a, **k):
        p = _orig(self, *a, **k)
        time.sleep(delay)
        return p

    _store.Store.write_part = _slow_write_part

from pipelines.cli import main  # noqa: E402

main()
