"""Rattlebones (Stephen Glenn, 2014) simulation kernel.

Rule source: ``shared/rules/rattlebones.md`` (spec version 1); rule IDs RB-S*, RB-T*, RB-P*,
RB-F*, RB-E* are cited in each function's docstring. Parameters (``rules.PARAMS``, defaults in
brackets): ringmaster_start_2p/3p/4p [55/60/65], ringmaster_step [1], end_inclusive [false],
n_monkeys [3], n_dice [3], max_dice_per_turn [3], gold_per_extra_die [1], starting_gold/stars
[0/0], seat_bonus_gold/points [0s], board_preset [base], tile_pool [all 12], tiles_used [7],
star_exchange [0,3,7,11,15], shop_max_stars [4], shop_on_pass [false],
shop_exchanges_per_landing [1], stock_count [data: 5], stock_pay_first/second [10/5],
stock_pay_tie_first/after_tie_first [7/2], stock_pay_tie_second [2], stock_pay_monopoly [15],
rank_points [1,2,3,4], point_face_max [5], point_face_supply [data: 5/4/3/2/1],
action_face_supply [data: 15], gold_supply/star_supply [data: 20/20, 0 = unlimited],
train_track [data: 0..9], gamble_faces [data: 2,3,4,5,R,9], nine_move_min/max [1/9],
ringmaster_face_move [1], double_multiplier [2], double_stacking [multiply],
double_affects_thief [false], reroll_mandatory [true], reroll_second_scope [all],
move_optional [true], arrow_targets [adjacent], arrow_number_mode [resolve],
plus1_any_die [false], max_turns [1000].

Seats: seat 0 is the start player by definition (RB-S9); play is clockwise = increasing seat.
The RB-S9 random draw of the start player is still made (RNG order RB-S11) and reported as the
game column ``start_chair``: the physical chair that starts. Seat k = chair (start_chair + k) mod n.

State: one flat int64 array ``state[S_LEN + n_players * SEAT_LEN]``, declared field by field
in ``layout.py`` (``playtest layout rattlebones`` prints the tables), as are the decision points
and their option encodings.
"""
import numpy as np
from numba import njit, prange

from sim.borrow import borrowed, no_refcount_module, no_wraparound_module, whole_program
from sim.rng import (SUB_DICE, SUB_POLICY, SUB_SETUP, make_stream, mix64, randint, shuffle,
                     stream_start)
from sim.trace import emit

from .dice import die_result, double_mult, face_at, follow_arrow, is_number_face, seat_base
from .layout import (BM_START, BM_TRACK_LEN, D_ARROW, D_DICE, D_DOUBLE, D_EXTRA, D_INSTALL, D_MOVE,
                     D_NINE, D_ORDER, D_PLUS1, D_REROLL, D_RM_MOVE, D_SHOP, D_THIEF, ET_RINGMASTER,
                     ET_SCORE, ET_SETUP, ET_SHOP, ET_STOCK, EV_DECLINE, EV_DOUBLE, EV_END,
                     EV_EXTRA, EV_GAMBLE, EV_INSTALL, EV_MOVE, EV_NO_EFFECT, EV_POINTS, EV_RANK,
                     EV_REROLL, EV_RESOLVE, EV_RINGMASTER, EV_ROLL, EV_SETUP, EV_SHOP, EV_STOCK,
                     EV_STOCK_PAY, EV_THEFT, EV_TILE, EV_TOKEN, EV_TRAIN, EV_TRUNCATED, EV_TURN,
                     EV_UPGRADE, FC_ARROW, FC_DOUBLE, FC_EMPTY, FC_GAMBLE, FC_GOLD, FC_NINE,
                     FC_PIP_2, FC_PIP_6, FC_POINTS_1, FC_POINTS_5, FC_RANK, FC_REROLL,
                     FC_RINGMASTER, FC_STAR, FC_STOCK, FC_THIEF, FC_TRAIN, F_ARROW, F_DICE_ROLLED,
                     F_EXTRA_DICE, F_FACE, F_GOLD, F_GOLD_GAINED, F_GOLD_SPENT, F_INSTALLS,
                     F_MONKEY, F_MOVES, F_PTS_FACES, F_PTS_GAMBLE, F_PTS_RANK, F_PTS_SHOP,
                     F_PTS_STOCK, F_PTS_TRAIN, F_REROLLS, F_RM_DROPS, F_SCORE, F_STARS,
                     F_STARS_CASHED, F_STARS_GAINED, F_STEALS, F_STOCKS, F_STOCKS_TAKEN, F_STOLEN,
                     F_TURNS, GB_NINE, GB_RINGMASTER, GO_END_REASON, GO_END_SEAT, GO_END_TRIGGER,
                     GO_N_WINNERS, GO_RINGMASTER_DROPS, GO_RINGMASTER_FINAL, GO_ROUNDS,
                     GO_START_CHAIR, GO_STOCK_SCORINGS, GO_TILES_MASK, GO_TRAIN_RIDES,
                     GO_TRUNCATED, GO_TURNS, GO_WINNER_SEAT, K_GREEDY, MAX_DICE, MAX_OPTS,
                     MOVE_CODE, NE_ARROW_NUMBER, NE_CYCLE, NE_DOUBLE_ALONE, NE_DOUBLE_DIE,
                     NE_NO_STOCK, NE_REROLL_LATE, NE_THIEF_NOBODY, N_FACES, N_SLOTS, PLUS1_DIE,
                     PLUS1_KIND, SEAT0, SEAT_LEN, SO_DICE_ROLLED, SO_EXTRA_DICE, SO_GOLD,
                     SO_GOLD_GAINED, SO_GOLD_SPENT, SO_INSTALLS, SO_MOVES, SO_PTS_FACES,
                     SO_PTS_GAMBLE, SO_PTS_RANK, SO_PTS_SHOP, SO_PTS_STOCK, SO_PTS_TRAIN, SO_RANK,
                     SO_REROLLS, SO_RINGMASTER_DROPS, SO_SCORE, SO_STARS, SO_STARS_CASHED,
                     SO_STARS_GAINED, SO_STEALS, SO_STOCKS, SO_STOCKS_TAKEN, SO_STOLEN, SO_TOKENS,
                     SO_TURNS_TAKEN, SO_WON, SPC_FACE, SPC_KIND, SP_EMPTY, SP_FACE, SP_PLUS1,
                     SP_SLOT, SP_START, S_ACTIVE, S_CTX_DIE, S_CTX_DIST, S_CTX_FACE, S_CTX_SLOT,
                     S_CTX_VICTIM, S_DBL_COUNT, S_DBL_TARGET, S_ENDED, S_END_SEAT, S_END_TRIGGER,
                     S_FACE_SUPPLY, S_FIRST_SEAT, S_FORCE, S_FORCE_N, S_FORCE_POS, S_GAMBLE,
                     S_GOLD_LIMITED, S_GOLD_SUPPLY, S_N_DICE, S_N_MONKEYS, S_N_PLAYERS, S_OPP,
                     S_OPTS, S_R, S_REROLL_EVENTS, S_RESOLVED, S_RM_DROPS, S_RNG_D, S_RNG_P,
                     S_ROLLED, S_SCRIPT, S_SCRIPT_ERR, S_SCRIPT_N, S_SCRIPT_POS, S_SCRIPT_STRICT,
                     S_SPACE_FACE, S_SPACE_KIND, S_START_CHAIR, S_START_INDEX, S_STAR_LIMITED,
                     S_STAR_SUPPLY, S_STOCK_COUNT, S_STOCK_SCORINGS, S_STOCK_SUPPLY, S_TILES_MASK,
                     S_TRACK_LEN, S_TRAIN_LEN, S_TRAIN_MOVES, S_TRAIN_POS, S_TRAIN_TRACK,
                     S_TRUNCATED, S_TURN, S_UP_SLOT, TK_GOLD, TK_STAR, TOK_GOLD, TOK_STAR,
                     TOK_STOCK, TRD_N, TRD_START, TRD_VALUES)
from .policies import (fill_cfg, greedy, greedy_arrow, greedy_dice, greedy_extra_dice,
                       greedy_install, greedy_move, greedy_order, greedy_plus1, shop_k)
from .rules import (ARROWNUM_NONE, ARROW_ANY, C_KIND, C_LEN, R_ACTION_FACE_SUPPLY,
                    R_ARROW_NUMBER_MODE, R_ARROW_TARGETS, R_BOARD_PRESET, R_DOUBLE_AFFECTS_THIEF,
                    R_DOUBLE_STACKING, R_END_INCLUSIVE, R_GAMBLE_FACES, R_GOLD_PER_EXTRA_DIE,
                    R_GOLD_SUPPLY, R_MAX_DICE_PER_TURN, R_MAX_TURNS, R_MOVE_OPTIONAL,
                    R_NINE_MOVE_MAX, R_NINE_MOVE_MIN, R_N_DICE, R_N_MONKEYS, R_PLUS1_ANY_DIE,
                    R_POINT_FACE_MAX, R_POINT_FACE_SUPPLY, R_RANK_POINTS, R_REROLL_MANDATORY,
                    R_REROLL_SECOND_SCOPE, R_RINGMASTER_FACE_MOVE, R_RINGMASTER_START_2P,
                    R_RINGMASTER_START_3P, R_RINGMASTER_START_4P, R_RINGMASTER_STEP,
                    R_SEAT_BONUS_GOLD, R_SEAT_BONUS_POINTS, R_SHOP_EXCHANGES_PER_LANDING,
                    R_SHOP_MAX_STARS, R_SHOP_ON_PASS, R_STARTING_GOLD, R_STARTING_STARS,
                    R_STAR_EXCHANGE, R_STAR_SUPPLY, R_STOCK_COUNT, R_STOCK_PAY_AFTER_TIE_FIRST,
                    R_STOCK_PAY_FIRST, R_STOCK_PAY_MONOPOLY, R_STOCK_PAY_SECOND,
                    R_STOCK_PAY_TIE_FIRST, R_STOCK_PAY_TIE_SECOND, R_TILES_USED, R_TILE_POOL,
                    R_TRAIN_TRACK, SCOPE_REROLL_ONLY, STACK_FORBID)

# The game loop only sees arrays its callers own (sim.borrow). These allocate or receive arrays
# a callee allocated: the batch entry points and the stream of setup.
no_refcount_module(__name__, exclude=("_play_game", "play_one", "play_many"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)
whole_program(__name__, "_play")  # a game's calls are private to it (sim.borrow)

# how a call site takes a multi-option decision (``_mode``)
ASK_DECIDE = 0
ASK_GREEDY = 1
ASK_RANDOM = 2
K_GREEDY_CODE = float(K_GREEDY)   # the policy kind as stored in ``cfg``

BLOCK_GAMES = 32   # games per prange block of play_many

RNG_STEP = np.uint64(0x9E3779B97F4A7C15)   # == sim.rng._GOLDEN (checked by a test)


# ==== small helpers =========================================================================


@njit(cache=True, inline='always')
def _rand(state, field, n):
    """``sim.rng.randint`` on the stream kept in ``state[field]`` (S_RNG_D / S_RNG_P): uniform
    integer in [0, n), the same draws as the ``uint64[1]`` stream of ``sim.rng``."""
    u = np.uint64(state[field]) + RNG_STEP
    state[field] = np.int64(u)
    x = mix64(u) >> np.uint64(11)
    return np.int64((x * np.uint64(n)) >> np.uint64(53))


@njit(cache=True, inline='always')
def state_size(n_players):
    """Length of the state array for ``n_players`` seats."""
    return SEAT0 + n_players * SEAT_LEN


@njit(cache=True, inline='always')
def _popcount(x):
    """Number of set bits of a small non-negative int."""
    c = 0
    while x:
        c += x & 1
        x >>= 1
    return c


@njit(cache=True, inline='always')
def is_action_face(f):
    """True for the 11 action faces of the supply (§2.5)."""
    return f == FC_NINE or FC_THIEF <= f <= FC_GOLD


@njit(cache=True, inline='always')
def _draw_slot(state):
    """One die roll: a uniform slot index 0..5 (RB-T3), or the next forced draw (tests).

    Forced draws are slot numbers 1..6.
    """
    p = state[S_FORCE_POS]
    if p < state[S_FORCE_N]:
        state[S_FORCE_POS] = p + 1
        return state[S_FORCE + p] - 1
    return _rand(state, S_RNG_D, N_SLOTS)


@njit(cache=True, inline='always')
def _draw_gamble(state):
    """One gamble-die roll: a uniform face index 0..5 (RB-F6), or the next forced draw."""
    p = state[S_FORCE_POS]
    if p < state[S_FORCE_N]:
        state[S_FORCE_POS] = p + 1
        return state[S_FORCE + p]
    return _rand(state, S_RNG_D, 6)


@njit(cache=True, inline='always')
def end_check(state, rules, trigger, log):
    """RB-E2: end the game at once if any score > R (``end_inclusive``: >= R).

    Returns
    -------
    bool, True if the game has ended (now or before).
    """
    if state[S_ENDED]:
        return True
    r = state[S_R]
    incl = rules[R_END_INCLUSIVE] > 0.5
    for p in range(state[S_N_PLAYERS]):
        s = state[seat_base(p) + F_SCORE]
        if s > r or (incl and s >= r):
            state[S_ENDED] = 1
            state[S_END_TRIGGER] = trigger
            state[S_END_SEAT] = state[S_ACTIVE]
            return True
    return False


@njit(cache=True, inline='always')
def gain_points(state, cfg, seat, amount, source, stat, log):
    """Add points to ``seat`` as one atomic gain, then run the end check (RB-F1, RB-E2)."""
    b = seat_base(seat)
    state[b + F_SCORE] += amount
    state[b + stat] += amount
    if log.shape[0] > 1:
        emit(log, EV_POINTS, seat, amount, source, state[b + F_SCORE])
    return end_check(state, cfg, ET_SCORE, log)


@njit(cache=True)
def _ringmaster_start(rules, n):
    """R at setup for n players (RB-S8)."""
    if n <= 2:
        return int(rules[R_RINGMASTER_START_2P])
    if n == 3:
        return int(rules[R_RINGMASTER_START_3P])
    return int(rules[R_RINGMASTER_START_4P])


# ==== setup (RB-S1 .. RB-S11) ==================================================================
@njit(cache=True)
def setup_board(state, rules, boards, meta, tiles, rng, scratch, log):
    """RB-S2: load the board preset, shuffle the tile pool, fill SLOT spaces in index order.

    Tile codes of ``tile_pool`` outside the data file are ignored; the number placed is
    min(tiles_used, pool size, SLOT spaces); unfilled SLOTs become EMPTY.
    """
    p = int(rules[R_BOARD_PRESET])
    L = meta[p, BM_TRACK_LEN]
    state[S_TRACK_LEN] = L
    state[S_START_INDEX] = meta[p, BM_START]
    for i in range(L):
        state[S_SPACE_KIND + i] = boards[p, i, SPC_KIND]
        state[S_SPACE_FACE + i] = boards[p, i, SPC_FACE]
    m = 0
    for j in range(int(rules[R_TILE_POOL])):
        c = int(rules[R_TILE_POOL + 1 + j])
        if c < tiles.shape[0]:
            scratch[m] = c
            m += 1
    shuffle(rng, scratch[:m])
    use = min(int(rules[R_TILES_USED]), m)
    k = 0
    for i in range(L):
        if state[S_SPACE_KIND + i] == SP_SLOT:
            if k < use:
                t = scratch[k]
                state[S_SPACE_KIND + i] = tiles[t, SPC_KIND]
                state[S_SPACE_FACE + i] = tiles[t, SPC_FACE]
                state[S_TILES_MASK] |= 1 << t
                if log.shape[0] > 1:
                    emit(log, EV_TILE, i, t, tiles[t, SPC_KIND], tiles[t, SPC_FACE])
                k += 1
            else:
                state[S_SPACE_KIND + i] = SP_EMPTY


@njit(cache=True)
def setup_supplies(state, rules, fsupply, tokens):
    """RB-S3 face piles and RB-S7 stock / gold / star supplies (parameters override data)."""
    for f in range(N_FACES):
        state[S_FACE_SUPPLY + f] = fsupply[f]
    if rules[R_POINT_FACE_SUPPLY + 1] >= 0:
        for k in range(5):
            state[S_FACE_SUPPLY + FC_POINTS_1 + k] = int(rules[R_POINT_FACE_SUPPLY + 1 + k])
    a = int(rules[R_ACTION_FACE_SUPPLY])
    if a >= 0:
        for f in range(N_FACES):
            if is_action_face(f):
                state[S_FACE_SUPPLY + f] = a
    g = tokens[TOK_GOLD] if rules[R_GOLD_SUPPLY] < 0 else int(rules[R_GOLD_SUPPLY])
    s = tokens[TOK_STAR] if rules[R_STAR_SUPPLY] < 0 else int(rules[R_STAR_SUPPLY])
    state[S_GOLD_SUPPLY] = g
    state[S_GOLD_LIMITED] = 1 if g > 0 else 0
    state[S_STAR_SUPPLY] = s
    state[S_STAR_LIMITED] = 1 if s > 0 else 0
    c = tokens[TOK_STOCK] if rules[R_STOCK_COUNT] < 0 else int(rules[R_STOCK_COUNT])
    state[S_STOCK_COUNT] = c
    state[S_STOCK_SUPPLY] = c


@njit(cache=True)
def setup_train_and_gamble(state, rules, train, gamble):
    """RB-S6: train on its start index; the train values (RB-F7) and gamble faces (RB-F6)."""
    if rules[R_TRAIN_TRACK + 1] < 0:
        n = train[TRD_N]
        state[S_TRAIN_POS] = train[TRD_START]
        for i in range(n):
            state[S_TRAIN_TRACK + i] = train[TRD_VALUES + i]
    else:
        n = int(rules[R_TRAIN_TRACK])
        state[S_TRAIN_POS] = 0
        for i in range(n):
            state[S_TRAIN_TRACK + i] = int(rules[R_TRAIN_TRACK + 1 + i])
    state[S_TRAIN_LEN] = n
    for i in range(6):
        if rules[R_GAMBLE_FACES + 1] < 0:
            state[S_GAMBLE + i] = gamble[i]
        else:
            state[S_GAMBLE + i] = int(rules[R_GAMBLE_FACES + 1 + i])


@njit(cache=True, inline='always')
def _deal(state, field_supply, field_limited, want):
    """Take up to ``want`` tokens from a supply (all of them when unlimited)."""
    if state[field_limited] == 0:
        return want
    got = min(want, state[field_supply])
    state[field_supply] -= got
    return got


@njit(cache=True)
def setup_players(state, rules, start_faces, opposite):
    """RB-S4 monkeys, score and tokens; RB-S5 dice with start faces; RB-S10 seat bonuses.

    Seat k is the k-th player in turn order (seat 0 = start player). Gold and stars dealt at
    setup come out of a limited supply (RB-S7); a dry supply deals fewer.
    """
    n = state[S_N_PLAYERS]
    for s in range(N_SLOTS):
        state[S_OPP + s] = opposite[s]
    for seat in range(n):
        b = seat_base(seat)
        for m in range(state[S_N_MONKEYS]):
            state[b + F_MONKEY + m] = state[S_START_INDEX]
        for d in range(state[S_N_DICE]):
            for s in range(N_SLOTS):
                state[b + F_FACE + d * N_SLOTS + s] = start_faces[s]
                state[b + F_ARROW + d * N_SLOTS + s] = -1
        bg = int(rules[R_SEAT_BONUS_GOLD + 1 + seat]) if seat < 4 else 0
        bp = int(rules[R_SEAT_BONUS_POINTS + 1 + seat]) if seat < 4 else 0
        state[b + F_GOLD] = _deal(state, S_GOLD_SUPPLY, S_GOLD_LIMITED, int(rules[R_STARTING_GOLD]) + bg)
        state[b + F_STARS] = _deal(state, S_STAR_SUPPLY, S_STAR_LIMITED, int(rules[R_STARTING_STARS]))
        state[b + F_SCORE] = bp


@njit(cache=True)
def setup_game(state, rules, comp, n_players, rng_setup, scratch, log):
    """Set up a game (RB-S1 .. RB-S10), drawing from the setup stream in RB-S11 order.

    Parameters
    ----------
    state : int64[state_size(n_players)]  (overwritten)
    rules : float64[R_LEN]
    comp : tuple of component arrays (rules.load_components)
    n_players : int, 2..4 (RB-S1, checked by the spec)
    rng_setup : uint64[1] SUB_SETUP stream
    scratch : int64[>= 16] scratch for the tile shuffle
    log : trace log
    """
    boards, meta, tiles, fsupply, tokens, train, gamble, start_faces, opposite = comp
    state[:] = 0
    state[S_N_PLAYERS] = n_players
    state[S_N_DICE] = int(rules[R_N_DICE])
    state[S_N_MONKEYS] = int(rules[R_N_MONKEYS])
    setup_board(state, rules, boards, meta, tiles, rng_setup, scratch, log)
    state[S_START_CHAIR] = randint(rng_setup, n_players)
    state[S_FIRST_SEAT] = 0
    setup_supplies(state, rules, fsupply, tokens)
    setup_train_and_gamble(state, rules, train, gamble)
    setup_players(state, rules, start_faces, opposite)
    state[S_R] = _ringmaster_start(rules, n_players)
    state[S_END_SEAT] = -1
    for d in range(MAX_DICE):
        state[S_DBL_TARGET + d] = -1
    if log.shape[0] > 1:
        emit(log, EV_SETUP, n_players, state[S_R], state[S_START_CHAIR], state[S_TILES_MASK])
    end_check(state, rules, ET_SETUP, log)


# ==== decisions ================================================================================
@njit(cache=True, inline='always')
def _mode(state, cfg, seat):
    """How the hot call sites take ``seat``'s next multi-option decision: ASK_GREEDY (call the
    D_* heuristic directly), ASK_RANDOM (draw inline) or ASK_DECIDE (``_decide``: scripted
    decisions of the tests)."""
    if state[S_SCRIPT_POS] < state[S_SCRIPT_N] or state[S_SCRIPT_STRICT] != 0:
        return ASK_DECIDE
    if cfg[C_KIND + seat] == K_GREEDY_CODE:
        return ASK_GREEDY
    return ASK_RANDOM


@njit(cache=True)
def _decide(state, cfg, seat, dp, n):
    """Ask for decision ``dp`` among the ``n`` options at ``state[S_OPTS:]`` (n >= 1): a scripted value (tests) or the
    seat's policy. Single-option decisions are taken without asking."""
    if n == 1:
        return state[S_OPTS + 0]
    p = state[S_SCRIPT_POS]
    if p < state[S_SCRIPT_N]:
        v = state[S_SCRIPT + p]
        state[S_SCRIPT_POS] = p + 1
        ok = False
        for i in range(n):
            if state[S_OPTS + i] == v:
                ok = True
        if not ok and state[S_SCRIPT_ERR] == 0:
            state[S_SCRIPT_ERR] = dp
        return v
    if state[S_SCRIPT_STRICT] and state[S_SCRIPT_ERR] == 0:
        state[S_SCRIPT_ERR] = 100 + dp
    if cfg[C_KIND + seat] != K_GREEDY_CODE:
        return state[S_OPTS + _rand(state, S_RNG_P, n)]
    return greedy(state, cfg, seat, dp, n)


# ==== turn start: extra dice, dice choice, roll (RB-T1 .. RB-T3) ============================
@njit(cache=True, inline='always')
def _pay_extra_dice(state, cfg, seat, log):
    """RB-T1: choose e extra dice, 0 <= e <= min(max_dice_per_turn - 1, gold / cost), and pay.

    Returns
    -------
    int e.
    """
    b = seat_base(seat)
    cost = int(cfg[R_GOLD_PER_EXTRA_DIE])
    emax = min(int(cfg[R_MAX_DICE_PER_TURN]), state[S_N_DICE]) - 1
    if cost > 0:
        emax = min(emax, state[b + F_GOLD] // cost)
    for e in range(emax + 1):
        state[S_OPTS + e] = e
    mode = _mode(state, cfg, seat)
    if emax <= 0:
        e = state[S_OPTS + 0]
    elif mode == ASK_GREEDY:
        e = greedy_extra_dice(state, cfg, seat, emax + 1)
    elif mode == ASK_RANDOM:
        e = state[S_OPTS + _rand(state, S_RNG_P, emax + 1)]
    else:
        e = _decide(state, cfg, seat, np.int64(D_EXTRA), emax + 1)
    if e > 0:
        paid = e * cost
        state[b + F_GOLD] -= paid
        if state[S_GOLD_LIMITED]:
            state[S_GOLD_SUPPLY] += paid
        state[b + F_GOLD_SPENT] += paid
        state[b + F_EXTRA_DICE] += e
        if log.shape[0] > 1:
            emit(log, EV_EXTRA, seat, e, paid, state[b + F_GOLD])
    return e


@njit(cache=True, inline='always')
def roll_die(state, cfg, seat, die, event, log):
    """RB-T3: the die shows a uniform slot; its result is the face there."""
    s = _draw_slot(state)
    state[S_UP_SLOT + die] = s
    state[seat_base(seat) + F_DICE_ROLLED] += 1
    if log.shape[0] > 1:
        emit(log, EV_ROLL, seat, die, s + 1, face_at(state, seat, die, s),
            die_result(state, cfg, seat, die), event)


@njit(cache=True, inline='always')
def _choose_and_roll(state, cfg, seat, e, log):
    """RB-T2 + RB-T3: choose 1 + e distinct own dice and roll them in die-id order (RB-S11)."""
    nd = state[S_N_DICE]
    n = 0
    for mask in range(1, 1 << nd):
        if _popcount(mask) == 1 + e:
            state[S_OPTS + n] = mask
            n += 1
    mode = _mode(state, cfg, seat)
    if n == 1:
        mask = state[S_OPTS + 0]
    elif mode == ASK_GREEDY:
        mask = greedy_dice(state, cfg, seat, n)
    elif mode == ASK_RANDOM:
        mask = state[S_OPTS + _rand(state, S_RNG_P, n)]
    else:
        mask = _decide(state, cfg, seat, np.int64(D_DICE), n)
    state[S_ROLLED] = mask
    for d in range(nd):
        if (mask >> d) & 1:
            roll_die(state, cfg, seat, d, 0, log)


@njit(cache=True)
def _reroll_phase(state, cfg, seat, log):
    """RB-T4 / RB-F8: apply Reroll until it no longer applies (AMB-10, AMB-11).

    K = rolled dice whose result is REROLL (arrows followed). Stop when K is empty, no die is
    unrolled, or max_dice_per_turn dice are rolled. Otherwise the player adds an unrolled die u;
    event 1 rerolls K + u, later events reroll every rolled die (``reroll_second_scope = all``)
    or K + u (``reroll_only``). The added die costs no gold.
    """
    nd = state[S_N_DICE]
    full = (1 << nd) - 1
    maxd = int(cfg[R_MAX_DICE_PER_TURN])
    while True:
        rolled = state[S_ROLLED]
        k = 0
        for d in range(nd):
            if (rolled >> d) & 1 and die_result(state, cfg, seat, d) == FC_REROLL:
                k |= 1 << d
        unrolled = full & ~rolled
        if k == 0 or unrolled == 0 or _popcount(rolled) >= maxd:
            return
        n = 0
        for d in range(nd):
            if (unrolled >> d) & 1:
                state[S_OPTS + n] = d
                n += 1
        if cfg[R_REROLL_MANDATORY] < 0.5:
            state[S_OPTS + n] = -1
            n += 1
        u = _decide(state, cfg, seat, np.int64(D_REROLL), n)
        if u < 0:
            return
        rolled |= 1 << u
        state[S_ROLLED] = rolled
        state[S_REROLL_EVENTS] += 1
        ev = state[S_REROLL_EVENTS]
        state[seat_base(seat) + F_REROLLS] += 1
        if ev == 1 or int(cfg[R_REROLL_SECOND_SCOPE]) == SCOPE_REROLL_ONLY:
            mask = k | (1 << u)
        else:
            mask = rolled
        if log.shape[0] > 1:
            emit(log, EV_REROLL, seat, ev, u, mask)
        for d in range(nd):
            if (mask >> d) & 1:
                roll_die(state, cfg, seat, d, ev, log)


@njit(cache=True)
def _declare_doubles(state, cfg, seat, log):
    """RB-T5a / RB-F5: each die whose result is DOUBLE is assigned to one other rolled die
    (AMB-08, AMB-09). A Double with no other die has no effect; ``forbid`` allows one Double
    per target."""
    nd = state[S_N_DICE]
    rolled = state[S_ROLLED]
    forbid = int(cfg[R_DOUBLE_STACKING]) == STACK_FORBID
    for d in range(nd):
        if not (rolled >> d) & 1 or die_result(state, cfg, seat, d) != FC_DOUBLE:
            continue
        n = 0
        for t in range(nd):
            if t != d and (rolled >> t) & 1 and not (forbid and state[S_DBL_COUNT + t] > 0):
                state[S_OPTS + n] = t
                n += 1
        if n == 0:
            if log.shape[0] > 1:
                emit(log, EV_NO_EFFECT, seat, d, FC_DOUBLE, NE_DOUBLE_ALONE)
            continue
        state[S_CTX_DIE] = d
        t = _decide(state, cfg, seat, np.int64(D_DOUBLE), n)
        state[S_DBL_COUNT + t] += 1
        state[S_DBL_TARGET + d] = t
        if log.shape[0] > 1:
            emit(log, EV_DOUBLE, seat, d, t, state[S_DBL_COUNT + t])


# ==== landing effects (RB-T7, RB-P1 .. RB-P4) ================================================
@njit(cache=True)
def install_face(state, seat, die, sidx, face, target, log):
    """Replace slot ``sidx`` (1..5) of ``die`` with ``face`` from the supply (RB-T7, AMB-16).

    The removed face returns to its pile; a pip face leaves the game. ``target`` is the arrow
    target slot index when ``face`` is ARROW.
    """
    b = seat_base(seat) + die * N_SLOTS + sidx
    old = state[b + F_FACE]
    if old != FC_EMPTY and not (FC_PIP_2 <= old <= FC_PIP_6):
        state[S_FACE_SUPPLY + old] += 1
    state[S_FACE_SUPPLY + face] -= 1
    state[b + F_FACE] = face
    state[b + F_ARROW] = target if face == FC_ARROW else -1
    state[seat_base(seat) + F_INSTALLS] += 1
    if log.shape[0] > 1:
        emit(log, EV_INSTALL, seat, die, sidx + 1, face, old, target + 1 if face == FC_ARROW else 0)


@njit(cache=True)
def _arrow_target_options(state, rules, sidx):
    """§2.2 / AMB-05: legal arrow targets (slot numbers) for an arrow in slot index ``sidx``:
    the 4 adjacent slots (not itself, not its opposite), or any other slot. ``rules`` may be
    the rules or a ``cfg`` array."""
    n = 0
    anyt = int(rules[R_ARROW_TARGETS]) == ARROW_ANY
    for t in range(N_SLOTS):
        if t != sidx and (anyt or t != state[S_OPP + sidx]):
            state[S_OPTS + n] = t + 1
            n += 1
    return n


@njit(cache=True, inline='always')
def offer_face(state, cfg, seat, die, face, log):
    """RB-T7 FACE(x): the player may replace slot 2..6 of the moving die with x (supply >= 1);
    an ARROW also gets its target (D09). Landing never triggers the ability."""
    if state[S_FACE_SUPPLY + face] < 1:
        return
    state[S_OPTS + 0] = 0
    for s in range(2, N_SLOTS + 1):
        state[S_OPTS + s - 1] = s
    state[S_CTX_DIE] = die
    state[S_CTX_FACE] = face
    mode = _mode(state, cfg, seat)
    if mode == ASK_GREEDY:
        s = greedy_install(state, cfg, seat, np.int64(N_SLOTS))
    elif mode == ASK_RANDOM:
        s = state[S_OPTS + _rand(state, S_RNG_P, N_SLOTS)]
    else:
        s = _decide(state, cfg, seat, np.int64(D_INSTALL), np.int64(N_SLOTS))
    if s == 0:
        if log.shape[0] > 1:
            emit(log, EV_DECLINE, seat, die, D_INSTALL)
        return
    target = -1
    if face == FC_ARROW:
        n = _arrow_target_options(state, cfg, s - 1)
        state[S_CTX_SLOT] = s - 1
        mode = _mode(state, cfg, seat)
        if n == 1:
            target = state[S_OPTS + 0] - 1
        elif mode == ASK_GREEDY:
            target = greedy_arrow(state, cfg, seat, n) - 1
        elif mode == ASK_RANDOM:
            target = state[S_OPTS + _rand(state, S_RNG_P, n)] - 1
        else:
            target = _decide(state, cfg, seat, np.int64(D_ARROW), n) - 1
    install_face(state, seat, die, s - 1, face, target, log)


@njit(cache=True)
def _plus1_options(state, rules, seat, die):
    """RB-P3 legal choices (encoded ``kind * 64 + die * 8 + slot``; -1 = decline).

    (a) POINTS_1 into slot 2..6 of the moving die (supply >= 1); (b) upgrade POINTS_k to
    POINTS_k+1, k < point_face_max, supply >= 1, on the moving die (any own die with
    ``plus1_any_die``, AMB-14); (c) decline. RB-P4: never past point_face_max or the supply.
    ``rules`` may be the rules or a ``cfg`` array.
    """
    n = 0
    state[S_OPTS + n] = -1
    n += 1
    if state[S_FACE_SUPPLY + FC_POINTS_1] >= 1:
        for s in range(1, N_SLOTS):
            state[S_OPTS + n] = die * PLUS1_DIE + s + 1
            n += 1
    kmax = int(rules[R_POINT_FACE_MAX])
    anyd = rules[R_PLUS1_ANY_DIE] > 0.5
    for d in range(state[S_N_DICE]):
        if d != die and not anyd:
            continue
        for s in range(1, N_SLOTS):
            f = face_at(state, seat, d, s)
            if FC_POINTS_1 <= f <= FC_POINTS_5:
                k = f - FC_POINTS_1 + 1
                if k < kmax and state[S_FACE_SUPPLY + f + 1] >= 1:
                    state[S_OPTS + n] = PLUS1_KIND + d * PLUS1_DIE + s + 1
                    n += 1
    return n


@njit(cache=True, inline='always')
def plus1_space(state, cfg, seat, die, log):
    """RB-P3: on landing on +1, place POINTS_1, upgrade one point face, or decline."""
    n = _plus1_options(state, cfg, seat, die)
    state[S_CTX_DIE] = die
    mode = _mode(state, cfg, seat)
    if n == 1:
        a = state[S_OPTS + 0]
    elif mode == ASK_GREEDY:
        a = greedy_plus1(state, cfg, seat, n)
    elif mode == ASK_RANDOM:
        a = state[S_OPTS + _rand(state, S_RNG_P, n)]
    else:
        a = _decide(state, cfg, seat, np.int64(D_PLUS1), n)
    if a < 0:
        if log.shape[0] > 1:
            emit(log, EV_DECLINE, seat, die, D_PLUS1)
        return
    kind = a // PLUS1_KIND
    d = (a % PLUS1_KIND) // PLUS1_DIE
    s = a % PLUS1_DIE - 1
    if kind == 0:
        install_face(state, seat, d, s, np.int64(FC_POINTS_1), np.int64(-1), log)
    else:
        b = seat_base(seat) + F_FACE + d * N_SLOTS + s
        old = state[b]
        state[S_FACE_SUPPLY + old] += 1
        state[S_FACE_SUPPLY + old + 1] -= 1
        state[b] = old + 1
        state[seat_base(seat) + F_INSTALLS] += 1
        if log.shape[0] > 1:
            emit(log, EV_UPGRADE, seat, d, s + 1, old + 1, old)


@njit(cache=True)
def start_shop(state, cfg, seat, log):
    """RB-P1 / RB-P2: exchange k <= min(shop_max_stars, stars) stars for star_exchange[k]
    points, never doubled; ``shop_exchanges_per_landing`` exchanges; end check after each."""
    b = seat_base(seat)
    kcap = min(int(cfg[R_SHOP_MAX_STARS]), int(cfg[R_STAR_EXCHANGE]) - 1)
    for _ in range(int(cfg[R_SHOP_EXCHANGES_PER_LANDING])):
        kmax = min(kcap, state[b + F_STARS])
        if kmax <= 0:
            return
        for k in range(kmax + 1):
            state[S_OPTS + k] = k
        mode = _mode(state, cfg, seat)
        if mode == ASK_GREEDY:
            k = shop_k(state, cfg, seat, kmax)
        elif mode == ASK_RANDOM:
            k = state[S_OPTS + _rand(state, S_RNG_P, kmax + 1)]
        else:
            k = _decide(state, cfg, seat, np.int64(D_SHOP), kmax + 1)
        if k <= 0:
            return
        state[b + F_STARS] -= k
        if state[S_STAR_LIMITED]:
            state[S_STAR_SUPPLY] += k
        pts = int(cfg[R_STAR_EXCHANGE + 1 + k])
        state[b + F_SCORE] += pts
        state[b + F_PTS_SHOP] += pts
        state[b + F_STARS_CASHED] += k
        if log.shape[0] > 1:
            emit(log, EV_SHOP, seat, k, pts, state[b + F_SCORE], state[b + F_STARS])
        if end_check(state, cfg, ET_SHOP, log):
            return


@njit(cache=True, inline='always')
def landing(state, cfg, seat, die, to, passed, log):
    """RB-T7: the effect of the space where a movement ends (START shop, FACE install, +1).

    With ``shop_on_pass`` a movement that passed START (and did not end there) also shops once
    (AMB-02), before the landing effect.
    """
    kind = state[S_SPACE_KIND + to]
    if kind == SP_START:
        start_shop(state, cfg, seat, log)
        return
    if passed and cfg[R_SHOP_ON_PASS] > 0.5:
        start_shop(state, cfg, seat, log)
        if state[S_ENDED]:
            return
    if kind == SP_FACE:
        offer_face(state, cfg, seat, die, state[S_SPACE_FACE + to], log)
    elif kind == SP_PLUS1:
        plus1_space(state, cfg, seat, die, log)


@njit(cache=True)
def _move_options(state, seat, dmin, dmax, optional):
    """Legal moves ``dist * 16 + monkey`` for dist in [dmin, dmax], every monkey; -1 when the
    move may be declined (RB-T6, AMB-04)."""
    n = 0
    for dist in range(dmin, dmax + 1):
        for m in range(state[S_N_MONKEYS]):
            state[S_OPTS + n] = dist * MOVE_CODE + m
            n += 1
    if optional:
        state[S_OPTS + n] = -1
        n += 1
    return n


@njit(cache=True)
def number_result(state, cfg, seat, die, dmin, dmax, optional, dp, log):
    """RB-T6 / RB-F13 / RB-F14: move one own monkey N in [dmin, dmax], or decline if allowed;
    RB-T6 / RB-T10: the monkey moves clockwise (wrapping), then the landing effect applies with
    ``die`` as the moving die (RB-T7). Passed spaces have no effect."""
    n = _move_options(state, seat, dmin, dmax, optional)
    state[S_CTX_DIE] = die
    state[S_CTX_DIST] = dmin
    mode = _mode(state, cfg, seat)
    if n == 1:
        a = state[S_OPTS + 0]
    elif mode == ASK_GREEDY:
        a = greedy_move(state, cfg, seat, n)
    elif mode == ASK_RANDOM:
        a = state[S_OPTS + _rand(state, S_RNG_P, n)]
    else:
        a = _decide(state, cfg, seat, dp, n)
    if a < 0:
        if log.shape[0] > 1:
            emit(log, EV_DECLINE, seat, die, dp)
        return
    monkey = a % MOVE_CODE
    dist = a // MOVE_CODE
    b = seat_base(seat)
    L = state[S_TRACK_LEN]
    st = state[S_START_INDEX]
    frm = state[b + F_MONKEY + monkey]
    passed = 0
    for i in range(1, dist):
        if (frm + i) % L == st:
            passed = 1
    to = (frm + dist) % L
    state[b + F_MONKEY + monkey] = to
    state[b + F_MOVES] += 1
    if log.shape[0] > 1:
        emit(log, EV_MOVE, seat, monkey, frm, to, dist, die, passed)
    kind = state[S_SPACE_KIND + to]
    if kind != SP_EMPTY or (passed and cfg[R_SHOP_ON_PASS] > 0.5):
        landing(state, cfg, seat, die, to, passed, log)


@njit(cache=True, inline='always')
def lower_ringmaster(state, cfg, seat, source, log):
    """RB-E1: R falls by ringmaster_step (never rises); then the end check (RB-E2)."""
    r0 = state[S_R]
    state[S_R] = r0 - int(cfg[R_RINGMASTER_STEP])
    state[S_RM_DROPS] += 1
    state[seat_base(seat) + F_RM_DROPS] += 1
    if log.shape[0] > 1:
        emit(log, EV_RINGMASTER, seat, r0, state[S_R], source)
    return end_check(state, cfg, ET_RINGMASTER, log)


@njit(cache=True)
def ringmaster_result(state, cfg, seat, die, log):
    """RB-T8: R -= step (mandatory), end check, then an optional move of
    ``ringmaster_face_move`` with ``die`` as the moving die (AMB-24: decrement first)."""
    if lower_ringmaster(state, cfg, seat, FC_RINGMASTER, log):
        return
    dist = int(cfg[R_RINGMASTER_FACE_MOVE])
    if dist > 0:
        # optional = (dist > 0) = True, as a bool like the other call sites
        number_result(state, cfg, seat, die, dist, dist, dist > 0, np.int64(D_RM_MOVE), log)


# ==== face abilities (RB-F1 .. RB-F12) =====================================================
@njit(cache=True, inline='always')
def gain_token(state, seat, token, amount, mult, log):
    """RB-F11 / RB-F12: gain ``amount`` gold or stars, capped by a limited supply."""
    b = seat_base(seat)
    if token == TK_GOLD:
        got = _deal(state, S_GOLD_SUPPLY, S_GOLD_LIMITED, amount)
        state[b + F_GOLD] += got
        state[b + F_GOLD_GAINED] += got
        if log.shape[0] > 1:
            emit(log, EV_TOKEN, seat, TK_GOLD, got, state[b + F_GOLD], mult)
    else:
        got = _deal(state, S_STAR_SUPPLY, S_STAR_LIMITED, amount)
        state[b + F_STARS] += got
        state[b + F_STARS_GAINED] += got
        if log.shape[0] > 1:
            emit(log, EV_TOKEN, seat, TK_STAR, got, state[b + F_STARS], mult)


@njit(cache=True)
def rank_1234(state, cfg, seat, mult, log):
    """RB-F4: r = 1 + #players with a strictly greater score; + rank_points[r] x mult."""
    me = state[seat_base(seat) + F_SCORE]
    r = 1
    for p in range(state[S_N_PLAYERS]):
        if state[seat_base(p) + F_SCORE] > me:
            r += 1
    pts = int(cfg[R_RANK_POINTS + 1 + min(r, 4) - 1]) * mult
    if log.shape[0] > 1:
        emit(log, EV_RANK, seat, r, pts, mult)
    gain_points(state, cfg, seat, pts, FC_RANK, F_PTS_RANK, log)


@njit(cache=True)
def train_ride(state, cfg, seat, mult, log):
    """RB-F7: + train_track[train_pos] x mult, then the train advances once (even doubled)."""
    pos = state[S_TRAIN_POS]
    v = state[S_TRAIN_TRACK + pos]
    state[S_TRAIN_POS] = (pos + 1) % state[S_TRAIN_LEN]
    state[S_TRAIN_MOVES] += 1
    if log.shape[0] > 1:
        emit(log, EV_TRAIN, seat, v, mult, v * mult, state[S_TRAIN_POS])
    gain_points(state, cfg, seat, v * mult, FC_TRAIN, F_PTS_TRAIN, log)


@njit(cache=True)
def thief(state, cfg, seat, mult, log):
    """RB-F2: clockwise from the left, each opponent holding a star, gold or stock gives one
    token of a type the active player chooses (D12). Not doubled unless
    ``double_affects_thief`` (then mult tokens of that type, AMB-20). No stock scoring."""
    n = state[S_N_PLAYERS]
    amount = mult if cfg[R_DOUBLE_AFFECTS_THIEF] > 0.5 else 1
    me = seat_base(seat)
    took = 0
    for i in range(1, n):
        v = (seat + i) % n
        vb = seat_base(v)
        k = 0
        for t in range(3):
            if state[vb + F_GOLD + t] > 0:
                state[S_OPTS + k] = t
                k += 1
        if k == 0:
            continue
        state[S_CTX_VICTIM] = v
        t = _decide(state, cfg, seat, np.int64(D_THIEF), k)
        got = min(amount, state[vb + F_GOLD + t])
        state[vb + F_GOLD + t] -= got
        state[me + F_GOLD + t] += got
        state[me + F_STEALS] += got
        state[vb + F_STOLEN] += got
        took += got
        if log.shape[0] > 1:
            emit(log, EV_THEFT, seat, v, t, got)
    if took == 0:
        if log.shape[0] > 1:
            emit(log, EV_NO_EFFECT, seat, state[S_CTX_DIE], FC_THIEF, NE_THIEF_NOBODY)


@njit(cache=True)
def stock_scoring(state, cfg, log):
    """RB-F10 (AMB-18/19), atomic: groups by stock count (descending, holders only).

    Sole holder of all: monopoly; sole first: first, then sole second or each tied second;
    tied first: each tie_first, the next group after_tie_first. Later groups nothing. Then all
    stocks return (supply = stock_count) and the end check runs.
    """
    n = state[S_N_PLAYERS]
    c1 = 0
    for p in range(n):
        c1 = max(c1, state[seat_base(p) + F_STOCKS])
    c2 = 0
    n1 = 0
    n2 = 0
    for p in range(n):
        c = state[seat_base(p) + F_STOCKS]
        if c == c1 and c > 0:
            n1 += 1
        elif 0 < c < c1:
            c2 = max(c2, c)
    for p in range(n):
        if 0 < state[seat_base(p) + F_STOCKS] == c2:
            n2 += 1
    for p in range(n):
        b = seat_base(p)
        c = state[b + F_STOCKS]
        pay = 0
        if c > 0 and c == c1:
            if n1 == 1 and n2 == 0:
                pay = int(cfg[R_STOCK_PAY_MONOPOLY])
            elif n1 == 1:
                pay = int(cfg[R_STOCK_PAY_FIRST])
            else:
                pay = int(cfg[R_STOCK_PAY_TIE_FIRST])
        elif c > 0 and c == c2:
            if n1 > 1:
                pay = int(cfg[R_STOCK_PAY_AFTER_TIE_FIRST])
            elif n2 == 1:
                pay = int(cfg[R_STOCK_PAY_SECOND])
            else:
                pay = int(cfg[R_STOCK_PAY_TIE_SECOND])
        state[b + F_SCORE] += pay
        state[b + F_PTS_STOCK] += pay
        if c > 0:
            if log.shape[0] > 1:
                emit(log, EV_STOCK_PAY, p, c, pay, state[b + F_SCORE])
    for p in range(n):
        state[seat_base(p) + F_STOCKS] = 0
    state[S_STOCK_SUPPLY] = state[S_STOCK_COUNT]
    state[S_STOCK_SCORINGS] += 1
    end_check(state, cfg, ET_STOCK, log)


@njit(cache=True)
def take_stock(state, cfg, seat, log):
    """RB-F9: take a stock if the supply has one; an emptied supply scores at once (RB-F10).
    Never doubled."""
    if state[S_STOCK_SUPPLY] < 1:
        if log.shape[0] > 1:
            emit(log, EV_NO_EFFECT, seat, state[S_CTX_DIE], FC_STOCK, NE_NO_STOCK)
        return
    b = seat_base(seat)
    state[b + F_STOCKS] += 1
    state[b + F_STOCKS_TAKEN] += 1
    state[S_STOCK_SUPPLY] -= 1
    if log.shape[0] > 1:
        emit(log, EV_STOCK, seat, state[b + F_STOCKS], state[S_STOCK_SUPPLY])
    if state[S_STOCK_SUPPLY] == 0:
        stock_scoring(state, cfg, log)


@njit(cache=True)
def gamble(state, cfg, seat, die, log):
    """RB-F6: roll the gamble die once: points (never doubled); RINGMASTER lowers R with no
    move; NINE moves a monkey N in [nine_move_min, nine_move_max] with this die as the moving
    die (AMB-13)."""
    g = state[S_GAMBLE + _draw_gamble(state)]
    if log.shape[0] > 1:
        emit(log, EV_GAMBLE, seat, die, g)
    if g == GB_RINGMASTER:
        lower_ringmaster(state, cfg, seat, FC_GAMBLE, log)
    elif g == GB_NINE:
        number_result(state, cfg, seat, die, int(cfg[R_NINE_MOVE_MIN]),
                      int(cfg[R_NINE_MOVE_MAX]), cfg[R_MOVE_OPTIONAL] > 0.5, np.int64(D_NINE),
                      log)
    else:
        gain_points(state, cfg, seat, g, FC_GAMBLE, F_PTS_GAMBLE, log)


@njit(cache=True, inline='always')
def resolve_die(state, cfg, seat, die, log):
    """RB-T5b: resolve one rolled die completely; the face is read now (arrows followed,
    RB-F3), with the Doubles assigned to it (RB-F5). Then its result face applies (RB-T6,
    RB-T8, RB-T9, RB-F1 .. RB-F15)."""
    s = state[S_UP_SLOT + die]
    f, via = follow_arrow(state, seat, die, s)
    mult = double_mult(state, cfg, die)
    if log.shape[0] > 1:
        emit(log, EV_RESOLVE, seat, die, s + 1, face_at(state, seat, die, s), f, mult)
    if via and f == FC_EMPTY:
        if log.shape[0] > 1:
            emit(log, EV_NO_EFFECT, seat, die, FC_ARROW, NE_CYCLE)
        return
    if via and is_number_face(f) and int(cfg[R_ARROW_NUMBER_MODE]) == ARROWNUM_NONE:
        if log.shape[0] > 1:
            emit(log, EV_NO_EFFECT, seat, die, f, NE_ARROW_NUMBER)
        return
    state[S_CTX_DIE] = die
    if f == FC_RINGMASTER:
        ringmaster_result(state, cfg, seat, die, log)
    elif FC_PIP_2 <= f <= FC_PIP_6:
        number_result(state, cfg, seat, die, f, f, cfg[R_MOVE_OPTIONAL] > 0.5, np.int64(D_MOVE), log)
    elif f == FC_NINE:
        number_result(state, cfg, seat, die, int(cfg[R_NINE_MOVE_MIN]),
                      int(cfg[R_NINE_MOVE_MAX]), cfg[R_MOVE_OPTIONAL] > 0.5, np.int64(D_NINE), log)
    elif FC_POINTS_1 <= f <= FC_POINTS_5:
        gain_points(state, cfg, seat, (f - FC_POINTS_1 + 1) * mult, f, F_PTS_FACES, log)
    elif f == FC_THIEF:
        thief(state, cfg, seat, mult, log)
    elif f == FC_RANK:
        rank_1234(state, cfg, seat, mult, log)
    elif f == FC_GAMBLE:
        gamble(state, cfg, seat, die, log)
    elif f == FC_TRAIN:
        train_ride(state, cfg, seat, mult, log)
    elif f == FC_STOCK:
        take_stock(state, cfg, seat, log)
    elif f == FC_STAR:
        gain_token(state, seat, TK_STAR, mult, mult, log)
    elif f == FC_GOLD:
        gain_token(state, seat, TK_GOLD, mult, mult, log)
    elif f == FC_REROLL:
        if log.shape[0] > 1:
            emit(log, EV_NO_EFFECT, seat, die, f, NE_REROLL_LATE)
    elif f == FC_DOUBLE:
        if log.shape[0] > 1:
            emit(log, EV_NO_EFFECT, seat, die, f, NE_DOUBLE_DIE)


@njit(cache=True, inline='always')
def _resolution_phase(state, cfg, seat, log):
    """RB-T5b / AMB-25: repeatedly pick an unresolved rolled die (D05) and resolve it, until
    all are resolved or the game ends (RB-E2, AMB-28)."""
    nd = state[S_N_DICE]
    while not state[S_ENDED]:
        un = state[S_ROLLED] & ~state[S_RESOLVED]
        if un == 0:
            return
        n = 0
        for d in range(nd):
            if (un >> d) & 1:
                state[S_OPTS + n] = d
                n += 1
        mode = _mode(state, cfg, seat)
        if n == 1:
            d = state[S_OPTS + 0]
        elif mode == ASK_GREEDY:
            d = greedy_order(state, cfg, seat, n)
        elif mode == ASK_RANDOM:
            d = state[S_OPTS + _rand(state, S_RNG_P, n)]
        else:
            d = _decide(state, cfg, seat, np.int64(D_ORDER), n)
        state[S_RESOLVED] |= 1 << d
        resolve_die(state, cfg, seat, d, log)


@njit(cache=True, inline='always')
def begin_turn(state, seat, log):
    """Reset the per-turn fields for ``seat``'s turn."""
    state[S_ACTIVE] = seat
    state[S_TURN] += 1
    state[S_ROLLED] = 0
    state[S_RESOLVED] = 0
    state[S_REROLL_EVENTS] = 0
    for d in range(MAX_DICE):
        state[S_DBL_COUNT + d] = 0
        state[S_DBL_TARGET + d] = -1
        state[S_UP_SLOT + d] = 0
    b = seat_base(seat)
    state[b + F_TURNS] += 1
    if log.shape[0] > 1:
        n = state[S_N_PLAYERS]
        if log.shape[0] > 1:
            emit(log, EV_TURN, seat, state[S_TURN], (state[S_TURN] - 1) // n + 1, state[S_R],
                state[b + F_SCORE])


@njit(cache=True, inline='always')
def _play_turn(state, cfg, log):
    """One turn of the active seat: RB-T1 extra dice, RB-T2/T3 roll, RB-T4 roll phase,
    RB-T5 resolution; RB-T12 then passes the turn clockwise unless the game ended."""
    seat = state[S_ACTIVE]
    begin_turn(state, seat, log)
    e = _pay_extra_dice(state, cfg, seat, log)
    _choose_and_roll(state, cfg, seat, e, log)
    # RB-T4 / RB-T5a only do something when a rolled die shows REROLL / DOUBLE
    nd = state[S_N_DICE]
    rolled = state[S_ROLLED]
    special = False
    for d in range(nd):
        if (rolled >> d) & 1:
            f = die_result(state, cfg, seat, d)
            if f == FC_REROLL or f == FC_DOUBLE:
                special = True
    if special:
        _reroll_phase(state, cfg, seat, log)
        _declare_doubles(state, cfg, seat, log)
    _resolution_phase(state, cfg, seat, log)
    if not state[S_ENDED]:
        state[S_ACTIVE] = (seat + 1) % state[S_N_PLAYERS]


# ==== game end (RB-E3 .. RB-E5) and entry points =============================================
@njit(cache=True, inline='always')
def tokens_held(state, seat):
    """gold + stocks + stars, the RB-E3 tiebreak."""
    b = seat_base(seat)
    return state[b + F_GOLD] + state[b + F_STARS] + state[b + F_STOCKS]


@njit(cache=True)
def final_ranks(state, ranks):
    """RB-E3: rank by score, then tokens; ties on both share the rank (1 = best).

    Returns
    -------
    (n_winners, winner_seat): winner_seat = -1 when the win is shared.
    """
    n = state[S_N_PLAYERS]
    nw = 0
    ws = -1
    for p in range(n):
        sp = state[seat_base(p) + F_SCORE]
        tp = tokens_held(state, p)
        r = 1
        for q in range(n):
            sq = state[seat_base(q) + F_SCORE]
            if sq > sp or (sq == sp and tokens_held(state, q) > tp):
                r += 1
        ranks[p] = r
        if r == 1:
            nw += 1
            ws = p
    if nw != 1:
        ws = -1
    return nw, ws


@njit(cache=True)
def run_game(state, cfg, log):
    """Play turns clockwise from seat 0 until the end check fires or ``max_turns`` player
    turns have been played (RB-E5: flagged truncated)."""
    max_turns = int(cfg[R_MAX_TURNS])
    while not state[S_ENDED]:
        if state[S_TURN] >= max_turns:
            state[S_TRUNCATED] = 1
            if log.shape[0] > 1:
                emit(log, EV_TRUNCATED, state[S_TURN])
            return
        _play_turn(state, cfg, log)


@njit(cache=True)
def write_results(state, games_row, seats_rows, opts, log):
    """Fill the output row and the seat rows through their declared indices (``GO_*``,
    ``SO_*`` of ``layout.GAME_OUT`` / ``layout.SEAT_OUT``). ``opts`` receives the ranks."""
    n = state[S_N_PLAYERS]
    nw, ws = final_ranks(state, opts)
    turns = state[S_TURN]
    games_row[GO_ROUNDS] = (turns + n - 1) // n
    games_row[GO_TRUNCATED] = state[S_TRUNCATED]
    games_row[GO_N_WINNERS] = nw
    games_row[GO_WINNER_SEAT] = ws
    games_row[GO_END_REASON] = 1 if state[S_TRUNCATED] else 0   # SPEC.end_reasons
    games_row[GO_END_TRIGGER] = state[S_END_TRIGGER]
    games_row[GO_END_SEAT] = state[S_END_SEAT]
    games_row[GO_RINGMASTER_FINAL] = state[S_R]
    games_row[GO_TURNS] = turns
    games_row[GO_RINGMASTER_DROPS] = state[S_RM_DROPS]
    games_row[GO_STOCK_SCORINGS] = state[S_STOCK_SCORINGS]
    games_row[GO_TRAIN_RIDES] = state[S_TRAIN_MOVES]
    games_row[GO_TILES_MASK] = state[S_TILES_MASK]
    games_row[GO_START_CHAIR] = state[S_START_CHAIR]
    for p in range(n):
        b = seat_base(p)
        row = seats_rows[p]
        row[SO_SCORE] = state[b + F_SCORE]
        row[SO_RANK] = opts[p]
        row[SO_WON] = 1 if opts[p] == 1 else 0
        row[SO_GOLD] = state[b + F_GOLD]
        row[SO_STARS] = state[b + F_STARS]
        row[SO_STOCKS] = state[b + F_STOCKS]
        row[SO_TOKENS] = tokens_held(state, p)
        row[SO_TURNS_TAKEN] = state[b + F_TURNS]
        row[SO_DICE_ROLLED] = state[b + F_DICE_ROLLED]
        row[SO_EXTRA_DICE] = state[b + F_EXTRA_DICE]
        row[SO_GOLD_SPENT] = state[b + F_GOLD_SPENT]
        row[SO_INSTALLS] = state[b + F_INSTALLS]
        row[SO_MOVES] = state[b + F_MOVES]
        row[SO_STEALS] = state[b + F_STEALS]
        row[SO_STOLEN] = state[b + F_STOLEN]
        row[SO_PTS_FACES] = state[b + F_PTS_FACES]
        row[SO_PTS_SHOP] = state[b + F_PTS_SHOP]
        row[SO_PTS_STOCK] = state[b + F_PTS_STOCK]
        row[SO_PTS_TRAIN] = state[b + F_PTS_TRAIN]
        row[SO_PTS_RANK] = state[b + F_PTS_RANK]
        row[SO_PTS_GAMBLE] = state[b + F_PTS_GAMBLE]
        row[SO_RINGMASTER_DROPS] = state[b + F_RM_DROPS]
        row[SO_STARS_CASHED] = state[b + F_STARS_CASHED]
        row[SO_GOLD_GAINED] = state[b + F_GOLD_GAINED]
        row[SO_STARS_GAINED] = state[b + F_STARS_GAINED]
        row[SO_STOCKS_TAKEN] = state[b + F_STOCKS_TAKEN]
        row[SO_REROLLS] = state[b + F_REROLLS]
    if log.shape[0] > 1:
        emit(log, EV_END, state[S_END_TRIGGER], state[S_END_SEAT], state[S_R], ws, nw)


@njit(cache=True)
def _play(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
          scratch, games_row, seats_rows, log):
    """Set up and play one game in the caller's arrays (``state``, ``cfg``, ``scratch``),
    with its own streams, and write its result rows.

    The rules run on borrowed views of the arguments (``sim.borrow``: no reference counting in
    the thousands of calls a game makes); the caller keeps the arrays alive during the call."""
    _play_game(borrowed(rules), borrowed(comp), n_players, borrowed(kinds), borrowed(pparams),
               master_seed, game_index, borrowed(state), borrowed(cfg), borrowed(scratch),
               borrowed(games_row), borrowed(seats_rows), borrowed(log))


@njit(cache=True)
def _play_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
               scratch, games_row, seats_rows, log):
    """The body of ``_play``."""
    rng_s = make_stream(master_seed, game_index, np.int64(SUB_SETUP))
    setup_game(state, rules, comp, n_players, rng_s, scratch, log)
    state[S_RNG_D] = np.int64(stream_start(master_seed, game_index, np.int64(SUB_DICE)))
    state[S_RNG_P] = np.int64(stream_start(master_seed, game_index, np.int64(SUB_POLICY)))
    fill_cfg(cfg, state, rules, kinds, pparams)
    run_game(state, cfg, log)
    write_results(state, games_row, seats_rows, scratch, log)


@njit(cache=True)
def play_one(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index,
             games_row, seats_rows, log):
    """Play game ``game_index`` of the run ``master_seed`` with an event log (replay).

    Parameters
    ----------
    rules : float64[R_LEN]
    comp : tuple of component arrays
    n_players : int
    policy_kind : int64[n_players]
    policy_params : float64[n_players, P_LEN]
    master_seed : uint64
    game_index : int64
    games_row : int64[len(game_column_names)]   (output)
    seats_rows : int64[n_players, len(seat_column_names)]   (output)
    log : int64[capacity + 1, EV_WIDTH]
    """
    state = np.zeros(state_size(n_players), dtype=np.int64)
    cfg = np.zeros(C_LEN, dtype=np.float64)
    scratch = np.zeros(MAX_OPTS, dtype=np.int64)
    _play(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index, state,
          cfg, scratch, games_row, seats_rows, log)


@njit(cache=True, parallel=True)
def play_many(rules, comp, n_players, policy_kind, policy_params, master_seed, first_index,
              games_out, seats_out):
    """Play games ``first_index + i`` for i < games_out.shape[0]; each writes only its row.

    Games run in blocks of BLOCK_GAMES; each block (one ``prange`` iteration) reuses its
    scratch. The shared read-only inputs are only read through borrowed views (``_play``), so
    the threads never contend for their reference counts. A game is a pure function of
    (seed, index): results do not depend on the blocks or the threads. Returns nothing; fills
    ``games_out[i]``, ``seats_out[i]``.
    """
    n_games = games_out.shape[0]
    n_blocks = (n_games + BLOCK_GAMES - 1) // BLOCK_GAMES
    for blk in prange(n_blocks):
        state = np.zeros(state_size(n_players), dtype=np.int64)
        cfg = np.zeros(C_LEN, dtype=np.float64)
        scratch = np.zeros(MAX_OPTS, dtype=np.int64)
        grow = np.zeros(games_out.shape[1], dtype=np.int64)
        srows = np.zeros((n_players, seats_out.shape[2]), dtype=np.int64)
        log = np.zeros((1, 8), dtype=np.int64)
        lo = blk * BLOCK_GAMES
        hi = min(lo + BLOCK_GAMES, n_games)
        for i in range(lo, hi):
            _play(rules, comp, n_players, policy_kind, policy_params, master_seed,
                  first_index + i, state, cfg, scratch, grow, srows, log)
            for j in range(grow.shape[0]):
                games_out[i, j] = grow[j]
            for p in range(n_players):
                for j in range(srows.shape[1]):
                    seats_out[i, p, j] = srows[p, j]
