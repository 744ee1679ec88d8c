"""The event-log audit (``audit.py``): random and greedy games pass it, and it catches a log
whose resources, levels or incomes do not add up."""
import pytest

from sim import batch
from sim.games.cupcake_empire import SPEC
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire.audit import audit, audit_events


@pytest.mark.parametrize("n,policy", [(2, "random"), (4, "random"), (3, "greedy"), (4, "salesman")])
def test_games_pass_the_audit(n, policy):
    arm = batch.make_arm(SPEC, n, policy=policy)
    games, seats = batch.run_games(arm, 7, 0, 12)
    assert audit(arm, 7, 0, games, seats) == []


def _first(ev, code):
    return next(i for i, e in enumerate(ev) if e[0] == code)


@pytest.mark.parametrize("code,column,delta,message", [
    (L.EV_SALE, 6, 1, "income"),            # a sale paying one more than it says
    (L.EV_ROLL, 4, 1, "rolled a colour"),   # a die rolled from another location
    (L.EV_ACTIVATE, 3, 1, "L_avail"),       # a level the dice do not give
    (L.EV_MENU, 5, 1, "production"),        # a menu's production off by one
])
def test_the_audit_catches_a_tampered_log(code, column, delta, message):
    arm = batch.make_arm(SPEC, 2, policy="greedy")
    ev, _, rows = batch.replay(arm, 7, 1)
    assert audit_events(arm, ev, rows) == []
    bad = ev.copy()
    i = _first(bad, code)
    bad[i, column] += delta
    if code == L.EV_ROLL:
        bad[i, column] = bad[i, column] % 6 + 1
    problems = audit_events(arm, bad, rows)
    assert problems and any(message in p for p in problems), problems
