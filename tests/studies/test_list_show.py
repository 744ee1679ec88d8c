"""Finding results: `playtest run` ends with its result table and the report command;
`playtest list` (short id, date, status) / `playtest show EXPERIMENT`; handles a person can
type (`latest`, a unique prefix, the short id); "did you mean" for a mistyped experiment."""
import json
import re

import pytest

from pipelines import experiment as ex
from pipelines import runner
from pipelines.cli.handles import short_id
from pipelines.store import Store

DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")


def _name(store) -> str:
    return json.loads(next((store / "experiments").glob("*.json")).read_text())["name"]


def _row(stdout: str, needle: str) -> str:
    return next(line for line in stdout.splitlines() if needle in line)


def test_run_list_show(cli, tmp_path):
    store = tmp_path / "s"
    r = cli("run", "fakedice", "--players", "3", "--set", "dice=3", "--games", "300",
            "--store", store, "-q")
    assert r.exit_code == 0, r.output
    name = _name(store)
    # the result: win rate by the balance factor (the seat for this game) with intervals
    assert "Win rate by seat" in r.stdout and "95% CI" in r.stdout
    assert f"report: playtest report {name} --store {store}" in r.stdout
    r = cli("list", "--store", store)
    assert r.exit_code == 0, r.output
    assert f"store: {store}" in r.stdout
    row = _row(r.stdout, short_id(name))
    assert "fakedice" in row and "3" in row and "dice=3" in row and "300" in row
    assert "finished" in row and DATE.search(row)
    r = cli("show", name, "--store", store)
    assert r.exit_code == 0, r.output
    assert "p3" in r.stdout and "dice=3" in r.stdout and "Win rate by seat" in r.stdout
    assert f"id {short_id(name)}, finished" in r.stdout
    r = cli("show", name[:-1] + "x", "--store", store)
    assert r.exit_code == 2 and f"did you mean '{name}'?" in r.stderr


def test_list_empty_store_says_so(cli, tmp_path):
    (tmp_path / "empty").mkdir()  # an existing empty folder; a missing one is refused
    r = cli("list", "--store", tmp_path / "empty")
    assert r.exit_code == 0 and "holds no experiments" in r.stderr
    r = cli("list", "--store", tmp_path / "missing")
    assert r.exit_code == 2 and "does not exist" in r.stderr


def _run(store, name, players="2", games=200, **kw):
    exp = ex.from_cli("fakedice", players=players, games=games, seed=3, chunk_size=100,
                      experiment=name)
    return runner.run(exp, store, workers=1, quiet=True, **kw)


def test_latest_prefix_and_short_id_resolve_for_show_and_report(cli, tmp_path):
    store, out = tmp_path / "s", tmp_path / "rep"
    _run(store, "alpha-first-experiment-with-a-rather-long-name")
    _run(store, "alpha-second", players="3")
    _run(store, "beta-last")  # the latest
    cases = {"latest": "beta-last", "beta": "beta-last", "alpha-s": "alpha-second",
             short_id("alpha-second"): "alpha-second",
             short_id("alpha-first-experiment-with-a-rather-long-name")[:5]:
                 "alpha-first-experiment-with-a-rather-long-name"}
    for handle, name in cases.items():
        r = cli("show", handle, "--store", store)
        assert r.exit_code == 0, (handle, r.output)
        assert r.stdout.startswith(f"experiment {name}\n"), (handle, r.stdout)
    for handle, name in (("latest", "beta-last"), (short_id("alpha-second"), "alpha-second")):
        r = cli("report", handle, "--store", store, "--out", out)
        assert r.exit_code == 0, r.output
        assert (out / f"{name}.html").is_file()
    # an ambiguous prefix lists the candidates (short id and name) and writes nothing
    before = sorted(p.name for p in out.iterdir())
    for command in ("show", "report"):
        r = cli(command, "alpha", "--store", store, "--out", out) if command == "report" \
            else cli(command, "alpha", "--store", store)
        assert r.exit_code == 2, r.output
        assert "'alpha' fits 2 experiments" in r.stderr
        for name in ("alpha-first-experiment-with-a-rather-long-name", "alpha-second"):
            assert f"{short_id(name)}  {name}" in r.stderr
    assert sorted(p.name for p in out.iterdir()) == before
    r = cli("show", "gamma", "--store", store)
    assert r.exit_code == 2 and "unknown experiment 'gamma'" in r.stderr
    (tmp_path / "empty").mkdir()
    r = cli("show", "latest", "--store", tmp_path / "empty")
    assert r.exit_code == 2 and "holds no experiments" in r.stderr


def test_list_status_finished_interrupted_partial_running_and_date(cli, tmp_path):
    store = tmp_path / "s"
    _run(store, "done-run")

    def boom(arm, chunk):
        if chunk == 1:
            raise RuntimeError("killed")

    with pytest.raises(RuntimeError):  # a run that dies mid-way: manifest still "running"
        _run(store, "killed-run", players="2-3", after_chunk=boom)
    with pytest.raises(RuntimeError):
        _run(store, "partial-run", players="2-3", after_chunk=boom)
    _run(store, "partial-run", players="2")  # ends normally; arm p3 kept, unfinished
    # a killed process leaves its manifest "running" and no lock holder: written by hand too
    m = json.loads((store / "experiments" / "done-run.json").read_text())
    m.update(name="hand-killed", status="running", finished_chunks={})
    for arm in m["arms"]:  # killed before its first chunk was done
        arm["finished"] = []
    (store / "experiments" / "hand-killed.json").write_text(json.dumps(m))
    statuses = {"done-run": "finished", "killed-run": "interrupted",
                "partial-run": "partial", "hand-killed": "interrupted"}
    assert json.loads((store / "experiments" / "partial-run.json").read_text())[
        "status"] == "partial"
    r = cli("list", "--store", store)
    assert r.exit_code == 0, r.output
    for name, status in statuses.items():
        row = _row(r.stdout, short_id(name))
        assert status in row and DATE.search(row), (name, row)
        assert name in row
    assert "100 of 200" in _row(r.stdout, short_id("killed-run"))  # games done of planned
    # while a process holds the lock the experiment is running
    with Store(store).lock("killed-run"):
        r = cli("list", "--store", store)
        assert "running" in _row(r.stdout, short_id("killed-run"))
        assert "interrupted" not in _row(r.stdout, short_id("killed-run"))
    r = cli("show", "killed", "--store", store)
    assert r.exit_code == 0, r.output
    assert "interrupted" in r.stdout and "run the same command again" in r.stdout
    assert "100 of 200 games per arm done" in r.stdout


def test_list_names_never_wrap_mid_word(cli, tmp_path):
    store = tmp_path / "s"
    long = "a" + "-very-long-experiment-name" * 4 + "-end"  # ~110 characters
    _run(store, long)
    r = cli("list", "--store", store)
    assert r.exit_code == 0, r.output
    rows = [line for line in r.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 1  # one line per experiment: nothing wraps
    assert short_id(long) in rows[0] and "…" in rows[0] and long[:20] in rows[0]


def test_show_prints_results_for_every_kind(cli, tmp_path):
    store, out = tmp_path / "s", tmp_path / "rep"
    spec = tmp_path / "solo.toml"
    spec.write_text('[experiment]\nname = "solo-spec"\ngame = "fakedice"\nplayers = 1\n'
                    'seed = 2\ngames = 200\n\n[[arms]]\nname = "easy"\n\n[[arms]]\n'
                    'name = "three"\nset = { dice = 3 }\n')
    pairs = tmp_path / "pairs.toml"
    pairs.write_text('[experiment]\nname = "pair-spec"\ngame = "fakedice"\nplayers = 2\n'
                     'seed = 2\ngames = 200\nbaseline = "base"\n\n[[arms]]\nname = "base"\n\n'
                     '[[arms]]\nname = "three"\nset = { dice = 3 }\n')
    expect = {}
    r = cli("run", "--spec", spec, "--store", store, "-q")
    assert r.exit_code == 0, r.output
    # run --spec ends with the same summary as run: here the solo arms' win probabilities
    assert "Solo win probability" in r.stdout and "95% CI" in r.stdout
    assert re.search(r"easy .*\d+\.\d% .*\d+\.\d–\d+\.\d%", r.stdout), r.stdout
    expect["solo-spec"] = "Solo win probability"
    r = cli("run", "--spec", pairs, "--store", store, "-q")
    assert r.exit_code == 0, r.output
    assert "three − base (2 players, 200 paired games" in r.stdout
    expect["pair-spec"] = "200 paired games"
    r = cli("sweep", "fakedice", "--param", "dice=1,2", "--players", "2", "--games", "200",
            "--store", store, "--out", out, "-q", "--experiment", "sweep-x")
    assert r.exit_code == 0, r.output
    expect["sweep-x"] = "Sweep: estimate ± 95% half-width"
    r = cli("compare", "fakedice", "--set", "dice=3", "--players", "3", "--games", "200",
            "--store", store, "--out", out, "-q", "--experiment", "compare-x")
    assert r.exit_code == 0, r.output
    expect["compare-x"] = "tweak-p3 − baseline-p3 (3 players, 200 paired games"
    r = cli("plan", "fakedice", "--detect", "0.05", "--players", "2", "--pilot-games", "200",
            "--store", store, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    r = cli("show", "latest", "--store", store)  # the plan's pilot: a run of its own
    assert r.exit_code == 0 and "Win rate by seat" in r.stdout, r.output
    r = cli("ladder", "fakedice", "--players", "2", "--policies", "random,greedy",
            "--games", "100", "--store", store, "--out", out, "-q", "--experiment", "ladder-x")
    assert r.exit_code == 0, r.output
    expect["ladder-x"] = "Head to head, 2 players"
    for handle, needle in expect.items():
        r = cli("show", handle, "--store", store)
        assert r.exit_code == 0, (handle, r.output)
        assert needle in r.stdout, (handle, r.stdout)
    r = cli("show", "solo", "--store", store)
    assert not re.search(r"\b0\.\d{3}\b", r.stdout), r.stdout  # percentages, not 0.357


def test_run_and_show_print_percentages(cli, tmp_path):
    store = tmp_path / "s"
    r = cli("run", "fakedice", "--players", "2", "--games", "200", "--store", store, "-q",
            "--workers", "1")
    assert r.exit_code == 0, r.output
    r2 = cli("show", "latest", "--store", store)
    for out in (r.stdout, r2.stdout):
        row = _row(out, "│       2 │    0 │")
        # win rate, its interval and the fair share: percentages with one decimal
        assert re.search(r"\d+\.\d% │ \d+\.\d–\d+\.\d% │ +50\.0% │", row), row
        assert not re.search(r"\b0\.\d{3}\b", out), out
    assert "simulated 200 games (1 chunk)" in r.stdout and "(local, 1 worker)" in r.stdout
