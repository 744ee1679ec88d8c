"""Hand-built Waggle Dance states with forced dice and scripted decisions (test helpers).

A test sets a game up (``sim.decide.start``), edits its state (tiles, dice on cards, supplies)
and plays on from a chosen control position with the kernel's own steps; decisions are
scripted by option code. ``Table.night()`` plays one night (A..G and the victory check) and
stops when the next day would begin.

Forced dice (``Table.force``) are a Python list: while it holds values the kernel is stepped
with ``chance`` on, so it posts each die about to be rolled as a chance point (D_ROLL), which
is answered with the next forced value; once the list is empty the dice stream rolls.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sim import batch, decide
from sim.trace import events, new_log
from sim.games.waggle_dance import SPEC
from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O
from sim.games.waggle_dance.hive import rekey, seat_base

A, C, E, G = L.CARD_A, L.CARD_C, L.CARD_E, L.CARD_G

_ARMS: dict = {}


def arm_for(n, tweaks=None, policy="random"):
    key = (n, tuple(sorted((tweaks or {}).items())), policy)
    if key not in _ARMS:
        _ARMS[key] = batch.make_arm(SPEC, n, tweaks=tweaks, policy=policy)
    return _ARMS[key]


def place(v, dest, tile=0):
    """D_PLACE code: value v on DEST_* (``tile`` for DEST_TILE)."""
    return int(O.encode_place(v, L.DEST_TILE + tile if dest == L.DEST_TILE else dest))


def pair(x, y, v):
    """D_PAIR code: dice of value v (1..6) on tiles x <= y."""
    return int(O.encode_pair(min(x, y), max(x, y), v - 1, -1))


def gather(c, side):
    """D_MOVE code: gather colour c on the pair's tile x (side 0) or y (side 1)."""
    return int(O.encode_move(c, side))


def stream_faces(state, k):
    """The faces the next ``k`` dice drawn from the dice stream of ``state`` show (drawn on a
    copy, ``kernel.roll_die``), and the stream's state after them."""
    z = state.copy()
    return [int(K.roll_die(z)) for _ in range(k)], int(z[L.S_RNG_D])


def face_code(forced, opts):
    """The D_ROLL option code of the next forced value (taken off ``forced``), which the
    chance point lists among ``opts``."""
    code = int(O.encode_face(forced.pop(0)))
    assert code in opts, (code, opts)
    return code


@dataclass
class ForcedGame(decide.Game):
    """``decide.Game`` whose ``advance`` answers the chance points with the forced values."""

    forced: list = field(default_factory=list)

    def advance(self) -> bool:
        """Play to the next decision, the dice rolling the forced values first; False when
        the game is over."""
        while True:
            more = K.advance_chance(self.state, self.rules, self.comp, self.log, bool(self.forced))
            if not (more and self.answer_chance(self.forced)):
                self.over = not more
                return not self.over


class Table:
    """A game set up by the kernel whose state a test edits (no dice rolled yet)."""

    def __init__(self, n=4, tweaks=None, policy="random", seed=0, index=0):
        arm = arm_for(n, tweaks, policy)
        self.arm = arm
        self.n = n
        self.rules = arm.rules
        self.comp = arm.comp
        self.kinds, self.pp = arm.policy_arrays
        self.forced = []        # force(): die values still to roll, in roll order
        game = decide.start(SPEC.steps, self.rules, self.comp, n, self.kinds, self.pp, seed,
                            index, new_log(20000))
        self.game = ForcedGame(**vars(game), forced=self.forced)
        self.state = self.game.state
        self.log = self.game.log
        self.seen = []          # (phase, seat, options) of every decision met by night()

    # ---- editing ---------------------------------------------------------------------------
    def b(self, seat):
        return seat_base(seat)

    def cubes(self, seat, t, **by_colour):
        """Set tile t of ``seat`` to hold cubes {colour index: count} (keys c0..c5); the cubes
        come out of the supply."""
        b = self.b(seat)
        self.state[b + L.F_N_TILES] = max(self.state[b + L.F_N_TILES], t + 1)
        for c in range(L.N_COL):
            k = by_colour.get(f"c{c}", 0)
            old = self.state[b + L.F_CUBES + t * L.N_COL + c]
            self.state[L.S_CUBE_SUPPLY + c] -= k - old
            self.state[b + L.F_CUBES + t * L.N_COL + c] = k
        self.rekey(seat)

    def tile(self, seat, t):
        b = self.b(seat)
        return [int(x) for x in self.state[b + L.F_CUBES + t * L.N_COL: b + L.F_CUBES + (t + 1) * L.N_COL]]

    def egg(self, seat, t, on=1):
        b = self.b(seat)
        self.state[L.S_EGG_SUPPLY] -= on - self.state[b + L.F_EGG + t]
        self.state[b + L.F_EGG + t] = on
        self.rekey(seat)

    def tile_dice(self, seat, t, *values):
        b = self.b(seat)
        for v in values:
            self.state[b + L.F_TDICE + t * L.N_VAL + v - 1] += 1
        self.rekey(seat)

    def rekey(self, seat=None):
        """Record the tile keys (F_TKEY, ``hive.rekey``) of ``seat`` (default: every seat) after
        its tiles were edited by hand, as the rules do after each change."""
        for p in range(self.n) if seat is None else (seat,):
            for t in range(L.MAX_HIVE):
                rekey(self.state, self.b(p), t)

    def slot(self, card, v, seat):
        self.state[L.S_SLOT_OWNER + card * L.N_VAL + v - 1] = seat + 1

    def flower(self, f, seat, k, value=None):
        """``seat`` has k dice on flower f (all of value ``value``, by default f)."""
        self.state[L.S_FLOWER + (f - 1) * L.MAX_PLAYERS + seat] = k
        fval = self.b(seat) + L.F_FVAL + (f - 1) * L.N_VAL
        self.state[fval:fval + L.N_VAL] = 0
        self.state[fval + (value or f) - 1] = k

    def seat(self, seat, field, value=None):
        i = self.b(seat) + field
        if value is not None:
            self.state[i] = value
            self.rekey(seat)
        return int(self.state[i])

    def honey(self, seat, t):
        """Tile t of ``seat`` is HONEY side up."""
        self.state[self.b(seat) + L.F_TILE_HONEY + t] = 1
        self.rekey(seat)

    def force(self, *values):
        """The next dice rolled show ``values`` (in roll order), then the dice stream rolls."""
        self.forced[:] = [int(v) for v in values]

    # ---- playing -----------------------------------------------------------------------------
    def chance(self):
        """``kernel.advance_chance`` with chance points: the pending (point, seat, codes)."""
        assert K.advance_chance(self.state, self.rules, self.comp, self.log, True)
        return self.game.steps.pending(self.state)

    def play(self, phase, script=(), stop=L.PH_DAY):
        """From control position ``phase``, play the kernel's steps until ``stop`` (or the
        end), taking scripted option codes in order at decisions; once the script is used up,
        decisions take their first option. The dice roll the forced values first (chance
        points, not decisions: not in ``seen``, no script code). Returns the number of
        scripted codes used."""
        self.state[L.S_PHASE] = phase
        if self.state[L.S_ROUND] == 0:
            self.state[L.S_ROUND] = 1
        used = 0
        while True:
            n = K._step(self.state, self.rules, self.log, bool(self.forced))
            if n < 0:
                K._game_over(self.state, self.rules, self.log)
                return used
            if n >= 1:
                opts = [int(x) for x in self.state[L.S_OPTIONS:L.S_OPTIONS + n]]
                seat = int(self.state[L.S_DECIDER])
                phase = int(self.state[L.S_PHASE])
                if K.decision_point(phase) == L.D_ROLL:
                    code = face_code(self.forced, opts)
                else:
                    self.seen.append((phase, seat, opts))
                    code = opts[0]
                    if used < len(script) and n >= 2:
                        code = script[used]
                        assert code in opts, (code, opts)
                        used += 1
                K._apply(self.state, self.rules, seat, code, self.log)
            if self.state[L.S_PHASE] == stop:
                return used

    def night(self, script=()):
        """Play the night (the window NW_A, then A..G) and the end of the round."""
        self.state[L.S_WINDOW] = L.W_NW
        self.state[L.S_CURSOR] = 0
        return self.play(L.PH_WINDOW, script)

    def events(self, code=None):
        ev = events(self.log)
        return ev if code is None else ev[ev[:, 0] == code]
