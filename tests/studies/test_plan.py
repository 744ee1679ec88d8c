"""``playtest plan``: sample sizes from a pilot, paired and unpaired."""
from analysis import db, stats
from .studyhelpers import html_text, listing


def test_plan_with_tweak_reports_paired_and_unpaired(cli, tmp_path):
    r = cli("plan", "fakedice", "--detect", "0.02", "--players", "3", "--set", "reroll=false",
            "--pilot-games", "1500", "--store", tmp_path / "s", "--out", tmp_path / "rep", "-q")
    assert r.exit_code == 0, r.output
    assert "Games needed to detect" in r.stdout
    path = next((tmp_path / "rep").glob("*-plan.html"))
    text = html_text(path)
    assert "How many games?" in text and "Two arms, paired (per arm)" in text
    # the figures in the report are those of the stats functions on the pilot data
    con = db.connect(tmp_path / "s")
    name = con.execute("SELECT name FROM experiments").fetchone()[0]
    b = db.arm_games(con, name, "baseline-p3")
    t = db.arm_games(con, name, "tweak-p3")
    d = t["win_share_0"] - b["win_share_0"]
    n_paired = stats.required_games_paired(d, 0.02)
    n_unpaired = stats.required_games_unpaired(t["win_share_0"], b["win_share_0"], 0.02)
    assert f"{n_paired:,}" in text and f"{n_unpaired:,}" in text
    assert n_paired < n_unpaired  # common random numbers pay off for this tweak


def test_plan_without_tweak(cli, tmp_path):
    r = cli("plan", "fakedice", "--detect", "0.01", "--players", "2", "--pilot-games", "500",
            "--store", tmp_path / "s", "--out", tmp_path / "rep", "-q")
    assert r.exit_code == 0, r.output
    text = html_text(next((tmp_path / "rep").glob("*-plan.html")))
    assert f"{stats.required_games(0.5, 0.01):,}" in text  # one arm vs the fair share 1/2
    assert "needs --set" in text
    # the terminal table: rows named by the balance factor's values, one-decimal percentages
    import re
    rows = [line for line in r.stdout.splitlines() if line.startswith("│") and "%" in line]
    assert rows and all(re.search(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)", x) for x in rows), rows
    assert "win rate," not in r.stdout and "difference of 1 point " in text


def test_plan_bad_input(cli, tmp_path):
    for args, expect in ((("--detect", "0"), "--detect"), (("--detect", "0.01", "--power", "2"),
                                                          "--power"),
                         (("--detect", "0.01", "--pilot-games", "0"), "--pilot-games")):
        r = cli("plan", "fakedice", *args, "--store", tmp_path / "s", "--out", tmp_path / "r")
        assert r.exit_code == 2 and expect in r.stderr
    assert listing(tmp_path / "s") == []
