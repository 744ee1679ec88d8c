"""Words and numbers a person reads: the plural helper and the one number format per kind
(analysis.words), `replay` of many games in one call, `sql` table display (rounded floats, cut
JSON cells, the views named in its help), the progress bar's short label."""
import csv
import io
import re

import pytest

from analysis import db
from analysis.words import are, count, half_width, pct, pct_ci, plural, points, span
from pipelines import experiment as ex
from pipelines import runner, settings
from pipelines.cli.run import parse_indices


# ---- plural helper and number formats --------------------------------------------------------

@pytest.mark.parametrize("n, word, expect", [
    (0, "chunk", "0 chunks"), (1, "chunk", "1 chunk"), (2, "chunk", "2 chunks"),
    (1, "point", "1 point"), (1.0, "point", "1 point"), (2.5, "point", "2.5 points"),
    (12000, "game", "12,000 games"), (1, "policy", "1 policy"), (3, "policy", "3 policies"),
    (2, "match", "2 matches"), (2, "day", "2 days"), (1, "player", "1 player"),
    (2, "paired game", "2 paired games"), (2, "rule ID", "2 rule IDs"),
])
def test_count_and_plural(n, word, expect):
    assert count(n, word) == expect
    assert plural(n, word) == expect.split(" ", 1)[1]


def test_plural_special_forms():
    assert plural(2, "person", "people") == "people" and plural(1, "person", "people") == "person"
    assert are(1) == "is" and are(2) == "are" and are(0) == "are"
    assert f"1 {are(1)} contradicted" == "1 is contradicted"


def test_one_number_format_per_kind():
    assert pct(0.3571) == "35.7%" and pct(1) == "100.0%" and pct(None) == "n/a"
    assert pct(float("nan")) == "n/a"
    assert pct_ci(0.342, 0.3712) == "34.2–37.1%"
    assert points(0.021) == "+2.1" and points(-0.0049) == "-0.5"
    assert half_width(0.0047) == "±0.47 points" and half_width(0.005) == "±0.50 points"
    assert span([2, 3, 4]) == "2-4" and span([1, 1]) == "1" and span([2, 4]) == "2,4"


def test_no_plural_f_strings_left_in_the_cli():
    """The wordings the designer met ("(1 chunks)", "1-1 players", "round(s)") are gone."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for path in list((root / "pipelines").rglob("*.py")) + [root / "analysis" / "robust.py"]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(chunk|round|arm|arm group|player|game|point|trial)\(s\)",
                             text), path
        assert "} are contradicted" not in text, path


# ---- the progress bar's label ----------------------------------------------------------------

def test_progress_label_is_short_and_not_the_experiment_name():
    exp = ex.from_cli("fakedice", players="2-4", games=10, experiment="x" * 110)
    assert exp.label() == "fakedice 2-4p greedy"
    exp = ex.from_cli("fakedice", players="3", games=10, seat_policies=["0=random"])
    assert exp.label() == "fakedice 3p random,greedy"
    assert len(ex.from_cli("fakedice", players="1", games=10, policy="greedy:threshold=9",
                           seat_policies=["0=random"]).label(20)) <= 20


# ---- replay: many games per call, the run's default seed --------------------------------------

def test_parse_indices():
    assert parse_indices("7") == [7]
    assert parse_indices("0-4") == [0, 1, 2, 3, 4]
    assert parse_indices("3,0-2,3") == [3, 0, 1, 2]
    for bad in ("x", "-1", "5-2", "1-", "0-100000"):
        with pytest.raises(Exception, match="--game-index"):
            parse_indices(bad)


def test_replay_range_writes_one_file_per_game_equal_to_single_replays(cli, tmp_path):
    out = tmp_path / "replays"
    r = cli("replay", "fakedice", "--players", "3", "--game-index", "0-4", "--out", out)
    assert r.exit_code == 0, r.output
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"fakedice-3p-base-seed1-game{i}.txt" for i in range(5)]
    assert "wrote 5 replays" in r.stdout
    for i, f in enumerate(files):
        single = cli("replay", "fakedice", "--players", "3", "--game-index", str(i))
        assert single.exit_code == 0, single.output
        assert f.read_text(encoding="utf-8") == single.stdout
        assert f"seed {settings.DEFAULT_SEED}, game index {i}" in single.stdout
    # without --seed: the run's default seed, the same games as `run` plays
    explicit = cli("replay", "fakedice", "--players", "3", "-i", "2", "--seed",
                   str(settings.DEFAULT_SEED))
    assert explicit.stdout == (out / "fakedice-3p-base-seed1-game2.txt").read_text()
    other = cli("replay", "fakedice", "--players", "3", "-i", "2", "--seed", "99")
    assert other.exit_code == 0 and "seed 99, game index 2" in other.stdout
    # several games without --out: one after another on the terminal
    both = cli("replay", "fakedice", "--players", "3", "-i", "0,1")
    assert both.stdout == files[0].read_text() + "\n" + files[1].read_text()


def test_replay_bad_index_or_out_exit_2(cli, tmp_path):
    r = cli("replay", "fakedice", "--game-index", "4-1")
    assert r.exit_code == 2 and "runs backwards" in r.stderr
    f = tmp_path / "file"
    f.write_text("x")
    r = cli("replay", "fakedice", "--game-index", "0-1", "--out", f)
    assert r.exit_code == 2 and "is a file" in r.stderr


# ---- sql: readable tables, the views named ----------------------------------------------------

def test_sql_help_names_every_view(cli):
    r = cli("sql", "--help")
    assert r.exit_code == 0
    text = re.sub(r"\s+", " ", r.stdout)
    for view in ("games", "seats", "experiments") + db.SQL_VIEWS:
        assert re.search(rf"\b{view}\b", text), view


def test_sql_table_rounds_floats_and_cuts_json_csv_keeps_them(cli, tmp_path):
    store = tmp_path / "s"
    runner.run(ex.from_cli("fakedice", players="2", games=50, seed=4), store, workers=1,
               quiet=True)
    q = "SELECT 1.0 / 3 AS third, 12345.678 AS big, 2.0 AS whole, variant FROM games LIMIT 1"
    r = cli("sql", q, "--store", store)
    assert r.exit_code == 0, r.output
    assert "0.3333" in r.stdout and "0.33333" not in r.stdout
    assert "12345.7" in r.stdout and "│ 2 " in r.stdout and "base" in r.stdout
    r = cli("sql", q, "--store", store, "--format", "csv")
    row = next(csv.DictReader(io.StringIO(r.stdout)))
    assert row["third"].startswith("0.333333333") and row["big"] == "12345.678"
    r = cli("sql", "SELECT manifest, arms FROM experiments", "--store", store)
    assert r.exit_code == 0, r.output
    assert "…" in r.stdout and '"rule_values"' not in r.stdout  # cut, not dumped whole
    assert "cut to" in r.stderr
    r = cli("sql", "SELECT manifest FROM experiments", "--store", store, "--format", "csv")
    assert '""rule_values""' in r.stdout  # csv keeps the whole JSON
