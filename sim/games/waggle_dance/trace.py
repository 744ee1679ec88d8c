"""Waggle Dance round traces (``sim.tracing``): what a traced game records.

- **round**: ``S_ROUND``, the rounds started (0 before the first day's roll), the ``rounds``
  column of ``kernel.finish``.
- **score**: honey (``F_HONEY``, tiles honey side up), the score (WD-V3).
- **resources**: worker pool dice (bees), hive tiles, pollen cubes in the hive (the WD-V3
  tie-break), eggs in the hive, queen cards in hand.
- **option kinds** per decision point (§9, the encodings of ``layout.py``). DP-04 placement:
  the action the die goes to (slot cards A build, C egg, E trade, G queen cards; a flower
  D1..D6; an own tile with an egg, for B, or without, for F) or the queen card played on the
  own turn; a cube (DP-16, DP-17) by the tile it goes to; a pair (DP-18) by its tiles; a flip
  (DP-19) by the cards it plays; queen cards by type (window plays) or by group (Scout keep,
  ``KEEP_GROUPS``). Pass / decline / skip options have their own kind.

Read-only: nothing here changes the state; no game function is called.
"""
from numba import njit

from sim.tracing import TraceSpec

from . import layout as L
from . import options as O
from . import rules as R
from .hive import seat_base


def _point(code, names):
    return tuple((code, name) for name in names)


TILE_TARGETS = ("an empty tile", "a tile holding that colour", "a tile holding other colours")
# Scout keep (DP-03): the 14 card types in 7 groups (group of each Q_* type below)
KEEP_GROUPS = ("Overtime / Command", "Shift Change / Feint", "Sick Day / Wrong Turn",
               "Scout / Volunteer", "Queen's Gift / Relocation", "Harvest",
               "Expertise / Efficiency / Alchemy")
KEEP_GROUP_OF = tuple(
    {L.Q_OVERTIME: 0, L.Q_COMMAND: 0, L.Q_SHIFT_CHANGE: 1, L.Q_FEINT: 1, L.Q_SICK_DAY: 2,
     L.Q_WRONG_TURN: 2, L.Q_SCOUT: 3, L.Q_VOLUNTEER: 3, L.Q_QUEENS_GIFT: 4, L.Q_RELOCATION: 4,
     L.Q_HARVEST: 5, L.Q_EXPERTISE: 6, L.Q_EFFICIENCY: 6, L.Q_ALCHEMY: 6}[q]
    for q in range(L.N_QUEEN))

KINDS = (
    _point(L.D_PLACE, ("A build hive", "C take egg", "E trade", "G queen cards", "flower",
                       "own tile with an egg (B hatch)", "own tile without egg (F honey)",
                       "card: Overtime / Command", "card: Shift Change / Feint",
                       "card: Wrong Turn / Scout / Volunteer"))
    + _point(L.D_EGG, ("decline", "take the egg"))
    + _point(L.D_CUBE, tuple("onto " + t for t in TILE_TARGETS))
    + _point(L.D_TRADE, ("skip", "pay pollen", "pay eggs"))
    + _point(L.D_PAY, ("pay an egg", "cube from a full tile", "cube from a part-filled tile"))
    + _point(L.D_GAIN, tuple("onto " + t for t in TILE_TARGETS))
    + _point(L.D_PAIR, ("leave unpaired", "pair on one tile", "pair across two tiles",
                        "Expertise pair (unequal dice)"))
    + _point(L.D_MOVE, ("no move", "gather a colour"))
    + _point(L.D_FLIP, ("no flip (keep the card)", "plain flip", "flip with Efficiency",
                        "flip with Alchemy", "flip with Efficiency and Alchemy"))
    + _point(L.D_CARD, ("pass", "Sick Day", "Volunteer", "Scout", "Wrong Turn",
                        "Queen's Gift: a tile", "Queen's Gift: an egg", "Relocation"))
    + _point(L.D_KEEP, tuple("keep " + g for g in KEEP_GROUPS))
    + _point(L.D_HARVEST, ("pass", "Harvest"))
    + _point(L.D_HATCH, ("pass", "Expertise hatch"))
)


def _first(point):
    """Index in KINDS of the first kind of ``point``."""
    return [p for p, _ in KINDS].index(point)


PLACE0 = _first(L.D_PLACE)
EGG0 = _first(L.D_EGG)
CUBE0 = _first(L.D_CUBE)
TRADE0 = _first(L.D_TRADE)
PAY0 = _first(L.D_PAY)
GAIN0 = _first(L.D_GAIN)
PAIR0 = _first(L.D_PAIR)
MOVE0 = _first(L.D_MOVE)
FLIP0 = _first(L.D_FLIP)
CARD0 = _first(L.D_CARD)
KEEP0 = _first(L.D_KEEP)
HARVEST0 = _first(L.D_HARVEST)
HATCH0 = _first(L.D_HATCH)
RESOURCES = ("pool dice", "hive tiles", "cubes", "eggs", "queen cards")



@njit(cache=True)
def round_of(state):
    """The current round (``S_ROUND``, rounds started)."""
    return state[L.S_ROUND]


@njit(cache=True)
def score_of(state, rules, comp, seat):
    """The seat's honey (``F_HONEY``), the score."""
    return state[seat_base(seat) + L.F_HONEY]


@njit(cache=True)
def _tile_cubes(state, b, t):
    """Cubes on tile ``t`` of the seat at ``b``."""
    s = 0
    for c in range(L.N_COL):
        s += state[b + L.F_CUBES + t * L.N_COL + c]
    return s


@njit(cache=True)
def resources_of(state, rules, comp, seat, out):
    """Pool dice, hive tiles, cubes and eggs in the hive, queen cards (``RESOURCES``)."""
    b = seat_base(seat)
    nt = state[b + L.F_N_TILES]
    cubes = 0
    eggs = 0
    for t in range(nt):
        cubes += _tile_cubes(state, b, t)
        eggs += state[b + L.F_EGG + t]
    cards = 0
    for q in range(L.N_QUEEN):
        cards += state[b + L.F_HAND + q]
    out[0] = state[b + L.F_POOL]
    out[1] = nt
    out[2] = cubes
    out[3] = eggs
    out[4] = cards


@njit(cache=True)
def _tile_target(state, b, t, c):
    """0: tile ``t`` is empty, 1: it holds colour ``c``, 2: it holds other colours only."""
    if _tile_cubes(state, b, t) == 0:
        return 0
    return 1 if state[b + L.F_CUBES + t * L.N_COL + c] > 0 else 2


@njit(cache=True)
def _place_kind(state, b, code):
    """DP-04: the kind of a placement or own-turn card play (offset from PLACE0)."""
    if code >= L.TURN_CARD:
        q = (code - L.TURN_CARD) // L.CARD_PLAY
        if q == L.Q_OVERTIME or q == L.Q_COMMAND:
            return 7
        if q == L.Q_SHIFT_CHANGE or q == L.Q_FEINT:
            return 8
        return 9
    dest = O.decode_place(code)[1]
    if dest < L.DEST_TILE:
        return dest                  # DEST_A, DEST_C, DEST_E, DEST_G, DEST_FLOWER
    return 5 if state[b + L.F_EGG + dest - L.DEST_TILE] else 6


@njit(cache=True)
def _card_kind(code):
    """D_CARD window play: the kind (offset from CARD0)."""
    if code == L.CARD_PASS:
        return 0
    q = code // L.CARD_PLAY
    if q == L.Q_SICK_DAY:
        return 1
    if q == L.Q_VOLUNTEER:
        return 2
    if q == L.Q_SCOUT:
        return 3
    if q == L.Q_WRONG_TURN:
        return 4
    if q == L.Q_QUEENS_GIFT:
        return 5 if code % L.CARD_PLAY == 0 else 6
    return 7                         # Q_RELOCATION


@njit(cache=True)
def kind_of(state, rules, comp, point, code):
    """The kind (index into ``KINDS``) of option ``code`` of the pending decision ``point``."""
    b = seat_base(state[L.S_DECIDER])
    if point == L.D_PLACE:
        return PLACE0 + _place_kind(state, b, code)
    if point == L.D_EGG:
        return EGG0 + (0 if code < 0 else 1)
    if point == L.D_CUBE:
        return CUBE0 + _tile_target(state, b, code % L.MAX_HIVE, code // L.MAX_HIVE)
    if point == L.D_TRADE:
        if code == L.TR_SKIP:
            return TRADE0
        return TRADE0 + (2 if code >= L.TR_EGG else 1)
    if point == L.D_PAY:
        if state[L.S_CTX_COLOUR] < 0:
            return PAY0
        full = _tile_cubes(state, b, code) >= int(rules[R.R_TILE_POLLEN_CAPACITY])
        return PAY0 + (1 if full else 2)
    if point == L.D_GAIN:
        return GAIN0 + _tile_target(state, b, code, state[L.S_CTX_GAIN])
    if point == L.D_PAIR:
        if code == L.PAIR_DONE:
            return PAIR0
        if code >= L.PAIR_EXPERT:
            return PAIR0 + 3
        x, y, _, _ = O.decode_pair(code)
        return PAIR0 + (1 if x == y else 2)
    if point == L.D_MOVE:
        return MOVE0 + (0 if code == L.MV_NONE else 1)
    if point == L.D_FLIP:
        if code == L.FLIP_NONE:
            return FLIP0
        return FLIP0 + 1 + code // L.MAX_HIVE     # FLIP_PLAIN .. FLIP_BOTH
    if point == L.D_CARD:
        return CARD0 + _card_kind(code)
    if point == L.D_KEEP:
        return KEEP0 + KEEP_GROUP_OF[code]
    if point == L.D_HARVEST:
        return HARVEST0 + (0 if code == L.CARD_PASS else 1)
    return HATCH0 + (0 if code == L.CARD_PASS else 1)     # D_HATCH


TRACE = TraceSpec(
    round_of=round_of, score_of=score_of, resources_of=resources_of, kind_of=kind_of,
    resources=RESOURCES, kinds=KINDS,
    score="honey (F_HONEY: tiles honey side up), the score (WD-V3)",
    max_rounds=256,   # random play: 4p at most 217 rounds in 1,000,000 games (greedy 17)
)
