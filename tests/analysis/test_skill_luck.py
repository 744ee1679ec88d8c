"""How much of a game is skill (analysis/ladder.py): the skill-chain length from ratings, the
share of games decided by skill and the solo skill score, on hand-built ratings and win rates
with known values; then the figures of a ladder summary and their sentences."""
import math

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep

from analysis import ladder, stats
from analysis_synth import arm_manifest, make_multiplayer_arm, write_arm, write_manifest

Z = 1.959963984540054
LINK = stats.ELO_PER_LOGIT * math.log(1.5)  # Elo points of one 60% link


def _ratings(elo, se, anchor=0, names=("random", "greedy", "expert"), adjusted=False):
    r, s = np.asarray(elo, float), np.asarray(se, float)
    return stats.Ratings(list(names), r, r - Z * s, r + Z * s, s, anchor, 0.95, adjusted,
                         "cluster-robust")


def test_skill_chain_counts_60_percent_links():
    # expert is exactly 3 links above random: log-odds 3 ln 1.5, so it would win
    # 1.5**3 / (1 + 1.5**3) = 77.1% of two-way contests
    rt = _ratings([0.0, 1.0 * LINK, 3.0 * LINK], [0.0, 20.0, 35.2])
    c = ladder.skill_chain(rt, 0)
    assert c["best"] == "expert" and c["random"] == "random"
    assert c["estimate"] == pytest.approx(3.0, abs=1e-12)
    assert c["elo"] == pytest.approx(3 * 70.4365, abs=1e-3)
    assert (c["low"], c["high"]) == pytest.approx((3 - Z * 35.2 / LINK, 3 + Z * 35.2 / LINK))
    assert rt.expected(2, 0, 2) == pytest.approx(1.5 ** 3 / (1 + 1.5 ** 3))
    # anchored at the best rung instead: the gap's error is the random rung's
    rt2 = _ratings([-2.0 * LINK, -1.0 * LINK, 0.0], [35.2, 20.0, 0.0], anchor=2)
    c2 = ladder.skill_chain(rt2, 0)
    assert (c2["estimate"], c2["low"], c2["high"]) == pytest.approx((2, 2 - Z * 35.2 / LINK,
                                                                     2 + Z * 35.2 / LINK))
    with pytest.raises(ValueError, match="anchor"):
        ladder.skill_chain(_ratings([0, LINK, 2 * LINK], [0, 1, 1], anchor=1), 0, 2)


def test_skill_share_is_the_lottery_reading_of_the_win_rate():
    # 3 players: a seat that wins 1/2 won 1/4 of games by skill and 3/4 by a fair lottery:
    # 1/4 + 3/4 * 1/3 = 1/2
    s = ladder.skill_share(0.5, 0.45, 0.55, 3)
    assert s["estimate"] == pytest.approx(0.25, abs=1e-12)
    assert (s["low"], s["high"]) == pytest.approx((0.175, 0.325))
    assert ladder.skill_share(0.25, 0.2, 0.3, 4)["estimate"] == 0.0  # the fair share: luck
    assert ladder.skill_share(1.0, 1.0, 1.0, 2)["estimate"] == 1.0  # always wins: all skill


def test_solo_skill_score_and_its_interval():
    s = ladder.solo_skill_score(40, 400, 160, 400)  # 10% against 40%
    assert s["estimate"] == pytest.approx(0.75, abs=1e-12)
    assert s["low"] < 0.75 < s["high"] < 1
    # the interval of the ratio agrees with statsmodels' score interval for a ratio of
    # independent proportions to within a few thousandths
    lo, hi = confint_proportions_2indep(40, 400, 160, 400, compare="ratio", method="score")
    assert (1 - s["high"], 1 - s["low"]) == pytest.approx((lo, hi), abs=0.01)
    # random play never wins: the score is 1, and the interval still has width
    z = ladder.solo_skill_score(0, 300, 90, 300)
    assert z["estimate"] == 1.0 and z["high"] == 1.0 and 0.9 < z["low"] < 0.99
    assert math.isnan(ladder.solo_skill_score(0, 100, 0, 100)["estimate"])


def _games(rates: dict, n_players: int, games: int = 800, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for (a, b), p in rates.items():
        for seat in range(n_players):
            w = (rng.random(games) < p).astype(float)
            rows += [{"arm": f"{a}-{b}-{seat}", "a": a, "b": b, "seat": seat, "master_seed": 1,
                      "game_index": i, "n_players": n_players, "a_share": w[i],
                      "b_share": 1.0 - w[i]} for i in range(games)]
    return pd.DataFrame(rows)


def test_skill_and_luck_of_a_ladder():
    rungs = ["random", "greedy", "expert"]
    g = _games({("greedy", "random"): 0.45, ("expert", "random"): 0.6,
                ("expert", "greedy"): 0.45}, 3)
    pairs = ladder.pair_table(g, rungs, 3)
    rt = ladder.fit_ratings(g, rungs, 3)
    sk = ladder.skill_and_luck(g, rungs, 3, pairs, rt)
    c, s = sk["chain"], sk["share"]
    assert c["best"] == "expert" and c["random"] == "random" and not sk["notes"]
    i = rungs.index("expert")
    assert c["estimate"] == pytest.approx(rt.rating[i] / LINK)
    row = pairs[(pairs["a"] == "expert") & (pairs["b"] == "random")].iloc[0]
    assert s["estimate"] == pytest.approx((row["rate"] - 1 / 3) / (2 / 3))
    assert s["games"] == 3 * 800 and s["low"] < s["estimate"] < s["high"]
    # random not the lowest rung: the ratings are refitted anchored at it, same chain
    order = ["greedy", "random", "expert"]
    rt2 = ladder.fit_ratings(g, order, 3)
    sk2 = ladder.skill_and_luck(g, order, 3, ladder.pair_table(g, ["random", "greedy",
                                                                    "expert"], 3), rt2)
    assert sk2["chain"]["estimate"] == pytest.approx(c["estimate"], rel=1e-6)
    assert sk2["chain"]["high"] - sk2["chain"]["low"] == pytest.approx(c["high"] - c["low"],
                                                                        rel=1e-6)


@pytest.mark.filterwarnings("ignore::statsmodels.tools.sm_exceptions.PerfectSeparationWarning")
def test_skill_share_without_a_best_versus_random_pair_says_so():
    """A search rung tops the ladder, played against the top rung only: the share comes from
    the best-rated rung that played random, and a note names both."""
    rungs = ["random", "expert", "search"]
    g = _games({("expert", "random"): 0.7, ("search", "expert"): 0.6}, 2)
    pairs = ladder.pair_table(g, rungs, 2)
    sk = ladder.skill_and_luck(g, rungs, 2, pairs, ladder.fit_ratings(g, rungs, 2))
    assert sk["chain"]["best"] == "search" and sk["share"]["best"] == "expert"
    assert any("search, did not play random" in n for n in sk["notes"])
    lad = ladder.Ladder(rungs, 2, pairs, pairs, None, None, "", True, sk)
    lines = ladder.skill_luck_lines(lad)
    assert lines[0].startswith("Skill chain from random to search: ")
    assert lines[1].startswith("Share of games decided by skill (expert against random seats): "
                               f"{100 * sk['share']['estimate']:.1f}% (95% CI ")
    assert "did not play random" in lines[-1]


def test_no_random_rung_and_solo_ladders():
    rungs = ["novice", "expert"]
    g = _games({("expert", "novice"): 0.7}, 2)
    sk = ladder.skill_and_luck(g, rungs, 2, ladder.pair_table(g, rungs, 2),
                               ladder.fit_ratings(g, rungs, 2))
    assert sk["chain"]["random"] == "novice" and "No rung plays at random" in sk["notes"][0]
    table = pd.DataFrame({"policy": ["random", "greedy", "expert"], "games": [400] * 3,
                          "wins": [40.0, 120.0, 160.0], "rate": [0.1, 0.3, 0.4],
                          "low": [0.0] * 3, "high": [1.0] * 3})
    solo = ladder.solo_skill(table, ["random", "greedy", "expert"])
    assert solo["solo"]["best"] == "expert" and solo["solo"]["estimate"] == pytest.approx(0.75)
    lad = ladder.Ladder(["random", "greedy", "expert"], 1, table, table, None, None, "", True,
                        solo)
    assert ladder.skill_luck_lines(lad)[0].startswith(
        "Solo skill score (random against expert): 0.75 (95% CI ")
    none = ladder.solo_skill(table, ["novice", "greedy", "expert"])
    assert none["solo"] is None and "no rung plays at random" in none["notes"][0]


def _ladder_store(tmp_path, rungs, players, rates, games=300, seed=0):
    """A ladder experiment in the store's layout (analysis_synth): for every pair of rungs
    (b below a), one arm per seat of a, a's seat winning with the planted rate."""
    rng = np.random.default_rng(seed)
    store = tmp_path / "store"
    arms, matches = [], []
    for i, b in enumerate(rungs):
        for a in rungs[i + 1:]:
            for seat in range(players):
                name = f"{a}-vs-{b}-seat{seat}"
                other = (seat + 1) % players
                winners = [[seat] if rng.random() < rates[(a, b)] else [other]
                           for _ in range(games)]
                pol = [a if s == seat else b for s in range(players)]
                g, s = make_multiplayer_arm("lad", name, players, winners, policies=pol)
                write_arm(store, "lad", name, "rattlebones", g, s)
                arms.append(arm_manifest(name, "rattlebones", players, policies=pol))
                matches.append({"arm": name, "a": a, "b": b, "seat": seat})
    spec = {"kind": "ladder", "game": "rattlebones", "players": players, "variant": None,
            "set": [], "rungs": rungs, "games": games, "seed": 7, "search_games": None,
            "components": None, "matches": matches}
    write_manifest(store, "lad", arms, n_games=games, spec=spec)
    return store


def test_the_ladder_report_shows_how_much_is_skill(tmp_path):
    from analysis import db, reports

    rungs = ["random", "greedy", "expert"]
    store = _ladder_store(tmp_path, rungs, 2, {("greedy", "random"): 0.7,
                                               ("expert", "random"): 0.8,
                                               ("expert", "greedy"): 0.6})
    con = db.connect(store)
    try:
        lad = ladder.summarize(con, "lad", db.load_manifest(store, "lad")["spec"])
    finally:
        con.close()
    sk = lad.skill_luck
    assert sk["chain"]["best"] == "expert" and sk["share"]["best"] == "expert"
    assert sk["share"]["estimate"] == pytest.approx(2 * lad.pairs.set_index(["a", "b"]).loc[
        ("expert", "random"), "rate"] - 1)
    rows = reports.ladder_rows(lad)
    assert [r["measure"] for r in rows["skill_luck"]] == [
        "Skill-chain length", "Share of games decided by skill"]
    assert rows["skill_luck_text"] == ladder.skill_luck_lines(lad)
    html = reports.write_study_report(store, "lad", tmp_path / "out").read_text()
    part = html[html.index('<section id="skill-luck">'):]
    part = part[:part.index("</section>")]
    for phrase in ("How much of the game is skill?", "Skill-chain length", "random → expert",
                   rows["skill_luck"][0]["value"], rows["skill_luck"][1]["ci"],
                   "Characteristics of Games", "European Economic Review"):
        assert phrase in part, phrase


def test_a_solo_ladder_report_gives_the_solo_skill_score(tmp_path):
    from analysis import db, reports

    rng = np.random.default_rng(2)
    store, arms, matches = tmp_path / "store", [], []
    for rung, p in (("random", 0.0), ("greedy", 0.3), ("expert", 0.5)):
        winners = [[0] if rng.random() < p else [] for _ in range(400)]
        g, s = make_multiplayer_arm("solo", rung, 1, winners, policies=[rung])
        write_arm(store, "solo", rung, "rattlebones", g, s)
        arms.append(arm_manifest(rung, "rattlebones", 1, policies=[rung]))
        matches.append({"arm": rung, "a": rung, "b": None, "seat": 0})
    write_manifest(store, "solo", arms, n_games=400, spec={
        "kind": "ladder", "game": "rattlebones", "players": 1, "rungs": ["random", "greedy",
                                                                          "expert"],
        "games": 400, "seed": 7, "matches": matches})
    con = db.connect(store)
    try:
        lad = ladder.summarize(con, "solo", db.load_manifest(store, "solo")["spec"])
    finally:
        con.close()
    o = lad.skill_luck["solo"]
    assert o["best"] == "expert" and o["w_random"] == 0.0 and o["estimate"] == 1.0
    assert 0.9 < o["low"] < 1.0 == o["high"]
    html = reports.write_study_report(store, "solo", tmp_path / "out").read_text()
    part = html[html.index('<section id="skill-luck">'):]
    assert "Solo skill score" in part[:part.index("</section>")]
