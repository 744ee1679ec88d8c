"""``playtest sweep``: one or two parameters, curves with bands, balance marks, solo curves."""
import json

import pytest

from analysis import db, reports, studies
from .studyhelpers import html_text, listing
from pipelines.studies import parse_param, sweep_experiment


def test_sweep_one_parameter_cli(cli, tmp_path):
    r = cli("sweep", "fakedice", "--param", "dice=1..3", "--players", "2", "--games", "1500",
            "--tolerance", "0.05", "--store", tmp_path / "s", "--out", tmp_path / "rep", "-q")
    assert r.exit_code == 0, r.output
    man = json.loads(next((tmp_path / "s" / "experiments").glob("*.json")).read_text())
    assert man["spec"]["kind"] == "sweep"
    assert [p["arm"] for p in man["spec"]["points"]] == ["dice1-p2", "dice2-p2", "dice3-p2"]
    text = html_text(next((tmp_path / "rep").glob("*.html")))
    assert "Parameter sweep" in text and "dice = 1, 2, 3" in text
    assert "Win rate per seat (2 players)" in text
    assert "first-player advantage" in text.lower()
    # fakedice is symmetric between seats: with ±5 points some point is balanced
    assert "every seat wins within ±5 points of 1/2" in text
    con = db.connect(tmp_path / "s")
    tab = reports.sweep_table(con, man["name"], man["spec"])
    assert list(tab["dice"]) == [1, 2, 3] and set(tab["balance"]) <= set(
        studies.BALANCE_GRADES)  # the one vocabulary of balance grades
    assert tab["seat 0"].str.contains(r"\[").all()  # every estimate carries its interval


def test_sweep_grid_two_parameters(tmp_path):
    from pipelines import runner

    exp = sweep_experiment("fakedice", ["dice=1,3", "reroll=true,false"], players=3, games=300,
                           seed=2)
    assert len(exp.arms) == 4
    runner.run(exp, tmp_path / "s", workers=1, quiet=True)
    path = reports.write_study_report(tmp_path / "s", exp.name, tmp_path / "rep")
    text = html_text(path)
    assert "reroll = true" in text and "reroll = false" in text


def test_sweep_solo_win_probability(tmp_path):
    from pipelines import runner

    exp = sweep_experiment("fakedice", ["solo_target=6..10:2"], players=1, games=400, seed=1)
    assert [a.arm.rule_values["solo_target"] for a in exp.arms] == [6, 8, 10]
    runner.run(exp, tmp_path / "s", workers=1, quiet=True)
    con = db.connect(tmp_path / "s")
    long = reports.sweep_long(con, exp.name, exp.source)
    solo = long[long["metric"] == "solo_win"].sort_values("solo_target")
    assert list(solo["estimate"]) == sorted(solo["estimate"], reverse=True)  # harder target
    text = html_text(reports.write_study_report(tmp_path / "s", exp.name, tmp_path / "rep"))
    assert "solo win probability" in text


def test_parse_param_lists_and_ranges():
    import fakegame

    spec = fakegame.SPEC
    assert parse_param("dice=1..5:2", spec) == ("dice", [1, 3, 5])
    assert parse_param("reroll=true,false", spec) == ("reroll", [True, False])


@pytest.mark.parametrize("args, expect", [
    ((), "--param: give at least one"),
    (("--param", "nope=1,2"), "unknown parameter of fakedice"),
    (("--param", "dice=1"), "at least 2 distinct values"),
    (("--param", "dice=1,9"), "out of range"),
    (("--param", "dice=1,2", "--set", "dice=3"), "also swept"),
    (("--param", "dice=1,2", "--param", "dice=3,4"), "given twice"),
    (("--param", "dice=1,2", "--tolerance", "0"), "--tolerance"),
    (("--param", "solo_target=20,30", "--players", "1"), "cannot be reached"),
])
def test_sweep_bad_input(cli, tmp_path, args, expect):
    r = cli("sweep", "fakedice", *args, "--games", "50", "--store", tmp_path / "s",
            "--out", tmp_path / "rep")
    assert r.exit_code == 2, r.output
    assert expect in r.stderr
    assert listing(tmp_path / "s") == [] and listing(tmp_path / "rep") == []
