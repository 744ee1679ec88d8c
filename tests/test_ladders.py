"""Every game's declared skill ladder (``GameSpec.ladder``, the rungs `playtest ladder` plays by
default) climbs at every multiplayer count: one seat of each rung against seats of the rung
below, the seat rotated, wins more than its fair share 1/N by more than two standard errors
(issue: "every rung beats the rung below it with 95% confidence"). The Flower Shop's solo
ladder has its own test (tests/flower_shop/test_solo_ladder.py), the search rung its own
head-to-head test (tests/test_search.py).

Fixed seed; 2,000 games per seat give standard errors of 0.4-1.1 points, against margins of
3.4 points (Cupcake Empire salesman over greedy, 4 players) and more.
"""
import numpy as np
import pytest

from pipelines.tune import seat_shares
from sim import batch, registry

pytestmark = pytest.mark.slow

SEED = 2027
GAMES_PER_SEAT = 2000


def _steps():
    for g in registry.available_games():
        spec = registry.make(g)
        for n in range(max(2, spec.min_players), spec.max_players + 1):
            for lower, higher in zip(spec.ladder, spec.ladder[1:]):
                yield pytest.param(g, n, lower, higher, id=f"{g}-{n}p-{higher}-over-{lower}")


@pytest.mark.parametrize("game,n,lower,higher", list(_steps()))
def test_each_rung_beats_the_rung_below(game, n, lower, higher):
    spec = registry.make(game)
    arms = [batch.make_arm(spec, n, policy=lower, seat_policies={seat: higher})
            for seat in range(n)]
    share = seat_shares(arms, SEED, 0, GAMES_PER_SEAT).ravel()
    se = share.std(ddof=1) / np.sqrt(len(share))
    assert share.mean() > 1 / n + 2 * se, (share.mean(), se)
