"""``playtest compare`` end to end on the fake game; example specs; a real planted effect."""
import json
from pathlib import Path

import numpy as np
import pytest

from analysis import db, reports, studies
from .studyhelpers import html_text, listing
from pipelines import experiment as ex
from pipelines import runner
from pipelines.studies import compare_experiment

SPECS = Path(__file__).resolve().parents[2] / "pipelines" / "specs"


def test_compare_cli_report_and_paired_intervals(cli, tmp_path):
    store, out = tmp_path / "store", tmp_path / "rep"
    r = cli("compare", "fakedice", "--set", "reroll=false", "--players", "4", "--games", "1500",
            "--seed", "5", "--store", store, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert "paired games" in r.stdout and "verdict" in r.stdout
    reports_ = list(out.glob("*.html"))
    assert len(reports_) == 1
    text = html_text(reports_[0])
    assert "reroll=false — 4 players, under greedy (1,500 paired games)" in text
    assert "not distinguishable from zero" in text or "Distinguishable from zero" in text
    assert "Δ (tweak − baseline)" in text and "Unpaired 95% CI" in text
    assert "seat 0: greedy" in text  # policies rendered readably
    man = json.loads(next((store / "experiments").glob("*.json")).read_text())
    assert man["spec"]["kind"] == "compare"
    assert man["spec"]["pairs"] == [{"n_players": 4, "baseline": "baseline-p4",
                                     "tweak": "tweak-p4"}]
    # same seeds in both arms: paired intervals of win rates are narrower than unpaired ones
    con = db.connect(store)
    tab = studies.compare_frames(db.arm_games(con, man["name"], "tweak-p4"),
                                 db.arm_games(con, man["name"], "baseline-p4"))
    prop = tab[tab["metric"].str.startswith("win_rate")]
    assert ((prop["high"] - prop["low"]) < (prop["unpaired_high"] - prop["unpaired_low"])).all()
    # re-rendering through `playtest report` gives the comparison report again
    r = cli("report", man["name"], "--store", store, "--out", tmp_path / "again")
    assert r.exit_code == 0
    assert "Rule-tweak comparison" in html_text(next((tmp_path / "again").glob("*.html")))


@pytest.mark.parametrize("args, expect", [
    ((), "compare needs a tweak"),
    (("--set", "nope=1"), "unknown parameter 'nope'"),
    (("--set", "dice=9"), "out of range"),
    (("--set", "dice=2"), "changes nothing"),
    (("--set", "dice=3", "--players", "7"), "for 1-4 players"),
    (("--set", "dice=3", "--games", "0"), "positive integer"),
    (("--set", "dice=3", "--max-games", "100"), "--max-games only applies with --precision"),
    (("--set", "dice=3", "--precision", "2"), "--precision"),
    (("--tweak-seat-policy", "0=smart"), "smart"),
])
def test_compare_bad_input_exit_2_nothing_written(cli, tmp_path, args, expect):
    store = tmp_path / "store"
    r = cli("compare", "fakedice", *args, "--games", "50", "--store", store,
            "--out", tmp_path / "rep") if "--games" not in args else \
        cli("compare", "fakedice", *args, "--store", store, "--out", tmp_path / "rep")
    assert r.exit_code == 2, r.output
    assert expect in r.stderr
    assert listing(store) == [] and listing(tmp_path / "rep") == []


def test_real_aa_through_compare_path(tmp_path):
    """Same configuration on independent games (two halves of one arm, five seeds): intervals
    exclude 0 about as rarely as they should (expected 0.75 of 15)."""
    flagged, diffs = 0, []
    for seed in range(1, 6):
        exp = ex.from_cli("fakedice", players="3", games=1200, seed=seed, policy="random")
        runner.run(exp, tmp_path / "s", workers=1, quiet=True)
        con = db.connect(tmp_path / "s")
        df = db.arm_games(con, exp.name, "p3")
        con.close()
        a = df.iloc[:600].reset_index(drop=True)
        b = df.iloc[600:].reset_index(drop=True).assign(game_index=lambda d: d["game_index"] - 600)
        tab = studies.compare_frames(a, b).set_index("metric")
        seats = tab.loc[[f"win_rate_seat{s}" for s in range(3)]]
        flagged += int((seats["verdict"] != studies.NOT_DISTINGUISHABLE).sum())
        diffs += list(seats["diff"])
    assert flagged <= 3
    assert abs(np.mean(diffs)) < 0.02


def test_compare_multiple_player_counts_and_seat_policy_tweak(tmp_path):
    exp = compare_experiment("fakedice", (), players="2-3", tweak_seat_policies=["0=random"],
                             seat_policies=["1=greedy:threshold=9"], games=300, seed=2)
    assert [a.name for a in exp.arms] == ["baseline-p2", "tweak-p2", "baseline-p3", "tweak-p3"]
    assert exp.arm("tweak-p3").arm.policies == ("random", "greedy:threshold=9", "greedy")
    assert exp.arm("baseline-p3").arm.policies == ("greedy", "greedy:threshold=9", "greedy")
    runner.run(exp, tmp_path / "s", workers=1, quiet=True)
    path = reports.write_study_report(tmp_path / "s", exp.name, tmp_path / "rep")
    text = html_text(path)
    assert ("2 players, under mixed policies (300 paired games)" in text
            and "3 players, under mixed policies (300 paired games)" in text)
    assert "seat 0 plays random" in text


# ---- experiment specs -------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.name for p in SPECS.glob("*.toml")))
def test_example_specs_validate(name):
    exp = ex.from_toml(SPECS / name)
    assert len({a.name for a in exp.arms}) == len(exp.arms)
    if "baseline" not in (SPECS / name).read_text():
        return  # a plain multi-arm spec
    pairs = exp.source["pairs"]
    assert pairs and all(exp.arm(p["baseline"]).arm.n_players == exp.arm(p["tweak"]).arm.n_players
                         for p in pairs)


def test_spec_with_baseline_runs_to_a_comparison_report(cli, tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text("""
[experiment]
name = "spec-cmp"
game = "fakedice"
players = "2-3"
games = 400
baseline = "base"
[[arms]]
name = "base"
[[arms]]
name = "three"
set = { dice = 3 }
[[arms]]
name = "noreroll"
players = 3
set = { reroll = false }
""")
    r = cli("run", "--spec", spec, "--store", tmp_path / "st", "-q")
    assert r.exit_code == 0, r.output
    r = cli("report", "spec-cmp", "--store", tmp_path / "st", "--out", tmp_path / "rep")
    text = html_text(next((tmp_path / "rep").glob("*.html")))
    assert "three-p2 against baseline base-p2" in text
    assert "noreroll against baseline base-p3" in text
    assert "dice = 3 (default 2)" in text


@pytest.mark.parametrize("body, expect", [
    ('baseline = "nope"', "experiment.baseline: 'nope' is not the name of an [[arms]] table; "
                          "valid: base, other"),
    ('baseline = 3', "experiment.baseline"),
])
def test_spec_bad_baseline_points_at_the_key(cli, tmp_path, body, expect):
    spec = tmp_path / "s.toml"
    spec.write_text(f"""
[experiment]
game = "fakedice"
players = 2
{body}
[[arms]]
name = "base"
[[arms]]
name = "other"
set = {{ dice = 3 }}
""")
    r = cli("run", "--spec", spec, "--store", tmp_path / "st", "-q")
    assert r.exit_code == 2 and expect in r.stderr
    assert listing(tmp_path / "st") == []


def test_spec_baseline_needs_matching_player_count(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text("""
[experiment]
game = "fakedice"
baseline = "base"
[[arms]]
name = "base"
players = 2
[[arms]]
name = "other"
players = 3
""")
    with pytest.raises(ex.SpecError, match=r"arms\[1\].players: no baseline arm 'base' with 3"):
        ex.from_toml(spec)


# ---- the real game: a planted effect ----------------------------------------------------------

def test_flower_shop_planted_effect_has_the_right_sign(flower_compare):
    _, _, tab = flower_compare
    t = tab.set_index("metric")
    # seat 0 plays random against three greedy players: it must lose clearly
    assert t.loc["win_rate_seat0", "verdict"] == "lower"
    assert t.loc["first_player_advantage", "high"] < 0
    assert sum(t.loc[f"win_rate_seat{s}", "diff"] for s in (1, 2, 3)) > 0
    assert np.isfinite(t["low"]).all()
