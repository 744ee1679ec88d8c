"""``playtest tune`` and policy preset files: bad input, the preset round trip through
``--policy @FILE``, determinism, and one real tuning run (Rattlebones: tuning a deliberately bad
greedy preset must gain on held-out games)."""
import importlib
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from pipelines import tune
from sim import presets, registry
from sim.spec import SpecError

from pipe_helpers import content, listing
from test_fuzz_cli import GAMES, check, policies, sizes, texts, values

FAKE_TUNE = ("--trials", "6", "--games", "400", "--validation-games", "400", "-q")


@pytest.mark.parametrize("args, expect", [
    (("nogame",), "unknown game 'nogame'"),
    (("fakedice", "--players", "7"), "--players: fakedice is for 1-4 players, not 7"),
    (("fakedice", "--players", "1-2"), "--players: solo (1) has no fair share"),
    (("fakedice", "--players", "two"), "--players: cannot read 'two' as player counts"),
    (("fakedice", "--params", "nope"), "unknown tunable policy parameter 'nope' of fakedice; "
                                       "valid: threshold"),
    (("rattlebones", "--params", "v_points"), "'v_points' cannot be tuned (a list"),
    (("fakedice", "--params", ","), "no parameter named; valid: threshold"),
    (("fakedice", "--policy", "smart"), "--policy smart: fakedice: unknown policy 'smart'"),
    (("fakedice", "--policy", "greedy:threshold=99"), "out of range (valid: 0..30)"),
    (("fakedice", "--field", "smart"), "--field smart: fakedice: unknown policy 'smart'"),
    (("fakedice", "--players", "1", "--field", "random"), "a solo game has no other seats"),
    (("fakedice", "--trials", "0"), "--trials: must be a whole number in 1..100,000"),
    (("fakedice", "--games", "0"), "--games: must be a whole number in 1.."),
    (("fakedice", "--validation-games", "0"), "--validation-games: must be a whole number"),
    (("fakedice", "--seed", "-1"), "--seed -1 is out of range"),
    (("fakedice", "--step", "0"), "--step: must be a fraction of each range in (0, 1]"),
    (("fakedice", "--set", "nope=1"), "unknown parameter 'nope'"),
    (("fakedice", "--set", "dice=9"), "parameter 'dice' = 9 is out of range (valid: 1..5)"),
    (("fakedice", "--variant", "hard"), "variant 'hard' is for 1-1 players, not 4"),
    (("rattlebones", "--players", "2", "--policy", "search"), "a search policy has no"),
    (("fakedice", "--policy", "@missing.toml"), "policy preset missing.toml: cannot read it"),
    (("fakedice", "--policy", "@a\x00b"), "cannot read it"),
    (("fakedice", "--policy", "@."), "cannot read it"),
])
def test_tune_bad_input_exit_2_one_line_no_preset(cli, tmp_path, monkeypatch, args, expect):
    monkeypatch.chdir(tmp_path)
    r = cli("tune", args[0], *FAKE_TUNE, *args[1:])  # the case's options win
    assert r.exit_code == 2, r.output
    assert expect in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert listing(tmp_path) == []


def _preset(path, game="fakedice", policy="greedy", params=None):
    doc = {"game": game, "policy": policy, "players": 2, "variant": "base",
           "params": {"threshold": 5} if params is None else params}
    path.write_text(presets.preset_toml(doc))
    return path


@pytest.mark.parametrize("write, expect", [
    (lambda p: _preset(p, game="rattlebones"), "is for the game 'rattlebones', not 'fakedice'"),
    (lambda p: _preset(p, params={"nope": 1}), "unknown policy parameter 'nope'"),
    (lambda p: _preset(p, params={"threshold": 31}), "out of range (valid: 0..30)"),
    (lambda p: p.write_text("game = 'fakedice'\npolicy = 'greedy'\n"), "needs `params`"),
    (lambda p: p.write_text("game = \n"), "not valid TOML"),
    (lambda p: p.write_bytes(b"game = '\xff'"), "not valid TOML"),
])
def test_bad_preset_in_run_exit_2(cli, tmp_path, write, expect):
    """A preset of another game, with an unknown or out-of-range value, or malformed: one
    message, exit 2, nothing written to the store."""
    write(tmp_path / "p.toml")
    store = tmp_path / "store"
    r = cli("run", "fakedice", "--players", "2", "--games", "10", "--policy",
            f"@{tmp_path / 'p.toml'}", "--store", store, "-q")
    assert r.exit_code == 2, r.output
    assert expect in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert listing(store) == []


def test_preset_toml_round_trip_keeps_every_value_exactly(tmp_path):
    """Floats (by repr), ints, bools, choices and lists come back from the file as the same
    policy values as the written ones."""
    spec = registry.make("rattlebones")
    values = {"w_points": 3.0 + 1e-9, "keep_moves": 3, "gains_first": False,
              "monkey_tiebreak": "frontmost", "v_points": (1.5, 2, 3.25)}
    path = _preset(tmp_path / "rb.toml", game="rattlebones", params=values)
    canonical = presets.expand(f"@{path}", "rattlebones")
    assert canonical == presets.policy_string("greedy", values)
    name, got = spec.policy_values(f"@{path}")
    assert name == "greedy" and {k: got[k] for k in values} == values
    assert presets.expand("greedy:w_points=2", "rattlebones") == "greedy:w_points=2"


@pytest.mark.parametrize("game", ["rattlebones", "cupcake_empire", "waggle_dance"])
def test_shipped_expert_is_its_tuned_preset_file(game):
    """The ``expert`` a game ships is the preset ``playtest tune`` wrote (its ``presets/``
    folder, with the command in its provenance): the named policy plays exactly the file's
    values over greedy, every tuned parameter is in the file, and the file is this game's."""
    spec = registry.make(game)
    path = importlib.import_module(f"sim.games.{game}.rules").PRESETS_DIR / "expert.toml"
    doc = tomllib.loads(path.read_text())
    assert doc["game"] == game and doc["policy"] == "greedy"
    assert set(doc["provenance"]["tuned"]) == set(doc["params"])
    assert doc["provenance"]["command"].startswith(f"playtest tune {game} ")
    assert spec.policy_values("expert")[1] == spec.policy_values(f"@{path}")[1]
    assert spec.policy_values("expert")[1] != spec.policy_values("greedy")[1]


def test_a_shipped_preset_must_be_of_its_game_and_base_policy(tmp_path):
    path = _preset(tmp_path / "x.toml", game="rattlebones", params={"w_points": 2.0})
    assert presets.shipped(path, "rattlebones") == {"w_points": 2.0}
    with pytest.raises(SpecError, match="a shipped preset of cupcake_empire must be over greedy"):
        presets.shipped(path, "cupcake_empire")
    with pytest.raises(SpecError, match="must be over salesman"):
        presets.shipped(path, "rattlebones", base="salesman")


def test_tuned_preset_round_trips_through_policy_option(cli, tmp_path):
    """The preset `tune` writes plays in `run` (every seat, or one seat) exactly as its plain
    NAME:k=v string does, and the store records the plain values, not the file."""
    out = tmp_path / "t.toml"
    r = cli("tune", "fakedice", "--players", "2", "--policy", "greedy:threshold=0", "--out", out,
            *FAKE_TUNE)
    assert r.exit_code == 0, r.output
    doc = tomllib.loads(out.read_text())
    plain = presets.policy_string(doc["policy"], doc["params"])
    assert doc["game"] == "fakedice" and doc["players"] == 2 and "threshold" in doc["params"]
    assert f"policy: {plain}" in r.stdout

    def run(store, *policy):
        r = cli("run", "fakedice", "--players", "2", "--games", "300", "--seed", "5", *policy,
                "--store", tmp_path / store, "--experiment", "e", "-q")
        assert r.exit_code == 0, r.output
        return content(tmp_path / store, "seats")

    assert run("a", "--policy", f"@{out}").equals(run("b", "--policy", plain))
    assert run("c", "--seat-policy", f"1=@{out}").equals(run("d", "--seat-policy", f"1={plain}"))
    manifest = next((tmp_path / "a" / "experiments").glob("*.json")).read_text()
    assert plain in manifest


def test_tune_is_deterministic_and_the_start_is_trial_zero():
    """Same request and seed, same tuned values and figures; the first trial is the start
    policy, so the best training objective is never below it."""
    spec = registry.make("fakedice")

    def once():
        setup = tune.make_setup(spec, 3, None, "greedy:threshold=0", None, None, 8, 300, 300, 4)
        return tune.tune(setup)

    a, b = once(), once()
    assert a.best == b.best and a.history == b.history
    assert a.validation[3]["gain"] == b.validation[3]["gain"]
    assert a.history[0] == a.train_start and a.train_best == max(a.history) >= a.train_start


def test_tune_several_player_counts_tunes_one_policy_for_all(cli, tmp_path):
    """--players 2-3: the objective is the mean over the counts of the seat win share times n
    (its ratio to the fair share), each count on its own training games; validation, the
    preset's players and provenance and the command go by count."""
    spec = registry.make("fakedice")
    setup = tune.make_setup(spec, (3, 2), None, "greedy:threshold=0", None, "threshold", 4, 300,
                            300, 4)
    assert setup.counts == (2, 3) and setup.players_text == "2,3"
    assert setup.total_games() == 4 * (2 * 150 + 3 * 100) + 2 * (2 * 150 + 3 * 100)
    res = tune.tune(setup)
    shares = [tune.seat_shares(tune.seat_arms(setup, setup.start, n), 4, 0,
                               setup.games_per_seat(n)).mean() for n in (2, 3)]
    assert res.train_start == pytest.approx((2 * shares[0] + 3 * shares[1]) / 2)
    assert set(res.validation) == {2, 3} and res.validation[3]["tuned"].n == 3 * 100
    prov = tune.preset_document(res)["provenance"]
    assert prov["validation_games_per_seat"] == {"2p": 150, "3p": 100}
    out = tmp_path / "t.toml"
    r = cli("tune", "fakedice", "--players", "2-4", "--policy", "greedy:threshold=0", "--out",
            out, *FAKE_TUNE)
    assert r.exit_code == 0, r.output
    doc = tomllib.loads(out.read_text())
    assert doc["players"] == [2, 3, 4] and "--players 2-4" in doc["provenance"]["command"]
    assert set(doc["provenance"]["validation_gain"]) == {"2p", "3p", "4p"}
    assert "validation (4 players, " in r.stdout and "divided by its fair share" in r.stdout


def test_tune_plays_the_rule_tweaks(cli, tmp_path):
    """--set applies to every game of the tuning (the objective changes with it) and is
    recorded in the preset's provenance and command."""
    spec = registry.make("fakedice")
    args = (spec, 2, None, "greedy:threshold=0", "random", "threshold", 3, 400, 400, 1, 0.1)
    plain, tweaked = (tune.tune(tune.make_setup(*args, tw)) for tw in ((), (("dice", "4"),)))
    assert plain.train_start != tweaked.train_start
    out = tmp_path / "t.toml"
    r = cli("tune", "fakedice", "--players", "2", "--set", "dice=4", "--out", out, *FAKE_TUNE)
    assert r.exit_code == 0, r.output
    prov = tomllib.loads(out.read_text())["provenance"]
    assert prov["rule_tweaks"] == {"dice": "4"} and "--set dice=4" in prov["command"]


def test_tune_solo_objective_is_the_win_probability():
    """Solo: no field; the objective is seat 0's win probability, and the validation games
    follow the training ones (disjoint game indices)."""
    spec = registry.make("fakedice")
    setup = tune.make_setup(spec, 1, "hard", "greedy:threshold=0", None, "threshold", 5, 500,
                            700, 2)
    res = tune.tune(setup)
    start = tune.seat_shares(tune.seat_arms(setup, setup.start, 1), 2, 0, 500)
    assert res.train_start == pytest.approx(start.mean())
    doc = tune.preset_document(res)
    assert doc["provenance"]["validation_first_index"] == 500
    assert res.validation[1]["tuned"].n == res.validation[1]["start"].n == 700


def test_trial_zero_is_the_start_exactly_even_off_the_rounding_grid(monkeypatch):
    """A start value with more digits than tuned floats keep is played as given in trial 0;
    the sampler's later values are rounded to 4 significant digits."""
    played = []
    real = tune.seat_shares

    def recording(arms, seed, first, n):
        played.append(arms[0].policies[0])  # seat 0 of the first arm: the candidate
        return real(arms, seed, first, n)

    monkeypatch.setattr(tune, "seat_shares", recording)
    spec = registry.make("rattlebones")
    setup = tune.make_setup(spec, 2, None, "greedy:w_points=1.234567", None, "w_points", 4,
                            100, 100, 1)
    tune.tune(setup)
    assert played[0] == "greedy:w_points=1.234567"
    assert all(len(p.partition("=")[2].replace(".", "").lstrip("0")) <= 4 for p in played[1:-2])


def test_tunable_params_default_every_number_with_a_range():
    spec = registry.make("rattlebones")
    names = [p.name for p in tune.tunable_params(spec, None)]
    assert "w_points" in names and "keep_moves" in names
    assert not {"v_points", "gains_first", "monkey_tiebreak"} & set(names)
    chosen = tune.tunable_params(spec, "gains_first,w_points,gains_first")
    assert [p.name for p in chosen] == ["gains_first", "w_points"]
    with pytest.raises(SpecError, match="did you mean 'w_points'"):
        tune.tunable_params(spec, "w_point")


@pytest.mark.slow
def test_tuning_improves_a_bad_rattlebones_preset_on_held_out_games(cli, tmp_path):
    """A greedy that values the point faces like pips (w_points 0.2: the novice's flaw, worse)
    and lets dice lose every number face (keep_moves 0), tuned in one seat against itself for
    12 trials of 2,000 games, wins clearly more than its fair share on 6,000 held-out games,
    and the paired gain's 95% interval lies above 0."""
    out = tmp_path / "rb.toml"
    bad = "greedy:w_points=0.2,keep_moves=0"
    r = cli("tune", "rattlebones", "--players", "2", "--policy", bad,
            "--params", "w_points,keep_moves", "--trials", "12", "--games", "2000",
            "--validation-games", "6000", "--seed", "3", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    prov = tomllib.loads(out.read_text())["provenance"]
    gain, rate = prov["validation_gain"], prov["validation_win_rate"]
    assert gain["low"] > 0.05, prov
    assert rate["low"] > 0.55, prov
    assert prov["validation_win_rate_start"]["estimate"] == pytest.approx(0.5, abs=0.01)
    assert "better than the start" in r.stdout


def test_preset_works_in_replay_ladder_and_tune(cli, tmp_path):
    """`replay` shows the same game with @FILE as with the plain string; `ladder` takes a
    preset as a rung; `tune` starts from one."""
    path = _preset(tmp_path / "p.toml", params={"threshold": 9})
    replay = [cli("replay", "fakedice", "--players", "3", "--seed", "2", "--policy", p)
              for p in (f"@{path}", "greedy:threshold=9")]
    assert replay[0].exit_code == 0 and replay[0].stdout == replay[1].stdout
    r = cli("ladder", "fakedice", "--players", "2", "--policies", f"random,@{path}",
            "--games", "50", "--store", tmp_path / "s", "--out", tmp_path / "rep", "-q")
    assert r.exit_code == 0, r.output
    r = cli("tune", "fakedice", "--players", "2", "--policy", f"@{path}", "--out",
            tmp_path / "again.toml", *FAKE_TUNE)
    assert r.exit_code == 0, r.output
    start = tomllib.loads((tmp_path / "again.toml").read_text())["provenance"]["start"]
    assert start == "greedy:threshold=9"


def test_preset_in_a_toml_spec_arm(cli, tmp_path):
    """`policy = "@FILE"` and `seat_policy = { 0 = "@FILE" }` in an experiment spec play the
    preset's plain values (the path is read from the current directory)."""
    path = _preset(tmp_path / "p.toml", params={"threshold": 9})
    spec = tmp_path / "spec.toml"
    spec.write_text(f"""[experiment]
seed = 3
games = 200
game = "fakedice"
[[arms]]
name = "preset"
players = 2
seat_policy = {{ 0 = "@{path}" }}
[[arms]]
name = "plain"
players = 2
seat_policy = {{ 0 = "greedy:threshold=9" }}
""")
    store = tmp_path / "store"
    r = cli("run", "--spec", spec, "--store", store, "-q")
    assert r.exit_code == 0, r.output
    seats = content(store, "seats")
    preset, plain = (seats.filter(seats["arm"] == a).drop("arm") for a in ("preset", "plain"))
    assert preset.equals(plain)


TUNE_OPTIONS = [st.tuples(st.just(flag), strategy) for flag, strategy in (
    ("--players", st.one_of(values, st.sampled_from(["1", "2", "2-3"]))),
    ("--variant", st.one_of(st.sampled_from(["base", "many", "hard"]), texts)),
    ("--policy", policies), ("--field", policies),
    ("--params", st.one_of(st.sampled_from(["threshold", "threshold,nope", "w_points"]), texts)),
    ("--trials", sizes), ("--games", sizes), ("--validation-games", sizes),
    ("--step", st.one_of(values, st.sampled_from(["0.05", "1", "1.5"]))), ("--seed", values))]


@hsettings(max_examples=40, deadline=None, derandomize=True,
           suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_tune_options_exit_0_or_2_and_write_no_preset_on_2(cli, tmp_path_factory, data):
    """Random strings and numbers for every option of `tune`: exit 0 or 2 with a message, never
    a traceback, and no preset written on exit 2 (test_fuzz_cli's check)."""
    out_dir = tmp_path_factory.mktemp("tune_fuzz")
    game = data.draw(st.one_of(st.sampled_from(GAMES), texts), "game")
    picked = data.draw(st.lists(st.one_of(*TUNE_OPTIONS), max_size=4), "options")
    argv = ["tune", game, "--quiet", "--trials", "2", "--games", "12", "--validation-games",
            "12", "--out", out_dir / "t.toml"]
    for flag, value in picked:
        argv += [flag, value]
    check(cli, out_dir, argv)
