"""A store holding every game reads with plain DuckDB and Polars (the README's queries) and with
``analysis.open_store`` (issue 18). Small runs of the real games (kernels cached)."""
import duckdb
import polars as pl
import pytest

import analysis
from pipelines import experiment as ex, runner

GAMES = ("flower_shop", "rattlebones")


@pytest.fixture(scope="module")
def mixed_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("mixed") / "store"
    for game in GAMES:
        runner.run(ex.from_cli(game, players="2", games=30, seed=1), store, quiet=True)
    return store


def test_plain_duckdb_queries_from_the_readme(mixed_store):
    s = mixed_store
    every = duckdb.sql(f"""
        SELECT game, n_players, seat, avg(win_share) AS win_rate, count(*) AS n
        FROM read_parquet('{s}/results/seats/**/*.parquet', hive_partitioning=true,
                          union_by_name=true)
        GROUP BY ALL ORDER BY ALL""").fetchall()
    assert [(g, n) for g, _, _, _, n in every] == [(g, 30) for g in GAMES for _ in (0, 1)]
    assert all(abs(sum(r[3] for r in every if r[0] == g) - 1) < 1e-9 for g in GAMES)
    star = duckdb.sql(f"SELECT * FROM read_parquet('{s}/results/games/**/*.parquet', "
                      "hive_partitioning=true, union_by_name=true)")
    rows = star.fetchall()
    assert len(rows) == 60
    fs_only = {c for c in star.columns} - set(duckdb.sql(
        f"SELECT * FROM read_parquet('{s}/results/games/game=rattlebones/**/*.parquet', "
        "hive_partitioning=true)").columns)
    assert fs_only  # Flower Shop's own columns: null in Rattlebones rows
    one = duckdb.sql(f"SELECT count(*) FROM read_parquet("
                     f"'{s}/results/seats/game=flower_shop/**/*.parquet', hive_partitioning=true)")
    assert one.fetchall()[0][0] == 60


def test_plain_polars_queries_from_the_readme(mixed_store):
    s = mixed_store
    one = pl.scan_parquet(f"{s}/results/seats/game=flower_shop/**/*.parquet",
                          hive_partitioning=True).collect()
    assert one.height == 60 and set(one["game"]) == {"flower_shop"}
    seats = pl.concat([pl.scan_parquet(f"{s}/results/seats/game={g}/**/*.parquet",
                                       hive_partitioning=True)
                       for g in ("flower_shop", "rattlebones")], how="diagonal_relaxed")
    rates = (seats.group_by("game", "seat").agg(pl.col("win_share").mean(), pl.len())
             .sort("game", "seat").collect())
    assert rates["len"].to_list() == [30, 30, 30, 30]
    with pytest.raises(Exception):  # noqa: B017 (any failure: why the README gives the per-game form)
        pl.scan_parquet(f"{s}/results/games/**/*.parquet", hive_partitioning=True).collect()


def test_open_store(mixed_store):
    st = analysis.open_store(mixed_store)
    try:
        games, seats = st.games.collect(), st.seats.collect()
        assert games.height == 60 and seats.height == 120
        assert sorted(set(games["game"])) == list(GAMES)
        assert set(st.con.sql("SELECT * FROM games").columns) == set(games.columns)
        by_sql = dict(st.con.sql("SELECT game, count(*) FROM seats GROUP BY game").fetchall())
        by_polars = dict(seats.group_by("game").len().iter_rows())
        assert by_sql == by_polars == {"flower_shop": 60, "rattlebones": 60}
    finally:
        st.close()
    empty = analysis.open_store(mixed_store.parent / "nothing")
    assert empty.games.collect().height == 0 and "win_share" in empty.seats.collect_schema()
