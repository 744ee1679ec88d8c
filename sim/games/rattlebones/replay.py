"""Readable text for Rattlebones trace events (``playtest replay rattlebones``)."""
from __future__ import annotations

from . import layout as L
from . import rules as R

_TOKENS = ("gold", "star", "stock")
_TRIGGERS = ("none", "score gain", "Ringmaster decrement", "stock scoring", "star exchange", "setup")
_DP = {L.D_INSTALL: "install", L.D_PLUS1: "+1", L.D_MOVE: "move", L.D_NINE: "NINE move",
       L.D_RM_MOVE: "Ringmaster move"}
_NE = {L.NE_CYCLE: "arrow cycle", L.NE_DOUBLE_ALONE: "Double with no other die",
       L.NE_REROLL_LATE: "Reroll after the roll phase", L.NE_THIEF_NOBODY: "nobody to rob",
       L.NE_ARROW_NUMBER: "arrow to a number (arrow_number_mode = none)",
       L.NE_DOUBLE_DIE: "the Double die itself", L.NE_NO_STOCK: "stock supply empty"}


def _get(ctx, key, default):
    if ctx is None:
        return default
    if isinstance(ctx, dict):
        if key in ctx:
            return ctx[key]
        tables = ctx.get("tables")
        if isinstance(tables, dict) and key in tables:
            return tables[key]
        comps = ctx.get("components")
        if comps is not None and key in getattr(comps, "tables", {}):
            return comps.tables[key]
        return default
    tables = getattr(ctx, "tables", None)
    if isinstance(tables, dict) and key in tables:
        return tables[key]
    return default


def _face(f: int) -> str:
    return R.FACE_NAMES[f] if 0 <= f < len(R.FACE_NAMES) else f"face{f}"


def _gamble(g: int) -> str:
    if g == L.GB_RINGMASTER:
        return "RINGMASTER"
    if g == L.GB_NINE:
        return "NINE"
    return f"{g} points"


def format_event(event, ctx=None) -> str:
    """Render one event row ``(code, a0..a6)`` as text.

    ``ctx`` may be None, a dict (keys ``colors``, ``tile_names``, ``tables`` or ``components``)
    or a Components object; it only supplies names.
    """
    code = int(event[0])
    a = [int(x) for x in event[1:]]
    colors = _get(ctx, "colors", ("white", "black", "grey", "die3", "die4"))
    tiles = _get(ctx, "tile_names", R.TILE_NAMES)

    def die(d):
        return colors[d] if 0 <= d < len(colors) else f"die{d}"

    def seat(s):
        return f"seat {s}"

    if code == L.EV_SETUP:
        names = [tiles[i] for i in range(len(tiles)) if (a[3] >> i) & 1]
        return (f"setup: {a[0]} players, Ringmaster at {a[1]}, start player drawn from chair "
                f"{a[2]} (= seat 0); tiles: {', '.join(names)}")
    if code == L.EV_TILE:
        kind = R.SPACE_KINDS[a[2]]
        what = f"FACE({_face(a[3])})" if kind == "FACE" else kind
        return f"  tile {tiles[a[1]] if a[1] < len(tiles) else a[1]} on space {a[0]}: {what}"
    if code == L.EV_TURN:
        return f"--- turn {a[1]} (round {a[2]}): {seat(a[0])}, score {a[4]}, Ringmaster {a[3]}"
    if code == L.EV_EXTRA:
        return f"{seat(a[0])} buys {a[1]} extra dice for {a[2]} gold ({a[3]} gold left)"
    if code == L.EV_ROLL:
        via = "" if a[3] == a[4] else f" -> {_face(a[4])}"
        tag = "rolls" if a[5] == 0 else f"rerolls (event {a[5]})"
        return f"{seat(a[0])} {tag} {die(a[1])}: slot {a[2]} = {_face(a[3])}{via}"
    if code == L.EV_REROLL:
        dice = ", ".join(die(d) for d in range(8) if (a[3] >> d) & 1)
        return f"{seat(a[0])} Reroll event {a[1]}: adds {die(a[2])}, rerolls {dice}"
    if code == L.EV_DOUBLE:
        return f"{seat(a[0])} assigns the Double on {die(a[1])} to {die(a[2])} ({a[3]} Double(s) on it)"
    if code == L.EV_RESOLVE:
        via = "" if a[3] == a[4] else f" -> {_face(a[4])}"
        m = f" x{a[5]}" if a[5] != 1 else ""
        return f"{seat(a[0])} resolves {die(a[1])}: slot {a[2]} {_face(a[3])}{via}{m}"
    if code == L.EV_MOVE:
        p = " (passes START)" if a[6] else ""
        return f"  monkey {a[1]} moves {a[4]} from {a[2]} to {a[3]} with {die(a[5])}{p}"
    if code == L.EV_DECLINE:
        return f"  {seat(a[0])} declines the {_DP.get(a[2], 'choice')} ({die(a[1])})"
    if code == L.EV_INSTALL:
        arrow = f" pointing at slot {a[5]}" if a[5] else ""
        return f"  installs {_face(a[3])}{arrow} in {die(a[1])} slot {a[2]} (replacing {_face(a[4])})"
    if code == L.EV_UPGRADE:
        return f"  upgrades {die(a[1])} slot {a[2]}: {_face(a[4])} -> {_face(a[3])}"
    if code == L.EV_SHOP:
        return f"  shop: cashes {a[1]} stars for {a[2]} points (score {a[3]}, {a[4]} stars left)"
    if code == L.EV_POINTS:
        return f"  {seat(a[0])} +{a[1]} points from {_face(a[2])} (score {a[3]})"
    if code == L.EV_TOKEN:
        m = f" (x{a[4]})" if a[4] != 1 else ""
        return f"  {seat(a[0])} gains {a[2]} {_TOKENS[a[1]]}{m} (now {a[3]})"
    if code == L.EV_TRAIN:
        return f"  train: value {a[1]} x{a[2]} = {a[3]} points; train moves to {a[4]}"
    if code == L.EV_STOCK:
        return f"  {seat(a[0])} takes a stock (holds {a[1]}, supply {a[2]})"
    if code == L.EV_STOCK_PAY:
        return f"  stock scoring: {seat(a[0])} with {a[1]} stocks gets {a[2]} (score {a[3]})"
    if code == L.EV_THEFT:
        return f"  thief: {seat(a[0])} takes {a[3]} {_TOKENS[a[2]]} from {seat(a[1])}"
    if code == L.EV_RINGMASTER:
        return f"  Ringmaster {a[1]} -> {a[2]} ({_face(a[3])} of {seat(a[0])})"
    if code == L.EV_GAMBLE:
        return f"  gamble die ({die(a[1])}): {_gamble(a[2])}"
    if code == L.EV_NO_EFFECT:
        return f"  {_face(a[2])} on {die(a[1])}: no effect ({_NE.get(a[3], '?')})"
    if code == L.EV_END:
        w = f"seat {a[3]} wins" if a[3] >= 0 else f"{a[4]} players share the win"
        return (f"=== game over by {_TRIGGERS[a[0]] if 0 <= a[0] < len(_TRIGGERS) else a[0]} "
                f"(turn of seat {a[1]}), Ringmaster at {a[2]}: {w}")
    if code == L.EV_TRUNCATED:
        return f"=== truncated after {a[0]} turns (max_turns)"
    if code == L.EV_RANK:
        m = f" x{a[3]}" if a[3] != 1 else ""
        return f"  1234: {seat(a[0])} is rank {a[1]}: {a[2]} points{m}"
    return f"event {code} {a}"


def die_text(faces, arrows) -> str:
    """A die as ``[R,ARROW->3,TRAIN,4,5,6]`` (slots 1..6) for tests and debugging."""
    out = []
    for f, t in zip(faces, arrows):
        out.append(f"ARROW->{t + 1}" if f == L.FC_ARROW else R.FACE_SHORT[f])
    return "[" + ",".join(out) + "]"
