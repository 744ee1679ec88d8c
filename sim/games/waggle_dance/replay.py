"""Readable text for Waggle Dance trace events (``playtest replay waggle_dance``)."""
from __future__ import annotations

from . import layout as L
from . import options as O
from . import rules as R

_COLOURS = ("colour_1", "colour_2", "colour_3", "colour_4", "colour_5", "colour_6")
_DEST = ("A", "C", "E", "G", "flower")


def _names(ctx, key, default):
    tables = getattr(ctx, "tables", None)
    if tables is None and isinstance(ctx, dict):
        tables = ctx.get("tables") or getattr(ctx.get("components"), "tables", None) or ctx
    if isinstance(tables, dict) and key in tables:
        return tables[key]
    return default


def _trade(code: int, colours) -> str:
    if code == L.TR_SKIP:
        return "no trade"
    c, c2 = O.decode_trade(code)
    if c < 0:
        return f"an egg for 1 {colours[c2]}"
    return f"{colours[c]} cubes for {colours[c2]}"


def _window(w: int) -> str:
    """The window of a play (S_WINDOW, -1 = Harvest during D)."""
    if w < 0:
        return "D"
    if w == L.W_TURN:
        return "own turn"
    return ("DW0", "DW-end")[w] if w < L.W_NW else "NW_" + "ABCDEFG"[w - L.W_NW]


def _feint_from(src: int, v: int) -> str:
    """A Feint source (layout: slot card, ``FROM_FLOWER + f`` or ``FROM_TILE + t``)."""
    if src < L.FROM_FLOWER:
        return f"{_DEST[src]}{v}"
    if src < L.FROM_TILE:
        return f"flower {src - L.FROM_FLOWER + 1}"
    return f"tile {src - L.FROM_TILE}"


def _feint_to(dest: int, v: int) -> str:
    """A Feint destination (a ``D_PLACE`` dest code) of a die of value v."""
    if dest < L.DEST_FLOWER:
        return f"{_DEST[dest]}{v}"
    return f"flower {v}" if dest == L.DEST_FLOWER else f"tile {dest - L.DEST_TILE}"


def _play(a, queen, colour) -> str:
    """An EV_PLAY event: the card played and its effect (WD-Q2)."""
    seat, q = a[0], a[1]
    where = _window(a[5])
    if q == L.Q_EXPERTISE:
        where = "F" if a[4] else "B"
    elif q in (L.Q_EFFICIENCY, L.Q_ALCHEMY):
        where = "F"
    head = f"{where}: seat {seat} plays {queen[q]}"
    if q == L.Q_SICK_DAY:
        return f"{head}: a {a[3]} of seat {a[2]} sits out the round"
    if q == L.Q_VOLUNTEER:
        return f"{head}: the volunteer die rolls a {a[2]}"
    if q == L.Q_SCOUT:
        return f"{head}: draws {a[2]} card(s)"
    if q == L.Q_WRONG_TURN:
        return f"{head}: a die of seat {a[2]} moves from flower {a[3]} to flower {a[4]}"
    if q == L.Q_QUEENS_GIFT:
        if a[3]:
            return f"{head}: an egg on tile {a[2]} (egg supply {a[4]})"
        return f"{head}: a new tile {a[2]} (tile supply {a[4]})"
    if q == L.Q_RELOCATION:
        c, side = O.decode_move(a[4])
        return f"{head}: gathers {colour(c)} on tile {(a[2], a[3])[side]} (from tiles {a[2]} and {a[3]})"
    if q == L.Q_HARVEST:
        return f"{head} on flower {a[2]}: +{a[3]} {colour(a[2] - 1)} ({a[4]} left)"
    if q == L.Q_EXPERTISE and a[4]:
        return f"{head}: a {a[4] // 10} and a {a[4] % 10} on tiles {a[2]} and {a[3]} count as a pair"
    if q == L.Q_EXPERTISE:
        return f"{head}: the unequal dice on egg tile {a[2]} count as a pair"
    if q in (L.Q_EFFICIENCY, L.Q_ALCHEMY):
        return f"{head} to make honey on tile {a[2]}"
    if q == L.Q_OVERTIME:
        return f"{head}: a {a[2]} becomes a {a[3]}, placed this turn"
    if q == L.Q_COMMAND:
        return f"{head}: a {a[2]} goes on flower {a[3]}"
    if q == L.Q_SHIFT_CHANGE:
        return f"{head}: {'places no die this turn' if a[2] == L.SHIFT_PASS else 'places two dice this turn'}"
    if q == L.Q_FEINT:
        return f"{head}: moves its {a[2]} from {_feint_from(a[3], a[2])} to {_feint_to(a[4], a[2])}"
    return head


def format_event(event, ctx=None) -> str:
    """Render one event row ``(code, a0..a6)`` as text; ``ctx`` (None, a dict or a Components)
    only supplies the colour names."""
    code = int(event[0])
    a = [int(x) for x in event[1:]]
    col = _names(ctx, "colours", _COLOURS)
    queen = _names(ctx, "queen_names", R.QUEEN_KEYS)

    def colour(c):
        return col[c] if 0 <= c < len(col) else f"colour{c}"

    if code == L.EV_SETUP:
        return (f"setup: {a[0]} players, seat 0 sits in chair {a[1]}; supply: {a[2]} tiles, "
                f"{a[3]} eggs, {a[4]} queen cards")
    if code == L.EV_BLOCK:
        return f"blocking marker {a[1]} (set {a[2]}) on card {R.CARD_LETTERS[a[0]]}"
    if code == L.EV_ROUND:
        return f"-- round {a[0]}, start player seat {a[1]} --"
    if code == L.EV_ROLL:
        counts = [(a[2] >> (5 * (5 - v))) & 31 for v in range(6)]
        dice = " ".join(f"{v + 1}x{k}" for v, k in enumerate(counts) if k)
        return f"seat {a[0]} rolls {a[1]} dice: {dice}"
    if code == L.EV_PLACE:
        where = f"tile {a[3]}" if a[2] == L.DEST_TILE else (
            f"flower {a[1]}" if a[2] == L.DEST_FLOWER else f"{_DEST[a[2]]}{a[1]}")
        return f"seat {a[0]} places a {a[1]} on {where}"
    if code == L.EV_BUILD:
        return f"A{a[1]}: seat {a[0]} builds {a[2]} tile(s), hive {a[3]}, supply {a[4]}"
    if code == L.EV_HATCH:
        what = ("egg stays (no die left)", "hatches: +1 die", "egg returns without a die")[a[2]]
        return f"B: seat {a[0]} tile {a[1]} {what}, pool {a[3]}"
    if code == L.EV_EGG:
        what = "takes no egg" if a[2] < 0 else f"puts an egg on tile {a[2]}"
        return f"C{a[1]}: seat {a[0]} {what} (egg supply {a[3]})"
    if code == L.EV_MAJORITY:
        return (f"D{a[0]}: seat {a[1]} with {a[2]} {'die' if a[2] == 1 else 'dice'} is owed {a[3]}, takes {a[4]} "
                f"{colour(a[0] - 1)} ({a[5]} left)")
    if code == L.EV_CUBE:
        if a[2] < 0:
            return f"D: seat {a[0]} has no room: {a[3]} {colour(a[1])} back to the supply"
        return f"D: seat {a[0]} puts a {colour(a[1])} on tile {a[2]} ({a[3]} cubes there)"
    if code == L.EV_TRADE:
        return f"E{a[1]}: seat {a[0]} trades {_trade(a[2], col)}"
    if code == L.EV_PAY:
        return f"E: seat {a[0]} pays {'an egg' if a[2] < 0 else 'a ' + colour(a[2])} from tile {a[1]}"
    if code == L.EV_GAIN:
        where = "no room: back to the supply" if a[2] < 0 else f"onto tile {a[2]}"
        return f"E: seat {a[0]} gets a {colour(a[1])} {where}"
    if code == L.EV_PAIR:
        return f"F: seat {a[0]} pairs two {a[3]}s on tiles {a[1]} and {a[2]}"
    if code == L.EV_MOVE:
        if a[3] == L.MV_NONE:
            return f"F: seat {a[0]} moves nothing between tiles {a[1]} and {a[2]}"
        c, side = O.decode_move(a[3])
        return f"F: seat {a[0]} gathers {colour(c)} on tile {(a[1], a[2])[side]}"
    if code == L.EV_FLIP:
        return f"F: seat {a[0]} makes honey from {colour(a[2])} on tile {a[1]}: honey {a[3]}"
    if code == L.EV_DRAW:
        what = "draws nothing" if a[2] < 0 else f"draws {queen[a[2]]}"
        return f"G{a[1]}: seat {a[0]} {what} ({a[3]} left in the deck)"
    if code == L.EV_PLAY:
        return _play(a, queen, colour)
    if code == L.EV_KEEP:
        rest = f", discards {a[2]}" if a[2] else ""
        return f"Scout: seat {a[0]} keeps {queen[a[1]]}{rest}"
    if code == L.EV_END:
        who = f"seat {a[2]} wins" if a[3] == 1 else f"{a[3]} seats share the win"
        return f"end of the night of round {a[1]}: {who}"
    if code == L.EV_TRUNCATED:
        return f"truncated after {a[0]} rounds (max_rounds)"
    return f"event {code} {a}"
