"""A lean prototype of one Waggle Dance placement day under greedy: the bound of issue 40.

``make lean-day`` records the days of 4-player greedy games at their first placement
decision and keeps the plain days: those on which no queen card could be played on a turn (no
turn-card option was listed). It plays each of them again from that state with the kernel (its
step machine, listings and ``policies.greedy``, as in a game) and with the lean prototype
below; both must place the same dice at the same places in the same order as the game did, or
the run stops. Then it times, in interleaved rounds over all the days: the kernel's day; the
prototype's day; the prototype's rules alone (the recorded placements applied, nothing valued)
and their set-up (the day copied into its arrays); the prototype's day played a second time,
with greedy's hive values kept and worked out afresh. From these: greedy's share, its hive
values, and the extra cost of a day's first play (the branches and caches the day before left
cold), per day and per placement. Last, it plays whole games twice, as they are and with
every day that is sure to be plain played by the prototype (``play_games``), checks that both
end with the rows of ``run_games`` and prints their games/s.

The prototype keeps what a placement day changes in small arrays of its own instead of the
game state (WD-R4 turns, WD-R6 destinations, as the kernel implements them): the free slots of
A, C, E and G, the dice on the flowers by seat, the unplaced dice by seat and value, each seat's
dice on its tiles by tile and value, a bit set of the tiles holding an odd number of dice of
each value (a die waiting for its pair, WD-F3) and the tile keys of §9.1 (identical tiles
listed once). It lists nothing: it values every legal (value, destination) in the kernel's
listing order (``kernel.list_placements``) and keeps the first best, as ``policies.greedy``
does, and keeps each value's best tile until the seat's dice of that value move. What greedy
works out once per hive (slot values, free capacity, tile pair, first-die and link values, egg
room, trades) it reads through greedy's own cached functions, at the seat's first decision of
the day, as the kernel does. Rivals, flower gains and ``careful``'s idle slots are its own.

This is a measuring tool, not a second engine: it covers placement turns without cards, under
greedy only. Its figures say how fast a day can be with options and values kept incrementally
instead of listed, which bounds what issue 40's redesign can reach (docs/performance.md).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from numba import njit

from sim.borrow import no_refcount_module, no_wraparound_module
from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O
from sim.games.waggle_dance import rules as R
from sim.games.waggle_dance.hive import DICE_BIT, seat_base
from sim.games.waggle_dance.policies import (
    IDLE, _cached_free_capacity, _cached_link, _cached_slot_value, _egg_room, _empty_cache,
    _link_at, _tile_first, _tile_pair, e_idle, g_idle, greedy, majority_gain)

# the rest never own an array (sim.borrow)
no_refcount_module(__name__, exclude=("record_days", "time_days", "play_games"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)

MAX_DAY = 160          # placements of one day kept per recorded day (4 seats x up to 30 dice + volunteer)
SEAT_SHIFT = 20        # a recorded placement: seat << SEAT_SHIFT | placement code
CODE_MASK = (1 << SEAT_SHIFT) - 1
GREEDY = -1            # lean_day's follow[0]: greedy chooses (else the recorded placements)
SET_UP_ONLY = -2       # lean_day's follow[0]: set the day up and stop (time_days SETUP)


# ---- recording ------------------------------------------------------------------------------
@njit(cache=True)
def record_days(rules, comp, kinds, pparams, seed, n_games, max_days, snaps, placed, n_placed):
    """Play ``n_games`` 4-player games (``sim.decide``'s loop, stopping at every decision) and
    record, for each plain day (no turn-card option listed on any of its turns), the state at its first placement decision
    (``snaps``) and its placements as seat << SEAT_SHIFT | placement code (``placed``, ``n_placed``).
    Returns (plain days recorded, all days, placement decisions of the plain days)."""
    log = np.zeros((1, 8), dtype=np.int64)
    kept = 0
    days = 0
    snap = np.zeros(snaps.shape[1], dtype=np.int64)
    for g in range(n_games):
        state, work = K.new_game(rules, comp, 4, kinds, pparams, seed, g, log)
        in_day = False
        plain = True
        k = 0
        day_round = 0
        while K.advance_all(state, rules, comp, log):    # every decision, one option or more
            n = state[L.S_N_OPTIONS]
            if n == 0:
                continue                        # no legal option: the rules' fallback was played
            is_place = state[L.S_POINT] == L.D_PLACE and state[L.S_PHASE] == L.PH_PLACE
            if in_day and (not is_place or state[L.S_ROUND] != day_round):
                in_day = False                  # the day is over
                if plain and k <= MAX_DAY and kept < max_days:
                    snaps[kept, :] = snap
                    n_placed[kept] = k
                    kept += 1
            if is_place:
                if not in_day:
                    in_day = True
                    plain = True
                    k = 0
                    day_round = state[L.S_ROUND]
                    snap[:] = state
                    days += 1
                if state[L.S_OPTIONS + n - 1] >= L.TURN_CARD:
                    plain = False
                i = K.choose(state, rules, comp, kinds, pparams, work) if n >= 2 else 0
                if k < MAX_DAY and kept < max_days:
                    placed[kept, k] = state[L.S_DECIDER] << SEAT_SHIFT | state[L.S_OPTIONS + i]
                k += 1
                K.apply_option(state, rules, comp, i, log)
            else:
                K.apply_option(state, rules, comp,
                               K.choose(state, rules, comp, kinds, pparams, work) if n >= 2 else 0, log)
        if kept >= max_days:
            break
    total = 0
    for d in range(kept):
        total += n_placed[d]
    return kept, days, total


# ---- the kernel's day ------------------------------------------------------------------------
@njit(cache=True)
def kernel_day(state, rules, pparams, scr, log, out):
    """Play the placement turns from ``state`` (at a day's first placement decision) as a game
    does (``kernel._step`` listings, ``policies.greedy``, ``kernel._apply``) until the day ends;
    the placements in ``out`` (as ``record_days``). Returns their number, or -1 as soon as a
    turn offers a queen card (not a plain day: the prototype does not play those)."""
    k = 0
    while state[L.S_PHASE] == L.PH_PLACE:
        n = K._step(state, rules, log, False)
        if state[L.S_PHASE] != L.PH_PLACE:
            break
        if state[L.S_OPTIONS + n - 1] >= L.TURN_CARD:
            return -1                               # not a plain day
        seat = state[L.S_DECIDER]
        i = greedy(state, rules, pparams, seat, L.D_PLACE, n, scr) if n >= 2 else 0
        code = state[L.S_OPTIONS + i]
        out[k] = seat << SEAT_SHIFT | code
        k += 1
        K._apply(state, rules, seat, code, log)
    return k


# ---- the lean day ----------------------------------------------------------------------------
@njit(cache=True, inline='always')
def _low_bit(m):
    """The index of the lowest bit set in ``m`` (not 0)."""
    t = 0
    while not (m >> t) & 1:
        t += 1
    return t


@njit(cache=True)
def _distinct(keys, s, nt):
    """§9.1: bit t set for each tile of seat ``s`` whose key no earlier tile has."""
    first = 0
    for t in range(nt):
        dup = False
        for u in range(t):
            dup |= keys[s, u] == keys[s, t]
        if not dup:
            first |= 1 << t
    return first


@njit(cache=True)
def _flower_gain(fl, rules, n, seat, f):
    """``policies._flower_gain`` on the prototype's flower counts."""
    top = 0
    for p in range(n):
        if p != seat:
            top = max(top, fl[f, p])
    return majority_gain(rules, fl[f, seat], top)


@njit(cache=True)
def _slot_idle(state, rules, pp, scr, seat, card, taken, mine, td, egg_mask):
    """``policies._slot_idle`` on the prototype's slot counts and tile dice (the hive, the
    supplies, the deck and the hand do not change in a day)."""
    b = seat_base(seat)
    if card == L.CARD_A:
        return 2 if state[L.S_TILE_SUPPLY] <= taken[card] * rules[R.R_TILES_PER_BUILD_DIE] else 0
    if card == L.CARD_C:
        if state[L.S_EGG_SUPPLY] <= taken[card] * rules[R.R_EGGS_PER_EGG_DIE]:
            return 2
        free, eggs = _egg_room(state, pp, scr, seat)
        if free < 0:
            return 1
        if eggs > 0 and state[b + L.F_PERSONAL] > 0:
            m = egg_mask
            while m:
                t = _low_bit(m)
                m &= m - 1
                for v in range(L.N_VAL):
                    if td[seat, t, v] >= 2:
                        free += 1
                        break
        free += min(mine[seat, L.CARD_A] * rules[R.R_TILES_PER_BUILD_DIE], state[L.S_TILE_SUPPLY])
        return 1 if free <= mine[seat, card] * rules[R.R_EGGS_PER_EGG_DIE] else 0
    if card == L.CARD_E:
        return e_idle(state, rules, pp, seat, scr, mine[seat, card])
    return g_idle(state, rules, seat, taken[card], mine[seat, card])


def workspace():
    """The prototype's arrays (``lean_day``), made once and reused by every day."""
    i8 = np.int64
    return (np.zeros(L.N_SLOTCARDS, i8), np.zeros(L.N_SLOTCARDS, i8),
            np.zeros((L.MAX_PLAYERS, L.N_SLOTCARDS), i8), np.zeros((L.N_COL, L.MAX_PLAYERS), i8),
            np.zeros((L.MAX_PLAYERS, L.N_VAL), i8), np.zeros(L.N_VAL, i8),
            np.zeros(L.MAX_PLAYERS, i8), np.zeros((L.MAX_PLAYERS, L.MAX_HIVE, L.N_VAL), i8),
            np.zeros((L.MAX_PLAYERS, L.N_VAL), i8), np.zeros((L.MAX_PLAYERS, L.MAX_HIVE), i8),
            np.zeros((4, L.MAX_PLAYERS), i8), np.zeros((2, L.N_SLOTCARDS), np.float64),
            np.zeros((L.MAX_PLAYERS, L.N_VAL), np.float64), np.zeros((L.MAX_PLAYERS, L.N_VAL), i8))


@njit(cache=True)
def _best_tile(state, rules, pp, scr, seat, v, un, td, odd, listed, eggs):
    """DP-04 (``policies._place_value_inline``'s tiles): (value, tile) of the best listed tile
    for a die of value v of ``seat``, the first on ties; (-inf, -1) if none is listed."""
    b = seat_base(seat)
    o = seat * L.MAX_HIVE
    bx = -np.inf
    bt = -1
    spare = un[seat, v - 1] >= 2
    m = listed[seat]                            # WD-R6c, §9.1
    while m:
        t = _low_bit(m)
        m &= m - 1
        d = td[seat, t, v - 1]
        if (eggs[seat] >> t) & 1:
            if state[b + L.F_PERSONAL] == 0:
                x = -0.5
            elif d & 1:
                x = pp[R.P_W_HATCH]
            else:
                x = 0.3 * pp[R.P_W_HATCH] if spare and d == 0 else -0.2
        elif d & 1:                     # greedy's cached values read here, as it does
            x = scr[L.SCR_TILE_PAIR + o + t]
            if x != x:
                x = _tile_pair(state, rules, pp, scr, seat, t)
        else:
            x = -0.3
            w = odd[seat, v - 1] & ~(1 << t)
            while w:
                u = _low_bit(w)
                w &= w - 1
                y = scr[_link_at(seat, t, u)]
                if y != y:
                    y = _cached_link(state, rules, scr, seat, t, u)
                x = max(x, 0.9 * pp[R.P_W_PAIR] * y)
            if spare:
                y = scr[L.SCR_TILE_FIRST + o + t]
                if y != y:
                    y = _tile_first(state, rules, pp, scr, seat, t)
                x = max(x, y)
        if x > bx:
            bx = x
            bt = t
    return bx, bt


@njit(cache=True)
def _greedy_place(state, rules, pp, scr, seat, n, ws):
    """``policies.greedy`` at a placement decision of ``seat`` (DP-04) on the prototype's
    arrays (``ws``): the best (value, destination), the first on ties in the kernel's listing
    order (``kernel.list_placements``), as a placement code."""
    free, taken, mine, fl, un, has, _, td, odd, _, seat_bits, slot_now, tb_val, tb_t = ws
    listed, eggs, seen = seat_bits[0], seat_bits[2], seat_bits[3]
    now, block = slot_now[0], slot_now[1]
    if not seen[seat]:                              # the seat's hive values (once a day)
        seen[seat] = 1
        _empty_cache(state, scr, seat)
    careful = pp[R.P_CAREFUL] != 0.0
    for c in range(L.N_SLOTCARDS):
        now[c] = np.nan
    capped = _cached_free_capacity(state, rules, scr, seat) == 0
    best_code = -1
    bv = -1e18
    for v in range(1, L.N_VAL + 1):
        if un[seat, v - 1] == 0:
            continue
        head = O.encode_place(v, 0)
        rivals = 0
        m = has[v - 1] & ~(1 << seat)
        while m:
            rivals += 1
            m &= m - 1
        for c in range(L.N_SLOTCARDS):              # WD-R6a
            if (free[c] >> (v - 1)) & 1:
                if careful:
                    if now[c] != now[c]:
                        idle = _slot_idle(state, rules, pp, scr, seat, c, taken, mine, td,
                                          eggs[seat])
                        now[c] = (_cached_slot_value(state, rules, pp, seat, c, scr)
                                  if idle == 0 else IDLE)
                        block[c] = 0.0 if idle == 2 else 1.0
                    x = now[c] if block[c] == 0.0 else now[c] + pp[R.P_BLOCK_WEIGHT] * rivals
                else:
                    x = (_cached_slot_value(state, rules, pp, seat, c, scr)
                         + pp[R.P_BLOCK_WEIGHT] * rivals)
                if x > bv:
                    bv = x
                    best_code = head + c
        g = _flower_gain(fl, rules, n, seat, v - 1)    # WD-R6b
        if capped:
            g *= 0.2
        x = pp[R.P_W_FLOWER] * g
        if x > bv:
            bv = x
            best_code = head + L.DEST_FLOWER
        if tb_t[seat, v - 1] == -2:                 # its tiles' best, while its dice stay
            tb_val[seat, v - 1], tb_t[seat, v - 1] = _best_tile(
                state, rules, pp, scr, seat, v, un, td, odd, listed, eggs)
        if tb_val[seat, v - 1] > bv:
            bv = tb_val[seat, v - 1]
            best_code = head + L.DEST_TILE + tb_t[seat, v - 1]
    return best_code


@njit(cache=True)
def lean_day(state, rules, pparams, scr, ws, out, follow):
    """Play the placement turns of the plain day at ``state`` (at its first placement
    decision) with greedy on the prototype's arrays (``ws``: ``workspace``); ``state`` itself
    is only read. The placements in ``out`` (as ``record_days``). Returns their number. With
    ``follow[0]`` other than GREEDY it places the dice as ``follow`` says (as ``record_days``)
    instead of valuing them: the prototype's rules alone; with SET_UP_ONLY it stops once set
    up."""
    free, taken, mine, fl, un, has, nts, td, odd, keys, seat_bits, _, tb_val, tb_t = ws
    listed, honeys, eggs = seat_bits[0], seat_bits[1], seat_bits[2]
    n = state[L.S_N_PLAYERS]
    free[:] = 0                                           # bit v-1: slot v free and unblocked
    taken[:] = 0
    mine[:] = 0
    has[:] = 0                                            # bit p: seat p holds an unplaced die of v
    seat_bits[:] = 0
    for c in range(L.N_SLOTCARDS):
        for v in range(L.N_VAL):
            o = state[L.S_SLOT_OWNER + c * L.N_VAL + v]
            if o == 0 and state[L.S_BLOCKED + c * L.N_VAL + v] == 0:
                free[c] |= 1 << v
            if o != 0:
                taken[c] += 1
                mine[o - 1, c] += 1
    for p in range(n):
        b = seat_base(p)
        for f in range(L.N_COL):
            fl[f, p] = state[L.S_FLOWER + f * L.MAX_PLAYERS + p]
        for v in range(L.N_VAL):
            un[p, v] = state[b + L.F_UNPLACED + v]
            if un[p, v] > 0:
                has[v] |= 1 << p
            odd[p, v] = 0
            tb_t[p, v] = -2                               # its tiles' best: to work out
        nt = state[b + L.F_N_TILES]
        nts[p] = nt
        for t in range(nt):
            keys[p, t] = state[b + L.F_TKEY + t]
            honeys[p] |= state[b + L.F_TILE_HONEY + t] << t
            eggs[p] |= state[b + L.F_EGG + t] << t
            for v in range(L.N_VAL):
                d = state[b + L.F_TDICE + t * L.N_VAL + v]
                td[p, t, v] = d
                odd[p, v] |= (d & 1) << t
        listed[p] = _distinct(keys, p, nt) & ~honeys[p]
    if follow[0] == SET_UP_ONLY:
        return 0
    cursor = state[L.S_CURSOR]
    k = 0
    while True:
        seat = -1                                       # WD-R4: the next seat with dice
        with_dice = has[0] | has[1] | has[2] | has[3] | has[4] | has[5]
        for j in range(n):
            c = (cursor + j) % n
            s = (state[L.S_START] + c) % n
            if (with_dice >> s) & 1:
                cursor = c
                seat = s
                break
        if seat < 0:
            return k
        if follow[0] == GREEDY:
            best_code = _greedy_place(state, rules, pparams[seat], scr, seat, n, ws)
        else:                                           # the recorded placement
            best_code = follow[k] & CODE_MASK
        out[k] = seat << SEAT_SHIFT | best_code
        k += 1
        v, dest = O.decode_place(best_code)             # apply it
        tb_t[seat, v - 1] = -2                          # the dice of v moved
        un[seat, v - 1] -= 1
        if un[seat, v - 1] == 0:
            has[v - 1] &= ~(1 << seat)
        if dest < L.DEST_FLOWER:
            free[dest] &= ~(1 << (v - 1))
            taken[dest] += 1
            mine[seat, dest] += 1
        elif dest == L.DEST_FLOWER:
            fl[v - 1, seat] += 1
        else:
            t = dest - L.DEST_TILE
            td[seat, t, v - 1] += 1
            odd[seat, v - 1] ^= 1 << t
            keys[seat, t] += 1 << (DICE_BIT + 5 * (v - 1))
            was = listed[seat]
            listed[seat] = _distinct(keys, seat, nts[seat]) & ~honeys[seat]
            if listed[seat] != was:                     # other tiles listed: every value's best
                for u in range(L.N_VAL):
                    tb_t[seat, u] = -2
        cursor = (cursor + 1) % n                       # WD-R4: one die a turn


# ---- the timed comparison --------------------------------------------------------------------
KERNEL, LEAN, COPY, RULES, KEPT, AFRESH, SETUP = range(7)   # what ``time_days`` plays


@njit(cache=True)
def time_days(what, snaps, placed, n_days, rules, pparams, scr, work_state, ws, log, out):
    """Copy each recorded day into ``work_state`` and play it: KERNEL the kernel's day, LEAN the
    prototype's, RULES the prototype's rules alone on the recorded placements, SETUP only the
    prototype's set-up, KEPT and AFRESH the prototype's day twice (greedy's hive values kept
    for the second play, or worked out again: the seats' hive records wiped), COPY nothing
    more (the cost to take off). Returns the placements made (of the last play)."""
    total = 0
    none = np.full(1, GREEDY, dtype=np.int64)
    setup = np.full(1, SET_UP_ONLY, dtype=np.int64)
    for d in range(n_days):
        work_state[:] = snaps[d]
        if what == KERNEL:
            total += kernel_day(work_state, rules, pparams, scr, log, out)
        elif what == LEAN:
            total += lean_day(work_state, rules, pparams, scr, ws, out, none)
        elif what == RULES:
            total += lean_day(work_state, rules, pparams, scr, ws, out, placed[d])
        elif what == SETUP:
            lean_day(work_state, rules, pparams, scr, ws, out, setup)
        elif what == KEPT or what == AFRESH:
            lean_day(work_state, rules, pparams, scr, ws, out, none)
            if what == AFRESH:
                scr[L.SCR_HIVE:L.SCR_HIVE + L.MAX_PLAYERS * L.HIVE_KEY] = 0.0
            total += lean_day(work_state, rules, pparams, scr, ws, out, none)
    return total


# ---- whole games with the plain days played lean -------------------------------------------
TURN_CARDS = (L.Q_OVERTIME, L.Q_COMMAND, L.Q_SHIFT_CHANGE, L.Q_FEINT, L.Q_WRONG_TURN, L.Q_SCOUT,
              L.Q_VOLUNTEER)      # the cards a placement turn may offer (kernel.list_turn)


@njit(cache=True)
def _plain_ahead(state):
    """True if no seat holds a card a placement turn may offer: the rest of the day is plain
    (cards are drawn only at night, WD-G1)."""
    for p in range(state[L.S_N_PLAYERS]):
        b = seat_base(p)
        for q in TURN_CARDS:
            if state[b + L.F_HAND + q] > 0:
                return False
    return True


@njit(cache=True)
def play_games(lean, rules, comp, kinds, pparams, seed, first, games_out, seats_out, ws):
    """Play games ``first + i`` (4 players) as ``kernel.playout`` does, one state and scratch
    reused, into the result rows; with ``lean``, each day that is sure to be plain
    (``_plain_ahead`` at its first placement decision) is played by the prototype, its
    placements applied to the state by the rules (``kernel._apply``). Returns those days."""
    state = np.zeros(K.state_size(4), dtype=np.int64)
    scr = np.zeros(L.SCR_LEN, dtype=np.float64)
    log = np.zeros((1, 8), dtype=np.int64)
    out = np.zeros(MAX_DAY, dtype=np.int64)
    none = np.full(1, GREEDY, dtype=np.int64)
    work = (scr,)
    lean_days = 0
    for i in range(games_out.shape[0]):
        K._begin(rules, comp, 4, seed, first + i, state, log)
        day = 0
        while K._self_play_step(state, rules, log):
            if (lean and state[L.S_PHASE] == L.PH_PLACE and state[L.S_ROUND] != day
                    and _plain_ahead(state)):
                day = state[L.S_ROUND]
                k = lean_day(state, rules, pparams, scr, ws, out, none)
                state[L.S_POINT] = 0
                state[L.S_N_OPTIONS] = 0
                for j in range(k):
                    K._apply(state, rules, out[j] >> SEAT_SHIFT, out[j] & CODE_MASK, log)
                lean_days += 1
                continue
            day = state[L.S_ROUND] if state[L.S_PHASE] == L.PH_PLACE else day
            K.apply_option(state, rules, comp, K.choose(state, rules, comp, kinds, pparams, work), log)
        K.finish(state, rules, comp, games_out[i], seats_out[i])
    return lean_days


def main(argv=None, may_restart: bool = False) -> int:
    """The CLI. With ``may_restart`` (run as a script) the timings are taken in a new process,
    once the code is compiled and in the cache: the kernel's day ran up to 4x slower in the
    process that had just compiled the prototype."""
    from sim.batch import make_arm, run_games
    from sim.registry import make

    ap = argparse.ArgumentParser(prog="python -m pipelines.lean_day", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games to record days from (default 2000)")
    ap.add_argument("--days", type=int, default=6000, help="plain days kept at most (default 6000)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds (default 5)")
    ap.add_argument("--whole", type=int, default=4000,
                    help="whole games timed with and without the prototype's days (default 4000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fresh", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    fresh = a.fresh

    arm = make_arm(make("waggle_dance"), 4)
    kinds, params = arm.policy_arrays
    size = K.state_size(4)
    snaps = np.zeros((a.days, size), dtype=np.int64)
    placed = np.zeros((a.days, MAX_DAY), dtype=np.int64)
    n_placed = np.zeros(a.days, dtype=np.int64)
    kept, days, decisions = record_days(arm.rules, arm.comp, kinds, params, np.uint64(a.seed),
                                        a.games, a.days, snaps, placed, n_placed)
    print(f"recorded {days} days of up to {a.games} games (4 players, greedy); {kept} plain days "
          f"(no turn card listed), {decisions} placements")

    log = np.zeros((1, 8), dtype=np.int64)
    out = np.zeros(MAX_DAY, dtype=np.int64)
    scr = np.zeros(L.SCR_LEN, dtype=np.float64)
    state = np.zeros(size, dtype=np.int64)
    ws = workspace()
    none = np.full(1, GREEDY, dtype=np.int64)
    for d in range(kept):                               # the same placements, in the same order
        for name, fn, args in (("kernel", kernel_day, (snaps[d].copy(), arm.rules, params, scr, log, out)),
                               ("lean", lean_day, (snaps[d], arm.rules, params, scr, ws, out, none)),
                               ("lean rules", lean_day, (snaps[d], arm.rules, params, scr, ws, out, placed[d]))):
            k = fn(*args)
            if k != n_placed[d] or not np.array_equal(out[:k], placed[d, :k]):
                print(f"day {d}: the {name} day differs from the recorded one")
                return 1
    print(f"all {kept} days: the kernel's and the prototype's placements equal the recorded ones")

    modes = (KERNEL, LEAN, RULES, SETUP, KEPT, AFRESH, COPY)
    for what in modes:                                  # compiled code loaded
        time_days(what, snaps, placed, min(kept, 50), arm.rules, params, scr, state, ws, log, out)
    if may_restart and not fresh:
        print("timing in a new process, with the code compiled")
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable, "-m", "pipelines.lean_day", "--fresh", *(argv or sys.argv[1:])])
    times = {w: [] for w in modes}
    for r in range(a.rounds):
        for what in (modes if r % 2 == 0 else modes[::-1]):
            scr[:] = 0.0
            t = time.perf_counter()
            total = time_days(what, snaps, placed, kept, arm.rules, params, scr, state, ws, log, out)
            times[what].append(time.perf_counter() - t)
            assert total == (0 if what in (COPY, SETUP) else decisions)
    copy = float(np.median(times[COPY]))
    med = {w: float(np.median(times[w])) - copy for w in modes}
    again = med[KEPT] - med[LEAN]       # the day played again, greedy's hive values kept
    afresh = med[AFRESH] - med[LEAN]    # again, its hive values worked out afresh
    print(f"{decisions / kept:.1f} placements a day; medians of {a.rounds} interleaved rounds, "
          f"less the copy of a day's state ({copy / kept * 1e6:.2f} us)")
    for name, x in (("kernel: listing, greedy, apply", med[KERNEL]),
                    ("prototype: greedy and rules", med[LEAN]),
                    ("  rules alone", med[RULES]),
                    ("    of which the set-up", med[SETUP]),
                    ("  greedy", med[LEAN] - med[RULES]),
                    ("    played again", again - med[RULES]),
                    ("    hive values worked out", afresh - again),
                    ("    first play's extra", med[LEAN] - afresh)):
        print(f"{name:32s} {x / kept * 1e6:8.2f} us a day  {x / decisions * 1e9:7.1f} ns a placement")
    print(f"prototype / kernel: {med[LEAN] / med[KERNEL]:.3f}")

    g0, s0 = run_games(arm, a.seed, 0, a.whole)         # whole games: the run's rows, then timed
    rates = {0: [], 1: []}
    lean_days = 0
    for r in range(a.rounds):
        for lean in ((0, 1) if r % 2 == 0 else (1, 0)):
            g = np.zeros_like(g0)
            sr = np.zeros_like(s0)
            t = time.perf_counter()
            days = play_games(lean, arm.rules, arm.comp, kinds, params, np.uint64(a.seed), 0, g, sr, ws)
            rates[lean].append(a.whole / (time.perf_counter() - t))
            if not (np.array_equal(g, g0) and np.array_equal(sr, s0)):
                print(f"whole games {'with' if lean else 'without'} the prototype's days: rows differ from the run's")
                return 1
            lean_days = max(lean_days, days)
    k0, k1 = float(np.median(rates[0])), float(np.median(rates[1]))
    print(f"whole games ({a.whole:,}, one thread, rows equal to run_games'): the kernel {k0:,.0f} games/s; "
          f"the sure-plain days ({lean_days / a.whole:.1f} a game) by the prototype {k1:,.0f} games/s "
          f"({k1 / k0:.3f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(may_restart=True))
