"""Hand-built Rattlebones states with forced dice and scripted decisions (test helpers).

Dice are white = 0, black = 1, grey = 2 (RB-S5). Die faces are written slots 1..6 as in the
spec's §11: ``'R'`` (Ringmaster), 2..6 (pips), face names, and ``('ARROW', t)`` for an arrow
targeting slot t. Decisions use the option encodings of ``layout.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim import batch
from sim.rng import SUB_DICE, SUB_POLICY, SUB_SETUP, make_stream, randint
from sim.trace import events, new_log
from sim.games.rattlebones import SPEC
from sim.games.rattlebones import kernel as K
from sim.games.rattlebones import layout as L
from sim.games.rattlebones import policies as P
from sim.games.rattlebones import rules as RU
from sim.games.rattlebones.rules import FACE_NAMES

W, BL, G = 0, 1, 2                      # die ids
MW, MB, MG = 1, 2, 4                    # dice masks
DECLINE = -1


def mv(dist, monkey=0):
    """D06/D07/D13 encoding."""
    return dist * L.MOVE_CODE + monkey


def place_p1(die, slot):
    """D10: put POINTS_1 into ``slot`` (1..6) of ``die``."""
    return die * L.PLUS1_DIE + slot


def upgrade(die, slot):
    """D10: upgrade the point face in ``slot`` of ``die``."""
    return L.PLUS1_KIND + die * L.PLUS1_DIE + slot


def face_code(x):
    if x == "R":
        return L.FC_RINGMASTER
    if isinstance(x, (int, np.integer)):
        assert 2 <= x <= 6
        return int(x)
    return FACE_NAMES.index(x)


_ARMS: dict = {}


def arm_for(n, tweaks=None, policy="random"):
    key = (n, tuple(sorted((tweaks or {}).items())), policy)
    if key not in _ARMS:
        _ARMS[key] = batch.make_arm(SPEC, n, tweaks=tweaks, policy=policy)
    return _ARMS[key]


class Game:
    """A set-up game whose tile slots are EMPTY (tiles_used = 0) unless a test places spaces."""

    def __init__(self, n=4, tweaks=None, policy="random", seed=0, tiles=False):
        t = dict(tweaks or {})
        if not tiles:
            t.setdefault("tiles_used", 0)
        arm = arm_for(n, t, policy)
        self.n = n
        self.rules = arm.rules
        self.comp = arm.components.arrays
        self.kinds, self.pp = arm.policy_arrays
        self.state = np.zeros(K.state_size(n), dtype=np.int64)
        self.opts = np.zeros(L.MAX_OPTS, dtype=np.int64)
        self.log = new_log(5000)
        K.setup_game(self.state, self.rules, self.comp, n, make_stream(seed, 0, SUB_SETUP),
                     self.opts, self.log)
        self.rng_d = make_stream(seed, 0, SUB_DICE)
        self.rng_p = make_stream(seed, 0, SUB_POLICY)

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
        """Forced draws in RNG order: die slots 1..6, gamble-die face index 0..5."""
        for i, v in enumerate(draws):
            self.state[L.S_FORCE + i] = v
        self.state[L.S_FORCE_N] = len(draws)
        self.state[L.S_FORCE_POS] = 0

    def script(self, *decisions, strict=True):
        for i, v in enumerate(decisions):
            self.state[L.S_SCRIPT + i] = v
        self.state[L.S_SCRIPT_N] = len(decisions)
        self.state[L.S_SCRIPT_POS] = 0
        self.state[L.S_SCRIPT_ERR] = 0
        self.state[L.S_SCRIPT_STRICT] = 1 if strict else 0

    def check_script(self):
        assert self.g(L.S_SCRIPT_ERR) == 0, f"illegal or missing scripted decision (code {self.g(L.S_SCRIPT_ERR)})"
        assert self.g(L.S_SCRIPT_POS) == self.g(L.S_SCRIPT_N), "scripted decisions left over"
        assert self.g(L.S_FORCE_POS) == self.g(L.S_FORCE_N), "forced draws left over"

    # ---- running ------------------------------------------------------------------------
    def turn(self, seat=0, check=True):
        self.state[L.S_ACTIVE] = seat
        play_turn(self.state, self.rules, self.kinds, self.pp, self.opts, self.rng_d,
                    self.rng_p, self.log)
        if check:
            self.check_script()

    def events(self):
        return events(self.log)

    def codes(self):
        return [int(e[0]) for e in self.events()]

    @property
    def ended(self):
        return bool(self.state[L.S_ENDED])


# ---- jitted entry points with rules / kinds / policy_params / opts / streams as separate arrays
# (single phases and policies; the game loop passes ``cfg`` and keeps options and streams in the
# state). Only tests call them.
@njit(cache=True)
def make_cfg(state, rules, kinds, pp):
    """A new ``cfg`` array for ``state`` (see ``policies.fill_cfg``)."""
    cfg = np.zeros(RU.C_LEN, dtype=np.float64)
    P.fill_cfg(cfg, state, rules, kinds, pp)
    return cfg


@njit(cache=True)
def _copy_opts(state, opts):
    """Copy the options listed at ``state[S_OPTS:]`` into ``opts``."""
    for i in range(min(opts.shape[0], L.MAX_OPTS)):
        opts[i] = state[L.S_OPTS + i]


@njit(cache=True)
def _load_streams(state, rng_d, rng_p):
    """Store the ``uint64[1]`` dice and policy streams in the state (S_RNG_D, S_RNG_P)."""
    state[L.S_RNG_D] = np.int64(rng_d[0])
    state[L.S_RNG_P] = np.int64(rng_p[0])


@njit(cache=True)
def _save_streams(state, rng_d, rng_p):
    """Write the streams kept in the state back to the ``uint64[1]`` stream arrays."""
    rng_d[0] = np.uint64(state[L.S_RNG_D])
    rng_p[0] = np.uint64(state[L.S_RNG_P])


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
    """One die roll (see ``kernel._draw_slot``) from the ``uint64[1]`` stream ``rng``."""
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
    """Legal arrow targets (see ``kernel._arrow_target_options``) listed into ``opts``; returns n."""
    n = K._arrow_target_options(state, rules, sidx)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def plus1_options(state, rules, seat, die, opts):
    """Legal +1 choices (see ``kernel._plus1_options``) listed into ``opts``; returns n."""
    n = K._plus1_options(state, rules, seat, die)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def move_options(state, seat, dmin, dmax, optional, opts):
    """Legal moves (see ``kernel._move_options``) listed into ``opts``; returns n."""
    n = K._move_options(state, seat, dmin, dmax, optional)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def play_turn(state, rules, kinds, pparams, opts, rng_d, rng_p, log):
    """One turn of the active seat (see ``kernel._play_turn``), with the rules, policy kinds
    ``int64[n]`` and policy parameters ``float64[n, P_LEN]`` as separate arrays."""
    cfg = make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    K._play_turn(state, cfg, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def pay_extra_dice(state, rules, kinds, pparams, seat, opts, rng_p, log):
    """RB-T1 (see ``kernel._pay_extra_dice``). Returns e."""
    cfg = make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_p, rng_p)
    e = K._pay_extra_dice(state, cfg, seat, log)
    _save_streams(state, rng_p, rng_p)
    _copy_opts(state, opts)
    return e


@njit(cache=True)
def choose_and_roll(state, rules, kinds, pparams, seat, e, opts, rng_d, rng_p, log):
    """RB-T2 + RB-T3 (see ``kernel._choose_and_roll``)."""
    cfg = make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    K._choose_and_roll(state, cfg, seat, e, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def reroll_phase(state, rules, kinds, pparams, seat, opts, rng_d, rng_p, log):
    """RB-T4 / RB-F8 (see ``kernel._reroll_phase``)."""
    cfg = make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    K._reroll_phase(state, cfg, seat, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def declare_doubles(state, rules, kinds, pparams, seat, opts, rng_p, log):
    """RB-T5a / RB-F5 (see ``kernel._declare_doubles``)."""
    cfg = make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_p, rng_p)
    K._declare_doubles(state, cfg, seat, log)
    _save_streams(state, rng_p, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def resolution_phase(state, rules, kinds, pparams, seat, opts, rng_d, rng_p, log):
    """RB-T5b (see ``kernel._resolution_phase``)."""
    cfg = make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    K._resolution_phase(state, cfg, seat, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def choose(state, rules, kind, pp, seat, dp, opts, n, rng):
    """Return one of ``opts[:n]`` for decision ``dp`` of ``seat`` (policy ``kind``).

    Parameters
    ----------
    state : int64[...] game state (read only)
    rules : float64[R_LEN]
    kind : int, K_RANDOM or K_GREEDY
    pp : float64[n_players, P_LEN] policy parameters (row ``seat`` is used)
    seat : int
    dp : int, decision point D_*
    opts : int64[...] legal options, ``n`` of them (n >= 2)
    rng : uint64[1] SUB_POLICY stream (random policy only)

    Returns
    -------
    int, the chosen option.
    """
    if kind == L.K_RANDOM:
        return opts[randint(rng, n)]
    work = state.copy()   # the heuristics read the options from the state
    for i in range(n):
        work[L.S_OPTS + i] = opts[i]
    kinds = np.full(pp.shape[0], L.K_GREEDY, dtype=np.int64)
    cfg = make_cfg(work, rules, kinds, pp)
    return P.greedy(work, cfg, seat, dp, n)
