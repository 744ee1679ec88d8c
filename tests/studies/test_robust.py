"""Robustness of verdicts (analysis.robust, ``--also-policy``): the same arms under two
policies, and the report's "Does the verdict hold under stronger play?" table."""
import json

import pytest

from analysis import robust
from .studyhelpers import html_text


def _verdict(*signs):
    v = robust.Verdict("x")
    for i, s in enumerate(signs):
        v.add(f"p{i}", "cell", "words", s)
    return v


@pytest.mark.parametrize("signs, status", [
    ((1, 1), robust.HOLDS),
    ((-1, 0, -1), robust.HOLDS),            # a policy with no clear verdict does not contradict
    ((1, -1), robust.CONTRADICTED),
    ((1, 1, -1), robust.CONTRADICTED),
    ((0, 1, 0), robust.ONE),
    ((0, 0), robust.NONE),
    ((1,), robust.ONE),
])
def test_verdict_status_needs_two_policies_and_no_opposite(signs, status):
    assert _verdict(*signs).status()[0] == status


def test_directions_of_the_verdict_words():
    assert robust.fair_class(0.26, 0.30, 0.25) == ("above the fair share", 1)
    assert robust.fair_class(0.20, 0.24, 0.25) == ("below the fair share", -1)
    assert robust.fair_class(0.24, 0.26, 0.25)[1] == 0
    assert robust.step_sign("harder") == 1
    assert robust.step_sign("harder (one-sided; the 95% interval reaches 0)") == 1
    assert robust.step_sign("harder by the interval; not significant after Holm") == 0
    assert robust.step_sign("easier: goes the wrong way") == -1
    assert robust.step_sign("no clear difference") == 0


def test_groups_are_arms_that_differ_only_in_the_policy():
    def arm(name, n, pol, variant="base", seats=None):
        return {"name": name, "n_players": n, "variant": variant, "rule_values": {"a": 1},
                "policies": [{"seat": s, "spec": (seats or {}).get(s, pol)} for s in range(n)]}
    arms = [arm("p2", 2, "greedy"), arm("p3", 3, "greedy"), arm("p2-random", 2, "random"),
            arm("p3-random", 3, "random"), arm("p2-hard", 2, "random", "hard"),
            arm("mixed", 2, "greedy", seats={1: "random"})]
    assert robust.same_but_policy(arms) == [{"greedy": "p2", "random": "p2-random"},
                                            {"greedy": "p3", "random": "p3-random"}]


def test_run_also_policy_report_shows_both_policies_side_by_side(cli, tmp_path):
    store, out = tmp_path / "store", tmp_path / "rep"
    r = cli("run", "fakedice", "--players", "2", "--games", "600", "--also-policy", "random",
            "--seed", "3", "--store", store, "-q")
    assert r.exit_code == 0, r.output
    man = json.loads(next((store / "experiments").glob("*.json")).read_text())
    assert [a["name"] for a in man["arms"]] == ["p2", "p2-random"]
    # the also-policy arms join the experiment of the plain command (not a name of their own)
    assert "-and-" not in man["name"] and man["spec"]["also_policy"] == ["random"]
    assert "p2-random" in r.stdout  # the result table names the arms
    r = cli("report", man["name"], "--store", store, "--out", out)
    assert r.exit_code == 0, r.output
    text = html_text(next(out.glob("*.html")))
    assert "Does the verdict hold under stronger play?" in text
    assert "Verdict greedy random Across policies" in text
    assert "seat 0 (start player) vs the fair share" in text


def test_one_policy_report_says_how_to_check(cli, tmp_path):
    store, out = tmp_path / "store", tmp_path / "rep"
    assert cli("run", "fakedice", "--players", "2", "--games", "200", "--store", store,
               "-q").exit_code == 0
    name = json.loads(next((store / "experiments").glob("*.json")).read_text())["name"]
    assert cli("report", name, "--store", store, "--out", out).exit_code == 0
    assert "measured under one policy" in html_text(next(out.glob("*.html")))


def test_compare_also_policy_pairs_the_tweak_under_each_policy(cli, tmp_path):
    store, out = tmp_path / "store", tmp_path / "rep"
    r = cli("compare", "fakedice", "--set", "reroll=false", "--players", "2", "--games", "800",
            "--also-policy", "random", "--seed", "5", "--store", store, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    man = json.loads(next((store / "experiments").glob("*.json")).read_text())
    assert man["spec"]["pairs"] == [
        {"n_players": 2, "baseline": "baseline-p2", "tweak": "tweak-p2"},
        {"n_players": 2, "baseline": "baseline-p2-random", "tweak": "tweak-p2-random"}]
    text = html_text(next(out.glob("*.html")))
    assert "The tweak's effect, 2 players" in text and "Verdict greedy random" in text


@pytest.mark.parametrize("args, expect", [
    (("--also-policy", "smart"), "valid: greedy, random"),
    (("--also-policy", "greedy"), "plays the same policy as 'greedy'"),
    (("--also-policy", "random", "--also-policy", "random"), "give each policy once"),
    (("--also-policy", "random", "--seat-policy", "0=random"), "cannot be combined"),
])
def test_also_policy_bad_input_exit_2_nothing_written(cli, tmp_path, args, expect):
    store = tmp_path / "store"
    r = cli("run", "fakedice", "--players", "2", "--games", "50", *args, "--store", store)
    assert r.exit_code == 2
    assert expect in r.output
    assert not (store / "experiments").exists() or not list((store / "experiments").iterdir())
