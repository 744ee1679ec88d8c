"""Scenario tests: game end, scoring and ranking (FS-E*)."""
import numpy as np
import pytest

from sim.games.flower_shop import queries as Q
from sim.games.flower_shop import rules as R
from sim.spec import SpecError
from tests.end_bonus import check_bonus_0_3

from .kernel_helpers import (ARR, K, L, NOLOG, SPEC, blank, cid, place, replay_events, rules_for,
                             seat)

TOP = ("T01", "T02", "T19")
BOTTOM = ("T04", "T29", "T32")


def _ts05_state(rules, finished=True, ribbons=2):
    st = blank(2, rules)
    st[L.S_CARDS] = cid("T1")
    for i, t in enumerate(TOP + BOTTOM):
        place(st, 0, i, t, finished=finished)
    st[Q.seat_base(0) + L.F_RIBBONS] = ribbons
    return st


def test_FS_E2_TS05_scoring_example_39_points():
    """FS-E2 / TS-05: top row T01, T02, T19 (10 flowers), bottom T04, T29, T32, all finished,
    2 ribbons, task T1: stars 34 + ribbons 2 + tasks 3 (top row 2 + right column 1) = 39."""
    rules = rules_for(2)
    st = _ts05_state(rules)
    assert K.score_seat(st, rules, ARR, 0) == 39
    b = Q.seat_base(0)
    assert st[b + L.F_STARS] == 34 and st[b + L.F_TASK_PTS] == 3 and st[b + L.F_TASK_LINES] == 2


def test_FS_E1_unfinished_tiles_removed_at_the_end():
    """FS-E1 / AMB-12: unfinished tiles are removed; their stars and lines do not count."""
    rules = rules_for(2)
    st = _ts05_state(rules)
    st[Q.seat_base(0) + L.F_FIN + 2] = 0  # T19 unfinished: top row and right column break
    K.remove_unfinished(st, rules, 2, NOLOG)
    assert st[Q.seat_base(0) + L.F_SHOP + 2] == -1
    assert K.score_seat(st, rules, ARR, 0) == 34 - 6 + 2 + 0


def test_FS_E3_task_points_and_two_cards_add():
    """FS-E3: row/column points per satisfied full line; with 2 cards both add up;
    task_requires_full_line = false evaluates partial lines."""
    rules = rules_for(2)
    st = _ts05_state(rules, ribbons=0)
    st[L.S_N_CARDS] = 2
    st[L.S_CARDS + 1] = cid("T2")  # rows DIFF_VASE, cols SAME_VASE
    # T2 rows: top yellow/blue/white (different) -> 2; bottom pink/yellow/green -> 2; cols: none
    assert K.score_seat(st, rules, ARR, 0) == 34 + 3 + 4
    r2 = rules_for(2, task_row_points_default=5)
    tasks = ARR[1].copy()
    tasks[cid("T1"), 2] = -1  # blank points: use the rule default
    comp = (ARR[0], tasks) + tuple(ARR[2:])
    st2 = _ts05_state(r2, ribbons=0)
    assert K.score_seat(st2, r2, comp, 0) == 34 + 5 + 1


def test_FS_E4_TS20_tiebreak_money_then_tokens_then_shared():
    """FS-E4 / TS-20: A and B 30 points, $4; A 2 tokens, B 1 -> A first. Equal tokens -> they
    share first place. The alternative order money -> ribbons (AMB-11) is a parameter."""
    rules = rules_for(3)
    st = blank(3, rules)
    for s, (score, money, tok, rib) in enumerate(((30, 4, 2, 0), (30, 4, 1, 3), (20, 9, 5, 5))):
        b = Q.seat_base(s)
        st[b + L.F_SCORE], st[b + L.F_MONEY], st[b + L.F_TOKENS], st[b + L.F_RIBBONS] = score, money, tok, rib
    K.rank_players(st, rules, 3)
    assert [seat(st, s, L.F_RANK) for s in range(3)] == [1, 2, 3]
    st[Q.seat_base(1) + L.F_TOKENS] = 2
    K.rank_players(st, rules, 3)
    assert [seat(st, s, L.F_RANK) for s in range(3)] == [1, 1, 3]
    r2 = rules_for(3, tiebreak_order="money+ribbons")
    K.rank_players(st, r2, 3)
    assert [seat(st, s, L.F_RANK) for s in range(3)] == [2, 1, 3]
    seats = np.zeros((3, 21), dtype=np.int64)
    st[Q.seat_base(1) + L.F_TOKENS] = 1
    K.rank_players(st, rules, 3)
    K.write_outputs(st, rules, 3, False, np.zeros(13, dtype=np.int64), seats)
    assert list(seats[:, 2]) == [1, 0, 0]


def test_tiebreak_item_matches_choice_list():
    """FS-E4: the kernel decodes every tiebreak_order choice like rules.TIEBREAK_CHOICES."""
    names = {"money": R.TB_MONEY, "wild_tokens": R.TB_TOKENS, "ribbons": R.TB_RIBBONS}
    for idx, choice in enumerate(R.TIEBREAK_CHOICES):
        items = [] if choice == "none" else [names[x] for x in choice.split("+")]
        got = []
        for j in range(3):
            v = K.tiebreak_item(idx, j)
            if v < 0:
                break
            got.append(v)
        assert got == items, choice


def test_FS_E5_analytics_columns():
    """FS-E5: per player score, its parts, money, tokens, tiles finished (placed/finished days
    are kept in the state for replay)."""
    ev, g, s = replay_events(3, seed=11)
    from sim.registry import make
    spec = make("flower_shop")
    cols = spec.seat_column_names
    for seat_row in s:
        d = dict(zip(cols, seat_row))
        assert d["score"] == d["stars"] + d["ribbons"] + d["task_points"]
        assert 0 <= d["tiles_finished"] <= 6
    scores = [e for e in ev if e[0] == L.EV_SCORE]
    assert len(scores) == 3
    assert g[2] >= 1 and (g[3] == -1) == (g[2] > 1)


# ---- end_bonus_points: added to the final score before the ranking (FS-E2, FS-E4) -------------
GCOLS = {c: i for i, c in enumerate(SPEC.game_column_names)}
SCOLS = {c: i for i, c in enumerate(SPEC.seat_column_names)}


def _end(points, bonus=None, money=None, tokens=None, **tweaks):
    """A multiplayer game at its end with empty shops, scored by ribbons alone (``points``
    ribbons per seat, 1 point each), through ``final_scoring`` with ``end_bonus_points =
    bonus``; returns (games row, seats rows, state)."""
    n = len(points)
    if bonus is not None:
        tweaks["end_bonus_points"] = bonus
    rules = rules_for(n, **tweaks)
    st = blank(n, rules)
    for s in range(n):
        b = Q.seat_base(s)
        st[b + L.F_RIBBONS] = points[s]
        st[b + L.F_MONEY] = 5 if money is None else money[s]
        st[b + L.F_TOKENS] = 0 if tokens is None else tokens[s]
    assert not K.final_scoring(st, rules, ARR, n, NOLOG)
    g = np.zeros(len(GCOLS), dtype=np.int64)
    rows = np.zeros((n, len(SCOLS)), dtype=np.int64)
    K.write_outputs(st, rules, n, False, g, rows)
    return g, rows, st


def test_FS_E4_end_bonus_points_lifts_second_to_first():
    """end_bonus_points (0, 3): seat 1 (3 points) passes seat 0 (5 points) with 6; the score
    column includes the bonus, its parts (stars, ribbons, task points) do not."""
    g, rows, _ = _end((5, 3))
    assert list(rows[:, SCOLS["rank"]]) == [1, 2] and g[GCOLS["winner_seat"]] == 0
    g, rows, _ = _end((5, 3), bonus=(0, 3))
    assert list(rows[:, SCOLS["score"]]) == [5, 6]
    assert list(rows[:, SCOLS["ribbons"]]) == [5, 3] and list(rows[:, SCOLS["stars"]]) == [0, 0]
    assert list(rows[:, SCOLS["rank"]]) == [2, 1] and list(rows[:, SCOLS["won"]]) == [0, 1]
    assert g[GCOLS["winner_seat"]] == 1 and g[GCOLS["n_winners"]] == 1


def test_FS_E4_end_bonus_points_tie_goes_to_the_tiebreaks():
    """end_bonus_points (0, 2) ties 5 and 3 at 5: money decides (FS-E4 step 2), then wild
    tokens (step 3), then the players share the position (step 4); with tiebreak_order = none
    the tie is shared at once."""
    _, rows, _ = _end((5, 3), bonus=(0, 2), money=(4, 6))
    assert list(rows[:, SCOLS["score"]]) == [5, 5] and list(rows[:, SCOLS["rank"]]) == [2, 1]
    _, rows, _ = _end((5, 3), bonus=(0, 2), money=(6, 6), tokens=(2, 1))
    assert list(rows[:, SCOLS["rank"]]) == [1, 2]
    g, rows, _ = _end((5, 3), bonus=(0, 2), money=(6, 6), tokens=(1, 1))
    assert list(rows[:, SCOLS["rank"]]) == [1, 1] and list(rows[:, SCOLS["won"]]) == [1, 1]
    assert g[GCOLS["n_winners"]] == 2 and g[GCOLS["winner_seat"]] == -1
    g, rows, _ = _end((5, 3), bonus=(0, 2), money=(9, 0), tiebreak_order="none")
    assert list(rows[:, SCOLS["rank"]]) == [1, 1] and g[GCOLS["winner_seat"]] == -1


def test_FS_E4_end_bonus_points_negative_and_repeated_for_later_seats():
    """A negative bonus lowers a score (below 0 too) and can cost the lead; a list shorter
    than the table repeats its last value for the seats after it (3 players, (0, -4): seats 1
    and 2 both lose 4)."""
    _, rows, _ = _end((5, 3), bonus=(-3, 0))
    assert list(rows[:, SCOLS["score"]]) == [2, 3] and list(rows[:, SCOLS["rank"]]) == [2, 1]
    _, rows, _ = _end((5, 3), bonus=(-50, 0))
    assert list(rows[:, SCOLS["score"]]) == [-45, 3]
    _, rows, _ = _end((1, 5, 4), bonus=(0, -4))
    assert list(rows[:, SCOLS["score"]]) == [1, 1, 0]
    assert list(rows[:, SCOLS["rank"]]) == [1, 1, 3]  # 1 = 1, money 5 = 5: shared


def test_FS_E4_end_bonus_points_default_zeros_change_nothing():
    """The default (all 0) and an explicit (0, 0, 0, 0) leave the state and the rows as the
    rules alone score them (score = stars + ribbons + task points), TS-05's 39 included."""
    g0, r0, st0 = _end((5, 3, 4), money=(1, 2, 3))
    g1, r1, st1 = _end((5, 3, 4), bonus=(0, 0, 0, 0), money=(1, 2, 3))
    assert np.array_equal(st0, st1) and np.array_equal(r0, r1) and np.array_equal(g0, g1)
    assert list(r0[:, SCOLS["score"]]) == [5, 3, 4] and list(r0[:, SCOLS["rank"]]) == [1, 3, 2]
    rules = rules_for(2)
    st = _ts05_state(rules)
    K.final_scoring(st, rules, ARR, 2, NOLOG)
    assert seat(st, 0, L.F_SCORE) == 39


def test_FS_E4_end_bonus_points_is_multiplayer_only():
    """Solo has a win condition, not a ranking (FS-SOLO-E1): a non-zero bonus is refused for 1
    player (naming the parameter); zeros are accepted, and 2-4 players take any in range."""
    with pytest.raises(SpecError, match="end_bonus_points.*solo"):
        rules_for(1, end_bonus_points=(3,))
    with pytest.raises(SpecError, match="end_bonus_points.*solo"):
        SPEC.rule_values(1, None, {"end_bonus_points": "0,3"})
    rules_for(1, end_bonus_points=(0, 0))
    rules_for(4, end_bonus_points="0,3,-2,50")
    with pytest.raises(SpecError, match="end_bonus_points"):
        rules_for(2, end_bonus_points=(0, 51))


def test_FS_E4_end_bonus_points_run_0_3_favours_seat_1():
    """--set end_bonus_points=0,3, 2 players, 300 greedy games (fixed seed): the same games,
    seat 1's scores 3 higher, its win share up and seat 0's down (tests/end_bonus.py); the
    audit recomputes the scores with the bonus."""
    check_bonus_0_3(SPEC)
