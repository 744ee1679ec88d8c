"""Fixtures for pipeline tests: the fake game in the registry, a CLI runner (pipe_helpers)."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from pipe_helpers import cli, fake_game, fake_speed  # noqa: E402,F401  (fixtures)
