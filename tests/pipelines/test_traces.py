"""Round traces in the store (``run --trace N``): the ``rounds`` and ``actions`` tables.

No real game declares a trace in this tree yet, so the traced game is Rattlebones with the test
``TraceSpec`` of ``tracegame.py``; the fake game (no step machine) is the game without a trace.
"""
import json
import os
import signal
import subprocess
import sys
import time

import duckdb
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import tracegame
from analysis import db, insights
from analysis.insights import ACTIONS_COLUMNS, KEYS, ROUNDS_COLUMNS, trace_cube
from analysis.storage import StoreError
from pipe_helpers import HERE
from pipelines import chunks, runner, settings
from pipelines import experiment as ex
from pipelines import store as store_mod
from sim import tracing
from sim.tracing import PC_FACED, PC_FORCED, PC_NO_LEGAL, PC_OPTIONS, RC_LEN

SEED = 3


@pytest.fixture(autouse=True)
def traced_rattlebones(monkeypatch):
    return tracegame.install(monkeypatch)


def run_rb(store, trace=60, games=120, chunk=50, workers=1, players="2-3", name="rb", **kw):
    exp = ex.from_cli("rattlebones", players=players, games=games, seed=SEED, chunk_size=chunk,
                      experiment=name, trace=trace,
                      **{k: v for k, v in kw.items() if k in ("policy", "default_trace")})
    opts = {k: v for k, v in kw.items() if k in ("executor", "dask_processes", "after_chunk")}
    return exp, runner.run(exp, store, workers=workers, quiet=True, **opts)


SORT = {"games": ["arm", "game_index"], "seats": ["arm", "game_index", "seat"],
        "rounds": ["arm", "game_index", "round", "seat"],
        "actions": ["arm", "game_index", "seat", "point", "kind"]}


def table(store, name, experiment=None) -> pd.DataFrame:
    """A table as the DuckDB view reads it (checked finished parts), in key order."""
    con = db.connect(store, experiments=[experiment] if experiment else None)
    df = con.execute(f"SELECT * FROM {name}").df()
    con.close()
    return df.sort_values(SORT[name], ignore_index=True)


def files(store, name):
    return sorted((store / "results" / name).rglob("*.parquet"))


def manifest(store, name="rb"):
    return json.loads((store / "experiments" / f"{name}.json").read_text())


# ---- what is written --------------------------------------------------------------------

def test_traced_and_untraced_runs_give_identical_games_and_seats(tmp_path):
    a, b = tmp_path / "traced", tmp_path / "plain"
    exp, res = run_rb(a, trace=70)
    run_rb(b, trace=0)
    for t in ("games", "seats"):
        pd.testing.assert_frame_equal(table(a, t), table(b, t))
    assert not (b / "results" / "rounds").exists() and not (b / "results" / "actions").exists()
    assert res.traced == 2 * 70 and res.trace == {"p2": 70, "p3": 70}
    # the first 70 games of each arm, in the parts of chunks 0 and 1 only
    for t in ("rounds", "actions"):
        names = [f.name for f in files(a, t)]
        assert names == ["part-00000.parquet", "part-00001.parquet"] * 2, names
        df = table(a, t)
        assert sorted(df["game_index"].unique()) == list(range(70))
    m = manifest(a)
    for arm in m["arms"]:
        assert arm["trace"] == 70
        assert sorted(arm["parts"]["0"]) == ["actions", "games", "rounds", "seats"]
        assert sorted(arm["parts"]["2"]) == ["games", "seats"]
        for c in ("0", "1"):
            for t in ("rounds", "actions"):
                rows, digest = arm["parts"][c][t]
                p = (a / "results" / t / "game=rattlebones" / "experiment=rb"
                     / f"arm={arm['name']}" / f"part-{int(c):05d}.parquet")
                assert pq.read_metadata(p).num_rows == rows
                assert digest == store_mod.file_digest(p)


def test_trace_tables_have_the_insights_columns(tmp_path):
    store = tmp_path / "s"
    run_rb(store, trace=20, players="2")
    f = files(store, "rounds")[0]
    assert pq.read_schema(f).names == list(ROUNDS_COLUMNS) + ["gold", "stars"]
    assert pq.read_schema(files(store, "actions")[0]).names == list(ACTIONS_COLUMNS)
    for name in ("rounds", "actions"):
        for c in pq.read_schema(files(store, name)[0]):
            assert str(c.type) in ("int64", "string"), (name, c)
    spec = tracegame.traced_spec()
    acts = table(store, "actions")
    assert set(acts["point"]) <= set(spec.steps.points.values())
    assert set(acts["kind"]) <= {"all", ""}
    # every decision is faced: real choices, forced ones (Rattlebones: D01 with no gold to
    # spare, D05 with one die to resolve) and those with no legal option
    assert (acts[["forced", "no_legal"]] >= 0).all().all()
    assert (acts["forced"] + acts["no_legal"] <= acts["faced"]).all()
    assert acts.groupby("point")["forced"].sum()["D05 resolution order"] > 0
    choices = acts["faced"] - acts["forced"] - acts["no_legal"]
    assert (acts["chosen"] <= acts["legal"]).all() and (acts["legal"] <= choices).all()
    # the insights accept them: one row per round 1..R and seat
    cube = trace_cube(table(store, "rounds"), table(store, "seats"))
    assert cube.n_games == 20


def test_the_insights_read_forced_decisions_and_points_with_no_legal_option(tmp_path):
    """Rattlebones, random seats: forced decisions (D01 with no gold to spare, D05 with one die
    to resolve) give a forced share above 0, and a Thief with nobody to rob (D12, RB-F2)
    (or a FACE space whose face is out of supply, D08) raises the no-legal-option flag,
    through the stored tables."""
    store = tmp_path / "s"
    exp, _ = run_rb(store, trace=60, games=60, players="3", policy="random")
    arm = exp.arms[0].name
    t = insights.load_arm(store, "rb", arm)
    out = insights.insights(t["games"], t["seats"], t["rounds"], t["actions"])
    rows = {r["point"]: r for r in out["actions"]["points"]}
    assert rows["(all)"]["forced_share"] > 0 and rows["(all)"]["forced"] > 0
    assert rows["D05 resolution order"]["forced_share"] > 0.5
    assert rows["(all)"]["mean_options"] > 1
    flag = out["flags"]["no_legal_option"]
    assert flag["recorded"] and flag["games"] > 0, flag
    counted = {"D12 thief item", "D08 face install"}      # nobody to rob, face out of supply
    for e in flag["examples"]:
        assert set(e["points"].split(", ")) <= counted, e
    assert rows["D12 thief item"]["no_legal"] > 0
    assert sum(r["no_legal"] for p, r in rows.items() if p != "(all)") == flag["decisions"] \
        == rows["(all)"]["no_legal"]


def test_a_recorded_trace_is_what_tracing_play_gives_for_that_index(tmp_path):
    store = tmp_path / "s"
    exp, _ = run_rb(store, trace=60, players="3", chunk=25)
    arm = exp.arms[0].arm
    rounds, acts = table(store, "rounds"), table(store, "actions")
    games, seats = table(store, "games"), table(store, "seats")
    spec = arm.spec
    names = spec.steps.points
    for i in (0, 24, 25, 59):
        g, s, n_rounds, rr, kinds, points = tracing.play(arm, SEED, i, 1)
        # the traced rows equal the stored play_many rows
        stored_g = games[games.game_index == i]
        assert int(stored_g["rounds"].iloc[0]) == g[0, 0]
        stored_s = seats[seats.game_index == i].sort_values("seat")
        assert stored_s["score"].tolist() == s[0, :, 0].tolist()
        # rounds
        want = rr[0, :n_rounds[0]].reshape(-1, RC_LEN + 2)
        got = rounds[rounds.game_index == i][["round", "seat", "score", "gold", "stars"]]
        assert got.to_numpy().tolist() == want.tolist()
        # actions: every faced point, its kind ("all", index point - 1; "" when the point
        # was only ever forced or without a legal option)
        got = acts[acts.game_index == i]
        for seat in range(3):
            for pt in np.flatnonzero(points[0, seat, :, 0]):
                row = got[(got.seat == seat) & (got.point == names[pt])]
                assert len(row) == 1, (i, seat, pt)
                r = row.iloc[0]
                p = points[0, seat, pt]
                real = p[PC_FACED] - p[PC_FORCED] - p[PC_NO_LEGAL]
                assert (r.kind, r.legal, r.chosen, r.faced, r.forced, r.no_legal,
                        r.n_options_sum) == (
                    "all" if real else "", kinds[0, seat, pt - 1, 0], kinds[0, seat, pt - 1, 1],
                    p[PC_FACED], p[PC_FORCED], p[PC_NO_LEGAL], p[PC_OPTIONS])
            assert len(got[got.seat == seat]) == np.count_nonzero(points[0, seat, :, 0])


def test_trace_tables_are_identical_for_workers_chunk_sizes_and_dask(tmp_path):
    ref = None
    for i, (workers, chunk, executor) in enumerate(
            [(1, 50, "local"), (2, 37, "local"), (2, 200, "local"), (1, 64, "dask")]):
        store = tmp_path / f"s{i}"
        run_rb(store, trace=90, games=120, chunk=chunk, workers=workers, executor=executor,
               dask_processes=False)
        got = [table(store, t) for t in ("games", "seats", "rounds", "actions")]
        if ref is None:
            ref = got
        else:
            for a, b in zip(got, ref):
                pd.testing.assert_frame_equal(a, b)


def test_untraced_chunks_do_no_trace_work(tmp_path, monkeypatch):
    calls = []
    real = tracing.play

    def spy(arm, seed, first, n):
        calls.append((arm.n_players, first, n))
        return real(arm, seed, first, n)

    monkeypatch.setattr(tracing, "play", spy)
    run_rb(tmp_path / "a", trace=70, games=200, chunk=50, players="2")
    assert [c for c in calls if c[2] > 1] == [(2, 0, 50), (2, 50, 20)]  # (+ the warm-up)
    calls.clear()
    run_rb(tmp_path / "b", trace=0, games=200, chunk=50, players="2")
    assert calls == []


# ---- the identity decision: --trace changes what is recorded, never the games ---------------

def test_a_rerun_with_more_traces_adds_them_and_fewer_keeps_them(tmp_path):
    store, fresh = tmp_path / "s", tmp_path / "fresh"
    run_rb(store, trace=30, games=150)
    m0 = manifest(store)
    games_parts = {t: [store_mod.file_digest(f) for f in files(store, t)]
                   for t in ("games", "seats")}
    exp, res = run_rb(store, trace=80, games=150)
    assert res.simulated == 0 and res.traced == 2 * 80  # chunk 0 again (30 -> 50), chunk 1 new
    assert any("adding round traces to 4 finished chunk" in n for n in res.notes), res.notes
    assert exp.name == "rb" and manifest(store)["content_hash"] == m0["content_hash"]
    for t in ("games", "seats"):  # the games are kept as they were
        assert [store_mod.file_digest(f) for f in files(store, t)] == games_parts[t]
    run_rb(fresh, trace=80, games=150)
    for t in ("rounds", "actions"):
        pd.testing.assert_frame_equal(table(store, t), table(fresh, t))
    # fewer (or 0): the traces there are stay, with a note
    for fewer in (10, 0):
        exp, res = run_rb(store, trace=fewer, games=150)
        assert res.traced == 0 and res.trace == {"p2": 80, "p3": 80}
        assert any("already has round traces of the first 80 games" in n for n in res.notes)
        for t in ("rounds", "actions"):
            pd.testing.assert_frame_equal(table(store, t), table(fresh, t))
    # growing the games past N traces nothing more (the default, not asked for: no note)
    exp, res = run_rb(store, trace=None, default_trace=0, games=200)
    assert res.traced == 0 and not [n for n in res.notes if "trace" in n]


def test_a_derived_name_does_not_depend_on_the_trace():
    a = ex.from_cli("rattlebones", players="2", games=10, trace=0)
    b = ex.from_cli("rattlebones", players="2", games=10, trace=500)
    assert a.name == b.name and a.content_hash() == b.content_hash()
    assert (a.trace, a.trace_given, b.trace) == (0, True, 500)
    c = ex.from_cli("rattlebones", players="2", games=10, default_trace=settings.DEFAULT_TRACE)
    assert (c.trace, c.trace_given) == (1000, False)


# ---- resume: a killed run has whole traces, and resumes to the same tables -----------------

def test_failure_after_chunk_then_resume_is_identical(tmp_path):
    store, full = tmp_path / "s", tmp_path / "full"
    run_rb(full, trace=110, games=150, chunk=50)

    def boom(arm, chunk):
        if (arm, chunk) == ("p3", 1):
            raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        run_rb(store, trace=110, games=150, chunk=50, after_chunk=boom)
    assert sorted(table(store, "rounds")["game_index"].unique()) == list(range(100))
    exp, res = run_rb(store, trace=110, games=150, chunk=50)
    assert res.chunks_skipped == 4
    for t in ("games", "seats", "rounds", "actions"):
        pd.testing.assert_frame_equal(table(store, t), table(full, t))


def test_a_crash_between_the_trace_parts_leaves_no_half_trace(tmp_path, monkeypatch):
    store, full = tmp_path / "s", tmp_path / "full"
    real = store_mod.Store.write_part

    def crash(self, name, *a, **k):
        if name == "actions":
            raise KeyboardInterrupt
        return real(self, name, *a, **k)

    monkeypatch.setattr(store_mod.Store, "write_part", crash)
    with pytest.raises(KeyboardInterrupt):
        run_rb(store, trace=30, games=100, players="2")
    assert len(files(store, "rounds")) == 1  # written, but its chunk is not recorded
    assert table(store, "rounds").empty and table(store, "games").empty
    monkeypatch.setattr(store_mod.Store, "write_part", real)
    run_rb(store, trace=30, games=100, players="2")
    run_rb(full, trace=30, games=100, players="2")
    for t in ("games", "seats", "rounds", "actions"):
        pd.testing.assert_frame_equal(table(store, t), table(full, t))
    # more traces, killed between the two parts of the finished chunk 0: its new rounds part
    # is on disk, unrecorded; no reader takes it, and the next run traces the chunk again
    monkeypatch.setattr(store_mod.Store, "write_part", crash)
    with pytest.raises(KeyboardInterrupt):
        run_rb(store, trace=45, games=100, players="2")
    assert "rounds" not in manifest(store)["arms"][0]["parts"]["0"]
    assert table(store, "rounds").empty and len(table(store, "games")) == 100
    assert insights.load_arm(store, "rb", "p2")["rounds"].empty
    monkeypatch.setattr(store_mod.Store, "write_part", real)
    exp, res = run_rb(store, trace=45, games=100, players="2")
    assert res.simulated == 0 and res.traced == 45
    assert sorted(table(store, "rounds")["game_index"].unique()) == list(range(45))


def _trace_cli(store, *extra):
    return [sys.executable, str(HERE / "tracecli.py"), "run", "rattlebones", "--players", "2",
            "--games", "400", "--chunk-size", "20", "--seed", str(SEED), "--store", str(store),
            "--experiment", "rb", "--quiet", "--workers", "1", "--trace", "300", *extra]


@pytest.mark.slow
def test_sigkill_mid_run_then_rerun_resumes_with_whole_traces(tmp_path):
    store = tmp_path / "s"
    env = dict(os.environ, PLAYTEST_TEST_CHUNK_DELAY="0.15")
    proc = subprocess.Popen(_trace_cli(store), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    deadline = time.time() + 180
    finished = set()
    while time.time() < deadline and len(finished) < 3 and proc.poll() is None:
        time.sleep(0.05)
        try:
            finished = chunks.from_ranges(manifest(store)["arms"][0]["finished"])
        except (OSError, ValueError, KeyError):
            pass
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert len(finished) >= 3, proc.stderr.read().decode()
    m = manifest(store)
    done = chunks.from_ranges(m["arms"][0]["finished"])
    assert m["status"] == "running" and len(done) < 20
    for c in done:  # every finished chunk below N has both trace parts recorded
        assert {"rounds", "actions"} <= set(m["arms"][0]["parts"][str(c)]), c
    rounds = table(store, "rounds")
    trace_cube(rounds, table(store, "seats"))  # whole games only
    assert set(rounds["game_index"]) == {i for c in done for i in range(20 * c, 20 * c + 20)}
    out = subprocess.run(_trace_cli(store), capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "already done" in out.stdout
    full = tmp_path / "full"
    run_rb(full, trace=300, games=400, chunk=20, players="2")
    for t in ("games", "seats", "rounds", "actions"):
        pd.testing.assert_frame_equal(table(store, t), table(full, t))
    assert manifest(store)["status"] == "complete"


# ---- trust: trace parts are checked like the others ------------------------------------------

def test_a_damaged_trace_part_is_named_by_readers_and_traced_again(tmp_path):
    store = tmp_path / "s"
    run_rb(store, trace=60, games=100, players="2")
    games_before = [store_mod.file_digest(f) for f in files(store, "games")]
    p = files(store, "rounds")[1]
    b = bytearray(p.read_bytes())
    b[200:208] = bytes(x ^ 0xFF for x in b[200:208])
    p.write_bytes(bytes(b))
    with pytest.raises(StoreError, match="experiment 'rb' arm 'p2' chunk 1"):
        db.connect(store)
    exp, res = run_rb(store, trace=60, games=100, players="2")
    assert res.simulated == 0 and res.traced == 10
    assert any("chunk 1" in n and "tracing it again" in n for n in res.notes), res.notes
    assert [store_mod.file_digest(f) for f in files(store, "games")] == games_before
    assert sorted(table(store, "rounds")["game_index"].unique()) == list(range(60))


def test_views_are_scoped_per_experiment_and_empty_without_traces(tmp_path):
    store = tmp_path / "s"
    run_rb(store, trace=10, games=50, players="2", name="one")
    run_rb(store, trace=0, games=50, players="2", name="two")
    con = db.connect(store, experiments=["two"])
    assert con.execute("SELECT count(*) FROM rounds").fetchone()[0] == 0
    con = db.connect(store, experiments=["one"])
    assert con.execute("SELECT count(DISTINCT game_index) FROM rounds").fetchone()[0] == 10
    cols = [r[0] for r in duckdb.connect().execute(
        "DESCRIBE SELECT * FROM read_parquet(?, hive_partitioning=true)",
        [str(files(store, "actions")[0])]).fetchall()]
    assert cols == list(ACTIONS_COLUMNS)
    empty = db.connect(tmp_path / "nothing")
    assert [r[0] for r in empty.execute("DESCRIBE actions").fetchall()] == list(ACTIONS_COLUMNS)
    assert [r[0] for r in empty.execute("DESCRIBE rounds").fetchall()] == list(ROUNDS_COLUMNS)


# ---- the CLI ------------------------------------------------------------------------------

def test_insights_json_has_the_keys(tmp_path, cli):
    store = tmp_path / "s"
    r = cli("run", "rattlebones", "--players", "2", "--games", "60", "--seed", SEED,
            "--store", store, "--experiment", "rb", "--quiet", "--trace", "40")
    assert r.exit_code == 0, r.output
    assert "playtest insights rb" in r.stdout
    r = cli("insights", "rb", "--store", store, "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert list(d) == ["p2"]
    assert list(d["p2"]) == list(KEYS)
    assert d["p2"]["lead_change_rate"]["n_games"] == 40
    assert d["p2"]["completion"]["n_games"] == 60
    r = cli("insights", "rb", "--store", store)
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    assert lines[1].strip().startswith("p2 (greedy):") and d["p2"]["verdict"][:20] in r.stdout
    assert "lead change rate" in r.stdout and "no round traces" not in r.stdout


def test_insights_side_by_side_policies(tmp_path, cli):
    store = tmp_path / "s"
    r = cli("run", "rattlebones", "--players", "2", "--games", "40", "--seed", SEED,
            "--store", store, "--experiment", "rb", "--quiet", "--trace", "40",
            "--also-policy", "random")
    assert r.exit_code == 0, r.output
    r = cli("insights", "rb", "--store", store)
    assert r.exit_code == 0, r.output
    assert "which readings survive stronger play" in r.stdout
    assert r.stdout.count("How it plays") == 1  # one table, the two arms side by side


def test_a_game_without_a_trace_gets_a_note_exit_0_and_no_traces(tmp_path, cli):
    store = tmp_path / "s"
    r = cli("run", "fakedice", "--players", "2", "--games", "50", "--store", store,
            "--experiment", "fd", "--quiet", "--trace", "20")
    assert r.exit_code == 0, r.output
    assert "fakedice declares no round trace" in r.stderr
    assert not (store / "results" / "rounds").exists()
    assert not (store / "results" / "actions").exists()
    assert manifest(store, "fd")["arms"][0]["trace"] == 0
    r = cli("run", "fakedice", "--players", "2", "--games", "50", "--store", store,
            "--experiment", "fd2", "--quiet")  # the default, not asked for: no note
    assert r.exit_code == 0 and "trace" not in r.stderr
    r = cli("insights", "fd", "--store", store)
    assert r.exit_code == 0, r.output
    assert "no round traces in experiment fd" in r.stdout and "--trace" in r.stdout
    assert "completed" in r.stdout and "closeness" in r.stdout
    r = cli("insights", "fd", "--store", store, "--format", "json")
    d = json.loads(r.stdout)
    assert list(d["p2"]) == list(KEYS) and d["p2"]["lead_change_rate"]["n_games"] == 0


def test_the_toml_trace_key(tmp_path, cli):
    spec = tmp_path / "e.toml"
    spec.write_text('[experiment]\nname = "t"\nseed = 3\ngames = 30\ntrace = 12\n'
                    'game = "rattlebones"\n[[arms]]\nplayers = 2\n')
    exp = ex.from_toml(spec)
    assert (exp.trace, exp.trace_given) == (12, True)
    assert ex.from_toml(spec, trace=5).trace == 5
    store = tmp_path / "s"
    r = cli("run", "--spec", spec, "--store", store, "--quiet")
    assert r.exit_code == 0, r.output
    assert manifest(store, "t")["arms"][0]["trace"] == 12
    spec.write_text(spec.read_text().replace("trace = 12", "trace = -1"))
    r = cli("run", "--spec", spec, "--store", tmp_path / "bad", "--quiet")
    assert r.exit_code == 2 and "experiment.trace" in r.stderr
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("args, needle", [
    (["run", "rattlebones", "--trace", "-1"], "--trace"),
    (["insights", "nope"], "unknown experiment"),
    (["insights", "rb", "--format", "xml"], "--format"),
])
def test_bad_input(tmp_path, cli, args, needle):
    store = tmp_path / "s"
    r = cli(*args, "--store", store)
    assert r.exit_code == 2 and needle in r.stderr, r.output
    assert not store.exists()


def test_search_seats_are_not_traced():
    exp = ex.from_cli("rattlebones", players="2", games=10, policy="search", trace=5)
    manifest, notes, _ = runner.build_manifest(exp, None, 10)
    assert manifest["arms"][0]["trace"] == 0
    assert any("search seats" in n for n in notes)


# ---- the notebook's trace sections (no real game declares a trace here yet) -----------------

def test_the_notebook_runs_its_trace_sections_with_a_traced_game(tmp_path, monkeypatch):
    """notebooks/05 executed in this process (its code cells in order) with the traced
    Rattlebones; tests/studies/test_notebooks.py runs it in a kernel, where the game declares
    no trace yet."""
    import matplotlib
    import nbformat

    matplotlib.use("Agg")
    nb = nbformat.read(HERE.parents[1] / "notebooks" / "05_how_the_game_plays.ipynb",
                       as_version=4)
    monkeypatch.setenv("PLAYTEST_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("PLAYTEST_NOTEBOOK_GAMES", "60")
    monkeypatch.setenv("PLAYTEST_NOTEBOOK_TRACE", "30")
    ns: dict = {}
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        src = "\n".join(x for x in cell.source.splitlines() if not x.startswith("%"))
        exec(compile(src, f"notebook cell {i}", "exec"), ns)
    assert ns["TRACED"]
    for a in ns["arms"]:
        assert ns["ins"][a]["lead_change_rate"]["n_games"] == 30
        assert ns["ins"][a]["completion"]["n_games"] == 60
    assert len(ns["per_game"]) == 30 * len(ns["arms"])


def test_a_trace_that_disagrees_with_play_many_stops_the_run_and_writes_no_trace(
        tmp_path, monkeypatch, cli):
    real = tracing.play

    def wrong(arm, seed, first, n):
        g, s, *rest = real(arm, seed, first, n)
        if first == 50:  # chunk 1: its first game's score differs
            s = s.copy()
            s[0, 0, 0] += 1
        return (g, s, *rest)

    monkeypatch.setattr(tracing, "play", wrong)
    store = tmp_path / "s"
    with pytest.raises(runner.TraceError, match="traced game 50 .* --trace 0"):
        run_rb(store, trace=80, games=100, players="2")
    m = manifest(store)["arms"][0]
    assert chunks.from_ranges(m["finished"]) == {0}
    assert sorted(table(store, "rounds")["game_index"].unique()) == list(range(50))
    r = cli("run", "rattlebones", "--players", "2", "--games", "100", "--chunk-size", "50",
            "--seed", SEED, "--store", store, "--experiment", "rb", "--quiet", "--trace", "80")
    assert r.exit_code == 2 and "step machine and kernel disagree" in r.stderr, r.output


def test_rounds_not_numbered_from_1_without_gaps_are_refused():
    exp = ex.from_cli("rattlebones", players="2", games=10, trace=5)
    arm = exp.arms[0].arm
    _, _, n_rounds, rounds, kinds, points = tracing.play(arm, SEED, 0, 2)
    build_trace_tables = store_mod.build_trace_tables
    build_trace_tables("e", "p2", arm, SEED, 0, n_rounds, rounds, kinds, points)  # fine
    gap = rounds.copy()
    gap[1, 3:, :, 0] += 1  # game 1: rounds 1, 2, 3, 5, ...
    with pytest.raises(store_mod.TraceError, match=r"trace of game 1 records rounds \[1, 2, 3, 5"):
        build_trace_tables("e", "p2", arm, SEED, 0, n_rounds, gap, kinds, points)
