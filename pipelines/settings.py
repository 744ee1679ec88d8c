"""Pipeline settings: store root, chunk size, demo size, code version.

The store root is resolved as ``--store DIR`` > ``$PLAYTEST_STORE`` > ``data/`` of the repository
(when running from a source checkout) > ``./data``.
"""
from __future__ import annotations

import os
import subprocess
from functools import lru_cache
from pathlib import Path

#: Games per chunk (one Parquet part per arm and chunk). Peak memory of a run grows with it:
#: about 480 MB at 50k and 680 MB at 100k for 4-player Flower Shop.
DEFAULT_CHUNK_SIZE = 50_000
#: Games per chunk of an arm with search seats when ``--chunk-size`` is not given: a search plays
#: 10-150 games/s (``docs/search.md``), so a chunk takes seconds to a minute, the progress bar
#: moves and a killed run loses little. Arms without search seats keep the run's chunk size.
SEARCH_CHUNK_SIZE = 500
#: ``playtest ladder --search``: games per arm of the search rung (one arm per seat), unless
#: ``--search-games`` (or a smaller ``--games``) says otherwise.
LADDER_SEARCH_GAMES = 100
#: Upper limits, checked before anything is written (exit 2 naming the limit): games per arm
#: (``--games``, ``--max-games``, TOML ``games``), games per chunk (memory grows with it, see
#: above) and chunks per arm (the run keeps one task per chunk).
MAX_GAMES = 1_000_000_000
MAX_CHUNK_SIZE = 1_000_000
MAX_CHUNKS = 100_000
#: Default number of games per arm for ``playtest run``.
DEFAULT_GAMES = 100_000
#: Default of ``playtest run --trace N`` (and the TOML key ``trace``): round traces (the
#: ``rounds`` and ``actions`` tables) of the first N games of every arm; 0 turns them off. Other
#: commands that run experiments (compare, sweep, ladder, demo...) trace nothing.
DEFAULT_TRACE = 1_000
#: Default master seed.
DEFAULT_SEED = 1
#: Largest accepted master seed (seeds are 0 <= s < 2**63).
MAX_SEED = 2**63 - 1
#: Default policy for every seat.
DEFAULT_POLICY = "greedy"
#: ``playtest tune``: CMA-ES's first step as a fraction of every tuned parameter's range.
DEFAULT_TUNE_STEP = 0.1

#: ``playtest demo``: game, player counts, games per player count, seed, policy.
DEMO_GAME = "flower_shop"
DEMO_PLAYERS = (2, 3, 4)
DEMO_GAMES = 200_000
DEMO_SEED = 1
DEMO_POLICY = "greedy"

STORE_ENV = "PLAYTEST_STORE"
REPO_ROOT = Path(__file__).resolve().parents[1]


def store_root(explicit: str | os.PathLike | None = None) -> Path:
    """The store directory (not created here: bad input must write nothing).

    Raises
    ------
    sim.spec.SpecError
        ``explicit`` is an empty or blank path (``--store ''``): never the default store in
        its place.
    """
    if explicit is not None and not str(os.fspath(explicit)).strip():
        from sim.spec import SpecError

        raise SpecError(f"--store: {str(os.fspath(explicit))!r} is not a directory; give a "
                        f"store directory (or leave --store out for the default)")
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(STORE_ENV)
    if env:
        return Path(env).expanduser()
    if (REPO_ROOT / "pyproject.toml").is_file() and (REPO_ROOT / "data").is_dir():
        return REPO_ROOT / "data"
    return Path.cwd() / "data"


def default_workers() -> int:
    """All cores available to this process."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - non-Linux
        return max(1, os.cpu_count() or 1)


@lru_cache(maxsize=1)
def code_version() -> str:
    """Package version plus the git commit (``+dirty`` if the tree has local changes)."""
    try:
        from importlib.metadata import version

        pkg = version("playtest")
    except Exception:  # pragma: no cover - not installed
        pkg = "0+unknown"
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "describe", "--always", "--dirty", "--abbrev=10"],
            capture_output=True, text=True, timeout=5,
        )
        if out.returncode == 0 and out.stdout.strip():
            return f"{pkg}+g{out.stdout.strip()}"
    except Exception:  # pragma: no cover - git missing
        pass
    return pkg
