"""The Little Flower Shop Dice Game: the rule queries the kernel and the policies share.

Read-only ``@njit`` queries of a seat's dice, locks, money and wild tokens (FS-L1..L5, FS-U5,
FS-U7) and the entry of the solo feasibility check (FS-SOLO-C1..C6), which dispatches on the
type of ``comp`` (``rules.kernel_components``). They read the rule parameters through the
``R_*`` offsets that ``rules.py`` declares, so they live beside it, not in it.
"""
import numpy as np
from numba import njit
from numba.extending import overload

from sim.borrow import no_refcount_module, no_wraparound_module

from . import layout as L
from . import rules as R
from .solo import feasible_in

# These queries never allocate and never index below 0 (sim.borrow).
no_refcount_module(__name__)
no_wraparound_module(__name__)


@njit(cache=True)
def seat_base(seat):
    """Offset of ``seat``'s block in the state array."""
    return L.SEAT0 + seat * L.SEAT_LEN


@njit(cache=True)
def popcount(x):
    """Number of set bits of a small non-negative int."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def dice_mask(rules):
    """Bitmask of a player's flower and vase dice (not the initiative die)."""
    nf = np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER])
    nv = np.int64(rules[R.R_VASE_DICE_PER_PLAYER])
    return ((np.int64(1) << nf) - 1) | (((np.int64(1) << nv) - 1) << L.DIE_VASE0)


@njit(cache=True)
def all_dice_mask(rules):
    """Bitmask of all of a player's dice, the initiative die included (FS-L7)."""
    return dice_mask(rules) | (np.int64(1) << L.DIE_INIT)


@njit(cache=True)
def n_slots(rules):
    """Shop slots (rows x cols, §2.6)."""
    return np.int64(rules[R.R_SHOP_ROWS]) * np.int64(rules[R.R_SHOP_COLS])


@njit(cache=True)
def schedule_value(rules, j):
    """Cost of the j-th (0-based) extra lock; the last listed value repeats (FS-L3)."""
    n = np.int64(rules[R.R_EXTRA_LOCK_COST_SCHEDULE])
    if j >= n:
        j = n - 1
    if j >= L.LIST_SLOTS:
        j = L.LIST_SLOTS - 1
    return np.int64(rules[R.R_EXTRA_LOCK_COST_SCHEDULE + 1 + j])


@njit(cache=True)
def lock_cost(state, rules, seat, k):
    """Cost of locking k dice now, or -1 if that choice is illegal (FS-L2..L5, FS-V-VHARD-1/2).

    k = 0 costs ``skip_lock_cost`` (-1 = forbidden; free if ``min_locks`` is 0); 0 < k <
    min(min_locks, unlocked) is illegal; k dice cost the schedule for the extras beyond
    ``free_locks_max``, counted in this step (or across the day with scope ``day``).
    Affordability is not checked here (see ``lock_legal``).
    """
    b = seat_base(seat)
    unlocked = popcount(all_dice_mask(rules) & ~state[b + L.F_LOCKED])
    if k < 0 or k > unlocked:
        return -1
    min_locks = np.int64(rules[R.R_MIN_LOCKS])
    if k == 0:
        if min_locks == 0:
            return 0
        return np.int64(rules[R.R_SKIP_LOCK_COST])
    need = min_locks if min_locks < unlocked else unlocked
    if k < need:
        return -1
    free = np.int64(rules[R.R_FREE_LOCKS_MAX])
    extras = k - free
    if extras <= 0:
        return 0
    start = 0
    if rules[R.R_EXTRA_LOCK_COST_SCOPE] == R.SCOPE_DAY:
        start = state[b + L.F_EXTRAS_TODAY]
    cost = 0
    for j in range(start, start + extras):
        cost += schedule_value(rules, j)
    return cost


@njit(cache=True)
def lock_legal(state, rules, seat, mask):
    """Cost of locking the dice of ``mask`` (subset of the unlocked dice), or -1 if illegal
    (FS-L1, FS-L5: money never goes negative)."""
    b = seat_base(seat)
    unl = all_dice_mask(rules) & ~state[b + L.F_LOCKED]
    if mask & ~unl:
        return -1
    c = lock_cost(state, rules, seat, popcount(mask))
    if c < 0 or c > state[b + L.F_MONEY]:
        return -1
    return c


@njit(cache=True)
def unused_dice(state, rules, seat):
    """Locked flower and vase dice not yet used today (the initiative die is never used)."""
    b = seat_base(seat)
    return state[b + L.F_LOCKED] & ~state[b + L.F_USED] & dice_mask(rules)


@njit(cache=True)
def token_room(state, rules, seat):
    """Whether the player may gain a token: tokens held < ``wild_token_max`` and supply > 0
    (FS-U5, FS-U7)."""
    return (state[seat_base(seat) + L.F_TOKENS] < np.int64(rules[R.R_WILD_TOKEN_MAX])
            and state[L.S_TOKEN_SUPPLY] > 0)


@njit(cache=True)
def buy_token_legal(state, rules, seat):
    """Money >= ``wild_token_cost``, supply > 0 and (if the cap applies to buys) tokens held <
    ``wild_token_max`` (FS-U7, AMB-09)."""
    b = seat_base(seat)
    if state[b + L.F_MONEY] < np.int64(rules[R.R_WILD_TOKEN_COST]) or state[L.S_TOKEN_SUPPLY] <= 0:
        return False
    if rules[R.R_WILD_CAP_APPLIES_TO_BUY] != 0 and state[b + L.F_TOKENS] >= np.int64(rules[R.R_WILD_TOKEN_MAX]):
        return False
    return True


def solo_feasible(state, rules, comp, shop, finished, days_left, work):
    """``solo_feasible_state`` for the kernels, which pass ``comp`` (``kernel_components``);
    a solo game played with the ``comp`` of multiplayer games only, whose compiled code holds no
    solver, is an error."""
    if len(comp) != R.N_ARRAYS + 1:
        raise ValueError(_NO_SOLVER)
    return solo_feasible_state(state, rules, comp[0], comp[1], shop, finished, days_left, work)


_NO_SOLVER = ("a solo game needs the components of kernels that play solo games "
              "(flower_shop.rules.kernel_components)")


@overload(solo_feasible, inline="always")
def _solo_feasible_typed(state, rules, comp, shop, finished, days_left, work):
    """Numba's ``solo_feasible``, chosen by the type of ``comp``: the solver (``solo_feasible``
    itself) is compiled only into kernels that may play a solo game. Inlined where it is called,
    so the call passes the solver its two arrays, not the whole tuple (5% of a solo game when it
    did)."""
    if len(comp) == R.N_ARRAYS + 1:
        return solo_feasible

    def no_solver(state, rules, comp, shop, finished, days_left, work):
        raise ValueError(_NO_SOLVER)
    return no_solver


@njit(cache=True)
def solo_feasible_state(state, rules, tiles, tasks, shop, finished, days_left, work):
    """Run ``solo.feasible`` (FS-SOLO-C2..C6) on a shop (real or hypothetical) of the solo
    player with the current pool (the draw stack), cards, tokens and money; ``work`` is an
    int64 scratch of ``solo.WORK_MAX``."""
    b = seat_base(0)
    pos = state[L.S_STACK_POS]
    n = state[L.S_STACK_N]
    pool = state[L.S_STACK + pos:L.S_STACK + n]
    max_sal = 0
    k = np.int64(rules[R.R_SOLO_SALARY])
    for i in range(min(k, L.MAX_SAL)):
        v = np.int64(rules[R.R_SOLO_SALARY + 1 + i])
        if v > max_sal:
            max_sal = v
    n_dice = np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER]) + np.int64(rules[R.R_VASE_DICE_PER_PLAYER])
    return feasible_in(
        shop, finished, np.int64(rules[R.R_SHOP_ROWS]), np.int64(rules[R.R_SHOP_COLS]),
        pool, n - pos, state[L.S_CARDS:L.S_CARDS + L.MAX_CARDS_IN_PLAY], state[L.S_N_CARDS],
        rules[R.R_SOLO_WIN_RULE] == R.WIN_ANY, np.int64(rules[R.R_SOLO_FEASIBILITY_MODE]),
        rules[R.R_SOLO_CHECK_CAPACITY] != 0, days_left, n_dice, state[b + L.F_TOKENS],
        state[b + L.F_MONEY], max_sal, np.int64(rules[R.R_WILD_TOKEN_COST]), tasks, tiles, work)
