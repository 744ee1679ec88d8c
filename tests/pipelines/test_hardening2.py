"""Hardening, second round (the CLI): data and error text never read as Rich markup or emoji,
``sql`` errors and store warnings, ``--out`` never overwrites without ``--force``, ``--store``
that is not a store, the reading commands read only their experiment, the last tracebacks,
PIVOT (fake game, no compile)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipe_helpers import listing

HERE = Path(__file__).resolve().parent


def run_args(store, *extra, name="x"):
    return ["run", "fakedice", "--players", "2", "--seed", "3", "--store", store, "--quiet",
            "--experiment", name, "--games", "100", *extra]


@pytest.fixture
def store(tmp_path, cli):
    """A store holding experiment ``x`` (100 games, 2 players)."""
    s = tmp_path / "store"
    r = cli(*run_args(s))
    assert r.exit_code == 0, r.output
    return s


def error_lines(r) -> list[str]:
    """stderr without the ``store: ...`` line ``sql`` starts with."""
    return [ln for ln in r.stderr.splitlines() if not ln.startswith("store: ")]


def files(root: Path) -> dict:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


# ---- 1. no markup, no emoji on data or error text ----------------------------------------

def test_sql_cells_and_column_names_are_printed_as_they_are(store, cli):
    r = cli("sql", "SELECT '[/x]' AS a, 'root:x:0' AS b, '[bold]c[/bold]' AS \"[/y]\", "
            "':thumbs_up:' AS d", "--store", store)
    assert r.exit_code == 0, r.output
    for text in ("[/x]", "root:x:0", "[bold]c[/bold]", "[/y]", ":thumbs_up:"):
        assert text in r.stdout, r.stdout
    assert "❌" not in r.stdout and "👍" not in r.stdout


def test_sql_error_text_is_printed_as_it_is(store, cli):
    r = cli("sql", "SELECT nope:x:0 FROM [/x]", "--store", store)
    assert r.exit_code == 2, r.output
    assert "nope:x:0" in r.stderr and "❌" not in r.stderr and "Traceback" not in r.output


@pytest.mark.parametrize("handle", ["[/x]", "root:x:0", "[bold]y"])
def test_error_messages_are_printed_as_they_are(store, cli, handle):
    for cmd in ("report", "show"):
        r = cli(cmd, handle, "--store", store)
        assert r.exit_code == 2, r.output
        assert f"unknown experiment '{handle}'" in r.stderr, r.stderr
        assert "❌" not in r.stderr


def test_show_prints_manifest_text_as_it_is(store, cli):
    """A manifest's variant and tweaks reach the terminal untouched."""
    path = store / "experiments" / "x.json"
    m = json.loads(path.read_text())
    m["arms"][0].update(variant="[/v]", tweaks={"[bold]k": ":x:"})
    path.write_text(json.dumps(m))
    r = cli("show", "x", "--store", store)
    assert r.exit_code == 0, r.output
    for text in ("[/v]", "[bold]k=:x:"):
        assert text in r.stdout, r.stdout
    assert "❌" not in r.stdout


# ---- 2. sql: errors in one line, store warnings as lines ----------------------------------

def test_sql_error_is_one_line(store, cli):
    r = cli("sql", "SELECT nope FROM games", "--store", store)
    assert r.exit_code == 2 and "Traceback" not in r.output
    lines = error_lines(r)
    assert len(lines) == 1 and lines[0].startswith("error: SQL: ") and "nope" in lines[0], lines


def test_sql_on_a_damaged_data_page_names_the_chunk(store, cli):
    """Parts read as they are (no manifest: no digest to check) with a damaged data page: the
    DuckDB error becomes the experiment, arm and chunk of the part."""
    (store / "experiments" / "x.json").unlink()
    import pyarrow.parquet as pq

    p = next((store / "results" / "games").rglob("part-00000.parquet"))
    md = pq.read_metadata(p)
    col = next(md.row_group(0).column(j) for j in range(md.num_columns)
               if md.row_group(0).column(j).path_in_schema == "rounds")
    data = bytearray(p.read_bytes())
    start = col.data_page_offset
    for i in range(start + 4, start + col.total_compressed_size):  # the page, not its header
        data[i] ^= 0x5A
    p.write_bytes(bytes(data))
    r = cli("sql", "SELECT sum(rounds) FROM games", "--store", store)
    assert r.exit_code == 2, r.output
    lines = error_lines(r)
    assert len(lines) == 1 and "experiment 'x' arm 'p2' chunk 0" in lines[0], lines


def _broken_sibling(store, text: bytes = b"\xff\xfe{"):
    (store / "experiments" / "bad.json").write_bytes(text)


@pytest.mark.parametrize("text", [b"{ not json", b"\xff\xfe{"])
def test_sql_prints_store_warnings(store, cli, text):
    _broken_sibling(store, text)
    r = cli("sql", "SELECT name FROM experiments", "--store", store, "--format", "csv")
    assert r.exit_code == 0, r.output
    assert r.stdout.split() == ['"name"', '"x"'], r.stdout
    assert "warning: experiment 'bad' is left out" in r.stderr, r.stderr


def test_no_python_warning_reaches_the_terminal(store):
    """In a process of its own (pytest records warnings in-process): ``warning: ...`` lines,
    never ``StoreWarning`` with a file and line number."""
    _broken_sibling(store, b"{ not json")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parents[1]), str(HERE)]))
    p = subprocess.run([sys.executable, str(HERE / "fakecli.py"), "sql",
                        "SELECT count(*) AS n FROM games", "--store", str(store), "--format",
                        "csv"], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "warning: experiment 'bad' is left out" in p.stderr
    assert "StoreWarning" not in p.stderr and "warnings.warn" not in p.stderr, p.stderr


# ---- 3. --out never overwrites without --force --------------------------------------------

@pytest.mark.parametrize("fmt", ["table", "csv", "parquet"])
def test_sql_out_refuses_an_existing_file(store, cli, tmp_path, fmt):
    target = tmp_path / "README.md"
    target.write_text("the project's readme\n")
    r = cli("sql", "SELECT 1 AS a", "--store", store, "--format", fmt, "--out", target)
    assert r.exit_code == 2 and "exists" in r.stderr and "--force" in r.stderr, r.output
    assert target.read_text() == "the project's readme\n"
    r = cli("sql", "SELECT 1 AS a", "--store", store, "--format", fmt, "--out", target,
            "--force")
    assert r.exit_code == 0, r.output
    assert target.read_bytes() != b"the project's readme\n"


def test_replay_out_refuses_existing_files(tmp_path, cli):
    out = tmp_path / "replays"
    r = cli("replay", "fakedice", "--game-index", "0-2", "--out", out)
    assert r.exit_code == 0, r.output
    first = sorted(out.iterdir())
    assert len(first) == 3
    first[1].write_text("mine\n")
    r = cli("replay", "fakedice", "--game-index", "0-3", "--out", out)
    assert r.exit_code == 2 and first[0].name in r.stderr and "--force" in r.stderr, r.output
    assert first[1].read_text() == "mine\n" and len(list(out.iterdir())) == 3  # nothing written
    r = cli("replay", "fakedice", "--game-index", "0-3", "--out", out, "--force")
    assert r.exit_code == 0, r.output
    assert first[1].read_text() != "mine\n" and len(list(out.iterdir())) == 4


def test_tune_out_refuses_an_existing_file(tmp_path, cli):
    target = tmp_path / "mine.toml"
    target.write_text("# my preset\n")
    r = cli("tune", "fakedice", "--players", "2", "--trials", "2", "--games", "20",
            "--validation-games", "20", "--out", target, "-q")
    assert r.exit_code == 2 and "exists" in r.stderr and "--force" in r.stderr, r.output
    assert target.read_text() == "# my preset\n"


def test_report_out_inside_the_store_is_refused(store, cli):
    r = cli("report", "x", "--store", store, "--out", store / "results")
    assert r.exit_code == 2 and "inside the store" in r.stderr, r.output
    assert not list(store.rglob("*.html"))


@pytest.mark.parametrize("cmd", [
    ["compare", "fakedice", "--set", "dice=3", "--games", "10"],
    ["sweep", "fakedice", "--param", "dice=2,3", "--games", "10"],
    ["plan", "fakedice", "--detect", "0.05", "--pilot-games", "10"],
    ["ladder", "fakedice", "--players", "2", "--games", "10"],
    ["compensate", "fakedice", "--players", "2", "--games", "10"],
    ["demo", "--games", "10"]], ids=lambda c: c[0])
def test_report_out_onto_a_file_is_refused_before_anything_runs(tmp_path, cli, cmd):
    (tmp_path / "afile").write_text("x")
    r = cli(*cmd, "--store", tmp_path / "s", "--out", tmp_path / "afile", "--quiet")
    assert r.exit_code == 2 and "is a file" in r.stderr, r.output
    assert not (tmp_path / "s").exists()


def test_sql_max_rows_below_one(store, cli):
    r = cli("sql", "SELECT 1", "--store", store, "--max-rows", "-1")
    assert r.exit_code == 2 and "--max-rows" in r.stderr, r.output


# ---- 4. --store that is not a store ----------------------------------------------------------

READERS = [("sql", "SELECT 1"), ("report", "x"), ("show", "x"), ("list",)]


@pytest.mark.parametrize("cmd", READERS, ids=lambda c: c[0])
def test_readers_refuse_a_store_that_is_a_file_or_missing(tmp_path, cli, cmd):
    (tmp_path / "afile").write_text("x")
    for where, needle in ((tmp_path / "afile", "is a file"),
                          (tmp_path / "missing", "does not exist")):
        r = cli(*cmd, "--store", where)
        assert r.exit_code == 2 and needle in r.stderr and "--store" in r.stderr, r.output
        assert len(error_lines(r)) == 1, r.stderr
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("cmd", READERS, ids=lambda c: c[0])
def test_readers_refuse_a_folder_that_is_not_a_store(tmp_path, cli, cmd, store):
    """The folder above a store (``--store .`` instead of ``--store data``) is not one."""
    r = cli(*cmd, "--store", tmp_path)
    assert r.exit_code == 2 and "not a store" in r.stderr and str(store) in r.stderr, r.output


def test_an_empty_folder_is_an_empty_store(tmp_path, cli):
    (tmp_path / "empty").mkdir()
    r = cli("sql", "SELECT count(*) AS n FROM games", "--store", tmp_path / "empty", "--format",
            "csv")
    assert r.exit_code == 0 and "nothing to query yet" in r.stderr, r.output
    r = cli("list", "--store", tmp_path / "empty")
    assert r.exit_code == 0 and "no experiments yet" in r.stderr, r.output


def test_a_missing_store_from_the_environment_is_refused(tmp_path, cli, monkeypatch):
    from pipelines import settings

    monkeypatch.setenv(settings.STORE_ENV, str(tmp_path / "nowhere"))
    r = cli("list")
    assert r.exit_code == 2 and "does not exist" in r.stderr and settings.STORE_ENV in r.stderr


@pytest.mark.parametrize("cmd", [
    ["run", "fakedice", "--games", "10"], ["sql", "SELECT 1"], ["report", "x"], ["show", "x"],
    ["list"], ["compare", "fakedice", "--set", "dice=3", "--games", "10"],
    ["sweep", "fakedice", "--param", "dice=2,3", "--games", "10"],
    ["plan", "fakedice", "--detect", "0.05", "--pilot-games", "10"],
    ["ladder", "fakedice", "--players", "2", "--games", "10"],
    ["compensate", "fakedice", "--players", "2", "--games", "10"],
    ["demo", "--games", "10"]], ids=lambda c: c[0])
def test_an_empty_store_option_is_refused_everywhere(tmp_path, cli, monkeypatch, cmd):
    monkeypatch.chdir(tmp_path)
    r = cli(*cmd, "--store", "", "--quiet") if cmd[0] not in ("sql", "report", "show", "list") \
        else cli(*cmd, "--store", "")
    assert r.exit_code == 2 and "--store" in r.stderr and "Traceback" not in r.output, r.output
    assert listing(tmp_path) == []


# ---- 5. / 9. the reading commands read their own experiment ------------------------------

@pytest.mark.parametrize("text", [b"{ not json", b"\xff\xfe{"])
def test_a_broken_sibling_manifest_changes_nothing_for_an_experiment(store, cli, tmp_path, text):
    _broken_sibling(store, text)
    r = cli("show", "x", "--store", store)
    assert r.exit_code == 0 and "Win rate by seat" in r.stdout, r.output
    r = cli("report", "x", "--store", store, "--out", tmp_path / "r")
    assert r.exit_code == 0 and (tmp_path / "r" / "x.html").is_file(), r.output
    r = cli(*run_args(store))  # run's summary
    assert r.exit_code == 0 and "Win rate by seat" in r.stdout, r.output
    r = cli("compare", "fakedice", "--set", "dice=3", "--players", "2", "--games", "100",
            "--store", store, "--out", tmp_path / "r", "--quiet")
    assert r.exit_code == 0, r.output
    r = cli("list", "--store", store)
    assert r.exit_code == 0 and "unreadable" in r.stdout and "bad.json" in r.stderr


@pytest.mark.parametrize("text", [b"{ not json", b"\xff\xfe{", b"[]"])
def test_show_and_report_of_a_broken_manifest_exit_2(store, cli, tmp_path, text):
    _broken_sibling(store, text)
    for cmd in (["show", "bad"], ["report", "bad", "--out", tmp_path / "r"]):
        r = cli(*cmd, "--store", store)
        assert r.exit_code == 2 and "bad.json" in r.stderr, r.output
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "r").exists()


# ---- 6. the last tracebacks -----------------------------------------------------------------

def test_replay_game_index_beyond_the_range(cli):
    r = cli("replay", "fakedice", "--game-index", "99999999999999999999")
    assert r.exit_code == 2 and "9,223,372,036,854,775,807" in r.stderr, r.output
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("detect", ["1e-9", "0.00005", "nan", "inf", "-0.01"])
def test_plan_detect_out_of_range_writes_nothing(tmp_path, cli, detect):
    r = cli("plan", "fakedice", "--detect", detect, "--players", "2", "--pilot-games", "100",
            "--store", tmp_path / "s", "--out", tmp_path / "r", "--quiet")
    assert r.exit_code == 2 and "--detect" in r.stderr, r.output
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert listing(tmp_path) == []


@pytest.mark.parametrize("args, line", [
    (["run", "fakedice", "--games", "x"], "error: --games: expected a whole number, got 'x'"),
    (["run", "fakedice", "--games", "1.5"], "error: --games: expected a whole number, got '1.5'"),
    (["run", "fakedice", "-n", "x"], "error: --games: expected a whole number, got 'x'"),
    (["run", "fakedice", "--seed", "abc"], "error: --seed: expected a whole number, got 'abc'"),
    (["plan", "fakedice", "--detect", "abc"], "error: --detect: expected a number, got 'abc'"),
    (["sql", "SELECT 1", "--max-rows", "many"],
     "error: --max-rows: expected a whole number, got 'many'"),
])
def test_option_type_errors_are_one_line(tmp_path, cli, args, line):
    r = cli(*args, "--store", tmp_path / "s")
    assert r.exit_code == 2, r.output
    assert r.stderr.strip().splitlines() == [line], r.stderr
    assert listing(tmp_path) == []


@pytest.mark.parametrize("args, needle", [
    (["run", "fakedice", "--gmaes", "3"], "--gmaes"),
    (["sql"], "query"),
    (["nosuchcommand"], "nosuchcommand"),
])
def test_usage_errors_are_one_line(cli, args, needle):
    r = cli(*args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.stderr
    assert "--help" in lines[0]


# ---- 7. PIVOT -------------------------------------------------------------------------------

@pytest.mark.parametrize("query", [
    "PIVOT seats ON seat USING sum(win_share) GROUP BY experiment",
    "SELECT * FROM (PIVOT seats ON seat USING count(*) GROUP BY arm)",
    "WITH t AS (PIVOT seats ON seat USING count(*) GROUP BY arm) SELECT * FROM t",
    "PIVOT seats ON seat USING count(*) GROUP BY arm; -- a comment",
    "UNPIVOT (SELECT 1 AS a, 2 AS b) ON a, b INTO NAME k VALUE v",
    "/* seats */ PIVOT seats ON seat USING count(*) -- by seat",
    "EXPLAIN PIVOT seats ON seat USING count(*)",
])
def test_pivot_works(store, cli, query):
    r = cli("sql", query, "--store", store, "--format", "csv")
    assert r.exit_code == 0, r.output
    assert len(r.stdout.strip().splitlines()) >= 2, r.stdout


@pytest.mark.parametrize("query", [
    "CREATE TABLE t AS PIVOT seats ON seat USING count(*)",
    "COPY (PIVOT seats ON seat USING count(*)) TO '{out}'",
    "WITH t AS (PIVOT seats ON seat USING count(*)) INSERT INTO t2 SELECT * FROM t",
    "PIVOT seats ON seat USING count(*); COPY (SELECT 1) TO '{out}'",
    "PIVOT seats ON seat USING count(*); SELECT 1",
    "INSERT INTO seats SELECT * FROM (PIVOT seats ON seat USING count(*))",
    "EXPLAIN ANALYZE CREATE TABLE t AS PIVOT seats ON seat USING count(*)",
    "SELECT * FROM (PIVOT read_csv('{other}') ON a USING count(*))",
])
def test_pivot_still_cannot_write_or_read_files(store, cli, tmp_path, query):
    (tmp_path / "other.csv").write_text("a\n1\n")
    before = files(tmp_path)
    r = cli("sql", query.format(out=tmp_path / "out.csv", other=tmp_path / "other.csv"),
            "--store", store)
    assert r.exit_code == 2, r.output
    assert files(tmp_path) == before
