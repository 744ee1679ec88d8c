"""analysis.insights on hand-built traces: every expected value is worked out by hand in the
comments next to the tables (no simulation, no Numba)."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analysis import insights as ins
from analysis import stats
from analysis.plots import comeback_heatmap_plot, hazard_plot

ID = dict(experiment="e", arm="p2", game="toy")

# ---- three traced 2-player games -------------------------------------------------------------
# Scores after each round as (seat 0, seat 1); leaders in braces; * = lead change.
#
# A (seed 1, index 0), 5 rounds, winner seat 1 (final 7 : 9)
#   r1 (3, 1) {0}     r2 (3, 4) {1} *   r3 (6, 4) {0} *   r4 (6, 6) {0,1} *   r5 (7, 9) {1} *
#   lead changes 4 of 4 -> rate 1
#   winner's gap to the top: 2, 0, 2, 0, 0 -> drama deficit 4/5 = 0.8, behind after 2/5 rounds
#   last round behind: r3 -> leads (jointly at r4) from r4 on -> decisiveness 4/5 = 0.8
# B (seed 1, index 1), 4 rounds, winner seat 0 (final 8 : 5)
#   r1 (2, 0) {0}     r2 (4, 1) {0}     r3 (5, 5) {0,1} * r4 (8, 5) {0} *
#   rate 2/3; gaps 0, 0, 0, 0 -> deficit 0, behind 0; leads from r1 -> 1/4 = 0.25
# C (seed 1, index 2), 3 rounds, winner seat 0 (final 9 : 6)
#   r1 (0, 5) {1}     r2 (2, 6) {1}     r3 (9, 6) {0} *
#   rate 1/2; gaps 5, 4, 0 -> deficit 9/3 = 3, behind 2/3; leads from r3 -> 3/3 = 1
#
# Means over the 3 games:
#   lead change rate (1 + 2/3 + 1/2) / 3 = 13/18
#   drama deficit (0.8 + 0 + 3) / 3 = 19/15; behind share (2/5 + 0 + 2/3) / 3 = 16/45
#   decisiveness (0.8 + 0.25 + 1) / 3 = 41/60
TRACES = {  # (master_seed, game_index): [(score seat 0, score seat 1) after rounds 1..R]
    (1, 0): [(3, 1), (3, 4), (6, 4), (6, 6), (7, 9)],
    (1, 1): [(2, 0), (4, 1), (5, 5), (8, 5)],
    (1, 2): [(0, 5), (2, 6), (9, 6)],
}
WINNER = {(1, 0): 1, (1, 1): 0, (1, 2): 0}


def rounds_frame(traces: dict) -> pd.DataFrame:
    rows = []
    for (seed, idx), rs in traces.items():
        for r, scores in enumerate(rs, 1):
            for seat, sc in enumerate(scores):
                rows.append({**ID, "n_players": len(scores), "master_seed": seed,
                             "game_index": idx, "round": r, "seat": seat, "score": sc,
                             "coins": 10 * r})
    return pd.DataFrame(rows)


def games_frame(rows: list[tuple]) -> pd.DataFrame:
    """rows: (seed, index, n_players, rounds, truncated, n_winners, winner_seat, end_reason)."""
    cols = ["master_seed", "game_index", "n_players", "rounds", "truncated", "n_winners",
            "winner_seat", "end_reason"]
    return pd.DataFrame([dict(zip(cols, r), **ID) for r in rows])


def seats_frame(rows: list[tuple]) -> pd.DataFrame:
    """rows: (seed, index, seat, policy, score, rank, won, win_share)."""
    cols = ["master_seed", "game_index", "seat", "policy", "score", "rank", "won", "win_share"]
    df = pd.DataFrame([dict(zip(cols, r), **ID) for r in rows])
    df["n_players"] = df.groupby(["master_seed", "game_index"])["seat"].transform("size")
    return df


def abc_tables():
    games = games_frame([(s, i, 2, len(t), False, 1, WINNER[(s, i)], "target")
                         for (s, i), t in TRACES.items()])
    seats = seats_frame([(s, i, seat, "greedy", t[-1][seat], 1 if seat == WINNER[(s, i)] else 2,
                          seat == WINNER[(s, i)], 1.0 if seat == WINNER[(s, i)] else 0.0)
                         for (s, i), t in TRACES.items() for seat in (0, 1)])
    return games, seats, rounds_frame(TRACES)


@pytest.fixture
def abc():
    return abc_tables()


def test_per_game_trace_values(abc):
    games, seats, rounds = abc
    t = ins.game_trace_table(ins.trace_cube(rounds, seats)).set_index("game_index")
    assert t["lead_changes"].tolist() == [4, 2, 1]
    assert t["lead_change_rate"].tolist() == pytest.approx([1.0, 2 / 3, 0.5])
    assert t["winner"].tolist() == [1, 0, 0]
    assert t["drama_deficit"].tolist() == pytest.approx([0.8, 0.0, 3.0])
    assert t["drama_behind_share"].tolist() == pytest.approx([0.4, 0.0, 2 / 3])
    assert t["decided_round"].tolist() == [4, 1, 3]
    assert t["decisiveness"].tolist() == pytest.approx([0.8, 0.25, 1.0])
    assert not t["decided_at_end"].any()


def test_final_scoring_decides():
    # F (seed 4, index 0): (5, 3), (6, 4): seat 0 leads after both rounds, seat 1 wins on final
    #   scoring -> the winner is behind after 2 of 2 rounds, decided at the end: r* = R = 2
    traces = {(4, 0): [(5, 3), (6, 4)]}
    seats = seats_frame([(4, 0, 0, "greedy", 6, 2, False, 0.0),
                         (4, 0, 1, "greedy", 9, 1, True, 1.0)])
    t = ins.game_trace_table(ins.trace_cube(rounds_frame(traces), seats)).iloc[0]
    assert (t.winner, t.decided_round, t.decisiveness, t.decided_at_end) == (1, 2, 1.0, True)
    assert t.drama_behind_share == 1.0 and t.drama_deficit == 2.0
    assert t.lead_changes == 0


def test_trace_sections_match_hand_values(abc):
    games, seats, rounds = abc
    out = ins.insights(games, seats, rounds)
    lc = out["lead_change_rate"]
    assert lc["n_games"] == 3 and lc["games_with_a_lead_change"] == 3
    assert lc["mean"]["estimate"] == pytest.approx(13 / 18)
    # t interval of the three per-game rates, clipped to [0, 1]
    e = stats.mean_interval([1.0, 2 / 3, 0.5])
    assert e.high > 1
    assert (lc["mean"]["low"], lc["mean"]["high"]) == pytest.approx((e.low, 1.0))
    assert out["drama"]["deficit"]["estimate"] == pytest.approx(19 / 15)
    assert out["drama"]["behind_share"]["estimate"] == pytest.approx(16 / 45)
    assert out["decisiveness"]["mean"]["estimate"] == pytest.approx(41 / 60)
    assert out["decisiveness"]["decided_at_end"] == 0


def test_comeback_table_by_hand(abc):
    # Seat-rounds before each game's last round (deficit d to the leader, win or not):
    #   A (winner 1): r1 s0 d0 L, s1 d2 W | r2 s0 d1 L, s1 d0 W | r3 s0 d0 L, s1 d2 W
    #                 r4 s0 d0 L, s1 d0 W
    #   B (winner 0): r1 s0 d0 W, s1 d2 L | r2 s0 d0 W, s1 d3 L | r3 s0 d0 W, s1 d0 L
    #   C (winner 0): r1 s0 d5 W, s1 d0 L | r2 s0 d4 W, s1 d0 L
    # Bins with deficit_edges=[2]: "0 (leading)", "1-2", "3+".
    #   r1: 0 -> 1/3 (n 3);  1-2 -> 1/2 (n 2);  3+ -> 1/1
    #   r2: 0 -> 2/3 (n 3);  1-2 -> 0/1;        3+ -> 1/2 (B s1 lost, C s0 won)
    #   r3: 0 -> 1/3 (n 3);  1-2 -> 1/1
    #   r4: 0 -> 1/2 (n 2)
    # Trailing overall: 7 seat-rounds with d > 0, 4 won -> 4/7.
    games, seats, rounds = abc
    cube = ins.trace_cube(rounds, seats)
    t = ins.comeback_table(cube, deficit_edges=[2])
    got = {(r.round_bin, r.deficit_bin): (r.n, r.wins) for r in t.itertuples()}
    assert got == {
        ("1", "0 (leading)"): (3, 1), ("1", "1-2"): (2, 1), ("1", "3+"): (1, 1),
        ("2", "0 (leading)"): (3, 2), ("2", "1-2"): (1, 0), ("2", "3+"): (2, 1),
        ("3", "0 (leading)"): (3, 1), ("3", "1-2"): (1, 1),
        ("4", "0 (leading)"): (2, 1),
    }
    row = t[(t.round_bin == "2") & (t.deficit_bin == "3+")].iloc[0]
    assert row.p_win == pytest.approx(0.5) and row.games == 2
    assert row.low <= 0.5 <= row.high
    sec = ins.comeback(cube, deficit_edges=[2])
    assert sec["n_observations"] == 18
    assert sec["p_win_trailing"]["estimate"] == pytest.approx(4 / 7)
    assert sec["p_win_trailing"]["n"] == 7


def test_comeback_heatmap_and_hazard_figures(abc):
    games, seats, rounds = abc
    t = ins.comeback_table(ins.trace_cube(rounds, seats), deficit_edges=[2])
    fig = comeback_heatmap_plot(t)
    assert len(fig.axes) == 2  # the heatmap and its colour bar
    assert hazard_plot(ins.end_hazard(games)).axes


def test_outcome_duration_and_closeness(abc):
    games, seats, rounds = abc
    # durations 5, 4, 3: mean 4, sd 1, median 4
    d = ins.duration(games)
    assert d["mean"]["estimate"] == pytest.approx(4.0)
    assert d["sd"]["estimate"] == pytest.approx(1.0)
    assert d["p50"]["estimate"] == 4.0
    # end hazard: r3 1 of 3 at risk, r4 1 of 2, r5 1 of 1
    h = {r["round"]: (r["at_risk"], r["ended"], r["hazard"]) for r in d["end_hazard"]}
    assert h[1] == (3, 0, 0.0) and h[3] == (3, 1, pytest.approx(1 / 3))
    assert h[4] == (2, 1, 0.5) and h[5] == (1, 1, 1.0)
    # final scores 7:9, 8:5, 9:6 -> seat 0 higher in 2 of 3, lower in 1: bias 1/3;
    # margins 2, 3, 3 -> closeness 1 / sqrt((4 + 9 + 9) / 3)
    c = ins.closeness(seats)
    assert c["pairs"][0]["win_bias"]["estimate"] == pytest.approx(1 / 3)
    assert c["closeness"]["estimate"] == pytest.approx(1 / np.sqrt(22 / 3))
    assert c["tie_rate"]["estimate"] == 0.0
    assert c["margin"]["p50"]["estimate"] == 3.0
    lo, hi = c["closeness"]["low"], c["closeness"]["high"]
    assert lo <= c["closeness"]["estimate"] <= hi


def test_completion_rates_with_wilson():
    # 5 games: 3 with one winner, 1 natural tie, 1 truncated without a winner
    games = games_frame([(1, 0, 2, 5, False, 1, 0, "target"), (1, 1, 2, 6, False, 1, 1, "target"),
                         (1, 2, 2, 4, False, 1, 0, "target"), (1, 3, 2, 7, False, 2, -1, "target"),
                         (1, 4, 2, 50, True, 0, -1, "truncated")])
    c = ins.completion(games)
    assert c["completed"]["estimate"] == pytest.approx(4 / 5)
    assert (c["completed"]["low"], c["completed"]["high"]) == pytest.approx(
        stats.wilson_interval(4, 5))
    assert c["natural_ties"]["estimate"] == pytest.approx(1 / 5)
    assert c["truncated"]["estimate"] == pytest.approx(1 / 5)
    assert c["no_winner"]["estimate"] == 0.0
    assert c["end_reasons"]["truncated"]["estimate"] == pytest.approx(1 / 5)
    f = ins.flags(games)
    assert f["truncated"]["games"] == 1
    assert f["truncated"]["per_10000"]["estimate"] == pytest.approx(2000.0)
    assert f["truncated"]["examples"][0]["command"] == (
        "playtest replay toy --players 2 --seed 1 --game-index 4")


def test_solo_loss_hazard_and_verdict():
    # 4 solo games: lengths 3, 3, 5, 5; won 0, 1, 0, 1 -> lost at r3: 1 of 4, at r5: 1 of 2
    games = games_frame([(9, 0, 1, 3, False, 0, -1, "lost"), (9, 1, 1, 3, False, 1, 0, "won"),
                         (9, 2, 1, 5, False, 0, -1, "lost"), (9, 3, 1, 5, False, 1, 0, "won")])
    seats = seats_frame([(9, i, 0, "greedy", 10 + i, 1, w, float(w))
                         for i, w in enumerate([False, True, False, True])])
    h = ins.loss_hazard(games).set_index("round")
    assert h.loc[3, "hazard"] == pytest.approx(0.25) and h.loc[5, "hazard"] == pytest.approx(0.5)
    out = ins.insights(games, seats)
    assert out["lead_change_rate"]["n_games"] == 0 and out["closeness"]["n_games"] == 0
    assert out["verdict"].startswith("solo: won 50% of 4 games")
    assert "losses peak at round 5" in out["verdict"]


# ---- stalls ----------------------------------------------------------------------------------
def test_stall_is_flagged_with_seed_and_index():
    # D (seed 2, index 0): 12 rounds, scores (1, 0) after every round: rounds 2..12 are static
    #   (11 in a row >= 10) -> a stall from round 2 to 12.
    # E (seed 2, index 1): 11 rounds, (0, 0) then (1, 0) from round 2 on: rounds 3..11 are
    #   static, 9 in a row < 10 -> no stall.
    traces = {(2, 0): [(1, 0)] * 12, (2, 1): [(0, 0)] + [(1, 0)] * 10}
    games = games_frame([(2, 0, 2, 12, False, 1, 0, "target"),
                         (2, 1, 2, 11, False, 1, 0, "target")])
    seats = seats_frame([(2, i, s, "greedy", 1 - s, s + 1, s == 0, float(s == 0))
                         for i in (0, 1) for s in (0, 1)])
    out = ins.insights(games, seats, rounds_frame(traces))
    st = out["flags"]["stall"]
    assert st["recorded"] and st["K"] == 10
    assert (st["games"], st["n_games"]) == (1, 2)
    assert st["per_10000"]["estimate"] == pytest.approx(5000.0)
    ex = st["examples"][0]
    assert (ex["master_seed"], ex["game_index"]) == (2, 0)
    assert (ex["static_rounds"], ex["from_round"], ex["to_round"]) == (11, 2, 12)
    assert ex["command"] == "playtest replay toy --players 2 --seed 2 --game-index 0"
    assert "stalled for 10+ rounds" in out["verdict"]


# ---- actions ---------------------------------------------------------------------------------
def planted_actions():
    """6 games (seed 3, index 0..5), both seats greedy. Seat g % 2 of game g has "castle" legal
    in 12 of its 18 real choices at point "buy" and always takes it; it wins every game. The
    other seat never has "castle"; nobody ever takes "discard". Point counts per seat: faced 20,
    forced 2 (real choices 18), options 50 (castle seat) or 40 (other seat)."""
    rows, seats = [], []
    for g in range(6):
        w = g % 2
        for seat in (0, 1):
            pt = dict(**ID, n_players=2, master_seed=3, game_index=g, seat=seat, point="buy",
                      faced=20, forced=2, no_legal=0)
            if seat == w:
                kinds = [("castle", 12, 12), ("cart", 18, 6), ("discard", 18, 0)]
                pt["n_options_sum"] = 50
            else:
                kinds = [("cart", 18, 18), ("discard", 18, 0)]
                pt["n_options_sum"] = 40
            rows += [dict(pt, kind=k, legal=lg, chosen=ch) for k, lg, ch in kinds]
            seats.append((3, g, seat, "greedy", 10 if seat == w else 5, 1 if seat == w else 2,
                          seat == w, float(seat == w)))
    # game 5, seat 0 met point "reroll" once with no legal option
    rows.append(dict(**ID, n_players=2, master_seed=3, game_index=5, seat=0, point="reroll",
                     kind="", legal=0, chosen=0, faced=1, forced=0, no_legal=1, n_options_sum=0))
    games = games_frame([(3, g, 2, 8, False, 1, g % 2, "target") for g in range(6)])
    return games, seats_frame(seats), pd.DataFrame(rows)


def test_planted_dominant_action_is_always_picked_with_positive_lift():
    games, seats, actions = planted_actions()
    a = ins.actions_summary(actions, seats)
    assert a["caveat"] == "association, not cause"
    assert a["strongest_policy"] == "greedy" and a["n_games"] == 6
    assert [(r["point"], r["kind"]) for r in a["always_picked"]] == [("buy", "castle")]
    assert [(r["point"], r["kind"]) for r in a["never_picked"]] == [("buy", "discard")]
    castle = a["always_picked"][0]
    # pickers (6 castle seats) won all, the 6 others none: lift +1, every resample too
    assert castle["win_lift"] == pytest.approx(1.0) and castle["win_lift_low"] > 0
    k = {(r["point"], r["kind"]): r for r in a["kinds"]}
    # castle legal in 6 x 12 = 72 of 12 x 18 = 216 real choices; cart picked 6x6 + 6x18 = 144
    assert k[("buy", "castle")]["legal_rate"] == pytest.approx(1 / 3)
    assert k[("buy", "castle")]["pick_rate"] == 1.0
    assert k[("buy", "cart")]["pick_rate"] == pytest.approx(144 / 216)
    assert k[("buy", "discard")]["win_lift"] is None  # nobody picked it: no contrast
    p = {r["point"]: r for r in a["points"]}
    # forced 2 of 20 per seat; options (6 x 50 + 6 x 40) / 240 = 2.25
    assert p["buy"]["forced_share"] == pytest.approx(0.1)
    assert p["buy"]["mean_options"] == pytest.approx(2.25)
    assert p["reroll"]["no_legal"] == 1
    f = ins.flags(games, actions=actions)["no_legal_option"]
    assert f["recorded"] and (f["games"], f["n_games"], f["decisions"]) == (1, 6, 1)
    assert (f["examples"][0]["master_seed"], f["examples"][0]["game_index"]) == (3, 5)
    assert f["examples"][0]["points"] == "reroll"


def test_strongest_policy_is_the_best_win_rate():
    # greedy: 1 + 0.5 of 2 seats; random: 0 + 0.5 of 2 seats
    seats = seats_frame([(1, 0, 0, "random", 1, 2, False, 0.0),
                         (1, 0, 1, "greedy", 5, 1, True, 1.0),
                         (1, 1, 0, "greedy", 4, 1, True, 0.5),
                         (1, 1, 1, "random", 4, 1, True, 0.5)])
    assert ins.strongest_policy(seats) == "greedy"


# ---- the whole dict --------------------------------------------------------------------------
def test_insights_dict_has_exactly_the_keys_and_is_json(abc):
    games, seats, rounds = abc
    _, _, actions = planted_actions()
    actions = actions[actions["game_index"] < 3].assign(master_seed=1)
    out = ins.insights(games, seats, rounds, actions)
    assert list(out) == ["completion", "duration", "closeness", "lead_change_rate", "drama",
                         "comeback", "decisiveness", "actions", "flags", "verdict"]
    assert tuple(out) == ins.KEYS
    json.dumps(out, allow_nan=False)
    # decisiveness 0.68 >= 0.6: close; lead change 72% >= 20%: swingy
    assert out["verdict"].startswith("close and swingy: the lead changes in 72% of rounds; "
                                     "the eventual winner was behind after 36% of rounds")


def test_insights_without_traces_and_by_arm(abc):
    games, seats, rounds = abc
    out = ins.insights(games, seats)
    assert out["lead_change_rate"]["n_games"] == 0
    assert out["flags"]["stall"]["recorded"] is False
    assert out["verdict"].startswith("no round traces")
    two = pd.concat([games, games.assign(arm="p2b")])
    by = ins.insights_by_arm(two, pd.concat([seats, seats.assign(arm="p2b")]),
                             pd.concat([rounds, rounds.assign(arm="p2b")]))
    assert sorted(by) == ["p2", "p2b"]
    assert by["p2b"]["drama"] == by["p2"]["drama"]
    with pytest.raises(ValueError, match="one arm"):
        ins.insights(two, seats)


def test_incomplete_trace_is_refused(abc):
    games, seats, rounds = abc
    with pytest.raises(ValueError, match="master_seed=1, game_index=0"):
        ins.trace_cube(rounds.drop(index=3), seats)


def test_load_arm_reads_only_finished_chunks(tmp_path, abc):
    # a manifest with chunk 0 (games 0..2) finished; a stray part of chunk 1 is not read
    games, seats, rounds = abc
    arm = {"name": "p2", "game": "toy", "n_players": 2,
           "chunks": [{"chunk": 0, "start": 0, "stop": 6, "size": 3}], "finished": [[0, 0]]}
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "e.json").write_text(json.dumps({"name": "e", "arms": [arm]}))
    for table, df in (("games", games), ("seats", seats), ("rounds", rounds)):
        d = tmp_path / "results" / table / "game=toy" / "experiment=e" / "arm=p2"
        d.mkdir(parents=True)
        df.to_parquet(d / "part-00000.parquet")
        df.assign(game_index=df["game_index"] + 3).to_parquet(d / "part-00001.parquet")
    t = ins.load_arm(tmp_path, "e", "p2")
    assert sorted(t["games"]["game_index"]) == [0, 1, 2]
    assert len(t["rounds"]) == len(rounds)


def test_load_arm_reads_the_traced_tables(tmp_path, abc):
    games, seats, rounds = abc
    for table, df in (("games", games), ("seats", seats), ("rounds", rounds)):
        d = tmp_path / "results" / table / "game=toy" / "experiment=e" / "arm=p2"
        d.mkdir(parents=True)
        df.drop(columns=["game", "experiment", "arm"]).to_parquet(d / "part-00000.parquet")
    t = ins.load_arm(tmp_path, "e", "p2")
    assert len(t["rounds"]) == len(rounds) and t["actions"].empty
    assert set(t["rounds"]["arm"]) == {"p2"}
    out = ins.insights(t["games"], t["seats"], t["rounds"], t["actions"])
    assert out["decisiveness"]["mean"]["estimate"] == pytest.approx(41 / 60)
