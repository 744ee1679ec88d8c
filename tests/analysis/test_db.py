"""DuckDB views and marts against hand-computed golden answers on a tiny synthetic store."""
from __future__ import annotations

import json

import duckdb
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis import db

from analysis_synth import SOLO_VARIANTS, make_multiplayer_arm, make_solo_store, write_arm


def test_base_views_count_rows(tiny_store):
    con = db.connect(tiny_store)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 9
    assert con.execute("SELECT count(*) FROM seats").fetchone()[0] == 6 * 2 + 3 * 3
    # hive partition columns come back as strings, game-specific columns pass through
    row = con.execute("SELECT experiment, arm, game, bank_busts FROM games WHERE game_index = 5").fetchone()
    assert row == ("tiny", "p2", "rattlebones", 2)
    names = con.execute("SELECT name, master_seed, n_games, code_version FROM experiments").fetchall()
    assert names == [("tiny", 7, 6, "abc1234")]


def test_seat_win_rates_golden(tiny_store):
    con = db.connect(tiny_store)
    df = db.seat_win_rates(con, "tiny")
    p2 = df[df.arm == "p2"].set_index("seat")
    assert list(p2.n_games) == [6, 6]
    assert list(p2.wins) == [4, 2]                    # the tie counts as a win for both
    assert list(p2.win_share_sum) == [3.5, 1.5]       # ... but only half a win each
    assert p2.loc[0, "win_rate"] == pytest.approx(3.5 / 6)
    assert p2.loc[1, "win_rate"] == pytest.approx(1.5 / 6)
    assert p2.loc[0, "fair_share"] == pytest.approx(0.5)
    lo, hi = proportion_confint(3.5, 6, method="wilson")
    assert (p2.loc[0, "low"], p2.loc[0, "high"]) == pytest.approx((lo, hi))
    p3 = df[df.arm == "p3"].set_index("seat")
    assert list(p3.win_rate) == pytest.approx([1 / 3] * 3)
    assert list(p3.policy) == ["greedy", "random", "greedy"]


def test_game_length_end_reasons_scores(tiny_store):
    con = db.connect(tiny_store)
    gl = db.game_length(con, "tiny").set_index("arm")
    assert gl.loc["p2", "n_games"] == 6
    assert gl.loc["p2", "mean_rounds"] == pytest.approx((3 + 4 + 5 + 6 + 7 + 200) / 6)
    assert gl.loc["p2", "median_rounds"] == pytest.approx(5.5)
    assert gl.loc["p2", "n_truncated"] == 1
    assert gl.loc["p2", "n_tied"] == 1
    assert gl.loc["p2", "n_no_winner"] == 1
    assert gl.loc["p3", "n_truncated"] == 0
    assert gl.loc["p2", "mean_low"] < gl.loc["p2", "mean_rounds"] < gl.loc["p2", "mean_high"]

    er = db.end_reasons(con, "tiny")
    p2 = er[er.arm == "p2"].set_index("end_reason")
    assert p2.loc["target_score", "n_games"] == 5
    assert p2.loc["max_rounds", "share"] == pytest.approx(1 / 6)

    ss = db.score_summary(con, "tiny")
    s0 = ss[(ss.arm == "p2") & (ss.seat == 0)].iloc[0]
    assert s0.mean_score == pytest.approx((5 + 6 + 2 + 9 + 4 + 1) / 6)
    assert s0.min_score == 1 and s0.max_score == 9
    hist = db.score_histogram(con, "tiny")
    assert hist[(hist.arm == "p2") & (hist.seat == 1)].n.sum() == 6


def test_views_are_plain_duckdb(tiny_store):
    """The store is readable without the project (design.md §4)."""
    con = duckdb.connect()
    n = con.execute(
        f"SELECT sum(win_share) FROM read_parquet('{tiny_store}/results/seats/**/*.parquet', "
        "hive_partitioning=true, union_by_name=true) WHERE arm = 'p2' AND seat = 0").fetchone()[0]
    assert n == pytest.approx(3.5)


def test_new_chunks_visible_without_reconnect(tiny_store):
    con = db.connect(tiny_store)
    g, s = make_multiplayer_arm("tiny", "p4", 4, [[3]] * 5)
    write_arm(tiny_store, "tiny", "p4", "rattlebones", g, s)
    assert con.execute("SELECT count(*) FROM seat_win_rates WHERE arm = 'p4'").fetchone()[0] == 4


def test_empty_store(tmp_path):
    con = db.connect(tmp_path / "nothing")
    assert db.experiment_names(con) == []
    assert db.seat_win_rates(con).empty
    assert db.solo_ladder(con).empty
    assert con.execute("SELECT count(*) FROM stg_games").fetchone()[0] == 0
    skipped = dict(con.execute("SELECT * FROM skipped_views").fetchall())
    assert "solo_loss_day" in skipped and "loss_day" in skipped["solo_loss_day"]
    assert db.solo_loss_day(con).empty


def test_manifest_only_and_numeric_names(tmp_path):
    store = tmp_path / "s"
    g, s = make_multiplayer_arm("123", "2", 2, [[0], [1]])
    write_arm(store, "123", "2", "rattlebones", g, s)
    (store / "experiments").mkdir()
    (store / "experiments" / "queued.json").write_text(json.dumps({"name": "queued"}))
    (store / "experiments" / "broken.json").write_text("{not json")
    con = db.connect(store)
    assert db.experiment_names(con) == ["123", "queued"]
    assert con.execute("SELECT typeof(experiment) FROM games LIMIT 1").fetchone()[0] == "VARCHAR"
    assert db.load_manifest(store, "queued") == {"name": "queued"}
    assert db.load_manifest(store, "missing") == {}


def test_solo_marts(tmp_path):
    store = make_solo_store(tmp_path / "s", "solo", {v: p for v, p in zip(
        SOLO_VARIANTS, [0.8, 0.6, 0.4, 0.2, 0.05])}, n_games=50)
    con = db.connect(store)
    arms = db.arms(con, "solo")
    assert list(arms.variant) == list(SOLO_VARIANTS)
    assert bool(arms.components_assumed.iloc[0]) is True
    lad = db.solo_ladder(con, "solo")
    assert set(lad.variant) == set(SOLO_VARIANTS)
    assert (lad.n_games == 50).all()
    truth = con.execute(
        "SELECT avg(won::INT) FROM seats WHERE arm = 'solo_base-greedy'").fetchone()[0]
    assert lad.set_index("variant").loc["solo_base", "win_rate"] == pytest.approx(truth)
    ld = db.solo_loss_day(con, "solo")
    assert ld.groupby("variant").share.sum().tolist() == pytest.approx([1.0] * 5)
    # wins are exactly the day-7 games that were won
    wins7 = ld[ld.loss_day == 7].groupby("variant").wins.sum()
    assert (wins7 == lad.set_index("variant").wins.loc[wins7.index]).all()
    tc = db.solo_task_cards(con, "solo")
    per = tc.groupby("variant").n_games.sum()
    assert per["solo_base"] == 50 and per["solo_easy"] == 100 and per["solo_hell"] == 100


def test_paired_values_align_games(tiny_store):
    # arm q2 replays p2's seeds with seat 0 winning every game
    g, s = make_multiplayer_arm("tiny", "q2", 2, [[0]] * 6)
    write_arm(tiny_store, "tiny", "q2", "rattlebones", g, s)
    con = db.connect(tiny_store)
    a, b = db.paired_values(con, "tiny", "q2", "p2", "win_share", seat=0)
    assert a.tolist() == [1.0] * 6 and b.tolist() == [1, 1, 0, 1, 0.5, 0]
    from analysis import stats
    d = stats.paired_difference(a, b)
    assert d.estimate == pytest.approx(2.5 / 6)
    ra, rb = db.paired_values(con, "tiny", "q2", "p2", "rounds", seat=None)
    assert rb.tolist() == [3, 4, 5, 6, 7, 200]
    with pytest.raises(ValueError, match="unknown column"):
        db.paired_values(con, "tiny", "q2", "p2", "nope")


def test_manifest_without_name_uses_file_stem(tmp_path):
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "nameless.json").write_text('{"master_seed": 5, "arms": []}')
    con = db.connect(tmp_path)
    assert con.execute("SELECT name, master_seed FROM experiments").fetchall() == [("nameless", 5)]
    assert db.arms(con).empty


def test_package_exports():
    import analysis
    assert analysis.connect is db.connect
    from analysis.reports import write_report
    assert analysis.write_report is write_report


def test_variant_column_old_and_new_parts(tmp_path):
    """Parts written before the ``variant`` column read with variant NULL, after n_players;
    parts with it keep their values; the solo marts take the arm's variant either way."""
    import polars as pl

    store = tmp_path / "s"
    g, s = make_multiplayer_arm("old", "p2", 2, [[0], [1]])
    write_arm(store, "old", "p2", "rattlebones", g, s)
    con = db.connect(store)
    for view in ("games", "seats", "stg_games", "stg_seats"):
        cols = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {view}").fetchall()]
        assert cols[cols.index("n_players") + 1] == "variant", view
    assert con.execute("SELECT count(*) FROM seats WHERE variant IS NULL").fetchone()[0] == 4
    g2, s2 = make_multiplayer_arm("new", "p2", 2, [[0], [1]])
    write_arm(store, "new", "p2", "rattlebones", g2.with_columns(variant=pl.lit("base")),
              s2.with_columns(variant=pl.lit("base")))
    con = db.connect(store)
    rows = con.execute("SELECT experiment, any_value(variant) FROM seats GROUP BY ALL "
                       "ORDER BY ALL").fetchall()
    assert rows == [("new", "base"), ("old", None)]
    solo = make_solo_store(tmp_path / "solo", "solo", {"solo_base": 0.5}, n_games=20)
    con = db.connect(solo)
    assert set(db.solo_ladder(con, "solo").variant) == {"solo_base"}
    assert con.execute("SELECT DISTINCT variant FROM solo_games").fetchall() == [("solo_base",)]
