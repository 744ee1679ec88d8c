"""The Little Flower Shop Dice Game round traces (``sim.tracing``): what a traced game records.

- **round**: the day (``S_DAY``, 1 from the setup on: there is no decision before the first
  day). The ``rounds`` column is the days completed (``S_ROUNDS``, set at each day's end), so a
  game that ends normally (after its last day, or solo at a failed feasibility check) records
  as many rounds as the column says; a game stopped by the safety guard mid-day records its
  unfinished day too.
- **score**: the FS-E2 score of the shop as it stands, as if the game ended now (FS-E1:
  unfinished tiles removed): stars of finished tiles + ribbon points x ribbons + task points.
  It is the kernel's ``score_seat`` run on a copy of the state, so the live state never
  changes.
- **resources**: money, wild tokens, ribbons bought, tiles finished.
- **option kinds** per decision point (§9, the encodings of ``layout.py``): DP-1 skip / free
  lock / paid lock; DP-2 the stars of the tile taken; DP-3/5/6/8 which Step-4 action (done
  is the pass); DP-4 and DP-7 yes / no.

The one game function called is ``kernel.score_seat`` (on a copy of the state).
"""
from numba import njit

from sim.tracing import TraceSpec

from . import kernel as K
from . import layout as L
from . import options as O
from . import rules as R
from .queries import seat_base


def _point(code, names):
    return tuple((code, name) for name in names)


KINDS = (
    _point(L.D_LOCK, ("skip (lock no dice, pay)", "free lock", "paid lock (extra dice)"))
    + _point(L.D_TILE, ("tile of 3 stars or fewer", "tile of 4 stars", "tile of 5 stars",
                        "tile of 6 stars", "tile of 7 stars or more"))
    + _point(L.D_STEP4, ("done (end Step 4)", "finish a tile", "take a token with dice",
                         "take money with a die", "buy a token"))
    + _point(L.D_RIBBON, ("no ribbon", "buy a ribbon"))
    + _point(L.D_REFRESH, ("keep the row", "refresh the row"))
)


def _first(point):
    """Index in KINDS of the first kind of ``point``."""
    return [p for p, _ in KINDS].index(point)


LOCK0 = _first(L.D_LOCK)
TILE0 = _first(L.D_TILE)
STEP40 = _first(L.D_STEP4)
RIBBON0 = _first(L.D_RIBBON)
REFRESH0 = _first(L.D_REFRESH)
RESOURCES = ("money", "tokens", "ribbons", "tiles finished")



@njit(cache=True)
def round_of(state):
    """The current day (``S_DAY``)."""
    return state[L.S_DAY]


@njit(cache=True)
def score_of(state, rules, comp, seat):
    """FS-E2 score of the seat's shop now, its unfinished tiles left out (FS-E1): the kernel's
    ``score_seat`` on a copy of the state."""
    s = state.copy()
    b = seat_base(seat)
    ns = int(rules[R.R_SHOP_ROWS]) * int(rules[R.R_SHOP_COLS])
    for i in range(ns):
        if s[b + L.F_FIN + i] == 0:
            s[b + L.F_SHOP + i] = -1
    return K.score_seat(s, rules, comp, seat)


@njit(cache=True)
def resources_of(state, rules, comp, seat, out):
    """Money, tokens, ribbons, tiles finished (``RESOURCES``)."""
    b = seat_base(seat)
    out[0] = state[b + L.F_MONEY]
    out[1] = state[b + L.F_TOKENS]
    out[2] = state[b + L.F_RIBBONS]
    out[3] = state[b + L.F_TILES_FINISHED]


@njit(cache=True)
def kind_of(state, rules, comp, point, code):
    """The kind (index into ``KINDS``) of option ``code`` of the pending decision ``point``."""
    if point == L.D_LOCK:
        if code == 0:
            return LOCK0
        k = 0
        m = code
        while m:
            k += m & 1
            m >>= 1
        return LOCK0 + (1 if k <= int(rules[R.R_FREE_LOCKS_MAX]) else 2)
    if point == L.D_TILE:
        pos, _ = O.decode_tile(code)
        t = state[L.S_ROW + pos]
        stars = comp[0][t, L.TL_STARS]
        return TILE0 + min(max(stars, 3), 7) - 3
    if point == L.D_STEP4:
        a, _ = O.decode_step4(code)
        if a == L.A_FINISH:
            return STEP40 + 1
        if a == L.A_TAKE_TOKEN:
            return STEP40 + 2
        if a == L.A_TAKE_MONEY:
            return STEP40 + 3
        if a == L.A_BUY_TOKEN:
            return STEP40 + 4
        return STEP40          # A_DONE
    if point == L.D_RIBBON:
        return RIBBON0 + (1 if code == 1 else 0)
    return REFRESH0 + (1 if code == 1 else 0)


TRACE = TraceSpec(
    round_of=round_of, score_of=score_of, resources_of=resources_of, kind_of=kind_of,
    resources=RESOURCES, kinds=KINDS,
    score="the FS-E2 score of the shop as it stands (finished tiles' stars + ribbon points x "
          "ribbons + task points, unfinished tiles left out as at FS-E1); the last round holds "
          "the final score",
    max_rounds=16,   # days <= 12 (rules.PARAMS)
)
