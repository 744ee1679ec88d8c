"""``playtest ladder``: bad input, the seat rotation, resume and determinism, solo, the report;
on the fake game, and one small real ladder (Rattlebones: greedy must beat random)."""
import json

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from analysis import db
from analysis import ladder as ladder_stats
from pipelines import runner
from pipelines.studies import ladder_experiment, split_policies

from pipe_helpers import content, listing
from test_fuzz_cli import check, policies, sizes, texts, values
from tests.studies.studyhelpers import html_text


def _manifest(store):
    return json.loads(next((store / "experiments").glob("*.json")).read_text())


@pytest.mark.parametrize("args, expect", [
    (("nogame",), "unknown game 'nogame'"),
    (("fakedice", "--policies", "random,smart"), "unknown policy 'smart'; valid: greedy, random"),
    (("fakedice", "--policies", "greedy"), "at least 2 policies"),
    (("fakedice", "--policies", "greedy,random,greedy"), "plays the same policy"),
    (("fakedice", "--policies", "greedy,greedy:threshold=7"), "plays the same policy"),
    (("fakedice", "--policies", "random,greedy:nope=1"), "nope"),
    (("fakedice", "--players", "2-4"), "one player count"),
    (("fakedice", "--players", "7"), "for 1-4 players, not 7"),
    (("fakedice", "--games", "0"), "positive integer"),
    (("fakedice", "--variant", "hard"), "variant 'hard' is for 1-1 players, not 4"),
    (("fakedice", "--variant", "nope"), "unknown variant 'nope'"),
    (("fakedice", "--search"), "--search: fakedice has no search policy"),
    (("rattlebones", "--search-games", "5"), "--search-games needs --search"),
    (("rattlebones", "--search", "--search-games", "0"), "--search-games: number of games must"),
    (("rattlebones", "--search", "--policies", "greedy,@x.toml"), "policy preset x.toml"),
    (("rattlebones", "--search", "--policies", "greedy,search:base=greedy"),
     "search:base=search"),
])
def test_ladder_bad_input_exit_2_one_line_nothing_written(cli, tmp_path, args, expect):
    store, out = tmp_path / "store", tmp_path / "rep"
    r = cli("ladder", *args, "--store", store, "--out", out, "-q")
    assert r.exit_code == 2, r.output
    assert expect in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert listing(store) == [] and listing(out) == []


def test_game_spec_ladder_default_and_check(fake_game):
    """Every registered game has a ladder of its own policies, random first (declared, or by
    default every policy in registration order); a ladder naming an unknown policy is refused
    when the spec is built."""
    import dataclasses

    from sim.spec import SpecError

    for gid in fake_game.available_games():
        spec = fake_game.make(gid)
        assert set(spec.ladder) <= set(spec.policies) and len(spec.ladder) >= 2
        assert spec.ladder[0] == "random"
    spec = fake_game.make("fakedice")
    # not declared: every policy in registration order, random moved first
    assert spec.ladder == ("random",) + tuple(p for p in spec.policies if p != "random")
    assert dataclasses.replace(spec, ladder=("greedy", "random")).ladder == ("greedy", "random")
    with pytest.raises(SpecError, match="ladder names unknown policies"):
        dataclasses.replace(spec, ladder=("random", "smart"))


def test_rules_prints_the_ladder(cli):
    r = cli("rules", "fakedice")
    assert r.exit_code == 0 and "ladder (`playtest ladder`, weakest first): random < greedy" \
        in r.stdout


def test_split_policies_keeps_policy_options_together():
    assert split_policies("random, greedy:threshold=9,x=2 ,greedy") == [
        "random", "greedy:threshold=9,x=2", "greedy"]


def test_ladder_arms_rotate_the_higher_rung_over_every_seat(fake_game):
    exp = ladder_experiment("fakedice", players=3, games=10, seed=2)
    assert exp.source["kind"] == "ladder"
    # the declared default: every policy, random first (fakedice registers greedy first)
    assert list(fake_game.make("fakedice").policies) == ["greedy", "random"]
    assert exp.source["rungs"] == ["random", "greedy"]
    assert [(a.name, list(a.arm.policies)) for a in exp.arms] == [
        ("greedy-vs-random-seat0", ["greedy", "random", "random"]),
        ("greedy-vs-random-seat1", ["random", "greedy", "random"]),
        ("greedy-vs-random-seat2", ["random", "random", "greedy"])]
    assert {a.n_games for a in exp.arms} == {10}
    # --policies overrides the declared order (and so the roles of the two rungs)
    rev = ladder_experiment("fakedice", players=2, policies="greedy,random", games=10, seed=2)
    assert [list(a.arm.policies) for a in rev.arms] == [["random", "greedy"], ["greedy", "random"]]
    assert rev.name != ladder_experiment("fakedice", players=2, games=10, seed=2).name


def test_search_rung_tops_the_ladder_against_the_top_rung_only():
    """--search: the game's declared search rung plays one seat against the top rung, in every
    seat, on its own (smaller) number of games; the pairs below are unchanged. Solo: one arm."""
    from sim import registry

    spec = registry.make("rattlebones")
    plain = ladder_experiment("rattlebones", players=3, games=1000, seed=2)
    exp = ladder_experiment("rattlebones", players=3, games=1000, seed=2, search=True,
                            search_games=30)
    top = spec.search_rung
    assert top.startswith("search:base=expert") and exp.source["rungs"] == list(spec.ladder) + [top]
    assert [a.name for a in exp.arms[:len(plain.arms)]] == [a.name for a in plain.arms]
    extra = exp.arms[len(plain.arms):]
    assert [list(a.arm.policies) for a in extra] == [
        [top, "expert", "expert"], ["expert", top, "expert"], ["expert", "expert", top]]
    assert {a.n_games for a in extra} == {30} and {a.n_games for a in plain.arms} == {1000}
    assert exp.source["search_games"] == 30 and exp.name != plain.name
    # the default: settings.LADDER_SEARCH_GAMES, or --games when smaller
    assert {a.n_games for a in ladder_experiment("rattlebones", players=2, games=1000,
                                                  search=True).arms[-2:]} == {100}
    assert {a.n_games for a in ladder_experiment("rattlebones", players=2, games=40,
                                                  search=True).arms} == {40}
    # over --policies: search on the top rung given
    mine = ladder_experiment("rattlebones", players=2, policies="random,greedy", games=10,
                             search=True)
    assert mine.source["rungs"][-1] == "search:base=greedy"
    solo = ladder_experiment("flower_shop", players=1, variant="solo_base", games=50,
                             search=True, search_games=5)
    assert [(a.name.split("_")[0], a.n_games) for a in solo.arms][-1] == ("search", 5)


def test_ladder_cli_end_to_end_resume_report_show(cli, tmp_path):
    store, out = tmp_path / "store", tmp_path / "rep"
    args = ("ladder", "fakedice", "--players", "3", "--policies",
            "random,greedy,greedy:threshold=12", "--games", "400", "--seed", "3",
            "--store", store, "--out", out, "-q")
    r = cli(*args)
    assert r.exit_code == 0, r.output
    assert "Head to head, 3 players" in r.stdout and "Ratings (Bradley-Terry" in r.stdout
    assert "Each rung beats the one below with 95% confidence:" in r.stdout
    assert "Skill versus luck" in r.stdout
    man = _manifest(store)
    assert man["spec"]["kind"] == "ladder" and man["status"] == "complete"
    assert len(man["arms"]) == 3 * 3 and {a["n_games"] for a in man["arms"]} == {400}
    before = content(store, "seats")
    # a lost part is simulated again on the next run: the same rows as before
    next((store / "results" / "seats").rglob("arm=greedy-vs-random-seat1/*.parquet")).unlink()
    r = cli(*args)
    assert r.exit_code == 0, r.output
    assert content(store, "seats").equals(before)
    # the same command again: nothing to simulate, the same rows
    r = cli(*args)
    assert r.exit_code == 0 and "nothing to simulate" in r.stdout
    assert content(store, "seats").equals(before)
    # the statistics read back from the store
    con = db.connect(store)
    lad = ladder_stats.summarize(con, man["name"], man["spec"])
    con.close()
    assert len(lad.pairs) == 3 and set(lad.pairs["games"]) == {1200}
    assert lad.ratings is not None and lad.ratings.names == man["spec"]["rungs"]
    # the report, and the same report again through `playtest report`
    text = html_text(next(out.glob("*.html")))
    for phrase in ("How strong are the bots?", "Does each rung beat the one below?",
                   "Head to head", "Ratings", "Elo", "Skill versus luck", "95% CI",
                   "greedy:threshold=12", "Master seed"):
        assert phrase in text, phrase
    r = cli("report", man["name"], "--store", store, "--out", tmp_path / "again")
    assert r.exit_code == 0, r.output
    assert "How strong are the bots?" in html_text(next((tmp_path / "again").glob("*.html")))
    r = cli("show", man["name"], "--store", store)
    assert r.exit_code == 0 and "Ratings (Bradley-Terry" in r.stdout
    r = cli("list", "--store", store)
    assert man["name"][:30] in r.stdout.replace("\n", "")


def test_ladder_rows_identical_whatever_the_worker_count(fake_game, tmp_path):
    exp = ladder_experiment("fakedice", players=2, games=900, seed=5, chunk_size=300)
    runner.run(exp, tmp_path / "one", workers=1, quiet=True)
    exp = ladder_experiment("fakedice", players=2, games=900, seed=5)
    runner.run(exp, tmp_path / "two", workers=2, quiet=True)
    assert content(tmp_path / "one", "seats").equals(content(tmp_path / "two", "seats"))
    assert content(tmp_path / "one", "games").equals(content(tmp_path / "two", "games"))


def test_solo_ladder_win_probability_per_policy(cli, tmp_path):
    store, out = tmp_path / "store", tmp_path / "rep"
    r = cli("ladder", "fakedice", "--players", "1", "--policies",
            "random,greedy:threshold=9", "--games", "500", "--store", store, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert "Solo win probability" in r.stdout and "greedy:threshold=9 over random" in r.stdout
    man = _manifest(store)
    assert [a["name"] for a in man["arms"]] == ["random", "greedy_threshold_9"]
    text = html_text(next(out.glob("*.html")))
    assert "Solo win probability per policy" in text and "paired game by game" in text
    assert "Ratings" not in text.split("What was simulated")[0]


@pytest.fixture(scope="module")
def rattlebones_ladder(tmp_path_factory):
    """Rattlebones, 2 players, random vs greedy, 300 games per seat (600 games)."""
    store = tmp_path_factory.mktemp("rb") / "store"
    exp = ladder_experiment("rattlebones", players=2, policies="random,greedy", games=300,
                            seed=4)
    runner.run(exp, store, workers=2, quiet=True)
    return store, exp


def test_real_ladder_greedy_beats_random(rattlebones_ladder, tmp_path):
    from analysis import reports

    store, exp = rattlebones_ladder
    con = db.connect(store)
    lad = ladder_stats.summarize(con, exp.name, exp.source)
    con.close()
    pair = lad.pairs.iloc[0]
    assert (pair["a"], pair["b"], pair["games"]) == ("greedy", "random", 600)
    assert pair["verdict"] == ladder_stats.BEATS and pair["low"] > 0.5
    assert lad.all_steps_hold and lad.verdict.startswith(
        "Each rung beats the one below with 95% confidence: yes")
    assert lad.ratings.rating[1] > 0 and lad.ratings.low[1] > 0
    assert lad.skill["index"] > 0
    path = reports.write_report(store, exp.name, tmp_path)
    text = html_text(path)
    assert "Each rung beats the one below with 95% confidence: yes" in text
    assert "rattlebones" in text


@hsettings(max_examples=20, deadline=None, derandomize=True,
           suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_ladder_options_exit_0_or_2_and_leave_the_store_alone(cli, tmp_path_factory,
                                                                      monkeypatch, data):
    """Random values for every option of ``ladder`` (the strategies of test_fuzz_cli): exit 0
    or 2 with a message, never a traceback, nothing written on exit 2."""
    from analysis import reports
    from analysis.reports import render

    monkeypatch.setattr(reports, "write_study_report", lambda store, experiment, out_dir, plan=None:
                        render.write_html(out_dir, f"{experiment}.html", "<html></html>"))
    work = tmp_path_factory.getbasetemp() / "ladder-fuzz"
    rungs = st.lists(st.one_of(policies, texts), min_size=1, max_size=3).map(",".join)
    options = [("--players", st.one_of(values, st.sampled_from(["1", "2", "3", "1-2"]))),
               ("--policies", rungs), ("--variant", st.one_of(st.sampled_from(["hard", "many"]),
                                                              texts)),
               ("--set", st.builds(lambda v: f"dice={v}", values)), ("--seed", values),
               ("--games", sizes), ("--chunk-size", sizes), ("--experiment", texts)]
    picked = data.draw(st.lists(st.sampled_from(options).flatmap(
        lambda o: st.tuples(st.just(o[0]), o[1])), max_size=3), "options")
    argv = ["ladder", data.draw(st.sampled_from(["fakedice", "nogame"]), "game"),
            "--store", work / "store", "--out", work / "reports", "--quiet", "--games", "8"]
    for flag, value in picked:
        argv += [flag, value]
    check(cli, work / "store", argv)
