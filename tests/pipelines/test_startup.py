"""Start-up guard, without timing: the CLI imports only what a command needs.

Importing scipy.stats takes about half a second, pandas a quarter, statsmodels, matplotlib and
Dask as much again: longer than a small ``playtest run``. So ``playtest --help`` (and the parsing
of any command) imports neither Numba nor the analysis libraries, and ``playtest run`` imports
none of the statistics, plotting, report or cluster libraries: its win-rate table needs DuckDB
and numpy only (:mod:`analysis.summary`). Each check runs in a fresh interpreter.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

#: Never imported by ``playtest run`` (Numba itself imports the ``scipy`` package and
#: ``scipy.linalg``, so those two are not listed).
NOT_ON_THE_RUN_PATH = ("scipy.stats", "statsmodels", "pandas", "matplotlib", "seaborn", "dask",
                       "distributed", "optuna", "jinja2")
#: Not even imported to show help or parse a command's options.
NOT_FOR_HELP = NOT_ON_THE_RUN_PATH + ("numba", "sim", "scipy", "duckdb", "pyarrow", "polars")

_REPORT = ("import atexit, json, sys\n"
           "atexit.register(lambda: print('LOADED ' + json.dumps(sorted(\n"
           "    m for m in {names!r} if m in sys.modules)), file=sys.stderr))\n")


def _loaded(code: str, names, **kw) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run ``code`` in a fresh interpreter (this tree first on the path); the modules of
    ``names`` that it had imported when it exited."""
    r = subprocess.run([sys.executable, "-c", _REPORT.format(names=tuple(names)) + code],
                       capture_output=True, text=True, cwd=ROOT, timeout=600, **kw)
    line = next((ln for ln in r.stderr.splitlines() if ln.startswith("LOADED ")), None)
    assert line is not None, r.stderr[-3000:]
    return r, json.loads(line[len("LOADED "):])


@pytest.mark.parametrize("argv", [["--help"], ["run", "--help"], ["sql", "--help"]])
def test_help_imports_no_simulation_and_no_analysis_library(argv):
    code = (f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
            f"sys.argv = ['playtest'] + {argv!r}\n"
            "from pipelines.cli import main\nmain()\n")
    r, loaded = _loaded(code, NOT_FOR_HELP)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Usage" in r.stdout
    assert loaded == [], f"`playtest {' '.join(argv)}` imported {loaded}"


def test_run_imports_no_statistics_plotting_or_cluster_library(tmp_path):
    """A real run (the fake game, through ``playtest run``) prints its win-rate table with
    none of those libraries loaded."""
    argv = ["fakecli.py", "run", "fakedice", "--players", "2-3", "--games", "200", "--store",
            str(tmp_path / "store"), "--quiet", "--workers", "1"]
    code = (f"import runpy, sys\nsys.argv = {argv!r}\n"
            f"runpy.run_path({str(HERE / 'fakecli.py')!r}, run_name='__main__')\n")
    r, loaded = _loaded(code, NOT_ON_THE_RUN_PATH)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Win rate by seat" in r.stdout and "95% CI" in r.stdout, r.stdout
    assert loaded == [], f"`playtest run` imported {loaded}"
