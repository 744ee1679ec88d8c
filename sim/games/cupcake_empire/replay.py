"""Readable text for Cupcake Empire trace events (``playtest replay cupcake_empire``)."""
from __future__ import annotations

from . import layout as L
from . import options as O
from . import rules as R

_REGIONS = ("GREY", "YEL1", "YEL2", "BEI1", "BEI2", "BEI3")
_INCOME = {L.IN_S2: "S2", L.IN_SALE: "sale", L.IN_DISC: "INCOME3 disc", L.IN_GOAL: "goal"}
_PAY = {1: "rest dice", 2: "SP3 idea", 3: "SP4 move"}
_DISC_SRC = ("setup", "column 5", "SP1")


def _name(names, i, what):
    return names[i] if 0 <= i < len(names) else f"{what}{i}"


def _cust(t: int) -> str:
    if t < 0:
        return "nobody"
    return f"({R.BASES[t // 4]} pants, {R.FROSTINGS[t % 4]} shirt)"


def _house(h: int, regions) -> str:
    region, d = O.decode_house(h)
    return f"{_name(regions, region, 'region')}-d{d + 1}"


def _loc(loc: int) -> str:
    return "rest area" if loc == L.LOC_REST + 1 else f"column {loc}"


def _regions(ctx):
    comps = ctx.get("components") if isinstance(ctx, dict) else ctx
    tables = getattr(comps, "tables", None) or (ctx.get("tables") if isinstance(ctx, dict) else None)
    if isinstance(tables, dict) and "region_names" in tables:
        return tables["region_names"]
    return _REGIONS


def format_event(event, ctx=None) -> str:
    """Render one event row ``(code, a0..a6)`` as text; ``ctx`` (a dict with ``components`` or
    ``tables``, or a Components object) only supplies region names."""
    code = int(event[0])
    a = [int(x) for x in event[1:]]
    reg = _regions(ctx) if ctx is not None else _REGIONS
    p = f"seat {a[0]}"
    if code == L.EV_SETUP:
        goals = [R.GOAL_NAMES[g] for g in a[1:5] if g >= 0]
        return f"setup: {a[0]} players, goals {', '.join(goals) or 'none'}"
    if code == L.EV_CUSTOMER:
        return f"customer {_cust(a[1])} on {_house(a[0], reg)}"
    if code == L.EV_GREY:
        return f"{p}: grey die shows {a[1]}, placed in {_loc(a[2])}"
    if code == L.EV_MENU:
        kind = "initial menu" if a[5] else "menu"
        return (f"{p}: {kind} {R.BASES[a[1]]} + {R.FROSTINGS[a[2]]}, production +{a[3]} = {a[4]}")
    if code == L.EV_TURN:
        return f"--- round {a[1]}, {p}: income {a[2]}, production {a[3]}, sales {a[4]}"
    if code == L.EV_ACTIVATE:
        return f"{p}: activates column {a[1]} (L_avail {a[2]}) at level {a[3]}"
    if code == L.EV_TILE:
        names = R.BASES if a[1] == 0 else R.FROSTINGS
        return f"{p}: takes {'base' if a[1] == 0 else 'frosting'} {_name(names, a[2], 'tile')}"
    if code == L.EV_SHOP:
        src = "reserve" if a[3] < 0 else f"relocated from {_name(reg, a[3], 'region')}"
        vic = "" if a[2] < 0 else f", displacing seat {a[2]} (sales {a[5]})"
        return f"{p}: shop in {_name(reg, a[1], 'region')} from the {src}{vic}; sales {a[4]}"
    if code == L.EV_SALE:
        return (f"{p}: sells to {_cust(a[2])} at {_house(a[1], reg)} for {a[3]}; "
                f"sales {a[4]}, income {a[5]}")
    if code == L.EV_HIRE:
        return f"{p}: hires a {_name(R.COLOURS, a[1], 'colour')} die into {_loc(a[2])}"
    if code == L.EV_DISC:
        return (f"{p}: disc {_name(R.DISC_TYPES, a[1], 'type')} on column {a[2]} space {a[3]} "
                f"({_DISC_SRC[a[4]] if 0 <= a[4] < 3 else a[4]})")
    if code == L.EV_BAKERY:
        return f"{p}: bakery in {_name(reg, a[1], 'region')}; production {a[2]}, sales {a[3]}"
    if code == L.EV_DISC_USE:
        return (f"{p}: resolves disc {_name(R.DISC_TYPES, a[1], 'type')} "
                f"(column {a[2]} space {a[3]})")
    if code == L.EV_INCOME:
        return f"{p}: income +{a[1]} ({_INCOME.get(a[3], a[3])}) = {a[2]}"
    if code == L.EV_IDEA:
        return f"{p}: idea marker {a[1]} step(s) to {a[2]}, +{a[4]} idea(s), holds {a[3]}"
    if code == L.EV_REST:
        how = "an idea" if a[1] == 0 else "income"
        return f"{p}: recalls a {_name(R.COLOURS, a[3], 'colour')} die to column {a[2]} ({how})"
    if code == L.EV_SPECIAL:
        if a[1] < L.SP_MOVE1:
            what = "SP1 disc"
        else:
            what = {L.SP_MOVE1: "SP2 move", L.SP_IDEA: "SP3 idea", L.SP_MOVEN: "SP4 moves"}.get(a[1], a[1])
        return f"{p}: special action {what}; income {a[2]}, ideas {a[3]}"
    if code == L.EV_MOVE:
        return f"{p}: moves a {_name(R.COLOURS, a[3], 'colour')} die from column {a[1]} to column {a[2]}"
    if code == L.EV_ROLL:
        return f"{p}: {_name(R.COLOURS, a[1], 'colour')} die from {_loc(a[3])} rolls {a[2]}"
    if code == L.EV_PLACE:
        why = "6" if a[4] == 6 else f"{a[4]}, column full"
        return (f"{p}: {a[3]} {_name(R.COLOURS, a[1], 'colour')} die(s) showing {why} "
                "to the rest area")
    if code == L.EV_GOAL:
        return f"{p}: claims goal {_name(R.GOAL_NAMES, a[1], 'goal')}; income {a[2]}"
    if code == L.EV_PAY:
        return f"{p}: pays {a[1]} income for {_PAY.get(a[3], a[3])}; income {a[2]}"
    if code == L.EV_END:
        win = f"seat {a[2]} wins" if a[2] >= 0 else f"{a[3]} players share the win"
        trig = "truncated" if a[4] else f"triggered by seat {a[0]}"
        return f"game over ({trig}): {win}"
    if code == L.EV_TRUNCATED:
        return f"max_rounds reached in round {a[0]}: truncated"
    return f"event {code} {a}"
