"""The one decision interface every game implements (``shared/design.md`` §3).

A game is a **resumable step machine over its state array**. The int64 state holds the whole
position: the rule state, the control position (phase, current seat, step: where play goes on)
and the random streams (int64 bits, ``sim.rng.draw``). Nothing about a game in progress lives
on the Python or Numba call stack between two decisions, so ``state.copy()`` taken at any
decision plays on exactly like the original (a search policy does this, after re-sampling the
hidden information in the copy).

Each game declares, inside its ``STATE`` block, the options block :func:`option_fields`: the
pending decision point (the game's ``D_*`` code), the deciding seat, the number ``n`` of legal
options and their codes. Its kernel provides four jitted functions with these signatures:

``advance(state, rules, comp, log) -> int``
    Plays the forced steps (dice, scoring, decisions with a single legal option, decision
    points with none) up to the next decision with two or more legal options, writes it into
    the options block and returns 1; returns 0 when the game is over. With a decision already
    pending it returns 1 and changes nothing, so it may be called again. (A game's
    ``advance_all``, see :class:`Steps`, stops at every decision instead, for the traces.)
``apply(state, rules, comp, index, log) -> bool``
    Carries out option ``index`` (0 <= index < n) of the pending decision; False (and no
    change) if ``index`` is out of range. Every listed option is legal: applying it never
    trips a rule check.
``choose(state, rules, comp, kinds, pparams, work) -> int``
    The deciding seat's policy: an option index. Policies read the state, the options and their
    parameters and never change the state (apart from drawing from the policy stream).
    ``kinds[seat] == K_RANDOM`` (0 in every game) is :func:`random_index`; the game adds its
    heuristics (``greedy`` and presets), which read the same options. ``work`` is a tuple of
    arrays the heuristics cache per game (derived from the setup, so a copy may share them).
``finish(state, rules, comp, games_row, seats_rows)``
    Writes the result rows of a finished game (``GO_*`` / ``SO_*``).

The kernel's own loop is ``while advance(...): apply(..., choose(...), log)``; ``play_one``
and ``play_many`` are that loop. :class:`Steps` bundles the functions for Python callers
(``GameSpec.steps``); :func:`play` drives a game from Python with a **scripted policy** (a list
of option indices, then the seats' own policies), which the rule scenario tests use instead of
hooks in the kernel.

**Chance points.** The dice of a scenario test come through the same interface. Every
production path draws a die from the dice stream where it rolls. Asked for chance points (a
``chance`` argument of the game's step loop, which only tests and tools pass), the step machine
stops before each die instead and posts it like a decision: a ``D_*`` code of its own (named
in ``Steps.chance_points``, not a decision point of the spec), the rolling seat as decider and
one option per face; applying an option rolls the die showing that face. The tests' ``force``
helpers answer the chance points with the faces they are given. Nothing of a test lives in the
production state. The production loops leave the argument out (``chance=False`` by default), so
Numba compiles them with the constant and their roll loops test nothing (as a runtime flag it
cost Rattlebones' self-play 3-4%).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
from numba import njit

from .rng import draw

K_RANDOM = 0   # policy kind 0 is the generic uniform policy in every game


def option_fields(max_options: int) -> tuple:
    """The fields of the options block, for a game's ``STATE`` declaration (``sim.layout``):
    ``S_POINT``, ``S_DECIDER``, ``S_N_OPTIONS``, ``S_OPTIONS`` (``max_options`` codes)."""
    return (("point", 1, "pending decision point D_* (0 = none)"),
            ("decider", 1, "seat that takes the pending decision"),
            ("n_options", 1, "number of legal options of the pending decision"),
            ("options", max_options, "option codes of the pending decision (see D_*)"))


@njit(cache=True)
def random_index(state, rng_field, n):
    """The generic ``random`` policy: uniform over the ``n`` legal options, drawn from the
    stream kept in ``state[rng_field]``."""
    return draw(state, rng_field, n)


@njit(cache=True)
def index_of(state, options_at, n, code):
    """Index of option ``code`` among the ``n`` codes at ``state[options_at:]``; -1 if absent.
    A heuristic that computes the code it wants returns its index with this."""
    for i in range(n):
        if state[options_at + i] == code:
            return i
    return -1


class ScriptError(ValueError):
    """A scripted decision that the game does not offer."""


@dataclass(frozen=True)
class Steps:
    """A game's step machine for Python callers (tests, search policies, replay tools).

    ``new(rules, comp, n_players, kinds, pparams, master_seed, game_index, log) -> (state,
    work)`` sets a game up (nothing decided yet); the other four are the kernel functions of
    the module docstring. ``point``, ``decider``, ``n_options`` and ``options`` are the state
    offsets of the options block; ``points`` names the decision points by code.
    """

    new: Callable
    advance: Callable
    apply: Callable
    choose: Callable
    finish: Callable
    point: int
    decider: int
    n_options: int
    options: int
    points: dict
    # Optional hooks of a game a search policy can play (``sim.search``):
    # ``resample(state, rules, comp, seat, key)`` re-samples, in a copy of the state, what
    # ``seat`` cannot know (every random stream restarted from the int64 ``key``, hidden
    # orders re-shuffled); ``playout(state, rules, comp, kinds, pparams, work, log)`` plays on
    # to the end with the seats' policies (the kernel's own self-play loop).
    resample: Callable | None = None
    playout: Callable | None = None
    # ``option_text(point, code) -> str``: an option code of decision ``point`` in words, from
    # the game's one declaration of its option encodings (``options.py`` of the game folder).
    option_text: Callable | None = None
    # ``advance_all(state, rules, comp, log) -> int``: ``advance`` that stops at every decision
    # the rules pose, whatever its number of options n (``sim.tracing`` counts them): 1 with
    # it posted; n = 1 is a forced decision (the caller applies index 0), n = 0 a decision
    # point reached with no legal option, whose fallback the rules have already played (the
    # caller applies nothing: the next call passes it and goes on); 0 once the game is over.
    # Without it a game's trace sees only the decisions ``advance`` stops at.
    advance_all: Callable | None = None
    # ``chance_points``: the game's chance points by code (a die about to roll, posted only
    # when a test or tool asks for them; see the module docstring). Not decision points: the
    # traces and policies never meet them, so they are named here and not in ``points``.
    chance_points: dict = field(default_factory=dict)
    # ``ranks``: the policies pick among the listed option codes, so ``choose`` on a copy with
    # its choice taken off the list names its next best (``sim.search``'s ``top``). False where
    # a heuristic computes the code it wants from the state, or its position in the list, and
    # so cannot name a next best (Flower Shop; Rattlebones' face install, arrow and shop).
    ranks: bool = True

    def pending(self, state: np.ndarray) -> tuple[int, int, list[int]]:
        """(decision point, seat, option codes) of the pending decision."""
        n = int(state[self.n_options])
        return (int(state[self.point]), int(state[self.decider]),
                [int(x) for x in state[self.options:self.options + n]])

    def describe(self, state: np.ndarray) -> str:
        """The pending decision in words: its point, the seat and the options (their codes,
        and their text when the game declares ``option_text``)."""
        point, seat, codes = self.pending(state)
        if self.option_text is not None:
            codes = [f"{c} ({self.option_text(point, c)})" for c in codes]
        name = self.points.get(point) or self.chance_points.get(point, point)
        return f"{name} of seat {seat}, options {codes}"


@dataclass
class Game:
    """A game in progress driven from Python (see :func:`play`)."""

    steps: Steps
    state: np.ndarray
    work: tuple
    rules: np.ndarray
    comp: tuple
    kinds: np.ndarray
    pparams: np.ndarray
    log: np.ndarray
    decisions: int = 0       # decisions taken so far
    over: bool = False

    def copy(self, log: np.ndarray | None = None) -> "Game":
        """An independent copy that plays on from here (work caches are shared)."""
        return Game(self.steps, self.state.copy(), self.work, self.rules, self.comp, self.kinds,
                    self.pparams, self.log.copy() if log is None else log, self.decisions,
                    self.over)

    def advance(self) -> bool:
        """Play to the next decision; False when the game is over."""
        self.over = not self.steps.advance(self.state, self.rules, self.comp, self.log)
        return not self.over

    def apply(self, index: int) -> None:
        if not self.steps.apply(self.state, self.rules, self.comp, np.int64(index), self.log):
            raise ScriptError(f"option {index} is not offered at {self.steps.describe(self.state)}")
        self.decisions += 1

    def take(self, code: int) -> None:
        """Apply the pending option whose code is ``code`` (tests name options by code)."""
        point, seat, codes = self.steps.pending(self.state)
        if code not in codes:
            raise ScriptError(f"option code {code} is not offered at {self.steps.describe(self.state)}")
        self.apply(codes.index(code))

    def answer_chance(self, forced: list) -> bool:
        """When the pending decision is a chance point (``Steps.chance_points``), roll the
        die showing the next of ``forced`` (its option code, taken off the list) and return
        True; False otherwise. A chance point is not a decision: ``decisions`` is unchanged."""
        point, _, codes = self.steps.pending(self.state)
        if point not in self.steps.chance_points:
            return False
        face = forced.pop(0)
        if face not in codes:
            raise ScriptError(f"forced face {face} is not offered at {self.steps.describe(self.state)}")
        self.steps.apply(self.state, self.rules, self.comp, np.int64(codes.index(face)), self.log)
        return True

    def choose(self) -> int:
        return int(self.steps.choose(self.state, self.rules, self.comp, self.kinds, self.pparams,
                                     self.work))

    def play_on(self, max_decisions: int | None = None) -> "Game":
        """Let the seats' policies decide until the end (or ``max_decisions`` more decisions)."""
        k = 0
        while (max_decisions is None or k < max_decisions) and self.advance():
            self.apply(self.choose())
            k += 1
        return self

    def play_out(self) -> "Game":
        """To the end in one jitted call, the kernel's own self-play loop (``Steps.playout``):
        the same moves as :meth:`play_on`, without a return to Python per decision, so
        ``decisions`` does not count them. Falls back to :meth:`play_on` without the hook."""
        if self.steps.playout is None:
            return self.play_on()
        self.steps.playout(self.state, self.rules, self.comp, self.kinds, self.pparams,
                           self.work, self.log)
        self.over = not self.advance()
        return self

    def results(self, n_players: int, n_game_cols: int, n_seat_cols: int):
        g = np.zeros(n_game_cols, dtype=np.int64)
        s = np.zeros((n_players, n_seat_cols), dtype=np.int64)
        self.steps.finish(self.state, self.rules, self.comp, g, s)
        return g, s


def start(steps: Steps, rules, comp, n_players: int, kinds, pparams, master_seed: int,
          game_index: int, log: np.ndarray | None = None) -> Game:
    """Set a game up for stepping from Python (no decision taken yet)."""
    log = np.zeros((1, 8), dtype=np.int64) if log is None else log
    state, work = steps.new(rules, comp, np.int64(n_players), kinds, pparams,
                            np.uint64(master_seed), np.int64(game_index), log)
    return Game(steps, state, work, rules, comp, kinds, pparams, log)


def play_script(game: Game, script: Sequence[int], strict: bool = False) -> Game:
    """The scripted policy: take the pending decisions with the option indices of ``script``
    in order, then (unless ``strict``) let the seats' policies play on to the end.

    ``strict`` stops after the script with the next decision pending (or the game over), so a
    test can check the state there. An index the game does not offer raises ScriptError naming
    the decision.
    """
    for i, index in enumerate(script):
        if not game.advance():
            raise ScriptError(f"the game ended before scripted decision {i} ({index})")
        n = int(game.state[game.steps.n_options])
        if not 0 <= index < n:
            raise ScriptError(f"scripted decision {i}: index {index} is out of range at "
                              f"{game.steps.describe(game.state)}")
        game.apply(index)
    if strict:
        game.advance()
        return game
    return game.play_on()
