"""What fixes a favoured seat (analysis/compensate.py): the offline points bonus recovers a
planted score offset and finds none in a symmetric game; the tie rules on hand-made games; the
continuity-corrected win rates against their integral; the parameter search on a fake game
with a known win-rate curve."""
import json
import math

import numpy as np
import pytest
from scipy import integrate

from analysis import compensate, db
from analysis_synth import arm_manifest, make_multiplayer_arm, write_arm, write_manifest


# ---- the offline points bonus -------------------------------------------------------------------
def test_win_rates_share_ties_and_half_points_break_them():
    scores = np.array([[5, 5], [7, 3], [2, 4], [6, 6]])
    assert compensate.win_rates(scores, [0, 0]).tolist() == [0.5, 0.5]  # (.5+1+0+.5)/4
    # +2 for seat 1: game 2 (7 vs 5) stays seat 0's, ties become seat 1's wins in games 1, 4
    # and game 3 (2 vs 6) stays seat 1's
    assert compensate.win_rates(scores, [2]).tolist() == [0.25, 0.75]
    # a half point wins the ties it would share: seat 1 takes games 1, 3 and 4
    assert compensate.win_rates(scores, [0.5]).tolist() == [0.25, 0.75]
    assert compensate.win_rates(scores, [-0.5]).tolist() == [0.75, 0.25]
    three = np.array([[4, 4, 4], [1, 3, 3]])
    np.testing.assert_allclose(compensate.win_rates(three, [0, 0, 0]), [1 / 6, 5 / 12, 5 / 12])


def test_smoothed_win_rates_are_the_integral_of_the_rounded_scores():
    """Two seats with equal scores and half a point for seat 1: the difference of two uniform
    roundings is triangular on (-1, 1), so seat 1 wins with 1 - 0.5 * 0.5**2 = 0.875."""
    np.testing.assert_allclose(compensate.smoothed_win_rates([[3, 3]], [0, 0.5]),
                               [0.125, 0.875], atol=1e-12)
    # four seats, one game: each seat's chance is the integral of the others' CDFs
    adj = np.array([0.0, 0.3, -0.6, 0.9])
    got = compensate.smoothed_win_rates([[0, 0, 0, 0]], adj)
    cdf = lambda x, c: np.clip(x - c + 0.5, 0.0, 1.0)  # noqa: E731
    for j in range(4):
        want = integrate.quad(lambda x, j=j: np.prod([cdf(x, adj[k]) for k in range(4) if k != j]),
                              adj[j] - 0.5, adj[j] + 0.5, points=sorted(adj + 0.5) + sorted(
                                  adj - 0.5), limit=200)[0]
        assert got[j] == pytest.approx(want, abs=1e-10)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def _scores(n_games, n_players, seed, shift=()):
    """Integer final scores, i.i.d. per seat (a 'game' with spread about 6 points); ``shift``:
    (seat, points) pairs moving that seat's whole distribution down."""
    rng = np.random.default_rng(seed)
    s = rng.poisson(30, (n_games, n_players)).astype(float)
    for seat, d in shift:
        s[:, seat] -= d
    return s


def test_planted_offset_is_recovered_within_its_interval():
    """Seat 1's scores are seat 0's distribution moved down by 2 points: the bonus that
    balances them is exactly 2, and with whole points 2 is the best value."""
    r = compensate.seat_bonus(_scores(4000, 2, seed=11, shift=[(1, 2)]), n_boot=200, seed=1)
    lo, hi = r.interval[1]
    assert lo < 2.0 < hi and hi - lo < 1.0
    assert abs(r.bonus[1] - 2.0) < 0.3
    assert r.whole == (0, 2)
    assert r.before.estimate > 0.05  # seat 0 won about 60% before
    assert r.residual.low == 0.0 and r.residual.estimate < 0.02
    # with the bonus, the exact tie rule gives each seat about 1/2
    assert all(abs(w - 0.5) < 0.02 for w in r.residual.win_rate)


def test_planted_offset_three_players():
    """Seat 2 three points down, seat 1 even: bonuses about (0, 0, 3)."""
    r = compensate.seat_bonus(_scores(3000, 3, seed=5, shift=[(2, 3)]), n_boot=150, seed=2)
    assert r.interval[1][0] < 0.0 < r.interval[1][1]
    assert r.interval[2][0] < 3.0 < r.interval[2][1]
    assert r.whole == (0, 0, 3)
    assert r.boot_failed == 0


def test_symmetric_game_needs_no_bonus():
    r = compensate.seat_bonus(_scores(3000, 3, seed=8), n_boot=150, seed=3)
    for s in (1, 2):
        assert r.interval[s][0] < 0.0 < r.interval[s][1]
    assert r.whole == (0, 0, 0)
    assert r.before.low == 0.0  # the fair share is inside every seat's interval


def test_to_json_is_plain_json():
    r = compensate.seat_bonus(_scores(500, 2, seed=1, shift=[(1, 1)]), n_boot=20)
    j = r.to_json()
    assert {"bonus", "interval", "residual", "resimulated"} <= set(j)
    assert j["resimulated"] is None and len(j["bonus"]) == 2 and j["bonus"][0] == 0.0
    json.loads(json.dumps(j, allow_nan=False))
    done = r.with_resimulation({"bonus": [0, 1], "win_rate": [0.5, 0.5]})
    assert done.to_json()["resimulated"]["bonus"] == [0, 1]
    assert any("Best whole points" in line for line in r.describe())


def test_solo_is_refused_and_a_far_gap_is_still_solved():
    with pytest.raises(ValueError, match="at least 2 players"):
        compensate.seat_bonus(np.zeros((10, 1)))
    # seat 1 always ~100 points ahead: half the games 0-100, half 1-100; -99.5 ties neither
    # kind, and a half point is exact where whole points leave a 25-point gap either way
    r = compensate.seat_bonus(np.array([[0, 100]] * 10 + [[1, 100]] * 10), n_boot=50)
    assert r.bonus[1] == pytest.approx(-99.5) and r.half == (0.0, -99.5)
    assert r.half_residual.estimate == 0.0 and r.residual.estimate == 0.25


def test_bonus_from_store(tmp_path):
    """The loader reads the scores per game and seat, in game order, and the stored win
    rates (with the game's tie-breaks) alongside."""
    rng = np.random.default_rng(4)
    scores = rng.poisson(20, (300, 2))
    scores[:, 1] -= 1
    winners = [[0] if a > b else [1] if b > a else [0] for a, b in scores]  # ties: seat 0
    store = tmp_path / "store"
    g, s = make_multiplayer_arm("bonus", "p2", 2, winners, scores=scores.tolist())
    write_arm(store, "bonus", "p2", "rattlebones", g, s, chunk_size=128)
    write_manifest(store, "bonus", [arm_manifest("p2", "rattlebones", 2)], n_games=300)
    con = db.connect(store)
    try:
        r = compensate.bonus_from_store(con, "bonus", "p2", n_boot=50)
        with pytest.raises(ValueError, match="no stored games"):
            compensate.bonus_from_store(con, "bonus", "nope")
    finally:
        con.close()
    direct = compensate.seat_bonus(scores, n_boot=50)
    assert r.bonus == direct.bonus and r.interval == direct.interval
    assert r.stored == pytest.approx([np.mean([w == [0] for w in winners]),
                                      np.mean([w == [1] for w in winners])])
    assert r.source == {"experiment": "bonus", "arm": "p2"}


# ---- the parameter search ---------------------------------------------------------------------
def _fake_game(root: float, scale: float, games: int, seed: int = 0, rising: bool = True):
    """The disadvantaged seat's win rate as a logistic curve of the parameter (1/2 at
    ``root``), measured with binomial noise over ``games`` games: the same value always gives
    the same measurement (paired runs on fixed seeds)."""
    calls = []

    def measure(value):
        calls.append(value)
        p = 1.0 / (1.0 + math.exp(-(value - root) / scale * (1 if rising else -1)))
        se = math.sqrt(p * (1 - p) / games)
        noise = np.random.default_rng([seed, int(round(value * 1000)) + 10 ** 6])
        return p + se * float(noise.standard_normal()), se

    return measure, calls


def test_search_finds_a_planted_root_and_the_best_integer():
    measure, calls = _fake_game(3.3, 4.0, 20000)
    r = compensate.search_parameter(measure, -20, 20, target=0.5)
    assert r.converged and r.bracketed and r.integer
    assert r.interval[0] < 3.3 < r.interval[1] and r.interval[1] - r.interval[0] < 1.0
    assert r.bonus == 3 and isinstance(r.bonus, int)
    # the residual is measured at 3: about (3 - 3.3) / 16 below 1/2
    assert r.residual.value == 3 and r.residual.estimate == pytest.approx(-0.3 / 16, abs=0.01)
    assert r.residual.low < r.residual.estimate < r.residual.high
    assert len(calls) == len(set(calls)) <= 12 and all(isinstance(v, int) for v in calls)
    assert json.loads(json.dumps(r.to_json(), allow_nan=False))["bonus"] == 3


def test_search_falling_curve_and_a_fine_step():
    measure, _ = _fake_game(-7.6, 2.0, 20000, seed=3, rising=False)
    r = compensate.search_parameter(measure, -20, 20, target=0.5)
    assert r.converged and r.interval[0] < -7.6 < r.interval[1] and r.bonus == -8
    measure, _ = _fake_game(0.37, 0.5, 50000, seed=1)
    r = compensate.search_parameter(measure, -2, 2, target=0.5, step=0.05)
    assert r.converged and not r.integer
    assert r.interval[0] < 0.37 < r.interval[1] and r.interval[1] - r.interval[0] < 0.05
    assert r.bonus in (0.35, 0.4)


def test_search_says_when_it_cannot_conclude():
    measure, _ = _fake_game(30.0, 4.0, 20000)  # the root lies outside the range
    r = compensate.search_parameter(measure, -20, 20, target=0.5)
    assert not r.bracketed and not r.converged and r.bonus == 20 and "no sign change" in r.note
    measure, _ = _fake_game(3.3, 4.0, 300)  # too few games per value for a one-point interval
    r = compensate.search_parameter(measure, -20, 20, target=0.5)
    assert not r.converged and "more games" in r.note
    assert r.interval[0] < 3.3 < r.interval[1]
