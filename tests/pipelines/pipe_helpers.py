"""Fixtures and store helpers shared by the pipeline and study tests (a module of its own: test
files and conftests import it by name)."""
from pathlib import Path

import polars as pl
import pytest

import fakegame

HERE = Path(__file__).resolve().parent


def listing(root: Path) -> list[str]:
    """Every file/dir under root (relative), sorted; [] if root does not exist."""
    if not root.exists():
        return []
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def content(store: Path, table: str) -> pl.DataFrame:
    """All rows of a table, sorted by their keys (compare runs independent of file layout)."""
    keys = ["experiment", "arm", "game_index"] + (["seat"] if table == "seats" else [])
    files = sorted((store / "results" / table).rglob("*.parquet"))
    return pl.concat([pl.read_parquet(f) for f in files]).sort(keys)


def arm_games(store: Path, arm: str) -> list[int]:
    """The game indices the store holds for ``arm``, sorted."""
    g = content(store, "games")
    return sorted(g.filter(g["arm"] == arm)["game_index"].to_list())


@pytest.fixture
def fake_speed(monkeypatch):
    """The ``--budget`` pilot replaced by a fixed speed (``fake_speed.speed`` games/s);
    ``fake_speed.calls`` lists the arms it measured."""
    from pipelines import budget

    calls = []

    def fake(arm, seed, **kw):
        calls.append(arm)
        return fake.speed, 8

    fake.speed = 50.0
    fake.calls = calls
    monkeypatch.setattr(budget, "measure_speed", fake)
    return fake


@pytest.fixture(autouse=True)
def fake_game(monkeypatch):
    """Register the fake game (``fakedice``) for the duration of a test."""
    return fakegame.install(monkeypatch)


@pytest.fixture
def cli():
    """``cli("run", "fakedice", ...)`` -> click Result (exit_code, stdout, stderr)."""
    from typer.testing import CliRunner

    from pipelines.cli import app

    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)

    return invoke


# bad --also-games/--budget input and its message, the same for run and compare (with
# --games 500: tests/pipelines/test_also_games.py and test_compare_also_games.py)
BAD_ALSO = [
    (("--also-policy", "random", "--also-games", "foo=10"),
     "'foo' is not one of the --also-policy values; valid: random"),
    (("--also-policy", "random", "--also-games", "random=0"), "from 1 to 500 (--games)"),
    (("--also-policy", "random", "--also-games", "random=501"), "from 1 to 500 (--games)"),
    (("--also-policy", "random", "--also-games", "random"), "must look like NAME=N"),
    (("--also-policy", "random", "--also-games", "random=5", "--also-games", "random=6"),
     "given twice"),
    (("--also-games", "random=10",), "add the --also-policy it is for"),
    (("--also-policy", "random", "--budget", "10x"), "give a duration like 90s, 10m, 1h"),
    (("--budget", "10m",), "add an --also-policy"),
]
