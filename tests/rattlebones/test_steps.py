"""The step machine (``sim.decide``): a game is resumable at every decision."""
import numpy as np
import pytest

from sim import batch, decide
from sim.trace import events
from sim.games.rattlebones import SPEC
from sim.games.rattlebones import layout as L

from .helpers import start

N_GAME = len(SPEC.game_column_names)
N_SEAT = len(SPEC.seat_column_names)


@pytest.mark.parametrize("n,policy,seats", [(2, "greedy", None), (3, "greedy", {0: "random"}),
                                            (4, "random", None)])
def test_copy_at_a_decision_plays_on_like_the_original(n, policy, seats):
    """A ``Game.copy()`` taken at a decision and played on gives the results and events of
    the original, which are those of the batch kernel (``play_many``, ``play_one``)."""
    arm = batch.make_arm(SPEC, n, policy=policy, seat_policies=seats)
    for index in (0, 5):
        g = start(arm, n, 21, index)
        g.play_on(max_decisions=7 + index)
        assert g.advance() and g.state[L.S_POINT] != 0
        c = g.copy()
        assert (c.state == g.state).all() and c.state is not g.state
        c.play_on()
        g.play_on()
        assert g.over and c.over and c.decisions == g.decisions
        rg, rc = g.results(n, N_GAME, N_SEAT), c.results(n, N_GAME, N_SEAT)
        assert (rg[0] == rc[0]).all() and (rg[1] == rc[1]).all()
        assert (events(g.log) == events(c.log)).all()
        games, seats_out = batch.run_games(arm, 21, index, 1)
        assert (games[0] == rg[0]).all() and (seats_out[0] == rg[1]).all()
        ev, _, _ = batch.replay(arm, 21, index)
        assert (np.asarray(ev) == events(g.log)).all()


def test_pending_decision_is_stable_and_checked():
    """``advance`` with a decision pending changes nothing; ``apply`` of an index out of
    range is refused without a change; a script names the decision it cannot take."""
    arm = batch.make_arm(SPEC, 2, policy="greedy")
    g = start(arm, 2, 3, 0)
    assert g.advance()
    before = g.state.copy()
    assert g.advance()
    assert (g.state == before).all()
    n = int(g.state[L.S_N_OPTIONS])
    for bad in (-1, n):
        with pytest.raises(decide.ScriptError, match="is not offered"):
            g.apply(bad)
    assert (g.state == before).all()
    with pytest.raises(decide.ScriptError, match="out of range at D0"):
        decide.play_script(g, [n])
    decide.play_script(g, [0, 0, 0], strict=True)
    assert g.decisions == 3 and not g.over


def test_option_codes_round_trip():
    """The one declaration of the packed options (``options.py``): decode(encode(x)) == x, and
    every code reads as text."""
    from sim.games.rattlebones import options as O
    for dist in range(1, 14):
        for monkey in range(L.MAX_MONKEYS):
            code = O.encode_move(dist, monkey)
            assert tuple(O.decode_move(code)) == (dist, monkey)
            assert O.option_text(L.D_NINE, code) == f"monkey {monkey} moves {dist}"
    for kind in (0, 1):
        for die in range(L.MAX_DICE):
            for sidx in range(L.N_SLOTS):
                assert tuple(O.decode_plus1(O.encode_plus1(kind, die, sidx))) == (kind, die, sidx)
    assert O.option_text(L.D_PLUS1, O.DECLINE) == "no +1"
