"""Regenerate a game's goldens: ``python -m tests.golden GAME [--version X.Y.Z]``
(``make goldens GAME=... [VERSION=...]``). See ``tests/golden/__init__.py``."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from . import differences, hashes, playthrough, stored, write

ROOT = Path(__file__).resolve().parents[2]
_VERSION = re.compile(r'(\bversion\s*=\s*")([^"]+)(")')


def set_version(game: str, version: str) -> str:
    """Write ``version`` into ``sim/games/GAME/__init__.py``; returns the old one."""
    path = ROOT / "sim" / "games" / game / "__init__.py"
    text = path.read_text()
    m = _VERSION.search(text)
    if m is None:
        raise SystemExit(f"no version=\"...\" in {path}")
    path.write_text(text[:m.start(2)] + version + text[m.end(2):])
    return m.group(2)


def main(argv=None) -> int:
    from sim import registry
    ap = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    ap.add_argument("game", nargs="?", help="game id (default: every game)")
    ap.add_argument("--version", help="the game's new version, when its results changed")
    a = ap.parse_args(argv)
    games = [a.game] if a.game else registry.available_games()
    if a.version and len(games) != 1:
        ap.error("--version needs one GAME")
    for game in games:
        spec = registry.make(game)
        old, old_text = stored(game)
        new, text = hashes(game), playthrough(game)
        # a run or a playthrough that changed (runs added or dropped change no results)
        changed = [] if old is None else [
            d for d in differences(old, old_text, new, text)
            if "missing ->" not in d and "no longer played" not in d]
        version = spec.version
        if a.version:
            if a.version == spec.version and old is not None and old["version"] == spec.version:
                ap.error(f"{game} is at version {spec.version} already: give the new version")
            if not changed and old is not None:
                print(f"{game}: results are identical; the version moves all the same")
            version = a.version
            if version != spec.version:
                set_version(game, version)
        elif changed:
            print(f"{game}: results changed, version {spec.version} did not:", *changed[:20],
                  "bump it: make goldens GAME={game} VERSION=<new>", sep="\n  ", file=sys.stderr)
            return 1
        write(game, version, new, text)
        print(f"{game} {version}: {len(new)} runs hashed, playthrough "
              f"{text.count(chr(10))} lines -> tests/golden/{game}.*")
    return 0


if __name__ == "__main__":
    sys.exit(main())
