"""Fixtures for pipeline tests: the fake game in the registry, a CLI runner, store helpers."""
import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fakegame  # noqa: E402


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
