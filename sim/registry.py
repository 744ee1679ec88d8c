"""The one registry of games. Adding a game = one line in ``_GAMES`` here.

A game's module is imported when the game is first asked for (a Flower Shop run does not
import the other three games, a quarter of a second of start-up each); the ids below are the
whole list, in registration order.
"""
from __future__ import annotations

import importlib
from dataclasses import replace

from .spec import GameSpec, SpecError, unknown_name

# game id -> the package that exports its SPEC (tests may register a GameSpec itself)
_GAMES: dict[str, str | GameSpec] = {
    "flower_shop": "sim.games.flower_shop",
    "rattlebones": "sim.games.rattlebones",
    "cupcake_empire": "sim.games.cupcake_empire",
    "waggle_dance": "sim.games.waggle_dance",
}
_LOADED: dict[str, GameSpec] = {}


def available_games() -> list[str]:
    """Registered game ids, in registration order."""
    return list(_GAMES)


def _load(game_id: str) -> GameSpec:
    """The game's SPEC, with the search policies (sim.search) joined to its own policies."""
    from .search import search_policies, searchable
    spec = importlib.import_module(_GAMES[game_id]).SPEC
    if spec.id != game_id:
        raise RuntimeError(f"registry: {_GAMES[game_id]} declares id {spec.id!r}, not {game_id!r}")
    if searchable(spec):
        spec = replace(spec, policies={**spec.policies, **search_policies(spec)})
    return spec


def make(game_id: str) -> GameSpec:
    """The spec of ``game_id``; unknown ids raise SpecError listing the valid ones."""
    if game_id not in _GAMES:
        raise SpecError(unknown_name("game", game_id, available_games()))
    if isinstance(_GAMES[game_id], GameSpec):
        return _GAMES[game_id]
    if game_id not in _LOADED:
        _LOADED[game_id] = _load(game_id)
    return _LOADED[game_id]
