"""``python tests/pipelines/fakecli.py ARGS`` = ``playtest ARGS`` with the fake game registered.

Used by the subprocess tests (kill/resume). ``PLAYTEST_TEST_CHUNK_DELAY=s`` sleeps after each
part is written (so a test can kill the process mid-run). ``PLAYTEST_TEST_MANIFEST_DELAY=s`` sleeps
after the first manifest read, once it has touched the file ``PLAYTEST_TEST_MANIFEST_MARK`` (so a
test can start another run in between).
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

read_delay = float(os.environ.get("PLAYTEST_TEST_MANIFEST_DELAY", "0") or 0)
if read_delay:
    from pipelines import store as _store

    _orig_read = _store.Store.read_manifest
    _reads = []

    def _slow_read_manifest(self, *a, **k):
        m = _orig_read(self, *a, **k)
        if not _reads:
            _reads.append(1)
            Path(os.environ["PLAYTEST_TEST_MANIFEST_MARK"]).touch()
            time.sleep(read_delay)
        return m

    _store.Store.read_manifest = _slow_read_manifest

from pipelines.cli import main  # noqa: E402

main()
