"""Hand-built Rattlebones states with forced dice and scripted decisions (test helpers).

Dice are white = 0, black = 1, grey = 2 (RB-S5). Die faces are written slots 1..6 as in the
spec's §11: ``'R'`` (Ringmaster), 2..6 (pips), face names, and ``('ARROW', t)`` for an arrow
targeting slot t. Decisions use the kernel encodings (see kernel.py docstring).
"""
from __future__ import annotations

import numpy as np

from sim import batch
from sim.rng import SUB_DICE, SUB_POLICY, SUB_SETUP, make_stream
from sim.trace import events, new_log
from sim.games.rattlebones import SPEC
from sim.games.rattlebones import kernel as K
from sim.games.rattlebones.rules import FACE_NAMES

W, BL, G = 0, 1, 2                      # die ids
MW, MB, MG = 1, 2, 4                    # dice masks
DECLINE = -1


def mv(dist, monkey=0):
    """D06/D07/D13 encoding."""
    return dist * K.MOVE_CODE + monkey


def place_p1(die, slot):
    """D10: put POINTS_1 into ``slot`` (1..6) of ``die``."""
    return die * K.PLUS1_DIE + slot


def upgrade(die, slot):
    """D10: upgrade the point face in ``slot`` of ``die``."""
    return K.PLUS1_KIND + die * K.PLUS1_DIE + slot


def face_code(x):
    if x == "R":
        return K.FC_RINGMASTER
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
        self.opts = np.zeros(K.MAX_OPTS, dtype=np.int64)
        self.log = new_log(5000)
        K.setup_game(self.state, self.rules, self.comp, n, make_stream(seed, 0, SUB_SETUP),
                     self.opts, self.log)
        self.rng_d = make_stream(seed, 0, SUB_DICE)
        self.rng_p = make_stream(seed, 0, SUB_POLICY)

    # ---- state access -------------------------------------------------------------------
    def seat(self, s, field):
        return int(self.state[K.SEAT0 + s * K.SEAT_LEN + field])

    def set_seat(self, s, field, v):
        self.state[K.SEAT0 + s * K.SEAT_LEN + field] = v

    def score(self, s):
        return self.seat(s, K.F_SCORE)

    def gold(self, s):
        return self.seat(s, K.F_GOLD)

    def stars(self, s):
        return self.seat(s, K.F_STARS)

    def stocks(self, s):
        return self.seat(s, K.F_STOCKS)

    def monkey(self, s, m):
        return self.seat(s, K.F_MONKEY + m)

    def set_monkey(self, s, m, pos):
        self.set_seat(s, K.F_MONKEY + m, pos)

    def g(self, field):
        return int(self.state[field])

    def set(self, field, v):
        self.state[field] = v

    @property
    def R(self):
        return int(self.state[K.S_R])

    def supply(self, face):
        return int(self.state[K.S_FACE_SUPPLY + face_code(face)])

    def set_supply(self, face, v):
        self.state[K.S_FACE_SUPPLY + face_code(face)] = v

    def space(self, i, spec):
        if spec in ("START", "PLUS1", "EMPTY"):
            kind, face = {"START": K.SP_START, "PLUS1": K.SP_PLUS1, "EMPTY": K.SP_EMPTY}[spec], 0
        else:
            kind, face = K.SP_FACE, face_code(spec)
        self.state[K.S_SPACE_KIND + i] = kind
        self.state[K.S_SPACE_FACE + i] = face

    def set_die(self, s, d, faces):
        b = K.SEAT0 + s * K.SEAT_LEN
        for i, x in enumerate(faces):
            t = -1
            if isinstance(x, tuple):
                x, t = x[0], x[1] - 1
            self.state[b + K.F_FACE + d * 6 + i] = face_code(x)
            self.state[b + K.F_ARROW + d * 6 + i] = t

    def die(self, s, d):
        b = K.SEAT0 + s * K.SEAT_LEN
        out = []
        for i in range(6):
            f = int(self.state[b + K.F_FACE + d * 6 + i])
            t = int(self.state[b + K.F_ARROW + d * 6 + i])
            if f == K.FC_RINGMASTER:
                out.append("R")
            elif K.FC_PIP_2 <= f <= K.FC_PIP_6:
                out.append(f)
            elif f == K.FC_ARROW:
                out.append(("ARROW", t + 1))
            else:
                out.append(FACE_NAMES[f])
        return out

    # ---- forcing ------------------------------------------------------------------------
    def force(self, *draws):
        """Forced draws in RNG order: die slots 1..6, gamble-die face index 0..5."""
        for i, v in enumerate(draws):
            self.state[K.S_FORCE + i] = v
        self.state[K.S_FORCE_N] = len(draws)
        self.state[K.S_FORCE_POS] = 0

    def script(self, *decisions, strict=True):
        for i, v in enumerate(decisions):
            self.state[K.S_SCRIPT + i] = v
        self.state[K.S_SCRIPT_N] = len(decisions)
        self.state[K.S_SCRIPT_POS] = 0
        self.state[K.S_SCRIPT_ERR] = 0
        self.state[K.S_SCRIPT_STRICT] = 1 if strict else 0

    def check_script(self):
        assert self.g(K.S_SCRIPT_ERR) == 0, f"illegal or missing scripted decision (code {self.g(K.S_SCRIPT_ERR)})"
        assert self.g(K.S_SCRIPT_POS) == self.g(K.S_SCRIPT_N), "scripted decisions left over"
        assert self.g(K.S_FORCE_POS) == self.g(K.S_FORCE_N), "forced draws left over"

    # ---- running ------------------------------------------------------------------------
    def turn(self, seat=0, check=True):
        self.state[K.S_ACTIVE] = seat
        K.play_turn(self.state, self.rules, self.kinds, self.pp, self.opts, self.rng_d,
                    self.rng_p, self.log)
        if check:
            self.check_script()

    def events(self):
        return events(self.log)

    def codes(self):
        return [int(e[0]) for e in self.events()]

    @property
    def ended(self):
        return bool(self.state[K.S_ENDED])
