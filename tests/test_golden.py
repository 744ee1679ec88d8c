"""Golden results (tests/golden/): a game's results change only with its version.

Each game's hashed runs and playthrough must equal the stored ones, and the stored ones must
belong to the game's current version. To record an intended change of results, bump the
version and regenerate in one step: ``make goldens GAME=<game> VERSION=<new>``.
"""
import pytest

from sim import registry
from tests import golden

GAMES = registry.available_games()


@pytest.mark.parametrize("game", GAMES)
def test_results_match_the_goldens_of_this_version(game):
    spec = registry.make(game)
    old, old_text = golden.stored(game)
    assert old is not None and old_text is not None, (
        f"{game} has no goldens: make goldens GAME={game}")
    diff = golden.differences(old, old_text, golden.hashes(game), golden.playthrough(game))
    if old["version"] == spec.version:
        assert not diff, (
            f"{game}'s results changed but its version ({spec.version}) did not. If the change "
            f"is intended, bump it: make goldens GAME={game} VERSION=<new>\n  " + "\n  ".join(diff[:20]))
    else:
        pytest.fail(f"{game} is at version {spec.version} but its goldens are of "
                    f"{old['version']}: make goldens GAME={game} VERSION={spec.version}"
                    + ("\n  " + "\n  ".join(diff[:20]) if diff else " (results identical)"))
