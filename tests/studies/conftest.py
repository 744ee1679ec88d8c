"""Fixtures of the study tests (compare / sweep / plan / precision / notebooks).

The fake game of the pipeline tests (``fakedice``, tests/pipelines/fakegame.py) is registered
for every test here; it compiles in seconds. Flower Shop is used only where the real game
matters (a planted effect, the notebooks); its kernel compiles once per session.
"""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest

PIPELINE_TESTS = Path(__file__).resolve().parents[1] / "pipelines"
sys.path.insert(0, str(PIPELINE_TESTS))

from pipe_helpers import cli, fake_game  # noqa: E402,F401  (fixtures)

from .studyhelpers import html_text, listing  # noqa: E402,F401


@pytest.fixture(scope="session")
def flower_compare(tmp_path_factory):
    """A small real comparison: Flower Shop, 4 players, seat 0 plays ``random`` in the tweak
    arm (all ``greedy`` in the baseline): a planted effect against seat 0."""
    from analysis import db, studies
    from pipelines import runner
    from pipelines.studies import compare_experiment

    store = tmp_path_factory.mktemp("flower") / "store"
    exp = compare_experiment("flower_shop", (), players=4, tweak_seat_policies=["0=random"],
                             games=400, seed=11)
    runner.run(exp, store, workers=2, quiet=True)
    con = db.connect(store)
    pair = exp.source["pairs"][0]
    table = studies.compare_frames(db.arm_games(con, exp.name, pair["tweak"]),
                                   db.arm_games(con, exp.name, pair["baseline"]))
    con.close()
    return store, exp, table
