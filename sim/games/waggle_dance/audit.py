"""Waggle Dance log audit: re-check a game's invariants from its event log (``GameSpec.audit``).

Replays games with tracing on and re-derives, from the events alone, the cube supply and the
cubes on every tile, the eggs, the hive tiles, the dice pools and the honey of every seat, then
compares them with the game's result rows (§1.3 invariants: every colour sums to its supply,
eggs and tiles are conserved, pool + personal supply stays the dice per player, honey only
from flips of single-colour tiles), and the queen cards: the hand of every seat (draws at G,
cards kept from a Scout, plays) and the number of plays, with the effects of Harvest, Queen's
Gift and Relocation on the cubes, eggs and tiles; and the dice of each day: every seat's
unplaced dice by value (rolled, placed, sat out by Sick Day, added by Volunteer, changed by
Overtime, placed by Command) never go negative and are all placed before the next roll, and
the dice on tiles (placed or moved there by Feint, with their Overtime values) hold every pair
formed at F.
"""
from __future__ import annotations

import numpy as np

from sim import batch

from . import layout as L
from . import options as O

AUDIT_GAMES = 12


def audit_events(arm, events, g_row, s_rows) -> list[str]:
    """Problems found in one game's events and result rows (empty when all invariants hold)."""
    n = arm.n_players
    comp = arm.components
    values = arm.rule_values
    cubes0 = comp.arrays[1] if values["pollen_per_colour"] < 0 else np.full(L.N_COL, values["pollen_per_colour"])
    supply = np.array(cubes0, dtype=np.int64)
    total = supply.copy()
    cap = values["tile_pollen_capacity"]
    tiles = {}          # (seat, tile) -> cube counts
    eggs_on = set()
    honey = np.zeros(n, dtype=np.int64)
    hive = np.full(n, values["start_hive_tiles"], dtype=np.int64)
    pool = np.zeros(n, dtype=np.int64)
    egg_supply = None
    held = np.zeros(n, dtype=np.int64)
    flip_cards = [0] * n    # bit 1 Efficiency, bit 2 Alchemy played for the next flip
    played = 0
    problems = []
    unplaced = np.zeros((n, L.N_VAL), dtype=np.int64)    # this day's dice by value
    tdice = {}          # (seat, tile, value) -> dice on the tile this round
    expert = {}         # seat -> (v, w) of an Expertise pair announced at F

    def use_die(seat, v, what):
        unplaced[seat, v - 1] -= 1
        if unplaced[seat, v - 1] < 0:
            problems.append(f"{what}: seat {seat} has no unplaced {v}")

    def tile_die(seat, t, v, k, what):
        tdice[seat, t, v] = tdice.get((seat, t, v), 0) + k
        if tdice[seat, t, v] < 0:
            problems.append(f"{what}: seat {seat} has no {v} on tile {t}")

    def day_dice(code, a):
        """The checks of the dice of the day (the own-turn cards included)."""
        if code == L.EV_ROLL:
            if unplaced[a[0]].any():
                problems.append(f"seat {a[0]} rolls with dice unplaced: {unplaced[a[0]].tolist()}")
            unplaced[a[0]] = [(a[2] >> (5 * (5 - v))) & 31 for v in range(L.N_VAL)]
            if unplaced[a[0]].sum() != a[1]:
                problems.append(f"seat {a[0]} rolls {a[1]} dice but the counts say {unplaced[a[0]].tolist()}")
        elif code == L.EV_ROUND:
            tdice.clear()
        elif code == L.EV_PLACE:
            use_die(a[0], a[1], "place")
            if a[2] == L.DEST_TILE:
                tile_die(a[0], a[3], a[1], 1, "place")
        elif code == L.EV_PAIR:
            v, w = expert.pop(a[0], (a[3], a[3]))
            tile_die(a[0], a[1], v, -1, "pair")
            tile_die(a[0], a[2], w, -1, "pair")
        elif code == L.EV_PLAY:
            q = a[1]
            if q == L.Q_SICK_DAY:
                use_die(a[2], a[3], "Sick Day")
            elif q == L.Q_VOLUNTEER:
                unplaced[a[0], a[2] - 1] += 1
            elif q == L.Q_OVERTIME:
                use_die(a[0], a[2], "Overtime")
                unplaced[a[0], a[3] - 1] += 1
            elif q == L.Q_COMMAND:
                use_die(a[0], a[2], "Command")
            elif q == L.Q_FEINT:
                if a[3] >= L.FROM_TILE:
                    tile_die(a[0], a[3] - L.FROM_TILE, a[2], -1, "Feint")
                if a[4] >= L.DEST_TILE:
                    tile_die(a[0], a[4] - L.DEST_TILE, a[2], 1, "Feint")
            elif q == L.Q_EXPERTISE and a[4]:
                expert[a[0]] = divmod(a[4], 10)

    def cubes(seat, t):
        return tiles.setdefault((seat, t), np.zeros(L.N_COL, dtype=np.int64))

    def check_tile(seat, t, what):
        c = cubes(seat, t)
        if c.sum() > cap or (c < 0).any():
            problems.append(f"{what}: seat {seat} tile {t} holds {c.tolist()}")
        if c.sum() and (seat, t) in eggs_on:
            problems.append(f"{what}: seat {seat} tile {t} holds an egg and cubes")

    def flip_ok(c, cards):
        """WD-F4 plainly; WD-F7, WD-I18, WD-Q7 under Efficiency (1), Alchemy (2) or both (3)."""
        top = sorted(c.tolist(), reverse=True)
        k = values["alchemy_max_colours"]
        if cards == 0:
            return c.sum() >= values["pollen_per_honey"] and np.count_nonzero(c) == 1
        if cards == 1:
            return top[0] >= values["efficiency_cubes"]
        if cards == 2:
            return 2 <= np.count_nonzero(c) <= k and c.sum() >= values["pollen_per_honey"]
        return values["allow_efficiency_with_alchemy"] and sum(top[:k]) >= values["efficiency_cubes"]

    def gather(seat, tx, ty, move, what):
        """WD-F3 split "gather colour c on x" (kernel.apply_gather) re-done on the audit's tiles."""
        x, y = cubes(seat, tx), cubes(seat, ty)
        c, side = O.decode_move(move)
        if side:
            x, y = y, x
        both = x + y
        xc = min(cap, both[c])
        room = cap - (both[c] - xc)
        ny = np.zeros(L.N_COL, dtype=np.int64)
        ny[c] = both[c] - xc
        for d in range(L.N_COL):
            if d != c:
                keep = min(y[d], room)
                ny[d] += keep
                room -= keep
        for d in range(L.N_COL):
            if d != c:
                mv = min(both[d] - ny[d], room)
                ny[d] += mv
                room -= mv
        x[:] = both - ny
        y[:] = ny
        check_tile(seat, tx, what)
        check_tile(seat, ty, what)

    for ev in events:
        code, a = int(ev[0]), [int(x) for x in ev[1:]]
        day_dice(code, a)
        if code == L.EV_SETUP:
            egg_supply = a[3]
        elif code == L.EV_ROLL:
            pool[a[0]] = a[1]
        elif code == L.EV_BUILD:
            hive[a[0]] += a[2]
            if hive[a[0]] != a[3]:
                problems.append(f"build: seat {a[0]} hive {hive[a[0]]} != {a[3]}")
        elif code == L.EV_HATCH:
            if a[2] > 0:
                eggs_on.discard((a[0], a[1]))
                egg_supply += 1
                pool[a[0]] += 1 if a[2] == 1 else 0
        elif code == L.EV_EGG and a[2] >= 0:
            if cubes(a[0], a[2]).sum():
                problems.append(f"egg on tile {a[2]} of seat {a[0]} that holds cubes")
            eggs_on.add((a[0], a[2]))
            egg_supply -= 1
            if egg_supply != a[3]:
                problems.append(f"egg supply {egg_supply} != {a[3]}")
        elif code == L.EV_MAJORITY:
            supply[a[0] - 1] -= a[4]
            if supply[a[0] - 1] != a[5] or a[4] > a[3]:
                problems.append(f"D{a[0]}: supply {supply[a[0] - 1]} != {a[5]}")
        elif code == L.EV_CUBE:
            if a[2] < 0:
                supply[a[1]] += a[3]
            else:
                cubes(a[0], a[2])[a[1]] += 1
                check_tile(a[0], a[2], "D")
        elif code == L.EV_PAY:
            if a[2] < 0:
                eggs_on.discard((a[0], a[1]))
                egg_supply += 1
            else:
                cubes(a[0], a[1])[a[2]] -= 1
                supply[a[2]] += 1
                check_tile(a[0], a[1], "E pay")
        elif code == L.EV_GAIN:
            supply[a[1]] -= 1
            if a[2] >= 0:
                cubes(a[0], a[2])[a[1]] += 1
                check_tile(a[0], a[2], "E gain")
            else:
                supply[a[1]] += 1
        elif code == L.EV_MOVE and a[3] != L.MV_NONE:
            gather(a[0], a[1], a[2], a[3], "F move")
        elif code == L.EV_PLAY:
            held[a[0]] -= 1
            played += 1
            if a[1] == L.Q_HARVEST:
                supply[a[2] - 1] -= a[3]
                if supply[a[2] - 1] != a[4]:
                    problems.append(f"Harvest D{a[2]}: supply {supply[a[2] - 1]} != {a[4]}")
            elif a[1] == L.Q_QUEENS_GIFT and a[3] == 0:
                hive[a[0]] += 1
                if hive[a[0]] != a[2] + 1:
                    problems.append(f"Queen's Gift: seat {a[0]} hive {hive[a[0]]} != {a[2] + 1}")
            elif a[1] == L.Q_QUEENS_GIFT:
                if cubes(a[0], a[2]).sum() or (a[0], a[2]) in eggs_on:
                    problems.append(f"Queen's Gift: egg on tile {a[2]} of seat {a[0]} that is not EMPTY")
                eggs_on.add((a[0], a[2]))
                egg_supply -= 1
                if egg_supply != a[4]:
                    problems.append(f"Queen's Gift: egg supply {egg_supply} != {a[4]}")
            elif a[1] == L.Q_RELOCATION:
                gather(a[0], a[2], a[3], a[4], "Relocation")
            elif a[1] in (L.Q_EFFICIENCY, L.Q_ALCHEMY):
                flip_cards[a[0]] |= 1 if a[1] == L.Q_EFFICIENCY else 2
        elif code == L.EV_KEEP:
            held[a[0]] += 1
        elif code == L.EV_DRAW and a[2] >= 0:
            held[a[0]] += 1
        elif code == L.EV_FLIP:
            c = cubes(a[0], a[1])
            if not flip_ok(c, flip_cards[a[0]]):
                problems.append(f"flip of seat {a[0]} tile {a[1]} holding {c.tolist()} "
                                f"(cards {flip_cards[a[0]]})")
            flip_cards[a[0]] = 0
            supply += c
            c[:] = 0
            honey[a[0]] += 1
            if honey[a[0]] != a[3]:
                problems.append(f"honey of seat {a[0]}: {honey[a[0]]} != {a[3]}")
        if (supply < 0).any():
            problems.append(f"negative cube supply {supply.tolist()}")
    on_tiles = np.zeros(L.N_COL, dtype=np.int64)
    for c in tiles.values():
        on_tiles += c
    if not (supply + on_tiles == total).all():
        problems.append(f"cubes not conserved: supply {supply.tolist()} + tiles "
                        f"{on_tiles.tolist()} != {total.tolist()}")
    for seat in range(n):
        row = s_rows[seat]
        seat_cubes = sum(int(c.sum()) for (s, _), c in tiles.items() if s == seat)
        names = arm.spec.seat_column_names
        for name, want in (("honey", honey[seat]), ("cubes", seat_cubes), ("hive_tiles", hive[seat]),
                           ("cards_held", held[seat])):
            if int(row[names.index(name)]) != int(want):
                problems.append(f"seat {seat} {name}: log {want} != row {int(row[names.index(name)])}")
        if int(row[names.index("pool")]) < pool[seat]:
            problems.append(f"seat {seat}: pool shrank")
    gnames = arm.spec.game_column_names
    if int(g_row[gnames.index("queen_played")]) != played:
        problems.append(f"queen cards played: log {played} != row {int(g_row[gnames.index('queen_played')])}")
    if egg_supply is not None and int(g_row[gnames.index("eggs_left")]) != egg_supply:
        problems.append(f"egg supply: log {egg_supply} != row {int(g_row[gnames.index('eggs_left')])}")
    return problems


def audit(arm, master_seed, first_index, games, seats) -> list[str]:
    """Re-check the first AUDIT_GAMES games of a batch from their event logs."""
    problems = []
    for i in range(min(AUDIT_GAMES, len(games))):
        events, g_row, s_rows = batch.replay(arm, master_seed, first_index + i)
        if not (np.array_equal(g_row, games[i]) and np.array_equal(s_rows, seats[i])):
            problems.append(f"game {first_index + i}: replay differs from the batch")
        problems += [f"game {first_index + i}: {p}" for p in audit_events(arm, events, g_row, s_rows)]
    return problems
