"""Rattlebones: what a rolled die shows, read from the state (RB-F3, RB-F5).

The rules (``kernel.py``) and the greedy heuristics (``policies.py``) both need a seat's block,
the result of a die and where a move ends, so these small read-only queries live here, below
both of them (imports: ``layout``, ``rules``). They never mutate the state.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import rules as R

no_refcount_module(__name__)  # never owns an array (sim.borrow)
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)


@njit(cache=True)
def seat_base(seat):
    """Offset of ``seat``'s block in the state array."""
    return L.SEAT0 + seat * L.SEAT_LEN


@njit(cache=True)
def is_number_face(f):
    """True for faces that move a monkey (RINGMASTER, PIP_k, NINE) (§2.1)."""
    return L.FC_RINGMASTER <= f <= L.FC_NINE


@njit(cache=True)
def face_at(state, seat, die, sidx):
    """Face code in slot index ``sidx`` (0..5) of ``die`` of ``seat``."""
    return state[seat_base(seat) + L.F_FACE + die * L.N_SLOTS + sidx]


@njit(cache=True)
def double_mult(state, rules, die):
    """``mult`` for ``die`` from the Doubles assigned to it (RB-F5, AMB-08).

    multiply: m^k; add: 1 + k(m-1); forbid: at most one Double per target, m^k.
    ``rules`` may be the rules or a ``cfg`` array (same R_* offsets).
    """
    k = state[L.S_DBL_COUNT + die]
    m = int(rules[R.R_DOUBLE_MULTIPLIER])
    if k == 0:
        return 1
    if int(rules[R.R_DOUBLE_STACKING]) == R.STACK_ADD:
        return 1 + k * (m - 1)
    r = 1
    for _ in range(k):
        r *= m
    return r


@njit(cache=True)
def follow_arrow(state, seat, die, sidx):
    """Face reached from slot ``sidx`` of ``die`` by following arrows (RB-F3, AMB-05/07).

    Returns
    -------
    (face, via_arrow): the first non-arrow face on the chain, or (FC_EMPTY, 1) when the chain
    revisits a slot (no effect, RB-F15).
    """
    b = seat_base(seat) + die * L.N_SLOTS
    visited = 0
    s = sidx
    via = 0
    while True:
        f = state[b + L.F_FACE + s]
        if f != L.FC_ARROW:
            return f, via
        visited |= 1 << s
        t = state[b + L.F_ARROW + s]
        if t < 0 or (visited >> t) & 1:
            return L.FC_EMPTY, 1
        s = t
        via = 1


@njit(cache=True)
def die_result(state, rules, seat, die):
    """The result of a rolled die: its up face, arrows followed (RB-T3, RB-F3).

    With ``arrow_number_mode = none`` an arrow reaching a number face or RINGMASTER gives
    no effect (FC_EMPTY).
    """
    f, via = follow_arrow(state, seat, die, state[L.S_UP_SLOT + die])
    if via and is_number_face(f) and int(rules[R.R_ARROW_NUMBER_MODE]) == R.ARROWNUM_NONE:
        return L.FC_EMPTY
    return f


@njit(cache=True)
def space_after(frm, dist, track_len):
    """RB-T6: the space ``dist`` (>= 0) spaces clockwise from space ``frm`` of the loop,
    ``(frm + dist) % track_len``; a move of up to one lap needs no division, which the game
    loop would otherwise pay for every move and every move a policy weighs."""
    to = frm + dist
    if to >= track_len:
        to -= track_len
        if to >= track_len:
            to %= track_len
    return to


@njit(cache=True)
def passes(frm, dist, space, track_len):
    """AMB-02: whether a move of ``dist`` spaces clockwise from ``frm`` passes ``space``, i.e.
    reaches it on a step before its last (one of frm + 1 .. frm + dist - 1, wrapping). The
    first step that reaches it is its distance ahead (a whole lap when the move starts
    there)."""
    ahead = space - frm
    if ahead <= 0:
        ahead += track_len
    return ahead < dist
