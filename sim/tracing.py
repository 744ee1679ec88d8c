"""Round traces: how a game unfolds, round by round and decision by decision.

A traced game is played through the game's step machine, stopping at every decision the
rules pose (``Steps.advance_all``; a game without it: ``advance``, the real choices only):
``while advance_all:`` a real choice (two or more legal options) is taken by the seat's
policy (``choose``), a forced one (a single legal option) with option 0, as ``advance`` takes
it, and a decision point reached with no legal option (posted with none, the rules' fallback
already played) is passed. These are the same moves as the game's ``play_many``
(tests/test_tracing.py checks the rows are identical), with two records on the side:

- **rounds**: after each round, per seat, the game's score as of that moment (or its running
  proxy, declared per game) and the game's few key resources. A round is over when the game's
  round counter moves on; the record is taken at the first decision of the next round, forced
  ones included (the steps between the two, such as dice rolls, have happened), and the last
  round's record holds the final scores.
- **actions**: per seat and decision point, how often the seat faced it (every decision:
  real choices, forced ones and those with no legal option), how often it was forced (one
  legal option) and how often it had no legal option, the summed number of legal options,
  and per option *kind* (declared per game: a readable class of options, such as "trade
  slot") how often a kind was legal and how often chosen, over the real choices. Which
  decision points can be reached with no legal option is said per game in its step machine
  (``_steps``/``_step`` of ``sim/games/<game>/kernel.py``) and in docs/metrics_play.md.

A game declares what to record in :class:`TraceSpec` (``GameSpec.trace``): the jitted
functions ``round_of(state)`` (1 in the first round, 0 before it), ``score_of(state, rules, comp, seat)``,
``resources_of(state, rules, comp, seat, out)`` and ``kind_of(state, rules, comp, point,
code)``, the resource names and the option kinds. The loop is written once here and compiled
per game like the search loop (``sim.search``): a copy of each function with the game's
functions bound, cached by Numba, optimised as one program.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .loops import Kernel, compile_for_game
from .spec import S_SCORE

# columns of a round record, then the resources
RC_ROUND, RC_SEAT, RC_SCORE = 0, 1, 2
RC_LEN = 3
# columns of an action record per (seat, kind): legal, chosen; per (seat, point): faced,
# options summed, forced (one legal option), no legal option
AC_LEGAL, AC_CHOSEN = 0, 1
PC_FACED, PC_OPTIONS, PC_FORCED, PC_NO_LEGAL = 0, 1, 2, 3
PC_LEN = 4


@dataclass(frozen=True)
class TraceSpec:
    """What a game records in a traced game (see the module docstring).

    ``kinds`` lists the option kinds as ``(decision point code, kind name)``; ``kind_of``
    returns an index into it, which must belong to the pending point. ``max_rounds`` bounds
    the rounds recorded: a longer game (a game near the safety cap) records no rounds at all
    (its count is -1), so that every recorded game is whole.
    ``score`` says in words what the score column holds (the rules' score, or which running
    proxy), for ``playtest rules`` and the docs.
    """

    round_of: Callable
    score_of: Callable
    resources_of: Callable
    kind_of: Callable
    resources: tuple[str, ...]
    kinds: tuple[tuple[int, str], ...]
    score: str
    max_rounds: int = 64


_KERNELS: dict[str, Any] = {}


def _tag(trace: TraceSpec) -> str:
    """A digest of the trace hooks' names. It is part of the compiled loop's name and of its
    key here: Numba's cache tells functions apart by name and source file, not by the
    functions their globals bind, so a trace declared elsewhere for the same game (a test's)
    must never load or reuse this one's loop, nor the other way round (its buffers differ)."""
    hooks = (trace.round_of, trace.score_of, trace.resources_of, trace.kind_of)
    return hashlib.sha1(" ".join(f"{h.__module__}.{h.__qualname__}" for h in hooks)
                        .encode()).hexdigest()[:8]


def kernel_for(spec):
    """The compiled tracing loop of ``spec``'s game and trace (built once per process)."""
    key = (spec.id, _tag(spec.trace))
    if key not in _KERNELS:
        _KERNELS[key] = _build(spec.id, spec.steps, spec.trace)
    return _KERNELS[key]


def sizes(spec, n_players: int) -> tuple[int, int, int, int]:
    """(max rounds, resources, kinds, points) of a game's trace buffers."""
    t = spec.trace
    return (t.max_rounds, len(t.resources), len(t.kinds), max(spec.steps.points) + 1)


def play(arm, master_seed: int, first_index: int, n_games: int):
    """Trace games ``first_index .. first_index + n_games - 1`` of ``arm``.

    Returns
    -------
    games, seats : the result rows (``sim.batch.run_games`` shapes), equal to an untraced run
    n_rounds : int64[n_games], rounds recorded per game (-1: more than ``max_rounds``)
    rounds : int64[n_games, max_rounds, n_players, RC_LEN + n_resources]
    kinds : int64[n_games, n_players, n_kinds, 2] (legal, chosen)
    points : int64[n_games, n_players, n_points, PC_LEN] (faced, options summed, forced, no
        legal option)
    """
    spec = arm.spec
    if spec.trace is None:
        raise ValueError(f"{spec.id} declares no trace (GameSpec.trace)")
    mr, nres, nk, npt = sizes(spec, arm.n_players)
    n = arm.n_players
    games = np.zeros((n_games, len(spec.game_column_names)), dtype=np.int64)
    seats = np.zeros((n_games, n, len(spec.seat_column_names)), dtype=np.int64)
    n_rounds = np.zeros(n_games, dtype=np.int64)
    rounds = np.zeros((n_games, mr, n, RC_LEN + nres), dtype=np.int64)
    kinds = np.zeros((n_games, n, nk, 2), dtype=np.int64)
    points = np.zeros((n_games, n, npt, PC_LEN), dtype=np.int64)
    k = kernel_for(spec)
    pk, pp = arm.policy_arrays
    k.trace_many(arm.rules, arm.comp, n, pk, pp, np.uint64(master_seed), np.int64(first_index),
                 games, seats, n_rounds, rounds, kinds, points)
    return games, seats, n_rounds, rounds, kinds, points


# ---- the generic loop -------------------------------------------------------------------
# Plain functions over the placeholders below; ``_build`` compiles a copy per game.
_new = _advance = _apply = _choose = _finish = None
_round_of = _score_of = _resources_of = _kind_of = None
POINT = DECIDER = N_OPTIONS = OPTIONS = 0


def record(state, rules, comp, n_players, r, rounds_out, at, res):
    """Round ``r``'s record of every seat into ``rounds_out[at]``."""
    for seat in range(n_players):
        row = rounds_out[at, seat]
        row[0] = r
        row[1] = seat
        row[2] = _score_of(state, rules, comp, seat)
        _resources_of(state, rules, comp, seat, res)
        for j in range(res.shape[0]):
            row[3 + j] = res[j]


def trace_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, grow, srows,
               rounds_out, kinds_out, points_out):
    """Play one game through the step machine with its records; returns the rounds recorded
    (-1 when the game had more than the buffer holds)."""
    log = np.zeros((1, 8), dtype=np.int64)
    state, work = _new(rules, comp, n_players, kinds, pparams, master_seed, game_index, log)
    res = np.zeros(rounds_out.shape[2] - 3, dtype=np.int64)
    legal = np.zeros(kinds_out.shape[1], dtype=np.bool_)
    max_rounds = rounds_out.shape[0]
    nr = 0
    r_last = _round_of(state)
    while _advance(state, rules, comp, log):
        r = _round_of(state)
        if r != r_last:
            if r_last >= 1:            # round 0: the setup, before the first round
                if nr < max_rounds - 1:
                    record(state, rules, comp, n_players, r_last, rounds_out, nr, res)
                nr += 1
            r_last = r
        seat = state[DECIDER]
        point = state[POINT]
        n = state[N_OPTIONS]
        points_out[seat, point, PC_FACED] += 1
        points_out[seat, point, PC_OPTIONS] += n
        if n == 0:           # no legal option: the rules have passed it (the next call goes on)
            points_out[seat, point, PC_NO_LEGAL] += 1
            continue
        if n == 1:           # forced: taken as ``advance`` takes it, without the policy
            points_out[seat, point, PC_FORCED] += 1
            _apply(state, rules, comp, 0, log)
            continue
        legal[:] = False
        for j in range(n):
            legal[_kind_of(state, rules, comp, point, state[OPTIONS + j])] = True
        for k in range(legal.shape[0]):
            if legal[k]:
                kinds_out[seat, k, 0] += 1
        i = _choose(state, rules, comp, kinds, pparams, work)
        kinds_out[seat, _kind_of(state, rules, comp, point, state[OPTIONS + i]), 1] += 1
        _apply(state, rules, comp, i, log)
    _finish(state, rules, comp, grow, srows)
    if nr >= max_rounds:
        return -1
    record(state, rules, comp, n_players, r_last, rounds_out, nr, res)
    for seat in range(n_players):
        rounds_out[nr, seat, 2] = srows[seat, S_SCORE]   # the last record: the final scores
    return nr + 1


def trace_many(rules, comp, n_players, kinds, pparams, master_seed, first_index, games_out,
               seats_out, n_rounds, rounds_out, kinds_out, points_out):
    """Games ``first_index + i``; game i writes only its own rows."""
    for i in range(games_out.shape[0]):
        n_rounds[i] = trace_game(rules, comp, n_players, kinds, pparams, master_seed,
                                 first_index + i, games_out[i], seats_out[i], rounds_out[i],
                                 kinds_out[i], points_out[i])


_LOOP = (record, trace_game, trace_many)


def _build(game_id: str, steps, trace: TraceSpec) -> Kernel:
    """Compile the tracing loop for one game (``sim.loops``), named ``<name>__<game>_<digest of
    the trace hooks' names>`` so that Numba's cache keeps one per game and trace declaration."""
    return compile_for_game(
        globals(), _LOOP, f"{game_id}_{_tag(trace)}",
        dict(_new=steps.new, _advance=steps.advance_all or steps.advance, _apply=steps.apply,
             _choose=steps.choose, _finish=steps.finish, _round_of=trace.round_of,
             _score_of=trace.score_of, _resources_of=trace.resources_of, _kind_of=trace.kind_of,
             POINT=steps.point, DECIDER=steps.decider, N_OPTIONS=steps.n_options,
             OPTIONS=steps.options),
        entry="trace_game")
