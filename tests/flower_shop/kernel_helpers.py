"""Helpers for Flower Shop kernel scenario tests: hand-built states with forced dice."""
from __future__ import annotations

import numpy as np

from sim.games.flower_shop import kernel as K
from sim.games.flower_shop import rules as R
from sim.games.flower_shop import solo
from sim.registry import make
from sim.trace import events, new_log

SPEC = make("flower_shop")
COMP = R.load_components(None)
ARR = COMP.arrays
TB = COMP.tables
FL = {f: i for i, f in enumerate(TB["flower_types"])}
VA = {v: i for i, v in enumerate(TB["vase_colours"])}
NOLOG = np.zeros((1, 8), dtype=np.int64)
FEAS_WORK = np.empty(solo.WORK_MAX, dtype=np.int64)  # scratch of the solo feasibility check


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
        st[K.seat_base(s) + K.F_MONEY] = money
        st[K.seat_base(s) + K.F_INIT_DIE] = min(s, 3)
    st[K.S_DAY] = 1
    st[K.S_N_CARDS] = 1
    st[K.S_CARDS] = 0
    st[K.S_CARDS + 1] = -1
    K.reset_salary(st, rules, n)
    K.start_day(st, rules, n, NOLOG)
    return st


def faces(flowers=(), vases=(), init=None) -> np.ndarray:
    """A faces array by die index from flower names ('any' = -1) and vase colour names."""
    f = np.zeros(K.MAX_DICE, dtype=np.int64)
    for i, name in enumerate(flowers):
        f[i] = -1 if name == "any" else FL[name]
    for i, name in enumerate(vases):
        f[K.DIE_VASE0 + i] = VA[name]
    if init is not None:
        f[K.DIE_INIT] = init
    return f


def set_dice(st, rules, seat, flowers=(), vases=(), init=1, lock_all=True):
    """Force faces on a seat's dice (and lock them all, as at Step 4)."""
    b = K.seat_base(seat)
    st[b + K.F_LOCKED] = 0
    K.apply_roll(st, rules, seat, faces(flowers, vases, init), NOLOG)
    if lock_all:
        st[b + K.F_LOCKED] = K.all_dice_mask(rules)
    st[b + K.F_USED] = 0


def place(st, seat, slot, tile_name, finished=False):
    b = K.seat_base(seat)
    st[b + K.F_SHOP + slot] = tid(tile_name)
    st[b + K.F_FIN + slot] = 1 if finished else 0


def set_row(st, names):
    st[K.S_ROW_N] = len(names)
    for i, n in enumerate(names):
        st[K.S_ROW + i] = tid(n)


def set_stack(st, names):
    ids = np.array([tid(n) for n in names], dtype=np.int64)
    K.setup_stack(st, ids, len(ids))


def mask(*dice) -> int:
    m = 0
    for d in dice:
        m |= 1 << d
    return m


def seat(st, s, field):
    return int(st[K.seat_base(s) + field])


def arm(n, policy="greedy", variant=None, **tweaks):
    from sim import batch
    return batch.make_arm(SPEC, n, variant=variant, tweaks=tweaks or None, policy=policy)


def replay_events(n=2, seed=1, index=0, policy="greedy", variant=None, **tweaks):
    from sim import batch
    ev, g, s = batch.replay(arm(n, policy, variant, **tweaks), seed, index)
    return ev, g, s


__all__ = ["K", "R", "SPEC", "COMP", "ARR", "TB", "FL", "VA", "NOLOG", "tid", "cid", "rules_for",
           "blank", "faces", "set_dice", "place", "set_row", "set_stack", "mask", "seat", "arm",
           "replay_events", "events", "new_log", "np"]
