"""Precision-targeted runs: stop when every interval meets the target, respect the cap."""
import json

import pytest

from analysis import db, studies
from .studyhelpers import html_text, listing
from pipelines import experiment as ex
from pipelines.studies import compare_experiment, groups_of, measure, run_to_precision


def _widest(store, exp, group, pairs=None):
    con = db.connect(store)
    try:
        return measure(con, exp.name, group, pairs)
    finally:
        con.close()


def test_precision_stops_when_target_met(tmp_path):
    exp = compare_experiment("fakedice", ["reroll=false"], players=2, games=200, seed=4)
    res, out = run_to_precision(exp, tmp_path / "s", 0.03, max_games=20_000, workers=1,
                                quiet=True)
    assert out.met and not out.capped
    assert len(out.steps) >= 2  # 200 games are far from ±3 points: it had to grow
    n = out.games_per_arm["baseline-p2"]
    assert n == out.games_per_arm["tweak-p2"] and 200 < n < 20_000
    # every reported prop-scale interval (levels and the paired differences) meets the target
    hw, label, games = _widest(tmp_path / "s", exp, ["baseline-p2", "tweak-p2"],
                               [("baseline-p2", "tweak-p2")])
    assert hw <= 0.03 and games == n
    con = db.connect(tmp_path / "s")
    tab = studies.compare_frames(db.arm_games(con, exp.name, "tweak-p2"),
                                 db.arm_games(con, exp.name, "baseline-p2"))
    assert (tab[tab["scale"] == "prop"]["half_width"] <= 0.03).all()
    man = json.loads((tmp_path / "s" / "experiments" / f"{exp.name}.json").read_text())
    assert man["precision"]["met"] is True and man["precision"]["target"] == 0.03


def test_precision_respects_the_cap_and_the_report_says_so(cli, tmp_path):
    r = cli("compare", "fakedice", "--set", "dice=3", "--players", "2", "--precision", "0.002",
            "--max-games", "600", "--games", "250", "--store", tmp_path / "s",
            "--out", tmp_path / "rep", "-q")
    assert r.exit_code == 0, r.output
    assert "NOT met" in r.stdout
    man = json.loads(next((tmp_path / "s" / "experiments").glob("*.json")).read_text())
    assert [a["n_games"] for a in man["arms"]] == [600, 600]
    assert man["precision"]["met"] is False and man["precision"]["capped"]
    text = html_text(next((tmp_path / "rep").glob("*.html")))
    assert "NOT met: the run stopped at the --max-games cap of 600 games per arm" in text


def test_run_precision_grows_each_arm_on_its_own(cli, tmp_path):
    r = cli("run", "fakedice", "--players", "1-2", "--precision", "0.04", "--games", "100",
            "--seed", "3", "--store", tmp_path / "s", "-q")
    assert r.exit_code == 0, r.output
    assert "precision target ±4.00 points met" in r.stdout
    man = json.loads(next((tmp_path / "s" / "experiments").glob("*.json")).read_text())
    sizes = {a["name"]: a["n_games"] for a in man["arms"]}
    assert all(n > 100 for n in sizes.values())
    for arm in sizes:
        con = db.connect(tmp_path / "s")
        t = studies.level_table(db.arm_games(con, man["name"], arm))
        assert (t[t["scale"] == "prop"]["half_width"] <= 0.04).all()


def test_precision_groups_share_a_baseline(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text("""
[experiment]
game = "fakedice"
players = 2
baseline = "b"
[[arms]]
name = "b"
[[arms]]
name = "x"
set = { dice = 3 }
[[arms]]
name = "y"
set = { reroll = false }
""")
    exp = ex.from_toml(spec)
    assert groups_of(exp) == [["b", "x", "y"]]


@pytest.mark.parametrize("args, expect", [
    (("--precision", "0"), "--precision"),
    (("--precision", "0.01", "--max-games", "0"), "--max-games"),
    (("--precision", "0.01", "--games", "500", "--max-games", "100"), "above --max-games"),
    (("--max-games", "100"), "only applies with --precision"),
])
def test_precision_bad_input(cli, tmp_path, args, expect):
    r = cli("run", "fakedice", "--players", "2", *args, "--store", tmp_path / "s", "-q")
    assert r.exit_code == 2 and expect in r.stderr
    assert listing(tmp_path / "s") == []


def test_run_precision_capped_report_says_not_met(cli, tmp_path):
    """`playtest report` of a `run --precision` that hit --max-games says so (issue 18)."""
    r = cli("run", "fakedice", "--players", "2", "--precision", "0.002", "--max-games", "300",
            "--games", "100", "--seed", "3", "--store", tmp_path / "s", "-q")
    assert r.exit_code == 0 and "NOT met" in r.stdout, r.output
    name = json.loads(next((tmp_path / "s" / "experiments").glob("*.json")).read_text())["name"]
    assert cli("report", name, "--store", tmp_path / "s", "--out", tmp_path / "rep").exit_code == 0
    text = html_text(tmp_path / "rep" / f"{name}.html")
    assert "NOT met: the run stopped at the --max-games cap of 300 games per arm" in text
