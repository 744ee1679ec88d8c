"""Numba kernel for The Little Flower Shop Dice Game (1-4 players).

Rule source: ``shared/rules/flower_shop.md``. Every function cites the rule IDs it implements.
Parameters (``rules`` float64 array, ``R_*`` offsets and defaults in ``rules.py``):
days 6, shop 2x3, 4 flower + 1 vase dice, $5, row n+1, 2 free locks, min 1 lock, extra lock
schedule [1,1,1,1] per step, skip $1, salary [3,1]/[3,2,1]/[4,3,2,1], $1 per die, 2 dice per
token, 5 tokens max at $3 (cap applies to buys), 20 tokens, ribbons $5 x 11 worth 1 (1 per tile),
task points 2/1 on full lines, 1 task card, initiative ties by seat, random initiative dice,
tie-break money then tokens; solo: row 4, salary [3,2,1,1], dice I-D vs I-A, discard on lower
(not always), lower removes the lowest / higher the highest salary card, ties no effect, keep
1 tile, odd = left, refresh $3 once a day, 1 card, win rule all, no compatible redraw,
feasibility `lines` + capacity, no reshuffle.

State, output and scratch layouts, codes and limits: ``layout.py`` (``playtest layout
flower_shop`` prints the tables); rule parameter offsets ``R_*``: ``rules.py``.
"""
import numpy as np
from numba import njit

from sim.borrow import borrowed, no_refcount_module, no_wraparound_module, whole_program
from sim.decide import K_RANDOM, index_of, random_index
from sim.rng import SUB_DICE, SUB_POLICY, SUB_SETUP, draw, shuffle_in, start_in, substream_in
from sim.trace import emit

from . import layout as L
from . import options as O
from . import rules as R
from .policies import (greedy_lock, greedy_refresh, greedy_ribbon, greedy_step4, greedy_tile,
                       prepare_scratch)
from .queries import (all_dice_mask, buy_token_legal, lock_cost, lock_legal, n_slots, popcount,
                      seat_base, solo_feasible, token_room, unused_dice)
from .tasks import assign_icons, card_fully_satisfied, dice_counts, lines_met, tokens_needed

# The game loop only sees arrays its callers own (sim.borrow); these allocate.
no_refcount_module(__name__, exclude=("new_state", "setup_game", "new_game", "play_one",
                                      "play_many"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)
# a run's and a replay's calls are private to them (sim.borrow)
whole_program(__name__, "play_many")
whole_program(__name__, "play_one")

BLOCK_GAMES = 64   # games per block of play_many (greedy caches reused)


# =========================================================================================
# small helpers
# =========================================================================================
@njit(cache=True)
def new_state(n_players):
    """An all-empty state for ``n_players`` (shops empty, day 0).

    Returns
    -------
    int64[STATE_LEN] (seats beyond ``n_players`` stay unused)
    """
    state = np.zeros(L.STATE_LEN, dtype=np.int64)
    clear_state(state, n_players)
    return state


@njit(cache=True)
def clear_state(state, n_players):
    """Make ``state`` (``new_state``) the all-empty state of a new game: the global and seat
    blocks zeroed, shops empty, no decision pending. The tail's work area and option rows are
    scratch, always written before they are read, so ``play_many`` reuses one state array
    for the games of a block without zeroing them (identical results, less memory traffic)."""
    state[:L.STATE_TAIL_START] = 0
    state[L.S_POINT] = 0
    state[L.S_DECIDER] = 0
    state[L.S_N_OPTIONS] = 0
    state[L.S_N_PLAYERS] = n_players
    for seat in range(n_players):
        b = seat_base(seat)
        for s in range(L.MAX_SLOTS):
            state[b + L.F_SHOP + s] = -1
        state[b + L.F_SLOT_TODAY] = -1


@njit(cache=True)
def row_size(rules, n_players):
    """Tiles dealt into the row: n + offset (FS-S4) or the solo row size (FS-SOLO-S3)."""
    if n_players == 1:
        return np.int64(rules[R.R_SOLO_ROW_SIZE])
    return n_players + np.int64(rules[R.R_ROW_SIZE_OFFSET])


# =========================================================================================
# setup (FS-S*, FS-SOLO-S*)
# =========================================================================================
@njit(cache=True)
def reset_salary(state, rules, n_players):
    """Fill the salary area, ascending (FS-S7, FS-N5; solo FS-SOLO-S6, FS-SOLO-N3).

    Parameters
    ----------
    state : int64 state array
    rules : float64[R_LEN]
    n_players : int
    """
    if n_players == 1:
        off = R.R_SOLO_SALARY
        width = L.MAX_SAL
    elif n_players == 2:
        off = R.R_SALARY_2P
        width = L.SALARY_SLOTS
    elif n_players == 3:
        off = R.R_SALARY_3P
        width = L.SALARY_SLOTS
    else:
        off = R.R_SALARY_4P
        width = L.SALARY_SLOTS
    k = np.int64(rules[off])
    if k > width:
        k = width
    state[L.S_SAL_N] = k
    for i in range(k):
        state[L.S_SAL + i] = np.int64(rules[off + 1 + i])
    # insertion sort, ascending
    for i in range(1, k):
        v = state[L.S_SAL + i]
        j = i - 1
        while j >= 0 and state[L.S_SAL + j] > v:
            state[L.S_SAL + j + 1] = state[L.S_SAL + j]
            j -= 1
        state[L.S_SAL + j + 1] = v


@njit(cache=True)
def setup_players(state, rules, n_players):
    """Money, tokens, ribbons, empty shops (FS-S1, FS-S2, FS-S6; solo FS-SOLO-S5). In
    multiplayer seat k also gets its ``seat_bonus_money`` (solo refuses a non-zero value:
    ``rules.validate``)."""
    for seat in range(n_players):
        b = seat_base(seat)
        state[b + L.F_MONEY] = np.int64(rules[R.R_STARTING_MONEY])
        if n_players > 1:
            state[b + L.F_MONEY] += np.int64(rules[R.R_SEAT_BONUS_MONEY + 1 + seat])
        state[b + L.F_TOKENS] = 0
        state[b + L.F_RIBBONS] = 0
        for s in range(L.MAX_SLOTS):
            state[b + L.F_SHOP + s] = -1
            state[b + L.F_FIN + s] = 0
            state[b + L.F_RIB + s] = 0
    state[L.S_RIBBON_SUPPLY] = np.int64(rules[R.R_RIBBON_SUPPLY])
    state[L.S_TOKEN_SUPPLY] = np.int64(rules[R.R_WILD_TOKEN_SUPPLY])


@njit(cache=True)
def deal_initiative_dice(state, rules, n_players, perm):
    """Give seat i the initiative die ``perm[i]`` (FS-S3); solo: I-D to the player and I-A as
    the opponent die, per the rule parameters (FS-SOLO-S1, FS-SOLO-S2).

    Parameters
    ----------
    perm : int64[4]
        A permutation of the die ids (random or identity by ``initiative_assignment``).
    """
    if n_players == 1:
        state[seat_base(0) + L.F_INIT_DIE] = np.int64(rules[R.R_SOLO_PLAYER_DIE])
        state[L.S_OPP_DIE] = np.int64(rules[R.R_SOLO_OPPONENT_DIE])
        return
    state[L.S_OPP_DIE] = -1
    for seat in range(n_players):
        state[seat_base(seat) + L.F_INIT_DIE] = perm[seat]


@njit(cache=True)
def setup_stack(state, order, n_tiles):
    """Put the shuffled tiles ``order[:n_tiles]`` in the public draw stack (FS-S4)."""
    for i in range(n_tiles):
        state[L.S_STACK + i] = order[i]
    state[L.S_STACK_N] = n_tiles
    state[L.S_STACK_POS] = 0
    state[L.S_DISCARD_N] = 0


@njit(cache=True)
def discard_tile(state, tile):
    """Put ``tile`` on the discard pile; discarded tiles leave the game (FS-N3)."""
    state[L.S_DISCARD + state[L.S_DISCARD_N]] = tile
    state[L.S_DISCARD_N] += 1


@njit(cache=True)
def draw_tile(state, rules, log):
    """Draw the top tile of the stack; -1 if it is empty (AMB-21). With
    ``reshuffle_discards_when_empty`` the discards become a new stack first (FS-SOLO-N4),
    shuffled with the setup stream."""
    if state[L.S_STACK_POS] >= state[L.S_STACK_N]:
        if rules[R.R_RESHUFFLE_DISCARDS_WHEN_EMPTY] == 0 or state[L.S_DISCARD_N] == 0:
            return -1
        k = state[L.S_DISCARD_N]
        for i in range(k):
            state[L.S_STACK + i] = state[L.S_DISCARD + i]
        shuffle_in(state, L.S_RNG_SETUP, state[L.S_STACK:L.S_STACK + k])
        state[L.S_STACK_N] = k
        state[L.S_STACK_POS] = 0
        state[L.S_DISCARD_N] = 0
        emit(log, L.EV_RESHUFFLE, k)
    t = state[L.S_STACK + state[L.S_STACK_POS]]
    state[L.S_STACK_POS] += 1
    return t


@njit(cache=True)
def deal_row(state, rules, size, log):
    """Deal tiles left to right until the row holds ``size`` or the stack is empty
    (FS-S4, FS-N4, FS-SOLO-S3, FS-SOLO-N1).

    Returns
    -------
    int, tiles dealt.
    """
    dealt = 0
    while state[L.S_ROW_N] < size:
        t = draw_tile(state, rules, log)
        if t < 0:
            break
        state[L.S_ROW + state[L.S_ROW_N]] = t
        emit(log, L.EV_ROW_DEAL, state[L.S_ROW_N], t)
        state[L.S_ROW_N] += 1
        dealt += 1
    return dealt


@njit(cache=True)
def choose_task_cards(state, n_wanted, require_compatible, conflicts, perm):
    """Task cards in play: the first of ``perm``; with 2 cards the next one, redrawn past
    conflicting cards when ``require_compatible`` (FS-S5, FS-SOLO-S4, FS-V-EASY-1, FS-V-HELL-1,
    FS-V-HELL-2). If no card is compatible the last one drawn is kept.

    Parameters
    ----------
    perm : int64[n_cards]
        The shuffled card ids (the draw order).
    """
    n_cards = perm.shape[0]
    state[L.S_CARDS] = perm[0]
    state[L.S_CARDS + 1] = -1
    state[L.S_N_CARDS] = 1
    if n_wanted < 2 or n_cards < 2:
        return
    second = perm[1]
    if require_compatible:
        for j in range(1, n_cards):
            second = perm[j]
            if conflicts[perm[0], second] == 0:
                break
    state[L.S_CARDS + 1] = second
    state[L.S_N_CARDS] = 2


@njit(cache=True)
def start_streams(state, master_seed, game_index):
    """Start the game's random streams in the state (``sim.rng``): setup, dice (and its base
    key, see ``play_cycle``) and policy, keyed by (master_seed, game_index)."""
    start_in(state, L.S_RNG_SETUP, master_seed, game_index, SUB_SETUP)
    start_in(state, L.S_RNG_DICE, master_seed, game_index, SUB_DICE)
    state[L.S_DICE_BASE] = state[L.S_RNG_DICE]
    start_in(state, L.S_RNG_POLICY, master_seed, game_index, SUB_POLICY)


@njit(cache=True)
def setup_game(state, rules, comp, n_players, log):
    """Complete setup: players, initiative dice, stack, row, task cards, salary, day 1
    (FS-S1..FS-S8; solo FS-SOLO-S1..S6), shuffled with the setup stream (``start_streams``)."""
    tiles = comp[0]
    conflicts = comp[2]
    n_tiles = tiles.shape[0]
    setup_players(state, rules, n_players)
    perm = np.arange(4, dtype=np.int64)
    if n_players > 1 and rules[R.R_INITIATIVE_ASSIGNMENT] == R.ASSIGN_RANDOM:
        shuffle_in(state, L.S_RNG_SETUP, perm)
    deal_initiative_dice(state, rules, n_players, perm)
    order = np.arange(n_tiles, dtype=np.int64)
    shuffle_in(state, L.S_RNG_SETUP, order)
    setup_stack(state, order, n_tiles)
    cards = np.arange(conflicts.shape[0], dtype=np.int64)
    shuffle_in(state, L.S_RNG_SETUP, cards)
    if n_players == 1:
        choose_task_cards(state, np.int64(rules[R.R_SOLO_TASK_CARDS]),
                          rules[R.R_SOLO_REQUIRE_COMPATIBLE_TASKS] != 0, conflicts, cards)
    else:
        choose_task_cards(state, np.int64(rules[R.R_N_TASK_CARDS]), False, conflicts, cards)
    emit(log, L.EV_SETUP, n_players, n_tiles, state[L.S_STACK_N], state[L.S_CARDS],
         state[L.S_CARDS + 1], state[L.S_OPP_DIE])
    for seat in range(n_players):
        emit(log, L.EV_INIT_DIE, seat, state[seat_base(seat) + L.F_INIT_DIE])
    state[L.S_ROW_N] = 0
    deal_row(state, rules, row_size(rules, n_players), log)
    reset_salary(state, rules, n_players)
    state[L.S_DAY] = 1


# =========================================================================================
# day loop: roll and turn order (FS-D*)
# =========================================================================================
@njit(cache=True)
def start_day(state, rules, n_players, log):
    """Unlock all dice and make every player active (FS-D2, FS-N6)."""
    for seat in range(n_players):
        b = seat_base(seat)
        state[b + L.F_LOCKED] = 0
        state[b + L.F_USED] = 0
        state[b + L.F_ACTIVE] = 1
        state[b + L.F_SKIPS_TODAY] = 0
        state[b + L.F_EXTRAS_TODAY] = 0
        state[b + L.F_BUYS_TODAY] = 0
        state[b + L.F_SLOT_TODAY] = -1
    state[L.S_CYCLES] = 0
    emit(log, L.EV_DAY, state[L.S_DAY])


@njit(cache=True)
def roll_dice(state, rules, flower_die, vase_die, init, seat, faces):
    """Draw fresh faces for ``seat``'s unlocked dice into ``faces[0:MAX_DICE]`` (FS-D3).

    Every die draws a value from the dice stream, locked or not (a locked die ignores it), so
    die ``i`` of a seat gets the same draw in the same roll whatever was locked before (common
    random numbers).
    """
    b = seat_base(seat)
    locked = state[b + L.F_LOCKED]
    nf = np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER])
    nv = np.int64(rules[R.R_VASE_DICE_PER_PLAYER])
    # selects instead of branches: whether a die is locked is not predictable
    for i in range(nf):
        v = flower_die[draw(state, L.S_RNG_DICE, flower_die.shape[0])]
        faces[i] = faces[i] if (locked >> i) & 1 else v
    for i in range(L.DIE_VASE0, L.DIE_VASE0 + nv):
        v = vase_die[draw(state, L.S_RNG_DICE, vase_die.shape[0])]
        faces[i] = faces[i] if (locked >> i) & 1 else v
    v = init[state[b + L.F_INIT_DIE], draw(state, L.S_RNG_DICE, 6)]
    faces[L.DIE_INIT] = faces[L.DIE_INIT] if (locked >> L.DIE_INIT) & 1 else v


@njit(cache=True)
def apply_roll(state, rules, seat, faces, log):
    """Set ``seat``'s unlocked dice to ``faces``; locked dice keep their faces (FS-D3, FS-L6).

    Parameters
    ----------
    faces : int64[MAX_DICE]
        Faces by die index (flower 0..5, vase 6..7, initiative 8); entries of locked or
        absent dice are ignored.
    """
    b = seat_base(seat)
    locked = state[b + L.F_LOCKED]
    roll = all_dice_mask(rules) & ~locked
    for i in range(L.MAX_DICE):
        x = b + L.F_FACE + i
        state[x] = faces[i] if (roll >> i) & 1 else state[x]
    if log.shape[0] > 1:
        fl = 0
        for i in range(np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER])):
            fl |= (state[b + L.F_FACE + i] + 1) << (4 * i)
        va = 0
        for i in range(np.int64(rules[R.R_VASE_DICE_PER_PLAYER])):
            va |= (state[b + L.F_FACE + L.DIE_VASE0 + i] + 1) << (4 * i)
        emit(log, L.EV_ROLL, seat, fl, va, state[b + L.F_FACE + L.DIE_INIT], locked)


@njit(cache=True)
def roll_phase(state, rules, flower_die, vase_die, init, n_players, log):
    """Phase 1: every active player rolls their unlocked dice (FS-D3).

    Inactive seats draw too (and ignore the values), so each seat's dice are keyed by seat.
    """
    faces = state[L.S_ROLL:L.S_ROLL + L.MAX_DICE]
    for seat in range(n_players):
        roll_dice(state, rules, flower_die, vase_die, init, seat, faces)
        if state[seat_base(seat) + L.F_ACTIVE]:
            apply_roll(state, rules, seat, faces, log)


@njit(cache=True)
def turn_order(state, rules, n_players):
    """Active players by initiative face, high to low; ties by seat or at random with the dice
    stream (FS-D4, FS-D5), into ``S_ORDER``. The order is fixed for the whole Phase 2.

    Returns
    -------
    int, the number of active players (``S_ORDER_N``).
    """
    order = state[L.S_ORDER:L.S_ORDER + L.MAX_PLAYERS]
    k = 0
    for seat in range(n_players):
        if state[seat_base(seat) + L.F_ACTIVE]:
            order[k] = seat
            k += 1
    random_ties = rules[R.R_INITIATIVE_TIE_BREAK] == R.TIE_RANDOM
    # insertion sort by face desc, seat asc (stable)
    for i in range(1, k):
        s = order[i]
        f = state[seat_base(s) + L.F_FACE + L.DIE_INIT]
        j = i - 1
        while j >= 0 and state[seat_base(order[j]) + L.F_FACE + L.DIE_INIT] < f:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = s
    if random_ties:
        i = 0
        while i < k:
            j = i
            f = state[seat_base(order[i]) + L.F_FACE + L.DIE_INIT]
            while j + 1 < k and state[seat_base(order[j + 1]) + L.F_FACE + L.DIE_INIT] == f:
                j += 1
            if j > i:
                shuffle_in(state, L.S_RNG_DICE, order[i:j + 1])
            i = j + 1
    state[L.S_ORDER_N] = k
    return k


# =========================================================================================
# solo opponent roll (FS-SOLO-R*)
# =========================================================================================
@njit(cache=True)
def remove_salary_card(state, which):
    """Return the lowest (SAL_LOWEST) or highest card to the supply; nothing if the area is
    empty or ``which`` is SAL_NONE (FS-SOLO-R2, R3, R5).

    Returns
    -------
    int, the value removed, or -1.
    """
    k = state[L.S_SAL_N]
    if k == 0 or which == R.SAL_NONE:
        return -1
    if which == R.SAL_HIGHEST:
        v = state[L.S_SAL + k - 1]
    else:
        v = state[L.S_SAL]
        for i in range(k - 1):
            state[L.S_SAL + i] = state[L.S_SAL + i + 1]
    state[L.S_SAL_N] = k - 1
    return v


@njit(cache=True)
def discard_by_parity(state, rules, o):
    """Discard the leftmost (odd o, with ``solo_odd_side`` left) or rightmost row tile, never
    taking the row below ``solo_min_row_tiles`` (FS-SOLO-R2, FS-SOLO-R6, AMB-17).

    Returns
    -------
    (tile, position) discarded, or (-1, -1).
    """
    k = state[L.S_ROW_N]
    if k <= np.int64(rules[R.R_SOLO_MIN_ROW_TILES]) or k == 0:
        return -1, -1
    left = (o % 2 == 1) == (rules[R.R_SOLO_ODD_SIDE] == R.SIDE_LEFT)
    if left:
        pos = 0
    else:
        pos = k - 1
    t = state[L.S_ROW + pos]
    for i in range(pos, k - 1):
        state[L.S_ROW + i] = state[L.S_ROW + i + 1]
    state[L.S_ROW + k - 1] = -1
    state[L.S_ROW_N] = k - 1
    discard_tile(state, t)
    state[L.S_OPP_DISCARDS] += 1
    return t, pos


@njit(cache=True)
def resolve_opponent_roll(state, rules, o, log):
    """Resolve the opponent die o against the player's current initiative face p
    (FS-SOLO-R1..R6, FS-V-HARD-2, FS-V-HARD-3, AMB-15..17).

    o < p: the ``solo_salary_remove_on_lower`` card goes and, if ``solo_discard_on_lower``,
    a tile is discarded by parity. o > p: the ``solo_salary_remove_on_higher`` card goes.
    o = p: by ``solo_tie_rule``. With ``solo_always_discard`` a tile is discarded by parity on
    every roll, whatever the comparison.
    """
    state[L.S_OPP_FACE] = o
    p = state[seat_base(0) + L.F_FACE + L.DIE_INIT]
    outcome = 2
    if o < p:
        outcome = 0
    elif o > p:
        outcome = 1
    eff = outcome
    if outcome == 2:
        tie = np.int64(rules[R.R_SOLO_TIE_RULE])
        if tie == R.STIE_AS_LOWER:
            eff = 0
        elif tie == R.STIE_AS_HIGHER:
            eff = 1
    removed = -1
    discard = False
    if eff == 0:
        state[L.S_OPP_LOWER] += 1
        removed = remove_salary_card(state, np.int64(rules[R.R_SOLO_SALARY_REMOVE_ON_LOWER]))
        discard = rules[R.R_SOLO_DISCARD_ON_LOWER] != 0
    elif eff == 1:
        removed = remove_salary_card(state, np.int64(rules[R.R_SOLO_SALARY_REMOVE_ON_HIGHER]))
    if rules[R.R_SOLO_ALWAYS_DISCARD] != 0:
        discard = True
    t = -1
    pos = -1
    if discard:
        t, pos = discard_by_parity(state, rules, o)
    emit(log, L.EV_OPP_ROLL, o, p, outcome, removed, t, pos)


@njit(cache=True)
def opponent_roll(state, init):
    """Roll the opponent die with the dice stream (FS-SOLO-R1) and return its face."""
    return init[state[L.S_OPP_DIE], draw(state, L.S_RNG_DICE, 6)]


# =========================================================================================
# Step 1: lock (FS-L*)
# =========================================================================================
@njit(cache=True)
def apply_lock(state, rules, seat, mask, log):
    """Step 1: lock the dice of ``mask`` (0 = skip) and pay (FS-L1..L6, AMB-04, AMB-05).

    Returns
    -------
    bool, False (state unchanged) if the choice is illegal.
    """
    c = lock_legal(state, rules, seat, mask)
    if c < 0:
        return False
    b = seat_base(seat)
    k = popcount(mask)
    free = np.int64(rules[R.R_FREE_LOCKS_MAX])
    state[b + L.F_LOCKED] |= mask
    state[b + L.F_MONEY] -= c
    state[b + L.F_LOCK_PAID] += c
    state[b + L.F_LOCK_STEPS] += 1
    if k == 0:
        state[b + L.F_SKIPS] += 1
        state[b + L.F_SKIPS_TODAY] += 1
    elif k > free:
        state[b + L.F_EXTRAS_TODAY] += k - free
    emit(log, L.EV_LOCK, seat, mask, k, c, state[b + L.F_MONEY], state[b + L.F_LOCKED])
    return True


@njit(cache=True)
def all_locked(state, rules, seat):
    """Whether all dice, the initiative die included, are locked (FS-L7, AMB-28)."""
    m = all_dice_mask(rules)
    return (state[seat_base(seat) + L.F_LOCKED] & m) == m


@njit(cache=True)
def first_legal_lock(state, rules, seat):
    """The fallback lock: the lowest-index unlocked die alone (k = 1 is always legal, FS-L5)."""
    unl = all_dice_mask(rules) & ~state[seat_base(seat) + L.F_LOCKED]
    for i in range(L.MAX_DICE):
        if (unl >> i) & 1:
            m = np.int64(1) << i
            if lock_legal(state, rules, seat, m) >= 0:
                return m
    # min_locks > 1: lock the smallest legal number of dice
    m = 0
    for i in range(L.MAX_DICE):
        if (unl >> i) & 1:
            m |= np.int64(1) << i
            if lock_legal(state, rules, seat, m) >= 0:
                return m
    return unl


# =========================================================================================
# Step 2: salary (FS-Y*) and Step 3: tile (FS-T*)
# =========================================================================================
@njit(cache=True)
def take_salary(state, seat, log):
    """Take the lowest remaining salary card (FS-Y1); none if the area is empty (FS-Y2)."""
    b = seat_base(seat)
    v = remove_salary_card(state, R.SAL_LOWEST)
    if v > 0:
        state[b + L.F_MONEY] += v
        state[b + L.F_SALARY_TOTAL] += v
    emit(log, L.EV_SALARY, seat, v, state[b + L.F_MONEY])
    return v


@njit(cache=True)
def take_tile(state, rules, seat, pos, slot, log):
    """Take the row tile at ``pos`` and place it unfinished in empty ``slot`` (FS-T1..T3).

    Returns
    -------
    bool, False (state unchanged) if the position or slot is illegal.
    """
    b = seat_base(seat)
    k = state[L.S_ROW_N]
    if pos < 0 or pos >= k or slot < 0 or slot >= n_slots(rules) or state[b + L.F_SHOP + slot] >= 0:
        return False
    t = state[L.S_ROW + pos]
    for i in range(pos, k - 1):
        state[L.S_ROW + i] = state[L.S_ROW + i + 1]
    state[L.S_ROW + k - 1] = -1
    state[L.S_ROW_N] = k - 1
    state[b + L.F_SHOP + slot] = t
    state[b + L.F_FIN + slot] = 0
    state[b + L.F_RIB + slot] = 0
    state[b + L.F_PDAY + slot] = state[L.S_DAY]
    state[b + L.F_FDAY + slot] = 0
    state[b + L.F_TILES_PLACED] += 1
    state[b + L.F_SLOT_TODAY] = slot
    emit(log, L.EV_TAKE_TILE, seat, pos, t, slot)
    return True


@njit(cache=True)
def first_empty_slot(state, rules, seat):
    """Lowest empty shop slot, or -1."""
    b = seat_base(seat)
    for s in range(n_slots(rules)):
        if state[b + L.F_SHOP + s] < 0:
            return s
    return -1


# =========================================================================================
# Step 4: finish, ribbon, tokens, money (FS-U*)
# =========================================================================================
@njit(cache=True)
def finish_tile_with(state, rules, tiles, seat, slot, log):
    """Finish the unfinished tile of ``slot`` with the minimum-token assignment; the dice are
    set aside and the tokens return to the supply (FS-U1, FS-U2, FS-U3, FS-U9, AMB-25, AMB-27).

    Returns
    -------
    bool, False (state unchanged) if illegal (no such tile, or too few tokens held).
    """
    b = seat_base(seat)
    if slot < 0 or slot >= n_slots(rules):
        return False
    t = state[b + L.F_SHOP + slot]
    if t < 0 or state[b + L.F_FIN + slot]:
        return False
    tok, used, u2 = assign_icons(state, tiles, b, np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER]),
                                 np.int64(rules[R.R_VASE_DICE_PER_PLAYER]), t,
                                 unused_dice(state, rules, seat), np.int64(0))
    if tok > state[b + L.F_TOKENS]:
        return False
    state[b + L.F_USED] |= used
    state[b + L.F_TOKENS] -= tok
    state[b + L.F_TOKENS_SPENT] += tok
    state[L.S_TOKEN_SUPPLY] += tok
    state[b + L.F_FIN + slot] = 1
    state[b + L.F_FDAY + slot] = state[L.S_DAY]
    state[b + L.F_TILES_FINISHED] += 1
    emit(log, L.EV_FINISH, seat, slot, t, used, tok, state[b + L.F_TOKENS])
    return True


@njit(cache=True)
def ribbon_legal(state, rules, seat, slot):
    """A ribbon may go on the tile just finished: supply > 0, money >= cost, fewer than
    ``max_ribbons_per_tile`` on it (FS-U4, AMB-10, AMB-26). The kernel only asks right after
    a finish, which enforces "only when finishing"."""
    b = seat_base(seat)
    return (state[L.S_RIBBON_SUPPLY] > 0
            and state[b + L.F_MONEY] >= np.int64(rules[R.R_RIBBON_COST])
            and state[b + L.F_RIB + slot] < np.int64(rules[R.R_MAX_RIBBONS_PER_TILE])
            and state[b + L.F_FIN + slot] == 1)


@njit(cache=True)
def buy_ribbon(state, rules, seat, slot, log):
    """Pay ``ribbon_cost`` and put a ribbon on the tile of ``slot`` (FS-U4).

    Returns
    -------
    bool, False if illegal.
    """
    if not ribbon_legal(state, rules, seat, slot):
        return False
    b = seat_base(seat)
    state[b + L.F_MONEY] -= np.int64(rules[R.R_RIBBON_COST])
    state[b + L.F_RIB + slot] += 1
    state[b + L.F_RIBBONS] += 1
    state[L.S_RIBBON_SUPPLY] -= 1
    emit(log, L.EV_RIBBON, seat, slot, state[b + L.F_SHOP + slot], state[b + L.F_MONEY])
    return True


@njit(cache=True)
def take_token(state, rules, seat, mask, log):
    """Use ``dice_per_wild`` unused dice (any mix of flower and vase) to gain a token (FS-U5).

    Returns
    -------
    bool, False if illegal.
    """
    b = seat_base(seat)
    if mask & ~unused_dice(state, rules, seat) or popcount(mask) != np.int64(rules[R.R_DICE_PER_WILD]):
        return False
    if not token_room(state, rules, seat):
        return False
    state[b + L.F_USED] |= mask
    state[b + L.F_TOKENS] += 1
    state[b + L.F_TOKENS_TAKEN] += 1
    state[L.S_TOKEN_SUPPLY] -= 1
    emit(log, L.EV_TAKE_TOKEN, seat, mask, state[b + L.F_TOKENS])
    return True


@njit(cache=True)
def take_money(state, rules, seat, die, log):
    """Use one unused die (flower or vase) to gain ``money_per_die`` (FS-U6).

    Returns
    -------
    bool, False if illegal.
    """
    b = seat_base(seat)
    if die < 0 or die >= L.MAX_DICE or not (unused_dice(state, rules, seat) >> die) & 1:
        return False
    state[b + L.F_USED] |= np.int64(1) << die
    v = np.int64(rules[R.R_MONEY_PER_DIE])
    state[b + L.F_MONEY] += v
    state[b + L.F_MONEY_TAKEN] += v
    emit(log, L.EV_TAKE_MONEY, seat, die, state[b + L.F_FACE + die], state[b + L.F_MONEY])
    return True


@njit(cache=True)
def buy_token(state, rules, seat, log):
    """Pay ``wild_token_cost`` for a token (FS-U7).

    Returns
    -------
    bool, False if illegal.
    """
    if not buy_token_legal(state, rules, seat):
        return False
    b = seat_base(seat)
    state[b + L.F_MONEY] -= np.int64(rules[R.R_WILD_TOKEN_COST])
    state[b + L.F_TOKENS] += 1
    state[b + L.F_TOKENS_BOUGHT] += 1
    state[b + L.F_BUYS_TODAY] += 1
    state[L.S_TOKEN_SUPPLY] -= 1
    emit(log, L.EV_BUY_TOKEN, seat, state[b + L.F_MONEY], state[b + L.F_TOKENS])
    return True


@njit(cache=True)
def apply_step4_action_with(state, rules, tiles, seat, action, log):
    """Apply one encoded Step 4 action (``options.encode_step4``).

    Returns
    -------
    int: 1 applied, 0 done (A_DONE), -1 illegal (nothing applied).
    """
    code, arg = O.decode_step4(action)
    if code == L.A_DONE:
        return 0
    ok = False
    if code == L.A_FINISH:
        ok = finish_tile_with(state, rules, tiles, seat, arg, log)
    elif code == L.A_TAKE_TOKEN:
        ok = take_token(state, rules, seat, arg, log)
    elif code == L.A_TAKE_MONEY:
        ok = take_money(state, rules, seat, arg, log)
    elif code == L.A_BUY_TOKEN:
        ok = buy_token(state, rules, seat, log)
    return 1 if ok else -1


@njit(cache=True)
def end_step4(state, rules, seat, log):
    """End of Step 4: unused dice are wasted; the player becomes inactive (FS-U8, FS-D6)."""
    b = seat_base(seat)
    w = popcount(unused_dice(state, rules, seat))
    state[b + L.F_DICE_WASTED] += w
    state[b + L.F_ACTIVE] = 0
    emit(log, L.EV_STEP4_DONE, seat, w, state[b + L.F_MONEY], state[b + L.F_TOKENS])


# =========================================================================================
# end of day (FS-N*, FS-SOLO-C1, FS-SOLO-N*)
# =========================================================================================
@njit(cache=True)
def discard_row(state, reason, log):
    """Discard every tile left in the row; they leave the game (FS-N3, FS-SOLO-N1, AMB-14)."""
    for i in range(state[L.S_ROW_N]):
        t = state[L.S_ROW + i]
        discard_tile(state, t)
        emit(log, L.EV_ROW_DISCARD, t, reason)
        state[L.S_ROW + i] = -1
    state[L.S_ROW_N] = 0


@njit(cache=True)
def end_of_day_multiplayer(state, rules, n_players, log):
    """Discard the row, refill it to n + offset, reset the salary area, next day
    (FS-N1, FS-N3..N6)."""
    discard_row(state, 0, log)
    state[L.S_DAY] += 1
    deal_row(state, rules, row_size(rules, n_players), log)
    reset_salary(state, rules, n_players)


@njit(cache=True)
def solo_end_of_day_check(state, rules, comp, work, log):
    """FS-SOLO-C1 (FS-N2): after Step 4 of a day d < days, before the refill, the feasibility
    check (``work``: int64 scratch of ``solo.WORK_MAX``, the game loop passes ``S_FEAS``); on
    failure the game ends as a loss recorded with day d (AMB-19).

    Returns
    -------
    bool, True if the player may go on.
    """
    b = seat_base(0)
    ns = n_slots(rules)
    days_left = np.int64(rules[R.R_DAYS]) - state[L.S_DAY]
    ok = solo_feasible(state, rules, comp, state[b + L.F_SHOP:b + L.F_SHOP + ns],
                       state[b + L.F_FIN:b + L.F_FIN + ns], days_left, work)
    emit(log, L.EV_FEASIBLE, state[L.S_DAY], 1 if ok else 0,
         np.int64(rules[R.R_SOLO_FEASIBILITY_MODE]), state[L.S_STACK_N] - state[L.S_STACK_POS])
    if not ok:
        state[L.S_LOSS_DAY] = state[L.S_DAY]
        state[L.S_END_REASON] = L.END_SOLO_INFEASIBLE
    return ok


@njit(cache=True)
def solo_refresh_legal(state, rules):
    """A refresh between days: money >= cost, fewer than ``solo_max_refreshes_per_day`` since
    the deal, stack not empty (FS-SOLO-N2, AMB-20)."""
    return (state[seat_base(0) + L.F_MONEY] >= np.int64(rules[R.R_SOLO_REFRESH_COST])
            and state[L.S_REFRESHES_TODAY] < np.int64(rules[R.R_SOLO_MAX_REFRESHES_PER_DAY])
            and (state[L.S_STACK_POS] < state[L.S_STACK_N]
                 or (rules[R.R_RESHUFFLE_DISCARDS_WHEN_EMPTY] != 0 and state[L.S_DISCARD_N] > 0)))


@njit(cache=True)
def solo_refresh(state, rules, log):
    """Pay ``solo_refresh_cost``, discard the row and deal a new one (FS-SOLO-N2).

    Returns
    -------
    bool, False if illegal.
    """
    if not solo_refresh_legal(state, rules):
        return False
    b = seat_base(0)
    c = np.int64(rules[R.R_SOLO_REFRESH_COST])
    state[b + L.F_MONEY] -= c
    state[L.S_REFRESHES_TODAY] += 1
    state[L.S_REFRESHES] += 1
    emit(log, L.EV_REFRESH, 0, c, state[b + L.F_MONEY])
    discard_row(state, 1, log)
    deal_row(state, rules, np.int64(rules[R.R_SOLO_ROW_SIZE]), log)
    return True


@njit(cache=True)
def solo_new_day_row(state, rules, log):
    """Discard the row and deal ``solo_row_size`` tiles or as many as remain, next day
    (FS-SOLO-N1, FS-SOLO-N4, FS-N6). The refresh (FS-SOLO-N2, DP-7) and salary reset
    (FS-SOLO-N3) follow (``PH_REFRESH`` of ``advance``)."""
    discard_row(state, 0, log)
    state[L.S_DAY] += 1
    deal_row(state, rules, np.int64(rules[R.R_SOLO_ROW_SIZE]), log)
    state[L.S_REFRESHES_TODAY] = 0


# =========================================================================================
# game end (FS-E*, FS-SOLO-E*)
# =========================================================================================
@njit(cache=True)
def remove_unfinished(state, rules, n_players, log):
    """Remove every unfinished tile from every shop; their slots count as empty (FS-E1)."""
    for seat in range(n_players):
        b = seat_base(seat)
        for s in range(n_slots(rules)):
            if state[b + L.F_SHOP + s] >= 0 and state[b + L.F_FIN + s] == 0:
                emit(log, L.EV_REMOVE_UNFINISHED, seat, s, state[b + L.F_SHOP + s])
                state[b + L.F_SHOP + s] = -1


@njit(cache=True)
def score_seat(state, rules, comp, seat):
    """Score = stars of finished tiles + ribbon points x ribbons + task points (FS-E2, FS-E3,
    AMB-12, AMB-13); both cards add up when two are in play. Stores the parts in the seat
    block and returns the score."""
    tiles = comp[0]
    tasks = comp[1]
    b = seat_base(seat)
    rows = np.int64(rules[R.R_SHOP_ROWS])
    cols = np.int64(rules[R.R_SHOP_COLS])
    ns = rows * cols
    stars = 0
    for s in range(ns):
        t = state[b + L.F_SHOP + s]
        if t >= 0 and state[b + L.F_FIN + s] == 1:
            stars += tiles[t, L.TL_STARS]
    shop = state[b + L.F_SHOP:b + L.F_SHOP + ns]
    fin = state[b + L.F_FIN:b + L.F_FIN + ns]
    req = rules[R.R_TASK_REQUIRES_FULL_LINE] != 0
    rp_def = np.int64(rules[R.R_TASK_ROW_POINTS_DEFAULT])
    cp_def = np.int64(rules[R.R_TASK_COL_POINTS_DEFAULT])
    pts = 0
    lines = 0
    for i in range(state[L.S_N_CARDS]):
        card = state[L.S_CARDS + i]
        rm, cm = lines_met(shop, fin, rows, cols, card, tasks, tiles, req)
        rp = tasks[card, L.TK_ROW_POINTS]
        cp = tasks[card, L.TK_COL_POINTS]
        if rp < 0:
            rp = rp_def
        if cp < 0:
            cp = cp_def
        pts += rm * rp + cm * cp
        lines += rm + cm
    score = stars + np.int64(rules[R.R_RIBBON_POINTS]) * state[b + L.F_RIBBONS] + pts
    state[b + L.F_STARS] = stars
    state[b + L.F_TASK_PTS] = pts
    state[b + L.F_TASK_LINES] = lines
    state[b + L.F_SCORE] = score
    return score


@njit(cache=True)
def tiebreak_item(order_index, j):
    """Item (TB_MONEY, TB_TOKENS, TB_RIBBONS) at position j of the ``tiebreak_order`` choice
    ``order_index`` (rules.TIEBREAK_CHOICES order: none, singles, pairs, triples in
    itertools.permutations order), or -1 (FS-E4, AMB-11)."""
    if order_index <= 0:
        return -1
    if order_index <= 3:
        return order_index - 1 if j == 0 else -1
    if order_index <= 9:
        k = order_index - 4
        length = 2
    else:
        k = order_index - 10
        length = 3
    if j >= length:
        return -1
    first = k // 2
    if j == 0:
        return first
    # the remaining items in increasing order
    r0 = 0 if first != 0 else 1
    r1 = 3 - first - r0
    if j == 1:
        return r0 if k % 2 == 0 else r1
    return r1 if k % 2 == 0 else r0


@njit(cache=True)
def _tb_value(state, seat, item):
    """Value of tie-break item ``item`` for ``seat`` (FS-E4)."""
    b = seat_base(seat)
    if item == R.TB_MONEY:
        return state[b + L.F_MONEY]
    if item == R.TB_TOKENS:
        return state[b + L.F_TOKENS]
    return state[b + L.F_RIBBONS]


@njit(cache=True)
def rank_players(state, rules, n_players):
    """Rank 1 = best: most points (``F_SCORE``, the end bonus included), then the
    ``tiebreak_order`` items (default money, then wild tokens); players equal on all share the
    position (FS-E4, AMB-11)."""
    tb = np.int64(rules[R.R_TIEBREAK_ORDER])
    for s in range(n_players):
        better = 0
        for o in range(n_players):
            if o == s:
                continue
            cmp = state[seat_base(o) + L.F_SCORE] - state[seat_base(s) + L.F_SCORE]
            j = 0
            while cmp == 0:
                item = tiebreak_item(tb, j)
                if item < 0:
                    break
                cmp = _tb_value(state, o, item) - _tb_value(state, s, item)
                j += 1
            if cmp > 0:
                better += 1
        state[seat_base(s) + L.F_RANK] = better + 1


@njit(cache=True)
def solo_won(state, rules, comp):
    """Solo win: every card fully satisfied (``all``, FS-SOLO-E1, FS-V-HELL-3) or at least one
    (``any``, FS-V-EASY-2), on the shop after FS-E1."""
    tiles = comp[0]
    tasks = comp[1]
    b = seat_base(0)
    rows = np.int64(rules[R.R_SHOP_ROWS])
    cols = np.int64(rules[R.R_SHOP_COLS])
    ns = rows * cols
    shop = state[b + L.F_SHOP:b + L.F_SHOP + ns]
    fin = state[b + L.F_FIN:b + L.F_FIN + ns]
    any_rule = rules[R.R_SOLO_WIN_RULE] == R.WIN_ANY
    n_ok = 0
    for i in range(state[L.S_N_CARDS]):
        if card_fully_satisfied(shop, fin, rows, cols, state[L.S_CARDS + i], tasks, tiles):
            n_ok += 1
    if any_rule:
        return n_ok >= 1
    return n_ok == state[L.S_N_CARDS]


@njit(cache=True)
def final_scoring(state, rules, comp, n_players, log):
    """Game end: remove unfinished tiles, score and rank every player (FS-E1..E4; solo
    FS-SOLO-E1, FS-SOLO-E2: the score is recorded too). In multiplayer each seat's
    ``end_bonus_points`` is added to its score before the ranking and its tie-breaks (solo
    refuses a non-zero bonus: ``rules.validate``).

    Returns
    -------
    bool, the solo win (False in multiplayer).
    """
    remove_unfinished(state, rules, n_players, log)
    for seat in range(n_players):
        score_seat(state, rules, comp, seat)
        if n_players > 1:
            state[seat_base(seat) + L.F_SCORE] += np.int64(rules[R.R_END_BONUS_POINTS + 1 + seat])
    rank_players(state, rules, n_players)
    for seat in range(n_players):
        b = seat_base(seat)
        emit(log, L.EV_SCORE, seat, state[b + L.F_STARS], state[b + L.F_RIBBONS],
             state[b + L.F_TASK_PTS], state[b + L.F_SCORE], state[b + L.F_RANK],
             state[b + L.F_TASK_LINES])
    if n_players == 1:
        return solo_won(state, rules, comp)
    return False


# =========================================================================================
# the step machine (sim.decide): options, advance, apply, choose
# =========================================================================================
@njit(cache=True)
def n_active(state, n_players):
    """Players still active today (FS-D7)."""
    k = 0
    for seat in range(n_players):
        k += state[seat_base(seat) + L.F_ACTIVE]
    return k


@njit(cache=True)
def lock_sizes(state, rules, seat, unl):
    """Bit k set: locking k of the unlocked dice ``unl`` is legal and affordable for ``seat``
    (FS-L1..L5; legality depends only on the number of dice)."""
    money = state[seat_base(seat) + L.F_MONEY]
    sizes = 0
    for k in range(popcount(unl) + 1):
        c = lock_cost(state, rules, seat, k)
        if c >= 0 and c <= money:
            sizes |= np.int64(1) << k
    return sizes


@njit(cache=True)
def any_lock_affordable(state, rules, seat):
    """Is some lock legal and affordable for ``seat`` (``lock_sizes`` != 0, stopping at the
    first size that is; FS-L1..L5)?"""
    money = state[seat_base(seat) + L.F_MONEY]
    for k in range(popcount(all_dice_mask(rules) & ~state[seat_base(seat) + L.F_LOCKED]) + 1):
        c = lock_cost(state, rules, seat, k)
        if c >= 0 and c <= money:
            return True
    return False


@njit(cache=True)
def list_locks(state, rules, seat):
    """DP-1 options into ``S_OPTIONS``: every subset of ``seat``'s unlocked dice (the
    initiative die included) whose lock is legal and affordable, as ascending masks (0 =
    lock none and pay the skip cost; FS-L1..L5).

    Returns
    -------
    int, the number of options.
    """
    unl = all_dice_mask(rules) & ~state[seat_base(seat) + L.F_LOCKED]
    sizes = lock_sizes(state, rules, seat, unl)
    n = 0
    sub = np.int64(0)
    while True:  # the subsets of unl in ascending order; written always, kept if legal
        state[L.S_OPTIONS + n] = sub  # (no unpredictable branch: n < 2**9 = MAX_OPTS)
        n += (sizes >> popcount(sub)) & 1
        if sub == unl:
            break
        sub = (sub - unl) & unl
    return n


@njit(cache=True)
def list_tiles(state, rules, seat):
    """DP-2 options into ``S_OPTIONS`` (``options.encode_tile``): for every row
    tile and empty slot of ``seat``'s shop (FS-T1..T3), position-major.

    Returns
    -------
    int, the number of options.
    """
    b = seat_base(seat)
    ns = n_slots(rules)
    n = 0
    for pos in range(state[L.S_ROW_N]):
        for s in range(ns):  # written always, kept if the slot is empty
            state[L.S_OPTIONS + n] = O.encode_tile(pos, s)
            n += np.int64(state[b + L.F_SHOP + s] < 0)
    return n


@njit(cache=True)
def list_step4(state, rules, tiles, seat):
    """DP-3/5/6/8 options into ``S_OPTIONS`` (``options.encode_step4``): finish each
    unfinished tile the unused dice and the tokens held can finish (FS-U1..U3), take money
    with each unused die (FS-U6), take a token with each set of ``dice_per_wild`` unused dice
    while there is room (FS-U5), buy a token if legal (FS-U7), and done (FS-U8) last.

    Returns
    -------
    int, the number of options (at least 1: done).
    """
    b = seat_base(seat)
    avail = unused_dice(state, rules, seat)
    hist, n_any, n_fl, vases = dice_counts(state, b, np.int64(rules[R.R_FLOWER_DICE_PER_PLAYER]),
                                           np.int64(rules[R.R_VASE_DICE_PER_PLAYER]), avail)
    tokens = state[b + L.F_TOKENS]
    n = 0
    for s in range(n_slots(rules)):
        t = state[b + L.F_SHOP + s]
        if t >= 0 and state[b + L.F_FIN + s] == 0:
            # the count form gives the tokens of the minimum-token assignment a finish uses
            tok, n_used = tokens_needed(tiles, t, hist, n_any, n_fl, vases)
            if tok <= tokens:
                state[L.S_OPTIONS + n] = O.encode_step4(L.A_FINISH, s)
                n += 1
    # written always, kept if legal (no unpredictable branches; n stays < MAX_OPTS)
    for i in range(L.MAX_DICE):
        state[L.S_OPTIONS + n] = O.encode_step4(L.A_TAKE_MONEY, i)
        n += (avail >> i) & 1
    dpw = np.int64(rules[R.R_DICE_PER_WILD])
    if token_room(state, rules, seat) and popcount(avail) >= dpw:
        sub = np.int64(0)
        while True:  # the subsets of avail with dpw dice, ascending
            state[L.S_OPTIONS + n] = O.encode_step4(L.A_TAKE_TOKEN, sub)
            n += np.int64(popcount(sub) == dpw)
            if sub == avail:
                break
            sub = (sub - avail) & avail
    if buy_token_legal(state, rules, seat):
        state[L.S_OPTIONS + n] = O.encode_step4(L.A_BUY_TOKEN, 0)
        n += 1
    state[L.S_OPTIONS + n] = O.encode_step4(L.A_DONE, 0)
    return n + 1


@njit(cache=True)
def list_yes_no(state):
    """The options of a yes/no decision (DP-4, DP-7): 0 no, 1 yes."""
    state[L.S_OPTIONS] = 0
    state[L.S_OPTIONS + 1] = 1
    return 2


@njit(cache=True)
def play_cycle(state, rules, comp, n_players, log):
    """Phase 1 of a cycle and the turn order of its Phase 2 (FS-D3..D5; solo FS-SOLO-R1).

    Each Phase 1 draws from its own dice sub-stream keyed by (day, cycle), see
    ``sim.rng.substream``, so arms of a rule comparison roll the same dice at the same moment.
    """
    substream_in(state, L.S_RNG_DICE, state[L.S_DICE_BASE],
                 state[L.S_DAY] * 4096 + state[L.S_CYCLES])
    roll_phase(state, rules, comp[3], comp[4], comp[5], n_players, log)
    if n_players == 1:
        resolve_opponent_roll(state, rules, opponent_roll(state, comp[5]), log)
    k = turn_order(state, rules, n_players)
    if log.shape[0] > 1:
        packed = 0
        for i in range(k):
            packed |= state[L.S_ORDER + i] << (4 * i)
        emit(log, L.EV_TURN_ORDER, k, packed)
    state[L.S_TURN] = 0


@njit(cache=True)
def end_of_day(state, rules, comp, n_players, log):
    """After the last Step 4 of a day: the game ends after day ``days`` (FS-D1); solo, the
    feasibility check (FS-SOLO-C1) and the new row, then the refreshes (DP-7); multiplayer,
    the refill and the next day (FS-N*).

    Returns
    -------
    int, the next control position (PH_*).
    """
    state[L.S_ROUNDS] = state[L.S_DAY]
    if state[L.S_DAY] >= np.int64(rules[R.R_DAYS]):
        return L.PH_END
    if n_players == 1:
        if not solo_end_of_day_check(state, rules, comp, state[L.S_FEAS:L.S_FEAS + L.WORK_MAX],
                                     log):
            return L.PH_END
        solo_new_day_row(state, rules, log)
        return L.PH_REFRESH
    end_of_day_multiplayer(state, rules, n_players, log)
    return L.PH_DAY


@njit(cache=True)
def end_game(state, rules, comp, n_players, log):
    """Final scoring (FS-E*) and the solo result (FS-SOLO-E*, loss day days + 1 when the game
    reached its end), kept in ``S_WON``."""
    won = final_scoring(state, rules, comp, n_players, log)
    if n_players == 1:
        if state[L.S_LOSS_DAY] == 0:
            state[L.S_LOSS_DAY] = np.int64(rules[R.R_DAYS]) + 1
        emit(log, L.EV_SOLO_RESULT, 1 if won else 0, state[L.S_LOSS_DAY])
    state[L.S_WON] = 1 if won else 0


@njit(cache=True)
def advance(state, rules, comp, log):
    """Play the forced steps up to the next decision with two or more legal options (written
    to the options block, returns 1) or the end of the game (returns 0); decisions with a
    single option are taken here, those with none passed. With a decision pending, returns 1
    and changes nothing (``sim.decide``)."""
    while _steps(state, rules, comp, state, None, log):
        n = state[L.S_N_OPTIONS]
        if n > 1:
            return 1
        if n == 1:
            apply_index(state, rules, comp[0], np.int64(0), log)
        else:
            state[L.S_POINT] = 0
    return 0


@njit(cache=True)
def advance_all(state, rules, comp, log):
    """``advance`` that stops at every decision the rules pose (``sim.decide``): 1 with it
    posted, whatever its number of options n; n = 0 (no legal option, the rules' fallback
    played): the next call passes it and goes on; 0 once the game is over."""
    if state[L.S_POINT] != 0 and state[L.S_N_OPTIONS] == 0:
        state[L.S_POINT] = 0
    return _steps(state, rules, comp, state, None, log)


@njit(cache=True)
def _steps(state, rules, comp, kinds, heur, log):
    """Play the forced steps up to the next decision, whatever its number of options (returns
    1, the decision pending) or the end of the game (returns 0). ``advance`` and the game loop
    take a single option at once. With ``heur`` None a decision point the rules reach with no
    legal option is posted too, with n = 0 once the rules' fallback is played (``advance``
    passes it, ``sim.tracing`` counts it): a lock with no affordable lock (DP-1, only with
    rule tweaks: the turn passes) and Step 3 with no tile to take (DP-2: an empty row or no
    empty slot, ``EV_NO_TILE``).

    ``heur`` is None (``advance``: every decision is posted with its options) or, in the game
    loop of ``_play``, the heuristics' inputs (pparams, scr, fscr): then a seat whose policy
    is not ``random`` (``kinds``) decides where the decision arises, through its heuristic and
    the decision's effect (``take_*``), without posting it; only ``random`` seats' decisions
    are posted (listing every lock subset or Step-4 action for a heuristic that computes its
    choice directly cost a quarter of the kernel's time). The heuristics only ever pick listed
    options (``tests/flower_shop/test_steps.py``) and ``tests/test_decisions.py`` checks that
    stepping plays the games of ``play_many``.

    The control position ``S_PHASE`` (PH_*) walks the game: a day (FS-D1, FS-D2) is Phase 1 /
    Phase 2 cycles (FS-D3..D8; solo FS-SOLO-R1) until nobody is active; in Phase 2 each
    player of the turn order ``S_ORDER`` locks (Step 1, DP-1), and once all their dice are
    locked takes salary (Step 2, at the lock), a tile (Step 3, DP-2) and Step 4 actions
    (DP-3/5/6/8) with ribbons after each finish (DP-4); then the end of the day (FS-N*,
    FS-SOLO-C1) and the solo refreshes (DP-7); at the end the final scoring (FS-E*).
    """
    n_players = state[L.S_N_PLAYERS]
    tiles = comp[0]
    while True:
        if state[L.S_POINT] != 0:
            return 1
        ph = state[L.S_PHASE]
        if ph == L.PH_STEP4:
            seat = state[L.S_ORDER + state[L.S_TURN]]
            if state[L.S_ACTIONS] >= L.MAX_STEP4_ACTIONS:  # safety guard of one Step 4
                end_step4(state, rules, seat, log)
                state[L.S_TURN] += 1
                state[L.S_PHASE] = L.PH_LOCK
                continue
            if heur is not None:
                if kinds[seat] != K_RANDOM:
                    take_step4(state, rules, tiles, seat,
                               greedy_step4(state, rules, tiles, seat, heur[0][seat]), log)
                    continue
            _post(state, seat, L.D_STEP4, list_step4(state, rules, tiles, seat))
        elif ph == L.PH_LOCK:
            t = state[L.S_TURN]
            if t >= state[L.S_ORDER_N]:
                state[L.S_PHASE] = L.PH_CYCLE
                continue
            seat = state[L.S_ORDER + t]
            if heur is not None:
                if kinds[seat] != K_RANDOM:
                    if any_lock_affordable(state, rules, seat):
                        take_lock(state, rules, seat,
                                  greedy_lock(state, rules, tiles, comp[1], n_players, seat,
                                              heur[0][seat], heur[1], heur[2]), log)
                    else:  # no affordable lock (only with rule tweaks): the turn passes
                        state[L.S_TURN] = t + 1
                    continue
            n = list_locks(state, rules, seat)
            if n == 0:  # no affordable lock (only with rule tweaks): the turn passes
                state[L.S_TURN] = t + 1
                if heur is None:   # posted with no option (advance passes it)
                    _post(state, seat, L.D_LOCK, 0)
                continue
            _post(state, seat, L.D_LOCK, n)
        elif ph == L.PH_RIBBON:
            seat = state[L.S_ORDER + state[L.S_TURN]]
            if not ribbon_legal(state, rules, seat, state[L.S_FIN_SLOT]):
                state[L.S_PHASE] = L.PH_STEP4
                continue
            if heur is not None:
                if kinds[seat] != K_RANDOM:
                    take_ribbon(state, rules, seat,
                                1 if greedy_ribbon(state, rules, seat, heur[0][seat]) else 0, log)
                    continue
            _post(state, seat, L.D_RIBBON, list_yes_no(state))
        elif ph == L.PH_TILE:
            seat = state[L.S_ORDER + state[L.S_TURN]]
            if state[L.S_ROW_N] == 0 or first_empty_slot(state, rules, seat) < 0:
                emit(log, L.EV_NO_TILE, seat)
                state[L.S_ACTIONS] = 0
                state[L.S_PHASE] = L.PH_STEP4
                if heur is None:   # posted with no option (advance passes it)
                    _post(state, seat, L.D_TILE, 0)
                continue
            if heur is not None:
                if kinds[seat] != K_RANDOM:
                    take_tile_choice(state, rules, seat,
                                     greedy_tile(state, rules, comp, n_players, seat,
                                                 heur[0][seat], heur[1], heur[2]), log)
                    continue
            _post(state, seat, L.D_TILE, list_tiles(state, rules, seat))
        elif ph == L.PH_CYCLE:
            if n_active(state, n_players) == 0:
                state[L.S_PHASE] = L.PH_DAY_END
                continue
            state[L.S_CYCLES] += 1
            if state[L.S_CYCLES] > L.MAX_CYCLES_PER_DAY:  # safety guard (FS-D8)
                state[L.S_TRUNCATED] = 1
                state[L.S_END_REASON] = L.END_TRUNCATED
                emit(log, L.EV_TRUNCATED, state[L.S_DAY])
                state[L.S_PHASE] = L.PH_END
                continue
            play_cycle(state, rules, comp, n_players, log)
            state[L.S_PHASE] = L.PH_LOCK
        elif ph == L.PH_DAY:
            start_day(state, rules, n_players, log)
            state[L.S_PHASE] = L.PH_CYCLE
        elif ph == L.PH_DAY_END:
            state[L.S_PHASE] = end_of_day(state, rules, comp, n_players, log)
        elif ph == L.PH_REFRESH:
            if not solo_refresh_legal(state, rules):
                reset_salary(state, rules, np.int64(1))
                state[L.S_PHASE] = L.PH_DAY
                continue
            if heur is not None:
                if kinds[0] != K_RANDOM:
                    refresh = greedy_refresh(state, rules, comp, heur[0][0], heur[1], heur[2])
                    take_refresh(state, rules, 1 if refresh else 0, log)
                    continue
            _post(state, 0, L.D_REFRESH, list_yes_no(state))
        elif ph == L.PH_END:
            end_game(state, rules, comp, n_players, log)
            state[L.S_PHASE] = L.PH_OVER
            return 0
        else:
            return 0


@njit(cache=True)
def _post(state, seat, dp, n):
    """Post decision ``dp`` of ``seat`` with the ``n`` options listed in ``S_OPTIONS``;
    returns 1."""
    state[L.S_POINT] = dp
    state[L.S_DECIDER] = seat
    state[L.S_N_OPTIONS] = n
    return 1


@njit(cache=True)
def apply_option(state, rules, comp, index, log):
    """Carry out option ``index`` of the pending decision (``sim.decide``); False (nothing
    changed) if no decision is pending or ``index`` is out of range."""
    return apply_index(state, rules, comp[0], index, log)


@njit(cache=True)
def apply_index(state, rules, tiles, index, log):
    """``apply_option`` with the tiles (the only component it needs: a call passes fewer
    words). Moves the control position on: after a lock that completes the dice, Step 2
    (salary, FS-Y1) and Step 3; after a tile, Step 4; after a finish, its ribbons (DP-4); after
    done, the next player."""
    if state[L.S_POINT] == 0 or index < 0 or index >= state[L.S_N_OPTIONS]:
        return False
    _apply(state, rules, tiles, state[L.S_OPTIONS + index], log)
    return True


@njit(cache=True)
def _apply(state, rules, tiles, code, log):
    """Carry out the option ``code`` of the pending decision (``apply_index``)."""
    point = state[L.S_POINT]
    seat = state[L.S_DECIDER]
    state[L.S_POINT] = 0
    state[L.S_N_OPTIONS] = 0
    if point == L.D_STEP4:
        take_step4(state, rules, tiles, seat, code, log)
    elif point == L.D_LOCK:
        take_lock(state, rules, seat, code, log)
    elif point == L.D_RIBBON:
        take_ribbon(state, rules, seat, code, log)
    elif point == L.D_TILE:
        take_tile_choice(state, rules, seat, code, log)
    else:
        take_refresh(state, rules, code, log)


@njit(cache=True)
def take_step4(state, rules, tiles, seat, code, log):
    """DP-3/5/6/8: carry out Step-4 action ``code`` of ``seat``; after a finish its ribbons
    (DP-4), after done the next player (FS-U8)."""
    if code == O.encode_step4(L.A_DONE, 0):
        end_step4(state, rules, seat, log)
        state[L.S_TURN] += 1
        state[L.S_PHASE] = L.PH_LOCK
    else:
        apply_step4_action_with(state, rules, tiles, seat, code, log)
        state[L.S_ACTIONS] += 1
        action, arg = O.decode_step4(code)
        if action == L.A_FINISH:
            state[L.S_FIN_SLOT] = arg
            state[L.S_PHASE] = L.PH_RIBBON


@njit(cache=True)
def take_lock(state, rules, seat, mask, log):
    """DP-1: lock the dice of ``mask``; once all of ``seat``'s dice are locked, Step 2 (salary,
    FS-Y1) and Step 3 follow right away (FS-D6), else the next player."""
    apply_lock(state, rules, seat, mask, log)
    if all_locked(state, rules, seat):
        take_salary(state, seat, log)
        state[L.S_PHASE] = L.PH_TILE
    else:
        state[L.S_TURN] += 1


@njit(cache=True)
def take_ribbon(state, rules, seat, yes, log):
    """DP-4: buy a ribbon for the tile just finished (``yes`` = 1; asked again while legal)
    or go on with Step 4."""
    if yes == 1:
        buy_ribbon(state, rules, seat, state[L.S_FIN_SLOT], log)
    else:
        state[L.S_PHASE] = L.PH_STEP4


@njit(cache=True)
def take_tile_choice(state, rules, seat, code, log):
    """DP-2: take the row tile and slot of ``code`` (``options.encode_tile``), then Step 4."""
    pos, slot = O.decode_tile(code)
    take_tile(state, rules, seat, pos, slot, log)
    state[L.S_ACTIONS] = 0
    state[L.S_PHASE] = L.PH_STEP4


@njit(cache=True)
def take_refresh(state, rules, yes, log):
    """DP-7 (solo): pay for a new row (``yes`` = 1; asked again while legal), or start the next
    day with the salary cards reset (FS-SOLO-N3)."""
    if yes == 1:
        solo_refresh(state, rules, log)
    else:
        reset_salary(state, rules, np.int64(1))
        state[L.S_PHASE] = L.PH_DAY


@njit(cache=True)
def greedy_code(state, rules, comp, seat, pp, scr, fscr):
    """The option code the greedy heuristics (``policies``, parameter row ``pp``) want at the
    pending decision."""
    point = state[L.S_POINT]
    if point == L.D_STEP4:
        return greedy_step4(state, rules, comp[0], seat, pp)
    if point == L.D_LOCK:
        return greedy_lock(state, rules, comp[0], comp[1], state[L.S_N_PLAYERS], seat, pp, scr,
                           fscr)
    if point == L.D_RIBBON:
        return np.int64(1) if greedy_ribbon(state, rules, seat, pp) else np.int64(0)
    if point == L.D_TILE:
        return greedy_tile(state, rules, comp, state[L.S_N_PLAYERS], seat, pp, scr, fscr)
    refresh = greedy_refresh(state, rules, comp, pp, scr, fscr)
    return np.int64(1) if refresh else np.int64(0)


@njit(cache=True)
def choose_with(state, rules, comp, kinds, pparams, scr, fscr):
    """``choose`` with the greedy caches as two arrays."""
    seat = state[L.S_DECIDER]
    n = state[L.S_N_OPTIONS]
    if kinds[seat] == K_RANDOM:
        return random_index(state, L.S_RNG_POLICY, n)
    i = index_of(state, L.S_OPTIONS, n, greedy_code(state, rules, comp, seat, pparams[seat], scr,
                                                    fscr))
    # The heuristics only ask for listed options (tests/flower_shop/test_steps.py checks it);
    # should one not, the choice is the kernel's former fallback: done (Step 4), else the first
    # option.
    if i < 0:
        i = n - 1 if state[L.S_POINT] == L.D_STEP4 else 0
    return i


@njit(cache=True)
def choose(state, rules, comp, kinds, pparams, work):
    """The deciding seat's policy (``sim.decide``): an option index of the pending decision.
    ``random`` (K_RANDOM) is uniform over the options (policy stream ``S_RNG_POLICY``); the
    greedy family picks the option its heuristic wants. ``work`` = (scr, fscr), the greedy
    caches (``prepare_scratch``)."""
    return choose_with(state, rules, comp, kinds, pparams, work[0], work[1])


@njit(cache=True)
def _begin(state, rules, comp, n_players, master_seed, game_index, scr, fscr, log):
    """Start the streams, set the game up (FS-S*) and prepare the greedy caches; play starts
    at the first day (PH_DAY)."""
    start_streams(state, master_seed, game_index)
    setup_game(state, rules, comp, n_players, log)
    prepare_scratch(state, rules, comp, scr, fscr)
    state[L.S_PHASE] = L.PH_DAY


@njit(cache=True)
def new_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, log):
    """A game set up for stepping (``sim.decide``): (state, work = (scr, fscr))."""
    state = new_state(n_players)
    scr = np.zeros(L.SCR_LEN, dtype=np.int64)
    fscr = np.zeros(L.FSCR_LEN, dtype=np.float64)
    _begin(state, rules, comp, n_players, master_seed, game_index, scr, fscr, log)
    return state, (scr, fscr)


@njit(cache=True)
def _play(state, rules, comp, kinds, pparams, master_seed, game_index, scr, fscr, log):
    """Set up and play one complete game into the new ``state`` (``new_state``). ``scr`` and
    ``fscr`` (``SCR_LEN``, ``FSCR_LEN``) are the greedy caches, reusable across games.

    The rules run on borrowed views of the arguments (``sim.borrow``: no reference counting in
    the thousands of calls a game makes); the caller keeps the arrays alive during the call.
    """
    _play_game(borrowed(state), borrowed(rules), borrowed(comp), borrowed(kinds),
               borrowed(pparams), master_seed, game_index, borrowed(scr), borrowed(fscr),
               borrowed(log))


@njit(cache=True)
def _play_game(state, rules, comp, kinds, pparams, master_seed, game_index, scr, fscr, log):
    """The body of ``_play``: ``_begin`` (which prepares the greedy caches), then
    ``self_play``."""
    _begin(state, rules, comp, state[L.S_N_PLAYERS], master_seed, game_index, scr, fscr, log)
    self_play(state, rules, comp, kinds, pparams, scr, fscr, log)


@njit(cache=True)
def playout(state, rules, comp, kinds, pparams, work, log):
    """Play on from the current position to the end with the seats' policies (a search
    policy's rollouts). ``work`` = (scr, fscr), the greedy caches, emptied first: they are
    keyed by (seat, day) and a rollout from a copy must not reuse another copy's values."""
    prepare_scratch(state, rules, comp, work[0], work[1])
    self_play(state, rules, comp, kinds, pparams, work[0], work[1], log)


@njit(cache=True)
def self_play(state, rules, comp, kinds, pparams, scr, fscr, log):
    """``while advance: apply(choose)`` in self-play mode, from the current position to the
    end. The heuristic seats decide inside ``_steps``; only a random seat's decisions are posted
    (a draw, unless the option is forced)."""
    while _steps(state, rules, comp, kinds, (pparams, scr, fscr), log):
        n = state[L.S_N_OPTIONS]
        i = random_index(state, L.S_RNG_POLICY, n) if n > 1 else np.int64(0)
        _apply(state, rules, comp[0], state[L.S_OPTIONS + i], log)


@njit(cache=True)
def finish(state, rules, comp, games_row, seats_rows):
    """Write the result rows of a finished game (``sim.decide``; ``write_outputs``)."""
    write_outputs(state, rules, state[L.S_N_PLAYERS], state[L.S_WON] != 0, games_row, seats_rows)


@njit(cache=True)
def write_outputs(state, rules, n_players, won, games_row, seats_rows):
    """Fill one game's output row and its seat rows (``GO_*`` / ``SO_*``: sim.spec GAME_COMMON /
    SEAT_COMMON, then the game's columns)."""
    games_row[L.GO_ROUNDS] = state[L.S_ROUNDS]
    games_row[L.GO_TRUNCATED] = state[L.S_TRUNCATED]
    n_win = 0
    winner = -1
    for seat in range(n_players):
        b = seat_base(seat)
        r = seats_rows[seat]
        if n_players == 1:
            w = 1 if won else 0
        else:
            w = 1 if state[b + L.F_RANK] == 1 else 0
        if w:
            n_win += 1
            winner = seat
        r[L.SO_SCORE] = state[b + L.F_SCORE]
        r[L.SO_RANK] = state[b + L.F_RANK]
        r[L.SO_WON] = w
        r[L.SO_STARS] = state[b + L.F_STARS]
        r[L.SO_RIBBONS] = state[b + L.F_RIBBONS]
        r[L.SO_TASK_POINTS] = state[b + L.F_TASK_PTS]
        r[L.SO_TASK_LINES] = state[b + L.F_TASK_LINES]
        r[L.SO_MONEY] = state[b + L.F_MONEY]
        r[L.SO_TOKENS] = state[b + L.F_TOKENS]
        r[L.SO_TILES_FINISHED] = state[b + L.F_TILES_FINISHED]
        r[L.SO_TILES_PLACED] = state[b + L.F_TILES_PLACED]
        r[L.SO_INITIATIVE_DIE] = state[b + L.F_INIT_DIE]
        r[L.SO_SALARY_TOTAL] = state[b + L.F_SALARY_TOTAL]
        r[L.SO_LOCK_PAYMENTS] = state[b + L.F_LOCK_PAID]
        r[L.SO_SKIPS] = state[b + L.F_SKIPS]
        r[L.SO_LOCK_STEPS] = state[b + L.F_LOCK_STEPS]
        r[L.SO_TOKENS_TAKEN] = state[b + L.F_TOKENS_TAKEN]
        r[L.SO_TOKENS_BOUGHT] = state[b + L.F_TOKENS_BOUGHT]
        r[L.SO_TOKENS_SPENT] = state[b + L.F_TOKENS_SPENT]
        r[L.SO_MONEY_TAKEN] = state[b + L.F_MONEY_TAKEN]
        r[L.SO_DICE_WASTED] = state[b + L.F_DICE_WASTED]
    games_row[L.GO_N_WINNERS] = n_win
    games_row[L.GO_WINNER_SEAT] = winner if n_win == 1 else -1
    games_row[L.GO_END_REASON] = state[L.S_END_REASON]
    games_row[L.GO_TASK_CARD] = state[L.S_CARDS]
    games_row[L.GO_TASK_CARD_2] = state[L.S_CARDS + 1] if state[L.S_N_CARDS] > 1 else -1
    games_row[L.GO_LOSS_DAY] = state[L.S_LOSS_DAY] if n_players == 1 else -1
    games_row[L.GO_TASK_LINES_MET] = state[seat_base(0) + L.F_TASK_LINES]
    games_row[L.GO_TILES_LEFT_IN_STACK] = state[L.S_STACK_N] - state[L.S_STACK_POS]
    games_row[L.GO_REFRESHES] = state[L.S_REFRESHES]
    games_row[L.GO_OPP_DISCARDS] = state[L.S_OPP_DISCARDS]
    games_row[L.GO_OPP_LOWER] = state[L.S_OPP_LOWER]


@njit(cache=True)
def play_one(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index,
             games_row, seats_rows, log):
    """Play game ``game_index`` with an event log (sim.spec.GameSpec contract)."""
    state = new_state(n_players)
    scr = np.zeros(L.SCR_LEN, dtype=np.int64)
    fscr = np.zeros(L.FSCR_LEN, dtype=np.float64)
    _play(state, rules, comp, policy_kind, policy_params, master_seed, game_index, scr, fscr,
          log)
    finish(state, rules, comp, games_row, seats_rows)



@njit(cache=True, nogil=True)
def play_many(rules, comp, n_players, policy_kind, policy_params, master_seed, first_index,
              games_out, seats_out):
    """Play games ``first_index .. first_index + n - 1``; game i writes only row i
    (sim.spec.GameSpec contract). Tracing is off (1-row dummy log). Serial and ``nogil``:
    ``sim.threads`` plays slices of the rows on threads.

    Games run in blocks of ``BLOCK_GAMES`` that reuse their greedy caches. The shared
    read-only inputs are only read through borrowed views (``_play``), so the threads never
    contend for their reference counts. Each game is a pure function of (seed, index), so the
    blocking does not change any result.
    """
    n = games_out.shape[0]
    n_blocks = (n + BLOCK_GAMES - 1) // BLOCK_GAMES
    for blk in range(n_blocks):
        log = np.zeros((1, 8), dtype=np.int64)
        scr = np.zeros(L.SCR_LEN, dtype=np.int64)
        fscr = np.zeros(L.FSCR_LEN, dtype=np.float64)
        lo = blk * BLOCK_GAMES
        hi = min(n, lo + BLOCK_GAMES)
        state = new_state(n_players)
        for i in range(lo, hi):
            clear_state(state, n_players)
            _play(state, rules, comp, policy_kind, policy_params, master_seed, first_index + i,
                  scr, fscr, log)
            finish(state, rules, comp, games_out[i], seats_out[i])


@njit(cache=True)
def resample(state, rules, comp, seat, key):
    """Re-sample what ``seat`` cannot know, for a search policy's rollout (``sim.search``): a
    copy of the state then plays on with futures the seat could expect, never the game's own.

    Every random stream restarts from ``key`` (the search's stream): the dice of every later
    Phase 1 and the initiative tie shuffles (FS-D3, FS-D5; solo opponent die FS-SOLO-R1, all
    keyed from ``S_DICE_BASE``), the setup stream of the discard reshuffle (FS-SOLO-N4 option)
    and the policy stream. The draw stack is face down except its top tile, which lies
    unfinished side up (FS-S4: public): the tiles below it are put in a canonical order (so
    their order in ``state`` cannot leak) and shuffled. The row, task cards (FS-S5), salary
    cards and shops are open information and stay.
    """
    substream_in(state, L.S_RNG_SETUP, key, SUB_SETUP)
    substream_in(state, L.S_RNG_DICE, key, SUB_DICE)
    state[L.S_DICE_BASE] = state[L.S_RNG_DICE]
    substream_in(state, L.S_RNG_POLICY, key, SUB_POLICY)
    lo = state[L.S_STACK_POS] + 1   # the top tile is public (FS-S4)
    hi = state[L.S_STACK_N]
    for i in range(lo + 1, hi):   # insertion sort: canonical order of the hidden tiles
        t = state[L.S_STACK + i]
        j = i
        while j > lo and state[L.S_STACK + j - 1] > t:
            state[L.S_STACK + j] = state[L.S_STACK + j - 1]
            j -= 1
        state[L.S_STACK + j] = t
    if hi - lo > 1:
        shuffle_in(state, L.S_RNG_SETUP, state[L.S_STACK + lo:L.S_STACK + hi])
