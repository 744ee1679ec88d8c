"""The conformance audit of Flower Shop games finds real violations (it can fail)."""
import numpy as np
import pytest

from sim import batch
from sim.games.flower_shop import SPEC
from sim.games.flower_shop import layout as L
from sim.games.flower_shop.audit import audit, audit_events


@pytest.fixture(scope="module")
def arm4():
    return batch.make_arm(SPEC, 4, policy="greedy")


def _events(arm, index=3):
    ev, _, _ = batch.replay(arm, 11, index)
    return ev.copy()


def test_audit_passes_on_real_games(arm4):
    g, s = batch.run_games(arm4, 11, 0, 50)
    assert audit(arm4, 11, 0, g, s) == []


def test_audit_flags_a_die_used_twice_FS_U6(arm4):
    ev = _events(arm4)
    fin = np.flatnonzero(ev[:, 0] == L.EV_FINISH)[0]
    seat, mask = ev[fin, 1], ev[fin, 4]
    die = int(np.flatnonzero([(mask >> d) & 1 for d in range(L.MAX_DICE)])[0])
    extra = np.array([[L.EV_TAKE_MONEY, seat, die, 0, 5, 0, 0, 0]])
    bad = np.concatenate([ev[: fin + 1], extra, ev[fin + 1:]])
    assert any("used a die twice" in p for p in audit_events(arm4, bad))


def test_audit_flags_an_uncovered_finish_FS_U1(arm4):
    ev = _events(arm4)
    fin = np.flatnonzero(ev[:, 0] == L.EV_FINISH)[0]
    ev[fin, 4] = 0  # no dice used
    ev[fin, 5] = 0  # and no tokens
    assert any("uncovered" in p for p in audit_events(arm4, ev))


def test_audit_flags_a_wrong_score_FS_E2(arm4):
    ev = _events(arm4)
    sc = np.flatnonzero(ev[:, 0] == L.EV_SCORE)[0]
    ev[sc, 5] += 1
    assert any("recomputed" in p for p in audit_events(arm4, ev))
