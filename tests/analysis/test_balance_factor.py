"""The game's balance factor (GameSpec.balance_factor) in the run report: the Flower Shop's
initiative dice, Rattlebones' seats; the verdict opens the report."""
import re

import polars as pl

from analysis import db
from analysis.reports import write_report
from analysis_synth import arm_manifest, make_multiplayer_arm, write_arm, write_manifest
from sim.registry import make


def _first_section(html: str) -> str:
    body = html[html.index("<body>"):]
    return body[:body.index("</section>")]


def test_factors_are_declared_by_the_games():
    assert make("flower_shop").balance_factor.column == "initiative_die"
    assert make("flower_shop").balance_factor.label(3) == "I-D"
    assert make("rattlebones").balance_factor.is_seat


def test_flower_shop_report_opens_with_the_initiative_die_verdict(tmp_path):
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
    first = _first_section(html)
    assert 'id="verdict"' in first and "balanced by initiative die" in first
    # I-D never wins: 25 points below 1/4; I-A wins half: 25 points above
    assert re.search(r"I-A wins 25\.0 points above its fair share \(50\.0%, 95% CI", first)
    assert re.search(r"I-D wins 25\.0 points below its fair share \(0\.0%, 95% CI", first)
    assert "<img" in first  # the key chart follows the verdict
    assert html.index('id="verdict"') < html.index('id="arms"')  # settings at the end
    assert "Win rates by initiative die differ from equal shares" in html


def test_rattlebones_report_grades_the_seats(tiny_store):
    html = write_report(tiny_store, "tiny", tiny_store / "out").read_text()
    first = _first_section(html)
    assert "balanced by seat" in first
    # p3: one win each, nothing significant at 3 games
    assert "No seat wins significantly more or less than its fair share 1/3 = 33.3%" in first


def test_win_rate_by_missing_column_is_empty(tiny_store):
    con = db.connect(tiny_store)
    name = db.experiment_names(con)[0]
    assert db.win_rate_by(con, name, "initiative_die").empty
