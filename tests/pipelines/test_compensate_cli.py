"""``playtest compensate`` end to end on the fake game with a bonus (``fakebonus``), whose
``head_start`` plants a known first-player advantage (seat 0 adds it to its total) and whose
``end_bonus_points`` is added to each seat's final total before ranking, as the real games'
will be: the offline bonus, its
check by re-simulation (and the note when a game has no ``end_bonus_points``), the parameter
search finding the planted root, JSON, the report, reuse on a re-run, bad input. Also: the
ladder prints how much of the game is skill."""
import dataclasses
import json

import pytest

import fakegame
from pipelines.compensate import _bonus_value, compensation

from pipe_helpers import content, listing
from tests.studies.studyhelpers import html_text


@pytest.fixture(autouse=True)
def fake_bonus(fake_game, monkeypatch):
    """The fake game with ``head_start`` and ``end_bonus_points`` registered as ``fakebonus``."""
    monkeypatch.setitem(fake_game._GAMES, "fakebonus", fakegame.BONUS_SPEC)
    return fake_game


def _manifest(store):
    return json.loads(next((store / "experiments").glob("*.json")).read_text())


def _run(cli, tmp_path, *args):
    store, out = tmp_path / "store", tmp_path / "rep"
    r = cli("compensate", "fakebonus", "--players", "2", "--store", store, "--out", out, "-q",
            *args)
    assert r.exit_code == 0, r.output
    return r, store, out


def test_points_bonus_offline_then_resimulated_json_report_and_reuse(cli, tmp_path):
    """Seat 0 gets 2 points (head_start): the bonus that balances the seats is +2 for seat 1;
    with end_bonus_points = [0, 2] the seats are exchangeable, every game ends as before plus
    the bonus, and each seat wins its fair share."""
    args = ("--set", "head_start=2", "--games", "4000", "--n-boot", "60")
    r, store, out = _run(cli, tmp_path, *args)
    first = r.stdout.strip().splitlines()[0]
    assert first.startswith("Give seat 1 +2 points (95% CI "), r.stdout
    assert "then every seat wins 50% ±" in first and "under greedy" in first
    assert "re-simulated with" in first
    for row in ("seat 1 bonus, points (95% CI)", "best whole points", "re-simulated with",
                "end_bonus_points = [0, 2]", "games played differently"):
        assert row in r.stdout, row
    man = _manifest(store)
    assert man["spec"]["kind"] == "compensate" and man["spec"]["question"] == "points"
    assert [a["name"] for a in man["arms"]] == ["p2", "bonus0_2-p2"]
    res = man["compensation"]["results"]["greedy"]
    assert res["whole"] == [0, 2]
    lo, hi = res["interval"][1]
    assert lo <= 2 <= hi
    resim = res["resimulated"]
    assert resim["value"] == [0, 2] and resim["played_differently"] == 0.0
    assert not resim["reacted"] and resim["off_fair"] == []
    assert all(a <= 0.5 <= b for a, b in zip(resim["low"], resim["high"]))
    # the report: verdict first
    text = html_text(next(out.glob("*.html")))
    assert "What fixes a favoured seat?" in text
    assert text.index("Give seat 1 +2 points") < text.index("Per policy")
    # the same command again reuses every arm; --format json prints the answer per policy
    before = content(store, "seats")
    r, _, _ = _run(cli, tmp_path, *args, "--format", "json")
    assert "simulated" not in r.stderr.replace("nothing to simulate", "")
    assert content(store, "seats").equals(before)
    doc = json.loads(r.stdout)
    one = doc["results"]["greedy"]
    for key in ("bonus", "interval", "residual", "resimulated"):
        assert key in one, key
    assert one["bonus"][0] == 0 and abs(one["bonus"][1] - 2) < 0.5
    assert len(one["resimulated"]["win_rate"]) == 2
    assert doc["verdict"][0] == first
    # playtest report renders the study again
    r = cli("report", man["name"], "--store", store, "--out", tmp_path / "again")
    assert r.exit_code == 0, r.output
    assert "Give seat 1 +2 points" in html_text(next((tmp_path / "again").glob("*.html")))


def test_a_game_without_end_bonus_points_gets_the_offline_bonus_and_a_note(
        cli, tmp_path, monkeypatch, fake_game):
    """Before the kernels have the parameter: the same command, no re-simulation, a note."""
    params = tuple(dataclasses.replace(p, name="not_yet") if p.name == "end_bonus_points"
                   else p for p in fakegame.BONUS_SPEC.params)
    monkeypatch.setitem(fake_game._GAMES, "fakebonus",
                        dataclasses.replace(fakegame.BONUS_SPEC, params=params))
    r, store, _ = _run(cli, tmp_path, "--set", "head_start=2", "--games", "2000",
                       "--n-boot", "30", "--also-policy", "random")
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("Give seat 1 +2 points (95% CI ") and "under greedy" in lines[0]
    assert "under random" in lines[0] and "(offline; not re-simulated)" in lines[0]
    assert lines[1].startswith("Not re-simulated: fakebonus has no rule parameter "
                               "end_bonus_points yet")
    man = _manifest(store)
    assert [a["name"] for a in man["arms"]] == ["p2", "p2-random"]
    assert all(r["resimulated"] is None for r in man["compensation"]["results"].values())


def test_parameter_search_finds_the_planted_root(cli, tmp_path):
    """head_start = 3: seat 1 needs end_bonus_points 3 (then the seats are exchangeable, the
    win-rate curve crosses 1/2 there); the search finds it under both policies, each value one
    arm on the same seeds, and a re-run measures nothing again."""
    args = ("--set", "head_start=3", "--param", "end_bonus_points", "--range", "0..8",
            "--games", "3000", "--also-policy", "random")
    r, store, out = _run(cli, tmp_path, *args)
    first = r.stdout.strip().splitlines()[0]
    assert first.startswith("Set end_bonus_points = 3 for seat 1 (root "), first
    assert "under greedy and random" in first
    man = _manifest(store)
    comp = man["compensation"]
    assert comp["mode"] == "parameter" and comp["per_seat"] and comp["integer"]
    for pol in ("greedy", "random"):
        res = comp["results"][pol]
        assert res["bonus"] == 3 and res["seats"] == [1] and res["converged"]
        assert res["interval"][0] <= 3 <= res["interval"][1]
        assert abs(res["residual"]["estimate"]) < 0.02
        assert {p["value"] for p in res["points"]} >= {0, 3, 8}
    names = [a["name"] for a in man["arms"]]
    assert "end_bonus_points0_3-p2" in names and "end_bonus_points0_3-p2-random" in names
    assert "end_bonus_points0_0-p2" not in names  # the value of the base arm: read from it
    before = content(store, "seats")
    r, _, _ = _run(cli, tmp_path, *args)
    assert content(store, "seats").equals(before)
    assert r.stdout.strip().splitlines()[0] == first
    assert "Values measured" in html_text(next(out.glob("*.html")))


def test_scalar_parameter_search(cli, tmp_path):
    """Seat 1 gets 2 end-of-game points: seat 0 is the one behind, and head_start (a scalar
    for seat 0) equalises the seats at 2."""
    r, store, _ = _run(cli, tmp_path, "--set", "end_bonus_points=[0,2]", "--param",
                       "head_start", "--range", "0..6", "--games", "3000", "--format", "json")
    res = json.loads(r.stdout)["results"]["greedy"]
    assert res["seats"] == [0] and res["bonus"] == 2 and res["converged"]
    assert json.loads(r.stdout)["verdict"][0].startswith("Set head_start = 2 (root ")


@pytest.mark.parametrize("args, expect", [
    (("--param", "nope"), "--param nope: unknown parameter 'nope' of fakebonus"),
    (("--param", "reroll"), "--param reroll: not a numeric parameter"),
    (("--param", "head_start", "--range", "0..20"),
     "--range 0..20: outside the declared range of head_start (0..10)"),
    (("--param", "head_start", "--range", "4..2"), "needs LO < HI"),
    (("--param", "head_start", "--range", "x"), "must look like LO..HI"),
    (("--param", "head_start", "--range", "0.5..3"), "takes whole values"),
    (("--param", "head_start", "--set", "head_start=1"), "also searched by --param"),
    (("--range", "0..3"), "--range needs --param NAME"),
    (("--players", "1"), "--players 1: a points bonus per seat balances the seats"),
    (("--players", "1", "--param", "head_start"), "--players 1: --param head_start"),
    (("--players", "2-3"), "one player count"),
    (("--set", "end_bonus_points=[0,1]"), "--set end_bonus_points: the points bonus sets it"),
    (("--n-boot", "2"), "--n-boot: bootstrap resamples"),
    (("--format", "xml"), "--format: unknown format 'xml'; valid: table, json"),
    (("--policy", "smart"), "unknown policy 'smart'"),
    (("--games", "0"), "positive integer"),
])
def test_bad_input_exit_2_one_line_nothing_written(cli, tmp_path, args, expect):
    store, out = tmp_path / "store", tmp_path / "rep"
    r = cli("compensate", "fakebonus", "--players", "2", "--store", store, "--out", out, "-q",
            *args)
    assert r.exit_code == 2, r.output
    assert expect in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert listing(store) == [] and listing(out) == []


def test_bonus_value_keeps_seat_0_at_0_unless_the_range_needs_a_shift():
    p = next(q for q in fakegame.BONUS_PARAMS if q.name == "end_bonus_points")  # 0..20, 4 seats
    assert _bonus_value((0, 2), p, 2) == ((0, 2, 2, 2), "")
    assert _bonus_value((0, -2, 1), p, 3) == ((2, 0, 3, 3), "")  # +2 for every seat
    value, why = _bonus_value((0, 25), p, 2)
    assert value is None and "does not fit the range of end_bonus_points" in why


def test_derived_name_and_arms():
    c = compensation("fakebonus", "3", tweaks=["head_start=1"], also_policies=["random"],
                     games=10)
    assert c.name.startswith("compensate-fakebonus-3p-points-greedy-random-s1-")
    assert [ra.name for ra in c.base.values()] == ["p3", "p3-random"]
    s = compensation("fakebonus", "3", param="end_bonus_points", range_text="1..5", games=10)
    assert s.search.per_seat and s.search.integer and (s.search.lo, s.search.hi) == (1, 5)
    assert s.search_value(s.base["greedy"], (1, 2), 4) == (0, 4, 4, 0)
    assert "end_bonus_points" in s.name and s.name != c.name


def test_ladder_and_show_print_how_much_of_the_game_is_skill(cli, tmp_path):
    from analysis import db
    from analysis import ladder as ladder_stats

    store = tmp_path / "store"
    r = cli("ladder", "fakedice", "--players", "2", "--games", "400", "--store", store,
            "--out", tmp_path / "rep", "-q")
    assert r.exit_code == 0, r.output
    man = _manifest(store)
    con = db.connect(store)
    lines = ladder_stats.skill_luck_lines(ladder_stats.summarize(con, man["name"], man["spec"]))
    con.close()
    assert any(s.startswith("Skill chain from random to greedy") for s in lines)
    assert any(s.startswith("Share of games decided by skill") for s in lines)
    for s in lines:
        assert s in r.stdout, s
    r = cli("show", man["name"], "--store", store)
    assert r.exit_code == 0 and all(s in r.stdout for s in lines)
