"""Cupcake Empire option codes: the one declaration of how each decision point (§10.1) encodes
its options. The kernel lists and carries out options, the policies value them, the replay and
the audit read house indices and the tests name options through these functions, so a packing
is written once.

Plain codes: D01 start disc column 0..4; D03 free action ``FA_*``; D06 rest die colour; D09
target column; D12 / D13 / D14 base, frosting or pair kind; D17 hire colour; D19 yellow bakery
region; D21 overflow colour; D22 ``STOP`` / ``MORE``; D07 ``SP_MOVE1`` / ``SP_IDEA`` /
``SP_MOVEN``; D11 ``S1_MAIN`` / ``S1_MENU`` / ``S1_END``; D23 ``D_ROLL`` (a chance point, not a
decision of the spec: the S3 die about to roll, CE-T7) the face 1..6, in face order. Packed codes, one ``encode_*`` /
``decode_*`` pair each: D02 initial menu, D04 menu, D05 rest use, D07 special action SP1 (a
disc), D08 die to move, D10 activation, D11 a disc of the column (``S1_DISC + space``), D15 shop
placement, D16 house (region and distance; also the index of ``S_HOUSE``), D18 disc gain and
D20 the level-4 choice.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import rules as R

no_refcount_module(__name__)  # codes are ints: nothing to count (sim.borrow)
no_wraparound_module(__name__)

FLAVOUR_MUL = 4     # D02: > simple flavours; D16: houses per region
MENU_MUL = 10       # D04: >= N_FROST
FIELD_MUL = 8       # a column, colour, level or region field: > N_REGIONS, N_COLOURS, MAX_LEVEL
SRC_MUL = 64        # D15: FIELD_MUL ** 2


@njit(cache=True)
def encode_init_menu(base, flavour):
    """D02: the initial menu of simple base ``base`` and simple frosting ``flavour``."""
    return base * FLAVOUR_MUL + flavour


@njit(cache=True)
def decode_init_menu(code):
    """(base, flavour) of an initial-menu code."""
    return code // FLAVOUR_MUL, code % FLAVOUR_MUL


@njit(cache=True)
def encode_menu(base_kind, frost_kind):
    """D04: a menu of base kind ``B_*`` and frosting kind (0..9)."""
    return base_kind * MENU_MUL + frost_kind


@njit(cache=True)
def decode_menu(code):
    """(base kind, frosting kind) of a menu code."""
    return code // MENU_MUL, code % MENU_MUL


@njit(cache=True)
def encode_rest(method, column):
    """D05: recall dice from the rest area to ``column``, paying ideas (method 0) or income per
    die (method 1)."""
    return method * FIELD_MUL + column


@njit(cache=True)
def decode_rest(code):
    """(method, column) of a rest-use code."""
    return code // FIELD_MUL, code % FIELD_MUL


@njit(cache=True)
def encode_special_disc(disc_type, column):
    """D07 SP1: place a disc of ``disc_type`` in ``column`` (below ``SP_MOVE1``)."""
    return L.SP_DISC + disc_type * FIELD_MUL + column


@njit(cache=True)
def decode_special_disc(code):
    """(disc type, column) of an SP1 code."""
    return (code - L.SP_DISC) // FIELD_MUL, (code - L.SP_DISC) % FIELD_MUL


@njit(cache=True)
def encode_move_die(column, colour):
    """D08: the die of ``colour`` in ``column`` to move."""
    return column * FIELD_MUL + colour


@njit(cache=True)
def decode_move_die(code):
    """(column, colour) of a die-to-move code."""
    return code // FIELD_MUL, code % FIELD_MUL


@njit(cache=True)
def encode_activate(column, level):
    """D10: activate ``column`` at level L_exec = ``level``."""
    return column * FIELD_MUL + level


@njit(cache=True)
def decode_activate(code):
    """(column, level) of an activation code."""
    return code // FIELD_MUL, code % FIELD_MUL


@njit(cache=True)
def encode_s1_disc(space):
    """D11: resolve the disc on ``space`` (0-based) of the active column."""
    return L.S1_DISC + space


@njit(cache=True)
def decode_s1_disc(code):
    """The space of a D11 disc code (codes from ``S1_DISC``)."""
    return code - L.S1_DISC


@njit(cache=True)
def encode_shop(src, region, victim):
    """D15: a shop from ``src`` (``SRC_RESERVE`` or the region of a relocated own shop) into
    ``region``, on an empty slot (``victim`` 0) or displacing seat ``victim - 1``."""
    return src * SRC_MUL + region * FIELD_MUL + victim


@njit(cache=True)
def decode_shop(code):
    """(src, region, victim) of a shop code."""
    return code // SRC_MUL, (code // FIELD_MUL) % FIELD_MUL, code % FIELD_MUL


@njit(cache=True)
def encode_house(region, d):
    """D16: the house of ``region`` at distance ``d + 1`` (the index into ``S_HOUSE``)."""
    return region * FLAVOUR_MUL + d


@njit(cache=True)
def decode_house(house):
    """(region, distance - 1) of a house index."""
    return house // FLAVOUR_MUL, house % FLAVOUR_MUL


@njit(cache=True)
def encode_disc_gain(disc_type, column):
    """D18: gain a disc of ``disc_type`` on the first empty space of ``column``."""
    return disc_type * FIELD_MUL + column


@njit(cache=True)
def decode_disc_gain(code):
    """(disc type, column) of a disc-gain code."""
    return code // FIELD_MUL, code % FIELD_MUL


@njit(cache=True)
def encode_l4(kind, x, level):
    """D20: kind 0 places a bakery in region ``x`` (``L4_BAKERY + x``); kind 1 takes the action
    of column ``x`` at ``level`` (``L4_OTHER + x * 8 + level``)."""
    if kind == 0:
        return L.L4_BAKERY + x
    return L.L4_OTHER + x * FIELD_MUL + level


@njit(cache=True)
def decode_l4(code):
    """(kind, x, level) of a level-4 code (``encode_l4``; level 0 for a bakery)."""
    kind, x, level = 0, code - L.L4_BAKERY, 0
    if code >= L.L4_OTHER:
        kind, x, level = 1, (code - L.L4_OTHER) // FIELD_MUL, (code - L.L4_OTHER) % FIELD_MUL
    return kind, x, level


def _name(names, i: int) -> str:
    return names[i] if 0 <= i < len(names) else str(i)


def _frosting(kind: int) -> str:
    if kind < L.FR_SIMPLE:
        return _name(R.FLAVOURS, kind)
    a, b = R.FROST_PAIRS[kind - L.FR_SIMPLE]
    return f"{R.FLAVOURS[a]}/{R.FLAVOURS[b]}"


def option_text(point: int, code: int) -> str:
    """Option ``code`` of decision ``point`` in words (``sim.decide.Steps.option_text``)."""
    code = int(code)
    if point == L.D_START_DISC:
        return f"start disc in column {code + 1}"
    if point == L.D_INIT_MENU:
        base, flavour = decode_init_menu(code)
        return f"initial menu {_name(R.BASES, base)} + {_name(R.FLAVOURS, flavour)}"
    if point == L.D_FREE:
        return {L.FA_DONE: "no free action", L.FA_MENU: "create a menu", L.FA_REST: "use the rest",
                L.FA_SPECIAL: "a special action"}.get(code, f"free action {code}")
    if point == L.D_MENU:
        bk, fk = decode_menu(code)
        return f"menu {_name(R.BASES, bk)} + {_frosting(fk)}"
    if point == L.D_REST:
        method, column = decode_rest(code)
        return f"recall to column {column + 1}, paying {('ideas', 'income')[method]}"
    if point in (L.D_REST_DIE, L.D_OVERFLOW):
        return f"{_name(R.COLOURS, code)} die"
    if point == L.D_MORE:
        return "one more die" if code == L.MORE else "stop"
    if point == L.D_ROLL:
        return f"face {code}"
    if point == L.D_SPECIAL:
        if code < L.SP_MOVE1:
            t, column = decode_special_disc(code)
            return f"SP1: {_name(R.DISC_TYPES, t)} disc in column {column + 1}"
        return {L.SP_MOVE1: "SP2: move one die", L.SP_IDEA: "SP3: gain an idea",
                L.SP_MOVEN: "SP4: move dice"}.get(code, f"special {code}")
    if point == L.D_MOVE_DIE:
        column, colour = decode_move_die(code)
        return f"move the {_name(R.COLOURS, colour)} die of column {column + 1}"
    if point == L.D_MOVE_TO:
        return f"to column {code + 1}"
    if point == L.D_ACTIVATE:
        column, level = decode_activate(code)
        return f"activate column {column + 1} at level {level}"
    if point == L.D_S1:
        if code >= L.S1_DISC:
            return f"resolve the disc on space {decode_s1_disc(code) + 1}"
        return {L.S1_MAIN: "main action", L.S1_MENU: "create a menu",
                L.S1_END: "end S1"}.get(code, f"S1 {code}")
    if point == L.D_BASE:
        return f"{_name(R.BASES, code)} base"
    if point in (L.D_FROST, L.D_PAIR):
        return f"{_frosting(code)} frosting"
    if point == L.D_SHOP:
        src, region, victim = decode_shop(code)
        where = "from the reserve" if src == L.SRC_RESERVE else f"moved from region {src}"
        on = "an empty slot" if victim == 0 else f"displacing seat {victim - 1}"
        return f"shop {where} into region {region}, {on}"
    if point == L.D_SELL:
        region, d = decode_house(code)
        return f"customer of region {region}, distance {d + 1}"
    if point == L.D_HIRE:
        return f"hire a {_name(R.COLOURS, code)} die"
    if point == L.D_DISC:
        t, column = decode_disc_gain(code)
        return f"{_name(R.DISC_TYPES, t)} disc in column {column + 1}"
    if point == L.D_BAKERY_Y:
        return f"bakery in region {code}"
    if point == L.D_L4:
        kind, x, level = decode_l4(code)
        if kind == 0:
            return f"bakery in region {x}"
        return f"action of column {x + 1} at level {level}"
    return f"code {code}"
