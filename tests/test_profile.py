"""sim.profile (``python -m pipelines.bench --profile``): the games it times are the games of
a run, and replaying their recorded choices plays them again."""
import numpy as np
import pytest

from sim import batch, profile
from sim.registry import available_games, make


@pytest.mark.parametrize("game", available_games())
def test_recorded_and_replayed_games_are_the_games_of_run_games(game):
    spec = make(game)
    n = spec.max_players
    arm = batch.make_arm(spec, n)
    g, s = batch.run_games(arm, 5, 0, 12)
    run = profile.Run(arm, 12, 5)
    run.choices = np.zeros((12, 8), dtype=np.int64)       # too narrow: the record widens it
    decisions = run.record()
    assert run.choices.shape[1] > 8
    np.testing.assert_array_equal(run.games_out, g)
    np.testing.assert_array_equal(run.seats_out, s)
    assert run.counts.sum() == decisions > 0
    assert set(np.flatnonzero(run.counts)) <= set(spec.steps.points)
    for replay_point in (profile.ALL, *np.flatnonzero(run.counts)):
        run.games_out[:] = 0
        run.seats_out[:] = 0
        assert run.play(replay_point) == decisions
        np.testing.assert_array_equal(run.games_out, g)
        np.testing.assert_array_equal(run.seats_out, s)


def test_profile_accounts_for_every_decision():
    arm = batch.make_arm(make("rattlebones"), 2)
    p = profile.profile(arm, games=50, repeats=1)
    assert sum(d for _, d, _ in p.points) == pytest.approx(p.decisions)
    assert {name for name, _, _ in p.points} <= set(arm.spec.steps.points.values())
    assert p.total_us > 0 and p.setup_us > 0
