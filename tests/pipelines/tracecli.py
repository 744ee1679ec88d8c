"""``python tests/pipelines/tracecli.py ARGS`` = ``fakecli.py ARGS`` with Rattlebones traced by
the test ``TraceSpec`` of ``tracegame.py`` (the subprocess kill/resume test of
``test_traces.py``)."""
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

import tracegame  # noqa: E402

tracegame.install()
runpy.run_path(str(HERE / "fakecli.py"), run_name="__main__")
