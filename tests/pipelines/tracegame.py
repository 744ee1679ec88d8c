"""A test ``TraceSpec`` for Rattlebones (no real game declares a trace in this tree yet).

``traced_spec()`` is the registered Rattlebones spec with this trace attached
(``dataclasses.replace``); ``install(monkeypatch)`` registers it as ``rattlebones`` for a test
(or for good in a subprocess, ``tracecli.py``). Rounds: ``round = (turn + n - 1) // n``;
score: the seat's score; resources: gold and stars; one option kind ``"all"`` per decision
point (kind index = point code - 1).
"""
from __future__ import annotations

import importlib
import sys
from dataclasses import replace

from numba import njit

from sim.games.rattlebones import layout as L
from sim.tracing import TraceSpec

GAME_ID = "rattlebones"


@njit(cache=False)
def round_of(state):
    n = state[L.S_N_PLAYERS]
    return (state[L.S_TURN] + n - 1) // n


@njit(cache=False)
def score_of(state, rules, comp, seat):
    return state[L.SEAT0 + seat * L.SEAT_LEN + L.F_SCORE]


@njit(cache=False)
def resources_of(state, rules, comp, seat, out):
    at = L.SEAT0 + seat * L.SEAT_LEN
    out[0] = state[at + L.F_GOLD]
    out[1] = state[at + L.F_STARS]


@njit(cache=False)
def kind_of(state, rules, comp, point, code):
    return point - 1


def trace_for(spec) -> TraceSpec:
    points = sorted(spec.steps.points)
    assert points == list(range(1, len(points) + 1)), "kind_of assumes points 1..k"
    return TraceSpec(round_of=round_of, score_of=score_of, resources_of=resources_of,
                     kind_of=kind_of, resources=("gold", "stars"),
                     kinds=tuple((p, "all") for p in points),
                     score="the seat's score (test trace)")


_SPEC = None


def traced_spec():
    """Rattlebones' registered spec with the test trace (built once per process)."""
    global _SPEC
    if _SPEC is None:
        reg = importlib.import_module("sim.registry")
        base = reg._LOADED.get(GAME_ID) if isinstance(reg._GAMES[GAME_ID], str) else None
        base = base or reg.make(GAME_ID)
        _SPEC = replace(base, trace=trace_for(base))
    return _SPEC


def install(monkeypatch=None):
    """Register the traced Rattlebones as ``rattlebones`` (for a test, or for good)."""
    reg = importlib.import_module("sim.registry")
    spec = traced_spec()
    if monkeypatch is not None:
        monkeypatch.setitem(reg._GAMES, GAME_ID, spec)
    else:
        reg._GAMES[GAME_ID] = spec
    return spec


if __name__ == "__main__":  # pragma: no cover
    sys.exit("import me")
