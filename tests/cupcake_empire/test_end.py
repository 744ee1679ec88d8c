"""The end (CE-T8, CE-E1 .. CE-E4): T16 of spec §12 and the max_rounds guard."""
import numpy as np

from sim import batch
from sim.games.cupcake_empire import SPEC
from sim.games.cupcake_empire import layout as L

from tests.end_bonus import check_bonus_0_3

from .helpers import Game, act

COLS = {c: i for i, c in enumerate(SPEC.game_column_names)}
SCOLS = {c: i for i, c in enumerate(SPEC.seat_column_names)}


def _three(incomes, **tweaks):
    g = Game(3, tweaks or None)
    g.clear()
    for s, inc in enumerate(incomes):
        g.set_seat(s, L.F_INCOME, inc)
        g.set_seat(s, L.F_PRODUCTION, 0)
    return g


def test_t16_end_of_game_ce_e1_e2_e3():
    """T16: seat 1 ends its turn at 72 (trigger); seat 2 plays once more, ending at 74; seat 0
    does not play again. Seat 2 wins; a tie on income and customers goes to the most shops on
    the board; a trigger by seat N-1 ends the game at once."""
    g = _three((68, 72, 70))
    turns = g.g(L.S_TURNS)
    assert g.turn(1, act(1, 0)) == 2
    assert g.g(L.S_END_TRIGGERED) == 1 and g.g(L.S_TRIGGER_SEAT) == 1
    g.set_seat(2, L.F_INCOME, 74)
    g.script(act(1, 0))
    assert g.run() == 0                                             # seat 2's turn ends the game
    assert g.g(L.S_TURNS) == turns + 2
    row, seats = g.results()
    assert row[COLS["winner_seat"]] == 2 and row[COLS["end_trigger_seat"]] == 1
    assert list(seats[:, SCOLS["rank"]]) == [3, 2, 1]
    # tie on income (74) and customers (6): seat 1 has 4 shops on the board, seat 2 three
    g.set_seat(1, L.F_INCOME, 74)
    for s in (1, 2):
        g.set_seat(s, L.F_CUST_VAL, 6)
    for i, region in enumerate(("YEL1", "YEL2", "BEI1", "BEI2")):
        g.building("shop", region, 0, 1)
        if i < 3:
            g.building("shop", region, 1, 2)
    row, seats = g.results()
    assert row[COLS["winner_seat"]] == 1 and row[COLS["n_winners"]] == 1
    g.building("shop", "BEI2", 1, 2)                                # 4 shops each: shared win
    row, seats = g.results()
    assert row[COLS["winner_seat"]] == -1 and row[COLS["n_winners"]] == 2
    assert list(seats[:, SCOLS["won"]]) == [0, 1, 1]
    g = _three((60, 60, 71))
    assert g.turn(2, act(1, 0)) == 0                                # seat N-1 triggers: over
    assert g.g(L.S_TRIGGER_SEAT) == 2


def test_ce_e2_finish_round_off():
    """CE-E2 with ``finish_round`` off: the game ends right after the triggering turn."""
    g = Game(3, {"finish_round": False})
    g.clear()
    g.set_seat(0, L.F_INCOME, 75)
    assert g.turn(0, act(1, 0)) == 0


def test_ce_e4_truncation():
    """CE-E4: a game that reaches max_rounds stops, is flagged truncated (end reason
    'truncated', no trigger seat) and is still scored."""
    arm = batch.make_arm(SPEC, 2, tweaks={"end_threshold": 200, "max_rounds": 20}, policy="random")
    games, seats = batch.run_games(arm, 3, 0, 20)
    assert np.all(games[:, COLS["truncated"]] == 1)
    assert np.all(games[:, COLS["end_reason"]] == SPEC.end_reasons.index("truncated"))
    assert np.all(games[:, COLS["end_trigger_seat"]] == -1)
    assert np.all(games[:, COLS["rounds"]] == 20)
    assert np.all(seats[:, :, SCOLS["turns_taken"]] == 20)
    assert np.all(games[:, COLS["n_winners"]] >= 1)


def test_ce_e3_rank_by_income_then_customers_then_shops():
    """CE-E3 (4p): income first; among equal incomes more customers; then more own shops on
    the board (more customers never beat more income); a full tie shares the rank and the win
    (winner_seat -1)."""
    g = Game(4)
    g.clear()
    for s, (income, cust) in enumerate(((50, 3), (50, 3), (50, 2), (49, 9))):
        g.set_seat(s, L.F_INCOME, income)
        g.set_seat(s, L.F_CUST_VAL, cust)
    g.building("shop", "YEL1", 0, 0)
    g.building("shop", "YEL1", 1, 1)
    g.building("shop", "BEI1", 0, 1)
    g.building("shop", "BEI2", 0, 2)
    g.building("shop", "BEI2", 1, 2)
    g.building("shop", "BEI3", 0, 2)
    row, seats = g.results()
    assert list(seats[:, SCOLS["rank"]]) == [2, 1, 3, 4]
    assert row[COLS["winner_seat"]] == 1 and row[COLS["n_winners"]] == 1
    g.building("shop", "BEI3", 1, 0)                                 # seat 0: 2 shops too
    row, seats = g.results()
    assert list(seats[:, SCOLS["rank"]]) == [1, 1, 3, 4]
    assert row[COLS["winner_seat"]] == -1 and row[COLS["n_winners"]] == 2
    assert list(seats[:, SCOLS["won"]]) == [1, 1, 0, 0]


# ---- end_bonus_points: added to the final score (income) before CE-E3's ranking -------------
def _final(incomes, bonus=None, customers=None, n=None):
    """Result rows of a game whose seats hold ``incomes`` (and ``customers`` of value 1) as it
    stands (``kernel.finish``), with ``end_bonus_points = bonus``; no shops on the board."""
    g = Game(n or len(incomes), None if bonus is None else {"end_bonus_points": bonus})
    g.clear()
    for s, inc in enumerate(incomes):
        g.set_seat(s, L.F_INCOME, inc)
        g.set_seat(s, L.F_CUST_VAL, 0 if customers is None else customers[s])
    return g.results()


def test_ce_e3_end_bonus_points_lifts_second_to_first():
    """(0, 3): seat 1's 48 + 3 = 51 passes seat 0's 50; the score column includes the bonus,
    the income column does not."""
    row, seats = _final((50, 48))
    assert row[COLS["winner_seat"]] == 0
    row, seats = _final((50, 48), bonus=(0, 3))
    assert list(seats[:, SCOLS["score"]]) == [50, 51]
    assert list(seats[:, SCOLS["income"]]) == [50, 48]
    assert list(seats[:, SCOLS["rank"]]) == [2, 1] and row[COLS["winner_seat"]] == 1


def test_ce_e3_end_bonus_points_tie_goes_to_customers_then_shops():
    """(0, 2) ties 50 and 48 at 50: more customers win; equal customers go to the most own
    shops on the board; equal shops share the win."""
    row, seats = _final((50, 48), bonus=(0, 2), customers=(2, 3))
    assert list(seats[:, SCOLS["score"]]) == [50, 50] and row[COLS["winner_seat"]] == 1
    row, seats = _final((50, 48), bonus=(0, 2), customers=(3, 2))
    assert row[COLS["winner_seat"]] == 0
    g = Game(2, {"end_bonus_points": (0, 2)})
    g.clear()
    for s, inc in enumerate((50, 48)):
        g.set_seat(s, L.F_INCOME, inc)
    g.building("shop", "YEL1", 0, 1)                                # seat 1: one shop
    row, seats = g.results()
    assert row[COLS["winner_seat"]] == 1 and list(seats[:, SCOLS["rank"]]) == [2, 1]
    g.building("shop", "YEL2", 0, 0)                                # one each: shared
    row, seats = g.results()
    assert row[COLS["winner_seat"]] == -1 and row[COLS["n_winners"]] == 2


def test_ce_e3_end_bonus_points_negative_and_repeated_for_later_seats():
    """A negative bonus costs the lead; a short list repeats its last value (3 players,
    (0, -5): seats 1 and 2 lose 5)."""
    row, seats = _final((50, 48), bonus=(-3, 0))
    assert list(seats[:, SCOLS["score"]]) == [47, 48] and row[COLS["winner_seat"]] == 1
    row, seats = _final((40, 44, 46), bonus=(0, -5))
    assert list(seats[:, SCOLS["score"]]) == [40, 39, 41]
    assert list(seats[:, SCOLS["rank"]]) == [2, 3, 1]


def test_ce_e3_end_bonus_points_default_zeros_change_nothing():
    """The default and an explicit (0, 0, 0, 0) give the same rows; score = income."""
    a = _final((50, 48, 50), customers=(1, 0, 2))
    b = _final((50, 48, 50), bonus=(0, 0, 0, 0), customers=(1, 0, 2))
    assert all((x == y).all() for x, y in zip(a, b))
    assert list(a[1][:, SCOLS["score"]]) == [50, 48, 50]
    assert list(a[1][:, SCOLS["rank"]]) == [2, 3, 1]


def test_ce_e1_e3_end_bonus_points_never_triggers_the_end_but_decides_it():
    """The trigger (CE-E1) reads the income alone: 60 + 20 ends a turn without triggering.
    T16 with (7, 0, 0): seat 0's 68 + 7 = 75 beats seat 2's 74 in the rows and the replay's
    end event, though seat 1 triggered and seat 2 played last."""
    g = _three((60, 60, 60), end_bonus_points=(20, 0, 0))
    assert g.turn(0, act(1, 0)) == 2 and g.g(L.S_END_TRIGGERED) == 0
    g = _three((68, 72, 70), end_bonus_points=(7, 0, 0))
    assert g.turn(1, act(1, 0)) == 2 and g.g(L.S_TRIGGER_SEAT) == 1
    g.set_seat(2, L.F_INCOME, 74)
    g.script(act(1, 0))
    assert g.run() == 0
    row, seats = g.results()
    assert row[COLS["winner_seat"]] == 0 and list(seats[:, SCOLS["score"]]) == [75, 72, 74]
    end = [e for e in g.events() if e[0] == L.EV_END]
    assert len(end) == 1 and end[0][3] == 0 and end[0][4] == 1      # winner seat 0, 1 winner


def test_ce_e3_end_bonus_points_run_0_3_favours_seat_1():
    """--set end_bonus_points=0,3, 2 players, 300 greedy games (fixed seed): the same games,
    seat 1's scores 3 higher, its win share up and seat 0's down (tests/end_bonus.py); the
    audit checks score = income + bonus."""
    check_bonus_0_3(SPEC)
