"""Waggle Dance option codes: the one declaration of how each decision point (spec §9) encodes
its options. The kernel lists and carries out options, the policies value them, the replay and
the audit read logged codes and the tests name options through these functions, so a packing
is written once.

Plain codes: ``D_EGG`` -1 (no egg) or the EMPTY tile; ``D_PAY`` / ``D_GAIN`` a tile; ``D_KEEP``
a card type; ``CARD_PASS``, ``PAIR_DONE``, ``FLIP_NONE``, ``MV_NONE``, ``TR_SKIP``. Packed codes,
one ``encode_*`` / ``decode_*`` pair each:

- ``D_PLACE``: a placement (``encode_place``; destinations ``DEST_*`` of ``layout.py``), or an
  own-turn card play ``encode_turn_card(card code)`` (codes from ``TURN_CARD``);
- ``D_CUBE`` (``encode_cube``), ``D_TRADE`` (``encode_trade``), ``D_PAIR`` (``encode_pair``,
  equal or Expertise pairs), ``D_MOVE`` (``encode_move``), ``D_FLIP`` (``encode_flip``);
- card plays (``D_CARD``, ``D_HARVEST``, ``D_HATCH`` and the own turn): ``encode_card(card,
  target)`` with the target of the card: Sick Day ``encode_sick_day``, Wrong Turn
  ``encode_wrong_turn``, Overtime ``encode_overtime``, Command ``encode_command``, Queen's
  Gift ``encode_gift``, Relocation ``encode_relocation``, Feint ``encode_feint``; Harvest the
  flower, Expertise the egg tile, Shift Change ``SHIFT_TWO`` / ``SHIFT_PASS``, Scout and
  Volunteer 0;
- ``D_ROLL``, the chance point of a die about to be rolled (WD-R2, WD-Q2; not a decision
  point of §9): one code per face, in face order (``encode_face``).

A destination is the last, additive field of a placement and of a Feint: the listers append
``head + dest`` to a code whose other fields are set (``encode_place(v, 0)``, the Feint's card
code with dest 0), so ``encode_place(v, dest) == encode_place(v, 0) + dest``.
"""
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import rules as R

no_refcount_module(__name__)  # codes are ints: nothing to count (sim.borrow)
no_wraparound_module(__name__)


@njit(cache=True)
def encode_place(v, dest):
    """D_PLACE: a die of value ``v`` (1..6) to ``dest`` (``DEST_*``)."""
    return v * L.PLACE_CODE + dest


@njit(cache=True)
def decode_place(code):
    """(v, dest) of a placement code."""
    return code // L.PLACE_CODE, code % L.PLACE_CODE


@njit(cache=True)
def encode_face(v):
    """D_ROLL: the die shows face ``v`` (1..6)."""
    return v


@njit(cache=True)
def decode_face(code):
    """The face 1..6 of a D_ROLL code."""
    return code


@njit(cache=True)
def encode_turn_card(card_code):
    """D_PLACE: a card play (``encode_card``) on the own turn."""
    return L.TURN_CARD + card_code


@njit(cache=True)
def decode_turn_card(code):
    """The card code of an own-turn card play (codes from ``TURN_CARD``)."""
    return code - L.TURN_CARD


@njit(cache=True)
def encode_cube(colour, t):
    """D_CUBE: place gained cubes of ``colour`` on tile ``t``."""
    return colour * L.MAX_HIVE + t


@njit(cache=True)
def decode_cube(code):
    """(colour, tile) of a cube code."""
    return code // L.MAX_HIVE, code % L.MAX_HIVE


@njit(cache=True)
def encode_trade(c, c2):
    """D_TRADE: pay cubes of colour ``c`` (trade 1) or eggs (``c`` = -1, trade 2) for a cube
    of ``c2``."""
    if c < 0:
        return L.TR_EGG + c2
    return L.TR_POLLEN + c * L.N_COL + c2


@njit(cache=True)
def decode_trade(code):
    """(c, c2) of a trade code (``c`` = -1: eggs); not for ``TR_SKIP``."""
    c, c2 = -1, code - L.TR_EGG
    if code < L.TR_EGG:
        c, c2 = (code - L.TR_POLLEN) // L.N_COL, (code - L.TR_POLLEN) % L.N_COL
    return c, c2


@njit(cache=True)
def encode_pair(x, y, v, w):
    """D_PAIR: the dice of value index ``v`` (0..5) on tile ``x`` and ``w`` on tile ``y``;
    ``w`` = -1 for an equal pair (x <= y), else an Expertise pair."""
    plain = (x * L.MAX_HIVE + y) * L.PAIR_CODE + v + 1
    if w < 0:
        return plain
    return L.PAIR_EXPERT + plain * L.PAIR_CODE + w + 1


@njit(cache=True)
def decode_pair(code):
    """(x, y, v, w) of a pair code (``w`` = -1: an equal pair); not for ``PAIR_DONE``."""
    w = -1
    if code >= L.PAIR_EXPERT:
        w = (code - L.PAIR_EXPERT) % L.PAIR_CODE - 1
        code = (code - L.PAIR_EXPERT) // L.PAIR_CODE
    xy = code // L.PAIR_CODE
    return xy // L.MAX_HIVE, xy % L.MAX_HIVE, code % L.PAIR_CODE - 1, w


@njit(cache=True)
def encode_move(colour, side):
    """D_MOVE (and a Relocation's move): gather ``colour`` on the pair's tile x (``side`` 0)
    or y (1)."""
    return L.MV_GATHER + colour * 2 + side


@njit(cache=True)
def decode_move(code):
    """(colour, side) of a gather code; not for ``MV_NONE``."""
    return (code - L.MV_GATHER) // 2, (code - L.MV_GATHER) % 2


@njit(cache=True)
def encode_flip(kind, t):
    """D_FLIP: flip tile ``t`` plainly or with a card (``FLIP_*``)."""
    return kind * L.MAX_HIVE + t


@njit(cache=True)
def decode_flip(code):
    """(kind, tile) of a flip code; not for ``FLIP_NONE``."""
    return code // L.MAX_HIVE, code % L.MAX_HIVE


@njit(cache=True)
def encode_card(card, target):
    """A card play: card type ``Q_*`` on its ``target`` (the card's own encoding)."""
    return card * L.CARD_PLAY + target


@njit(cache=True)
def decode_card(code):
    """(card, target) of a card play; not for ``CARD_PASS``."""
    return code // L.CARD_PLAY, code % L.CARD_PLAY


@njit(cache=True)
def encode_sick_day(p, v):
    """Sick Day target: an unplaced die of value index ``v`` (0..5) of seat ``p``."""
    return p * L.N_VAL + v


@njit(cache=True)
def decode_sick_day(a):
    """(seat, value index) of a Sick Day target."""
    return a // L.N_VAL, a % L.N_VAL


@njit(cache=True)
def encode_wrong_turn(p, f, f2):
    """Wrong Turn target: seat ``p``'s die from flower ``f`` to flower ``f2`` (0-based)."""
    return (p * L.N_COL + f) * L.N_COL + f2


@njit(cache=True)
def decode_wrong_turn(a):
    """(seat, f, f2) of a Wrong Turn target."""
    return a // (L.N_COL * L.N_COL), a // L.N_COL % L.N_COL, a % L.N_COL


@njit(cache=True)
def encode_overtime(v, w):
    """Overtime target: an unplaced die of value index ``v`` becomes ``w`` (0-based)."""
    return v * L.N_VAL + w


@njit(cache=True)
def decode_overtime(a):
    """(v, w) value indices of an Overtime target."""
    return a // L.N_VAL, a % L.N_VAL


@njit(cache=True)
def encode_command(v, f):
    """Command target: an unplaced die of value index ``v`` onto flower ``f`` (0-based)."""
    return v * L.N_COL + f


@njit(cache=True)
def decode_command(a):
    """(v, f) of a Command target."""
    return a // L.N_COL, a % L.N_COL


@njit(cache=True)
def encode_gift(t):
    """Queen's Gift target: a tile from the supply (``t`` = -1) or an egg on EMPTY tile ``t``."""
    return t + 1


@njit(cache=True)
def decode_gift(a):
    """The egg tile of a Queen's Gift target (-1: a tile)."""
    return a - 1


@njit(cache=True)
def encode_relocation(x, y, move):
    """Relocation target: tiles x < y shared out by the gather ``move`` (``encode_move``)."""
    return (x * L.MAX_HIVE + y) * L.RELOC_CODE + move


@njit(cache=True)
def decode_relocation(a):
    """(x, y, move) of a Relocation target."""
    xy = a // L.RELOC_CODE
    return xy // L.MAX_HIVE, xy % L.MAX_HIVE, a % L.RELOC_CODE


@njit(cache=True)
def encode_feint(v, src, dest):
    """Feint target: the seat's die of value ``v`` (1..6) from ``src`` (a slot card,
    ``FROM_FLOWER + f`` or ``FROM_TILE + t``) to ``dest`` (``DEST_*``)."""
    return ((v - 1) * L.PLACE_CODE + src) * L.PLACE_CODE + dest


@njit(cache=True)
def decode_feint(a):
    """(v, src, dest) of a Feint target."""
    return (a // (L.PLACE_CODE * L.PLACE_CODE) + 1, a // L.PLACE_CODE % L.PLACE_CODE,
            a % L.PLACE_CODE)


# ---- in words ----------------------------------------------------------------------------------
_SLOTS = ("A", "C", "E", "G")


def _dest(v: int, dest: int) -> str:
    if dest < L.DEST_FLOWER:
        return f"slot {v} of card {_SLOTS[dest]}"
    return f"flower {v}" if dest == L.DEST_FLOWER else f"tile {dest - L.DEST_TILE}"


def _src(src: int) -> str:
    if src < L.FROM_FLOWER:
        return f"card {_SLOTS[src]}"
    if src < L.FROM_TILE:
        return f"flower {src - L.FROM_FLOWER + 1}"
    return f"tile {src - L.FROM_TILE}"


def _gather(colour: int, side: int, x="x", y="y") -> str:
    return f"gather colour {colour + 1} on tile {(x, y)[side]}"


def card_text(code: int) -> str:
    """A card play (``encode_card``) in words."""
    if code == L.CARD_PASS:
        return "pass"
    q, a = (int(x) for x in decode_card(code))
    name = R.QUEEN_KEYS[q] if 0 <= q < len(R.QUEEN_KEYS) else f"card {q}"
    if q == L.Q_SICK_DAY:
        p, v = decode_sick_day(a)
        return f"{name}: seat {p}'s die {v + 1}"
    if q == L.Q_WRONG_TURN:
        p, f, f2 = decode_wrong_turn(a)
        return f"{name}: seat {p}'s die from flower {f + 1} to {f2 + 1}"
    if q == L.Q_OVERTIME:
        v, w = decode_overtime(a)
        return f"{name}: a {v + 1} becomes a {w + 1}"
    if q == L.Q_COMMAND:
        v, f = decode_command(a)
        return f"{name}: a {v + 1} onto flower {f + 1}"
    if q == L.Q_QUEENS_GIFT:
        t = decode_gift(a)
        return f"{name}: a tile" if t < 0 else f"{name}: an egg on tile {t}"
    if q == L.Q_RELOCATION:
        x, y, move = decode_relocation(a)
        return f"{name}: tiles {x} and {y}, " + _gather(*decode_move(move), x, y)
    if q == L.Q_FEINT:
        v, src, dest = decode_feint(a)
        return f"{name}: the {v} from {_src(src)} to {_dest(v, dest)}"
    if q == L.Q_SHIFT_CHANGE:
        return f"{name}: " + ("pass the turn" if a == L.SHIFT_PASS else "two placements")
    if q == L.Q_HARVEST:
        return f"{name}: flower {a + 1}"
    if q == L.Q_EXPERTISE:
        return f"{name}: hatch tile {a}"
    return name


def option_text(point: int, code: int) -> str:
    """Option ``code`` of decision ``point`` in words (``sim.decide.Steps.option_text``)."""
    code = int(code)
    if point == L.D_PLACE:
        if code >= L.TURN_CARD:
            return card_text(decode_turn_card(code))
        v, dest = decode_place(code)
        return f"place a {v} on {_dest(v, dest)}"
    if point in (L.D_CARD, L.D_HARVEST, L.D_HATCH):
        return card_text(code)
    if point == L.D_EGG:
        return "no egg" if code < 0 else f"egg on tile {code}"
    if point == L.D_CUBE:
        colour, t = decode_cube(code)
        return f"colour {colour + 1} cubes on tile {t}"
    if point == L.D_TRADE:
        if code == L.TR_SKIP:
            return "no trade"
        c, c2 = decode_trade(code)
        pay = "eggs" if c < 0 else f"colour {c + 1}"
        return f"pay {pay} for colour {c2 + 1}"
    if point in (L.D_PAY, L.D_GAIN):
        return f"tile {code}"
    if point == L.D_PAIR:
        if code == L.PAIR_DONE:
            return "leave the other dice unpaired"
        x, y, v, w = decode_pair(code)
        if w < 0:
            return f"pair of {v + 1}s on tiles {x} and {y}"
        return f"Expertise pair: a {v + 1} on tile {x} and a {w + 1} on tile {y}"
    if point == L.D_MOVE:
        return "no move" if code == L.MV_NONE else _gather(*decode_move(code))
    if point == L.D_FLIP:
        if code == L.FLIP_NONE:
            return "no flip (keep the card)"
        kind, t = decode_flip(code)
        how = ("plainly", "with Efficiency", "with Alchemy", "with both")[kind]
        return f"flip tile {t} {how}"
    if point == L.D_ROLL:
        return f"face {decode_face(code)}"
    if point == L.D_KEEP:
        return f"keep {R.QUEEN_KEYS[code]}" if 0 <= code < len(R.QUEEN_KEYS) else f"keep {code}"
    return f"code {code}"
