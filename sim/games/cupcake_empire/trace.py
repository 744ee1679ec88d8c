"""Cupcake Empire round traces (``sim.tracing``): what a traced game records.

- **round**: ``ceil(turns started / n)``, the ``rounds`` column of ``kernel.finish`` (0 during
  the setup decisions, DP1 start discs and DP2 initial menus; 1 once seat 0's first turn has
  begun). ``S_ROUND`` is already 1 during the setup, so it is not used.
- **score**: income (``F_INCOME``), which is the score (CE-S5).
- **resources**: production and sales levels (S2 income is their minimum, CE-T5), customers
  served (CE-A4.2, the first tie-break) and idea discs held.
- **option kinds** per decision point (§10.1, the encodings of ``layout.py``), named after
  ``rules.COLOURS`` / ``BASES`` / ``FLAVOURS`` / ``FROSTINGS`` / ``DISC_TYPES``. DP6
  (activation) is classed by column and by whether the level is the highest the column offers
  (read from the options listed) or lower; level 0 (reroll only) is its own kind.

Read-only: nothing here changes the state; no game function is called.
"""
from numba import njit

from sim.tracing import TraceSpec

from . import layout as L
from . import rules as R
from .board import seat_base


def _point(code, names):
    return tuple((code, name) for name in names)


COLUMNS = tuple(f"column {k + 1}" for k in range(L.N_COLS))
COLOURS = tuple(R.COLOURS)

KINDS = (
    _point(L.D_START_DISC, COLUMNS)
    + _point(L.D_INIT_MENU, tuple(f"{R.BASES[bk]} base / {R.FLAVOURS[f]}"
                                  for bk in range(2) for f in range(4)))
    + _point(L.D_FREE, ("done (close the window)", "make a menu", "use the rest area",
                        "special action"))
    + _point(L.D_MENU, ("simple base + simple frosting", "one mixed tile",
                        "mixed base + mixed frosting"))
    + _point(L.D_REST, ("pay ideas", "pay income per die"))
    + _point(L.D_REST_DIE, COLOURS)
    + _point(L.D_SPECIAL, ("SP1 place a disc (ideas)", "SP2 move one die (ideas)",
                           "SP3 buy an idea (income)", "SP4 move dice (income per die)"))
    + _point(L.D_MOVE_DIE, tuple("from " + c for c in COLUMNS))
    + _point(L.D_MORE, ("stop", "one more die"))
    + _point(L.D_MOVE_TO, tuple("to " + c for c in COLUMNS))
    + _point(L.D_ACTIVATE, ("level 0 (reroll only)",)
             + tuple(f"{c} {w}" for c in COLUMNS for w in ("top level", "lower level")))
    + _point(L.D_S1, ("main action", "make a menu", "end S1")
             + tuple("disc " + t for t in R.DISC_TYPES))
    + _point(L.D_BASE, tuple(R.BASES[:2]))
    + _point(L.D_FROST, tuple(R.FLAVOURS))
    + _point(L.D_PAIR, tuple(R.FROSTINGS[len(R.FLAVOURS):]))
    + _point(L.D_SHOP, ("from the reserve to an empty slot", "from the reserve, displacing",
                        "relocated to an empty slot", "relocated, displacing"))
    + _point(L.D_SELL, ("customer of value 1", "customer of value 2", "customer of value 3+"))
    + _point(L.D_HIRE, COLOURS)
    + _point(L.D_DISC, tuple(R.DISC_TYPES))
    + _point(L.D_BAKERY_Y, ("region with an own shop", "region without an own shop"))
    + _point(L.D_L4, ("beige bakery",) + tuple(f"{c} action" for c in COLUMNS[:4]))
    + _point(L.D_OVERFLOW, COLOURS)
)


def _first(point):
    """Index in KINDS of the first kind of ``point``."""
    return [p for p, _ in KINDS].index(point)


START_DISC0 = _first(L.D_START_DISC)
INIT_MENU0 = _first(L.D_INIT_MENU)
FREE0 = _first(L.D_FREE)
MENU0 = _first(L.D_MENU)
REST0 = _first(L.D_REST)
REST_DIE0 = _first(L.D_REST_DIE)
SPECIAL0 = _first(L.D_SPECIAL)
MOVE_DIE0 = _first(L.D_MOVE_DIE)
MORE0 = _first(L.D_MORE)
MOVE_TO0 = _first(L.D_MOVE_TO)
ACTIVATE0 = _first(L.D_ACTIVATE)
S10 = _first(L.D_S1)
BASE0 = _first(L.D_BASE)
FROST0 = _first(L.D_FROST)
PAIR0 = _first(L.D_PAIR)
SHOP0 = _first(L.D_SHOP)
SELL0 = _first(L.D_SELL)
HIRE0 = _first(L.D_HIRE)
DISC0 = _first(L.D_DISC)
BAKERY_Y0 = _first(L.D_BAKERY_Y)
L40 = _first(L.D_L4)
OVERFLOW0 = _first(L.D_OVERFLOW)
RESOURCES = ("production", "sales", "customers", "ideas")



@njit(cache=True)
def round_of(state):
    """The current round: ``ceil(turns started / n)`` (``kernel.finish``'s ``rounds``)."""
    n = state[L.S_N_PLAYERS]
    return (state[L.S_TURNS] + n - 1) // n


@njit(cache=True)
def score_of(state, rules, comp, seat):
    """The seat's income (``F_INCOME``), the score."""
    return state[seat_base(seat) + L.F_INCOME]


@njit(cache=True)
def resources_of(state, rules, comp, seat, out):
    """Production, sales, customers served, ideas held (``RESOURCES``)."""
    b = seat_base(seat)
    out[0] = state[b + L.F_PRODUCTION]
    out[1] = state[b + L.F_SALES]
    c = 0
    for t in range(L.N_CUST):
        c += state[b + L.F_CUST + t]
    out[2] = c
    out[3] = state[b + L.F_IDEAS]


@njit(cache=True)
def _top_level(state, k):
    """The highest level listed for column ``k`` among the pending DP6 options (L_avail)."""
    top = 0
    for i in range(state[L.S_N_OPTIONS]):
        c = state[L.S_OPTIONS + i]
        if c // 8 == k:
            top = max(top, c % 8)
    return top


@njit(cache=True)
def kind_of(state, rules, comp, point, code):
    """The kind (index into ``KINDS``) of option ``code`` of the pending decision ``point``."""
    seat = state[L.S_DECIDER]
    b = seat_base(seat)
    if point == L.D_ACTIVATE:
        k, lv = code // 8, code % 8
        if lv == 0:
            return ACTIVATE0
        return ACTIVATE0 + 1 + 2 * k + (0 if lv >= _top_level(state, k) else 1)
    if point == L.D_S1:
        if code == L.S1_MAIN:
            return S10
        if code == L.S1_MENU:
            return S10 + 1
        if code == L.S1_END:
            return S10 + 2
        t = state[b + L.F_DISC + state[L.S_COL] * L.MAX_SPACES + code - L.S1_DISC]
        return S10 + 3 + t
    if point == L.D_FREE:
        return FREE0 + code          # FA_DONE, FA_MENU, FA_REST, FA_SPECIAL
    if point == L.D_START_DISC:
        return START_DISC0 + code
    if point == L.D_INIT_MENU:
        return INIT_MENU0 + code     # base * 4 + shirt
    if point == L.D_MENU:
        bk, fk = code // 10, code % 10
        return MENU0 + (1 if bk == L.B_MIXED else 0) + (1 if fk >= L.FR_SIMPLE else 0)
    if point == L.D_REST:
        return REST0 + code // 8
    if point == L.D_REST_DIE:
        return REST_DIE0 + code
    if point == L.D_SPECIAL:
        if code < L.SP_MOVE1:
            return SPECIAL0
        if code == L.SP_MOVE1:
            return SPECIAL0 + 1
        if code == L.SP_IDEA:
            return SPECIAL0 + 2
        return SPECIAL0 + 3
    if point == L.D_MOVE_DIE:
        return MOVE_DIE0 + code // 8
    if point == L.D_MORE:
        return MORE0 + (0 if code == L.STOP else 1)
    if point == L.D_MOVE_TO:
        return MOVE_TO0 + code
    if point == L.D_BASE:
        return BASE0 + code
    if point == L.D_FROST:
        return FROST0 + code
    if point == L.D_PAIR:
        return PAIR0 + code - L.FR_SIMPLE
    if point == L.D_SHOP:
        moved = 0 if code // 64 == L.SRC_RESERVE else 2
        return SHOP0 + moved + (0 if code % 8 == 0 else 1)
    if point == L.D_SELL:
        v = comp[1][code // 4, L.RD_VALUE + code % 4]
        return SELL0 + min(max(v, 1), 3) - 1
    if point == L.D_HIRE:
        return HIRE0 + code
    if point == L.D_DISC:
        return DISC0 + code // 8
    if point == L.D_BAKERY_Y:
        for i in range(L.MAX_SLOTS):
            if state[L.S_SHOP + code * L.MAX_SLOTS + i] == seat:
                return BAKERY_Y0
        return BAKERY_Y0 + 1
    if point == L.D_L4:
        if code < L.L4_OTHER:
            return L40
        return L40 + 1 + (code - L.L4_OTHER) // 8
    return OVERFLOW0 + code          # D_OVERFLOW: a colour


TRACE = TraceSpec(
    round_of=round_of, score_of=score_of, resources_of=resources_of, kind_of=kind_of,
    resources=RESOURCES, kinds=KINDS,
    score="income (F_INCOME), which is the score (CE-S5)",
    max_rounds=128,   # random play: 2p at most ~110 rounds in 1,000,000 games (greedy 14)
)
