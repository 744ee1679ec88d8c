"""Golden results: what every registered game plays, pinned per game version.

For every game, player count and shipped policy (the search policies at the smallest count,
and every variant under ``greedy`` at its smallest player count) a fixed small run is hashed (its games and seats rows, the int64
arrays ``sim.batch.run_games`` returns and the store writes), and one playthrough per game is
kept as text (``playtest replay``'s log and result rows). ``tests/golden/<game>.json`` holds the
hashes and the game version they belong to, ``<game>.replay.txt`` the playthrough.

``tests/test_golden.py`` fails when a game's results or playthrough change while its
``version`` stays the same (a refactor that is not one), and when the version moved without
the goldens (stale goldens). An intended change of results is recorded by one command, which
writes the new version into the game's ``__init__.py`` and regenerates its goldens::

    make goldens GAME=rattlebones VERSION=1.2.1      # results changed: bump and regenerate
    make goldens GAME=rattlebones                    # no results changed (a new policy, say)

Without ``VERSION`` the command refuses to overwrite a hash or playthrough that changed.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 11            # the conformance tests play the same games (tests/test_conformance.py)
N_GAMES = 300
SEARCH_GAMES = 2     # the search policies play 1-150 games/s: a couple pin them
SEARCH_POLICY = "{name}:rollouts=2"
REPLAY_SEED = 1
REPLAY_INDEX = 0


@dataclass(frozen=True)
class Case:
    """One pinned run: ``n_players`` seats of ``policy`` under ``variant`` (None: default)."""

    n_players: int
    policy: str
    variant: str | None = None

    @property
    def key(self) -> str:
        return f"{self.n_players}p {self.policy}" + (f" {self.variant}" if self.variant else "")


def cases(spec) -> list[Case]:
    """Every player count × shipped policy, and every non-default variant under ``greedy`` at
    its smallest count. The search policies (``sim.search``, one generic loop over the game's
    step machine) play a couple of games at the smallest count: they play 1-150 games/s."""
    out = []
    for n in range(spec.min_players, spec.max_players + 1):
        for name, pol in spec.policies.items():
            if pol.params is None:
                out.append(Case(n, name))
            elif n == spec.min_players:
                out.append(Case(n, SEARCH_POLICY.format(name=name)))
    for name, v in spec.variants.items():
        n = max(spec.min_players, v.players[0]) if v.players else spec.min_players
        if name != spec.default_variant(n):
            out.append(Case(n, "greedy", name))
    return out


@lru_cache(maxsize=None)
def run(game: str, n_players: int, policy: str, variant: str | None = None):
    """The rows of one pinned run (cached: the conformance tests check the same games)."""
    from sim import batch, registry
    spec = registry.make(game)
    arm = batch.make_arm(spec, n_players, variant=variant, policy=policy)
    n = SEARCH_GAMES if ":" in policy else N_GAMES
    return batch.run_games(arm, master_seed=SEED, first_index=0, n_games=n)


def digest(games: np.ndarray, seats: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in (games, seats):
        a = np.ascontiguousarray(a, dtype="<i8")
        h.update(repr(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def hashes(game: str) -> dict[str, str]:
    from sim import registry
    return {c.key: digest(*run(game, c.n_players, c.policy, c.variant))
            for c in cases(registry.make(game))}


def playthrough(game: str) -> str:
    """One game as text: the replay log and the seat rows (greedy, the most players)."""
    from sim import batch, registry
    spec = registry.make(game)
    arm = batch.make_arm(spec, spec.max_players, policy="greedy")
    evs, g, s = batch.replay(arm, REPLAY_SEED, REPLAY_INDEX)
    head = (f"{spec.id}: {arm.n_players} players, variant {arm.variant}, policy greedy, "
            f"seed {REPLAY_SEED}, game index {REPLAY_INDEX}")
    return "\n".join([head, ""] + batch.game_text(arm, evs, g) + batch.seat_lines(arm, s)) + "\n"


def json_path(game: str) -> Path:
    return HERE / f"{game}.json"


def text_path(game: str) -> Path:
    return HERE / f"{game}.replay.txt"


def stored(game: str) -> tuple[dict | None, str | None]:
    """The stored goldens of ``game`` (None where missing)."""
    j, t = json_path(game), text_path(game)
    return (json.loads(j.read_text()) if j.exists() else None,
            t.read_text() if t.exists() else None)


def differences(old: dict | None, old_text: str | None, new: dict[str, str], new_text: str) -> list[str]:
    """What changed between stored goldens and a fresh computation, one line each."""
    if old is None:
        return ["no goldens stored"]
    out = [f"{k}: {old['hashes'].get(k, 'missing')} -> {v}"
           for k, v in new.items() if old["hashes"].get(k) != v]
    out += [f"{k}: no longer played" for k in old["hashes"] if k not in new]
    if old_text != new_text:
        out.append("the playthrough text changed")
    return out


def write(game: str, version: str, new: dict[str, str], text: str) -> None:
    doc = {"game": game, "version": version, "seed": SEED, "games": N_GAMES,
           "search_games": SEARCH_GAMES, "hashes": new}
    json_path(game).write_text(json.dumps(doc, indent=1) + "\n")
    text_path(game).write_text(text)
