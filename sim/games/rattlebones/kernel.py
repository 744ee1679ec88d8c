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

The game is a resumable step machine (``sim.decide``): the state holds the whole position,
with the control position ``S_PHASE`` and the options block, so ``advance`` / ``apply_option``
/ ``choose`` / ``finish`` (and ``new_game``) can stop and resume at any decision, and a copy of
the state plays on like the original. ``play_many`` runs the same steps with the policies
deciding in place (``_steps``).
"""
import numpy as np
from numba import njit

from sim.borrow import borrowed, no_refcount_module, no_wraparound_module, whole_program
from sim.decide import random_index
from sim.rng import (SUB_DICE, SUB_POLICY, SUB_SETUP, draw, make_stream, randint, shuffle, start_in,
                     substream_in)
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
                     NE_NO_STOCK, NE_REROLL_LATE, NE_THIEF_NOBODY, N_FACES, N_GAMBLE, N_SLOTS,
                     PH_ARROW, PH_DICE, PH_DOUBLES, PH_LAND, PH_MOVE, PH_ORDER, PH_OVER, PH_REROLL,
                     PH_SHOP, PH_THIEF, PH_TURN, PLUS1_DIE, PLUS1_KIND, SEAT0, SEAT_LEN,
                     SO_DICE_ROLLED, SO_EXTRA_DICE, SO_GOLD, SO_GOLD_GAINED, SO_GOLD_SPENT,
                     SO_INSTALLS, SO_MOVES, SO_PTS_FACES, SO_PTS_GAMBLE, SO_PTS_RANK, SO_PTS_SHOP,
                     SO_PTS_STOCK, SO_PTS_TRAIN, SO_RANK, SO_REROLLS, SO_RINGMASTER_DROPS,
                     SO_SCORE, SO_STARS, SO_STARS_CASHED, SO_STARS_GAINED, SO_STEALS, SO_STOCKS,
                     SO_STOCKS_TAKEN, SO_STOLEN, SO_TOKENS, SO_TURNS_TAKEN, SO_WON, SPC_FACE,
                     SPC_KIND, SP_EMPTY, SP_FACE, SP_PLUS1, SP_SLOT, SP_START, S_ACTIVE, S_CTX_DIE,
                     S_CTX_DIST, S_CTX_DMAX, S_CTX_FACE, S_CTX_SLOT, S_CTX_VICTIM, S_CURSOR,
                     S_DBL_COUNT, S_DBL_TARGET, S_DECIDER, S_ENDED, S_END_SEAT, S_END_TRIGGER,
                     S_EXTRA, S_FACE_SUPPLY, S_FIRST_SEAT, S_FORCE, S_FORCE_N, S_FORCE_POS,
                     S_GAMBLE, S_GOLD_LIMITED, S_GOLD_SUPPLY, S_LAND, S_MOVE_POINT, S_N_DICE,
                     S_N_MONKEYS, S_N_OPTIONS, S_N_PLAYERS, S_OPP, S_OPTIONS, S_PHASE, S_POINT,
                     S_R, S_REROLL_EVENTS, S_RESOLVED, S_RM_DROPS, S_RNG_D, S_RNG_P, S_ROLLED,
                     S_SHOP_LEFT, S_SPACE_FACE, S_SPACE_KIND, S_START_CHAIR, S_START_INDEX,
                     S_STAR_LIMITED, S_STAR_SUPPLY, S_STOCK_COUNT, S_STOCK_SCORINGS,
                     S_STOCK_SUPPLY, S_THIEF_AMOUNT, S_THIEF_TOOK, S_TILES_MASK, S_TRACK_LEN,
                     S_TRAIN_LEN, S_TRAIN_MOVES, S_TRAIN_POS, S_TRAIN_TRACK, S_TRUNCATED, S_TURN,
                     S_UP_SLOT, TK_GOLD, TK_STAR, TOK_GOLD, TOK_STAR, TOK_STOCK, TRD_N, TRD_START,
                     TRD_VALUES)
from .policies import (fill_cfg, greedy, greedy_arrow, greedy_dice, greedy_double, greedy_extra_dice,
                       greedy_install, greedy_move, greedy_order, greedy_plus1, greedy_reroll,
                       greedy_thief, shop_k)
from .rules import (ARROWNUM_NONE, ARROW_ANY, C_LEN, R_ACTION_FACE_SUPPLY, R_ARROW_NUMBER_MODE,
                    R_ARROW_TARGETS, R_BOARD_PRESET, R_DOUBLE_AFFECTS_THIEF, R_DOUBLE_STACKING,
                    R_END_INCLUSIVE, R_GAMBLE_FACES, R_GOLD_PER_EXTRA_DIE, R_GOLD_SUPPLY,
                    R_MAX_DICE_PER_TURN, R_MAX_TURNS, R_MOVE_OPTIONAL, R_NINE_MOVE_MAX,
                    R_NINE_MOVE_MIN, R_N_DICE, R_N_MONKEYS, R_PLUS1_ANY_DIE, R_POINT_FACE_MAX,
                    R_POINT_FACE_SUPPLY, R_RANK_POINTS, R_REROLL_MANDATORY, R_REROLL_SECOND_SCOPE,
                    R_RINGMASTER_FACE_MOVE, R_RINGMASTER_START_2P, R_RINGMASTER_START_3P,
                    R_RINGMASTER_START_4P, R_RINGMASTER_STEP, R_SEAT_BONUS_GOLD,
                    R_SEAT_BONUS_POINTS, R_SHOP_EXCHANGES_PER_LANDING, R_SHOP_MAX_STARS,
                    R_SHOP_ON_PASS, R_STARTING_GOLD, R_STARTING_STARS, R_STAR_EXCHANGE,
                    R_STAR_SUPPLY, R_STOCK_COUNT, R_STOCK_PAY_AFTER_TIE_FIRST, R_STOCK_PAY_FIRST,
                    R_STOCK_PAY_MONOPOLY, R_STOCK_PAY_SECOND, R_STOCK_PAY_TIE_FIRST,
                    R_STOCK_PAY_TIE_SECOND, R_TILES_USED, R_TILE_POOL, R_TRAIN_TRACK,
                    SCOPE_REROLL_ONLY, STACK_FORBID)

# The game loop only sees arrays its callers own (sim.borrow). These allocate or receive arrays
# a callee allocated: the batch entry points, the set-up of a new game and its setup stream.
no_refcount_module(__name__, exclude=("_begin", "new_game", "play_one", "play_many"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)
# a run's and a replay's calls are private to them (sim.borrow)
whole_program(__name__, "play_many")
whole_program(__name__, "play_one")

BLOCK_GAMES = 32   # games per block of play_many (one state array reused)


# ==== small helpers =========================================================================


@njit(cache=True)
def state_size(n_players):
    """Length of the state array for ``n_players`` seats."""
    return SEAT0 + n_players * SEAT_LEN


@njit(cache=True)
def _popcount(x):
    """Number of set bits of a small non-negative int."""
    c = 0
    while x:
        c += x & 1
        x >>= 1
    return c


@njit(cache=True)
def is_action_face(f):
    """True for the 11 action faces of the supply (§2.5)."""
    return f == FC_NINE or FC_THIEF <= f <= FC_GOLD


@njit(cache=True)
def _draw_slot(state):
    """One die roll: a uniform slot index 0..5 (RB-T3), or the next forced draw (tests).

    Forced draws are slot numbers 1..6.
    """
    p = state[S_FORCE_POS]
    if p < state[S_FORCE_N]:
        state[S_FORCE_POS] = p + 1
        return state[S_FORCE + p] - 1
    return draw(state, S_RNG_D, N_SLOTS)


@njit(cache=True)
def _draw_gamble(state):
    """One gamble-die roll: a uniform face index 0..5 (RB-F6), or the next forced draw."""
    p = state[S_FORCE_POS]
    if p < state[S_FORCE_N]:
        state[S_FORCE_POS] = p + 1
        return state[S_FORCE + p]
    return draw(state, S_RNG_D, N_GAMBLE)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


# ==== the step machine (sim.decide) ============================================================
# The turn (RB-T1 .. RB-T12) is a chain of steps driven by the control position S_PHASE. A
# ``_list_*`` step lists the legal options of the decision at the current position into the
# options block and returns their count (0: nothing to decide there, the step moved on);
# ``_apply`` carries out one option and sets the position where play goes on. Each resolution
# that needs a decision (a move, a shop visit, an install, a thief) records what follows it in
# the continuation fields (S_CTX_*, S_LAND, S_SHOP_LEFT, S_CURSOR, S_THIEF_*), so nothing is
# kept on the call stack between two decisions.


# ---- turn start: extra dice, dice choice, roll (RB-T1 .. RB-T3) ------------------------------
@njit(cache=True)
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


@njit(cache=True)
def roll_die(state, cfg, seat, die, event, log):
    """RB-T3: the die shows a uniform slot; its result is the face there."""
    s = _draw_slot(state)
    state[S_UP_SLOT + die] = s
    state[seat_base(seat) + F_DICE_ROLLED] += 1
    if log.shape[0] > 1:
        emit(log, EV_ROLL, seat, die, s + 1, face_at(state, seat, die, s),
            die_result(state, cfg, seat, die), event)


@njit(cache=True)
def _list_extra(state, rules, seat):
    """RB-T1 (D01): e extra dice, 0 <= e <= min(max_dice_per_turn - 1, gold / cost)."""
    cost = int(rules[R_GOLD_PER_EXTRA_DIE])
    emax = min(int(rules[R_MAX_DICE_PER_TURN]), state[S_N_DICE]) - 1
    if cost > 0:
        emax = min(emax, state[seat_base(seat) + F_GOLD] // cost)
    if emax <= 0:
        state[S_OPTIONS] = 0
        return 1
    for e in range(emax + 1):
        state[S_OPTIONS + e] = e
    return emax + 1


@njit(cache=True)
def _pay_extra(state, rules, seat, e, log):
    """RB-T1: pay for ``e`` extra dice; the dice choice (RB-T2) follows."""
    if e > 0:
        b = seat_base(seat)
        paid = e * int(rules[R_GOLD_PER_EXTRA_DIE])
        state[b + F_GOLD] -= paid
        if state[S_GOLD_LIMITED]:
            state[S_GOLD_SUPPLY] += paid
        state[b + F_GOLD_SPENT] += paid
        state[b + F_EXTRA_DICE] += e
        if log.shape[0] > 1:
            emit(log, EV_EXTRA, seat, e, paid, state[b + F_GOLD])
    state[S_EXTRA] = e
    state[S_PHASE] = PH_DICE


@njit(cache=True)
def _list_dice(state):
    """RB-T2 (D02): the masks of 1 + e distinct own dice."""
    nd = state[S_N_DICE]
    want = 1 + state[S_EXTRA]
    n = 0
    for mask in range(1, 1 << nd):
        if _popcount(mask) == want:
            state[S_OPTIONS + n] = mask
            n += 1
    return n


@njit(cache=True)
def _roll_chosen(state, rules, seat, mask, log):
    """RB-T3: roll the chosen dice in die-id order (RB-S11). RB-T4 / RB-T5a follow only when a
    rolled die shows REROLL or DOUBLE, else the resolution (RB-T5b)."""
    nd = state[S_N_DICE]
    state[S_ROLLED] = mask
    for d in range(nd):
        if (mask >> d) & 1:
            roll_die(state, rules, seat, d, 0, log)
    special = False
    for d in range(nd):
        if (mask >> d) & 1:
            f = die_result(state, rules, seat, d)
            if f == FC_REROLL or f == FC_DOUBLE:
                special = True
    state[S_PHASE] = PH_REROLL if special else PH_ORDER


@njit(cache=True)
def _reroll_set(state, rules, seat):
    """K of RB-F8: the rolled dice whose result is REROLL (arrows followed)."""
    rolled = state[S_ROLLED]
    k = 0
    for d in range(state[S_N_DICE]):
        if (rolled >> d) & 1 and die_result(state, rules, seat, d) == FC_REROLL:
            k |= 1 << d
    return k


@njit(cache=True)
def _list_reroll(state, rules, seat):
    """RB-T4 / RB-F8 (D03): Reroll applies while K is not empty, a die is unrolled and fewer
    than max_dice_per_turn dice are rolled (AMB-10, AMB-11); the options are the unrolled
    dice (and -1, not applying it, unless ``reroll_mandatory``). When it no longer applies the
    Doubles are declared (RB-T5a)."""
    nd = state[S_N_DICE]
    rolled = state[S_ROLLED]
    unrolled = ((1 << nd) - 1) & ~rolled
    if _reroll_set(state, rules, seat) == 0 or unrolled == 0 or \
            _popcount(rolled) >= int(rules[R_MAX_DICE_PER_TURN]):
        state[S_PHASE] = PH_DOUBLES
        state[S_CURSOR] = 0
        return 0
    n = 0
    for d in range(nd):
        if (unrolled >> d) & 1:
            state[S_OPTIONS + n] = d
            n += 1
    if rules[R_REROLL_MANDATORY] < 0.5:
        state[S_OPTIONS + n] = -1
        n += 1
    return n


@njit(cache=True)
def _reroll(state, rules, seat, u, log):
    """RB-F8: add die ``u`` (no gold); event 1 rerolls K + u, later events every rolled die
    (``reroll_second_scope = all``) or K + u (``reroll_only``). u = -1: Reroll not applied."""
    if u < 0:
        state[S_PHASE] = PH_DOUBLES
        state[S_CURSOR] = 0
        return
    k = _reroll_set(state, rules, seat)
    rolled = state[S_ROLLED] | (1 << u)
    state[S_ROLLED] = rolled
    state[S_REROLL_EVENTS] += 1
    ev = state[S_REROLL_EVENTS]
    state[seat_base(seat) + F_REROLLS] += 1
    if ev == 1 or int(rules[R_REROLL_SECOND_SCOPE]) == SCOPE_REROLL_ONLY:
        mask = k | (1 << u)
    else:
        mask = rolled
    if log.shape[0] > 1:
        emit(log, EV_REROLL, seat, ev, u, mask)
    for d in range(state[S_N_DICE]):
        if (mask >> d) & 1:
            roll_die(state, rules, seat, d, ev, log)


@njit(cache=True)
def _list_double(state, rules, seat, log):
    """RB-T5a / RB-F5 (D04): the next die (from S_CURSOR) whose result is DOUBLE is assigned
    to one other rolled die (AMB-08, AMB-09); a Double with no other die has no effect;
    ``forbid`` allows one Double per target. After the last die the resolution starts."""
    nd = state[S_N_DICE]
    rolled = state[S_ROLLED]
    forbid = int(rules[R_DOUBLE_STACKING]) == STACK_FORBID
    for d in range(state[S_CURSOR], nd):
        if not (rolled >> d) & 1 or die_result(state, rules, seat, d) != FC_DOUBLE:
            continue
        n = 0
        for t in range(nd):
            if t != d and (rolled >> t) & 1 and not (forbid and state[S_DBL_COUNT + t] > 0):
                state[S_OPTIONS + n] = t
                n += 1
        if n == 0:
            if log.shape[0] > 1:
                emit(log, EV_NO_EFFECT, seat, d, FC_DOUBLE, NE_DOUBLE_ALONE)
            continue
        state[S_CTX_DIE] = d
        state[S_CURSOR] = d
        return n
    state[S_PHASE] = PH_ORDER
    return 0


@njit(cache=True)
def _declare_double(state, seat, t, log):
    """RB-F5: the Double of die S_CTX_DIE applies to die ``t``."""
    d = state[S_CTX_DIE]
    state[S_DBL_COUNT + t] += 1
    state[S_DBL_TARGET + d] = t
    state[S_CURSOR] = d + 1
    if log.shape[0] > 1:
        emit(log, EV_DOUBLE, seat, d, t, state[S_DBL_COUNT + t])


@njit(cache=True)
def _list_order(state):
    """RB-T5b / AMB-25 (D05): the unresolved rolled dice, in die-id order."""
    un = state[S_ROLLED] & ~state[S_RESOLVED]
    n = 0
    for d in range(state[S_N_DICE]):
        if (un >> d) & 1:
            state[S_OPTIONS + n] = d
            n += 1
    return n


# ---- moves and landing effects (RB-T6, RB-T7, RB-P1 .. RB-P4) --------------------------------
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
            state[S_OPTIONS + n] = t + 1
            n += 1
    return n


@njit(cache=True)
def _plus1_options(state, rules, seat, die):
    """RB-P3 legal choices (encoded ``kind * 64 + die * 8 + slot``; -1 = decline).

    (a) POINTS_1 into slot 2..6 of the moving die (supply >= 1); (b) upgrade POINTS_k to
    POINTS_k+1, k < point_face_max, supply >= 1, on the moving die (any own die with
    ``plus1_any_die``, AMB-14); (c) decline. RB-P4: never past point_face_max or the supply.
    ``rules`` may be the rules or a ``cfg`` array.
    """
    n = 0
    state[S_OPTIONS + n] = -1
    n += 1
    if state[S_FACE_SUPPLY + FC_POINTS_1] >= 1:
        for s in range(1, N_SLOTS):
            state[S_OPTIONS + n] = die * PLUS1_DIE + s + 1
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
                    state[S_OPTIONS + n] = PLUS1_KIND + d * PLUS1_DIE + s + 1
                    n += 1
    return n


@njit(cache=True)
def _move_options(state, seat, dmin, dmax, optional):
    """Legal moves ``dist * 16 + monkey`` for dist in [dmin, dmax], every monkey; -1 when the
    move may be declined (RB-T6, AMB-04)."""
    n = 0
    for dist in range(dmin, dmax + 1):
        for m in range(state[S_N_MONKEYS]):
            state[S_OPTIONS + n] = dist * MOVE_CODE + m
            n += 1
    if optional:
        state[S_OPTIONS + n] = -1
        n += 1
    return n


@njit(cache=True)
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
def _start_move(state, die, dmin, dmax, dp):
    """RB-T6 / RB-F13 / RB-F14: ``die`` moves one own monkey N in [dmin, dmax] (decision
    ``dp``: D06 / D07 / D13)."""
    state[S_CTX_DIE] = die
    state[S_CTX_DIST] = dmin
    state[S_CTX_DMAX] = dmax
    state[S_MOVE_POINT] = dp
    state[S_PHASE] = PH_MOVE


@njit(cache=True)
def _list_move(state, rules, seat):
    """The pending move's options (``_move_options``); D13 may always be declined, D06 / D07
    with ``move_optional`` (AMB-04)."""
    optional = state[S_MOVE_POINT] == D_RM_MOVE or rules[R_MOVE_OPTIONAL] > 0.5
    n = _move_options(state, seat, state[S_CTX_DIST], state[S_CTX_DMAX], optional)
    if n == 0:
        state[S_PHASE] = PH_ORDER
    return n


@njit(cache=True)
def _start_shop(state, rules, land):
    """RB-P1: a shop visit of ``shop_exchanges_per_landing`` exchanges; then the landing
    effect of space ``land`` (-1: none)."""
    state[S_SHOP_LEFT] = int(rules[R_SHOP_EXCHANGES_PER_LANDING])
    state[S_LAND] = land
    state[S_PHASE] = PH_SHOP


@njit(cache=True)
def _leave_shop(state):
    """The shop visit is over: the pending landing effect, if any, else the next die."""
    state[S_PHASE] = PH_LAND if state[S_LAND] >= 0 else PH_ORDER


@njit(cache=True)
def _list_shop(state, rules, seat):
    """RB-P2 (D11): exchange k <= min(shop_max_stars, stars) stars; nothing to exchange (or no
    exchange left) ends the visit."""
    kcap = min(int(rules[R_SHOP_MAX_STARS]), int(rules[R_STAR_EXCHANGE]) - 1)
    kmax = min(kcap, state[seat_base(seat) + F_STARS])
    if state[S_SHOP_LEFT] <= 0 or kmax <= 0:
        _leave_shop(state)
        return 0
    for k in range(kmax + 1):
        state[S_OPTIONS + k] = k
    return kmax + 1


@njit(cache=True)
def _exchange(state, rules, seat, k, log):
    """RB-P2: ``k`` stars for star_exchange[k] points, never doubled; the end check follows;
    k = 0 ends the visit."""
    if k <= 0:
        _leave_shop(state)
        return
    b = seat_base(seat)
    state[b + F_STARS] -= k
    if state[S_STAR_LIMITED]:
        state[S_STAR_SUPPLY] += k
    pts = int(rules[R_STAR_EXCHANGE + 1 + k])
    state[b + F_SCORE] += pts
    state[b + F_PTS_SHOP] += pts
    state[b + F_STARS_CASHED] += k
    state[S_SHOP_LEFT] -= 1
    if log.shape[0] > 1:
        emit(log, EV_SHOP, seat, k, pts, state[b + F_SCORE], state[b + F_STARS])
    end_check(state, rules, ET_SHOP, log)


@njit(cache=True)
def _move(state, rules, seat, a, log):
    """RB-T6 / RB-T10: the monkey of move ``a`` moves clockwise (wrapping); passed spaces have
    no effect. RB-T7: the landing effect of the space reached follows, with S_CTX_DIE as the
    moving die: START shops (RB-P1); with ``shop_on_pass`` a move that passed START also shops
    once (AMB-02), before the landing effect. a = -1 declines the move."""
    die = state[S_CTX_DIE]
    state[S_PHASE] = PH_ORDER
    if a < 0:
        if log.shape[0] > 1:
            emit(log, EV_DECLINE, seat, die, state[S_MOVE_POINT])
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
    if kind == SP_START:
        _start_shop(state, rules, -1)
    elif passed and rules[R_SHOP_ON_PASS] > 0.5:
        _start_shop(state, rules, to)
    elif kind != SP_EMPTY:
        state[S_LAND] = to
        state[S_PHASE] = PH_LAND


@njit(cache=True)
def _list_face(state, to):
    """RB-T7 FACE(x) (D08) on space ``to``: replace slot 2..6 of the moving die with x
    (supply >= 1) or not (0)."""
    face = state[S_SPACE_FACE + to]
    if state[S_FACE_SUPPLY + face] < 1:
        state[S_PHASE] = PH_ORDER
        return 0
    state[S_CTX_FACE] = face
    state[S_OPTIONS] = 0
    for s in range(2, N_SLOTS + 1):
        state[S_OPTIONS + s - 1] = s
    return N_SLOTS


@njit(cache=True)
def _install(state, seat, s, log):
    """RB-T7: slot number ``s`` (2..6) of the moving die gets the offered face; an ARROW then
    gets its target (D09). s = 0 declines. Landing never triggers the ability."""
    die = state[S_CTX_DIE]
    face = state[S_CTX_FACE]
    state[S_PHASE] = PH_ORDER
    if s == 0:
        if log.shape[0] > 1:
            emit(log, EV_DECLINE, seat, die, D_INSTALL)
    elif face == FC_ARROW:
        state[S_CTX_SLOT] = s - 1
        state[S_PHASE] = PH_ARROW
    else:
        install_face(state, seat, die, s - 1, face, np.int64(-1), log)


@njit(cache=True)
def _plus1(state, seat, a, log):
    """RB-P3: place POINTS_1 (kind 0) or upgrade one point face (kind 1); a = -1 declines."""
    state[S_PHASE] = PH_ORDER
    if a < 0:
        if log.shape[0] > 1:
            emit(log, EV_DECLINE, seat, state[S_CTX_DIE], D_PLUS1)
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


# ---- face abilities (RB-F1 .. RB-F15) --------------------------------------------------------
@njit(cache=True)
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
def _start_thief(state, rules, mult):
    """RB-F2: clockwise from the left, each opponent holding a star, gold or stock gives
    tokens of a type the active player chooses (D12): 1, or mult with
    ``double_affects_thief`` (AMB-20)."""
    state[S_THIEF_AMOUNT] = mult if rules[R_DOUBLE_AFFECTS_THIEF] > 0.5 else 1
    state[S_THIEF_TOOK] = 0
    state[S_CURSOR] = 1
    state[S_PHASE] = PH_THIEF


@njit(cache=True)
def _list_thief(state, seat, log):
    """D12: the token types the next victim (from offset S_CURSOR) holds; an opponent with
    none is skipped. After the last one: no effect if nobody gave anything (RB-F2)."""
    n = state[S_N_PLAYERS]
    for i in range(state[S_CURSOR], n):
        vb = seat_base((seat + i) % n)
        k = 0
        for t in range(3):
            if state[vb + F_GOLD + t] > 0:
                state[S_OPTIONS + k] = t
                k += 1
        if k > 0:
            state[S_CTX_VICTIM] = (seat + i) % n
            state[S_CURSOR] = i
            return k
    if state[S_THIEF_TOOK] == 0:
        if log.shape[0] > 1:
            emit(log, EV_NO_EFFECT, seat, state[S_CTX_DIE], FC_THIEF, NE_THIEF_NOBODY)
    state[S_PHASE] = PH_ORDER
    return 0


@njit(cache=True)
def _steal(state, seat, t, log):
    """RB-F2: victim S_CTX_VICTIM gives up to S_THIEF_AMOUNT tokens of type ``t``; no stock
    scoring."""
    v = state[S_CTX_VICTIM]
    vb = seat_base(v)
    me = seat_base(seat)
    got = min(state[S_THIEF_AMOUNT], state[vb + F_GOLD + t])
    state[vb + F_GOLD + t] -= got
    state[me + F_GOLD + t] += got
    state[me + F_STEALS] += got
    state[vb + F_STOLEN] += got
    state[S_THIEF_TOOK] += got
    state[S_CURSOR] += 1
    if log.shape[0] > 1:
        emit(log, EV_THEFT, seat, v, t, got)


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
        _start_move(state, die, int(cfg[R_NINE_MOVE_MIN]), int(cfg[R_NINE_MOVE_MAX]),
                    np.int64(D_NINE))
    else:
        gain_points(state, cfg, seat, g, FC_GAMBLE, F_PTS_GAMBLE, log)


@njit(cache=True)
def resolve_die(state, cfg, seat, die, log):
    """RB-T5b: resolve one rolled die completely; the face is read now (arrows followed,
    RB-F3), with the Doubles assigned to it (RB-F5). Then its result face applies (RB-T6,
    RB-T8, RB-T9, RB-F1 .. RB-F15): at once, or through the decisions it starts (S_PHASE);
    the next die follows (PH_ORDER)."""
    state[S_PHASE] = PH_ORDER
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
        # RB-T8: R -= step (mandatory), end check, then an optional move of
        # ``ringmaster_face_move`` with this die as the moving die (AMB-24: decrement first)
        if not lower_ringmaster(state, cfg, seat, FC_RINGMASTER, log):
            dist = int(cfg[R_RINGMASTER_FACE_MOVE])
            if dist > 0:
                _start_move(state, die, dist, dist, np.int64(D_RM_MOVE))
    elif FC_PIP_2 <= f <= FC_PIP_6:
        _start_move(state, die, f, f, np.int64(D_MOVE))
    elif f == FC_NINE:
        _start_move(state, die, int(cfg[R_NINE_MOVE_MIN]), int(cfg[R_NINE_MOVE_MAX]),
                    np.int64(D_NINE))
    elif FC_POINTS_1 <= f <= FC_POINTS_5:
        gain_points(state, cfg, seat, (f - FC_POINTS_1 + 1) * mult, f, F_PTS_FACES, log)
    elif f == FC_THIEF:
        _start_thief(state, cfg, mult)
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


# ---- the steps ------------------------------------------------------------------------------
@njit(cache=True)
def _resolve(state, rules, seat, die, log):
    """RB-T5b (D05): ``die`` is resolved next."""
    state[S_RESOLVED] |= 1 << die
    resolve_die(state, rules, seat, die, log)


@njit(cache=True)
def _arrow(state, seat, t, log):
    """D09: the ARROW goes into slot index S_CTX_SLOT of the moving die, targeting slot
    number ``t``."""
    install_face(state, seat, state[S_CTX_DIE], state[S_CTX_SLOT], np.int64(FC_ARROW), t - 1,
                 log)
    state[S_PHASE] = PH_ORDER


@njit(cache=True)
def _apply(state, rules, seat, dp, code, log):
    """Carry out option ``code`` of decision ``dp`` of ``seat`` and set where play goes on
    (``apply_option``; the game loop of ``_steps`` calls each effect at its own place)."""
    if dp == D_ORDER:
        _resolve(state, rules, seat, code, log)
    elif dp == D_MOVE or dp == D_NINE or dp == D_RM_MOVE:
        _move(state, rules, seat, code, log)
    elif dp == D_EXTRA:
        _pay_extra(state, rules, seat, code, log)
    elif dp == D_DICE:
        _roll_chosen(state, rules, seat, code, log)
    elif dp == D_SHOP:
        _exchange(state, rules, seat, code, log)
    elif dp == D_INSTALL:
        _install(state, seat, code, log)
    elif dp == D_PLUS1:
        _plus1(state, seat, code, log)
    elif dp == D_ARROW:
        _arrow(state, seat, code, log)
    elif dp == D_THIEF:
        _steal(state, seat, code, log)
    elif dp == D_REROLL:
        _reroll(state, rules, seat, code, log)
    elif dp == D_DOUBLE:
        _declare_double(state, seat, code, log)


@njit(cache=True)
def _post(state, seat, dp, n):
    """Post decision ``dp`` of ``seat`` with the ``n`` options listed (the options block of
    ``sim.decide``); returns 1, ``advance``'s answer."""
    state[S_POINT] = dp
    state[S_DECIDER] = seat
    state[S_N_OPTIONS] = n
    return 1


@njit(cache=True)
def _steps(state, rules, kinds, work, log, turn_stop, self_play):
    """The step machine from the control position S_PHASE: play the forced steps up to the
    next decision with two or more options, post it and return 1; 0 once the game is over.
    A single option is taken at once. With ``turn_stop`` it also stops (returning 2) when the
    active seat's turn is over (RB-T12), before the next one begins.

    With ``self_play`` (the game loop of ``play_many``) the seats' policies take the
    decisions where they arise, so ``while advance: apply_option(choose)`` runs in this one
    call to the end of the game; each decision point then calls its own heuristic and effect
    (the same functions as ``choose`` / ``apply_option``), which the compiler inlines there.
    K_RANDOM: ``sim.decide.random_index``; K_GREEDY: the ``policies.greedy_*`` heuristic of
    the point with ``work = (cfg,)``."""
    while True:
        ph = state[S_PHASE]
        if ph == PH_OVER:
            return 0
        if state[S_ENDED]:
            _game_over(state, log)
            return 0
        seat = state[S_ACTIVE]
        greedy_seat = self_play and kinds[seat] == K_GREEDY
        i = 0
        if ph == PH_ORDER:
            n = _list_order(state)
            if n == 0:
                # RB-T12: every rolled die is resolved: the turn passes clockwise
                state[S_ACTIVE] = (seat + 1) % state[S_N_PLAYERS]
                state[S_PHASE] = PH_TURN
                if turn_stop:
                    return 2
                continue
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_ORDER, n)
                if greedy_seat:
                    i = greedy_order(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            _resolve(state, rules, seat, state[S_OPTIONS + i], log)
        elif ph == PH_MOVE:
            n = _list_move(state, rules, seat)
            if n >= 2:
                if not self_play:
                    return _post(state, seat, state[S_MOVE_POINT], n)
                if greedy_seat:
                    i = greedy_move(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            if n > 0:
                _move(state, rules, seat, state[S_OPTIONS + i], log)
        elif ph == PH_TURN:
            # RB-E5: a game is cut at max_turns player turns (flagged truncated)
            if state[S_TURN] >= int(rules[R_MAX_TURNS]):
                state[S_TRUNCATED] = 1
                if log.shape[0] > 1:
                    emit(log, EV_TRUNCATED, state[S_TURN])
                _game_over(state, log)
                return 0
            begin_turn(state, seat, log)
            n = _list_extra(state, rules, seat)
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_EXTRA, n)
                if greedy_seat:
                    i = greedy_extra_dice(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            _pay_extra(state, rules, seat, state[S_OPTIONS + i], log)
        elif ph == PH_DICE:
            n = _list_dice(state)
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_DICE, n)
                if greedy_seat:
                    i = greedy_dice(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            _roll_chosen(state, rules, seat, state[S_OPTIONS + i], log)
        elif ph == PH_LAND:
            # RB-T7 / RB-P3: the FACE or +1 effect of the space reached
            to = state[S_LAND]
            state[S_LAND] = -1
            kind = state[S_SPACE_KIND + to]
            if kind == SP_FACE:
                n = _list_face(state, to)
                if n >= 2:
                    if not self_play:
                        return _post(state, seat, D_INSTALL, n)
                    if greedy_seat:
                        i = greedy_install(state, work[0], seat, n)
                    else:
                        i = random_index(state, S_RNG_P, n)
                if n > 0:
                    _install(state, seat, state[S_OPTIONS + i], log)
            elif kind == SP_PLUS1:
                n = _plus1_options(state, rules, seat, state[S_CTX_DIE])
                if n >= 2:
                    if not self_play:
                        return _post(state, seat, D_PLUS1, n)
                    if greedy_seat:
                        i = greedy_plus1(state, work[0], seat, n)
                    else:
                        i = random_index(state, S_RNG_P, n)
                _plus1(state, seat, state[S_OPTIONS + i], log)
            else:
                state[S_PHASE] = PH_ORDER
        elif ph == PH_SHOP:
            n = _list_shop(state, rules, seat)
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_SHOP, n)
                if greedy_seat:   # options k = 0..kmax: k is the index
                    i = shop_k(state, work[0], seat, state[S_OPTIONS + n - 1])
                else:
                    i = random_index(state, S_RNG_P, n)
            if n > 0:
                _exchange(state, rules, seat, state[S_OPTIONS + i], log)
        elif ph == PH_ARROW:
            n = _arrow_target_options(state, rules, state[S_CTX_SLOT])
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_ARROW, n)
                if greedy_seat:
                    i = greedy_arrow(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            _arrow(state, seat, state[S_OPTIONS + i], log)
        elif ph == PH_THIEF:
            n = _list_thief(state, seat, log)
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_THIEF, n)
                if greedy_seat:
                    i = greedy_thief(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            if n > 0:
                _steal(state, seat, state[S_OPTIONS + i], log)
        elif ph == PH_REROLL:
            n = _list_reroll(state, rules, seat)
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_REROLL, n)
                if greedy_seat:
                    i = greedy_reroll(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            if n > 0:
                _reroll(state, rules, seat, state[S_OPTIONS + i], log)
        elif ph == PH_DOUBLES:
            n = _list_double(state, rules, seat, log)
            if n >= 2:
                if not self_play:
                    return _post(state, seat, D_DOUBLE, n)
                if greedy_seat:
                    i = greedy_double(state, work[0], seat, n)
                else:
                    i = random_index(state, S_RNG_P, n)
            if n > 0:
                _declare_double(state, seat, state[S_OPTIONS + i], log)


@njit(cache=True)
def advance(state, rules, comp, log):
    """Play the forced steps up to the next decision with two or more legal options (listed
    in the options block) and return 1; 0 once the game is over (``sim.decide``). A decision
    with one legal option is taken here. With a decision pending: 1, nothing changes.
    ``rules`` is the rules array (float64[R_LEN]; a ``cfg`` array works too)."""
    if state[S_POINT] != 0:
        return 1
    return _steps(state, rules, state, (rules,), log, False, False)


@njit(cache=True)
def advance_turn(state, rules, comp, log):
    """``advance`` that also stops when the active seat's turn is over (returns 2; the next
    call begins the next turn): tests and tools that look at one turn."""
    if state[S_POINT] != 0:
        return 1
    return _steps(state, rules, state, (rules,), log, True, False)


@njit(cache=True)
def apply_option(state, rules, comp, index, log):
    """Carry out option ``index`` of the pending decision (``sim.decide``); False (and no
    change) when no decision is pending or ``index`` is out of range."""
    dp = state[S_POINT]
    if dp == 0 or index < 0 or index >= state[S_N_OPTIONS]:
        return False
    state[S_POINT] = 0
    state[S_N_OPTIONS] = 0
    _apply(state, rules, state[S_DECIDER], dp, state[S_OPTIONS + index], log)
    return True


@njit(cache=True)
def choose(state, rules, comp, kinds, pparams, work):
    """The deciding seat's policy: an index into the pending options (``sim.decide``).
    K_RANDOM: uniform (SUB_POLICY stream in the state); K_GREEDY and its presets:
    ``policies.greedy`` with ``work = (cfg,)`` (``policies.fill_cfg``, made by
    ``new_game``)."""
    seat = state[S_DECIDER]
    if kinds[seat] == K_GREEDY:
        return greedy(state, work[0], seat, state[S_POINT], state[S_N_OPTIONS])
    return random_index(state, S_RNG_P, state[S_N_OPTIONS])


# ==== game end (RB-E3 .. RB-E5) and entry points =============================================
@njit(cache=True)
def tokens_held(state, seat):
    """gold + stocks + stars, the RB-E3 tiebreak."""
    b = seat_base(seat)
    return state[b + F_GOLD] + state[b + F_STARS] + state[b + F_STOCKS]


@njit(cache=True)
def final_rank(state, p):
    """RB-E3: rank of seat ``p`` by score, then tokens; ties on both share the rank
    (1 = best)."""
    sp = state[seat_base(p) + F_SCORE]
    tp = tokens_held(state, p)
    r = 1
    for q in range(state[S_N_PLAYERS]):
        sq = state[seat_base(q) + F_SCORE]
        if sq > sp or (sq == sp and tokens_held(state, q) > tp):
            r += 1
    return r


@njit(cache=True)
def winners(state):
    """(n_winners, winner_seat) of RB-E3: winner_seat = -1 when the win is shared."""
    nw = 0
    ws = -1
    for p in range(state[S_N_PLAYERS]):
        if final_rank(state, p) == 1:
            nw += 1
            ws = p
    if nw != 1:
        ws = -1
    return nw, ws


@njit(cache=True)
def _game_over(state, log):
    """The game is over (ended, RB-E2, or truncated, RB-E5): no decision is pending any more."""
    state[S_PHASE] = PH_OVER
    state[S_POINT] = 0
    state[S_N_OPTIONS] = 0
    if log.shape[0] > 1:
        nw, ws = winners(state)
        emit(log, EV_END, state[S_END_TRIGGER], state[S_END_SEAT], state[S_R], ws, nw)


@njit(cache=True)
def finish(state, rules, comp, games_row, seats_rows):
    """Fill the output row and the seat rows of a finished game through their declared
    indices (``GO_*``, ``SO_*`` of ``layout.GAME_OUT`` / ``layout.SEAT_OUT``)."""
    n = state[S_N_PLAYERS]
    nw, ws = winners(state)
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
        rank = final_rank(state, p)
        row[SO_SCORE] = state[b + F_SCORE]
        row[SO_RANK] = rank
        row[SO_WON] = 1 if rank == 1 else 0
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


@njit(cache=True)
def _begin(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
           scratch, log):
    """Set game ``game_index`` of the run ``master_seed`` up in the caller's ``state`` (its
    streams included) and fill its ``cfg`` (``policies.fill_cfg``); nothing decided yet."""
    rng_s = make_stream(master_seed, game_index, np.int64(SUB_SETUP))
    setup_game(state, rules, comp, n_players, rng_s, scratch, log)
    start_in(state, S_RNG_D, master_seed, game_index, np.int64(SUB_DICE))
    start_in(state, S_RNG_P, master_seed, game_index, np.int64(SUB_POLICY))
    fill_cfg(cfg, state, rules, kinds, pparams)


@njit(cache=True)
def new_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, log):
    """A new game set up for stepping (``sim.decide``): ``(state, work)``, ``work = (cfg,)``
    the greedy heuristics' per-game array (``choose``)."""
    state = np.zeros(state_size(n_players), dtype=np.int64)
    cfg = np.zeros(C_LEN, dtype=np.float64)
    scratch = np.zeros(MAX_OPTS, dtype=np.int64)
    _begin(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
           scratch, log)
    return state, (cfg,)


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
    """The body of ``_play``: the loop of ``sim.decide``, ``while advance: apply_option(choose)``,
    run by ``_steps`` in one call (``self_play``)."""
    _begin(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
           scratch, log)
    _steps(state, rules, kinds, (cfg,), log, False, True)
    finish(state, rules, comp, games_row, seats_rows)


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


@njit(cache=True, nogil=True)
def play_many(rules, comp, n_players, policy_kind, policy_params, master_seed, first_index,
              games_out, seats_out):
    """Play games ``first_index + i`` for i < games_out.shape[0]; each writes only its row.

    Serial and ``nogil`` (``sim.threads`` plays slices of the rows on threads). Games run in
    blocks of BLOCK_GAMES; each block reuses its
    scratch. The shared read-only inputs are only read through borrowed views (``_play``), so
    the threads never contend for their reference counts. A game is a pure function of
    (seed, index): results do not depend on the blocks or the threads. Returns nothing; fills
    ``games_out[i]``, ``seats_out[i]``.
    """
    n_games = games_out.shape[0]
    n_blocks = (n_games + BLOCK_GAMES - 1) // BLOCK_GAMES
    for blk in range(n_blocks):
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


@njit(cache=True)
def playout(state, rules, comp, kinds, pparams, work, log):
    """Play on from the current position to the end with the seats' policies (self-play
    ``while advance: apply_option(choose)``, as ``_play_game``): a search policy's rollouts
    (``sim.search``). ``work = (cfg,)`` made for ``kinds``/``pparams`` (``new_game``)."""
    _steps(state, rules, kinds, work, log, False, True)


@njit(cache=True)
def resample(state, rules, comp, seat, key):
    """Re-sample what ``seat`` cannot know, for a search policy's rollout (``sim.search``).

    The only hidden information is the dice not yet rolled (RB-T3 rolls, RB-F8 re-rolls,
    RB-F6 gamble-die rolls, all on the dice stream) and the random seats' draws: both streams
    restart from ``key`` (the search's stream), and the scenario tests' forced draws
    (``S_FORCE``, a future written into the state) are dropped. The board and its tiles
    (RB-S2, placed face up), supplies and every seat's dice faces are open information and
    stay.
    """
    state[S_FORCE_POS] = state[S_FORCE_N]
    substream_in(state, S_RNG_D, key, SUB_DICE)
    substream_in(state, S_RNG_P, key, SUB_POLICY)
