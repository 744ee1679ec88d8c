"""``playtest compare --also-policy P`` with ``--also-games P=N`` and ``--budget``: both arms of
P's pair play the same count on the same first game indices, the budget is shared per pair,
the manifest keeps the count for a resume, adding an also-policy to a finished comparison
simulates only its pairs, and the paired tables use the pair's games (pipelines.budget,
pipelines.studies.compare_experiment)."""
import json

import pytest
from pipe_helpers import BAD_ALSO, arm_games, content, listing

from pipelines import budget, runner, studies

TWEAK = ("--set", "reroll=false")


def manifests(store):
    return [json.loads(p.read_text()) for p in sorted((store / "experiments").glob("*.json"))]


def manifest(store):
    found = manifests(store)
    assert len(found) == 1, [m["name"] for m in found]
    return found[0]


def counts(man):
    return {a["name"]: a["n_games"] for a in man["arms"]}


def compare(cli, store, out, *args):
    return cli("compare", "fakedice", *TWEAK, *args, "--store", store, "--out", out, "-q")


# ---- --also-games ------------------------------------------------------------------------

def test_also_games_gives_both_arms_of_the_pair_the_same_first_games(cli, tmp_path):
    store, out = tmp_path / "s", tmp_path / "rep"
    r = compare(cli, store, out, "-p", "2", "--games", "300", "--chunk-size", "100",
                "--also-policy", "random", "--also-games", "random=120")
    assert r.exit_code == 0, r.output
    man = manifest(store)
    assert counts(man) == {"baseline-p2": 300, "tweak-p2": 300, "baseline-p2-random": 120,
                           "tweak-p2-random": 120}
    rec = {a["name"]: a.get("games_from") for a in man["arms"]}
    assert rec["baseline-p2-random"] == rec["tweak-p2-random"] == {"how": "--also-games"}
    assert rec["baseline-p2"] is None and rec["tweak-p2"] is None
    assert man["spec"]["also_games"] == {"random": 120}
    # paired: both also-arms play game indices 0..119, the --policy arms 0..299
    assert arm_games(store, "baseline-p2-random") == arm_games(store, "tweak-p2-random") \
        == list(range(120))
    assert arm_games(store, "tweak-p2") == list(range(300))
    # the paired table of the also-pair has the also-arms' 120 games, the other pair 300
    text = " ".join(r.stdout.split())
    assert "tweak-p2 − baseline-p2 (2 players, 300 paired games" in text
    assert "tweak-p2-random − baseline-p2-random (2 players, 120 paired games" in text
    assert len(list(out.glob("*.html"))) == 1


def test_paired_differences_of_a_smaller_pair_use_its_games_only(tmp_path):
    """The pair's n is the also-arm count, its differences those of the games both played."""
    from analysis import db
    from analysis import studies as astudies

    store = tmp_path / "s"
    exp = studies.compare_experiment("fakedice", ["reroll=false"], players="2", games=200,
                                     seed=6, also_policies=["random"],
                                     also_games=["random=80"])
    runner.run(exp, store, quiet=True)
    con = db.connect(store, experiments=[exp.name])
    try:
        b = astudies.arm_games(con, exp.name, "baseline-p2-random")
        t = astudies.arm_games(con, exp.name, "tweak-p2-random")
        main = astudies.arm_games(con, exp.name, "baseline-p2")
    finally:
        con.close()
    assert len(b) == len(t) == 80 and len(main) == 200
    tab = astudies.compare_frames(t, b)
    assert set(tab["n"]) == {80}
    # the also-arm's baseline games are the --policy run's first 80 game indices
    assert sorted(b["game_index"]) == sorted(main["game_index"])[:80]


def test_also_games_names_the_policy_as_given_its_slug_or_bare_name():
    for name in ("greedy:threshold=5", "greedy_threshold_5", "greedy"):
        exp = studies.compare_experiment("fakedice", ["reroll=false"], players="2", games=100,
                                         seed=1, policy="random",
                                         also_policies=["greedy:threshold=5"],
                                         also_games=[f"{name}=40"])
        assert {a.name: a.n_games for a in exp.arms} == {
            "baseline-p2": 100, "tweak-p2": 100, "baseline-p2-greedy_threshold_5": 40,
            "tweak-p2-greedy_threshold_5": 40}


# ---- --budget ------------------------------------------------------------------------------

def test_budget_is_shared_per_pair_and_both_arms_get_one_count(cli, tmp_path, fake_speed):
    store, out = tmp_path / "s", tmp_path / "rep"
    r = compare(cli, store, out, "-p", "2-3", "--games", "5000", "--also-policy", "random",
                "--budget", "20s")
    assert r.exit_code == 0, r.output
    man = manifest(store)
    # 20 s over two pairs: 10 s each; a pair plays every game twice (baseline and tweak) at
    # 50 games/s each: 25 game indices/s, 250 games for both arms of the pair
    assert counts(man) == {"baseline-p2": 5000, "tweak-p2": 5000, "baseline-p3": 5000,
                           "tweak-p3": 5000, "baseline-p2-random": 250, "tweak-p2-random": 250,
                           "baseline-p3-random": 250, "tweak-p3-random": 250}
    assert len(fake_speed.calls) == 4  # each also-arm piloted once, the greedy arms never
    rec = {a["name"]: a.get("games_from") for a in man["arms"]}
    for arm in ("baseline-p2-random", "tweak-p3-random"):
        assert rec[arm]["how"] == "--budget" and rec[arm]["budget_s"] == 20
        assert rec[arm]["share_s"] == 10 and rec[arm]["games_per_s"] == 50
    assert "250 games fit the budget" in r.stderr
    assert arm_games(store, "baseline-p3-random") == arm_games(store, "tweak-p3-random") \
        == list(range(250))


def test_a_budget_too_small_for_a_pair_exits_2_and_writes_nothing(cli, tmp_path, fake_speed):
    store, out = tmp_path / "s", tmp_path / "rep"
    fake_speed.speed = 0.2  # 0.1 game indices/s for the pair: 6 games in a minute
    r = compare(cli, store, out, "-p", "2", "--games", "300", "--also-policy", "random",
                "--budget", "1m")
    assert r.exit_code == 2, r.output
    text = " ".join(r.output.split())
    assert "arms baseline-p2-random and tweak-p2-random play about 0.1 games/s" in text
    assert "affords 6 games" in text and "--also-games random=N" in text
    assert listing(store) == [] and listing(out) == []


def test_a_resumed_budget_compare_keeps_the_recorded_count(cli, tmp_path, fake_speed):
    store, out = tmp_path / "s", tmp_path / "rep"
    args = ("-p", "2", "--games", "2000", "--also-policy", "random", "--budget", "8s")
    assert compare(cli, store, out, *args).exit_code == 0
    assert len(fake_speed.calls) == 2
    first = counts(manifest(store))
    assert first["baseline-p2-random"] == first["tweak-p2-random"] == 200  # 8 s at 25/s
    fake_speed.speed = 1000.0  # a faster machine now: a new pilot would pick more games
    r = compare(cli, store, out, *args)
    assert r.exit_code == 0, r.output
    assert len(fake_speed.calls) == 2  # no second pilot
    assert "200 games each, as recorded in the manifest" in " ".join(r.stderr.split())
    assert "nothing to simulate" in r.stdout
    assert counts(manifest(store)) == first
    # without --budget too: the recorded count stays
    r = compare(cli, store, out, *args[:-2])
    assert r.exit_code == 0 and "nothing to simulate" in r.stdout, r.output
    # --also-games changes it: both arms grow together, still paired
    r = compare(cli, store, out, *args[:-2], "--also-games", "random=300")
    assert r.exit_code == 0, r.output
    assert "simulated 200 games" in r.stdout
    man = manifest(store)
    assert counts(man)["baseline-p2-random"] == counts(man)["tweak-p2-random"] == 300
    assert arm_games(store, "baseline-p2-random") == arm_games(store, "tweak-p2-random") \
        == list(range(300))


def test_slow_pairs_are_announced_with_a_hint_for_the_pair():
    exp = studies.compare_experiment("fakedice", ["reroll=false"], players="2", games=100_000,
                                     seed=1, also_policies=["random"])
    est, notes = budget.plan_also_counts(exp, None, None,
                                         is_slow=lambda ra: ra.name.endswith("-random"),
                                         speed=lambda ra: 10.0)
    assert [(e.arm, e.todo) for e in est] == [("baseline-p2-random", 100_000),
                                              ("tweak-p2-random", 100_000)] and not notes
    lines = budget.describe(est, exp, False)
    assert len(lines) == 2
    assert "baseline-p2-random (fakedice 2p random): 100,000 games take about 2 h 46 min" \
        in lines[0]
    # ten minutes for the pair: 3,000 games in each of its two arms at 10 games/s
    assert "--also-games random=3000 or --budget 10m" in lines[0]
    # a slow --policy pair gets the --games hint, for its two arms as well
    est, _ = budget.plan_also_counts(exp, None, None, is_slow=lambda ra: True,
                                     speed=lambda ra: 10.0)
    lines = budget.describe(est, exp, False)
    assert len(lines) == 4 and "tweak-p2 (fakedice 2p greedy)" in lines[1]
    assert lines[1].endswith("for fewer: --games 3000")


def test_compare_announces_a_search_pair_before_it_starts(tmp_path, capsys):
    """A real search also-policy (search seats: sim.search.uses_search): both arms of its
    pair are piloted (speed injected: no kernel compiled here) and announced; nothing is
    written."""
    from pipelines.cli.running import RunSettings, plan_counts

    exp = studies.compare_experiment("flower_shop", ["starting_money=7"], players="2",
                                     games=100_000, seed=1, also_policies=["search:rollouts=8"])
    seen = []
    est = plan_counts(exp, RunSettings(str(tmp_path / "s")), None,
                      speed=lambda ra: seen.append(ra.name) or 20.0)
    assert seen == ["baseline-p2-search_rollouts_8", "tweak-p2-search_rollouts_8"]
    assert [e.todo for e in est] == [100_000, 100_000]
    err = " ".join(capsys.readouterr().err.split())
    assert "baseline-p2-search_rollouts_8 (flower_shop 2p search): 100,000 games take about " \
           "1 h 23 min" in err
    assert "--also-games search=6000 or --budget 10m" in err
    assert not (tmp_path / "s").exists()


# ---- adding an --also-policy -------------------------------------------------------------

def test_adding_an_also_policy_to_a_finished_compare_simulates_only_its_pair(cli, tmp_path):
    store, out = tmp_path / "s", tmp_path / "rep"
    plain = ("-p", "2-3", "--games", "300", "--chunk-size", "100", "--seed", "4")
    r = compare(cli, store, out, *plain)
    assert r.exit_code == 0 and "simulated 1,200 games" in r.stdout, r.output
    name = manifest(store)["name"]
    before = content(store, "games")
    r = compare(cli, store, out, *plain, "--also-policy", "random", "--also-games",
                "random=200")
    assert r.exit_code == 0, r.output
    assert "simulated 800 games" in r.stdout and "12 already done" in r.stdout
    man = manifest(store)  # the same experiment: its pairs joined it
    assert man["name"] == name and "-and-" not in name
    after = content(store, "games")
    assert after.filter(~after["arm"].str.ends_with("-random")).equals(before)
    assert [p["tweak"] for p in man["spec"]["pairs"]] == ["tweak-p2", "tweak-p3",
                                                          "tweak-p2-random", "tweak-p3-random"]
    # the plain command again: nothing to simulate; the also-pairs stay, in the tables too
    r = compare(cli, store, out, *plain)
    assert r.exit_code == 0 and "nothing to simulate" in r.stdout, r.output
    assert "not run now: baseline-p2-random, tweak-p2-random" in " ".join(r.stderr.split())
    assert "tweak-p3-random − baseline-p3-random (3 players, 200 paired games" \
        in " ".join(r.stdout.split())
    spec = manifest(store)["spec"]
    assert len(spec["pairs"]) == 4 and spec["also_policy"] == ["random"]


def test_the_derived_name_leaves_the_also_policies_out():
    kw = dict(players="2", games=100, seed=2)
    plain = studies.compare_experiment("fakedice", ["reroll=false"], **kw)
    more = studies.compare_experiment("fakedice", ["reroll=false"], also_policies=["random"],
                                      **kw)
    assert more.name == plain.name and plain.legacy_name is None
    assert "-and-random-" in more.legacy_name


def test_a_compare_under_the_older_derived_name_is_resumed(cli, tmp_path):
    """Before, the name had ``-and-<policy>`` and hashed every arm: the same command resumes
    a comparison stored under that name instead of playing it all again."""
    store, out = tmp_path / "s", tmp_path / "rep"
    exp = studies.compare_experiment("fakedice", ["reroll=false"], players="2", games=200,
                                     seed=2, also_policies=["random"])
    legacy = studies.compare_experiment("fakedice", ["reroll=false"], players="2", games=200,
                                        seed=2, also_policies=["random"],
                                        experiment=exp.legacy_name)
    runner.run(legacy, store, quiet=True)
    r = compare(cli, store, out, "-p", "2", "--games", "200", "--seed", "2", "--also-policy",
                "random")
    assert r.exit_code == 0, r.output
    assert "nothing to simulate" in r.stdout
    assert f"resuming {exp.legacy_name}" in " ".join(r.stderr.split())
    assert len(manifests(store)) == 1


# ---- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("args, words", BAD_ALSO + [
    (("--also-policy", "random", "--also-games", "random=10", "--precision", "0.05"),
     "remove --also-games"),
])
def test_bad_also_games_and_budget_exit_2_and_write_nothing(cli, tmp_path, args, words,
                                                            fake_speed):
    store, out = tmp_path / "s", tmp_path / "rep"
    r = compare(cli, store, out, "-p", "2", "--games", "500", *args)
    assert r.exit_code == 2, r.output
    assert words in " ".join(r.output.split()), r.output
    assert "Traceback" not in r.output
    assert listing(store) == [] and listing(out) == [] and not fake_speed.calls
