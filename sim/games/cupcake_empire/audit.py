"""Invariants of finished Cupcake Empire games, checked by the registry-wide conformance tests.

``audit(arm, master_seed, first_index, games, seats)`` checks a batch's output columns (bounds,
score = income + the seat's ``end_bonus_points``) and replays the first games with their event
logs, re-deriving every seat's dice, income, production and sales from the events with a
plain-Python reading of the rules that shares no code with the kernel:

- every die is somewhere: the coloured dice start on their columns (CE-S7), the grey dice where
  they were rolled (CE-S8); hires, rest recalls, moves and S3 rolls move them one by one, a
  rolled die leaves a place that holds one, shows 1-5 and joins that column unless it is sent
  to the rest area (6s and overflow, CE-T7.1, CE-T7.2); no column exceeds its capacity;
- at each activation L_avail equals ``min(M, thresholds reached + experts)`` of the tracked
  dice (§2.2) and L_exec <= L_avail (CE-T1, CE-T1.1);
- income changes only by S2, sales, discs and goals, and payments, never below 0 (CE-F4);
  S2 pays min(production, sales) (CE-T5); a sale pays the house's value (CE-A4.2) to the
  customer placed there at setup (CE-S1), once;
- production and sales stay within 0..max and change as menus (+2/+3/+4), shops, bakeries,
  sales and displacements say (CE-F1, CE-A3.2, CE-A5); ideas held stay within the cap;
- the final income, production, sales and dice per column equal the seat rows.
"""
from __future__ import annotations

import numpy as np

from sim.batch import replay
from sim.spec import S_SCORE

from . import layout as L
from . import options as O

N_REPLAYED = 10


def audit(arm, master_seed: int, first_index: int, games: np.ndarray,
          seats: np.ndarray) -> list[str]:
    """Violated invariants of a batch (empty when all hold)."""
    v = arm.rule_values
    cols = {c: i for i, c in enumerate(arm.spec.seat_column_names)}
    problems = []
    bonus = v["end_bonus_points"]
    bonus = np.array([bonus[min(k, len(bonus) - 1)] for k in range(arm.n_players)], dtype=np.int64)
    if not np.array_equal(seats[:, :, cols["income"]] + bonus, seats[:, :, S_SCORE]):
        problems.append("score != income + end bonus")
    for name, top in (("production", v["production_max"]), ("sales", v["sales_max"])):
        x = seats[:, :, cols[name]]
        if (x < 0).any() or (x > top).any():
            problems.append(f"{name} outside 0..{top}")
    if ((seats[:, :, cols["ideas"]] < 0) | (seats[:, :, cols["ideas"]] > v["idea_cap"])).any():
        problems.append("ideas held outside 0..idea_cap")
    for i in range(min(N_REPLAYED, len(games))):
        ev, _, rows = replay(arm, master_seed, first_index + i)
        problems += [f"game {i}: {p}" for p in audit_events(arm, ev, rows)]
    return problems


class _Seat:
    def __init__(self, v, seat: int):
        bonus = v["seat_bonus_income"]
        self.income = v["start_income"] + bonus[min(seat, len(bonus) - 1)]
        self.production = v["start_production"]
        self.sales = v["start_sales"]
        self.ideas = v["start_ideas"]
        self.dice = [[0] * 6 for _ in range(6)]     # location (columns 0..4, rest 5) x colour


def audit_events(arm, ev: np.ndarray, rows: np.ndarray | None = None) -> list[str]:
    """Check one game's event log against the rules; returns the violations."""
    v = arm.rule_values
    columns, regions = arm.comp[0], arm.comp[1]
    cap = [int(columns[k, L.CD_CAPACITY]) for k in range(5)]
    colour_col = {int(columns[k, L.CD_COLOUR]): k for k in range(5)}
    n = arm.n_players
    seats = [_Seat(v, s) for s in range(n)]
    for s in seats:
        for c, k in colour_col.items():
            s.dice[k][c] = v["start_colour_dice"]
    houses = [-1] * L.N_HOUSES
    pending: dict = {}          # (seat, face, colour) -> rolled dice not placed yet
    out: list[str] = []
    pmax, smax = v["production_max"], v["sales_max"]
    menu_gain = (v["menu_prod_ss"], v["menu_prod_sm"], v["menu_prod_mm"])

    def track(s, field, value, what):
        if getattr(seats[s], field) != value:
            out.append(f"{what}: seat {s} {field} {value}, expected {getattr(seats[s], field)}")
            setattr(seats[s], field, value)

    def flush():
        for (s, f, c), m in pending.items():
            if f == 6 and m != 0:
                out.append(f"seat {s}: {m} colour-{c} dice showing 6 not sent to the rest area")
            if f == 6 or m == 0:
                continue
            seats[s].dice[f - 1][c] += m
            if sum(seats[s].dice[f - 1]) > cap[f - 1]:
                out.append(f"seat {s} column {f} holds more than {cap[f - 1]} dice")
        pending.clear()

    for e in ev:
        code, a = int(e[0]), [int(x) for x in e[1:]]
        if code not in (L.EV_ROLL, L.EV_PLACE) and pending:
            flush()
        if code in (L.EV_IDEA, L.EV_SPECIAL, L.EV_REST):
            held = a[5] if code == L.EV_REST else a[3]
            if not 0 <= held <= v["idea_cap"]:
                out.append(f"seat {a[0]}: holds {held} ideas")
        if code == L.EV_CUSTOMER:
            houses[a[0]] = a[1]
        elif code == L.EV_GREY:
            seats[a[0]].dice[a[2] - 1][L.GREY] += 1
        elif code == L.EV_TURN:
            s = a[0]
            track(s, "income", a[2], "turn start")
            track(s, "production", a[3], "turn start")
            track(s, "sales", a[4], "turn start")
        elif code == L.EV_ACTIVATE:
            s, k, l_avail, l_exec = a[0], a[1] - 1, a[2], a[3]
            dice = seats[s].dice[k]
            nd = sum(dice)
            experts = dice[L.PINK] + (dice[int(columns[k, L.CD_COLOUR])]
                                      if columns[k, L.CD_COLOUR] != L.PINK else 0)
            th = columns[k, L.CD_THRESH:L.CD_THRESH + columns[k, L.CD_N_THRESH]]
            level = min(int(columns[k, L.CD_MAX_LEVEL]), int((th <= nd).sum()) + experts)
            if level != l_avail or not 0 <= l_exec <= l_avail:
                out.append(f"seat {s} column {k + 1}: L_avail {l_avail} / L_exec {l_exec}, "
                           f"dice say {level}")
        elif code == L.EV_INCOME:
            s, amount, income, source = a[0], a[1], a[2], a[3]
            if source == L.IN_S2 and amount != min(seats[s].production, seats[s].sales):
                out.append(f"seat {s}: S2 paid {amount}, min(P, S) is "
                           f"{min(seats[s].production, seats[s].sales)}")
            seats[s].income += amount
            track(s, "income", income, "income event")
        elif code == L.EV_PAY:
            s, amount, income = a[0], a[1], a[2]
            seats[s].income -= amount
            track(s, "income", income, "payment")
            if income < 0:
                out.append(f"seat {s}: income below 0 ({income})")
        elif code == L.EV_SALE:
            s, h, t, value, sales, income = a[:6]
            if houses[h] != t:
                out.append(f"seat {s}: sold customer {t} at house {h} holding {houses[h]}")
            houses[h] = -1
            region, d = O.decode_house(h)
            if value != regions[region, L.RD_VALUE + d]:
                out.append(f"seat {s}: house {h} sold for {value}")
            seats[s].income += value
            seats[s].sales = min(smax, seats[s].sales + value)
            track(s, "income", income, "sale")
            track(s, "sales", sales, "sale")
        elif code == L.EV_MENU:
            s, bk, fk, gain, prod = a[:5]
            mixed = (bk == L.B_MIXED) + (fk >= L.FR_SIMPLE)
            want = v["initial_menu_production"] if a[5] else menu_gain[mixed]
            if gain != want:
                out.append(f"seat {s}: menu gave {gain} production, rules say {want}")
            seats[s].production = max(0, min(pmax, seats[s].production + want))
            track(s, "production", prod, "menu")
        elif code == L.EV_SHOP:
            s, region, victim, src, sales, vsales = a[:6]
            gain = v["shop_sales_gain"] if src < 0 else v["relocation_sales_gain"]
            if victim >= 0:
                seats[victim].sales = max(0, seats[victim].sales - v["shop_displaced_sales_loss"])
                track(victim, "sales", vsales, "displacement")
            seats[s].sales = min(smax, seats[s].sales + gain)
            track(s, "sales", sales, "shop")
        elif code == L.EV_BAKERY:
            s, region, prod, sales = a[:4]
            kind = regions[region, L.RD_KIND]
            g = v["bakery_yellow_gain"] if kind == L.KIND_YELLOW else v["bakery_beige_gain"]
            seats[s].production = min(pmax, seats[s].production + g)
            seats[s].sales = min(smax, seats[s].sales + g)
            track(s, "production", prod, "bakery")
            track(s, "sales", sales, "bakery")
        elif code == L.EV_HIRE:
            seats[a[0]].dice[a[2] - 1][a[1]] += 1
        elif code in (L.EV_REST, L.EV_MOVE):
            if code == L.EV_REST:
                s, src, dst, c = a[0], L.LOC_REST, a[2] - 1, a[3]
            else:
                s, src, dst, c = a[0], a[1] - 1, a[2] - 1, a[3]
            if seats[s].dice[src][c] <= 0:
                out.append(f"seat {s}: moved a missing colour-{c} die from location {src + 1}")
            seats[s].dice[src][c] -= 1
            seats[s].dice[dst][c] += 1
            if sum(seats[s].dice[dst]) > cap[dst]:
                out.append(f"seat {s}: column {dst + 1} over capacity after a move")
        elif code == L.EV_ROLL:
            s, c, face, loc = a[0], a[1], a[2], a[3] - 1
            if not 1 <= face <= 6 or seats[s].dice[loc][c] <= 0:
                out.append(f"seat {s}: rolled a colour-{c} die from location {loc + 1} (face {face})")
            seats[s].dice[loc][c] -= 1
            pending[(s, face, c)] = pending.get((s, face, c), 0) + 1
        elif code == L.EV_PLACE:
            s, c, m, face = a[0], a[1], a[3], a[4]
            if pending.get((s, face, c), 0) < m:
                out.append(f"seat {s}: sent {m} colour-{c} dice showing {face} to rest, not rolled")
            pending[(s, face, c)] = pending.get((s, face, c), 0) - m
            seats[s].dice[L.LOC_REST][c] += m

    if pending:
        flush()
    if rows is not None:
        cols = {c: i for i, c in enumerate(arm.spec.seat_column_names)}
        for s in range(n):
            got = (rows[s, cols["income"]], rows[s, cols["production"]], rows[s, cols["sales"]])
            want = (seats[s].income, seats[s].production, seats[s].sales)
            if tuple(int(x) for x in got) != want:
                out.append(f"seat {s}: final income/production/sales {got}, events say {want}")
            for k in range(5):
                if rows[s, cols[f"dice_c{k + 1}"]] != sum(seats[s].dice[k]):
                    out.append(f"seat {s}: column {k + 1} ends with {rows[s, cols[f'dice_c{k + 1}']]} "
                               f"dice, events say {sum(seats[s].dice[k])}")
            if rows[s, cols["dice_rest"]] != sum(seats[s].dice[L.LOC_REST]):
                out.append(f"seat {s}: rest area mismatch")
    return out
