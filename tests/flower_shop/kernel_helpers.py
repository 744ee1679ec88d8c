"""Helpers for Flower Shop kernel scenario tests: hand-built states with forced dice, games
positioned at a player's turn (driven through the one decision interface, ``sim.decide``), and
jitted wrappers over the kernel functions that only the tests call (taking the component tuple
where the game loop passes single arrays)."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim import batch, decide
from sim.games.flower_shop import kernel as K
from sim.games.flower_shop import layout as L
from sim.games.flower_shop import policies as P
from sim.games.flower_shop import queries as Q
from sim.games.flower_shop import rules as R
from sim.games.flower_shop.kernel import apply_step4_action_with, finish_tile_with, roll_dice
from sim.games.flower_shop.tasks import assign_icons
from sim.registry import make
from sim.trace import events, new_log

SPEC = make("flower_shop")
COMP = R.load_components(None)
ARR = COMP.arrays
SOLO_ARR = R.kernel_components(ARR, (1,))  # solo games' components (the solver compiled in)
TB = COMP.tables
FL = {f: i for i, f in enumerate(TB["flower_types"])}
VA = {v: i for i, v in enumerate(TB["vase_colours"])}
NOLOG = np.zeros((1, 8), dtype=np.int64)
FEAS_WORK = np.empty(L.WORK_MAX, dtype=np.int64)  # scratch of the solo feasibility check


def tid(name: str) -> int:
    return TB["tile_ids"].index(name)


def cid(name: str) -> int:
    return TB["task_ids"].index(name)


def rules_for(n: int = 2, variant: str | None = None, **tweaks) -> np.ndarray:
    return SPEC.pack_rules(SPEC.rule_values(n, variant, tweaks))


def blank(n: int = 2, rules=None, money: int = 5) -> np.ndarray:
    """A state on day 1, empty shops, every player active with ``money``, salary area set."""
    rules = rules_for(n) if rules is None else rules
    st = K.new_state(n)
    K.setup_players(st, rules, n)
    for s in range(n):
        st[Q.seat_base(s) + L.F_MONEY] = money
        st[Q.seat_base(s) + L.F_INIT_DIE] = min(s, 3)
    st[L.S_DAY] = 1
    st[L.S_N_CARDS] = 1
    st[L.S_CARDS] = 0
    st[L.S_CARDS + 1] = -1
    K.reset_salary(st, rules, n)
    K.start_day(st, rules, n, NOLOG)
    return st


def faces(flowers=(), vases=(), init=None) -> np.ndarray:
    """A faces array by die index from flower names ('any' = -1) and vase colour names."""
    f = np.zeros(L.MAX_DICE, dtype=np.int64)
    for i, name in enumerate(flowers):
        f[i] = -1 if name == "any" else FL[name]
    for i, name in enumerate(vases):
        f[L.DIE_VASE0 + i] = VA[name]
    if init is not None:
        f[L.DIE_INIT] = init
    return f


def set_dice(st, rules, seat, flowers=(), vases=(), init=1, lock_all=True):
    """Force faces on a seat's dice (and lock them all, as at Step 4)."""
    b = Q.seat_base(seat)
    st[b + L.F_LOCKED] = 0
    K.apply_roll(st, rules, seat, faces(flowers, vases, init), NOLOG)
    if lock_all:
        st[b + L.F_LOCKED] = Q.all_dice_mask(rules)
    st[b + L.F_USED] = 0


def place(st, seat, slot, tile_name, finished=False):
    b = Q.seat_base(seat)
    st[b + L.F_SHOP + slot] = tid(tile_name)
    st[b + L.F_FIN + slot] = 1 if finished else 0


def set_row(st, names):
    st[L.S_ROW_N] = len(names)
    for i, n in enumerate(names):
        st[L.S_ROW + i] = tid(n)


def set_stack(st, names):
    ids = np.array([tid(n) for n in names], dtype=np.int64)
    K.setup_stack(st, ids, len(ids))


def mask(*dice) -> int:
    m = 0
    for d in dice:
        m |= 1 << d
    return m


def seat(st, s, field):
    return int(st[Q.seat_base(s) + field])


def arm(n, policy="greedy", variant=None, **tweaks):
    return batch.make_arm(SPEC, n, variant=variant, tweaks=tweaks or None, policy=policy)


def replay_events(n=2, seed=1, index=0, policy="greedy", variant=None, **tweaks):
    ev, g, s = batch.replay(arm(n, policy, variant, **tweaks), seed, index)
    return ev, g, s


def at_turn(st, rules, seat, phase, policy="greedy", log_capacity=200) -> decide.Game:
    """A game in the hand-built state ``st`` at ``seat``'s turn (the only one in the turn order),
    at control position ``phase`` (``L.PH_LOCK``, ``L.PH_TILE``, ``L.PH_STEP4``), every seat
    playing ``policy``; drive it with ``advance`` and ``take(code)`` (the scripted policy)."""
    n = int(st[L.S_N_PLAYERS])
    st[L.S_ORDER] = seat
    st[L.S_ORDER_N] = 1
    st[L.S_TURN] = 0
    st[L.S_PHASE] = phase
    kinds, pp = SPEC.pack_policies([policy] * n)
    scr = np.zeros(L.SCR_LEN, dtype=np.int64)
    fscr = np.zeros(L.FSCR_LEN)
    P.prepare_scratch(st, rules, ARR, scr, fscr)
    return decide.Game(SPEC.steps, st, (scr, fscr), rules, ARR, kinds, pp, new_log(log_capacity))


# ---- test-only wrappers -------------------------------------------------------------
@njit(cache=True)
def draw_faces(state, rules, comp, seat, faces):
    """Draw fresh faces for ``seat``'s unlocked dice into ``faces[0:MAX_DICE]`` (FS-D3) from the
    dice stream of the state, with the dice of the component tuple (see ``roll_dice``)."""
    roll_dice(state, rules, comp[3], comp[4], comp[5], seat, faces)


@njit(cache=True)
def finish_tile(state, rules, comp, seat, slot, log):
    """``finish_tile_with`` taking the component tuple."""
    return finish_tile_with(state, rules, comp[0], seat, slot, log)


@njit(cache=True)
def apply_step4_action(state, rules, comp, seat, action, log):
    """``apply_step4_action_with`` taking the component tuple."""
    return apply_step4_action_with(state, rules, comp[0], seat, action, log)


@njit(cache=True)
def min_tokens_to_finish(state, rules, comp, seat, slot):
    """Tokens needed to finish the tile in ``slot`` with the unused dice (FS-U2), or -1 if the
    slot holds no unfinished tile."""
    b = Q.seat_base(seat)
    t = state[b + L.F_SHOP + slot]
    if t < 0 or state[b + L.F_FIN + slot]:
        return -1
    tok, u1, u2 = assign_icons(state, comp[0], b, np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER]),
                               np.int64(rules[R.R_VASE_DICE_PER_PLAYER]), t,
                               Q.unused_dice(state, rules, seat), np.int64(0))
    return tok


__all__ = ["K", "L", "Q", "R", "SPEC", "COMP", "ARR", "TB", "FL", "VA", "NOLOG", "tid", "cid", "rules_for",
           "blank", "faces", "set_dice", "place", "set_row", "set_stack", "mask", "seat", "arm",
           "replay_events", "at_turn", "events", "new_log", "np", "draw_faces", "finish_tile",
           "apply_step4_action", "min_tokens_to_finish"]
