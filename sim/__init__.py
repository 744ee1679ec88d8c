"""Simulation core: counter-based RNG, game specs, the registry and the batch runner.

Each game lives in ``sim/games/<game>/`` and exports ``SPEC`` (a :class:`sim.spec.GameSpec`).

JIT cache: Numba checks a cached function only against its own source file, not against the
files of the functions it calls, which are compiled into it. A change to ``solo.py`` alone
would leave the cached ``kernel.play_many`` running the old feasibility check, and a change to
``borrow.py`` would go unseen everywhere. So the cache lives in a directory named after a
digest of every source file of ``sim/``: ``$NUMBA_CACHE_DIR/playtest-<digest>`` (base
``$XDG_CACHE_HOME/playtest`` or ``~/.cache/playtest`` when ``NUMBA_CACHE_DIR`` is unset), and
any change of the simulation code starts a fresh one.
"""
import hashlib
import os
from pathlib import Path

_ROOT = Path(__file__).resolve().parent


def source_digest(root: Path = _ROOT) -> str:
    """Digest of the names and contents of every ``.py`` file under ``root``."""
    h = hashlib.sha1()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _use_cache_of_this_source() -> None:
    name = "playtest-" + source_digest()
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "playtest")
    if os.path.basename(os.path.normpath(base)) != name:  # not inherited from a parent run
        base = os.path.join(base, name)
    os.environ["NUMBA_CACHE_DIR"] = base  # subprocesses and Numba's config reloads
    from numba import config
    config.CACHE_DIR = base


_use_cache_of_this_source()
