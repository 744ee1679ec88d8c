"""End-to-end pipeline tests on the fake game: layout, readers, determinism, resume, bad input."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest

from pipe_helpers import HERE, content, listing
from pipelines import experiment as ex
from pipelines import chunks, runner, settings, store as store_mod
from sim.spec import SpecError

GAMES_COLS = ["experiment", "arm", "game", "n_players", "variant", "master_seed", "game_index",
              "rounds", "truncated", "n_winners", "winner_seat", "end_reason", "high_total"]
SEATS_COLS = ["experiment", "arm", "game", "n_players", "variant", "master_seed", "game_index",
              "seat", "policy", "score", "rank", "won", "win_share", "rerolls"]


def run_fake(store, games=250, chunk=100, workers=1, players="1-2", seed=7, name=None, **kw):
    exp = ex.from_cli("fakedice", players=players, games=games, seed=seed, chunk_size=chunk,
                      experiment=name, **{k: v for k, v in kw.items() if k in
                                          ("variant", "tweaks", "policy", "seat_policies")})
    opts = {k: v for k, v in kw.items() if k in ("executor", "dask_processes", "after_chunk")}
    return exp, runner.run(exp, store, workers=workers, quiet=True, **opts)


# ---- layout and readers -----------------------------------------------------------------

def test_store_layout_columns_and_manifest(tmp_path):
    store = tmp_path / "store"
    exp, res = run_fake(store)
    e = exp.name
    assert e.startswith("fakedice-1-2p-base-greedy-s7-") and len(e.split("-")[-1]) == 8
    files = [f for f in listing(store) if f.endswith((".parquet", ".json"))]
    expected = [f"experiments/{e}.json"]
    for table in ("games", "seats"):
        for arm in ("p1", "p2"):
            for c in range(3):
                expected.append(f"results/{table}/game=fakedice/experiment={e}/arm={arm}/part-{c:05d}.parquet")
    assert sorted(files) == sorted(expected)
    assert not [f for f in listing(store) if f.endswith(".tmp") or ".lock" in f]

    g = pq.read_table(store / f"results/games/game=fakedice/experiment={e}/arm=p2/part-00002.parquet")
    assert g.column_names == GAMES_COLS
    assert str(g.schema.field("truncated").type) == "bool"
    assert str(g.schema.field("end_reason").type) == "string"
    assert str(g.schema.field("experiment").type) == "string"
    assert g.column("game_index").to_pylist() == list(range(200, 250))
    s = pq.read_table(store / f"results/seats/game=fakedice/experiment={e}/arm=p2/part-00000.parquet")
    assert s.column_names == SEATS_COLS
    assert str(s.schema.field("won").type) == "bool" and str(s.schema.field("win_share").type) == "double"
    sd = s.to_pandas()
    assert list(zip(sd.game_index, sd.seat))[:4] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert set(sd.policy) == {"greedy"}

    games = content(store, "games").to_pandas()
    seats = content(store, "seats").to_pandas()
    assert len(games) == 500 and len(seats) == 250 + 500
    m = seats.merge(games[["arm", "game_index", "n_winners"]], on=["arm", "game_index"])
    won = m[m.won]
    assert ((won.win_share - 1.0 / won.n_winners).abs() < 1e-12).all()
    assert (m[~m.won].win_share == 0).all()
    assert set(games.end_reason) <= {"highest", "tie", "missed", "reached"}
    ties = games[(games.arm == "p2") & (games.n_winners == 2)]
    assert len(ties) > 0 and (ties.winner_seat == -1).all()
    solo = seats[seats.arm == "p1"]
    assert (solo.seat == 0).all() and len(solo) == 250

    man = json.loads((store / f"experiments/{e}.json").read_text())
    for key in ("name", "status", "master_seed", "n_games", "chunk_size", "game_versions",
                "code_version", "created_at", "spec", "arms", "finished_chunks", "content_hash"):
        assert key in man, key
    assert man["status"] == "complete" and man["master_seed"] == 7 and man["n_games"] == 250
    assert man["game_versions"] == {"fakedice": "1"}
    a = man["arms"][1]
    assert a["name"] == "p2" and a["n_players"] == 2 and a["variant"] == "base"
    assert a["rule_values"] == {"dice": 2, "solo_target": 8, "reroll": True}
    assert a["components"]["assumed"] is True and a["components"]["digest"]
    assert [p["policy"] for p in a["policies"]] == ["greedy", "greedy"]
    assert a["finished"] == [[0, 2]]  # inclusive chunk ranges
    assert a["chunks"] == [{"chunk": 0, "start": 0, "stop": 250, "size": 100}]  # one segment


def test_derived_names_say_the_tweak():
    """A tweaked run is named after its tweak and policy options, not only a different hash;
    names stay valid hive partition values within the length limit."""
    plain = ex.from_cli("fakedice", players="2", games=10, seed=1).name
    tweaked = ex.from_cli("fakedice", players="2", tweaks=["dice=3", "reroll=false"],
                          policy="greedy:threshold=9", games=10, seed=1).name
    assert plain.startswith("fakedice-2p-base-greedy-s1-")
    assert tweaked.startswith("fakedice-2p-base-dice_3-reroll_false-greedy_threshold_9-s1-")
    long = ex.from_cli("fakedice", players="2", games=10, seed=1,
                       tweaks=[f"solo_target={v}" for v in (20,)] + ["dice=5"] * 30).name
    assert len(long) <= 120 and ex.check_name(long, "experiment") == long


def test_plain_duckdb_and_polars_read_the_store(tmp_path):
    store = tmp_path / "store"
    exp, _ = run_fake(store, players="2-3")
    for table, n in (("games", 500), ("seats", 250 * 5)):
        glob = str(store / "results" / table / "**" / "*.parquet")
        con = duckdb.connect()
        rel = con.sql(f"SELECT * FROM read_parquet('{glob}', hive_partitioning=true)")
        types = dict(zip(rel.columns, map(str, rel.types)))
        assert types["experiment"] == types["arm"] == types["game"] == "VARCHAR"
        assert types["game_index"] == "BIGINT"
        assert con.execute(f"SELECT count(*) FROM read_parquet('{glob}', hive_partitioning=true)").fetchone()[0] == n
        assert con.execute(f"SELECT DISTINCT arm FROM read_parquet('{glob}', hive_partitioning=true) "
                       "ORDER BY 1").fetchall() == [("p2",), ("p3",)]
        for path in (glob, str(store / "results" / table)):
            df = pl.scan_parquet(path, hive_partitioning=True).collect()
            assert df.height == n
            assert df.schema["experiment"] == pl.String and df.schema["arm"] == pl.String
            assert df.schema["game"] == pl.String and df.schema["game_index"] == pl.Int64
            assert set(df["experiment"]) == {exp.name}
    # the project's own views (analysis.db), also read-only as `playtest sql` opens them
    for con in (_views(store), _views(store, read_only=True)):
        assert con.execute("SELECT count(*) FROM seats").fetchone()[0] == 1250
        assert con.execute("SELECT sum(win_share) FROM seats WHERE arm = 'p3'").fetchone()[0] == pytest.approx(250)
        assert con.execute("SELECT count(*) FROM experiments").fetchone()[0] == 1


def _views(store, read_only=False):
    from analysis import db
    return db.connect(store, read_only=read_only)


def test_empty_store_views(tmp_path):
    con = _views(tmp_path / "nothing")
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    assert "win_share" in con.sql("SELECT * FROM seats").columns
    assert not (tmp_path / "nothing").exists()


# ---- determinism --------------------------------------------------------------------------

def test_identical_for_workers_chunk_sizes_and_dask(tmp_path):
    ref = None
    for i, (workers, chunk, executor) in enumerate(
            [(1, 100, "local"), (2, 37, "local"), (2, 250, "local"), (1, 64, "dask")]):
        store = tmp_path / f"s{i}"
        exp, res = run_fake(store, games=250, chunk=chunk, workers=workers, players="2-3",
                            policy="random", executor=executor, dask_processes=False)
        got = (content(store, "games"), content(store, "seats"))
        if ref is None:
            ref = got
        else:
            assert got[0].equals(ref[0]) and got[1].equals(ref[1]), (workers, chunk, executor)


def test_kernel_is_loaded_before_the_bar_with_a_note_when_it_compiled(tmp_path, monkeypatch,
                                                                      capsys):
    """A first run says it is compiling (once per game, not per arm); --quiet says nothing."""
    monkeypatch.setattr(runner, "COMPILE_NOTE_S", -1.0)  # every load counts as a compile
    exp = ex.from_cli("fakedice", players="1-2", games=60, seed=7, chunk_size=60)
    res = runner.run(exp, tmp_path / "a", workers=1, quiet=False)
    assert capsys.readouterr().err.count("fakedice: kernel compiled in") == 1
    assert 0 < res.kernel_load_s < res.elapsed
    assert res.games_per_s == pytest.approx(res.simulated / (res.elapsed - res.kernel_load_s))
    runner.run(exp, tmp_path / "b", workers=1, quiet=True)
    assert "kernel" not in capsys.readouterr().err
    assert content(tmp_path / "a", "games").equals(content(tmp_path / "b", "games"))


def test_a_run_plays_all_its_player_counts_of_a_game_with_one_kernel():
    """The arms of a run get the components of one kernel for every player count of their game
    (GameSpec.kernel_components): a Flower Shop run of 1-4 players compiles the kernel with the
    solo solver once, a run of 2-4 players one without it; the chunk tasks carry the counts."""
    from numba import typeof
    for players, solo in (("1-4", True), ("2-4", False), ("1", True)):
        exp = ex.from_cli("flower_shop", players=players, games=10, seed=1)
        arms = runner.share_kernels(exp.arms)
        types = {typeof(ra.arm.comp) for ra in arms.values()}
        assert len(types) == 1
        assert len(next(iter(arms.values())).arm.comp) == 6 + solo
        for ra in arms.values():
            task = runner.make_task(ra, 0, 0, 10, 1)
            assert task.kernel_counts == ra.arm.kernel_counts == tuple(
                a.arm.n_players for a in exp.arms)


def test_arms_with_search_seats_get_small_chunks_unless_a_chunk_size_is_given():
    """A search plays tens of games per second: its arm's chunks default to
    settings.SEARCH_CHUNK_SIZE games, so the bar moves and a killed run loses little; the
    other arms and an explicit --chunk-size are unchanged (build_manifest writes nothing)."""
    n = 3 * settings.SEARCH_CHUNK_SIZE + 7
    exp = ex.from_cli("flower_shop", players="1", games=n, seed=1, also_policies=["search"])
    man, _, _ = runner.build_manifest(exp, None, settings.DEFAULT_CHUNK_SIZE)
    sizes = {a["name"]: [c["size"] for c in a["chunks"]] for a in man["arms"]}
    assert sizes == {"p1": [settings.DEFAULT_CHUNK_SIZE], "p1-search": [settings.SEARCH_CHUNK_SIZE]}
    assert chunks.count(man["arms"][1]["chunks"]) == 4
    exp = ex.from_cli("flower_shop", players="1", games=n, seed=1, also_policies=["search"],
                      chunk_size=1000)
    man, _, _ = runner.build_manifest(exp, None, 1000, chunk_size_given=True)
    assert [c["size"] for a in man["arms"] for c in a["chunks"]] == [1000, 1000]


def test_name_is_derived_from_results_defining_arguments():
    a = ex.from_cli("fakedice", players="2", games=10, seed=1)
    b = ex.from_cli("fakedice", players="2", games=999, seed=1, chunk_size=3)
    c = ex.from_cli("fakedice", players="2", games=10, seed=1, tweaks=["dice=3"])
    d = ex.from_cli("fakedice", players="2", games=10, seed=2)
    e = ex.from_cli("fakedice", players="2", games=10, seed=1, variant="many")
    f = ex.from_cli("fakedice", players="2", games=10, seed=1, tweaks=["dice=2"])  # = default
    assert a.name == b.name == f.name
    assert len({a.name, c.name, d.name, e.name}) == 4
    assert e.name.startswith("fakedice-2p-many-greedy-s1-")


# ---- resume, growth, interruption ---------------------------------------------------------

def test_rerun_reuses_and_games_growth_keeps_old_chunks(tmp_path, cli):
    store = tmp_path / "store"
    args = ["run", "fakedice", "--players", "2", "--seed", "3", "--chunk-size", "100",
            "--store", store, "--quiet"]
    r = cli(*args, "--games", 250)
    assert r.exit_code == 0, r.output
    parts = {p: p.read_bytes() for p in store.rglob("*.parquet")}
    mtimes = {p: p.stat().st_mtime_ns for p in parts}
    r = cli(*args, "--games", 250)
    assert r.exit_code == 0 and "nothing to simulate" in r.stdout
    assert len(list((store / "experiments").glob("*.json"))) == 1
    assert {p: p.stat().st_mtime_ns for p in parts} == mtimes

    r = cli(*args, "--games", 520)
    assert r.exit_code == 0 and "simulated 270 games" in r.stdout, r.stdout
    for p, data in parts.items():
        assert p.read_bytes() == data  # earlier chunks untouched
    man = json.loads(next((store / "experiments").glob("*.json")).read_text())
    assert list(chunks.expand(man["arms"][0]["chunks"])) == [
        (0, 0, 100), (1, 100, 200), (2, 200, 250), (3, 250, 350), (4, 350, 450), (5, 450, 520)]
    assert man["n_games"] == 520 and man["status"] == "complete"
    fresh = tmp_path / "fresh"
    assert cli(*args[:-3], "--store", fresh, "--quiet", "--games", 520).exit_code == 0
    assert content(store, "seats").equals(content(fresh, "seats"))
    assert content(store, "games").equals(content(fresh, "games"))
    # fewer games than stored: nothing removed, a note
    r = cli(*args, "--games", 100)
    assert r.exit_code == 0 and "already has 520" in r.stderr


def test_failure_after_chunk_then_resume_is_identical(tmp_path):
    store, full = tmp_path / "store", tmp_path / "full"
    run_fake(full, games=450, chunk=100, players="2-3")

    def boom(arm, chunk):
        if (arm, chunk) == ("p3", 1):
            raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        run_fake(store, games=450, chunk=100, players="2-3", after_chunk=boom)
    man = json.loads(next((store / "experiments").glob("*.json")).read_text())
    assert man["status"] == "running"
    assert man["finished_chunks"] == {"p2": [[0, 1]], "p3": [[0, 1]]}
    exp, res = run_fake(store, games=450, chunk=100, players="2-3")
    assert res.simulated == 2 * 250 and res.chunks_skipped == 4
    assert content(store, "games").equals(content(full, "games"))
    assert content(store, "seats").equals(content(full, "seats"))


def test_crash_while_writing_leaves_no_readable_half_file(tmp_path, monkeypatch):
    store = tmp_path / "store"
    real = store_mod.pq.write_table
    calls = {"n": 0}

    def flaky(table, where, **kw):
        calls["n"] += 1
        if calls["n"] == 3:  # second chunk's games part: half a file, then die
            Path(where).write_bytes(b"PAR1 half a file")
            raise KeyboardInterrupt
        return real(table, where, **kw)

    monkeypatch.setattr(store_mod.pq, "write_table", flaky)
    with pytest.raises(KeyboardInterrupt):
        run_fake(store, games=300, chunk=100, players="2")
    for p in store.rglob("*.parquet"):
        pq.read_table(p)  # every visible part is complete
    assert len(list(store.rglob("*.parquet"))) == 2
    assert not list(store.rglob("*.tmp"))
    monkeypatch.setattr(store_mod.pq, "write_table", real)
    exp, res = run_fake(store, games=300, chunk=100, players="2")
    assert res.simulated == 200
    full = tmp_path / "full"
    run_fake(full, games=300, chunk=100, players="2")
    assert content(store, "seats").equals(content(full, "seats"))


@pytest.mark.slow
def test_sigkill_mid_run_then_rerun_resumes(tmp_path):
    store = tmp_path / "store"
    cmd = [sys.executable, str(HERE / "fakecli.py"), "run", "fakedice", "--players", "2",
           "--games", "2000", "--chunk-size", "100", "--seed", "5", "--store", str(store),
           "--quiet", "--workers", "1"]
    env = dict(os.environ, PLAYTEST_TEST_CHUNK_DELAY="0.2")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    finished = []
    while time.time() < deadline and len(finished) < 2:
        time.sleep(0.05)
        for m in (store / "experiments").glob("*.json") if (store / "experiments").is_dir() else ():
            try:
                finished = chunks.from_ranges(json.loads(m.read_text())["arms"][0]["finished"])
            except (ValueError, KeyError):
                pytest.fail("manifest must always be valid JSON")
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert len(finished) >= 2, proc.stderr.read().decode()
    man = json.loads(next((store / "experiments").glob("*.json")).read_text())
    assert man["status"] == "running" and len(chunks.from_ranges(man["arms"][0]["finished"])) < 20
    for p in store.rglob("*.parquet"):
        pq.read_table(p)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "already done" in out.stdout
    full = tmp_path / "full"
    run_fake(full, games=2000, chunk=100, players="2", seed=5)
    assert content(store, "games").equals(content(full, "games"))
    assert content(store, "seats").equals(content(full, "seats"))
    assert json.loads(next((store / "experiments").glob("*.json")).read_text())["status"] == "complete"


# ---- bad input ----------------------------------------------------------------------------

BAD = [
    (["run", "nogame"], ["unknown game 'nogame'", "fakedice"]),
    (["run", "fakedice", "--variant", "nope"], ["unknown variant 'nope'", "base, many, hard"]),
    (["run", "fakedice", "--players", "2", "--variant", "hard"], ["hard", "1-1", "base, many"]),
    (["run", "fakedice", "--set", "foo=1"], ["unknown parameter 'foo'", "dice, reroll, solo_target"]),
    (["run", "fakedice", "--set", "dicee=1"], ["unknown parameter 'dicee'", "did you mean 'dice'?"]),
    (["run", "fakedice", "--set", "dice=9"], ["dice", "out of range", "1..5"]),
    (["run", "fakedice", "--set", "reroll=maybe"], ["reroll", "true, false"]),
    (["run", "fakedice", "--set", "dice"], ["NAME=VALUE"]),
    (["run", "fakedice", "--policy", "smart"], ["unknown policy 'smart'", "greedy, random"]),
    (["run", "fakedice", "--policy", "greedy:foo=2"], ["unknown policy parameter 'foo'", "threshold"]),
    (["run", "fakedice", "--policy", "greedy:threshold=99"], ["threshold", "0..30"]),
    (["run", "fakedice", "--players", "2", "--seat-policy", "3=random"], ["seat 3", "0-1"]),
    (["run", "fakedice", "--games", "0"], ["--games", "positive"]),
    (["run", "fakedice", "--games", "-5"], ["--games", "positive"]),
    (["run", "fakedice", "--players", "9"], ["1-4"]),
    (["run", "fakedice", "--players", "x"], ["player counts", "1-4"]),
    (["run", "fakedice", "--seed", "-1"], ["seed", "0.."]),
    (["run", "fakedice", "--chunk-size", "0"], ["chunk size"]),
    (["run", "fakedice", "--workers", "0"], ["--workers"]),
    (["run", "fakedice", "--executor", "spark"], ["unknown executor 'spark'", "local, dask"]),
    (["run", "fakedice", "--experiment", "1234"], ["experiment name", "letter"]),
    (["run", "fakedice", "--components", "/no/such/dir"], ["component directory"]),
    (["run", "fakedice", "--players", "1", "--set", "solo_target=25"], ["solo_target", "at most 12"]),
    (["run"], ["GAME or --spec", "fakedice"]),
    (["rules", "nogame"], ["unknown game", "fakedice"]),
    (["replay", "fakedice", "--seed", "1", "--players", "2-3"], ["one player count"]),
    (["replay", "fakedice", "--seed", "1", "--variant", "zzz"], ["unknown variant", "base"]),
]


@pytest.mark.parametrize("args,needles", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_exit_2_clear_message_nothing_written(tmp_path, cli, args, needles):
    store = tmp_path / "store"
    r = cli(*args, "--store", store) if args[0] == "run" else cli(*args)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.output
    msg = r.stderr
    assert msg.startswith("error:") and msg.count("error:") == 1, msg
    for n in needles:
        assert n in msg, (n, msg)
    assert not store.exists()


def test_bad_input_leaves_existing_store_unchanged(tmp_path, cli):
    store = tmp_path / "store"
    assert cli("run", "fakedice", "--players", "2", "--games", 50, "--store", store, "-q",
               "--experiment", "exp1").exit_code == 0
    before = listing(store)
    snap = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    for args in (["--set", "dice=2", "--games", "0"],
                 ["--set", "dice=3"],  # same name, different rules -> conflict
                 ["--seed", "2"],  # same name, different seed -> conflict
                 ["--set", "nope=1"]):
        r = cli("run", "fakedice", "--players", "2", "--games", 50, "--store", store, "-q",
                "--experiment", "exp1", *args)
        assert r.exit_code == 2, r.output
        assert listing(store) == before
        assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == snap
    r = cli("run", "fakedice", "--players", "2", "--set", "dice=3", "--store", store,
            "--experiment", "exp1")
    assert "different settings" in r.stderr and "dice: 2 -> 3" in r.stderr
    r = cli("run", "fakedice", "--players", "2", "--seed", "9", "--store", store,
            "--experiment", "exp1")
    assert "seed 1, not 9" in r.stderr


# ---- spec files -----------------------------------------------------------------------------

SPEC_OK = """
[experiment]
name = "lock-test"
seed = 11
games = 120
chunk_size = 50

[[arms]]
name = "base"
game = "fakedice"
players = 2

[[arms]]
name = "three"
game = "fakedice"
players = 2
set = { dice = 3 }

[[arms]]
game = "fakedice"
players = "2-3"
policy = "random"
seat_policy = { 0 = "greedy:threshold=9" }
games = 60
"""


def test_spec_file_arms_share_seed_and_indices(tmp_path, cli):
    spec = tmp_path / "exp.toml"
    spec.write_text(SPEC_OK)
    store = tmp_path / "store"
    r = cli("run", "--spec", spec, "--store", store, "-q")
    assert r.exit_code == 0, r.output
    man = json.loads((store / "experiments/lock-test.json").read_text())
    names = [a["name"] for a in man["arms"]]
    assert names == ["base", "three", "p2-random-mixed", "p3-random-mixed"]
    assert man["arms"][1]["rule_values"]["dice"] == 3
    assert [p["policy"] for p in man["arms"][3]["policies"]] == ["greedy", "random", "random"]
    g = content(store, "games").to_pandas()
    assert g.groupby("arm").game_index.max().to_dict() == {
        "base": 119, "three": 119, "p2-random-mixed": 59, "p3-random-mixed": 59}
    assert set(g.master_seed) == {11}
    s = content(store, "seats").to_pandas()
    assert set(s[s.arm == "p3-random-mixed"].groupby("seat").policy.first()) == {"greedy", "random"}
    # same seeds: the 2-player base arm equals a CLI run with the same seed
    cli("run", "fakedice", "--players", "2", "--games", 120, "--seed", 11, "--store",
        tmp_path / "cli", "-q")
    a = content(tmp_path / "cli", "seats").drop(["experiment", "arm"])
    b = content(store, "seats").filter(pl.col("arm") == "base").drop(["experiment", "arm"])
    assert a.equals(b)
    # re-running the spec resumes (nothing to do)
    r = cli("run", "--spec", spec, "--store", store, "-q")
    assert "nothing to simulate" in r.stdout


BAD_SPECS = [
    ('[experiment]\nseed = 1\n[[arms]]\ngame = "fakedice"\nplayers = 2\n[[arms]]\ngame = "fakedice"\n'
     'players = 2\nname="b"\n[[arms]]\ngame = "fakedice"\nplayers = 2\nname = "c"\n'
     'set = { extra_lock_cost = 2 }\n',
     ["arms[2].set.extra_lock_cost", "unknown parameter", "dice, reroll, solo_target"]),
    ('[[arms]]\ngame = "fakedice"\nplayers = 2\nset = { dice = 0 }\n', ["arms[0].set.dice", "1..5"]),
    ('[[arms]]\ngame = "fakedice"\nplayer = 2\n', ["arms[0].player", "unknown key", "players"]),
    ('[[arms]]\ngame = "nogame"\n', ["arms[0].game", "unknown game", "fakedice"]),
    ('[[arms]]\ngame = "fakedice"\nvariant = "zzz"\n', ["arms[0]", "unknown variant", "base"]),
    ('[[arms]]\ngame = "fakedice"\npolicy = "smart"\n', ["arms[0].policy", "greedy, random"]),
    ('[[arms]]\ngame = "fakedice"\nplayers = 2\nseat_policy = { 4 = "random" }\n', ["arms[0]", "seat 4"]),
    ('[[arms]]\ngame = "fakedice"\nplayers = 7\n', ["arms[0].players", "1-4"]),
    ('[[arms]]\ngame = "fakedice"\ngames = 0\n', ["arms[0].games", "positive"]),
    ('[experiment]\ngames = 0\n[[arms]]\ngame = "fakedice"\n', ["experiment.games", "positive"]),
    ('[experiment]\nseeds = 1\n[[arms]]\ngame = "fakedice"\n', ["experiment.seeds", "unknown key"]),
    ('[[arms]]\nname = "a"\ngame = "fakedice"\nplayers = 2\n[[arms]]\nname = "a"\ngame = "fakedice"\nplayers = 3\n',
     ["arms[1].name", "duplicate arm name 'a'"]),
    ('[experiment]\nname = "x"\n', ["[[arms]]"]),
    ('[[arms]\ngame = "fakedice"\n', ["malformed TOML"]),
]


@pytest.mark.parametrize("text,needles", BAD_SPECS, ids=[n[0] for _, n in BAD_SPECS])
def test_bad_spec_files(tmp_path, cli, text, needles):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    store = tmp_path / "store"
    r = cli("run", "--spec", spec, "--store", store)
    assert r.exit_code == 2, r.output
    for n in needles:
        assert n in r.stderr, (n, r.stderr)
    assert not store.exists()


def test_spec_and_game_arguments_are_exclusive(tmp_path, cli):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC_OK)
    r = cli("run", "fakedice", "--spec", spec, "--store", tmp_path / "st")
    assert r.exit_code == 2 and "--spec defines the arms" in r.stderr


# ---- other commands --------------------------------------------------------------------------

def test_games_rules_replay(cli):
    r = cli("games")
    assert r.exit_code == 0 and "fakedice" in r.stdout and "greedy" in r.stdout
    r = cli("rules", "fakedice")
    assert r.exit_code == 0
    for s in ("solo_target", "1..5", "dice=3", "threshold", "FD-3", "2 of 3 implemented"):
        assert s in r.stdout, s
    r = cli("replay", "fakedice", "--seed", 1, "--players", 3, "--game-index", 5, "--set", "dice=3")
    assert r.exit_code == 0, r.output
    assert "seat 0 rolls" in r.stdout and "Final scores" in r.stdout and "dice=3" in r.stdout


def test_replay_matches_the_stored_game(tmp_path, cli):
    store = tmp_path / "store"
    run_fake(store, games=20, chunk=10, players="3", seed=4)
    seats = content(store, "seats").filter(pl.col("game_index") == 13).sort("seat")
    r = cli("replay", "fakedice", "--seed", 4, "--players", 3, "--game-index", 13)
    for seat, _score in enumerate(seats["score"]):
        assert f"seat {seat} rolls" in r.stdout
    from sim.batch import make_arm, replay
    import fakegame
    _, g, s = replay(make_arm(fakegame.SPEC, 3), 4, 13)
    assert list(s[:, 0]) == list(seats["score"])


def test_sql_formats(tmp_path, cli):
    store = tmp_path / "store"
    run_fake(store, games=30, chunk=10, players="2")
    r = cli("sql", "SELECT arm, count(*) AS n FROM seats GROUP BY arm", "--store", store)
    assert r.exit_code == 0 and "p2" in r.stdout and "60" in r.stdout
    r = cli("sql", "SELECT game_index, score FROM seats ORDER BY 1, 2 LIMIT 2", "--store", store,
            "--format", "csv")
    assert r.exit_code == 0 and r.stdout.splitlines()[0].replace('"', "") == "game_index,score"
    out = tmp_path / "x.parquet"
    r = cli("sql", "SELECT * FROM games", "--store", store, "--format", "parquet", "--out", out)
    assert r.exit_code == 0 and pl.read_parquet(out).height == 30
    r = cli("sql", "SELECT nope FROM games", "--store", store)
    assert r.exit_code == 2 and "nope" in r.stderr
    r = cli("sql", "SELECT 1", "--store", store, "--format", "xml")
    assert r.exit_code == 2 and "table, csv, parquet" in r.stderr


def test_sql_says_which_store_it_read(tmp_path, cli):
    """The store read is named on stderr (so CSV on stdout stays clean); an empty one is said."""
    store = tmp_path / "store"
    store.mkdir()  # an existing empty folder (a missing one is refused)
    r = cli("sql", "SELECT count(*) AS n FROM games", "--store", store)
    assert r.exit_code == 0 and f"store: {store} (0 experiments); nothing to query yet" in \
        " ".join(r.stderr.split())
    run_fake(store, games=20, chunk=10, players="2")
    r = cli("sql", "SELECT count(*) AS n FROM games", "--store", store, "--format", "csv")
    assert r.exit_code == 0 and f"store: {store} (1 experiment)" in " ".join(r.stderr.split())
    assert r.stdout.replace('"', "").split() == ["n", "20"]


def test_report_command(tmp_path, cli):
    store = tmp_path / "store"
    exp, _ = run_fake(store, games=30, chunk=10, players="1-2")
    r = cli("report", "nope", "--store", store)
    assert r.exit_code == 2 and exp.name in r.stderr
    import importlib.util
    if importlib.util.find_spec("analysis.reports") is None:
        pytest.skip("analysis.reports not written yet")
    r = cli("report", exp.name, "--store", store, "--out", tmp_path / "rep")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "rep").is_dir() and list((tmp_path / "rep").glob("*.html"))


def test_store_root_resolution(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.STORE_ENV, str(tmp_path / "env"))
    assert settings.store_root(None) == tmp_path / "env"
    assert settings.store_root(tmp_path / "x") == tmp_path / "x"
    monkeypatch.delenv(settings.STORE_ENV)
    assert settings.store_root(None).name == "data"


def test_python_m_pipelines_help():
    out = subprocess.run([sys.executable, "-m", "pipelines", "--help"], capture_output=True,
                         text=True, timeout=60, cwd=HERE.parents[1])
    assert out.returncode == 0 and "replay" in out.stdout and "sql" in out.stdout


def test_experiment_lock_refuses_a_concurrent_run(tmp_path):
    st = store_mod.Store(tmp_path)
    with st.lock("e1"):
        with pytest.raises(SpecError, match="another process"):
            with st.lock("e1"):
                pass


def test_a_parameter_the_game_gained_at_its_default_does_not_block_a_resume(tmp_path, cli):
    """An experiment run before the game gained a parameter (its manifest lacks the value)
    resumes and grows under the same version while the new parameter is at its default; a
    non-default value of it is a different setting (exit 2, nothing written)."""
    import json

    store = tmp_path / "store"
    args = ("run", "fakedice", "--players", "2", "--store", store, "-q", "--experiment", "exp1")
    assert cli(*args, "--games", 50).exit_code == 0
    path = store / "experiments" / "exp1.json"
    m = json.loads(path.read_text())
    del m["arms"][0]["rule_values"]["reroll"]   # as written before `reroll` existed
    path.write_text(json.dumps(m))
    r = cli(*args, "--games", 80)
    assert r.exit_code == 0, r.output
    assert json.loads(path.read_text())["arms"][0]["n_games"] == 80
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    r = cli(*args, "--games", 80, "--set", "reroll=false")
    assert r.exit_code == 2 and "different settings" in r.stderr and "reroll" in r.stderr
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before
