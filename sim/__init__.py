"""Simulation core: counter-based RNG, game specs, the registry and the batch runner.

Each game lives in ``sim/games/<game>/`` and exports ``SPEC`` (a :class:`sim.spec.GameSpec`).

JIT cache: Numba checks a cached function only against its own source file, not against the
files of the functions it calls, which are compiled into it. A change to ``solo.py`` alone
would leave the cached ``kernel.play_many`` running the old feasibility check, and a change to
``borrow.py`` would go unseen everywhere. So the cache lives in a directory named after a
digest of every source file of ``sim/``: ``$NUMBA_CACHE_DIR/playtest-<digest>`` (base
``$XDG_CACHE_HOME/playtest`` or ``~/.cache/playtest`` when ``NUMBA_CACHE_DIR`` is unset), and
any change of the simulation code starts a fresh one. Whether ``sim.borrow``'s Numba patches are
in force is part of the key too. Each use stamps its directory
(``.last-used``); the directories of other source versions beside it that went unused for
``CACHE_MAX_IDLE_DAYS`` are deleted (about 15 MB each).
"""
import hashlib
import os
import re
import shutil
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent


def source_digest(root: Path = _ROOT, extra: str = "") -> str:
    """Digest of the names and contents of every ``.py`` file under ``root`` (and of ``extra``,
    settings that change the compiled code)."""
    h = hashlib.sha1(extra.encode())
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


CACHE_MAX_IDLE_DAYS = 30
_CACHE_NAME = re.compile(r"playtest-[0-9a-f]{12}")
_STAMP = ".last-used"


def prune_idle_caches(parent: Path, keep: str, max_idle_days: float = CACHE_MAX_IDLE_DAYS,
                      now: float | None = None) -> list[Path]:
    """Delete the cache directories of other source versions (``playtest-<digest>``, never
    ``keep`` nor anything else) under ``parent`` that went unused for ``max_idle_days`` (by their
    ``.last-used`` stamp, else their own time). Returns the deleted directories."""
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(parent.iterdir())
    except OSError:
        return removed
    for d in entries:
        if d.name == keep or not _CACHE_NAME.fullmatch(d.name) or not d.is_dir():
            continue
        try:
            stamp = d / _STAMP
            last = (stamp if stamp.exists() else d).stat().st_mtime
        except OSError:
            continue
        if now - last > max_idle_days * 86400:
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed


def _use_cache_of_this_source() -> None:
    from .borrow import ENABLED  # the Numba patches change the compiled code
    name = "playtest-" + source_digest(extra="" if ENABLED else "numba-patches-off")
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "playtest")
    if _CACHE_NAME.fullmatch(os.path.basename(os.path.normpath(base))):
        base = os.path.dirname(os.path.normpath(base))  # inherited from a parent run
    base = os.path.join(base, name)
    os.environ["NUMBA_CACHE_DIR"] = base  # subprocesses and Numba's config reloads
    from numba import config
    config.CACHE_DIR = base
    try:
        os.makedirs(base, exist_ok=True)
        Path(base, _STAMP).touch()
    except OSError:  # a read-only cache location: Numba warns about it itself
        return
    prune_idle_caches(Path(base).parent, name)


_use_cache_of_this_source()
