"""Hand-built Cupcake Empire states with forced dice and scripted decisions (test helpers).

A test sets a game up (``sim.decide.start``; the setup decisions are taken by the random
policy), edits the state (``clear`` empties the seats' dice, discs, stock and the board's
buildings), forces the S3 die faces and plays one turn whose decisions it scripts by option
code (``sim.decide.Game.take``); the step machine stops at the end of the turn
(``kernel.advance_turn``). The forced faces are answers to the step machine's chance points
(D_ROLL, CE-T7), asked for while faces are queued; then the dice stream rolls. Columns are
written 1..5 as in the spec; colours by name.
"""
from __future__ import annotations

from sim import batch, decide
from sim.trace import events, new_log
from sim.games.cupcake_empire import SPEC
from sim.games.cupcake_empire import kernel as K
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire import options as O
from sim.games.cupcake_empire.rules import COLOURS, FLAVOURS, FROST_PAIRS, GOAL_NAMES

C = {name: i for i, name in enumerate(COLOURS)}           # colour ids
REG = {"GREY": 0, "YEL1": 1, "YEL2": 2, "BEI1": 3, "BEI2": 4, "BEI3": 5}
PLAIN, CHOC, MIXED = L.B_PLAIN, L.B_CHOC, L.B_MIXED
FL = {name: i for i, name in enumerate(FLAVOURS)}          # lemon, chocolate, mint, strawberry


def pair(a, b):
    """Frosting kind of the mixed pair of flavours ``a`` and ``b`` (names)."""
    return L.FR_SIMPLE + FROST_PAIRS.index(tuple(sorted((FL[a], FL[b]))))


def ctype(pants, shirt):
    """Customer type: pants PLAIN / CHOC, shirt a flavour name."""
    return pants * 4 + FL[shirt]


def free(code):
    """A scripted free action (D03): FA_MENU, FA_REST or FA_SPECIAL."""
    return (L.D_FREE, code)


def house(region, d):
    """D16 code (and ``S_HOUSE`` index): the house of ``region`` at distance ``d`` (1..4)."""
    return int(O.encode_house(REG[region], d - 1))


def act(column, level):
    """D10 code: activate ``column`` (1..5) at ``level``."""
    return int(O.encode_activate(column - 1, level))


def shop(region, victim=None, src=None):
    """D15 code: a shop in ``region`` from the reserve (or relocated from ``src``), into an empty
    slot or displacing seat ``victim``."""
    s = L.SRC_RESERVE if src is None else REG[src]
    return int(O.encode_shop(s, REG[region], 0 if victim is None else 1 + victim))


_ARMS: dict = {}


def arm_for(n, tweaks=None):
    key = (n, tuple(sorted((tweaks or {}).items())))
    if key not in _ARMS:
        _ARMS[key] = batch.make_arm(SPEC, n, tweaks=tweaks, policy="random")
    return _ARMS[key]


class Game:
    """A game past its setup decisions (random), ready for hand edits and one scripted turn."""

    def __init__(self, n=2, tweaks=None, seed=0, index=0):
        arm = arm_for(n, tweaks)
        self.n = n
        self.rules = arm.rules
        self.comp = arm.comp
        kinds, pp = arm.policy_arrays
        self.game = decide.start(SPEC.steps, self.rules, self.comp, n, kinds, pp, seed, index,
                                 new_log(20000))
        self.state = self.game.state
        self.setup_choices = []           # (point, seat, options) of the setup decisions
        while self.game.advance() and self.state[L.S_TURNS] == 0:
            self.setup_choices.append(SPEC.steps.pending(self.state))
            self.game.apply(self.game.choose())
        self._script: list[int] = []
        self.forced: list[int] = []       # S3 faces still to answer chance points with

    # ---- state access -------------------------------------------------------------------
    def b(self, s):
        return L.SEAT0 + s * L.SEAT_LEN

    def seat(self, s, field):
        return int(self.state[self.b(s) + field])

    def set_seat(self, s, field, v):
        self.state[self.b(s) + field] = v

    def g(self, field):
        return int(self.state[field])

    def set(self, field, v):
        self.state[field] = v

    def dice(self, s, loc):
        """{colour name: count} of seat ``s`` at column ``loc`` (1..5) or ``'rest'``."""
        i = L.LOC_REST if loc == "rest" else loc - 1
        b = self.b(s) + L.F_DICE + i * L.N_COLOURS
        return {COLOURS[c]: int(self.state[b + c]) for c in range(L.N_COLOURS) if self.state[b + c]}

    def put(self, s, loc, *colours):
        """Add dice (colour names) to column ``loc`` (1..5) or ``'rest'``."""
        i = L.LOC_REST if loc == "rest" else loc - 1
        for c in colours:
            self.state[self.b(s) + L.F_DICE + i * L.N_COLOURS + C[c]] += 1

    def disc(self, s, column, space):
        return int(self.state[self.b(s) + L.F_DISC + (column - 1) * L.MAX_SPACES + space - 1])

    def set_disc(self, s, column, space, t):
        self.state[self.b(s) + L.F_DISC + (column - 1) * L.MAX_SPACES + space - 1] = t

    def clear(self, s=None):
        """Empty the dice, discs, stock, menus, customers of seat ``s`` (all seats by
        default); with ``s=None`` also every building and house of the board."""
        seats = range(self.n) if s is None else [s]
        for q in seats:
            b = self.b(q)
            for f, size in ((L.F_DICE, 2 * L.N_LOCS * L.N_COLOURS), (L.F_STOCK_BASE, L.N_BASE),
                            (L.F_STOCK_FROST, L.N_FROST), (L.F_CUST, L.N_CUST),
                            (L.F_CUST_VAL, L.N_VALUES)):
                self.state[b + f:b + f + size] = 0
            self.state[b + L.F_DISC:b + L.F_DISC + L.N_COLS * L.MAX_SPACES] = -1
            for f in (L.F_SERVED, L.F_MENUS, L.F_SS_BASE, L.F_MX_BASE, L.F_SS_FROST,
                      L.F_MX_FROST, L.F_GOALS, L.F_IDEAS, L.F_IDEA_POS):
                self.state[b + f] = 0
        if s is None:
            for i in range(L.N_REGIONS * L.MAX_SLOTS):
                for f in (L.S_BAKERY, L.S_SHOP):
                    if self.state[f + i] >= 0:
                        self.state[f + i] = L.SLOT_EMPTY
            self.state[L.S_HOUSE:L.S_HOUSE + L.N_HOUSES] = -1
            self.state[L.S_GOAL:L.S_GOAL + L.N_STACKS] = -1

    def building(self, kind, region, slot, owner):
        field = L.S_BAKERY if kind == "bakery" else L.S_SHOP
        self.state[field + REG[region] * L.MAX_SLOTS + slot] = owner

    def owners(self, kind, region):
        field = L.S_BAKERY if kind == "bakery" else L.S_SHOP
        return [int(x) for x in self.state[field + REG[region] * 4:field + REG[region] * 4 + 4]]

    def serve(self, s, bk, fk):
        """Give seat ``s`` a menu's serving (no production change)."""
        from sim.games.cupcake_empire.board import menu_mask
        self.state[self.b(s) + L.F_SERVED] |= menu_mask(bk, fk)

    def goal(self, name, stack=None):
        gid = GOAL_NAMES.index(name)
        self.state[L.S_GOAL + gid // 5] = gid

    # ---- forcing and scripting ----------------------------------------------------------
    def force(self, *faces):
        """Forced S3 faces 1..6, in roll order (colour-id order, grey first), then the dice
        stream: ``run`` answers a chance point D_ROLL with each in turn."""
        self.forced = list(faces)

    def script(self, *codes):
        self._script = list(codes)

    def pending(self):
        return SPEC.steps.pending(self.state)

    def start_turn(self, seat=0):
        """Make ``seat``'s turn the next step (after the test's edits)."""
        self.state[L.S_ACTIVE] = seat
        self.state[L.S_PHASE] = L.PH_TURN
        self.state[L.S_POINT] = 0
        self.state[L.S_N_OPTIONS] = 0

    def run(self, until=()):
        """Play on with the scripted decisions (any other decision of two or more options
        fails the test); stop at the end of the turn or game (2 / 0), or, once the script is
        used up, with a decision of a point in ``until`` pending (1, not taken). A free-action window (D03) closes by itself
        (FA_DONE) unless the next scripted item is ``free(code)``. While forced faces are
        queued the step machine posts each S3 die as a chance point, answered with the next."""
        while True:
            r = int(K.advance_turn(self.state, self.rules, self.comp, self.game.log,
                                   bool(self.forced)))
            if r != 1:
                return r
            if self.game.answer_chance(self.forced):    # option code = face
                continue
            point, _, codes = self.pending()
            if point in until and not self._script:
                return 1
            head = self._script[0] if self._script else None
            if point == L.D_FREE and not isinstance(head, tuple):
                self.game.take(L.FA_DONE)
                continue
            if head is None:
                raise AssertionError("unscripted decision: " + SPEC.steps.describe(self.state))
            self._script.pop(0)
            if isinstance(head, tuple):
                assert head[0] == point, f"expected decision {head[0]}, got {SPEC.steps.describe(self.state)}"
                head = head[1]
            self.game.take(head)

    def turn(self, seat=0, *codes):
        self.start_turn(seat)
        self.script(*codes)
        r = self.run()
        assert not self._script, f"scripted decisions left over: {self._script}"
        assert not self.forced, f"forced faces left over: {self.forced}"
        return r

    def options(self):
        return self.pending()[2]

    def listed(self, lister, *args):
        """The options a kernel listing function ``lister(state, ...)`` writes (it overwrites
        the options block: only for a state that will not play on)."""
        n = int(lister(self.state, *args))
        return [int(x) for x in self.state[L.S_OPTIONS:L.S_OPTIONS + n]]

    def events(self):
        return events(self.game.log)

    def results(self):
        return self.game.results(self.n, len(SPEC.game_column_names), len(SPEC.seat_column_names))
