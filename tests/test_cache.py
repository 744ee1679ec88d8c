"""The JIT cache follows the whole simulation source (sim/__init__.py): Numba alone would reuse a
cached kernel after a change to a file it calls into (solo.py, tasks.py, borrow.py, ...)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from numba import config

import sim
from sim.games.flower_shop import kernel

ROOT = Path(__file__).resolve().parents[1]


def test_digest_changes_with_any_simulation_source(tmp_path):
    tree = tmp_path / "sim"
    shutil.copytree(ROOT / "sim", tree, ignore=shutil.ignore_patterns("__pycache__"))
    before = sim.source_digest(tree)
    assert before == sim.source_digest(ROOT / "sim")
    solo = tree / "games" / "flower_shop" / "solo.py"
    solo.write_text(solo.read_text() + "\n# a change in a callee only\n")
    assert sim.source_digest(tree) != before
    (tree / "games" / "flower_shop" / "solo.py").unlink()
    assert sim.source_digest(tree) != before


def test_kernels_cache_in_the_directory_of_this_source():
    name = "playtest-" + sim.source_digest()
    assert Path(config.CACHE_DIR).name == name
    assert os.environ["NUMBA_CACHE_DIR"] == config.CACHE_DIR
    assert Path(kernel.play_many._cache._cache_path).parent == Path(config.CACHE_DIR)


def test_subprocesses_share_the_directory_without_nesting():
    code = "import os, sim; print(os.environ['NUMBA_CACHE_DIR'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip() == config.CACHE_DIR


def test_idle_caches_of_other_source_versions_are_pruned(tmp_path):
    """Directories of other source versions unused for CACHE_MAX_IDLE_DAYS go; the current one,
    recently used ones and anything not named like a cache directory stay."""
    day = 86400
    now = 1_000 * day
    current, old, recent, stamped = ("playtest-" + c * 12 for c in "abcd")
    for d in (current, old, recent, stamped, "playtest-notadigest", "other"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "x.nbi").write_text("cache")
        os.utime(tmp_path / d, (now - 40 * day, now - 40 * day))
    os.utime(tmp_path / recent, (now - 2 * day, now - 2 * day))
    (tmp_path / stamped / ".last-used").touch()
    os.utime(tmp_path / stamped / ".last-used", (now - 29 * day, now - 29 * day))
    (tmp_path / ("playtest-" + "e" * 12)).write_text("a file, not a directory")
    removed = sim.prune_idle_caches(tmp_path, current, now=now)
    assert removed == [tmp_path / old]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([current, recent, stamped, "playtest-notadigest", "other",
                           "playtest-" + "e" * 12])


def test_using_the_cache_stamps_its_directory():
    stamp = Path(config.CACHE_DIR) / ".last-used"
    assert stamp.is_file()
