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
    for replay_point in (profile.ALL, profile.TIMED, *np.flatnonzero(run.counts)):
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
    names = set(arm.spec.steps.points.values()) | {profile.END}
    assert p.rules_points and {name for name, _, _ in p.rules_points} <= names
    assert p.rules_points[-1][0] == profile.END
    assert all(listing >= 0 and applying >= 0 for _, listing, applying in p.rules_points)
    timed = sum(listing + applying for _, listing, applying in p.rules_points)
    assert 0.5 * p.rules_us < timed <= p.rules_us      # the rest: setting up, result rows


def test_rules_by_point_shares_the_rules_time_by_the_cycles_of_each_part():
    """Hand-built cycles: a part's time is its share of the call's cycles times the rules'
    time; a point with no cycles is left out; the steps after the last decision come last."""
    ticks = np.zeros((3, 4), dtype=np.int64)
    ticks[profile.LISTING] = [10, 30, 0, 5]
    ticks[profile.APPLYING] = [2, 3, 0, 0]
    ticks[profile.CALL, 0] = 100
    rows = profile.rules_by_point(ticks, {0: "a", 1: "b", 2: "c"}, 50.0)
    assert rows == [("a", 5.0, 1.0), ("b", 15.0, 1.5), (profile.END, 2.5, 0.0)]
    ticks[profile.CALL, 0] = 0                  # a counter that reads nothing: no parts
    assert profile.rules_by_point(ticks, {0: "a"}, 50.0) == []


def test_the_cycle_counter_counts_on():
    from numba import njit

    @njit
    def twice():
        a = profile.cycles()
        s = 0
        for i in range(10_000):
            s += i
        return a, profile.cycles(), s

    a, b, _ = twice()
    assert b > a > 0
