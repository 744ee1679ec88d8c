"""Game end (RB-E*): TS-07, TS-08, Ringmaster sources, truncation."""

from sim import batch
from sim.spec import G_N_WINNERS, G_WINNER_SEAT, S_RANK
from sim.games.rattlebones import SPEC
from sim.games.rattlebones import layout as L

from tests.end_bonus import check_bonus_0_3

from .helpers import BL, DECLINE, G, MG, W, Game


def _results(g):
    return g.results()


def _ts07(**tweaks):
    g = Game(tweaks=tweaks or None)
    g.set_seat(0, L.F_SCORE, 62)
    g.set_seat(0, L.F_GOLD, 2)
    g.set_die(0, W, ["R", "POINTS_3", 3, 4, 5, 6])
    g.set_die(0, BL, ["R", "TRAIN", 3, 4, 5, 6])
    g.set(L.S_TRAIN_POS, 4)
    g.force(2, 2, 1)                   # white POINTS_3, black TRAIN, grey RINGMASTER
    return g


def test_ts07_game_ends_mid_turn_rb_e2():
    """TS-07(a) RB-E2 / AMB-28: white 65 is not > 65; grey's R-1 ends the game before the
    optional move; black is never resolved."""
    g = _ts07()
    g.script(2, W, G)
    g.turn(0)
    assert g.ended and g.R == 64 and g.score(0) == 65 and g.g(L.S_TRAIN_POS) == 4
    assert g.g(L.S_END_TRIGGER) == L.ET_RINGMASTER
    games, _ = _results(g)
    assert games[G_WINNER_SEAT] == 0


def test_ts07b_end_inclusive_rb_e2():
    """TS-07(b) RB-E2 with end_inclusive (AMB-01): 65 >= 65 ends at once."""
    g = _ts07(end_inclusive=True)
    g.script(2, W)
    g.turn(0)
    assert g.ended and g.R == 65 and g.g(L.S_TRAIN_POS) == 4 and g.g(L.S_END_TRIGGER) == L.ET_SCORE


def test_ts07c_ringmaster_first_rb_e2():
    """TS-07(c) RB-E2: grey first: R = 64, 62 is not > 64, the move is offered; white ends it."""
    g = _ts07()
    g.script(2, G, DECLINE, W)
    g.turn(0)
    assert g.ended and g.R == 64 and g.score(0) == 65 and g.g(L.S_TRAIN_POS) == 4


def _ts08(R, b_tokens=2, **tweaks):
    g = Game(n=3, tweaks=tweaks or None)
    g.set(L.S_R, R)
    for s, v in enumerate((40, 40, 30)):
        g.set_seat(s, L.F_SCORE, v)
    g.set_seat(0, L.F_GOLD, 2)
    g.set_seat(0, L.F_STARS, 1)
    g.set_seat(1, L.F_STARS, 1)
    g.set_seat(1, L.F_STOCKS, 1 if b_tokens == 2 else 2)
    g.force(1)
    return g


def test_ts08_trailing_ringmaster_tiebreak_rb_e3_e4():
    """TS-08 RB-E3 / RB-E4: C's Ringmaster ends the game; A and B tie on 40, A wins on tokens;
    with equal tokens the win is shared (winner_seat = -1)."""
    g = _ts08(40)
    g.script(MG)
    g.turn(2)
    assert g.ended and g.g(L.S_END_SEAT) == 2
    games, seats = _results(g)
    assert games[G_WINNER_SEAT] == 0 and games[G_N_WINNERS] == 1
    g = _ts08(40, b_tokens=3)
    g.script(MG)
    g.turn(2)
    games, seats = _results(g)
    assert games[G_WINNER_SEAT] == -1 and games[G_N_WINNERS] == 2
    assert list(seats[:, S_RANK]) == [1, 1, 3]
    g = _ts08(41)
    g.script(MG, DECLINE)
    g.turn(2)
    assert not g.ended and g.R == 40
    g = _ts08(41, end_inclusive=True)
    g.script(MG)
    g.turn(2)
    assert g.ended and g.R == 40


def test_rb_e1_ringmaster_sources():
    """RB-E1: R falls by ringmaster_step for die slot 1, Arrow -> Ringmaster and the gamble
    die's Ringmaster; it never rises."""
    g = Game(tweaks={"ringmaster_step": 2})
    g.set_seat(0, L.F_GOLD, 2)
    g.set_die(0, BL, ["R", ("ARROW", 1), 3, 4, 5, 6])
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.force(1, 2, 2, 4)                # white R, black ARROW->R, grey GAMBLE -> RINGMASTER
    g.script(2, W, DECLINE, BL, DECLINE)
    g.turn(0)
    assert g.R == 65 - 6 and g.g(L.S_RM_DROPS) == 3


def test_rb_e5_truncation_and_termination():
    """RB-E5: a game that cannot end is cut at max_turns and flagged truncated; default games
    end (R falls with every Ringmaster result)."""
    arm = batch.make_arm(SPEC, 2, tweaks={"ringmaster_step": 0, "ringmaster_start_2p": 200,
                                          "max_turns": 100}, policy="random")
    games, seats = batch.run_games(arm, 5, 0, 20)
    cols = SPEC.game_column_names
    assert (games[:, cols.index("truncated")] == 1).all()
    assert (games[:, cols.index("end_reason")] == SPEC.end_reasons.index("truncated")).all()
    assert (games[:, cols.index("turns")] == 100).all()
    assert (games[:, cols.index("n_winners")] >= 1).all()


# ---- end_bonus_points: added to the final score before RB-E3's ranking ---------------------
SCOLS = {c: i for i, c in enumerate(SPEC.seat_column_names)}


def _final(points, tokens, bonus=None):
    """Result rows of a game whose seats hold ``points`` and ``tokens`` (gold) as it stands
    (``kernel.finish``), with ``end_bonus_points = bonus``."""
    g = Game(n=len(points), tweaks=None if bonus is None else {"end_bonus_points": bonus})
    for s, (p, t) in enumerate(zip(points, tokens)):
        g.set_seat(s, L.F_SCORE, p)
        g.set_seat(s, L.F_GOLD, t)
    return g.results()


def test_rb_e3_end_bonus_points_lifts_second_to_first():
    """(0, 3): seat 1's 38 + 3 = 41 passes seat 0's 40; the score column includes the bonus."""
    games, seats = _final((40, 38), (0, 0))
    assert games[G_WINNER_SEAT] == 0
    games, seats = _final((40, 38), (0, 0), bonus=(0, 3))
    assert list(seats[:, SCOLS["score"]]) == [40, 41] and list(seats[:, S_RANK]) == [2, 1]
    assert games[G_WINNER_SEAT] == 1 and games[G_N_WINNERS] == 1


def test_rb_e3_end_bonus_points_tie_goes_to_tokens_then_shared():
    """(0, 2) ties 40 and 38 at 40: the most tokens win (RB-E3), equal tokens share the win."""
    games, seats = _final((40, 38), (1, 3), bonus=(0, 2))
    assert list(seats[:, SCOLS["score"]]) == [40, 40] and list(seats[:, S_RANK]) == [2, 1]
    assert games[G_WINNER_SEAT] == 1
    games, seats = _final((40, 38), (3, 1), bonus=(0, 2))
    assert games[G_WINNER_SEAT] == 0
    games, seats = _final((40, 38, 10), (2, 2, 9), bonus=(0, 2, 0))
    assert list(seats[:, S_RANK]) == [1, 1, 3]
    assert games[G_WINNER_SEAT] == -1 and games[G_N_WINNERS] == 2


def test_rb_e3_end_bonus_points_negative_and_repeated_for_later_seats():
    """A negative bonus costs the lead (and may take a score below 0); a short list repeats
    its last value (3 players, (0, -5): seats 1 and 2 lose 5)."""
    games, seats = _final((40, 38), (0, 0), bonus=(-3, 0))
    assert list(seats[:, SCOLS["score"]]) == [37, 38] and games[G_WINNER_SEAT] == 1
    games, seats = _final((2, 38, 41), (0, 0, 0), bonus=(-50, -5))
    assert list(seats[:, SCOLS["score"]]) == [-48, 33, 36] and list(seats[:, S_RANK]) == [3, 2, 1]


def test_rb_e3_end_bonus_points_default_zeros_change_nothing():
    """The default and an explicit (0, 0, 0, 0) give the same rows, the score column = the
    points."""
    a = _final((40, 40, 30), (2, 1, 0))
    b = _final((40, 40, 30), (2, 1, 0), bonus=(0, 0, 0, 0))
    assert all((x == y).all() for x, y in zip(a, b))
    assert list(a[1][:, SCOLS["score"]]) == [40, 40, 30] and list(a[1][:, S_RANK]) == [1, 2, 3]


def test_rb_e2_e3_end_bonus_points_never_triggers_the_end_but_decides_it():
    """TS-08 with a bonus: the end check (RB-E2) ignores it (41 > R = 40 only with the bonus:
    the game goes on); at the end it decides RB-E3 (B's +1 beats A's token tiebreak), in the
    result rows and the replay's end event alike."""
    g = _ts08(41, end_bonus_points=(5, 5, 5))
    g.script(MG, DECLINE)
    g.turn(2)
    assert not g.ended and g.R == 40
    g = _ts08(40, end_bonus_points=(0, 1, 0))
    g.script(MG)
    g.turn(2)
    assert g.ended
    games, seats = _results(g)
    assert games[G_WINNER_SEAT] == 1 and list(seats[:, SCOLS["score"]]) == [40, 41, 30]
    end = [e for e in g.events() if e[0] == L.EV_END]
    assert len(end) == 1 and end[0][4] == 1 and end[0][5] == 1  # winner seat 1, 1 winner


def test_rb_e3_end_bonus_points_run_0_3_favours_seat_1():
    """--set end_bonus_points=0,3, 2 players, 300 greedy games (fixed seed): the same games,
    seat 1's scores 3 higher, its win share up and seat 0's down (tests/end_bonus.py)."""
    check_bonus_0_3(SPEC)
