"""The Little Flower Shop Dice Game option codes: the one declaration of how each decision
point (§9) encodes its options. The kernel lists and carries out options, the policies pick
them, the tests name them and ``option_text`` reads them through these functions, so a packing
is written once.

Plain codes: DP-1 (``D_LOCK``) the mask of the dice to lock (0 = lock none, pay the skip
cost); DP-4 (``D_RIBBON``) and DP-7 (``D_REFRESH``) 1 = yes, 0 = no. Packed codes (one
``encode_*`` / ``decode_*`` pair each): DP-2 (``D_TILE``) a row tile and an empty shop slot
(``encode_tile``), DP-3/5/6/8 (``D_STEP4``) a Step-4 action ``A_*`` and its argument
(``encode_step4``; ``A_DONE`` ends Step 4).
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L

no_refcount_module(__name__)  # codes are ints: nothing to count (sim.borrow)
no_wraparound_module(__name__)

TILE_MUL = 16    # > MAX_SLOTS
A_MUL = 1024     # > every Step-4 argument (a shop slot, a die, a mask of the dice)


@njit(cache=True)
def encode_tile(pos, slot):
    """DP-2: take the row tile at ``pos`` into the empty shop ``slot``."""
    return pos * TILE_MUL + slot


@njit(cache=True)
def decode_tile(code):
    """(row position, shop slot) of a tile code (``encode_tile``)."""
    return code // TILE_MUL, code % TILE_MUL


@njit(cache=True)
def encode_step4(action, arg):
    """DP-3/5/6/8: Step-4 action ``A_*`` with its argument (``A_FINISH``: the shop slot;
    ``A_TAKE_TOKEN``: the mask of the dice; ``A_TAKE_MONEY``: the die; ``A_BUY_TOKEN``,
    ``A_DONE``: 0)."""
    return action * A_MUL + arg


@njit(cache=True)
def decode_step4(code):
    """(action ``A_*``, argument) of a Step-4 code (``encode_step4``)."""
    return code // A_MUL, code % A_MUL


def _dice(mask: int) -> str:
    """Die indices of ``mask`` (flower dice from 0, vase dice from ``DIE_VASE0``)."""
    return ", ".join(str(d) for d in range(L.MAX_DICE) if mask >> d & 1) or "none"


def option_text(point: int, code: int) -> str:
    """Option ``code`` of decision ``point`` in words (``sim.decide.Steps.option_text``)."""
    code = int(code)
    if point == L.D_LOCK:
        return f"lock dice {_dice(code)}" if code else "lock no die (pay the skip cost)"
    if point == L.D_TILE:
        pos, slot = decode_tile(code)
        return f"row tile {pos} into shop slot {slot}"
    if point == L.D_STEP4:
        action, arg = decode_step4(code)
        if action == L.A_FINISH:
            return f"finish the tile in slot {arg}"
        if action == L.A_TAKE_TOKEN:
            return f"take a wild token with dice {_dice(arg)}"
        if action == L.A_TAKE_MONEY:
            return f"take money with die {arg}"
        if action == L.A_BUY_TOKEN:
            return "buy a wild token"
        return "done" if action == L.A_DONE else f"action {action}, {arg}"
    if point == L.D_RIBBON:
        return "buy a ribbon" if code else "no ribbon"
    if point == L.D_REFRESH:
        return "refresh the row" if code else "keep the row"
    return f"code {code}"
