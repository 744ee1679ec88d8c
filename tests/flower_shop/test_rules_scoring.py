"""Scenario tests: game end, scoring and ranking (FS-E*)."""
import numpy as np

from sim.games.flower_shop import queries as Q
from sim.games.flower_shop import rules as R

from .kernel_helpers import ARR, K, L, NOLOG, blank, cid, place, replay_events, rules_for, seat

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
    row = np.zeros(8 + 3, dtype=np.int64)
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
