"""compare, sweep and plan grade balance by the game's own factor: the Flower Shop's initiative
dice, Rattlebones' seats. Synthetic stores with a planted effect on one die (or seat); every
study report opens with its verdict."""
import numpy as np
import polars as pl

from analysis import db, studies
from analysis.reports import write_report, write_study_report
from analysis_synth import arm_manifest, make_multiplayer_arm, write_arm, write_manifest

N_GAMES = 3000


def _deal(rng, n_games, n_players):
    """Initiative dice of the seats: n_players of the 4 dice, dealt at random."""
    return np.array([rng.permutation(4)[:n_players] for _ in range(n_games)])


def _winners(rng, dice, **handicap):
    """One winner per game, uniform; the holder of ``handicap_die`` (or ``handicap_seat``)
    loses half of its wins to the next seat (:func:`_handicap`)."""
    return _handicap(rng, dice, rng.integers(0, dice.shape[1], len(dice)), **handicap)


def _handicap(rng, dice, winners, handicap_die=None, handicap_seat=None):
    """``winners`` with half the wins of the handicapped die's holder (or seat) moved on."""
    coin = rng.random(len(winners)) < 0.5
    if handicap_die is not None:
        hit = (dice[np.arange(len(winners)), winners] == handicap_die) & coin
    else:
        hit = (winners == handicap_seat) & coin
    return np.where(hit, (winners + 1) % dice.shape[1], winners)


def _arm(store, exp, arm, game, dice, winners):
    n = dice.shape[1]
    games, seats = make_multiplayer_arm(exp, arm, n, [[int(x)] for x in winners], game=game)
    if game == "flower_shop":
        seats = seats.with_columns(initiative_die=pl.Series(dice.reshape(-1)))
    write_arm(store, exp, arm, game, games, seats)


def _first_section(path) -> str:
    html = path.read_text()
    body = html[html.index("<body>"):]
    return body[:body.index("</section>")]


def _compare_store(tmp_path, game, **handicap):
    rng = np.random.default_rng(3)
    store, exp, n = tmp_path / game, "cmp", 3
    dice = _deal(rng, N_GAMES, n)
    base = rng.integers(0, n, N_GAMES)
    _arm(store, exp, "baseline-p3", game, dice, base)
    # the tweak replays the same games (same seeds): only the handicapped holder's wins move
    _arm(store, exp, "tweak-p3", game, dice, _handicap(rng, dice, base, **handicap))
    write_manifest(store, exp, [arm_manifest("baseline-p3", game, n),
                                arm_manifest("tweak-p3", game, n, tweaks={"x": 1})],
                   spec={"kind": "compare", "game": game, "set": ["x=1"],
                         "pairs": [{"n_players": n, "baseline": "baseline-p3",
                                    "tweak": "tweak-p3"}]})
    return store, exp


def test_flower_shop_compare_detects_a_planted_die_effect(tmp_path):
    store, exp = _compare_store(tmp_path, "flower_shop", handicap_die=3)
    con = db.connect(store)
    tab = studies.compare_frames(studies.arm_games(con, exp, "tweak-p3"),
                                 studies.arm_games(con, exp, "baseline-p3")).set_index("metric")
    die = tab.loc[[f"win_rate_initiative_die{v}" for v in range(4)]]
    assert list(die["label"]) == ["win rate, I-A", "win rate, I-B", "win rate, I-C",
                                  "win rate, I-D"]
    assert die.loc["win_rate_initiative_die3", "verdict"] == "lower"
    assert die.loc["win_rate_initiative_die3", "high"] < -0.1  # half of 1/3 moved away
    assert "first_player_advantage" not in tab.index  # the seat is not this game's factor
    first = _first_section(write_report(store, exp, tmp_path / "out"))
    assert 'id="verdict"' in first and "x=1, 3 players, under greedy (3,000 paired games)" in first
    assert "win rate, I-D" in first and "<img" in first


def test_rattlebones_compare_detects_a_planted_seat_effect(tmp_path):
    store, exp = _compare_store(tmp_path, "rattlebones", handicap_seat=0)
    con = db.connect(store)
    tab = studies.compare_frames(studies.arm_games(con, exp, "tweak-p3"),
                                 studies.arm_games(con, exp, "baseline-p3")).set_index("metric")
    assert tab.loc["win_rate_seat0", "verdict"] == "lower"
    assert tab.loc["first_player_advantage", "verdict"] == "lower"
    assert not tab.index.str.startswith("win_rate_initiative").any()


def _sweep_store(tmp_path, game, **handicap):
    rng = np.random.default_rng(5)
    store, exp, n = tmp_path / game, "swp", 3
    dice = _deal(rng, N_GAMES, n)
    points = []
    for x, planted in ((1, False), (2, True)):
        arm = f"x{x}-p3"
        w = _winners(rng, dice, **handicap) if planted else rng.integers(0, n, N_GAMES)
        _arm(store, exp, arm, game, dice, w)
        points.append({"arm": arm, "n_players": n, "values": {"x": x}})
    write_manifest(store, exp, [arm_manifest(p["arm"], game, n) for p in points],
                   spec={"kind": "sweep", "game": game, "tolerance": 0.05,
                         "params": [{"name": "x", "values": [1, 2]}], "points": points})
    return store, exp


def test_flower_shop_sweep_grades_the_dice(tmp_path):
    store, exp = _sweep_store(tmp_path, "flower_shop", handicap_die=3)
    path = write_report(store, exp, tmp_path / "out")
    first = _first_section(path)
    assert "balanced by initiative die" in first
    assert "every initiative die wins within ±5 points of 1/3" in first and "x=1" in first
    balanced, _, rest = first.partition("at:")[2].partition("Unbalanced")
    assert "x=2" not in balanced and "x=2" in rest  # the planted point fails, in those words
    con = db.connect(store)
    from analysis.reports import sweep_table
    table = sweep_table(con, exp, db.load_manifest(store, exp)["spec"]).set_index("x")
    assert {"I-A", "I-D"} <= set(table.columns)
    assert table.loc[1, "balance"] == "balanced" and table.loc[2, "balance"] == "unbalanced"


def test_rattlebones_sweep_grades_the_seats(tmp_path):
    store, exp = _sweep_store(tmp_path, "rattlebones", handicap_seat=1)
    con = db.connect(store)
    from analysis.reports import sweep_table
    table = sweep_table(con, exp, db.load_manifest(store, exp)["spec"]).set_index("x")
    assert {"seat 0", "seat 1", "seat 2"} <= set(table.columns)
    assert table.loc[2, "balance"] == "unbalanced"
    assert "every seat wins within" in _first_section(write_report(store, exp, tmp_path / "o"))


def test_flower_shop_plan_rows_are_the_dice(tmp_path):
    store, exp = _compare_store(tmp_path, "flower_shop", handicap_die=3)
    con = db.connect(store)
    plan = studies.plan_table(studies.arm_games(con, exp, "baseline-p3"), 0.02,
                              studies.arm_games(con, exp, "tweak-p3")).set_index("metric")
    assert list(plan.index) == [f"win_rate_initiative_die{v}" for v in range(4)]
    # each die is held in about 3/4 of the games: the pilot counts only those
    assert (plan["pilot_games"] < N_GAMES).all() and (plan["pilot_games"] > N_GAMES / 2).all()
    assert plan.loc["win_rate_initiative_die3", "pilot_diff"] < -0.1
    path = write_study_report(store, exp, tmp_path / "out", plan={"delta": 0.02})
    first = _first_section(path)
    assert 'id="verdict"' in first and "I-D" in first and "per arm paired" in first
