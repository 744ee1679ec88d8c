"""Run a batch of games of one arm and return their result columns.

Python validates and allocates; the game's jitted ``play_many`` fills the output arrays
(each game writes only its own row) on threads (``sim.threads``). Chunking, worker counts and
Parquet live in ``pipelines/``.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass
from types import FunctionType
from typing import Any, Callable, Iterator, Mapping

import numpy as np

from .presets import expand
from .search import arrays as search_arrays, run_games as run_search, uses_search
from .spec import Components, GameSpec, SpecError
from .threads import play_in_threads
from .trace import events, new_log


@dataclass(frozen=True)
class Arm:
    """One fully resolved configuration: game, players, rules, components and seat policies."""

    spec: GameSpec
    n_players: int
    variant: str
    rule_values: Mapping[str, Any]
    components: Components
    policies: tuple[str, ...]  # one policy string per seat, e.g. "greedy:w_stars=2"
    # The player counts of the arms of this game that run in the same process (one compiled
    # kernel serves them all, GameSpec.kernel_components); empty = this arm's alone.
    kernel_counts: tuple[int, ...] = ()

    @property
    def rules(self) -> np.ndarray:
        return self.spec.pack_rules(self.rule_values)

    @property
    def comp(self) -> tuple:
        """The component arrays the kernels get (``GameSpec.comp``)."""
        return self.spec.comp(self.components, self.kernel_counts or (self.n_players,))

    @property
    def policy_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self.spec.pack_policies(list(self.policies))

    @property
    def policy_names(self) -> tuple[str, ...]:
        return tuple(self.spec.policy_values(p)[0] for p in self.policies)


def make_arm(spec: GameSpec, n_players: int, variant: str | None = None,
             tweaks: Mapping[str, Any] | None = None, policy: str = "greedy",
             seat_policies: Mapping[int, str] | None = None,
             components: Components | None = None) -> Arm:
    """Validate everything about an arm up front (raises SpecError with the valid choices)."""
    spec.check_players(n_players)
    v = spec.variant(variant, n_players)
    values = spec.rule_values(n_players, v.name, tweaks)
    seats = [policy] * n_players
    for seat, pol in (seat_policies or {}).items():
        if not 0 <= int(seat) < n_players:
            raise SpecError(f"--seat-policy seat {seat} is out of range (valid: 0-{n_players - 1})")
        seats[int(seat)] = pol
    seats = [expand(p, spec.id) for p in seats]  # a preset file -> its plain values
    for p in seats:
        spec.policy_values(p)  # validate
    comps = components if components is not None else spec.load_components(None)
    arm = Arm(spec, n_players, v.name, dict(values), comps, tuple(seats))
    if uses_search(arm):
        search_arrays(arm)  # validate the search seats together (one base policy)
    return arm


def run_games(arm: Arm, master_seed: int, first_index: int, n_games: int) -> tuple[np.ndarray, np.ndarray]:
    """Play games ``first_index .. first_index + n_games - 1`` of ``arm``.

    Returns
    -------
    games : int64[n_games, len(spec.game_column_names)]
    seats : int64[n_games, n_players, len(spec.seat_column_names)]
    """
    if n_games <= 0:
        raise SpecError(f"number of games must be positive, got {n_games}")
    if not 0 <= master_seed < 2**63:
        raise SpecError(f"seed {master_seed} is out of range (valid: 0..{2**63 - 1})")
    spec = arm.spec
    games = np.zeros((n_games, len(spec.game_column_names)), dtype=np.int64)
    seats = np.zeros((n_games, arm.n_players, len(spec.seat_column_names)), dtype=np.int64)
    if uses_search(arm):  # the generic search loop over the game's step machine
        run_search(arm, master_seed, first_index, games, seats)
        return games, seats
    kinds, params = arm.policy_arrays
    play_in_threads(spec.play_many, (arm.rules, arm.comp, arm.n_players, kinds,
                                     params, np.uint64(master_seed)), first_index, games, seats)
    return games, seats


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block (a kernel's first call, which may
    compile it). Numba's compiler makes millions of objects; the collector's passes over them
    were 7% of a Flower Shop kernel's compile time. Single-threaded callers only (it is
    process-wide); the collector runs again after the block."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _call(fn: Callable[..., Any], args: tuple) -> Any:
    return fn(*args)


# CPython (3.11+) keeps Python frames in 16 KiB chunks and maps a chunk when a call crosses the
# end of the last one, unmapping it again when that call returns. Numba's compiler recurses
# deeply and up and down, so a Flower Shop compile mapped and unmapped a fresh chunk about
# 500,000 times: 2-3 s of system time and page faults, about a tenth of the compile. A frame
# larger than a chunk gets a chunk of its own, sized to the next power of two. This copy of
# ``_call`` declares a value stack of 2**18 + 8192 slots (about 2.1 MB, never written, so its
# pages are never touched): its frame opens a 4 MiB chunk, and the frames of the call below it
# fit in the 2 MB left. Plain Python, no patch: where frames are not kept this way (another
# interpreter or version) the call is just an ordinary call.
_DEEP_STACK_SLOTS = 2**18 + 8192
try:
    _call_on_deep_stack = FunctionType(_call.__code__.replace(co_stacksize=_DEEP_STACK_SLOTS),
                                       globals(), "_call_on_deep_stack")
except (AttributeError, TypeError, ValueError):  # pragma: no cover - not CPython
    _call_on_deep_stack = _call


def first_call(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` as a kernel's first call, which may compile it (15-30 s): with the
    cyclic collector paused (:func:`gc_paused`) and on a frame-stack chunk large enough for
    Numba's compiler, which otherwise maps and unmaps hundreds of thousands of small chunks.
    Returns what ``fn`` returns; single-threaded callers only."""
    with gc_paused():
        return _call_on_deep_stack(fn, args)


def replay(arm: Arm, master_seed: int, game_index: int):
    """Play one game with tracing on.

    Returns
    -------
    (events int64[n, EV_WIDTH], games row, seats rows)
    """
    spec = arm.spec
    if uses_search(arm):
        raise SpecError("replay does not support the search policies yet; replay the game "
                        "with the base policy, or run it and read its result rows")
    log = new_log(spec.max_events)
    g = np.zeros(len(spec.game_column_names), dtype=np.int64)
    s = np.zeros((arm.n_players, len(spec.seat_column_names)), dtype=np.int64)
    kinds, params = arm.policy_arrays
    first_call(spec.play_one, arm.rules, arm.comp, arm.n_players, kinds, params,
               np.uint64(master_seed), np.int64(game_index), g, s, log)  # compiles it once
    return events(log), g, s


def game_text(arm: Arm, evs: np.ndarray, g: np.ndarray) -> list[str]:
    """The turn-by-turn text of one replayed game (:func:`replay`), as ``playtest replay``
    prints it below its header: one line per event, then how the game ended and the game's own
    statistics. (The CLI shows the seat rows as a table; :func:`seat_lines` gives them as
    text, for the golden playthroughs in ``tests/golden/``.)"""
    spec = arm.spec
    lines = [spec.format_event(ev, arm.components) for ev in evs]
    if len(evs) >= spec.max_events:
        lines.append(f"… log truncated at {spec.max_events} events")
    lines.append("")
    gv = dict(zip(spec.game_column_names, (int(x) for x in g)))
    reasons = spec.end_reasons
    reason = reasons[gv["end_reason"]] if 0 <= gv["end_reason"] < len(reasons) else gv["end_reason"]
    winner = (f"winner seat {gv['winner_seat']}" if gv["n_winners"] == 1
              else f"{gv['n_winners']} winners (shared)" if gv["n_winners"] > 1 else "no winner")
    rounds = f"{gv['rounds']} round" + ("" if gv["rounds"] == 1 else "s")  # sim: no analysis.words
    lines.append(f"end: {reason} after {rounds}; {winner}"
                 + (" (TRUNCATED at the safety cap)" if gv["truncated"] else ""))
    extra = {k: v for k, v in gv.items() if k not in ("rounds", "truncated", "n_winners",
                                                      "winner_seat", "end_reason")}
    if extra:
        lines.append(", ".join(f"{k}={v}" for k, v in extra.items()))
    return lines


def seat_lines(arm: Arm, seats: np.ndarray) -> list[str]:
    """One line per seat of a game's seat rows: its policy and every seat column."""
    names = arm.spec.seat_column_names
    return [f"seat {i} ({arm.policy_names[i]}): "
            + ", ".join(f"{c}={int(v)}" for c, v in zip(names, seats[i]))
            for i in range(arm.n_players)]
