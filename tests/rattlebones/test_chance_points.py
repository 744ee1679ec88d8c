"""Chance points (D_ROLL, D_GAMBLE_ROLL): every die about to roll is posted, on request
(``kernel.advance_turn`` with ``chance``), as a decision of the rolling seat whose options are
the die's faces; answering it rolls the die as showing that face (RB-T3, RB-F8, RB-F6). Without
``chance`` the step machine draws the dice as ``advance`` does."""
import numpy as np
import pytest

from sim import batch
from sim.trace import events
from sim.games.rattlebones import SPEC
from sim.games.rattlebones import kernel as K
from sim.games.rattlebones import layout as L
from sim.games.rattlebones import options as O

from .helpers import BL, G, MG, MW, W, Game, start

SLOTS = [1, 2, 3, 4, 5, 6]          # D_ROLL options: slot numbers
GAMBLE_FACES = [0, 1, 2, 3, 4, 5]   # D_GAMBLE_ROLL options: gamble face indices


def _step(g, chance=True):
    """``advance_turn`` on the helper's game; the pending decision (point, seat, codes)."""
    assert int(K.advance_turn(g.state, g.rules, g.comp, g.log, chance)) == 1
    return g.pending()


def _rolls(g):
    """The EV_ROLL events so far: (seat, die, slot number, reroll event)."""
    return [(int(e[1]), int(e[2]), int(e[3]), int(e[6])) for e in g.events()
            if e[0] == L.EV_ROLL]


def test_rb_t3_a_chance_point_per_die_in_die_id_order():
    """RB-T3 / RB-S11: with ``chance`` each chosen die is posted in die-id order (D_ROLL, the
    rolling seat, options slots 1..6, S_ROLL_LEFT the dice still to roll); the answers are the
    slots the dice show."""
    g = Game()
    g.set_seat(1, L.F_GOLD, 2)
    g.start_turn(1)
    assert _step(g) == (L.D_EXTRA, 1, [0, 1, 2])
    g.game.take(2)                               # three dice: the dice choice is forced
    for die, slot, left in ((W, 4, 0b111), (BL, 1, 0b110), (G, 6, 0b100)):
        assert _step(g) == (L.D_ROLL, 1, SLOTS)
        assert g.g(L.S_ROLL_LEFT) == left and g.g(L.S_PHASE) == L.PH_ROLL
        g.game.take(slot)
        assert g.g(L.S_UP_SLOT + die) == slot - 1
    assert _step(g)[0] == L.D_ORDER               # PIP_4, RINGMASTER, PIP_6
    assert g.g(L.S_ROLL_LEFT) == 0
    assert _rolls(g) == [(1, W, 4, 0), (1, BL, 1, 0), (1, G, 6, 0)]
    assert g.seat(1, L.F_DICE_ROLLED) == 3
    assert O.option_text(L.D_ROLL, 4) == "die shows slot 4"


def test_rb_f8_rerolled_dice_are_chance_points():
    """RB-F8: the dice of a reroll event (the Reroll die and the added one) are posted in
    die-id order after the D03 choice, and roll with the event's number."""
    g = Game()
    g.set_die(0, W, ["R", "REROLL", "POINTS_3", 4, 5, 6])
    g.start_turn(0)
    assert _step(g) == (L.D_DICE, 0, [MW, 2, MG])
    g.game.take(MW)
    assert _step(g) == (L.D_ROLL, 0, SLOTS)
    g.game.take(2)                               # white REROLL
    assert _step(g) == (L.D_REROLL, 0, [BL, G])
    g.game.take(G)
    for slot, left in ((3, 0b101), (5, 0b100)):
        assert _step(g) == (L.D_ROLL, 0, SLOTS)
        assert g.g(L.S_ROLL_LEFT) == left
        g.game.take(slot)
    point, _, codes = _step(g)
    assert point == L.D_ORDER and codes == [W, G]
    assert _rolls(g) == [(0, W, 2, 0), (0, W, 3, 1), (0, G, 5, 1)]


@pytest.mark.parametrize("k,score,r", [(0, 2, 65), (3, 5, 65), (4, 0, 64)])
def test_rb_f6_the_gamble_die_is_a_chance_point(k, score, r):
    """RB-F6: resolving a GAMBLE posts the gamble die (D_GAMBLE_ROLL, faces 0..5 of
    ``gamble_faces``); the answer is the face it shows: 2 / 5 points, RINGMASTER R - 1."""
    g = Game()
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.start_turn(0)
    assert _step(g)[0] == L.D_DICE
    g.game.take(MG)
    assert _step(g) == (L.D_ROLL, 0, SLOTS)
    g.game.take(2)
    assert _step(g) == (L.D_GAMBLE_ROLL, 0, GAMBLE_FACES)
    assert g.g(L.S_PHASE) == L.PH_GAMBLE and g.g(L.S_CTX_DIE) == G
    assert L.EV_GAMBLE not in g.codes()
    g.game.take(k)
    assert int(K.advance_turn(g.state, g.rules, g.comp, g.log, True)) == 2
    gambles = [(int(e[1]), int(e[2]), int(e[3])) for e in g.events() if e[0] == L.EV_GAMBLE]
    assert gambles == [(0, G, g.g(L.S_GAMBLE + k))]
    assert g.score(0) == score and g.R == r
    assert O.option_text(L.D_GAMBLE_ROLL, 5) == "gamble die shows face 5"


def test_rb_f6_gamble_nine_goes_on_with_the_move():
    """RB-F6 / AMB-13: the gamble die's NINE, given at the chance point, starts the D07 move
    of the die that showed the Gamble."""
    g = Game()
    g.set_die(0, G, ["R", "GAMBLE", 3, 4, 5, 6])
    g.start_turn(0)
    _step(g)
    g.game.take(MG)
    _step(g)
    g.game.take(2)
    assert _step(g)[0] == L.D_GAMBLE_ROLL
    g.game.take(5)                               # NINE
    point, seat, codes = _step(g)
    assert point == L.D_NINE and seat == 0 and len(codes) == 9 * 3 + 1
    assert g.g(L.S_CTX_DIE) == G


def test_chance_points_consume_no_draw_and_the_forced_helper_falls_back_to_the_stream():
    """A chance point draws nothing: the dice stream moves only for the dice not forced, and
    ``force`` with fewer draws than dice leaves the rest to the stream (``advance_turn``
    without ``chance``)."""
    g = Game()
    g.set_seat(0, L.F_GOLD, 2)
    g.start_turn(0)
    _step(g)
    g.game.take(2)
    _step(g)
    before = g.g(L.S_RNG_D)
    g.game.take(3)
    assert g.g(L.S_RNG_D) == before
    ref = g.state.copy()
    want = [int(K._draw_slot(ref)) + 1 for _ in range(2)]
    g.script(strict=False)
    g.run()                                      # no draw left: black and grey from the stream
    assert [r[2] for r in _rolls(g)] == [3] + want


# ---- whole games: chance points answered from the dice stream are the games of ``advance`` ----
N_GAME = len(SPEC.game_column_names)
N_SEAT = len(SPEC.seat_column_names)
CASES = [(2, "greedy", 3), (3, "random", 4), (4, "random", 4)]


def _not_options(state):
    """The state without the options block's codes (stale entries past n are not part of
    the position; the chance points list more options than most decisions)."""
    keep = np.ones(state.shape[0], dtype=bool)
    keep[L.S_OPTIONS:L.S_OPTIONS + L.MAX_OPTS] = False
    return state[keep]


@pytest.mark.parametrize("n,policy,games", CASES)
def test_rb_t3_f6_games_answered_from_the_dice_stream_are_the_advance_games(n, policy, games):
    """RB-T3 / RB-F8 / RB-F6 / RB-S11: a game stepped with ``chance``, each chance point
    answered with the draw the dice stream gives there, is the game ``advance`` plays (state,
    events, results; ``play_one``'s replay): every die is posted exactly where it is drawn,
    in the same order, and the answer applies the face as the draw does."""
    arm = batch.make_arm(SPEC, n, policy=policy)
    seen = {L.D_ROLL: 0, L.D_GAMBLE_ROLL: 0}
    for index in range(games):
        c = start(arm, n, 7, index)
        while (r := int(K.advance_turn(c.state, c.rules, c.comp, c.log, True))) != 0:
            if r == 2:
                continue
            point = int(c.state[L.S_POINT])
            if point == L.D_ROLL:
                c.take(int(K._draw_slot(c.state)) + 1)
            elif point == L.D_GAMBLE_ROLL:
                c.take(int(K._draw_gamble(c.state)))
            else:
                c.apply(c.choose())
            if point in seen:
                seen[point] += 1
        g = start(arm, n, 7, index).play_on()
        assert (_not_options(c.state) == _not_options(g.state)).all()
        assert (events(c.log) == events(g.log)).all()
        rc, rg = c.results(n, N_GAME, N_SEAT), g.results(n, N_GAME, N_SEAT)
        assert (rc[0] == rg[0]).all() and (rc[1] == rg[1]).all()
        ev, _, _ = batch.replay(arm, 7, index)
        assert (np.asarray(ev) == events(g.log)).all()
    assert seen[L.D_ROLL] > 0
    assert seen[L.D_GAMBLE_ROLL] > 0, "no gamble die rolled: pick other games"


@pytest.mark.parametrize("n,policy,games", CASES)
def test_without_chance_the_turn_steps_are_advance(n, policy, games):
    """``advance_turn`` without ``chance`` posts no chance point: at every decision its state
    is that of ``advance`` (the whole state, options block included), to the end."""
    arm = batch.make_arm(SPEC, n, policy=policy)
    for index in range(games):
        c = start(arm, n, 11, index)
        g = start(arm, n, 11, index)
        while (r := int(K.advance_turn(c.state, c.rules, c.comp, c.log, False))) != 0:
            if r == 2:
                continue
            assert g.advance()
            assert int(c.state[L.S_POINT]) not in (L.D_ROLL, L.D_GAMBLE_ROLL)
            assert (c.state == g.state).all()
            i = c.choose()
            assert g.choose() == i                # the policy stream is in the state too
            c.apply(i)
            g.apply(i)
        assert not g.advance()
        assert (c.state == g.state).all() and (events(c.log) == events(g.log)).all()
