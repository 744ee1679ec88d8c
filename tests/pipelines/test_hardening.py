"""Issue 18: bounded sizes, changed plans, a resume that verifies its parts, damaged stores in
``sql``/``report``, read-only SQL (fake game, no compile)."""
import json

import pytest

from pipe_helpers import content, listing
from pipelines import chunks, settings


def run_args(store, *extra):
    return ["run", "fakedice", "--players", "2", "--seed", "3", "--store", store, "--quiet",
            "--experiment", "x", *extra]


def manifest(store, name="x"):
    return json.loads((store / "experiments" / f"{name}.json").read_text())


# ---- bounds -------------------------------------------------------------------------------

@pytest.mark.parametrize("args, needle", [
    (["--games", str(10**30)], f"limit of {settings.MAX_GAMES:,} games per arm"),
    (["--games", str(2**63 - 1)], f"limit of {settings.MAX_GAMES:,} games per arm"),
    (["--games", "1000", "--chunk-size", str(10**11)], f"limit of {settings.MAX_CHUNK_SIZE:,}"),
    (["--games", str(settings.MAX_GAMES), "--chunk-size", "1"],
     f"limit of {settings.MAX_CHUNKS:,} chunks per arm"),
])
def test_sizes_above_the_limits_exit_2_and_write_nothing(tmp_path, cli, args, needle):
    store = tmp_path / "store"
    r = cli(*run_args(store, *args))
    assert r.exit_code == 2 and needle in r.stderr, r.stderr
    assert listing(store) == []


def test_toml_games_above_the_limit(tmp_path, cli):
    spec = tmp_path / "s.toml"
    spec.write_text('[experiment]\ngame = "fakedice"\ngames = 9223372036854775807\n'
                    '[[arms]]\nplayers = 2\n')
    r = cli("run", "--spec", spec, "--store", tmp_path / "store")
    assert r.exit_code == 2 and "experiment.games" in r.stderr and "limit" in r.stderr
    assert listing(tmp_path / "store") == []


def test_manifest_is_small_for_a_large_plan(tmp_path):
    plan = chunks.extend([], settings.MAX_GAMES, settings.DEFAULT_CHUNK_SIZE)
    assert len(json.dumps(plan)) < 100 and chunks.count(plan) == 20_000
    grown = chunks.extend(plan, settings.MAX_GAMES + 10, 7)
    assert list(chunks.expand(grown))[-2:] == [
        (20_000, settings.MAX_GAMES, settings.MAX_GAMES + 7),
        (20_001, settings.MAX_GAMES + 7, settings.MAX_GAMES + 10)]
    assert chunks.to_ranges([5, 0, 1, 2, 7, 6]) == [[0, 2], [5, 7]]
    assert chunks.from_ranges([[0, 2], [5, 7]]) == {0, 1, 2, 5, 6, 7}


@pytest.mark.parametrize("text", ["[]", "{}", '{"arms": [1]}', '{"arms": [{"name": "p2"}]}',
                                  '{"arms": [{"name": "p2", "game": "fakedice", "n_players": 2,'
                                  ' "chunks": [{"chunk": 0, "start": 0, "stop": 5, "size": 0}],'
                                  ' "finished": []}]}', "\xff\xfe"])
def test_wrong_shaped_manifest_is_one_message(tmp_path, cli, text):
    store = tmp_path / "store"
    (store / "experiments").mkdir(parents=True)
    (store / "experiments" / "x.json").write_bytes(text.encode("latin-1"))
    before = listing(store)
    r = cli(*run_args(store, "--games", "100"))
    assert r.exit_code == 2 and "x.json" in r.stderr and "move it away" in r.stderr, r.stderr
    assert listing(store) == before


def test_smaller_games_on_an_unfinished_plan_is_refused_unless_replan(tmp_path, cli):
    store = tmp_path / "store"

    def stop_after_first(arm, chunk):
        raise KeyboardInterrupt

    from pipelines import experiment as ex, runner

    exp = ex.from_cli("fakedice", "2", games=1000, seed=3, experiment="x", chunk_size=100)
    with pytest.raises(KeyboardInterrupt):
        runner.run(exp, store, quiet=True, after_chunk=stop_after_first)
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    r = cli(*run_args(store, "--games", "300"))
    assert r.exit_code == 2, r.output
    assert "planned with 1,000 games per arm, not 300" in r.stderr and "--replan" in r.stderr
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before
    r = cli(*run_args(store, "--games", "300", "--chunk-size", "50"))
    assert r.exit_code == 2
    r = cli(*run_args(store, "--games", "300", "--chunk-size", "50", "--replan"))
    assert r.exit_code == 0 and "re-planned to 300 games" in r.stderr, r.output
    m = manifest(store)
    assert m["status"] == "complete" and m["n_games"] == 300
    got = list(chunks.expand(m["arms"][0]["chunks"]))
    assert got[0] == (0, 0, 100) and [c[1:] for c in got[1:]] == [(100, 150), (150, 200),
                                                                   (200, 250), (250, 300)]
    fresh = tmp_path / "fresh"
    assert cli(*run_args(fresh, "--games", "300")).exit_code == 0
    assert content(store, "games").equals(content(fresh, "games"))
    assert content(store, "seats").equals(content(fresh, "seats"))
    # a finished experiment with fewer games asked: reused, with a note
    r = cli(*run_args(store, "--games", "200"))
    assert r.exit_code == 0 and "nothing to simulate" in r.stdout


def test_resume_with_the_same_chunk_size_and_a_short_last_chunk(tmp_path, cli):
    from pipelines import experiment as ex, runner

    store = tmp_path / "store"
    exp = ex.from_cli("fakedice", "2", games=260, seed=3, experiment="x", chunk_size=100)

    def stop(arm, chunk):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(exp, store, quiet=True, after_chunk=stop)
    r = cli(*run_args(store, "--games", "260", "--chunk-size", "100"))
    assert r.exit_code == 0 and "simulated 160 games" in r.stdout, r.output


def test_format_1_manifest_still_resumes(tmp_path, cli):
    store = tmp_path / "store"
    assert cli(*run_args(store, "--games", "250", "--chunk-size", "100")).exit_code == 0
    m = manifest(store)
    a = m["arms"][0]
    a["chunks"] = [{"chunk": c, "start": s, "stop": e} for c, s, e in chunks.expand(a["chunks"])]
    a["finished_chunks"] = [0, 1]
    del a["finished"]
    m["format"] = 1
    (store / "experiments" / "x.json").write_text(json.dumps(m))
    r = cli(*run_args(store, "--games", "250"))
    assert r.exit_code == 0 and "simulated 50 games" in r.stdout, r.output
    assert manifest(store)["arms"][0]["finished"] == [[0, 2]]


# ---- a resume that verifies -------------------------------------------------------------

def _part(store, table, chunk):
    return next((store / "results" / table).rglob(f"part-{chunk:05d}.parquet"))


@pytest.mark.parametrize("damage", ["delete", "truncate", "garbage"])
def test_resume_resimulates_missing_or_damaged_parts(tmp_path, cli, damage):
    store, fresh = tmp_path / "store", tmp_path / "fresh"
    assert cli(*run_args(store, "--games", "300", "--chunk-size", "100")).exit_code == 0
    assert cli(*run_args(fresh, "--games", "300", "--chunk-size", "100")).exit_code == 0
    p = _part(store, "seats", 1)
    if damage == "delete":
        p.unlink()
    elif damage == "truncate":
        p.write_bytes(p.read_bytes()[:-100])
    else:
        p.write_bytes(b"PAR1" + b"x" * 50 + b"PAR1")

    for cmd in (("sql", "SELECT count(*) FROM seats"), ("report", "x", "--out", tmp_path / "r")):
        r = cli(*cmd, "--store", store)
        assert r.exit_code == 2, r.output
        assert "experiment 'x' arm 'p2' chunk 1" in r.stderr and "Repair" in r.stderr
    assert not (tmp_path / "r").exists()

    r = cli(*run_args(store, "--games", "300"))
    assert r.exit_code == 0 and "chunk 1" in r.stderr and "simulating it again" in r.stderr
    assert "simulated 100 games" in r.stdout
    assert content(store, "seats").equals(content(fresh, "seats"))
    assert content(store, "games").equals(content(fresh, "games"))


def test_views_read_only_finished_chunks_and_report_says_partial(tmp_path, cli):
    from pipelines import experiment as ex, runner

    store = tmp_path / "store"
    exp = ex.from_cli("fakedice", "2-3", games=400, seed=3, experiment="x", chunk_size=100)

    def stop(arm, chunk):
        if (arm, chunk) == ("p3", 1):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(exp, store, quiet=True, after_chunk=stop)
    # a part written but not recorded (killed between the part and the manifest)
    stray = _part(store, "games", 1).parent.parent / "arm=p2" / "part-00002.parquet"
    stray.write_bytes(_part(store, "games", 1).read_bytes())
    r = cli("sql", "SELECT arm, count(*) AS n FROM games GROUP BY ALL ORDER BY ALL",
            "--store", store, "--format", "csv")
    assert r.exit_code == 0 and r.stdout.split() == ['"arm","n"', '"p2",200', '"p3",200'], r.stdout
    r = cli("sql", "SELECT count(*) AS n FROM seats", "--store", store, "--format", "csv")
    assert r.stdout.split()[1] == str(200 * 2 + 200 * 3)
    r = cli("report", "x", "--store", store, "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    html = (tmp_path / "r" / "x.html").read_text()
    assert "partial: 400 of 800 games" in html
    assert html.index("partial: 400 of 800 games") < html.index("What was simulated")


# ---- read-only SQL ----------------------------------------------------------------------

@pytest.mark.parametrize("query", [
    "COPY (SELECT * FROM games) TO '{store}/results/games/game=fakedice/experiment=x/arm=p2/"
    "part-00009.parquet'",
    "COPY (SELECT 1) TO '{store}/experiments/x.json' (FORMAT json)",
    "ATTACH '{store}/db.duckdb' AS d",
    "SELECT 1; COPY (SELECT 1) TO '{store}/x.csv'",
    "INSTALL httpfs",
    "SET enable_external_access = true",
    "CREATE TABLE t AS SELECT 1",
])
def test_sql_cannot_write(tmp_path, cli, query):
    store = tmp_path / "store"
    assert cli(*run_args(store, "--games", "100")).exit_code == 0
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    r = cli("sql", query.format(store=store), "--store", store)
    assert r.exit_code == 2 and ("read-only" in r.stderr or "statement" in r.stderr), r.output
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before


def test_sql_connection_refuses_file_access_even_in_a_select(tmp_path, cli):
    store = tmp_path / "store"
    assert cli(*run_args(store, "--games", "100")).exit_code == 0
    (tmp_path / "other.csv").write_text("a\n1\n")
    r = cli("sql", f"SELECT * FROM read_csv('{tmp_path / 'other.csv'}')", "--store", store)
    assert r.exit_code == 2 and "disabled" in r.stderr, r.output
    r = cli("sql", "SELECT count(*) AS n FROM seats", "--store", store, "--format", "csv")
    assert r.exit_code == 0 and r.stdout.split() == ['"n"', "200"]


def test_sql_out_refuses_the_store_and_writes_elsewhere(tmp_path, cli):
    store = tmp_path / "store"
    assert cli(*run_args(store, "--games", "100")).exit_code == 0
    part = _part(store, "games", 0)
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    for target in (part, store / "new.csv", store / "experiments" / "x.json"):
        r = cli("sql", "SELECT 1 AS a", "--store", store, "--format", "parquet", "--out", target)
        assert r.exit_code == 2 and "inside the store" in r.stderr, r.output
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before
    r = cli("sql", "SELECT count(*) AS n FROM games", "--store", store, "--format", "parquet",
            "--out", tmp_path / "n.parquet")
    assert r.exit_code == 0
    import pyarrow.parquet as pq
    assert pq.read_table(tmp_path / "n.parquet").to_pydict() == {"n": [100]}
    r = cli("sql", "SELECT 1 AS a", "--store", store, "--out", tmp_path)
    assert r.exit_code == 2 and "is a directory" in r.stderr


# ---- every error a message ----------------------------------------------------------------

@pytest.mark.parametrize("args, needle", [
    (["flower_shop", "--set", "days=inf"], "--set days: 'inf'"),
    (["flower_shop", "--set", "days=1e400"], "--set days: '1e400'"),
    (["flower_shop", "--set", "starting_money=-1e400"], "--set starting_money"),
    (["flower_shop", "--policy", "greedy:w_stars=1e400"], "w_stars"),
    (["fakedice", "--policy", "greedy:threshold=1e400"], "threshold"),
])
def test_non_finite_numbers_exit_2(tmp_path, cli, args, needle):
    r = cli("run", *args, "--players", "2", "--games", "10", "--store", tmp_path / "s")
    assert r.exit_code == 2 and needle in r.stderr, r.output
    assert listing(tmp_path / "s") == []


@pytest.mark.parametrize("body, needle", [
    (b'[experiment]\ngame = "flower_shop"\n[[arms]]\nplayers = 2\nset = { days = nan }\n',
     "arms[0].set.days: nan is not a finite number"),
    (b'[experiment]\ngame = "fakedice"\n[[arms]]\nplayers = 2\nset = { dice = inf }\n',
     "arms[0].set.dice: inf is not a finite number"),
    (b'[experiment]\ngame = "fakedice"\ngames = inf\n[[arms]]\nplayers = 2\n', "experiment.games"),
    (b'\xff\xfe[experiment]\n', "not UTF-8"),
])
def test_bad_numbers_and_encoding_in_spec_files(tmp_path, cli, body, needle):
    spec = tmp_path / "s.toml"
    spec.write_bytes(body)
    r = cli("run", "--spec", spec, "--store", tmp_path / "s")
    assert r.exit_code == 2 and needle in r.stderr, r.output
    assert listing(tmp_path / "s") == []


@pytest.mark.parametrize("cell, needle", [("1e400", "row 2, column 'value'"),
                                          ("nan", "not a finite number")])
def test_component_cell_not_finite(tmp_path, cli, cell, needle):
    comps = tmp_path / "c"
    comps.mkdir()
    (comps / "faces.csv").write_text(f"value,source\n{cell},R\n2,R\n")
    for cmd in (["run", "fakedice", "--players", "2", "--store", tmp_path / "s"],
                ["replay", "fakedice", "--seed", "1"]):
        r = cli(*cmd, "--components", comps)
        assert r.exit_code == 2 and needle in r.stderr and "faces.csv" in r.stderr, r.output
    assert listing(tmp_path / "s") == []


def test_store_below_a_regular_file(tmp_path, cli):
    (tmp_path / "f").write_text("x")
    r = cli(*run_args(tmp_path / "f" / "store", "--games", "10"))
    assert r.exit_code == 2 and "is not a directory" in r.stderr, r.output


@pytest.mark.parametrize("errno_, needle", [(28, "free some space"), (30, "permissions")])
def test_unwritable_store_is_one_message(tmp_path, cli, monkeypatch, errno_, needle):
    """Disk full (ENOSPC) or a read-only store (EROFS) while writing: exit 2, one line."""
    import os

    from pipelines import store as store_mod

    store = tmp_path / "store"

    def fail(path, data):
        raise OSError(errno_, os.strerror(errno_), str(path))

    monkeypatch.setattr(store_mod, "write_parquet_atomic", fail)
    r = cli(*run_args(store, "--games", "10"))
    assert r.exit_code == 2 and needle in r.stderr and "Traceback" not in r.output, r.output
    assert len(r.stderr.strip().splitlines()) <= 3  # one message (soft-wrapped)


def test_read_only_store_for_a_finished_experiment(tmp_path, cli, monkeypatch):
    store = tmp_path / "store"
    assert cli(*run_args(store, "--games", "10")).exit_code == 0
    from pipelines import store as store_mod

    def fail(path, data):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(store_mod, "atomic_write_bytes", fail)
    r = cli(*run_args(store, "--games", "10"))
    assert r.exit_code == 2 and "cannot write to the store" in r.stderr, r.output


def test_report_out_onto_a_file(tmp_path, cli):
    store = tmp_path / "store"
    assert cli(*run_args(store, "--games", "10")).exit_code == 0
    (tmp_path / "file").write_text("x")
    r = cli("report", "x", "--store", store, "--out", tmp_path / "file")
    assert r.exit_code == 2 and "is a file" in r.stderr, r.output
    assert (tmp_path / "file").read_text() == "x"


def test_compare_accepts_replan_too(tmp_path, cli):
    from pipelines import runner, studies

    store = tmp_path / "store"
    exp = studies.compare_experiment("fakedice", ["dice=3"], players="2", games=400, seed=3,
                                     experiment="c", chunk_size=100)

    def stop(arm, chunk):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(exp, store, quiet=True, after_chunk=stop)
    args = ["compare", "fakedice", "--set", "dice=3", "--players", "2", "--seed", "3",
            "--experiment", "c", "--games", "200", "--store", store, "--out", tmp_path / "r",
            "--quiet"]
    r = cli(*args)
    assert r.exit_code == 2 and "--replan" in r.stderr, r.output
    r = cli(*args, "--replan")
    assert r.exit_code == 0 and manifest(store, "c")["n_games"] == 200, r.output
