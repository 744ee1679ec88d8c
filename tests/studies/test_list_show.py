"""Finding results: `playtest run` ends with its result table and the report command;
`playtest list` / `playtest show EXPERIMENT`; "did you mean" for a mistyped experiment."""
import json


def test_run_list_show(cli, tmp_path):
    store = tmp_path / "s"
    r = cli("run", "fakedice", "--players", "3", "--set", "dice=3", "--games", "300",
            "--store", store, "-q")
    assert r.exit_code == 0, r.output
    name = json.loads(next((store / "experiments").glob("*.json")).read_text())["name"]
    # the result: win rate by the balance factor (the seat for this game) with intervals
    assert "Win rate by seat" in r.stdout and "95% CI" in r.stdout
    assert f"report: playtest report {name} --store {store}" in r.stdout
    r = cli("list", "--store", store)
    assert r.exit_code == 0, r.output
    assert f"store: {store}" in r.stdout
    row = next(line for line in r.stdout.splitlines() if "fakedice" in line)
    assert "3" in row and "dice=3" in row and "300" in row and "complete" in row
    r = cli("show", name, "--store", store)
    assert r.exit_code == 0, r.output
    assert "p3" in r.stdout and "dice=3" in r.stdout and "Win rate by seat" in r.stdout
    r = cli("show", name[:-1] + "x", "--store", store)
    assert r.exit_code == 2 and f"did you mean '{name}'?" in r.stderr


def test_list_empty_store_says_so(cli, tmp_path):
    r = cli("list", "--store", tmp_path / "empty")
    assert r.exit_code == 0 and "holds no experiments" in r.stderr
