"""Game counts of ``--also-policy`` arms (``--also-games``, ``--budget``), adding an also-policy
to a finished experiment, and the progress bar's sub-batches (pipelines.budget, runner)."""
import json

import pytest
from pipe_helpers import BAD_ALSO, arm_games, content, listing

from pipelines import budget, runner
from pipelines import experiment as ex


def manifest(store, name=None):
    paths = sorted((store / "experiments").glob("*.json"))
    if name is not None:
        paths = [p for p in paths if p.stem == name]
    assert len(paths) == 1, paths
    return json.loads(paths[0].read_text())


# ---- --also-games ------------------------------------------------------------------------

def test_also_games_gives_an_also_arm_its_own_count_on_the_first_game_indices(cli, tmp_path):
    store = tmp_path / "s"
    r = cli("run", "fakedice", "-p", "2", "--games", "300", "--chunk-size", "100",
            "--also-policy", "random", "--also-games", "random=120", "--store", store, "-q")
    assert r.exit_code == 0, r.output
    man = manifest(store)
    n = {a["name"]: a["n_games"] for a in man["arms"]}
    assert n == {"p2": 300, "p2-random": 120}
    assert man["arms"][1]["games_from"] == {"how": "--also-games"}
    assert man["spec"]["also_games"] == {"random": 120}
    assert arm_games(store, "p2-random") == list(range(120))  # paired with p2's first games
    assert arm_games(store, "p2") == list(range(300))


@pytest.mark.parametrize("name", ["greedy:threshold=5", "greedy_threshold_5", "greedy"])
def test_also_games_takes_the_policy_as_given_its_slug_or_its_bare_name(name):
    exp = ex.from_cli("fakedice", "2", games=100, seed=1, policy="random",
                      also_policies=["greedy:threshold=5"], also_games=[f"{name}=40"])
    assert {a.name: a.n_games for a in exp.arms} == {"p2": 100, "p2-greedy_threshold_5": 40}


# ---- --budget ------------------------------------------------------------------------------

def test_duration_and_readable_counts():
    assert budget.parse_duration("90s") == 90
    assert budget.parse_duration("10m") == 600
    assert budget.parse_duration("1h30m") == 5400
    assert budget.parse_duration("600") == 600
    for bad in ("10x", "", "m", "-5m", "0s", "8d", "1h 30"):
        with pytest.raises(ex.SpecError, match="duration like 90s, 10m"):
            budget.parse_duration(bad)
    assert [budget.readable(n) for n in (7, 99, 187, 4321, 99_999)] == [7, 99, 180, 4300, 99_000]
    assert budget.affordable(100.0, 600, 10**6) == 60_000
    assert budget.affordable(100.0, 600, 5_000) == 5_000  # never more than --games


def test_pilot_measures_the_speed_with_an_injected_clock():
    """Batches of 1, 2, 4... games until one takes PILOT_S; a fake game takes 20 ms."""
    now = [0.0]
    played = []

    def play(arm, seed, first, n):
        played.append((first, n))
        now[0] += 0.02 * n

    gps, n = budget.measure_speed(object(), 1, clock=lambda: now[0], play=play, pilot_s=1.0)
    assert gps == pytest.approx(50.0)
    assert played == [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (0, 32), (0, 64)]
    assert n == 127


def test_budget_picks_counts_that_fit_split_over_the_also_arms(cli, tmp_path, fake_speed):
    store = tmp_path / "s"
    r = cli("run", "fakedice", "-p", "2-3", "--games", "5000", "--also-policy", "random",
            "--budget", "20s", "--store", store, "-q")
    assert r.exit_code == 0, r.output
    man = manifest(store)
    n = {a["name"]: a["n_games"] for a in man["arms"]}
    # 20 s over two also-arms at 50 games/s: 10 s = 500 games each; the greedy arms: --games
    assert n == {"p2": 5000, "p3": 5000, "p2-random": 500, "p3-random": 500}
    rec = next(a for a in man["arms"] if a["name"] == "p2-random")["games_from"]
    assert rec["how"] == "--budget" and rec["budget_s"] == 20 and rec["games_per_s"] == 50
    assert "500 games fit the budget" in r.stderr
    assert arm_games(store, "p3-random") == list(range(500))


def test_budget_never_gives_more_than_games_and_refuses_a_budget_too_small(cli, tmp_path,
                                                                           fake_speed):
    store = tmp_path / "s"
    fake_speed.speed = 10_000.0
    r = cli("run", "fakedice", "-p", "2", "--games", "300", "--also-policy", "random",
            "--budget", "1m", "--store", store, "-q")
    assert r.exit_code == 0, r.output
    assert {a["name"]: a["n_games"] for a in manifest(store)["arms"]}["p2-random"] == 300
    fake_speed.speed = 0.05
    other = tmp_path / "t"
    r = cli("run", "fakedice", "-p", "2", "--games", "300", "--also-policy", "random",
            "--budget", "1m", "--store", other, "-q")
    assert r.exit_code == 2
    assert "affords 3 games" in r.output and "--also-games random=N" in r.output
    assert listing(other) == []


def test_a_resumed_budget_run_keeps_the_recorded_count(cli, tmp_path, fake_speed):
    store = tmp_path / "s"
    args = ("run", "fakedice", "-p", "2", "--games", "2000", "--also-policy", "random",
            "--budget", "4s", "--store", store, "-q")
    assert cli(*args).exit_code == 0
    assert len(fake_speed.calls) == 1
    first = manifest(store)
    fake_speed.speed = 1000.0  # a faster machine now: it would pick more games
    r = cli(*args)
    assert r.exit_code == 0, r.output
    assert len(fake_speed.calls) == 1  # no second pilot
    assert "200 games, as recorded in the manifest" in r.stderr
    assert "nothing to simulate" in r.stdout
    again = manifest(store)
    assert [a["n_games"] for a in again["arms"]] == [a["n_games"] for a in first["arms"]] \
        == [2000, 200]
    # without --budget too: the recorded count stays (never --games search games by surprise)
    r = cli(*args[:-5], "--store", store, "-q")
    assert r.exit_code == 0 and "nothing to simulate" in r.stdout, r.output
    # --also-games changes it (grows the arm)
    r = cli(*args[:-5], "--also-games", "random=300", "--store", store, "-q")
    assert r.exit_code == 0 and "simulated 100 games" in r.stdout, r.output
    assert manifest(store)["arms"][1]["games_from"] == {"how": "--also-games"}


def test_slow_arms_are_announced_with_their_time_and_a_hint():
    exp = ex.from_cli("fakedice", "2", games=100_000, seed=1, also_policies=["random"])
    est, notes = budget.plan_also_counts(exp, None, None, is_slow=lambda ra: ra.name != "p2",
                                         speed=lambda ra: 5.0)
    assert [(e.arm, e.todo) for e in est] == [("p2-random", 100_000)] and not notes
    lines = budget.describe(est, exp, False)
    assert len(lines) == 1
    assert "p2-random (fakedice 2p random): 100,000 games take about 5 h 33 min" in lines[0]
    assert "--also-games random=3000 or --budget 10m" in lines[0]
    est, _ = budget.plan_also_counts(exp, None, None, is_slow=lambda ra: True,
                                     speed=lambda ra: 1e6)
    assert budget.describe(est, exp, False) == []  # fast enough: nothing to say


# ---- adding an --also-policy -------------------------------------------------------------

def test_adding_an_also_policy_simulates_only_the_new_arms(tmp_path):
    store = tmp_path / "s"
    plain = ex.from_cli("fakedice", "2-3", games=300, seed=4, chunk_size=100)
    res = runner.run(plain, store, quiet=True)
    assert res.simulated == 600
    more = ex.from_cli("fakedice", "2-3", games=300, seed=4, chunk_size=100,
                       also_policies=["random"], also_games=["random=200"])
    assert more.name == plain.name  # same experiment: the also-arms join it
    before = content(store, "games")
    res = runner.run(more, store, quiet=True)
    assert res.simulated == 400 and res.chunks_skipped == 6  # only p2-random, p3-random
    after = content(store, "games")
    assert after.filter(after["arm"].is_in(["p2", "p3"])).equals(before)
    assert [a["name"] for a in manifest(store)["arms"]] == ["p2", "p3", "p2-random",
                                                            "p3-random"]
    # the plain command again: nothing to do, the also-arms stay
    res = runner.run(plain, store, quiet=True)
    assert res.simulated == 0
    assert any("not run now: p2-random, p3-random" in n for n in res.notes)


def test_an_experiment_under_the_older_derived_name_is_resumed(cli, tmp_path):
    """Before, the name had ``-and-<policy>`` and hashed every arm: the same command resumes
    an experiment stored under that name instead of playing it all again."""
    store = tmp_path / "s"
    exp = ex.from_cli("fakedice", "2", games=200, seed=2, also_policies=["random"])
    assert "-and-random-" in exp.legacy_name and "-and-" not in exp.name
    legacy = ex.from_cli("fakedice", "2", games=200, seed=2, also_policies=["random"],
                         experiment=exp.legacy_name)
    runner.run(legacy, store, quiet=True)
    r = cli("run", "fakedice", "-p", "2", "--games", "200", "--seed", "2", "--also-policy",
            "random", "--store", store, "-q")
    assert r.exit_code == 0, r.output
    assert "nothing to simulate" in r.stdout and f"resuming {exp.legacy_name}" in r.stderr
    assert len(list((store / "experiments").glob("*.json"))) == 1


# ---- the progress bar: sub-batches ---------------------------------------------------------

def test_sub_batched_chunks_store_the_same_rows(tmp_path):
    exp = ex.from_cli("fakedice", "1-3", games=250, seed=9, chunk_size=100,
                      also_policies=["random"], also_games=["random=130"], experiment="e")
    stores = {}
    for batch in (0, 7, None):
        stores[batch] = tmp_path / f"s{batch}"
        runner.run(exp, stores[batch], quiet=True, sub_batch=batch)
    for t in ("games", "seats"):
        whole = content(stores[0], t)
        assert len(whole) > 0
        assert content(stores[7], t).equals(whole) and content(stores[None], t).equals(whole)


def test_play_results_reports_each_sub_batch(tmp_path):
    exp = ex.from_cli("fakedice", "2", games=50, seed=3)
    ra = runner.share_kernels(exp.arms)["p2"]
    task = runner.make_task(ra, 0, 10, 60, 3)
    whole = runner.play_results(ra.arm, task)
    got = []
    parts = runner.play_results(ra.arm, task, got.append, 8)
    assert got == [8] * 6 + [2]
    now = [0.0]

    def clock():  # every sub-batch "takes" 0.25 s: the next one may be 4x (at most 8x) larger
        now[0] += 0.25
        return now[0]

    grown = []
    adaptive = runner.play_results(ra.arm, task, grown.append, None, clock=clock)
    assert sum(grown) == 50 and len(grown) > 1 and grown[1] == 4 * grown[0]
    for a, b in (parts, adaptive):
        assert (a == whole[0]).all() and (b == whole[1]).all()


def test_arm_label_names_game_players_and_policy():
    exp = ex.from_cli("fakedice", "2", games=10, seed=1, also_policies=["random"])
    assert [a.label() for a in exp.arms] == ["fakedice 2p greedy", "fakedice 2p random"]


# ---- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("args, words", BAD_ALSO + [
    (("--also-policy", "random", "--also-games", "random=ten"), "from 1 to 500"),
    (("--also-policy", "random", "--budget", "1m", "--precision", "0.05"),
     "remove --budget"),
])
def test_bad_also_games_and_budget_exit_2_and_write_nothing(cli, tmp_path, args, words,
                                                            fake_speed):
    store = tmp_path / "s"
    r = cli("run", "fakedice", "-p", "2", "--games", "500", *args, "--store", store, "-q")
    assert r.exit_code == 2, r.output
    assert words in r.output, r.output
    assert "Traceback" not in r.output
    assert listing(store) == [] and not fake_speed.calls


def test_run_announces_a_search_arm_that_would_take_long(tmp_path, capsys):
    """A real search arm (search seats: sim.search.uses_search) is piloted and announced; the
    pilot's speed is injected (no kernel is compiled here), nothing is written."""
    from pipelines.cli.running import plan_counts
    from pipelines.cli.running import RunSettings

    exp = ex.from_cli("flower_shop", players="1", games=100_000, seed=1,
                      also_policies=["search:rollouts=8"])
    seen = []
    est = plan_counts(exp, RunSettings(str(tmp_path / "s")), None,
                      speed=lambda ra: seen.append(ra.name) or 20.0)
    assert seen == ["p1-search_rollouts_8"] and est[0].todo == 100_000
    err = capsys.readouterr().err
    assert "p1-search_rollouts_8 (flower_shop 1p search): 100,000 games take about 1 h 23 min" \
        in " ".join(err.split())
    assert "--also-games search=12000 or --budget 10m" in " ".join(err.split())
    assert not (tmp_path / "s").exists()
