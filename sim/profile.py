"""Where a game's time goes: its rules against its policies, by decision point.

``profile(arm, games)`` plays ``games`` games of ``arm`` on one thread with the seats'
policies, recording every chosen option, then plays them again:

* with every decision taken from the record: the **rules** alone (setting up, listing the
  options, applying them, the forced steps), the same games without a policy;
* with the decisions of one decision point taken from the record and the others by the
  policies: the time saved is the **policy's time at that point**;
* setting the games up only (``setup``, part of the rules' time);
* with every decision taken from the record and the CPU's cycle counter read around each step
  (``TIMED``): the rules' time **by decision point**, the forced steps and the listing that
  lead to a decision (charged to its point; the steps after the last decision to the game's
  end) apart from applying the option taken. The counter costs a little, so the parts are
  the shares of that run's cycles applied to the rules' time. A machine whose counter reads
  0 gives no parts.

A replay that did not give the same games would time other games: each replay is checked
to take the same number of decisions as the record, and ``tests/test_profile.py`` that a
replay gives the recorded games' rows. Times are per game on one thread: the total the best of
``repeats`` runs, the rules and each point's policy time the median of ``repeats`` paired
differences (a run with the policies everywhere, then the replay), so a point whose policy
takes less than a few microseconds a game reads as noise around 0
(``python -m pipelines.bench --profile``; docs/performance.md).

The loops are generic over the game's step functions (``sim.decide``), compiled per game
(``sim.loops``) and optimised as one program like the games' own loops, so the total is the
kernel's time per game.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .loops import Kernel, compile_for_game

ALL = -1         # replay_point: every decision from the record
NO_POINT = -2    # replay_point: none (and nothing recorded)
RECORD = -3      # replay_point: none, the choices recorded into ``choices`` and counted
SET_UP = -4      # replay_point: set the games up, and nothing more
TIMED = -5       # replay_point: every decision from the record, the steps timed into ``ticks``
# ticks[LISTING, p]: the cycles of the steps up to a decision of point p (its last column: those
# after the last decision); ticks[APPLYING, p]: of applying the option taken there;
# ticks[CALL, 0]: of the whole call
LISTING, APPLYING, CALL = 0, 1, 2
END = "the game's end"   # rules_by_point's name for the steps after the last decision


@intrinsic
def cycles(typingctx):
    """The CPU's cycle counter (LLVM ``readcyclecounter``: the time-stamp counter on x86; 0
    where the target has none)."""
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen

# placeholders, bound per game by ``kernel_for``
_new = _advance = _apply = _choose = _finish = None
POINT = 0


def play_profiled(rules, comp, n_players, kinds, pparams, master_seed, first_index, choices,
                  counts, replay_point, games_out, seats_out, ticks):
    """Games ``first_index + i`` for i < ``choices.shape[0]``, their result rows into
    ``games_out[i]``, ``seats_out[i]``: a decision takes the recorded index ``choices[i, k]``
    if ``replay_point`` is ``ALL``, ``TIMED`` or its point, else the seat's policy's (with
    ``RECORD``: written into ``choices``, its point counted in ``counts``); ``SET_UP``: the
    games are set up only; ``TIMED``: the steps' cycles added into ``ticks`` (int64[3, points
    + 1], ``LISTING``, ``APPLYING``, ``CALL``). Returns the number of decisions taken, -1 if a
    game took more than ``choices.shape[1]``."""
    timed = replay_point == TIMED
    end = ticks.shape[1] - 1
    c0 = cycles() if timed else 0
    total = 0
    for i in range(choices.shape[0]):
        log = np.zeros((1, 8), dtype=np.int64)
        state, work = _new(rules, comp, n_players, kinds, pparams, master_seed,
                           first_index + i, log)
        if replay_point == SET_UP:
            continue
        k = 0
        while True:
            t0 = cycles() if timed else 0
            going = _advance(state, rules, comp, log)
            p = state[POINT] if going else end
            if timed:
                ticks[LISTING, p] += cycles() - t0
            if not going:
                break
            if k == choices.shape[1]:
                return -1
            if replay_point == ALL or timed or p == replay_point:
                j = choices[i, k]
            else:
                j = _choose(state, rules, comp, kinds, pparams, work)
                if replay_point == RECORD:
                    choices[i, k] = j
                    counts[p] += 1
            t0 = cycles() if timed else 0
            _apply(state, rules, comp, j, log)
            if timed:
                ticks[APPLYING, p] += cycles() - t0
            k += 1
        _finish(state, rules, comp, games_out[i], seats_out[i])
        total += k
    if timed:
        ticks[CALL, 0] += cycles() - c0
    return total


_KERNELS: dict[str, Kernel] = {}


def kernel_for(spec) -> Kernel:
    """The compiled profiling loops of ``spec``'s game (built once per process)."""
    if spec.id not in _KERNELS:
        s = spec.steps
        _KERNELS[spec.id] = compile_for_game(
            globals(), (play_profiled,), spec.id,
            dict(_new=s.new, _advance=s.advance, _apply=s.apply, _choose=s.choose,
                 _finish=s.finish, POINT=s.point),
            entry="play_profiled")
    return _KERNELS[spec.id]


@dataclass
class Profile:
    """Microseconds per game (one thread), and per decision point (its name, decisions per
    game, the policy's microseconds per game there)."""

    game: str
    n_players: int
    games: int
    decisions: float    # per game
    total_us: float
    rules_us: float
    setup_us: float
    points: list[tuple[str, float, float]]
    # the rules' time by decision point (``TIMED``): its name (``END`` for the steps after
    # the last decision), the microseconds a game of the steps up to its decisions (forced
    # steps and listing) and of applying the options taken; empty without a cycle counter
    rules_points: list[tuple[str, float, float]]

    @property
    def policy_us(self) -> float:
        return self.total_us - self.rules_us


class Run:
    """The arrays of ``play_profiled`` for ``games`` games of ``arm``."""

    def __init__(self, arm, games: int, seed: int):
        self.kernel = kernel_for(arm.spec)
        self.kinds, self.pparams = arm.policy_arrays
        self.rules, self.comp, self.n = arm.rules, arm.comp, np.int64(arm.n_players)
        self.seed, self.games = np.uint64(seed), games
        self.counts = np.zeros(max(arm.spec.steps.points) + 1, dtype=np.int64)
        self.games_out = np.zeros((games, len(arm.spec.game_column_names)), dtype=np.int64)
        self.seats_out = np.zeros((games, arm.n_players, len(arm.spec.seat_column_names)),
                                  dtype=np.int64)
        self.choices = np.zeros((games, 1024), dtype=np.int64)
        self.ticks = np.zeros((3, len(self.counts) + 1), dtype=np.int64)

    def play(self, replay_point: int) -> int:
        return self.kernel.play_profiled(self.rules, self.comp, self.n, self.kinds,
                                         self.pparams, self.seed, np.int64(0), self.choices,
                                         self.counts, np.int64(replay_point), self.games_out,
                                         self.seats_out, self.ticks)

    def record(self) -> int:
        """Play the games with the policies, recording every choice and counting the
        decisions per point; returns their number."""
        while True:
            self.counts[:] = 0
            d = self.play(RECORD)
            if d >= 0:
                return d
            self.choices = np.zeros((self.games, 2 * self.choices.shape[1]), dtype=np.int64)


def profile(arm, games: int = 2000, seed: int = 1, repeats: int = 3) -> Profile:
    """Where ``arm``'s time goes (module docstring)."""
    run = Run(arm, games, seed)
    decisions = run.record()      # the other modes leave run.counts as recorded
    counts = run.counts

    def timed(replay_point):
        t0 = time.perf_counter()
        d = run.play(replay_point)
        t = time.perf_counter() - t0
        if replay_point != SET_UP and d != decisions:
            raise AssertionError(f"{arm.spec.id}: a replay took {d} decisions, the record "
                                 f"{decisions}: the games are not a function of the choices")
        return t / games * 1e6

    def saved(replay_point):
        """The median of paired differences: the policies everywhere, then the replay."""
        return float(np.median([timed(NO_POINT) - timed(replay_point) for _ in range(repeats)]))

    total = min(timed(NO_POINT) for _ in range(repeats))
    rules_us = total - saved(ALL)
    setup = min(timed(SET_UP) for _ in range(repeats))
    points = [(name, counts[p] / games, saved(p))
              for p, name in sorted(arm.spec.steps.points.items()) if counts[p]]
    timed(TIMED)                  # fills run.ticks (only this replay writes them)
    return Profile(arm.spec.id, arm.n_players, games, decisions / games, total, rules_us,
                   setup, points, rules_by_point(run.ticks, arm.spec.steps.points, rules_us))


def rules_by_point(ticks: np.ndarray, names: dict, rules_us: float
                   ) -> list[tuple[str, float, float]]:
    """(name, listing, applying) in microseconds a game for each decision point with cycles in
    ``ticks`` (a ``TIMED`` run), then ``END``: each part's share of the call's cycles times
    ``rules_us`` (the rules' time a game, without the counter). Empty if the counter read
    nothing."""
    call = ticks[CALL, 0]
    if call <= 0:
        return []
    us = rules_us / call
    end = ticks.shape[1] - 1
    rows = [(name, ticks[LISTING, p] * us, ticks[APPLYING, p] * us)
            for p, name in sorted(names.items()) if ticks[LISTING, p] or ticks[APPLYING, p]]
    return rows + [(END, ticks[LISTING, end] * us, 0.0)]
