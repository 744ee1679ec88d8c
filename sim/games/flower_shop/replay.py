"""Readable rendering of Flower Shop kernel events for ``playtest replay``.

``format_event(event, ctx)``: ``event`` is one row ``(code, a0..a6)`` of the log written by
``kernel.py`` (codes ``EV_*``, declared in ``layout.py``); ``ctx`` is the ``Components`` (or its
``tables`` dict) used for the game, so tiles, cards, flowers, vases and knickknacks are named as
in the data files.
"""
from __future__ import annotations

from . import layout as L
from .rules import load_components

OUTCOMES = ("lower", "higher", "tie")


def _tables(ctx) -> dict:
    if ctx is None:
        ctx = load_components(None)
    return getattr(ctx, "tables", ctx)


def tile_name(t: int, tb: dict) -> str:
    if t < 0:
        return "-"
    ids = tb.get("tile_ids", [])
    return ids[t] if t < len(ids) else f"tile#{t}"


def tile_desc(t: int, tb: dict) -> str:
    """'T07 (rose, lily, any flower; yellow vase; candle; 4*)'."""
    if t < 0 or t >= len(tb.get("tiles", [])):
        return tile_name(t, tb)
    row = tb["tiles"][t]
    parts = []
    for f in tb["flower_types"]:
        parts += [f] * int(row[f])
    parts += ["any flower"] * int(row["any_flower"])
    vase = tb["vase_colours"][row["vase"]]
    knick = tb["knickknacks"][row["knickknack"]]
    return f"{row['tile_id']} ({', '.join(parts)}; {vase} vase; {knick}; {row['stars']}*)"


def card_name(c: int, tb: dict) -> str:
    if c < 0:
        return "-"
    ids = tb.get("task_ids", [])
    name = ids[c] if c < len(ids) else f"card#{c}"
    tasks = tb.get("tasks")
    if tasks and c < len(tasks):
        r = tasks[c]
        row = L.CONDITIONS[r["row_condition"]] + (f" {r['row_param']}" if r["row_param"] else "")
        col = L.CONDITIONS[r["col_condition"]] + (f" {r['col_param']}" if r["col_param"] else "")
        return f"{name} (rows: {row}; columns: {col})"
    return name


def flower_face(f: int, tb: dict) -> str:
    if f < 0:
        return "any"
    names = tb.get("flower_types", [])
    return names[f] if f < len(names) else f"flower#{f}"


def vase_face(v: int, tb: dict) -> str:
    names = tb.get("vase_colours", [])
    return names[v] if 0 <= v < len(names) else f"vase#{v}"


def die_name(i: int, seat_faces=None) -> str:
    if i == L.DIE_INIT:
        return "initiative"
    if i >= L.DIE_VASE0:
        return f"vase die {i - L.DIE_VASE0 + 1}"
    return f"flower die {i + 1}"


def dice_list(mask: int) -> str:
    return ", ".join(die_name(i) for i in range(L.MAX_DICE) if (mask >> i) & 1) or "none"


def _unpack4(x: int) -> list[int]:
    out = []
    while x:
        out.append((x & 15) - 1)
        x >>= 4
    return out


def format_event(event, ctx) -> str:
    """One event as a line of text naming tiles, cards, flowers and vases (see module doc)."""
    tb = _tables(ctx)
    code = int(event[0])
    a = [int(x) for x in event[1:8]]
    p = f"seat {a[0]}"  # the numbering of the store and the reports (0 = first seat)
    if code == L.EV_SETUP:
        cards = card_name(a[3], tb) + (f" + {card_name(a[4], tb)}" if a[4] >= 0 else "")
        solo = f"; opponent die {L.DIE_IDS[a[5]]}" if a[5] >= 0 else ""
        return f"Setup: {a[0]} player(s), {a[1]} tiles shuffled; task card {cards}{solo}"
    if code == L.EV_INIT_DIE:
        return f"{p} takes initiative die {L.DIE_IDS[a[1]]}"
    if code == L.EV_DAY:
        return f"=== Day {a[0]} ==="
    if code == L.EV_ROW_DEAL:
        return f"Row position {a[0] + 1}: {tile_desc(a[1], tb)}"
    if code == L.EV_ROLL:
        fl = ", ".join(flower_face(f, tb) for f in _unpack4(a[1]))
        va = ", ".join(vase_face(v, tb) for v in _unpack4(a[2]))
        kept = f" (locked before: {dice_list(a[4])})" if a[4] else ""
        return f"{p} dice: flowers [{fl}], vase [{va}], initiative {a[3]}{kept}"
    if code == L.EV_OPP_ROLL:
        sal = f"salary card ${a[3]} returned" if a[3] >= 0 else "no salary card returned"
        tile = (f"; discards {tile_name(a[4], tb)} from position {a[5] + 1}" if a[4] >= 0
                else "; no tile discarded")
        return f"Opponent die rolls {a[0]} vs player {a[1]}: {OUTCOMES[a[2]]}; {sal}{tile}"
    if code == L.EV_TURN_ORDER:
        seats = [(a[1] >> (4 * i)) & 15 for i in range(a[0])]
        return "Turn order: " + ", ".join(f"seat {s}" for s in seats)
    if code == L.EV_LOCK:
        if a[2] == 0:
            return f"{p} locks no dice, pays ${a[3]} (money ${a[4]})"
        cost = f", pays ${a[3]}" if a[3] else " (free)"
        return f"{p} locks {a[2]} di{'e' if a[2] == 1 else 'ce'}: {dice_list(a[1])}{cost} (money ${a[4]})"
    if code == L.EV_SALARY:
        if a[1] < 0:
            return f"{p} finishes locking: salary area empty, no salary"
        return f"{p} finishes locking and takes salary ${a[1]} (money ${a[2]})"
    if code == L.EV_TAKE_TILE:
        return f"{p} takes {tile_desc(a[2], tb)} from row position {a[1] + 1} into slot {a[3]}"
    if code == L.EV_FINISH:
        return (f"{p} finishes {tile_name(a[2], tb)} in slot {a[1]} using {dice_list(a[3])} "
                f"and {a[4]} wild token(s) (tokens {a[5]})")
    if code == L.EV_RIBBON:
        return f"{p} buys a ribbon for {tile_name(a[2], tb)} (money ${a[3]})"
    if code == L.EV_TAKE_MONEY:
        return f"{p} uses {die_name(a[1])} for money (money ${a[3]})"
    if code == L.EV_TAKE_TOKEN:
        return f"{p} uses {dice_list(a[1])} for a wild token (tokens {a[2]})"
    if code == L.EV_BUY_TOKEN:
        return f"{p} buys a wild token (money ${a[1]}, tokens {a[2]})"
    if code == L.EV_STEP4_DONE:
        return f"{p} ends Step 4: {a[1]} unused di{'e' if a[1] == 1 else 'ce'} wasted; money ${a[2]}, tokens {a[3]}"
    if code == L.EV_ROW_DISCARD:
        why = "refresh" if a[1] == 1 else "end of day"
        return f"Row tile {tile_name(a[0], tb)} discarded ({why})"
    if code == L.EV_REFRESH:
        return f"{p} pays ${a[1]} to refresh the row (money ${a[2]})"
    if code == L.EV_FEASIBLE:
        modes = ("off", "complete_lines", "lines", "full")
        res = "passes" if a[1] else "FAILS (loss)"
        return f"End of day {a[0]}: feasibility check ({modes[a[2]]}, pool {a[3]}) {res}"
    if code == L.EV_REMOVE_UNFINISHED:
        return f"{p} removes unfinished {tile_name(a[2], tb)} from slot {a[1]}"
    if code == L.EV_SCORE:
        return (f"{p} scores {a[4]}: stars {a[1]} + ribbons {a[2]} + task points {a[3]} "
                f"({a[6]} lines) -> rank {a[5]}")
    if code == L.EV_SOLO_RESULT:
        return f"Solo result: {'WIN' if a[0] else 'LOSS'} (day {a[1]})"
    if code == L.EV_TRUNCATED:
        return f"Safety guard: game truncated on day {a[0]}"
    if code == L.EV_NO_TILE:
        return f"{p} takes no tile (row empty)"
    if code == L.EV_RESHUFFLE:
        return f"{a[0]} discarded tiles reshuffled into the stack"
    return f"event {code} {a}"
