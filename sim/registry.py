"""The one registry of games. Adding a game = one import and one entry here."""
from __future__ import annotations

from dataclasses import replace

from .search import search_policies, searchable
from .spec import GameSpec, SpecError, unknown_name
from .games.flower_shop import SPEC as _flower_shop
from .games.rattlebones import SPEC as _rattlebones
from .games.cupcake_empire import SPEC as _cupcake_empire
from .games.waggle_dance import SPEC as _waggle_dance

_GAMES: dict[str, GameSpec] = {
    _flower_shop.id: _flower_shop,
    _rattlebones.id: _rattlebones,
    _cupcake_empire.id: _cupcake_empire,
    _waggle_dance.id: _waggle_dance,
}
# The search policies (sim.search) join the policies of every game with the hooks they need.
_GAMES = {k: replace(g, policies={**g.policies, **search_policies(g)}) if searchable(g) else g
          for k, g in _GAMES.items()}


def available_games() -> list[str]:
    """Registered game ids, in registration order."""
    return list(_GAMES)


def make(game_id: str) -> GameSpec:
    """The spec of ``game_id``; unknown ids raise SpecError listing the valid ones."""
    try:
        return _GAMES[game_id]
    except KeyError:
        raise SpecError(unknown_name("game", game_id, available_games())) from None
