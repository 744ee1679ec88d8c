"""Rattlebones option codes: the one declaration of how each decision point (§9) encodes its
options. The kernel lists and carries out options, the policies value them, the tests name
them and ``option_text`` reads them through these functions, so a packing is written once.

Plain codes: D01 e (extra dice); D02 dice bitmask; D03 die index (-1 = do not apply a
non-mandatory Reroll); D04 target die; D05 die; D08 slot number 2..6 (0 = decline); D09 target
slot number 1..6; D11 k stars; D12 token type TK_GOLD / TK_STAR / TK_STOCK. Packed codes (one
``encode_*`` / ``decode_*`` pair each): D06 / D07 / D13 a move (``encode_move``) and D10 a +1
choice (``encode_plus1``); -1 declines both.

Chance points (not decision points of the spec; ``layout.D_ROLL``): D_ROLL the slot number
1..6 the rolling die shows (RB-T3, RB-F8), D_GAMBLE_ROLL the index 0..5 of the face the gamble
die shows (RB-F6, ``layout.S_GAMBLE``): six plain codes each, in face order.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L

no_refcount_module(__name__)  # codes are ints: nothing to count (sim.borrow)
no_wraparound_module(__name__)

DECLINE = -1   # D03 / D06 / D07 / D10 / D13: decline (D08: 0)
MOVE_CODE = 16    # > MAX_MONKEYS
PLUS1_DIE = 8     # > slot numbers 1..6
PLUS1_KIND = 64   # > MAX_DICE * PLUS1_DIE


@njit(cache=True)
def encode_move(dist, monkey):
    """D06 / D07 / D13: move ``monkey`` (0-based) ``dist`` spaces."""
    return dist * MOVE_CODE + monkey


@njit(cache=True)
def decode_move(code):
    """(dist, monkey) of a move code (``encode_move``)."""
    return code // MOVE_CODE, code % MOVE_CODE


@njit(cache=True)
def encode_plus1(kind, die, sidx):
    """D10: kind 0 places POINTS_1 into slot index ``sidx`` (0..5) of ``die``, kind 1
    upgrades the point face there."""
    return kind * PLUS1_KIND + die * PLUS1_DIE + sidx + 1


@njit(cache=True)
def decode_plus1(code):
    """(kind, die, slot index) of a +1 code (``encode_plus1``)."""
    return code // PLUS1_KIND, (code % PLUS1_KIND) // PLUS1_DIE, code % PLUS1_DIE - 1


_TOKENS = ("gold", "star", "stock")


def option_text(point: int, code: int) -> str:
    """Option ``code`` of decision ``point`` in words (``sim.decide.Steps.option_text``)."""
    code = int(code)
    if point == L.D_EXTRA:
        return f"{code} extra dice"
    if point == L.D_DICE:
        return "roll dice " + ", ".join(str(d) for d in range(L.MAX_DICE) if code >> d & 1)
    if point == L.D_REROLL:
        return "do not reroll" if code == DECLINE else f"apply the Reroll of die {code}"
    if point == L.D_DOUBLE:
        return f"Double targets die {code}"
    if point == L.D_ORDER:
        return f"resolve die {code}"
    if point in (L.D_MOVE, L.D_NINE, L.D_RM_MOVE):
        if code == DECLINE:
            return "do not move"
        dist, monkey = decode_move(code)
        return f"monkey {monkey} moves {dist}"
    if point == L.D_INSTALL:
        return "do not install" if code == 0 else f"install into slot {code}"
    if point == L.D_ARROW:
        return f"arrow points at slot {code}"
    if point == L.D_PLUS1:
        if code == DECLINE:
            return "no +1"
        kind, die, sidx = decode_plus1(code)
        what = "POINTS_1 into" if kind == 0 else "upgrade"
        return f"{what} die {die} slot {sidx + 1}"
    if point == L.D_SHOP:
        return f"cash {code} stars"
    if point == L.D_ROLL:
        return f"die shows slot {code}"
    if point == L.D_GAMBLE_ROLL:
        return f"gamble die shows face {code}"
    if point == L.D_THIEF:
        return f"take {_TOKENS[code]}" if 0 <= code < len(_TOKENS) else f"token {code}"
    return f"code {code}"
