"""Hand-built Rattlebones states with forced dice and scripted decisions (test helpers).

A test sets a game up (``sim.decide.start``), edits its state, forces the dice and plays one
turn whose decisions it scripts by option code (``sim.decide.Game.take``); the step machine
stops at the end of the turn (``kernel.advance_turn``). Forced dice are answers to the step
machine's chance points (D_ROLL, D_GAMBLE_ROLL), posted while forced draws are queued.

Dice are white = 0, black = 1, grey = 2 (RB-S5). Die faces are written slots 1..6 as in the
spec's §11: ``'R'`` (Ringmaster), 2..6 (pips), face names, and ``('ARROW', t)`` for an arrow
targeting slot t. Decisions use the option encodings of ``layout.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim import batch, decide
from sim.trace import events, new_log
from sim.games.rattlebones import SPEC
from sim.games.rattlebones import kernel as K
from sim.games.rattlebones import layout as L
from sim.games.rattlebones import options as O
from sim.games.rattlebones import policies as P
from sim.games.rattlebones.rules import FACE_NAMES

W, BL, G = 0, 1, 2                      # die ids
MW, MB, MG = 1, 2, 4                    # dice masks
DECLINE = O.DECLINE


def mv(dist, monkey=0):
    """D06/D07/D13: move ``monkey`` ``dist`` spaces (``options.encode_move``)."""
    return int(O.encode_move(dist, monkey))


def place_p1(die, slot):
    """D10: put POINTS_1 into ``slot`` (1..6) of ``die`` (``options.encode_plus1``)."""
    return int(O.encode_plus1(0, die, slot - 1))


def upgrade(die, slot):
    """D10: upgrade the point face in ``slot`` (1..6) of ``die``."""
    return int(O.encode_plus1(1, die, slot - 1))


def face_code(x):
    if x == "R":
        return L.FC_RINGMASTER
    if isinstance(x, (int, np.integer)):
        assert 2 <= x <= 6
        return int(x)
    return FACE_NAMES.index(x)


_ARMS: dict = {}


def start(arm, n, seed, index):
    """Game ``index`` of seed ``seed`` set up for stepping (``sim.decide.start``), with a log
    of the game's size."""
    kinds, pp = arm.policy_arrays
    return decide.start(SPEC.steps, arm.rules, arm.comp, n, kinds, pp, seed, index,
                        new_log(SPEC.max_events))


def arm_for(n, tweaks=None, policy="random"):
    key = (n, tuple(sorted((tweaks or {}).items())), policy)
    if key not in _ARMS:
        _ARMS[key] = batch.make_arm(SPEC, n, tweaks=tweaks, policy=policy)
    return _ARMS[key]


class Game:
    """A set-up game whose tile slots are EMPTY (tiles_used = 0) unless a test places spaces.

    ``game`` is the ``sim.decide.Game`` that plays it; ``state`` and ``log`` are its arrays.
    ``opts`` holds the options of the last decision taken (and of the listing helpers below).
    """

    def __init__(self, n=4, tweaks=None, policy="random", seed=0, tiles=False):
        t = dict(tweaks or {})
        if not tiles:
            t.setdefault("tiles_used", 0)
        arm = arm_for(n, t, policy)
        self.n = n
        self.rules = arm.rules
        self.comp = arm.comp
        self.kinds, self.pp = arm.policy_arrays
        self.game = decide.start(SPEC.steps, self.rules, self.comp, n, self.kinds, self.pp, seed,
                                 0, new_log(5000))
        self.state = self.game.state
        self.log = self.game.log
        self.opts = np.zeros(L.MAX_OPTS, dtype=np.int64)
        self._script: list[int] = []
        self._force: list[int] = []
        self._strict = True

    # ---- state access -------------------------------------------------------------------
    def seat(self, s, field):
        return int(self.state[L.SEAT0 + s * L.SEAT_LEN + field])

    def set_seat(self, s, field, v):
        self.state[L.SEAT0 + s * L.SEAT_LEN + field] = v

    def score(self, s):
        return self.seat(s, L.F_SCORE)

    def gold(self, s):
        return self.seat(s, L.F_GOLD)

    def stars(self, s):
        return self.seat(s, L.F_STARS)

    def stocks(self, s):
        return self.seat(s, L.F_STOCKS)

    def monkey(self, s, m):
        return self.seat(s, L.F_MONKEY + m)

    def set_monkey(self, s, m, pos):
        self.set_seat(s, L.F_MONKEY + m, pos)

    def g(self, field):
        return int(self.state[field])

    def set(self, field, v):
        self.state[field] = v

    @property
    def R(self):
        return int(self.state[L.S_R])

    def supply(self, face):
        return int(self.state[L.S_FACE_SUPPLY + face_code(face)])

    def set_supply(self, face, v):
        self.state[L.S_FACE_SUPPLY + face_code(face)] = v

    def space(self, i, spec):
        if spec in ("START", "PLUS1", "EMPTY"):
            kind, face = {"START": L.SP_START, "PLUS1": L.SP_PLUS1, "EMPTY": L.SP_EMPTY}[spec], 0
        else:
            kind, face = L.SP_FACE, face_code(spec)
        self.state[L.S_SPACE_KIND + i] = kind
        self.state[L.S_SPACE_FACE + i] = face

    def set_die(self, s, d, faces):
        b = L.SEAT0 + s * L.SEAT_LEN
        for i, x in enumerate(faces):
            t = -1
            if isinstance(x, tuple):
                x, t = x[0], x[1] - 1
            self.state[b + L.F_FACE + d * 6 + i] = face_code(x)
            self.state[b + L.F_ARROW + d * 6 + i] = t

    def die(self, s, d):
        b = L.SEAT0 + s * L.SEAT_LEN
        out = []
        for i in range(6):
            f = int(self.state[b + L.F_FACE + d * 6 + i])
            t = int(self.state[b + L.F_ARROW + d * 6 + i])
            if f == L.FC_RINGMASTER:
                out.append("R")
            elif L.FC_PIP_2 <= f <= L.FC_PIP_6:
                out.append(f)
            elif f == L.FC_ARROW:
                out.append(("ARROW", t + 1))
            else:
                out.append(FACE_NAMES[f])
        return out

    # ---- forcing ------------------------------------------------------------------------
    def force(self, *draws):
        """Forced draws in RNG order: die slots 1..6, gamble-die face index 0..5. ``run``
        answers the chance points with them (D_ROLL: slot number, D_GAMBLE_ROLL: face
        index); once they are used up the dice are drawn from the stream."""
        self._force = list(draws)

    def script(self, *decisions, strict=True):
        """The option codes of the next decisions; ``strict``: any further decision with two
        or more options fails the test (else the seat's policy takes it)."""
        self._script = list(decisions)
        self._strict = strict

    def check_script(self):
        assert not self._script, f"scripted decisions left over: {self._script}"
        assert not self._force, f"forced draws left over: {self._force}"

    def pending(self):
        """(decision point, seat, option codes) of the pending decision."""
        return SPEC.steps.pending(self.state)

    # ---- running ------------------------------------------------------------------------
    def start_turn(self, seat=0):
        """Make ``seat``'s turn the next step (after the test's edits of the state)."""
        self.state[L.S_ACTIVE] = seat
        self.state[L.S_PHASE] = L.PH_TURN
        self.state[L.S_POINT] = 0
        self.state[L.S_N_OPTIONS] = 0
        # the face-value tables read the train track and n: refresh them after the edits
        P.fill_cfg(self.game.work[0], self.state, self.rules, self.kinds, self.pp)

    def run(self, until=()):
        """Play the turn on: forced draws at the chance points while any are left, scripted
        decisions, then (strict) none or the policies; stop at the end of the turn or the
        game (returns 2 / 0), or when a decision of a point in ``until`` is pending (returns
        1, not taken)."""
        while True:
            r = int(K.advance_turn(self.state, self.rules, self.comp, self.log,
                                   bool(self._force)))
            if r != 1:
                return r
            if self.game.answer_chance(self._force):   # a forced draw is its option code
                continue
            point, _, codes = self.pending()
            if point in until:
                return 1
            self.opts[:] = 0
            self.opts[:len(codes)] = codes
            if self._script:
                self.game.take(self._script.pop(0))
            elif self._strict:
                raise AssertionError("unscripted decision: " + SPEC.steps.describe(self.state))
            else:
                self.game.apply(self.game.choose())

    def turn(self, seat=0, check=True):
        self.start_turn(seat)
        self.run()
        if check:
            self.check_script()

    def results(self):
        """The result rows of the game as it stands (``kernel.finish``)."""
        return self.game.results(self.n, len(SPEC.game_column_names), len(SPEC.seat_column_names))

    def events(self):
        return events(self.log)

    def codes(self):
        return [int(e[0]) for e in self.events()]

    @property
    def ended(self):
        return bool(self.state[L.S_ENDED])


# ---- jitted helpers: dice draws from a separate stream, option listings into ``opts``.
@njit(cache=True)
def _copy_opts(state, opts):
    """Copy the options listed at ``state[S_OPTIONS:]`` into ``opts``."""
    for i in range(min(opts.shape[0], L.MAX_OPTS)):
        opts[i] = state[L.S_OPTIONS + i]


@njit(cache=True)
def _swap_dice_stream(state, rng):
    """Exchange the dice stream kept in the state (S_RNG_D) with the ``uint64[1]`` stream
    ``rng``: called before and after a draw, it draws from ``rng`` and leaves the state's
    stream as it was."""
    v = state[L.S_RNG_D]
    state[L.S_RNG_D] = np.int64(rng[0])
    rng[0] = np.uint64(v)


@njit(cache=True)
def draw_slot(state, rng):
    """One die roll (see ``kernel._draw_slot``, a slot index 0..5) from the ``uint64[1]``
    stream ``rng``."""
    _swap_dice_stream(state, rng)
    s = K._draw_slot(state)
    _swap_dice_stream(state, rng)
    return s


@njit(cache=True)
def draw_gamble(state, rng):
    """One gamble-die roll (see ``kernel._draw_gamble``) from the ``uint64[1]`` stream ``rng``."""
    _swap_dice_stream(state, rng)
    g = K._draw_gamble(state)
    _swap_dice_stream(state, rng)
    return g


@njit(cache=True)
def arrow_target_options(state, rules, sidx, opts):
    """Legal arrow targets (see ``kernel.list_arrow_targets``) listed into ``opts``; returns n."""
    n = K.list_arrow_targets(state, rules, sidx)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def plus1_options(state, rules, seat, die, opts):
    """Legal +1 choices (see ``kernel.list_plus1``) listed into ``opts``; returns n."""
    n = K.list_plus1(state, rules, seat, die)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def move_options(state, seat, dmin, dmax, optional, opts):
    """Legal moves (see ``kernel.list_moves``) listed into ``opts``; returns n."""
    n = K.list_moves(state, seat, dmin, dmax, optional)
    _copy_opts(state, opts)
    return n
