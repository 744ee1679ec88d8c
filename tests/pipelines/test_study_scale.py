"""Reports of large studies read the store a batch of arms per query, not arm by arm (a sweep of
1,146 points took over 20 minutes to report, one part at a time)."""
import time

import pytest

from analysis import db, studies
from analysis.reports import write_report
from pipelines import runner, studies as pstudies


def _sweep(store, targets, players="2-3", games=12, name="sw", game="fakedice", params=None):
    params = params or ["dice=1,2,3", "solo_target=" + ",".join(map(str, targets))]
    exp = pstudies.sweep_experiment(game, params, players=players, games=games, seed=1,
                                    experiment=name)
    runner.run(exp, store, quiet=True, workers=1)
    return exp


def test_arms_games_are_the_arm_games_a_batch_at_a_time(tmp_path):
    store = tmp_path / "store"
    exp = _sweep(store, range(2, 6))
    con = db.connect(store)
    names = [a.name for a in exp.arms]
    for batch_rows in (1, 50, 10**9):  # one arm per query .. every arm in one
        got = dict(studies.arms_games(con, "sw", names[::-1]) if batch_rows == 10**9 else
                   ((a, df) for a, df in db.arms_games(con, "sw", names, ("win_share", "score"),
                                                      batch_rows=batch_rows)))
        assert sorted(got) == sorted(names)
        for arm in names:
            want = (studies.arm_games(con, "sw", arm) if batch_rows == 10**9 else
                    db.arm_games(con, "sw", arm))
            df = got[arm]
            assert list(df.columns) == list(want.columns)
            assert df.reset_index(drop=True).equals(want), arm
    assert dict(studies.arms_games(con, "sw", ["nope"])) == {}


def test_a_sweep_report_queries_the_store_as_often_for_any_number_of_points(tmp_path,
                                                                            monkeypatch):
    calls = []
    real = db.query

    def counted(con, sql, params=None):
        calls.append(sql)
        return real(con, sql, params)

    monkeypatch.setattr(db, "query", counted)
    n = {}
    for targets in (range(2, 4), range(2, 12)):
        store = tmp_path / f"s{len(targets)}"
        exp = _sweep(store, targets)
        calls.clear()
        html = write_report(store, "sw", tmp_path / f"r{len(targets)}").read_text()
        n[len(exp.arms)] = len(calls)
        assert "Win rate per seat (2 players" in html
    few, many = sorted(n)
    assert many >= 5 * few and n[many] == n[few], n


def test_a_sweep_second_parameter_draws_curves_for_a_few_values(tmp_path):
    store = tmp_path / "store"
    _sweep(store, range(2, 14), players="2", games=6)
    html = write_report(store, "sw", tmp_path / "r").read_text()
    assert "The curves show 6 of the 12 values of solo_target (2, 4, 6, 9, 11, 13)" in html
    assert html.count('alt="Win rate per seat (2 players, solo_target = ') == 6
    assert html.count("<tr>") >= 3 * 12  # the table has every point


@pytest.mark.slow
def test_the_report_of_a_1146_point_sweep_takes_under_a_minute(tmp_path):
    """Rattlebones (cached kernel): ringmaster_start_2p 10..200 x starting_gold 0..5."""
    store = tmp_path / "store"
    exp = _sweep(store, None, players="2", games=10, name="big", game="rattlebones",
                 params=["ringmaster_start_2p=" + ",".join(map(str, range(10, 201))),
                         "starting_gold=0,1,2,3,4,5"])
    assert len(exp.arms) == 1146
    t0 = time.perf_counter()
    path = write_report(store, "big", tmp_path / "r")
    took = time.perf_counter() - t0
    print(f"\nreport of a {len(exp.arms):,}-point sweep: {took:.1f} s")
    assert took < 60 and path.stat().st_size > 0
