"""The game's balance factor (GameSpec.balance_factor) in the run report: the Flower Shop's
initiative dice, Rattlebones' seats; the verdict opens the report."""
import re

import pandas as pd
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
    # p3: one win each, nothing significant at 3 games: undecided (amber), not "balanced"
    assert re.search(r'class="warn"><strong>p3 \(3 players, 3 games\):</strong> Undecided: no seat '
                     r'wins significantly more or less than its fair share 1/3 = 33\.3%', first)
    assert "With 3 games the intervals are too wide to rule out a 2-point gap; about 4,424" in first


def test_no_difference_on_enough_games_is_a_verdict_and_on_too_few_undecided():
    """``factor_verdict`` on hand-built rows: every interval includes 1/3. With 5,000 games
    (more than the 4,424 that detect a 2-point gap) that is the verdict; with 1,800 it is
    undecided, with the games a decision needs."""
    from analysis.reports.experiment import factor_verdict, underpowered
    from analysis.studies import balance_factor

    def rows(n, half):
        return pd.DataFrame({"n_players": 3, "label": ["seat 0", "seat 1", "seat 2"],
                             "n_games": n, "win_rate": [0.336, 0.333, 0.331],
                             "low": [0.336 - half, 0.333 - half, 0.331 - half],
                             "high": [0.336 + half, 0.333 + half, 0.331 + half]})

    factor = balance_factor("rattlebones")
    many, few = rows(5000, 0.013), rows(1800, 0.022)
    assert underpowered(many) == (5000, 0) and underpowered(few) == (1800, 4424)
    assert factor_verdict(many, factor).startswith(
        "No seat wins significantly more or less than its fair share 1/3 = 33.3%: the largest "
        "gap is seat 0, +0.3 points")
    text = factor_verdict(few, factor)
    assert text.startswith("Undecided: no seat wins significantly") and \
        "With 1,800 games the intervals are too wide to rule out a 2-point gap; about 4,424 " \
        "games would detect one" in text


def test_win_rate_by_missing_column_is_empty(tiny_store):
    con = db.connect(tiny_store)
    name = db.experiment_names(con)[0]
    assert db.win_rate_by(con, name, "initiative_die").empty
