"""Hardening, second round: one bad file never widens what is read, every part proves it is the
right one (fake game, no compile).

* a broken manifest excludes (and names) its own experiment only: the views, ``open_store`` and
  the reports read the other experiments as before, a killed run's unfinished parts stay out;
* each finished part is recorded in the manifest with its rows and a digest, and its chunk's
  game-index range is checked: a corrupted data page under an intact footer, or a valid part
  copied over another chunk's name, is re-simulated by ``run`` and named by the readers;
* ``run`` takes the experiment's lock before it reads the manifest (two runs of one name with
  different seeds never both write);
* a resume leaves no temporary manifest; a lost executor is not a store write error.
"""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from analysis.storage import ManifestError, StoreError
from pipe_helpers import HERE, content

ARGS = ["fakedice", "--players", "2", "--seed", "3", "--quiet"]


def run_args(store, name="x", *extra):
    return ["run", *ARGS, "--store", store, "--experiment", name, *extra]


def manifest(store, name="x"):
    return json.loads((store / "experiments" / f"{name}.json").read_text())


def part(store, table, chunk, arm="p2", name="x"):
    return (store / "results" / table / "game=fakedice" / f"experiment={name}" / f"arm={arm}"
            / f"part-{chunk:05d}.parquet")


def count(store, table="games", where="") -> dict:
    con = duckdb.connect()
    files = sorted((store / "results" / table).rglob("part-*.parquet"))
    return dict(con.execute(
        f"SELECT experiment, count(*) FROM read_parquet({[str(f) for f in files]}, "
        f"hive_partitioning=true) {where} GROUP BY ALL").fetchall())


def kill_after(n_chunks):
    seen = []

    def stop(arm, chunk):
        seen.append((arm, chunk))
        if len(seen) == n_chunks:
            raise KeyboardInterrupt
    return stop


def killed_run(store, name="killed", games=500, chunk=100, stray=True):
    """A run stopped after two chunks, plus a part written but never recorded (killed between
    the part and the manifest): 200 finished games, 300 on disk."""
    from pipelines import experiment as ex, runner

    exp = ex.from_cli("fakedice", "2", games=games, seed=3, experiment=name, chunk_size=chunk)
    with pytest.raises(KeyboardInterrupt):
        runner.run(exp, store, quiet=True, after_chunk=kill_after(2))
    if stray:
        for t in ("games", "seats"):
            shutil.copy(part(store, t, 1, name=name), part(store, t, 2, name=name))


# ---- 1. a broken manifest narrows, never widens -------------------------------------------

def test_a_broken_manifest_beside_a_killed_run_excludes_only_itself(tmp_path, cli):
    import analysis
    from analysis import db
    from analysis.reports import write_report

    store = tmp_path / "store"
    assert cli(*run_args(store, "done", "--games", "300", "--chunk-size", "100")).exit_code == 0
    assert cli(*run_args(store, "bad", "--games", "300", "--chunk-size", "100")).exit_code == 0
    killed_run(store)
    assert count(store) == {"done": 300, "bad": 300, "killed": 300}  # on disk
    (store / "experiments" / "bad.json").write_text("{ broken")

    want = {"done": 300, "killed": 200}
    with pytest.warns(UserWarning, match="bad"):
        con = db.connect(store)
    got = dict(con.execute("SELECT experiment, count(*) FROM games GROUP BY ALL").fetchall())
    assert got == want
    assert dict(con.execute("SELECT experiment, count(*) FROM seats GROUP BY ALL").fetchall()) \
        == {k: 2 * v for k, v in want.items()}
    warned = db.store_warnings(con)
    assert len(warned) == 1 and "'bad'" in warned[0] and "bad.json" in warned[0]
    con.close()

    with pytest.warns(UserWarning, match="bad"):
        st = analysis.open_store(store)
    try:
        assert dict(st.games.group_by("experiment").len().collect().iter_rows()) == want
        assert len(st.warnings) == 1 and "'bad'" in st.warnings[0]
    finally:
        st.close()

    r = cli("sql", "SELECT experiment, count(*) AS n FROM seats GROUP BY ALL ORDER BY ALL",
            "--store", store, "--format", "csv")
    assert r.exit_code == 0 and r.stdout.split() == ['"experiment","n"', '"done",600',
                                                     '"killed",400'], r.output

    path = write_report(store, "killed", tmp_path / "r")
    assert "partial: 200 of 500 games" in path.read_text()
    with pytest.raises(ManifestError, match="bad.json"):
        write_report(store, "bad", tmp_path / "r")
    r = cli("report", "bad", "--store", store, "--out", tmp_path / "r2")
    assert r.exit_code == 2 and "bad.json" in r.stderr and "Traceback" not in r.output, r.output
    assert not (tmp_path / "r2").exists()


def test_the_only_manifest_broken_reads_nothing_of_it(tmp_path, cli):
    from analysis import db

    store = tmp_path / "store"
    killed_run(store, "x")
    (store / "experiments" / "x.json").write_text("{ broken")
    with pytest.warns(UserWarning, match="'x'"):
        con = db.connect(store)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM seats").fetchone()[0] == 0
    r = cli("sql", "SELECT count(*) AS n FROM games", "--store", store, "--format", "csv")
    assert r.exit_code == 0 and r.stdout.split() == ['"n"', "0"], r.output
    r = cli("report", "x", "--store", store, "--out", tmp_path / "r")
    assert r.exit_code == 2 and "x.json" in r.stderr, r.output
    assert not (tmp_path / "r").exists()


def test_hand_made_manifests_and_parts_without_a_manifest_read_as_before(tmp_path, cli):
    """A JSON manifest that ``run`` did not write (no chunk plan) and parts without any manifest
    are hand-made: every one of their parts is read, whatever the other manifests hold."""
    from analysis import db

    store = tmp_path / "store"
    assert cli(*run_args(store, "hand", "--games", "100")).exit_code == 0
    assert cli(*run_args(store, "loose", "--games", "100")).exit_code == 0
    killed_run(store)
    (store / "experiments" / "hand.json").write_text(json.dumps({"name": "hand", "arms": []}))
    (store / "experiments" / "loose.json").unlink()
    con = db.connect(store)
    got = dict(con.execute("SELECT experiment, count(*) FROM games GROUP BY ALL").fetchall())
    assert got == {"hand": 100, "loose": 100, "killed": 200}
    assert db.store_warnings(con) == []


# ---- 2. every part proves it is the right one ---------------------------------------------

def corrupt_page(path: Path, column: str = "score") -> None:
    """Flip 8 bytes inside a data page of ``column``; the footer stays intact."""
    rg = pq.read_metadata(path).row_group(0)
    c = next(rg.column(i) for i in range(rg.num_columns)
             if rg.column(i).path_in_schema == column)
    end = (c.dictionary_page_offset or c.data_page_offset) + c.total_compressed_size
    at = (c.data_page_offset + end) // 2
    b = bytearray(path.read_bytes())
    b[at:at + 8] = bytes(x ^ 0xFF for x in b[at:at + 8])
    path.write_bytes(bytes(b))
    assert pq.read_metadata(path).num_rows > 0  # the footer still reads


def _old_manifest(store, name="x"):
    """The manifest as format 2 wrote it: no rows or digests per part."""
    m = manifest(store, name)
    for a in m["arms"]:
        a.pop("parts", None)
    m["format"] = 2
    (store / "experiments" / f"{name}.json").write_text(json.dumps(m))


def test_finished_parts_are_recorded_with_rows_and_digests(tmp_path, cli):
    import hashlib

    from pipelines.store import MANIFEST_FORMAT

    store = tmp_path / "store"
    assert cli(*run_args(store, "x", "--games", "250", "--chunk-size", "100")).exit_code == 0
    m = manifest(store)
    assert m["format"] == MANIFEST_FORMAT >= 3
    parts = m["arms"][0]["parts"]
    assert sorted(parts) == ["0", "1", "2"]
    for c, rows in (("0", 100), ("2", 50)):
        for t, k in (("games", 1), ("seats", 2)):
            n, digest = parts[c][t]
            assert n == rows * k
            assert digest == hashlib.sha256(part(store, t, int(c)).read_bytes()).hexdigest()


@pytest.mark.parametrize("damage", ["page", "page-old", "copy", "copy-old", "other-arm-old"])
def test_a_wrong_part_is_named_by_readers_and_simulated_again(tmp_path, cli, damage):
    store, fresh = tmp_path / "store", tmp_path / "fresh"
    extra = ["--players", "2-3"] if damage == "other-arm-old" else []
    for s in (store, fresh):
        assert cli(*run_args(s, "x", "--games", "300", "--chunk-size", "100", *extra)
                   ).exit_code == 0
    if damage.startswith("page"):
        corrupt_page(part(store, "seats", 1))
    elif damage.startswith("copy"):  # a valid part under another chunk's name
        for t in ("games", "seats"):
            shutil.copy(part(store, t, 0), part(store, t, 1))
    else:  # arm p3's games part (same rows and game indices) over arm p2's
        shutil.copy(part(store, "games", 1, arm="p3"), part(store, "games", 1))
    if damage.endswith("old"):
        _old_manifest(store)

    cmds = [("sql", "SELECT count(*), sum(game_index) FROM games"),
            ("sql", "SELECT sum(score) FROM seats"), ("report", "x", "--out", tmp_path / "r")]
    if damage == "page-old":  # no digest: the footer reads; the data fails when read
        cmds = cmds[2:]  # (sql names the chunk once the CLI maps its error: db.read_error)
        from analysis import db
        con = db.connect(store)
        with pytest.raises(duckdb.Error) as e:
            con.execute("SELECT sum(score) FROM seats").fetchall()
        assert "experiment 'x' arm 'p2' chunk 1" in str(db.read_error(store, e.value))
    for cmd in cmds:
        r = cli(*cmd, "--store", store)
        assert r.exit_code == 2, r.output
        assert "experiment 'x' arm 'p2' chunk 1" in r.stderr and "Traceback" not in r.output, \
            r.stderr
    assert not (tmp_path / "r").exists()

    r = cli(*run_args(store, "x", "--games", "300", *extra))
    assert r.exit_code == 0 and "chunk 1" in r.stderr and "simulating it again" in r.stderr, \
        r.output
    assert "simulated 100 games" in r.stdout
    assert content(store, "games").equals(content(fresh, "games"))
    assert content(store, "seats").equals(content(fresh, "seats"))
    m = manifest(store)
    assert m["status"] == "complete" and all("parts" in a for a in m["arms"])
    assert cli("sql", "SELECT count(*) FROM games", "--store", store).exit_code == 0


def test_an_old_manifest_reads_and_resumes(tmp_path, cli):
    """A format-2 manifest (no digests) reads as before (footers, rows and game-index ranges
    checked); a run checks its parts the same way and records their digests."""
    store = tmp_path / "store"
    assert cli(*run_args(store, "x", "--games", "300", "--chunk-size", "100")).exit_code == 0
    _old_manifest(store)
    r = cli("sql", "SELECT count(*) AS n FROM games", "--store", store, "--format", "csv")
    assert r.exit_code == 0 and r.stdout.split() == ['"n"', "300"], r.output
    r = cli(*run_args(store, "x", "--games", "400"))
    assert r.exit_code == 0 and "simulated 100 games" in r.stdout, r.output
    m = manifest(store)
    assert sorted(m["arms"][0]["parts"]) == ["0", "1", "2", "3"]


# ---- 3. the lock is taken before the manifest is read ---------------------------------------

def _fakecli(store, seed, env):
    return [sys.executable, str(HERE / "fakecli.py"), "run", "fakedice", "--players", "2",
            "--games", "200", "--chunk-size", "100", "--seed", str(seed), "--store", str(store),
            "--experiment", "race", "--quiet", "--workers", "1"]


def test_two_runs_of_one_name_with_different_seeds_never_both_write(tmp_path):
    """Run B reads the manifest (none yet) and waits 4 s; run A goes from start to end in that
    time. Before the fix, B then took the lock and wrote seed-2 parts next to A's seed-1 ones."""
    store = tmp_path / "store"
    mark = tmp_path / "b-read-the-manifest"
    env_b = dict(os.environ, PLAYTEST_TEST_MANIFEST_DELAY="4", PLAYTEST_TEST_MANIFEST_MARK=str(mark))
    b = subprocess.Popen(_fakecli(store, 2, env_b), env=env_b, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not mark.exists() and time.time() < deadline and b.poll() is None:
        time.sleep(0.05)
    assert mark.exists(), b.communicate()
    a = subprocess.run(_fakecli(store, 1, os.environ), capture_output=True, text=True, timeout=120)
    out_b, err_b = b.communicate(timeout=120)
    codes = (a.returncode, b.returncode)
    assert sorted(codes) == [0, 2], (codes, a.stderr, err_b)
    loser = a if a.returncode else b
    assert "race" in loser.stderr and "Traceback" not in loser.stderr, loser.stderr
    seed = manifest(store, "race")["master_seed"]
    assert seed == (1 if a.returncode == 0 else 2)
    for t in ("games", "seats"):
        seeds = set(content(store, t)["master_seed"].to_list())
        assert seeds == {seed}, (t, seeds)


def test_the_identity_is_checked_under_the_lock(tmp_path, monkeypatch):
    """Whatever was read before, the seed is compared with the manifest read under the lock."""
    from pipelines import experiment as ex, runner, store as store_mod

    store = tmp_path / "store"
    order = []
    real_lock, real_read = store_mod.Store.lock, store_mod.Store.read_manifest

    def lock(self, name):
        order.append("lock")
        return real_lock(self, name)

    def read(self, name):
        order.append("read")
        return real_read(self, name)

    monkeypatch.setattr(store_mod.Store, "lock", lock)
    monkeypatch.setattr(store_mod.Store, "read_manifest", read)
    runner.run(ex.from_cli("fakedice", "2", games=100, seed=1, experiment="e"), store, quiet=True)
    assert order[:2] == ["lock", "read"]
    with pytest.raises(StoreError, match="seed 1, not 2"):
        runner.run(ex.from_cli("fakedice", "2", games=100, seed=2, experiment="e"), store,
                   quiet=True)
    assert sorted(p.name for p in (store / "experiments").iterdir()) == ["e.json"]


# ---- 5. smaller ---------------------------------------------------------------------------

def test_a_resume_leaves_no_temporary_manifest(tmp_path, cli):
    store = tmp_path / "store"
    killed_run(store, "x", stray=False)
    # what a run killed while writing its manifest leaves
    stale = store / "experiments" / ".x.json.999999.tmp"
    stale.write_text("{ half")
    other = store / "experiments" / ".other.json.999999.tmp"  # not this experiment's
    other.write_text("{ half")
    r = cli(*run_args(store, "x", "--games", "500"))
    assert r.exit_code == 0, r.output
    assert not stale.exists() and other.exists()
    assert sorted(p.name for p in (store / "experiments").iterdir()) == [other.name, "x.json"]
    assert not list(store.rglob("*.tmp"))[1:]


def test_a_lost_executor_is_not_a_store_write_error(tmp_path, monkeypatch):
    from pipelines import experiment as ex, runner

    class CommClosedError(OSError):  # what distributed raises when the scheduler dies
        pass

    def lost(self, tasks, arms, *callbacks):
        raise CommClosedError("in <TCP (closed) ConnectionPool.gather local=tcp://x>: Stream "
                              "is closed")
        yield  # pragma: no cover

    monkeypatch.setattr(runner.LocalExecutor, "map", lost)
    exp = ex.from_cli("fakedice", "2", games=100, seed=1, experiment="e")
    with pytest.raises(runner.ExecutorError) as e:
        runner.run(exp, tmp_path / "store", quiet=True)
    msg = str(e.value)
    assert "permissions" not in msg and "cannot write" not in msg
    assert "local" in msg and "Stream is closed" in msg and "resume" in msg


# ---- for the CLI: what its commands will call ---------------------------------------------

def test_an_empty_store_path_is_refused_not_the_default(monkeypatch, tmp_path):
    from pipelines import settings
    from sim.spec import SpecError

    monkeypatch.setenv(settings.STORE_ENV, str(tmp_path / "env"))
    for bad in ("", "  "):
        with pytest.raises(SpecError, match="--store"):
            settings.store_root(bad)
    assert settings.store_root(None) == tmp_path / "env"


def test_check_out_file(tmp_path):
    from pipelines.store import check_out_file
    from sim.spec import SpecError

    store = tmp_path / "store"
    (store / "experiments").mkdir(parents=True)
    (tmp_path / "old.csv").write_text("a\n")
    assert check_out_file(tmp_path / "new.csv", store) == (tmp_path / "new.csv").resolve()
    assert check_out_file(tmp_path / "old.csv", store, force=True) == (tmp_path / "old.csv")
    for target, needle in ((tmp_path / "old.csv", "exists"), (store / "x.csv", "inside the store"),
                           (tmp_path, "is a directory"), (tmp_path / "no" / "x.csv", "does not exist")):
        with pytest.raises(SpecError, match=needle):
            check_out_file(target, store)
    assert (tmp_path / "old.csv").read_text() == "a\n"
