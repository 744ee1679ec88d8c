"""Invariants of finished Flower Shop games, checked by the registry-wide conformance tests.

``audit(arm, master_seed, first_index, games, seats)`` looks at a batch's output columns (bounds, score components) and
replays the first few games with their event logs, re-deriving every shop from the events and
re-scoring it with a plain-Python reading of the rules that shares no code with the kernel:

- money never negative, tokens within ``wild_token_max``, ribbons within the supply and at most
  ``max_ribbons_per_tile`` per tile (FS-L5, FS-U4, FS-U5, FS-U7, AMB-06, AMB-09);
- each die used at most once per day, and only locked dice (FS-U1, FS-U5, FS-U6);
- every finish covered by the dice faces it used plus the tokens it spent (FS-U1..U3);
- score = stars + ribbons + task points (+ the seat's ``end_bonus_points`` in multiplayer),
  recomputed from the final shop (FS-E1..E3, §2.8).
"""
from __future__ import annotations

import numpy as np

from sim.batch import replay
from sim.spec import S_SCORE

# Event codes and layout constants, read from the declarations (the audit checks the kernel's
# behaviour, not its arithmetic).
from . import layout as L

N_REPLAYED = 12


def audit(arm, master_seed: int, first_index: int, games: np.ndarray,
          seats: np.ndarray) -> list[str]:
    """Violated invariants of a batch (empty when all hold)."""
    v = arm.rule_values
    cols = {c: i for i, c in enumerate(arm.spec.seat_column_names)}
    problems = []
    money, tokens, ribbons = (seats[:, :, cols[c]] for c in ("money", "tokens", "ribbons"))
    if (money < 0).any():
        problems.append("negative final money")
    if ((tokens < 0) | (tokens > v["wild_token_max"])).any():
        problems.append(f"tokens outside 0..{v['wild_token_max']}")
    if (ribbons.sum(axis=1) > v["ribbon_supply"]).any():
        problems.append("more ribbons than the supply")
    recomputed = (seats[:, :, cols["stars"]] + v["ribbon_points"] * ribbons
                  + seats[:, :, cols["task_points"]] + end_bonus(v, arm.n_players))
    if not np.array_equal(recomputed, seats[:, :, S_SCORE]):
        problems.append("score != stars + ribbons + task points + end bonus")
    for i in range(min(N_REPLAYED, len(games))):
        ev, _, _ = replay(arm, master_seed, first_index + i)
        problems += [f"game {i}: {p}" for p in audit_events(arm, ev)]
    return problems


def end_bonus(values: dict, n_players: int) -> np.ndarray:
    """Each seat's ``end_bonus_points`` (the list's last value repeats; 0 in solo)."""
    b = values["end_bonus_points"]
    return np.array([b[min(k, len(b) - 1)] if n_players > 1 else 0 for k in range(n_players)],
                    dtype=np.int64)


def audit_events(arm, ev: np.ndarray) -> list[str]:
    """Check one game's event log against the rules; returns the violations."""
    v = arm.rule_values
    tables = arm.components.tables
    tiles = tables["tiles"]
    flowers = tables["flower_types"]
    n, rows, cols = arm.n_players, v["shop_rows"], v["shop_cols"]
    shop = [[-1] * (rows * cols) for _ in range(n)]
    finished = [[0] * (rows * cols) for _ in range(n)]
    rib = [[0] * (rows * cols) for _ in range(n)]
    faces = [[0] * L.MAX_DICE for _ in range(n)]
    locked = [0] * n
    used = [0] * n
    cards: list[int] = []
    out = []
    n_flower = v["flower_dice_per_player"]
    bonus = end_bonus(v, n)
    for e in ev:
        code, a = int(e[0]), [int(x) for x in e[1:]]
        if code == L.EV_SETUP:
            cards = [c for c in a[3:5] if c >= 0]
        elif code == L.EV_DAY:
            used = [0] * n
            locked = [0] * n
        elif code == L.EV_ROLL:
            s = a[0]
            for d in range(n_flower):
                faces[s][d] = ((a[1] >> (4 * d)) & 15) - 1
            for d in range(v["vase_dice_per_player"]):
                faces[s][L.DIE_VASE0 + d] = ((a[2] >> (4 * d)) & 15) - 1
        elif code == L.EV_LOCK:
            s, money_after = a[0], a[4]
            if money_after < 0:
                out.append(f"seat {s} money {money_after} after locking")
            locked[s] = a[5]
        elif code in (L.EV_FINISH, L.EV_TAKE_TOKEN, L.EV_TAKE_MONEY):
            s = a[0]
            mask = a[3] if code == L.EV_FINISH else a[1] if code == L.EV_TAKE_TOKEN else 1 << a[1]
            if mask & used[s]:
                out.append(f"seat {s} used a die twice in one day (event {code})")
            if mask & ~locked[s]:
                out.append(f"seat {s} used an unlocked die (event {code})")
            if mask & (1 << L.DIE_INIT):
                out.append(f"seat {s} used the initiative die")
            used[s] |= mask
            if code == L.EV_FINISH:
                slot, t, tok, tok_after = a[1], a[2], a[4], a[5]
                if shop[s][slot] != t or finished[s][slot]:
                    out.append(f"seat {s} finished tile {t} not unfinished in slot {slot}")
                missing = _uncovered(tiles[t], flowers, [faces[s][d] for d in range(L.MAX_DICE)
                                                         if mask >> d & 1], mask, tables)
                if missing > tok:
                    out.append(f"seat {s} finished tile {t} with {missing} icons uncovered "
                               f"but {tok} tokens")
                if tok_after < 0 or tok_after > v["wild_token_max"]:
                    out.append(f"seat {s} holds {tok_after} tokens")
                finished[s][slot] = 1
            elif code == L.EV_TAKE_TOKEN and a[2] > v["wild_token_max"]:
                out.append(f"seat {s} holds {a[2]} tokens")
            elif code == L.EV_TAKE_MONEY and a[3] < 0:
                out.append(f"seat {s} money negative")
        elif code == L.EV_TAKE_TILE:
            s, t, slot = a[0], a[2], a[3]
            if shop[s][slot] != -1:
                out.append(f"seat {s} placed tile {t} on occupied slot {slot}")
            shop[s][slot] = t
        elif code == L.EV_RIBBON:
            s, slot, money_after = a[0], a[1], a[3]
            rib[s][slot] += 1
            if rib[s][slot] > v["max_ribbons_per_tile"] or money_after < 0:
                out.append(f"seat {s} illegal ribbon on slot {slot}")
        elif code in (L.EV_BUY_TOKEN,):
            if a[1] < 0 or a[2] > v["wild_token_max"]:
                out.append(f"seat {a[0]} bought a token illegally")
        elif code == L.EV_REMOVE_UNFINISHED:
            shop[a[0]][a[1]] = -1
        elif code == L.EV_SCORE:
            s, stars, ribbons, task_pts, score = a[0], a[1], a[2], a[3], a[4]
            exp_stars = sum(tiles[t]["stars"] for t, f in zip(shop[s], finished[s]) if t >= 0 and f)
            exp_rib = sum(r for t, r in zip(shop[s], rib[s]) if t >= 0)
            exp_task = _task_points(shop[s], finished[s], rows, cols, cards, tables, v)
            expected = exp_stars + v["ribbon_points"] * exp_rib + exp_task + int(bonus[s])
            if (stars, ribbons, task_pts, score) != (exp_stars, exp_rib, exp_task, expected):
                out.append(f"seat {s} score {score} (stars {stars}, ribbons {ribbons}, tasks "
                           f"{task_pts}) != recomputed {expected} ({exp_stars}, {exp_rib}, "
                           f"{exp_task})")
    return out


def _uncovered(tile: dict, flowers: list[str], dice_faces: list[int], mask: int,
               tables) -> int:
    """Icons of ``tile`` the used dice cannot cover (each die covers at most one icon)."""
    flower_faces = [f for d, f in zip([d for d in range(L.MAX_DICE) if mask >> d & 1], dice_faces)
                    if d < L.DIE_VASE0]
    vase_faces = [f for d, f in zip([d for d in range(L.MAX_DICE) if mask >> d & 1], dice_faces)
                  if L.DIE_VASE0 <= d < L.DIE_INIT]
    need = {i: tile[f] for i, f in enumerate(flowers)}
    spare = 0
    wild_faces = 0
    for f in flower_faces:
        if f < 0:
            wild_faces += 1
        elif need.get(f, 0) > 0:
            need[f] -= 1
        else:
            spare += 1
    short = sum(need.values())
    covered = min(short, wild_faces)
    short -= covered
    spare += wild_faces - covered
    any_short = max(0, tile["any_flower"] - spare)
    vase_colour = tables["vase_colours"].index(tile["vase"]) if isinstance(tile["vase"], str) \
        else tile["vase"]
    vase_short = 0 if vase_colour in vase_faces else 1
    return short + any_short + vase_short


def _task_points(shop, finished, rows, cols, cards, tables, v) -> int:
    """Task points of one shop under the cards in play (FS-E3, §2.8), plain Python."""
    tiles, tasks = tables["tiles"], tables["tasks"]
    flowers = tables["flower_types"]
    total = 0
    lines = [[r * cols + c for c in range(cols)] for r in range(rows)]
    lines += [[r * cols + c for r in range(rows)] for c in range(cols)]
    for card in cards:
        task = tasks[card]
        for k, line in enumerate(lines):
            is_row = k < rows
            ids = [shop[s] for s in line if shop[s] >= 0 and finished[s]]
            if v["task_requires_full_line"] and len(ids) < len(line):
                continue
            if not ids:
                continue
            cond = task["row_condition" if is_row else "col_condition"]
            param = task["row_param" if is_row else "col_param"]
            pts = task["row_points" if is_row else "col_points"]
            if pts < 0:
                pts = v["task_row_points_default" if is_row else "task_col_points_default"]
            if _meets(cond, param, [tiles[t] for t in ids], flowers):
                total += pts
    return total


def _meets(cond, param, line: list[dict], flowers: list[str]) -> bool:
    """A line condition of §2.8 on the tiles of one line."""
    name = L.CONDITIONS[cond] if isinstance(cond, (int, np.integer)) else cond
    n_flowers = [sum(t[f] for f in flowers) + t["any_flower"] for t in line]
    if name == "SUM_FLOWERS_EQ":
        return sum(n_flowers) == param
    if name == "SUM_FLOWERS_GE":
        return sum(n_flowers) >= param
    if name == "SUM_FLOWERS_LE":
        return sum(n_flowers) <= param
    if name == "SUM_STARS_GE":
        return sum(t["stars"] for t in line) >= param
    attr = {"KNICK": "knickknack", "VASE": "vase"}
    for key, col in attr.items():
        if name == f"SAME_{key}":
            return len({t[col] for t in line}) == 1
        if name == f"DIFF_{key}":
            return len({t[col] for t in line}) == len(line)
    if name == "SAME_FLOWER_COUNT":
        return len(set(n_flowers)) == 1
    if name == "DIFF_FLOWER_COUNT":
        return len(set(n_flowers)) == len(line)
    if name == "SHARE_FLOWER_TYPE":
        return any(all(t[f] >= 1 for t in line) for f in flowers)
    raise ValueError(f"unknown condition {name}")
