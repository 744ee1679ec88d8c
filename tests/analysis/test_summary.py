"""analysis.summary's win-rate rows (no pandas) are the marts' numbers (seat_win_rates,
db.win_rate_by), to the last bit."""
import polars as pl

from analysis import db, summary
from analysis_synth import arm_manifest, make_multiplayer_arm, write_arm, write_manifest
from sim.spec import BalanceFactor

DICE = BalanceFactor("initiative_die", "initiative die", ("I-A", "I-B", "I-C", "I-D"))


def _rows(table):
    return [(r.n_players, r.arm, r.value, r.n_games, r.win_rate, r.low, r.high)
            for r in table.rows]


def _expected(df, labels=()):
    df = df[df["n_players"] > 1].sort_values(["n_players", "arm", "value"])
    return [(int(r.n_players), r.arm, labels[int(r.value)] if labels else str(int(r.value)),
             int(r.n_games), float(r.win_rate), float(r.low), float(r.high))
            for r in df.itertuples()]


def test_seat_rows_equal_the_mart(tiny_store):
    (t,) = summary.win_rate_tables(tiny_store, "tiny", BalanceFactor())
    con = db.connect(tiny_store)
    mart = db.seat_win_rates(con, "tiny").rename(columns={"seat": "value"})
    assert t.by == "seat" and not t.several_arms
    assert _rows(t) == _expected(mart)
    assert [r.fair_share for r in t.rows[:2]] == [0.5, 0.5]
    assert summary.win_rate_tables(tiny_store, "nope", BalanceFactor()) == []


def test_factor_rows_equal_win_rate_by(tmp_path):
    winners = [[0], [1], [0], [2], [0, 3], []] * 20
    for arm in ("p4", "p4-random"):
        games, seats = make_multiplayer_arm("roles", arm, 4, winners, game="flower_shop")
        seats = seats.with_columns(initiative_die=(pl.col("seat") + 1) % 4)
        write_arm(tmp_path, "roles", arm, "flower_shop", games, seats)
    write_manifest(tmp_path, "roles", [arm_manifest("p4", "flower_shop", 4),
                                       arm_manifest("p4-random", "flower_shop", 4)])
    seat_t, die_t = summary.win_rate_tables(tmp_path, "roles", DICE)
    (only_die,) = summary.win_rate_tables(tmp_path, "roles", DICE, factor_only=True)
    con = db.connect(tmp_path)
    assert (die_t.by, die_t.several_arms) == ("initiative die", True)
    assert _rows(die_t) == _rows(only_die) == _expected(
        db.win_rate_by(con, "roles", "initiative_die"), DICE.labels)
    assert _rows(seat_t) == _expected(
        db.seat_win_rates(con, "roles").rename(columns={"seat": "value"}))
