"""The Flower Shop as a step machine on the one decision interface (``sim.decide``): games driven
from Python match the kernel loop, a copy taken at a decision plays on like the original, every
listed option is legal, and the greedy heuristics only ask for listed options."""
import numpy as np

from sim import batch, decide
from sim.games.flower_shop import options as O

from .kernel_helpers import K, L, SPEC, arm, events, new_log

STEPS = SPEC.steps


def _start(a, seed, index, log_capacity=1):
    kinds, pp = a.policy_arrays
    return decide.start(STEPS, a.rules, a.comp, a.n_players, kinds, pp, seed, index,
                        new_log(log_capacity) if log_capacity > 1 else None)


def _results(game, n):
    return game.results(n, len(SPEC.game_column_names), len(SPEC.seat_column_names))


def _decisions(game):
    """Walk ``game`` to its end with the seats' policies, yielding at every pending decision."""
    while game.advance():
        yield game
        game.apply(game.choose())


def test_python_stepping_and_a_copy_at_a_decision_match_the_kernel():
    """``while advance: apply(choose)`` from Python gives the kernel's results and events; a
    state copied at a decision and played on gives the same results as the original (the
    random seats' stream lives in the state too)."""
    for n, seat_policies in ((1, {}), (2, {0: "random"}), (4, {1: "random", 3: "expert"})):
        a = batch.make_arm(SPEC, n, policy="greedy", seat_policies=seat_policies)
        for index in range(3):
            ev, g, s = batch.replay(a, 11, index)
            whole = _start(a, 11, index, SPEC.max_events).play_on()
            game = _start(a, 11, index, SPEC.max_events)
            game.play_on(max_decisions=whole.decisions // 2)
            assert game.advance(), "the game should still be running"
            copy = game.copy()
            game.play_on()
            copy.play_on()
            for played in (whole, game, copy):
                g2, s2 = _results(played, n)
                assert (g2 == g).all() and (s2 == s).all()
                assert np.array_equal(events(played.log), ev)
            assert copy.decisions == game.decisions == whole.decisions > 10


def test_a_copy_is_independent_of_the_original():
    """Playing a copy on with other choices leaves the original's state untouched."""
    game = _start(arm(3, "random"), 5, 0)
    game.play_on(max_decisions=30)
    game.advance()
    before = game.state.copy()
    copy = game.copy()
    copy.play_on()
    assert copy.over and np.array_equal(game.state, before)


def _expected_event(point, code):
    """(event code, argument index, value) that applying option ``code`` logs first, or None
    when it logs nothing (declining a ribbon or a refresh)."""
    if point == L.D_LOCK:
        return L.EV_LOCK, 2, code
    if point == L.D_TILE:
        return L.EV_TAKE_TILE, 2, O.decode_tile(code)[0]
    if point == L.D_STEP4:
        kind, arg = O.decode_step4(code)
        return {L.A_DONE: (L.EV_STEP4_DONE, None, None), L.A_FINISH: (L.EV_FINISH, 2, arg),
                L.A_TAKE_TOKEN: (L.EV_TAKE_TOKEN, 2, arg), L.A_TAKE_MONEY: (L.EV_TAKE_MONEY, 2, arg),
                L.A_BUY_TOKEN: (L.EV_BUY_TOKEN, None, None)}[kind]
    if code == 0:
        return None
    return (L.EV_RIBBON, None, None) if point == L.D_RIBBON else (L.EV_REFRESH, None, None)


def test_every_listed_option_applies():
    """At sampled decisions of random games (every decision point, 1-4 players), each listed
    option is accepted and carries out exactly the listed action (its event, by the right
    seat); a decision is only asked with two or more distinct options."""
    seen = set()
    for n, variant in ((1, "solo_base"), (1, "solo_very_hard"), (2, None), (3, None), (4, None)):
        a = arm(n, "random", variant)
        for index in range(2):
            for k, game in enumerate(_decisions(_start(a, 3, index))):
                point, seat, codes = STEPS.pending(game.state)
                assert len(codes) >= 2 and len(set(codes)) == len(codes)
                seen.add(point)
                if k % 3:
                    continue
                for i, code in enumerate(codes):
                    trial = game.copy(log=new_log(40))
                    trial.apply(i)
                    ev = events(trial.log)
                    expected = _expected_event(point, code)
                    if expected is None:
                        assert len(ev) == 0
                        continue
                    what, at, value = expected
                    assert ev[0][0] == what and ev[0][1] == seat, (point, code, ev[:2])
                    if at is not None:
                        assert ev[0][at] == value, (point, code, ev[0])
                    if point == L.D_TILE:
                        assert ev[0][4] == O.decode_tile(code)[1]
    assert seen == {L.D_LOCK, L.D_TILE, L.D_STEP4, L.D_RIBBON, L.D_REFRESH}


def test_greedy_heuristics_ask_only_for_listed_options():
    """The greedy family (and its presets) always wants a listed option, so the kernel's
    fallback in ``choose`` is never taken."""
    for n, pol in ((1, "greedy"), (1, "novice"), (1, "expert"), (2, "greedy"), (3, "thrifty"),
                   (4, "greedy")):
        a = arm(n, pol)
        for index in range(3):
            game = _start(a, 3, index)
            scr, fscr = game.work
            for g in _decisions(game):
                point, seat, codes = STEPS.pending(g.state)
                code = K.greedy_code(g.state, g.rules, g.comp, np.int64(seat), g.pparams[seat], scr,
                                     fscr)
                assert code in codes, (pol, point, code, codes)


def test_scripted_decisions_take_the_given_options():
    """``play_script`` takes the scripted option indices in order, like applying them by hand,
    and names the decision when an index is not offered."""
    a = arm(2, "greedy")
    scripted = decide.play_script(_start(a, 1, 0), [1, 0, 1], strict=True)
    by_hand = _start(a, 1, 0)
    for index in (1, 0, 1):
        assert by_hand.advance()
        by_hand.apply(index)
    by_hand.advance()
    assert scripted.decisions == 3 and np.array_equal(scripted.state, by_hand.state)
    try:
        decide.play_script(scripted, [999])
    except decide.ScriptError as e:
        assert "out of range" in str(e) and "DP-" in str(e)
    else:
        raise AssertionError("an index not offered must raise ScriptError")


def test_option_codes_round_trip():
    """The one declaration of the packed options (``options.py``): decode(encode(x)) == x, and
    every code reads as text."""
    for pos in range(L.MAX_ROW):
        for slot in range(L.MAX_SLOTS):
            assert tuple(O.decode_tile(O.encode_tile(pos, slot))) == (pos, slot)
    for action in (L.A_DONE, L.A_FINISH, L.A_TAKE_TOKEN, L.A_TAKE_MONEY, L.A_BUY_TOKEN):
        for arg in (0, 5, (1 << L.MAX_DICE) - 1):
            assert tuple(O.decode_step4(O.encode_step4(action, arg))) == (action, arg)
    assert O.option_text(L.D_STEP4, O.encode_step4(L.A_FINISH, 2)) == "finish the tile in slot 2"
    assert O.option_text(L.D_TILE, O.encode_tile(1, 3)) == "row tile 1 into shop slot 3"
