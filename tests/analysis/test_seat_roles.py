"""Win rate by a turn-order role column (GameSpec.seat_roles), e.g. Flower Shop initiative dice."""
import polars as pl

from analysis import db
from analysis.reports import write_report
from analysis_synth import arm_manifest, make_multiplayer_arm, write_arm, write_manifest


def test_win_rate_by_role_column_and_report_section(tmp_path):
    # 4 players; the holder of die 3 (seat 3 here) never wins, die 0 wins half the games.
    winners = [[0], [1], [0], [2]] * 50
    games, seats = make_multiplayer_arm("roles", "p4", 4, winners, game="flower_shop")
    seats = seats.with_columns(initiative_die=pl.col("seat"))
    write_arm(tmp_path, "roles", "p4", "flower_shop", games, seats)
    write_manifest(tmp_path, "roles", [arm_manifest("p4", "flower_shop", 4)])
    con = db.connect(tmp_path)
    d = db.win_rate_by(con, "roles", "initiative_die").set_index("value")
    assert d.loc[0, "win_rate"] == 0.5 and d.loc[3, "win_rate"] == 0.0
    assert (d["n_games"] == 200).all() and (d["low"] <= d["win_rate"] + 1e-12).all()
    html = write_report(tmp_path, "roles", tmp_path / "out").read_text()
    assert "Win rate by initiative_die" in html and "I-D" in html
    assert "Win rates by initiative_die differ from equal shares" in html


def test_win_rate_by_missing_column_is_empty(tiny_store):
    con = db.connect(tiny_store)
    name = db.experiment_names(con)[0]
    assert db.win_rate_by(con, name, "initiative_die").empty
