"""Rattlebones round traces (``sim.tracing``): what a traced game records.

- **round**: ``ceil(turns started / n)``, the ``rounds`` column of ``kernel.finish`` (0 before
  the first turn, 1 once seat 0's first turn has begun).
- **score**: the score track (``F_SCORE``), the rules' score at every moment (RB-E3).
- **resources**: gold, stars and stocks held (the RB-E3 tiebreak tokens) and the faces
  installed or upgraded so far (RB-T7, RB-P3), how far the seat's dice are built.
- **option kinds** per decision point (§9, the encodings of ``layout.py``): the face a die
  shows or a slot holds falls in one of six classes (``FACE_CLASSES``); a move is classed by
  the space it lands on; decline options have their own kind.

Read-only: nothing here changes the state. The one game function called is
``dice.die_result`` (what a rolled die shows, arrows followed) for D04 / D05.
"""
from numba import njit

from sim.tracing import TraceSpec

from . import dice as D
from . import layout as L
from . import options as O

# classes of faces (D04 target, D05 die, D08 offered face, D09 target slot)
FACE_CLASSES = ("move face (pips, NINE, Ringmaster)", "points face", "rank / train / gamble",
                "gold / star / stock", "thief", "reroll / double / arrow / empty")
LANDINGS = ("decline", "land on START (shop)", "land on a FACE space", "land on a +1 space",
            "land on an empty space")


def _point(code, names):
    return tuple((code, name) for name in names)


KINDS = (
    _point(L.D_EXTRA, ("no extra die", "1 extra die", "2+ extra dice"))
    + _point(L.D_DICE, ("rolls a most-built die", "rolls only less-built dice"))
    + _point(L.D_REROLL, ("add a die (reroll)", "decline"))
    + _point(L.D_DOUBLE, tuple("double a " + c for c in FACE_CLASSES))
    + _point(L.D_ORDER, tuple("resolve a " + c for c in FACE_CLASSES))
    + _point(L.D_MOVE, LANDINGS)
    + _point(L.D_NINE, LANDINGS)
    + _point(L.D_RM_MOVE, LANDINGS)
    + _point(L.D_INSTALL, ("decline",) + tuple("install a " + c for c in FACE_CLASSES))
    + _point(L.D_ARROW, tuple("point at a " + c for c in FACE_CLASSES))
    + _point(L.D_PLUS1, ("decline", "place a POINTS_1 face", "upgrade a points face"))
    + _point(L.D_SHOP, ("decline (cash no star)", "cash 1 star", "cash 2 stars",
                        "cash 3 stars", "cash 4+ stars"))
    + _point(L.D_THIEF, ("steal gold", "steal a star", "steal a stock"))
)


def _first(point):
    """Index in KINDS of the first kind of ``point``."""
    return [p for p, _ in KINDS].index(point)


EXTRA0 = _first(L.D_EXTRA)
DICE0 = _first(L.D_DICE)
REROLL0 = _first(L.D_REROLL)
DOUBLE0 = _first(L.D_DOUBLE)
ORDER0 = _first(L.D_ORDER)
MOVE0 = _first(L.D_MOVE)
NINE0 = _first(L.D_NINE)
RM_MOVE0 = _first(L.D_RM_MOVE)
INSTALL0 = _first(L.D_INSTALL)
ARROW0 = _first(L.D_ARROW)
PLUS10 = _first(L.D_PLUS1)
SHOP0 = _first(L.D_SHOP)
THIEF0 = _first(L.D_THIEF)
RESOURCES = ("gold", "stars", "stocks", "faces installed")



@njit(cache=True)
def round_of(state):
    """The current round: ``ceil(turns started / n)`` (``kernel.finish``'s ``rounds``)."""
    n = state[L.S_N_PLAYERS]
    return (state[L.S_TURN] + n - 1) // n


@njit(cache=True)
def score_of(state, rules, comp, seat):
    """The seat's score (``F_SCORE``)."""
    return state[D.seat_base(seat) + L.F_SCORE]


@njit(cache=True)
def resources_of(state, rules, comp, seat, out):
    """Gold, stars, stocks, faces installed so far (``RESOURCES``)."""
    b = D.seat_base(seat)
    out[0] = state[b + L.F_GOLD]
    out[1] = state[b + L.F_STARS]
    out[2] = state[b + L.F_STOCKS]
    out[3] = state[b + L.F_INSTALLS]


@njit(cache=True)
def face_class(f):
    """The class of face code ``f`` (an index into ``FACE_CLASSES``)."""
    if L.FC_RINGMASTER <= f <= L.FC_NINE:
        return 0
    if L.FC_POINTS_1 <= f <= L.FC_POINTS_5:
        return 1
    if f == L.FC_RANK or f == L.FC_TRAIN or f == L.FC_GAMBLE:
        return 2
    if f == L.FC_GOLD or f == L.FC_STAR or f == L.FC_STOCK:
        return 3
    if f == L.FC_THIEF:
        return 4
    return 5


@njit(cache=True)
def built_faces(state, seat, die):
    """Faces of ``die`` other than the start faces (pips, Ringmaster) and empty slots."""
    b = D.seat_base(seat) + L.F_FACE + die * L.N_SLOTS
    k = 0
    for s in range(L.N_SLOTS):
        f = state[b + s]
        if f != L.FC_EMPTY and f != L.FC_RINGMASTER and not (L.FC_PIP_2 <= f <= L.FC_PIP_6):
            k += 1
    return k


@njit(cache=True)
def landing(state, seat, code):
    """D06 / D07 / D13: the class of the space move ``code`` lands on (-1: decline, 0)."""
    if code < 0:
        return 0
    dist, m = O.decode_move(code)
    to = D.space_after(state[D.seat_base(seat) + L.F_MONKEY + m], dist, state[L.S_TRACK_LEN])
    kind = state[L.S_SPACE_KIND + to]
    if kind == L.SP_START:
        return 1
    if kind == L.SP_FACE:
        return 2
    if kind == L.SP_PLUS1:
        return 3
    return 4


@njit(cache=True)
def kind_of(state, rules, comp, point, code):
    """The kind (index into ``KINDS``) of option ``code`` of the pending decision ``point``."""
    seat = state[L.S_DECIDER]
    if point == L.D_EXTRA:
        return EXTRA0 + min(code, 2)
    if point == L.D_DICE:
        most = 0
        for d in range(state[L.S_N_DICE]):
            most = max(most, built_faces(state, seat, d))
        for d in range(state[L.S_N_DICE]):
            if (code >> d) & 1 and built_faces(state, seat, d) == most:
                return DICE0
        return DICE0 + 1
    if point == L.D_REROLL:
        return REROLL0 + (1 if code < 0 else 0)
    if point == L.D_DOUBLE:
        return DOUBLE0 + face_class(D.die_result(state, rules, seat, code))
    if point == L.D_ORDER:
        return ORDER0 + face_class(D.die_result(state, rules, seat, code))
    if point == L.D_MOVE:
        return MOVE0 + landing(state, seat, code)
    if point == L.D_NINE:
        return NINE0 + landing(state, seat, code)
    if point == L.D_RM_MOVE:
        return RM_MOVE0 + landing(state, seat, code)
    if point == L.D_INSTALL:
        if code == 0:
            return INSTALL0
        return INSTALL0 + 1 + face_class(state[L.S_CTX_FACE])
    if point == L.D_ARROW:
        f = state[D.seat_base(seat) + L.F_FACE + state[L.S_CTX_DIE] * L.N_SLOTS + code - 1]
        return ARROW0 + face_class(f)
    if point == L.D_PLUS1:
        if code < 0:
            return PLUS10
        return PLUS10 + 1 + min(O.decode_plus1(code)[0], 1)
    if point == L.D_SHOP:
        return SHOP0 + min(code, 4)
    return THIEF0 + code   # D_THIEF: TK_GOLD, TK_STAR, TK_STOCK


TRACE = TraceSpec(
    round_of=round_of, score_of=score_of, resources_of=resources_of, kind_of=kind_of,
    resources=RESOURCES, kinds=KINDS,
    score="the score track (F_SCORE), the rules' score at every moment (RB-E3)",
    max_rounds=160,   # 2p random play: at most 132 rounds in 100,000 games (greedy 62)
)
