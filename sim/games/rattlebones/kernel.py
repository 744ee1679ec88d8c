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
from sim.rng import (SUB_DICE, SUB_POLICY, SUB_SETUP, draw, randint, shuffle, start_in,
                     stream_start, substream_in)
from sim.trace import emit

from . import layout as L
from . import options as O
from . import rules as R
from .dice import (die_result, double_mult, face_at, follow_arrow, is_number_face, passes,
                   seat_base, space_after)
from .policies import (fill_cfg, greedy, greedy_arrow, greedy_dice, greedy_double, greedy_extra_dice,
                       greedy_install, greedy_move, greedy_order, greedy_plus1, greedy_reroll,
                       greedy_thief, shop_k)

# The game loop only sees arrays its callers own (sim.borrow). These allocate: the batch entry
# points and the set-up of a new game.
no_refcount_module(__name__, exclude=("new_game", "play_one", "play_many"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)
# a run's and a replay's calls are private to them (sim.borrow)
whole_program(__name__, "play_many")
whole_program(__name__, "play_one")

BLOCK_GAMES = 32   # games per block of play_many (one state array reused)


# ==== small helpers =========================================================================


@njit(cache=True)
def state_size(n_players):
    """Length of the state array for ``n_players`` seats."""
    return L.SEAT0 + n_players * L.SEAT_LEN


@njit(cache=True)
def _popcount(x):
    """Number of set bits of a small non-negative int (each step clears the lowest one: LLVM
    compiles the loop to one popcount instruction)."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def is_action_face(f):
    """True for the 11 action faces of the supply (§2.5)."""
    return f == L.FC_NINE or L.FC_THIEF <= f <= L.FC_GOLD


@njit(cache=True)
def _draw_slot(state):
    """One die roll: a uniform slot index 0..5 from the dice stream (RB-T3, RB-S11)."""
    return draw(state, L.S_RNG_D, L.N_SLOTS)


@njit(cache=True)
def _draw_gamble(state):
    """One gamble-die roll: a uniform face index 0..5 from the dice stream (RB-F6, RB-S11)."""
    return draw(state, L.S_RNG_D, L.N_GAMBLE)


@njit(cache=True)
def end_check(state, rules, trigger, log):
    """RB-E2: end the game at once if any score > R (``end_inclusive``: >= R).

    Returns
    -------
    bool, True if the game has ended (now or before).
    """
    if state[L.S_ENDED]:
        return True
    r = state[L.S_R]
    incl = rules[R.R_END_INCLUSIVE] > 0.5
    for p in range(state[L.S_N_PLAYERS]):
        s = state[seat_base(p) + L.F_SCORE]
        if s > r or (incl and s >= r):
            state[L.S_ENDED] = 1
            state[L.S_END_TRIGGER] = trigger
            state[L.S_END_SEAT] = state[L.S_ACTIVE]
            return True
    return False


@njit(cache=True)
def gain_points(state, cfg, seat, amount, source, stat, log):
    """Add points to ``seat`` as one atomic gain, then run the end check (RB-F1, RB-E2)."""
    b = seat_base(seat)
    state[b + L.F_SCORE] += amount
    state[b + stat] += amount
    if log.shape[0] > 1:
        emit(log, L.EV_POINTS, seat, amount, source, state[b + L.F_SCORE])
    return end_check(state, cfg, L.ET_SCORE, log)


@njit(cache=True)
def _ringmaster_start(rules, n):
    """R at setup for n players (RB-S8)."""
    if n <= 2:
        return int(rules[R.R_RINGMASTER_START_2P])
    if n == 3:
        return int(rules[R.R_RINGMASTER_START_3P])
    return int(rules[R.R_RINGMASTER_START_4P])


# ==== setup (RB-S1 .. RB-S11) ==================================================================
@njit(cache=True)
def setup_board(state, rules, boards, meta, tiles, rng, scratch, log):
    """RB-S2: load the board preset, shuffle the tile pool, fill SLOT spaces in index order.

    Tile codes of ``tile_pool`` outside the data file are ignored; the number placed is
    min(tiles_used, pool size, SLOT spaces); unfilled SLOTs become EMPTY.
    """
    p = int(rules[R.R_BOARD_PRESET])
    track_len = meta[p, L.BM_TRACK_LEN]
    state[L.S_TRACK_LEN] = track_len
    state[L.S_START_INDEX] = meta[p, L.BM_START]
    for i in range(track_len):
        state[L.S_SPACE_KIND + i] = boards[p, i, L.SPC_KIND]
        state[L.S_SPACE_FACE + i] = boards[p, i, L.SPC_FACE]
    m = 0
    for j in range(int(rules[R.R_TILE_POOL])):
        c = int(rules[R.R_TILE_POOL + 1 + j])
        if c < tiles.shape[0]:
            scratch[m] = c
            m += 1
    shuffle(rng, scratch[:m])
    use = min(int(rules[R.R_TILES_USED]), m)
    k = 0
    for i in range(track_len):
        if state[L.S_SPACE_KIND + i] == L.SP_SLOT:
            if k < use:
                t = scratch[k]
                state[L.S_SPACE_KIND + i] = tiles[t, L.SPC_KIND]
                state[L.S_SPACE_FACE + i] = tiles[t, L.SPC_FACE]
                state[L.S_TILES_MASK] |= 1 << t
                if log.shape[0] > 1:
                    emit(log, L.EV_TILE, i, t, tiles[t, L.SPC_KIND], tiles[t, L.SPC_FACE])
                k += 1
            else:
                state[L.S_SPACE_KIND + i] = L.SP_EMPTY


@njit(cache=True)
def setup_supplies(state, rules, fsupply, tokens):
    """RB-S3 face piles and RB-S7 stock / gold / star supplies (parameters override data)."""
    for f in range(L.N_FACES):
        state[L.S_FACE_SUPPLY + f] = fsupply[f]
    if rules[R.R_POINT_FACE_SUPPLY + 1] >= 0:
        for k in range(5):
            state[L.S_FACE_SUPPLY + L.FC_POINTS_1 + k] = int(rules[R.R_POINT_FACE_SUPPLY + 1 + k])
    a = int(rules[R.R_ACTION_FACE_SUPPLY])
    if a >= 0:
        for f in range(L.N_FACES):
            if is_action_face(f):
                state[L.S_FACE_SUPPLY + f] = a
    g = tokens[L.TOK_GOLD] if rules[R.R_GOLD_SUPPLY] < 0 else int(rules[R.R_GOLD_SUPPLY])
    s = tokens[L.TOK_STAR] if rules[R.R_STAR_SUPPLY] < 0 else int(rules[R.R_STAR_SUPPLY])
    state[L.S_GOLD_SUPPLY] = g
    state[L.S_GOLD_LIMITED] = 1 if g > 0 else 0
    state[L.S_STAR_SUPPLY] = s
    state[L.S_STAR_LIMITED] = 1 if s > 0 else 0
    c = tokens[L.TOK_STOCK] if rules[R.R_STOCK_COUNT] < 0 else int(rules[R.R_STOCK_COUNT])
    state[L.S_STOCK_COUNT] = c
    state[L.S_STOCK_SUPPLY] = c


@njit(cache=True)
def setup_train_and_gamble(state, rules, train, gamble):
    """RB-S6: train on its start index; the train values (RB-F7) and gamble faces (RB-F6)."""
    if rules[R.R_TRAIN_TRACK + 1] < 0:
        n = train[L.TRD_N]
        state[L.S_TRAIN_POS] = train[L.TRD_START]
        for i in range(n):
            state[L.S_TRAIN_TRACK + i] = train[L.TRD_VALUES + i]
    else:
        n = int(rules[R.R_TRAIN_TRACK])
        state[L.S_TRAIN_POS] = 0
        for i in range(n):
            state[L.S_TRAIN_TRACK + i] = int(rules[R.R_TRAIN_TRACK + 1 + i])
    state[L.S_TRAIN_LEN] = n
    for i in range(6):
        if rules[R.R_GAMBLE_FACES + 1] < 0:
            state[L.S_GAMBLE + i] = gamble[i]
        else:
            state[L.S_GAMBLE + i] = int(rules[R.R_GAMBLE_FACES + 1 + i])


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
    n = state[L.S_N_PLAYERS]
    for s in range(L.N_SLOTS):
        state[L.S_OPP + s] = opposite[s]
    for seat in range(n):
        b = seat_base(seat)
        for m in range(state[L.S_N_MONKEYS]):
            state[b + L.F_MONKEY + m] = state[L.S_START_INDEX]
        for d in range(state[L.S_N_DICE]):
            for s in range(L.N_SLOTS):
                state[b + L.F_FACE + d * L.N_SLOTS + s] = start_faces[s]
                state[b + L.F_ARROW + d * L.N_SLOTS + s] = -1
        bg = int(rules[R.R_SEAT_BONUS_GOLD + 1 + seat]) if seat < 4 else 0
        bp = int(rules[R.R_SEAT_BONUS_POINTS + 1 + seat]) if seat < 4 else 0
        state[b + L.F_GOLD] = _deal(state, L.S_GOLD_SUPPLY, L.S_GOLD_LIMITED, int(rules[R.R_STARTING_GOLD]) + bg)
        state[b + L.F_STARS] = _deal(state, L.S_STAR_SUPPLY, L.S_STAR_LIMITED, int(rules[R.R_STARTING_STARS]))
        state[b + L.F_SCORE] = bp


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
    state[L.S_N_PLAYERS] = n_players
    state[L.S_N_DICE] = int(rules[R.R_N_DICE])
    state[L.S_N_MONKEYS] = int(rules[R.R_N_MONKEYS])
    setup_board(state, rules, boards, meta, tiles, rng_setup, scratch, log)
    state[L.S_START_CHAIR] = randint(rng_setup, n_players)
    state[L.S_FIRST_SEAT] = 0
    setup_supplies(state, rules, fsupply, tokens)
    setup_train_and_gamble(state, rules, train, gamble)
    setup_players(state, rules, start_faces, opposite)
    state[L.S_R] = _ringmaster_start(rules, n_players)
    state[L.S_END_SEAT] = -1
    for d in range(L.MAX_DICE):
        state[L.S_DBL_TARGET + d] = -1
    if log.shape[0] > 1:
        emit(log, L.EV_SETUP, n_players, state[L.S_R], state[L.S_START_CHAIR],
             state[L.S_TILES_MASK])
    end_check(state, rules, L.ET_SETUP, log)


# ==== the step machine (sim.decide) ============================================================
# The turn (RB-T1 .. RB-T12) is a chain of steps driven by the control position S_PHASE. A
# ``_list_*`` step lists the legal options of the decision at the current position into the
# options block and returns their count (0: nothing to decide there, the step moved on);
# ``_apply`` carries out one option and sets the position where play goes on. Each resolution
# that needs a decision (a move, a shop visit, an install, a thief) records what follows it in
# the continuation fields (S_CTX_*, S_LAND, S_SHOP_LEFT, S_CURSOR, S_THIEF_*), and a roll the
# dice left to roll (S_ROLL_LEFT), so nothing is kept on the call stack between two decisions
# (or two chance points, ``_steps``).


# ---- turn start: extra dice, dice choice, roll (RB-T1 .. RB-T3) ------------------------------
@njit(cache=True)
def begin_turn(state, seat, log):
    """Reset the per-turn fields for ``seat``'s turn."""
    state[L.S_ACTIVE] = seat
    state[L.S_TURN] += 1
    state[L.S_ROLLED] = 0
    state[L.S_RESOLVED] = 0
    state[L.S_REROLL_EVENTS] = 0
    for d in range(L.MAX_DICE):
        state[L.S_DBL_COUNT + d] = 0
        state[L.S_DBL_TARGET + d] = -1
        state[L.S_UP_SLOT + d] = 0
    b = seat_base(seat)
    state[b + L.F_TURNS] += 1
    if log.shape[0] > 1:
        n = state[L.S_N_PLAYERS]
        if log.shape[0] > 1:
            emit(log, L.EV_TURN, seat, state[L.S_TURN], (state[L.S_TURN] - 1) // n + 1,
                 state[L.S_R], state[b + L.F_SCORE])


@njit(cache=True)
def rb_t3_roll(state, cfg, seat, die, s, log):
    """RB-T3 / RB-F8: ``die`` of ``seat`` (rolled, or re-rolled in reroll event
    S_REROLL_EVENTS) shows slot index ``s``; its result is the face there. Drawn
    (``_draw_slot``) or given by the answer to a chance point D_ROLL."""
    state[L.S_UP_SLOT + die] = s
    state[seat_base(seat) + L.F_DICE_ROLLED] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_ROLL, seat, die, s + 1, face_at(state, seat, die, s),
            die_result(state, cfg, seat, die), state[L.S_REROLL_EVENTS])


@njit(cache=True)
def list_extra(state, rules, seat):
    """RB-T1 (D01): e extra dice, 0 <= e <= min(max_dice_per_turn - 1, gold / cost)."""
    cost = int(rules[R.R_GOLD_PER_EXTRA_DIE])
    emax = min(int(rules[R.R_MAX_DICE_PER_TURN]), state[L.S_N_DICE]) - 1
    if cost > 0:   # e extra dice cost e x cost gold: the largest e the gold pays for
        gold = state[seat_base(seat) + L.F_GOLD]
        while emax > 0 and emax * cost > gold:
            emax -= 1
    if emax <= 0:
        state[L.S_OPTIONS] = 0
        return 1
    for e in range(emax + 1):
        state[L.S_OPTIONS + e] = e
    return emax + 1


@njit(cache=True)
def _pay_extra(state, rules, seat, e, log):
    """RB-T1: pay for ``e`` extra dice; the dice choice (RB-T2) follows."""
    if e > 0:
        b = seat_base(seat)
        paid = e * int(rules[R.R_GOLD_PER_EXTRA_DIE])
        state[b + L.F_GOLD] -= paid
        if state[L.S_GOLD_LIMITED]:
            state[L.S_GOLD_SUPPLY] += paid
        state[b + L.F_GOLD_SPENT] += paid
        state[b + L.F_EXTRA_DICE] += e
        if log.shape[0] > 1:
            emit(log, L.EV_EXTRA, seat, e, paid, state[b + L.F_GOLD])
    state[L.S_EXTRA] = e
    state[L.S_PHASE] = L.PH_DICE


@njit(cache=True)
def list_dice(state):
    """RB-T2 (D02): the masks of 1 + e distinct own dice."""
    nd = state[L.S_N_DICE]
    want = 1 + state[L.S_EXTRA]
    n = 0
    for mask in range(1, 1 << nd):
        if _popcount(mask) == want:
            state[L.S_OPTIONS + n] = mask
            n += 1
    return n


@njit(cache=True)
def _start_roll(state, mask):
    """RB-T3 / RB-F8: the dice of ``mask`` roll next, in die-id order (RB-S11; PH_ROLL)."""
    state[L.S_ROLL_LEFT] = mask
    state[L.S_PHASE] = L.PH_ROLL


@njit(cache=True)
def _roll_chosen(state, mask):
    """RB-T3: the chosen dice (D02) are rolled: they roll next (``_start_roll``)."""
    state[L.S_ROLLED] = mask
    _start_roll(state, mask)


@njit(cache=True)
def _first_die(mask):
    """The lowest die id in a non-empty dice ``mask`` (the next to roll, RB-S11)."""
    d = 0
    while not (mask >> d) & 1:
        d += 1
    return d


@njit(cache=True)
def _roll_answered(state, rules, seat, s, log):
    """Chance point D_ROLL answered: the next die of S_ROLL_LEFT shows slot index ``s``
    (``rb_t3_roll``); the dice after it roll on (PH_ROLL)."""
    left = state[L.S_ROLL_LEFT]
    rb_t3_roll(state, rules, seat, _first_die(left), s, log)
    state[L.S_ROLL_LEFT] = left & (left - 1)


@njit(cache=True)
def _rolled(state, rules, seat):
    """The dice are rolled. After the initial roll (RB-T3) RB-T4 / RB-T5a follow only when a
    rolled die shows REROLL or DOUBLE, else the resolution (RB-T5b); after a reroll event
    (RB-F8) the reroll loop goes on (RB-T4)."""
    state[L.S_ROLL_LEFT] = 0
    if state[L.S_REROLL_EVENTS] > 0:
        state[L.S_PHASE] = L.PH_REROLL
        return
    rolled = state[L.S_ROLLED]
    special = False
    for d in range(state[L.S_N_DICE]):
        if (rolled >> d) & 1:
            f = die_result(state, rules, seat, d)
            if f == L.FC_REROLL or f == L.FC_DOUBLE:
                special = True
    state[L.S_PHASE] = L.PH_REROLL if special else L.PH_ORDER


@njit(cache=True)
def _reroll_set(state, rules, seat):
    """K of RB-F8: the rolled dice whose result is REROLL (arrows followed)."""
    rolled = state[L.S_ROLLED]
    k = 0
    for d in range(state[L.S_N_DICE]):
        if (rolled >> d) & 1 and die_result(state, rules, seat, d) == L.FC_REROLL:
            k |= 1 << d
    return k


@njit(cache=True)
def list_reroll(state, rules, seat):
    """RB-T4 / RB-F8 (D03): Reroll applies while K is not empty, a die is unrolled and fewer
    than max_dice_per_turn dice are rolled (AMB-10, AMB-11); the options are the unrolled
    dice (and -1, not applying it, unless ``reroll_mandatory``). When it no longer applies the
    Doubles are declared (RB-T5a)."""
    nd = state[L.S_N_DICE]
    rolled = state[L.S_ROLLED]
    unrolled = ((1 << nd) - 1) & ~rolled
    if _reroll_set(state, rules, seat) == 0 or unrolled == 0 or \
            _popcount(rolled) >= int(rules[R.R_MAX_DICE_PER_TURN]):
        state[L.S_PHASE] = L.PH_DOUBLES
        state[L.S_CURSOR] = 0
        return 0
    n = 0
    for d in range(nd):
        if (unrolled >> d) & 1:
            state[L.S_OPTIONS + n] = d
            n += 1
    if rules[R.R_REROLL_MANDATORY] < 0.5:
        state[L.S_OPTIONS + n] = -1
        n += 1
    return n


@njit(cache=True)
def _reroll(state, rules, seat, u, log):
    """RB-F8: add die ``u`` (no gold); event 1 rerolls K + u, later events every rolled die
    (``reroll_second_scope = all``) or K + u (``reroll_only``): they roll next
    (``_start_roll``). u = -1: Reroll not applied."""
    if u < 0:
        state[L.S_PHASE] = L.PH_DOUBLES
        state[L.S_CURSOR] = 0
        return
    k = _reroll_set(state, rules, seat)
    rolled = state[L.S_ROLLED] | (1 << u)
    state[L.S_ROLLED] = rolled
    state[L.S_REROLL_EVENTS] += 1
    ev = state[L.S_REROLL_EVENTS]
    state[seat_base(seat) + L.F_REROLLS] += 1
    if ev == 1 or int(rules[R.R_REROLL_SECOND_SCOPE]) == R.SCOPE_REROLL_ONLY:
        mask = k | (1 << u)
    else:
        mask = rolled
    if log.shape[0] > 1:
        emit(log, L.EV_REROLL, seat, ev, u, mask)
    _start_roll(state, mask)


@njit(cache=True)
def list_double(state, rules, seat, log):
    """RB-T5a / RB-F5 (D04): the next die (from S_CURSOR) whose result is DOUBLE is assigned
    to one other rolled die (AMB-08, AMB-09); a Double with no other die has no effect;
    ``forbid`` allows one Double per target. After the last die the resolution starts."""
    nd = state[L.S_N_DICE]
    rolled = state[L.S_ROLLED]
    forbid = int(rules[R.R_DOUBLE_STACKING]) == R.STACK_FORBID
    for d in range(state[L.S_CURSOR], nd):
        if not (rolled >> d) & 1 or die_result(state, rules, seat, d) != L.FC_DOUBLE:
            continue
        n = 0
        for t in range(nd):
            if t != d and (rolled >> t) & 1 and not (forbid and state[L.S_DBL_COUNT + t] > 0):
                state[L.S_OPTIONS + n] = t
                n += 1
        if n == 0:
            if log.shape[0] > 1:
                emit(log, L.EV_NO_EFFECT, seat, d, L.FC_DOUBLE, L.NE_DOUBLE_ALONE)
            continue
        state[L.S_CTX_DIE] = d
        state[L.S_CURSOR] = d
        return n
    state[L.S_PHASE] = L.PH_ORDER
    return 0


@njit(cache=True)
def _declare_double(state, seat, t, log):
    """RB-F5: the Double of die S_CTX_DIE applies to die ``t``."""
    d = state[L.S_CTX_DIE]
    state[L.S_DBL_COUNT + t] += 1
    state[L.S_DBL_TARGET + d] = t
    state[L.S_CURSOR] = d + 1
    if log.shape[0] > 1:
        emit(log, L.EV_DOUBLE, seat, d, t, state[L.S_DBL_COUNT + t])


@njit(cache=True)
def list_order(state):
    """RB-T5b / AMB-25 (D05): the unresolved rolled dice, in die-id order."""
    un = state[L.S_ROLLED] & ~state[L.S_RESOLVED]
    n = 0
    for d in range(state[L.S_N_DICE]):
        if (un >> d) & 1:
            state[L.S_OPTIONS + n] = d
            n += 1
    return n


# ---- moves and landing effects (RB-T6, RB-T7, RB-P1 .. RB-P4) --------------------------------
@njit(cache=True)
def install_face(state, seat, die, sidx, face, target, log):
    """Replace slot ``sidx`` (1..5) of ``die`` with ``face`` from the supply (RB-T7, AMB-16).

    The removed face returns to its pile; a pip face leaves the game. ``target`` is the arrow
    target slot index when ``face`` is ARROW.
    """
    b = seat_base(seat) + die * L.N_SLOTS + sidx
    old = state[b + L.F_FACE]
    if old != L.FC_EMPTY and not (L.FC_PIP_2 <= old <= L.FC_PIP_6):
        state[L.S_FACE_SUPPLY + old] += 1
    state[L.S_FACE_SUPPLY + face] -= 1
    state[b + L.F_FACE] = face
    state[b + L.F_ARROW] = target if face == L.FC_ARROW else -1
    state[seat_base(seat) + L.F_INSTALLS] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_INSTALL, seat, die, sidx + 1, face, old,
             target + 1 if face == L.FC_ARROW else 0)


@njit(cache=True)
def list_arrow_targets(state, rules, sidx):
    """§2.2 / AMB-05: legal arrow targets (slot numbers) for an arrow in slot index ``sidx``:
    the 4 adjacent slots (not itself, not its opposite), or any other slot. ``rules`` may be
    the rules or a ``cfg`` array."""
    n = 0
    anyt = int(rules[R.R_ARROW_TARGETS]) == R.ARROW_ANY
    for t in range(L.N_SLOTS):
        if t != sidx and (anyt or t != state[L.S_OPP + sidx]):
            state[L.S_OPTIONS + n] = t + 1
            n += 1
    return n


@njit(cache=True)
def list_plus1(state, rules, seat, die):
    """RB-P3 legal choices (``options.encode_plus1``; -1 = decline).

    (a) POINTS_1 into slot 2..6 of the moving die (supply >= 1); (b) upgrade POINTS_k to
    POINTS_k+1, k < point_face_max, supply >= 1, on the moving die (any own die with
    ``plus1_any_die``, AMB-14); (c) decline. RB-P4: never past point_face_max or the supply.
    ``rules`` may be the rules or a ``cfg`` array.
    """
    n = 0
    state[L.S_OPTIONS + n] = -1
    n += 1
    if state[L.S_FACE_SUPPLY + L.FC_POINTS_1] >= 1:
        for s in range(1, L.N_SLOTS):
            state[L.S_OPTIONS + n] = O.encode_plus1(0, die, s)
            n += 1
    kmax = int(rules[R.R_POINT_FACE_MAX])
    anyd = rules[R.R_PLUS1_ANY_DIE] > 0.5
    for d in range(state[L.S_N_DICE]):
        if d != die and not anyd:
            continue
        for s in range(1, L.N_SLOTS):
            f = face_at(state, seat, d, s)
            if L.FC_POINTS_1 <= f <= L.FC_POINTS_5:
                k = f - L.FC_POINTS_1 + 1
                if k < kmax and state[L.S_FACE_SUPPLY + f + 1] >= 1:
                    state[L.S_OPTIONS + n] = O.encode_plus1(1, d, s)
                    n += 1
    return n


@njit(cache=True)
def list_moves(state, seat, dmin, dmax, optional):
    """Legal moves (``options.encode_move``) for dist in [dmin, dmax], every monkey; -1 when the
    move may be declined (RB-T6, AMB-04)."""
    n = 0
    for dist in range(dmin, dmax + 1):
        for m in range(state[L.S_N_MONKEYS]):
            state[L.S_OPTIONS + n] = O.encode_move(dist, m)
            n += 1
    if optional:
        state[L.S_OPTIONS + n] = -1
        n += 1
    return n


@njit(cache=True)
def lower_ringmaster(state, cfg, seat, source, log):
    """RB-E1: R falls by ringmaster_step (never rises); then the end check (RB-E2)."""
    r0 = state[L.S_R]
    state[L.S_R] = r0 - int(cfg[R.R_RINGMASTER_STEP])
    state[L.S_RM_DROPS] += 1
    state[seat_base(seat) + L.F_RM_DROPS] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_RINGMASTER, seat, r0, state[L.S_R], source)
    return end_check(state, cfg, L.ET_RINGMASTER, log)


@njit(cache=True)
def _start_move(state, die, dmin, dmax, dp):
    """RB-T6 / RB-F13 / RB-F14: ``die`` moves one own monkey N in [dmin, dmax] (decision
    ``dp``: D06 / D07 / D13)."""
    state[L.S_CTX_DIE] = die
    state[L.S_CTX_DIST] = dmin
    state[L.S_CTX_DMAX] = dmax
    state[L.S_MOVE_POINT] = dp
    state[L.S_PHASE] = L.PH_MOVE


@njit(cache=True)
def list_pending_move(state, rules, seat):
    """The pending move's options (``list_moves``); D13 may always be declined, D06 / D07
    with ``move_optional`` (AMB-04)."""
    optional = state[L.S_MOVE_POINT] == L.D_RM_MOVE or rules[R.R_MOVE_OPTIONAL] > 0.5
    n = list_moves(state, seat, state[L.S_CTX_DIST], state[L.S_CTX_DMAX], optional)
    if n == 0:
        state[L.S_PHASE] = L.PH_ORDER
    return n


@njit(cache=True)
def _start_shop(state, rules, land):
    """RB-P1: a shop visit of ``shop_exchanges_per_landing`` exchanges; then the landing
    effect of space ``land`` (-1: none)."""
    state[L.S_SHOP_LEFT] = int(rules[R.R_SHOP_EXCHANGES_PER_LANDING])
    state[L.S_LAND] = land
    state[L.S_PHASE] = L.PH_SHOP


@njit(cache=True)
def _leave_shop(state):
    """The shop visit is over: the pending landing effect, if any, else the next die."""
    state[L.S_PHASE] = L.PH_LAND if state[L.S_LAND] >= 0 else L.PH_ORDER


@njit(cache=True)
def list_shop(state, rules, seat):
    """RB-P2 (D11): exchange k <= min(shop_max_stars, stars) stars; nothing to exchange (or no
    exchange left) ends the visit."""
    kcap = min(int(rules[R.R_SHOP_MAX_STARS]), int(rules[R.R_STAR_EXCHANGE]) - 1)
    kmax = min(kcap, state[seat_base(seat) + L.F_STARS])
    if state[L.S_SHOP_LEFT] <= 0 or kmax <= 0:
        _leave_shop(state)
        return 0
    for k in range(kmax + 1):
        state[L.S_OPTIONS + k] = k
    return kmax + 1


@njit(cache=True)
def _exchange(state, rules, seat, k, log):
    """RB-P2: ``k`` stars for star_exchange[k] points, never doubled; the end check follows;
    k = 0 ends the visit."""
    if k <= 0:
        _leave_shop(state)
        return
    b = seat_base(seat)
    state[b + L.F_STARS] -= k
    if state[L.S_STAR_LIMITED]:
        state[L.S_STAR_SUPPLY] += k
    pts = int(rules[R.R_STAR_EXCHANGE + 1 + k])
    state[b + L.F_SCORE] += pts
    state[b + L.F_PTS_SHOP] += pts
    state[b + L.F_STARS_CASHED] += k
    state[L.S_SHOP_LEFT] -= 1
    if log.shape[0] > 1:
        emit(log, L.EV_SHOP, seat, k, pts, state[b + L.F_SCORE], state[b + L.F_STARS])
    end_check(state, rules, L.ET_SHOP, log)


@njit(cache=True)
def _move(state, rules, seat, a, log):
    """RB-T6 / RB-T10: the monkey of move ``a`` moves clockwise (wrapping); passed spaces have
    no effect. RB-T7: the landing effect of the space reached follows, with S_CTX_DIE as the
    moving die: START shops (RB-P1); with ``shop_on_pass`` a move that passed START also shops
    once (AMB-02), before the landing effect. a = -1 declines the move."""
    die = state[L.S_CTX_DIE]
    state[L.S_PHASE] = L.PH_ORDER
    if a < 0:
        if log.shape[0] > 1:
            emit(log, L.EV_DECLINE, seat, die, state[L.S_MOVE_POINT])
        return
    dist, monkey = O.decode_move(a)
    b = seat_base(seat)
    track_len = state[L.S_TRACK_LEN]
    st = state[L.S_START_INDEX]
    frm = state[b + L.F_MONKEY + monkey]
    passed = 1 if passes(frm, dist, st, track_len) else 0   # AMB-02
    to = space_after(frm, dist, track_len)
    state[b + L.F_MONKEY + monkey] = to
    state[b + L.F_MOVES] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_MOVE, seat, monkey, frm, to, dist, die, passed)
    kind = state[L.S_SPACE_KIND + to]
    if kind == L.SP_START:
        _start_shop(state, rules, -1)
    elif passed and rules[R.R_SHOP_ON_PASS] > 0.5:
        _start_shop(state, rules, to)
    elif kind != L.SP_EMPTY:
        state[L.S_LAND] = to
        state[L.S_PHASE] = L.PH_LAND


@njit(cache=True)
def list_face(state, to):
    """RB-T7 FACE(x) (D08) on space ``to``: replace slot 2..6 of the moving die with x
    (supply >= 1) or not (0)."""
    face = state[L.S_SPACE_FACE + to]
    if state[L.S_FACE_SUPPLY + face] < 1:
        state[L.S_PHASE] = L.PH_ORDER
        return 0
    state[L.S_CTX_FACE] = face
    state[L.S_OPTIONS] = 0
    for s in range(2, L.N_SLOTS + 1):
        state[L.S_OPTIONS + s - 1] = s
    return L.N_SLOTS


@njit(cache=True)
def _install(state, seat, s, log):
    """RB-T7: slot number ``s`` (2..6) of the moving die gets the offered face; an ARROW then
    gets its target (D09). s = 0 declines. Landing never triggers the ability."""
    die = state[L.S_CTX_DIE]
    face = state[L.S_CTX_FACE]
    state[L.S_PHASE] = L.PH_ORDER
    if s == 0:
        if log.shape[0] > 1:
            emit(log, L.EV_DECLINE, seat, die, L.D_INSTALL)
    elif face == L.FC_ARROW:
        state[L.S_CTX_SLOT] = s - 1
        state[L.S_PHASE] = L.PH_ARROW
    else:
        install_face(state, seat, die, s - 1, face, np.int64(-1), log)


@njit(cache=True)
def _plus1(state, seat, a, log):
    """RB-P3: place POINTS_1 (kind 0) or upgrade one point face (kind 1); a = -1 declines."""
    state[L.S_PHASE] = L.PH_ORDER
    if a < 0:
        if log.shape[0] > 1:
            emit(log, L.EV_DECLINE, seat, state[L.S_CTX_DIE], L.D_PLUS1)
        return
    kind, d, s = O.decode_plus1(a)
    if kind == 0:
        install_face(state, seat, d, s, np.int64(L.FC_POINTS_1), np.int64(-1), log)
    else:
        b = seat_base(seat) + L.F_FACE + d * L.N_SLOTS + s
        old = state[b]
        state[L.S_FACE_SUPPLY + old] += 1
        state[L.S_FACE_SUPPLY + old + 1] -= 1
        state[b] = old + 1
        state[seat_base(seat) + L.F_INSTALLS] += 1
        if log.shape[0] > 1:
            emit(log, L.EV_UPGRADE, seat, d, s + 1, old + 1, old)


# ---- face abilities (RB-F1 .. RB-F15) --------------------------------------------------------
@njit(cache=True)
def gain_token(state, seat, token, amount, mult, log):
    """RB-F11 / RB-F12: gain ``amount`` gold or stars, capped by a limited supply."""
    b = seat_base(seat)
    if token == L.TK_GOLD:
        got = _deal(state, L.S_GOLD_SUPPLY, L.S_GOLD_LIMITED, amount)
        state[b + L.F_GOLD] += got
        state[b + L.F_GOLD_GAINED] += got
        if log.shape[0] > 1:
            emit(log, L.EV_TOKEN, seat, L.TK_GOLD, got, state[b + L.F_GOLD], mult)
    else:
        got = _deal(state, L.S_STAR_SUPPLY, L.S_STAR_LIMITED, amount)
        state[b + L.F_STARS] += got
        state[b + L.F_STARS_GAINED] += got
        if log.shape[0] > 1:
            emit(log, L.EV_TOKEN, seat, L.TK_STAR, got, state[b + L.F_STARS], mult)


@njit(cache=True)
def rank_1234(state, cfg, seat, mult, log):
    """RB-F4: r = 1 + #players with a strictly greater score; + rank_points[r] x mult."""
    me = state[seat_base(seat) + L.F_SCORE]
    r = 1
    for p in range(state[L.S_N_PLAYERS]):
        if state[seat_base(p) + L.F_SCORE] > me:
            r += 1
    pts = int(cfg[R.R_RANK_POINTS + 1 + min(r, 4) - 1]) * mult
    if log.shape[0] > 1:
        emit(log, L.EV_RANK, seat, r, pts, mult)
    gain_points(state, cfg, seat, pts, L.FC_RANK, L.F_PTS_RANK, log)


@njit(cache=True)
def train_ride(state, cfg, seat, mult, log):
    """RB-F7: + train_track[train_pos] x mult, then the train advances once (even doubled)."""
    pos = state[L.S_TRAIN_POS]
    v = state[L.S_TRAIN_TRACK + pos]
    state[L.S_TRAIN_POS] = (pos + 1) % state[L.S_TRAIN_LEN]
    state[L.S_TRAIN_MOVES] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_TRAIN, seat, v, mult, v * mult, state[L.S_TRAIN_POS])
    gain_points(state, cfg, seat, v * mult, L.FC_TRAIN, L.F_PTS_TRAIN, log)


@njit(cache=True)
def stock_scoring(state, cfg, log):
    """RB-F10 (AMB-18/19), atomic: groups by stock count (descending, holders only).

    Sole holder of all: monopoly; sole first: first, then sole second or each tied second;
    tied first: each tie_first, the next group after_tie_first. Later groups nothing. Then all
    stocks return (supply = stock_count) and the end check runs.
    """
    n = state[L.S_N_PLAYERS]
    c1 = 0
    for p in range(n):
        c1 = max(c1, state[seat_base(p) + L.F_STOCKS])
    c2 = 0
    n1 = 0
    n2 = 0
    for p in range(n):
        c = state[seat_base(p) + L.F_STOCKS]
        if c == c1 and c > 0:
            n1 += 1
        elif 0 < c < c1:
            c2 = max(c2, c)
    for p in range(n):
        if 0 < state[seat_base(p) + L.F_STOCKS] == c2:
            n2 += 1
    for p in range(n):
        b = seat_base(p)
        c = state[b + L.F_STOCKS]
        pay = 0
        if c > 0 and c == c1:
            if n1 == 1 and n2 == 0:
                pay = int(cfg[R.R_STOCK_PAY_MONOPOLY])
            elif n1 == 1:
                pay = int(cfg[R.R_STOCK_PAY_FIRST])
            else:
                pay = int(cfg[R.R_STOCK_PAY_TIE_FIRST])
        elif c > 0 and c == c2:
            if n1 > 1:
                pay = int(cfg[R.R_STOCK_PAY_AFTER_TIE_FIRST])
            elif n2 == 1:
                pay = int(cfg[R.R_STOCK_PAY_SECOND])
            else:
                pay = int(cfg[R.R_STOCK_PAY_TIE_SECOND])
        state[b + L.F_SCORE] += pay
        state[b + L.F_PTS_STOCK] += pay
        if c > 0:
            if log.shape[0] > 1:
                emit(log, L.EV_STOCK_PAY, p, c, pay, state[b + L.F_SCORE])
    for p in range(n):
        state[seat_base(p) + L.F_STOCKS] = 0
    state[L.S_STOCK_SUPPLY] = state[L.S_STOCK_COUNT]
    state[L.S_STOCK_SCORINGS] += 1
    end_check(state, cfg, L.ET_STOCK, log)


@njit(cache=True)
def take_stock(state, cfg, seat, log):
    """RB-F9: take a stock if the supply has one; an emptied supply scores at once (RB-F10).
    Never doubled."""
    if state[L.S_STOCK_SUPPLY] < 1:
        if log.shape[0] > 1:
            emit(log, L.EV_NO_EFFECT, seat, state[L.S_CTX_DIE], L.FC_STOCK, L.NE_NO_STOCK)
        return
    b = seat_base(seat)
    state[b + L.F_STOCKS] += 1
    state[b + L.F_STOCKS_TAKEN] += 1
    state[L.S_STOCK_SUPPLY] -= 1
    if log.shape[0] > 1:
        emit(log, L.EV_STOCK, seat, state[b + L.F_STOCKS], state[L.S_STOCK_SUPPLY])
    if state[L.S_STOCK_SUPPLY] == 0:
        stock_scoring(state, cfg, log)


@njit(cache=True)
def _start_thief(state, rules, mult):
    """RB-F2: clockwise from the left, each opponent holding a star, gold or stock gives
    tokens of a type the active player chooses (D12): 1, or mult with
    ``double_affects_thief`` (AMB-20)."""
    state[L.S_THIEF_AMOUNT] = mult if rules[R.R_DOUBLE_AFFECTS_THIEF] > 0.5 else 1
    state[L.S_THIEF_TOOK] = 0
    state[L.S_CURSOR] = 1
    state[L.S_PHASE] = L.PH_THIEF


@njit(cache=True)
def list_thief(state, seat, log):
    """D12: the token types the next victim (from offset S_CURSOR) holds; an opponent with
    none is skipped. After the last one: no effect if nobody gave anything (RB-F2)."""
    n = state[L.S_N_PLAYERS]
    for i in range(state[L.S_CURSOR], n):
        vb = seat_base((seat + i) % n)
        k = 0
        for t in range(3):
            if state[vb + L.F_GOLD + t] > 0:
                state[L.S_OPTIONS + k] = t
                k += 1
        if k > 0:
            state[L.S_CTX_VICTIM] = (seat + i) % n
            state[L.S_CURSOR] = i
            return k
    if state[L.S_THIEF_TOOK] == 0:
        if log.shape[0] > 1:
            emit(log, L.EV_NO_EFFECT, seat, state[L.S_CTX_DIE], L.FC_THIEF, L.NE_THIEF_NOBODY)
    state[L.S_PHASE] = L.PH_ORDER
    return 0


@njit(cache=True)
def _steal(state, seat, t, log):
    """RB-F2: victim S_CTX_VICTIM gives up to S_THIEF_AMOUNT tokens of type ``t``; no stock
    scoring."""
    v = state[L.S_CTX_VICTIM]
    vb = seat_base(v)
    me = seat_base(seat)
    got = min(state[L.S_THIEF_AMOUNT], state[vb + L.F_GOLD + t])
    state[vb + L.F_GOLD + t] -= got
    state[me + L.F_GOLD + t] += got
    state[me + L.F_STEALS] += got
    state[vb + L.F_STOLEN] += got
    state[L.S_THIEF_TOOK] += got
    state[L.S_CURSOR] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_THEFT, seat, v, t, got)


@njit(cache=True)
def rb_f6_gamble(state, cfg, seat, k, log):
    """RB-F6: the gamble die of die S_CTX_DIE's Gamble shows face index ``k`` (drawn,
    ``_draw_gamble``, or given by the answer to a chance point D_GAMBLE_ROLL): points (never
    doubled); RINGMASTER lowers R with no move; NINE moves a monkey N in [nine_move_min,
    nine_move_max] with this die as the moving die (AMB-13). Then the next die (PH_ORDER)."""
    die = state[L.S_CTX_DIE]
    state[L.S_PHASE] = L.PH_ORDER
    g = state[L.S_GAMBLE + k]
    if log.shape[0] > 1:
        emit(log, L.EV_GAMBLE, seat, die, g)
    if g == L.GB_RINGMASTER:
        lower_ringmaster(state, cfg, seat, L.FC_GAMBLE, log)
    elif g == L.GB_NINE:
        _start_move(state, die, int(cfg[R.R_NINE_MOVE_MIN]), int(cfg[R.R_NINE_MOVE_MAX]),
                    np.int64(L.D_NINE))
    else:
        gain_points(state, cfg, seat, g, L.FC_GAMBLE, L.F_PTS_GAMBLE, log)


@njit(cache=True)
def resolve_die(state, cfg, seat, die, log):
    """RB-T5b: resolve one rolled die completely; the face is read now (arrows followed,
    RB-F3), with the Doubles assigned to it (RB-F5). Then its result face applies (RB-T6,
    RB-T8, RB-T9, RB-F1 .. RB-F15): at once, or through the decisions it starts (S_PHASE; a
    GAMBLE through the roll of the gamble die, PH_GAMBLE); the next die follows (PH_ORDER)."""
    state[L.S_PHASE] = L.PH_ORDER
    s = state[L.S_UP_SLOT + die]
    f, via = follow_arrow(state, seat, die, s)
    mult = double_mult(state, cfg, die)
    if log.shape[0] > 1:
        emit(log, L.EV_RESOLVE, seat, die, s + 1, face_at(state, seat, die, s), f, mult)
    if via and f == L.FC_EMPTY:
        if log.shape[0] > 1:
            emit(log, L.EV_NO_EFFECT, seat, die, L.FC_ARROW, L.NE_CYCLE)
        return
    if via and is_number_face(f) and int(cfg[R.R_ARROW_NUMBER_MODE]) == R.ARROWNUM_NONE:
        if log.shape[0] > 1:
            emit(log, L.EV_NO_EFFECT, seat, die, f, L.NE_ARROW_NUMBER)
        return
    state[L.S_CTX_DIE] = die
    if f == L.FC_RINGMASTER:
        # RB-T8: R -= step (mandatory), end check, then an optional move of
        # ``ringmaster_face_move`` with this die as the moving die (AMB-24: decrement first)
        if not lower_ringmaster(state, cfg, seat, L.FC_RINGMASTER, log):
            dist = int(cfg[R.R_RINGMASTER_FACE_MOVE])
            if dist > 0:
                _start_move(state, die, dist, dist, np.int64(L.D_RM_MOVE))
    elif L.FC_PIP_2 <= f <= L.FC_PIP_6:
        _start_move(state, die, f, f, np.int64(L.D_MOVE))
    elif f == L.FC_NINE:
        _start_move(state, die, int(cfg[R.R_NINE_MOVE_MIN]), int(cfg[R.R_NINE_MOVE_MAX]),
                    np.int64(L.D_NINE))
    elif L.FC_POINTS_1 <= f <= L.FC_POINTS_5:
        gain_points(state, cfg, seat, (f - L.FC_POINTS_1 + 1) * mult, f, L.F_PTS_FACES, log)
    elif f == L.FC_THIEF:
        _start_thief(state, cfg, mult)
    elif f == L.FC_RANK:
        rank_1234(state, cfg, seat, mult, log)
    elif f == L.FC_GAMBLE:
        state[L.S_PHASE] = L.PH_GAMBLE   # RB-F6: the gamble die rolls next
    elif f == L.FC_TRAIN:
        train_ride(state, cfg, seat, mult, log)
    elif f == L.FC_STOCK:
        take_stock(state, cfg, seat, log)
    elif f == L.FC_STAR:
        gain_token(state, seat, L.TK_STAR, mult, mult, log)
    elif f == L.FC_GOLD:
        gain_token(state, seat, L.TK_GOLD, mult, mult, log)
    elif f == L.FC_REROLL:
        if log.shape[0] > 1:
            emit(log, L.EV_NO_EFFECT, seat, die, f, L.NE_REROLL_LATE)
    elif f == L.FC_DOUBLE:
        if log.shape[0] > 1:
            emit(log, L.EV_NO_EFFECT, seat, die, f, L.NE_DOUBLE_DIE)


# ---- the steps ------------------------------------------------------------------------------
@njit(cache=True)
def _resolve(state, rules, seat, die, log):
    """RB-T5b (D05): ``die`` is resolved next."""
    state[L.S_RESOLVED] |= 1 << die
    resolve_die(state, rules, seat, die, log)


@njit(cache=True)
def _arrow(state, seat, t, log):
    """D09: the ARROW goes into slot index S_CTX_SLOT of the moving die, targeting slot
    number ``t``."""
    install_face(state, seat, state[L.S_CTX_DIE], state[L.S_CTX_SLOT], np.int64(L.FC_ARROW), t - 1,
                 log)
    state[L.S_PHASE] = L.PH_ORDER


@njit(cache=True)
def list_chance(state, dp):
    """The options of chance point ``dp`` (``options.py``): D_ROLL the slot numbers 1..6 a die
    may show (RB-T3), D_GAMBLE_ROLL the face indices 0..5 of the gamble die (RB-F6)."""
    if dp == L.D_ROLL:
        for s in range(L.N_SLOTS):
            state[L.S_OPTIONS + s] = s + 1
        return L.N_SLOTS
    for k in range(L.N_GAMBLE):
        state[L.S_OPTIONS + k] = k
    return L.N_GAMBLE


@njit(cache=True)
def _apply(state, rules, seat, dp, code, log):
    """Carry out option ``code`` of decision ``dp`` of ``seat`` and set where play goes on
    (``apply_option``; the game loop of ``_steps`` calls each effect at its own place)."""
    if dp == L.D_ORDER:
        _resolve(state, rules, seat, code, log)
    elif dp == L.D_MOVE or dp == L.D_NINE or dp == L.D_RM_MOVE:
        _move(state, rules, seat, code, log)
    elif dp == L.D_EXTRA:
        _pay_extra(state, rules, seat, code, log)
    elif dp == L.D_DICE:
        _roll_chosen(state, code)
    elif dp == L.D_SHOP:
        _exchange(state, rules, seat, code, log)
    elif dp == L.D_INSTALL:
        _install(state, seat, code, log)
    elif dp == L.D_PLUS1:
        _plus1(state, seat, code, log)
    elif dp == L.D_ARROW:
        _arrow(state, seat, code, log)
    elif dp == L.D_THIEF:
        _steal(state, seat, code, log)
    elif dp == L.D_REROLL:
        _reroll(state, rules, seat, code, log)
    elif dp == L.D_DOUBLE:
        _declare_double(state, seat, code, log)
    elif dp == L.D_ROLL:
        _roll_answered(state, rules, seat, code - 1, log)
    elif dp == L.D_GAMBLE_ROLL:
        rb_f6_gamble(state, rules, seat, code, log)


@njit(cache=True)
def _post(state, seat, dp, n):
    """Post decision ``dp`` of ``seat`` with the ``n`` options listed (the options block of
    ``sim.decide``); returns 1, ``advance``'s answer."""
    state[L.S_POINT] = dp
    state[L.S_DECIDER] = seat
    state[L.S_N_OPTIONS] = n
    return 1


@njit(cache=True)
def _steps(state, rules, kinds, work, log, turn_stop, self_play, chance=False):
    """The step machine from the control position S_PHASE: play the forced steps up to the
    next decision, post it and return 1; 0 once the game is over. With ``turn_stop`` it also
    stops (returning 2) when the active seat's turn is over (RB-T12), before the next one
    begins.

    Without ``self_play`` every decision is posted, whatever its number of options (one: a
    forced decision, which ``advance`` takes with option 0), and so is a decision point the
    rules reach with no legal option (posted with n = 0 after the rules' fallback is played,
    so the caller only passes it): a Thief with nobody to rob (D12, RB-F2), a FACE(x) space
    whose face x is out of supply (D08: nothing installed) and a move with no option at all
    (D06, D07, D13: only with rule tweaks, an empty NINE range). The other empty lists are not decisions but the end
    of a sequence (every die ordered, the shop visit over, the re-roll or the Doubles no longer
    applying), and a Double with no other die to take it (AMB-08) is passed inside
    ``list_double``'s scan without a post. ``sim.tracing`` counts them (``advance_all``).

    With ``self_play`` (the game loop of ``play_many``) the seats' policies take the
    decisions where they arise, so ``while advance: apply_option(choose)`` runs in this one
    call to the end of the game; each decision point then calls its own heuristic and effect
    (the same functions as ``choose`` / ``apply_option``), which the compiler inlines there.
    K_RANDOM: ``sim.decide.random_index``; K_GREEDY: the ``policies.greedy_*`` heuristic of
    the point with ``work = (cfg,)``.

    Dice are drawn from the dice stream (RB-S11) where they roll: the dice of a roll or a
    reroll event in one step (PH_ROLL, RB-T3 / RB-F8), the gamble die in the step after the
    resolution that rolls it (PH_GAMBLE, RB-F6). With ``chance`` (tests and tools only, never
    with ``self_play``) each die about to roll is posted instead as a chance point (D_ROLL,
    D_GAMBLE_ROLL: the rolling seat decides, the options are the die's faces, ``list_chance``),
    and applying option x rolls the die as showing x (``_apply``); the play is otherwise the
    same.
    The production loops leave ``chance`` out: compiled with its default (False) as a
    constant, their roll loops carry no test for it (``sim.decide``).

    The steps follow one another in the order of a turn (RB-T1 .. RB-T7, then the effects a
    resolution starts), and the position a step leaves is carried in the local ``ph`` to the
    next one: a step goes on with the steps after it at once and comes back to the top of the
    loop (which re-reads S_PHASE) only for an earlier one, the next die (RB-T5b) or the next
    turn. Only a resolution (RB-T5b), the gamble die (RB-F6) and a shop exchange (RB-P2) can end
    the game (RB-E2); after them the top of the loop checks it first."""
    while True:
        ph = state[L.S_PHASE]
        if ph == L.PH_OVER:
            return 0
        if state[L.S_ENDED]:
            _game_over(state, rules, log)
            return 0
        seat = state[L.S_ACTIVE]
        greedy_seat = self_play and kinds[seat] == L.K_GREEDY
        if ph == L.PH_TURN:
            # RB-E5: a game is cut at max_turns player turns (flagged truncated)
            if state[L.S_TURN] >= int(rules[R.R_MAX_TURNS]):
                state[L.S_TRUNCATED] = 1
                if log.shape[0] > 1:
                    emit(log, L.EV_TRUNCATED, state[L.S_TURN])
                _game_over(state, rules, log)
                return 0
            begin_turn(state, seat, log)
            n = list_extra(state, rules, seat)
            i = 0
            if n >= 2 or (n == 1 and not self_play):
                if not self_play:
                    return _post(state, seat, L.D_EXTRA, n)
                if greedy_seat:
                    i = greedy_extra_dice(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            _pay_extra(state, rules, seat, state[L.S_OPTIONS + i], log)
            ph = L.PH_DICE   # RB-T2 follows RB-T1
        if ph == L.PH_DICE:
            n = list_dice(state)
            i = 0
            if n >= 2 or (n == 1 and not self_play):
                if not self_play:
                    return _post(state, seat, L.D_DICE, n)
                if greedy_seat:
                    i = greedy_dice(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            _roll_chosen(state, state[L.S_OPTIONS + i])
            ph = state[L.S_PHASE]
        if ph == L.PH_ROLL:
            # RB-T3 / RB-F8: the dice of S_ROLL_LEFT roll in die-id order (RB-S11)
            left = state[L.S_ROLL_LEFT]
            for d in range(state[L.S_N_DICE]):
                if (left >> d) & 1:
                    if chance:
                        return _post(state, seat, L.D_ROLL, list_chance(state, L.D_ROLL))
                    rb_t3_roll(state, rules, seat, d, _draw_slot(state), log)
            _rolled(state, rules, seat)
            ph = state[L.S_PHASE]
        if ph == L.PH_REROLL:
            n = list_reroll(state, rules, seat)
            i = 0
            if n >= 2 or (n == 1 and not self_play):
                if not self_play:
                    return _post(state, seat, L.D_REROLL, n)
                if greedy_seat:
                    i = greedy_reroll(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            if n > 0:
                _reroll(state, rules, seat, state[L.S_OPTIONS + i], log)
            ph = state[L.S_PHASE]
        if ph == L.PH_DOUBLES:
            n = list_double(state, rules, seat, log)
            i = 0
            if n >= 2 or (n == 1 and not self_play):
                if not self_play:
                    return _post(state, seat, L.D_DOUBLE, n)
                if greedy_seat:
                    i = greedy_double(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            if n > 0:
                _declare_double(state, seat, state[L.S_OPTIONS + i], log)
            ph = state[L.S_PHASE]
        if ph == L.PH_ORDER:
            n = list_order(state)
            if n == 0:
                # RB-T12: every rolled die is resolved: the turn passes clockwise, to seat
                # (seat + 1) mod n
                state[L.S_ACTIVE] = seat + 1 if seat + 1 < state[L.S_N_PLAYERS] else 0
                state[L.S_PHASE] = L.PH_TURN
                if turn_stop:
                    return 2
                continue
            i = 0
            if n >= 2 or (n == 1 and not self_play):
                if not self_play:
                    return _post(state, seat, L.D_ORDER, n)
                if greedy_seat:
                    i = greedy_order(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            _resolve(state, rules, seat, state[L.S_OPTIONS + i], log)
            if state[L.S_ENDED]:
                continue
            ph = state[L.S_PHASE]
        if ph == L.PH_GAMBLE:
            # RB-F6: the gamble die of die S_CTX_DIE's Gamble rolls
            if chance:
                return _post(state, seat, L.D_GAMBLE_ROLL, list_chance(state, L.D_GAMBLE_ROLL))
            rb_f6_gamble(state, rules, seat, _draw_gamble(state), log)
            if state[L.S_ENDED]:
                continue
            ph = state[L.S_PHASE]
        if ph == L.PH_MOVE:
            n = list_pending_move(state, rules, seat)
            i = 0
            if n >= 2 or not self_play:
                if not self_play:
                    return _post(state, seat, state[L.S_MOVE_POINT], n)
                if greedy_seat:
                    i = greedy_move(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            if n > 0:
                _move(state, rules, seat, state[L.S_OPTIONS + i], log)
            ph = state[L.S_PHASE]
        if ph == L.PH_SHOP:
            n = list_shop(state, rules, seat)
            i = 0
            if n >= 2 or (n == 1 and not self_play):
                if not self_play:
                    return _post(state, seat, L.D_SHOP, n)
                if greedy_seat:   # options k = 0..kmax: k is the index
                    i = shop_k(state, work[0], seat, state[L.S_OPTIONS + n - 1])
                else:
                    i = random_index(state, L.S_RNG_P, n)
            if n > 0:
                _exchange(state, rules, seat, state[L.S_OPTIONS + i], log)
                if state[L.S_ENDED]:
                    continue
            ph = state[L.S_PHASE]
        if ph == L.PH_LAND:
            # RB-T7 / RB-P3: the FACE or +1 effect of the space reached
            to = state[L.S_LAND]
            state[L.S_LAND] = -1
            kind = state[L.S_SPACE_KIND + to]
            if kind == L.SP_FACE:
                n = list_face(state, to)
                i = 0
                if n >= 2 or not self_play:
                    if not self_play:
                        return _post(state, seat, L.D_INSTALL, n)
                    if greedy_seat:
                        i = greedy_install(state, work[0], seat, n)
                    else:
                        i = random_index(state, L.S_RNG_P, n)
                if n > 0:
                    _install(state, seat, state[L.S_OPTIONS + i], log)
            elif kind == L.SP_PLUS1:
                n = list_plus1(state, rules, seat, state[L.S_CTX_DIE])
                i = 0
                if n >= 2 or (n == 1 and not self_play):
                    if not self_play:
                        return _post(state, seat, L.D_PLUS1, n)
                    if greedy_seat:
                        i = greedy_plus1(state, work[0], seat, n)
                    else:
                        i = random_index(state, L.S_RNG_P, n)
                _plus1(state, seat, state[L.S_OPTIONS + i], log)
            else:
                state[L.S_PHASE] = L.PH_ORDER
            ph = state[L.S_PHASE]
        if ph == L.PH_ARROW:
            n = list_arrow_targets(state, rules, state[L.S_CTX_SLOT])
            i = 0
            if n >= 2 or (n == 1 and not self_play):
                if not self_play:
                    return _post(state, seat, L.D_ARROW, n)
                if greedy_seat:
                    i = greedy_arrow(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            _arrow(state, seat, state[L.S_OPTIONS + i], log)
            ph = state[L.S_PHASE]
        if ph == L.PH_THIEF:
            n = list_thief(state, seat, log)
            i = 0
            if n >= 2 or (not self_play and (n == 1 or state[L.S_THIEF_TOOK] == 0)):
                if not self_play:
                    return _post(state, seat, L.D_THIEF, n)
                if greedy_seat:
                    i = greedy_thief(state, work[0], seat, n)
                else:
                    i = random_index(state, L.S_RNG_P, n)
            if n > 0:
                _steal(state, seat, state[L.S_OPTIONS + i], log)


@njit(cache=True)
def advance(state, rules, comp, log):
    """Play the forced steps up to the next decision with two or more legal options (listed
    in the options block) and return 1; 0 once the game is over (``sim.decide``). A decision
    with one legal option is taken here (option 0), one with none passed. With a decision
    pending: 1, nothing changes.
    ``rules`` is the rules array (float64[R_LEN]; a ``cfg`` array works too)."""
    return _advance(state, rules, comp, log, False, False)


@njit(cache=True)
def advance_turn(state, rules, comp, log, chance):
    """``advance`` that also stops when the active seat's turn is over (returns 2; the next
    call begins the next turn): tests and tools that look at one turn. With ``chance`` it
    also stops at each die about to roll, posted as a chance point (D_ROLL / D_GAMBLE_ROLL,
    ``_steps``) that the caller answers with the face it shows (``apply_option``); without,
    the dice are drawn as in ``advance``."""
    return _advance(state, rules, comp, log, True, chance)


@njit(cache=True)
def _advance(state, rules, comp, log, turn_stop, chance):
    """``advance`` (and with ``turn_stop``, ``advance_turn``): step to each posted decision,
    take the forced ones and pass those without options, stop at a real choice (and with
    ``chance`` at each chance point)."""
    while True:
        if state[L.S_POINT] != 0:
            n = state[L.S_N_OPTIONS]
            if n >= 2:
                return 1
            if n == 1:
                apply_option(state, rules, comp, np.int64(0), log)
            else:
                state[L.S_POINT] = 0
        r = _steps(state, rules, state, (rules,), log, turn_stop, False, chance)
        if r != 1:
            return r


@njit(cache=True)
def advance_all(state, rules, comp, log):
    """``advance`` that stops at every decision the rules pose (``sim.decide``): 1 with it
    posted, whatever its number of options n; n = 0 (no legal option, the rules' fallback
    played): the next call passes it and goes on; 0 once the game is over."""
    if state[L.S_POINT] != 0:
        if state[L.S_N_OPTIONS] > 0:
            return 1
        state[L.S_POINT] = 0
    return _steps(state, rules, state, (rules,), log, False, False, False)   # as advance's: one compiled loop for both


@njit(cache=True)
def apply_option(state, rules, comp, index, log):
    """Carry out option ``index`` of the pending decision (``sim.decide``); False (and no
    change) when no decision is pending or ``index`` is out of range."""
    dp = state[L.S_POINT]
    if dp == 0 or index < 0 or index >= state[L.S_N_OPTIONS]:
        return False
    state[L.S_POINT] = 0
    state[L.S_N_OPTIONS] = 0
    _apply(state, rules, state[L.S_DECIDER], dp, state[L.S_OPTIONS + index], log)
    return True


@njit(cache=True)
def choose(state, rules, comp, kinds, pparams, work):
    """The deciding seat's policy: an index into the pending options (``sim.decide``).
    K_RANDOM: uniform (SUB_POLICY stream in the state); K_GREEDY and its presets:
    ``policies.greedy`` with ``work = (cfg,)`` (``policies.fill_cfg``, made by
    ``new_game``)."""
    seat = state[L.S_DECIDER]
    if kinds[seat] == L.K_GREEDY:
        return greedy(state, work[0], seat, state[L.S_POINT], state[L.S_N_OPTIONS])
    return random_index(state, L.S_RNG_P, state[L.S_N_OPTIONS])


# ==== game end (RB-E3 .. RB-E5) and entry points =============================================
@njit(cache=True)
def tokens_held(state, seat):
    """gold + stocks + stars, the RB-E3 tiebreak."""
    b = seat_base(seat)
    return state[b + L.F_GOLD] + state[b + L.F_STARS] + state[b + L.F_STOCKS]


@njit(cache=True)
def final_score(state, rules, p):
    """The final score of seat ``p``: its points plus its ``end_bonus_points`` (added once the
    game is over, so the bonus never triggers the end, RB-E2). ``rules`` may be ``cfg``, whose
    first R_LEN slots are the rules."""
    return state[seat_base(p) + L.F_SCORE] + np.int64(rules[R.R_END_BONUS_POINTS + 1 + p])


@njit(cache=True)
def final_rank(state, rules, p):
    """RB-E3: rank of seat ``p`` by final score (``final_score``), then tokens; ties on both
    share the rank (1 = best)."""
    sp = final_score(state, rules, p)
    tp = tokens_held(state, p)
    r = 1
    for q in range(state[L.S_N_PLAYERS]):
        sq = final_score(state, rules, q)
        if sq > sp or (sq == sp and tokens_held(state, q) > tp):
            r += 1
    return r


@njit(cache=True)
def winners(state, rules):
    """(n_winners, winner_seat) of RB-E3: winner_seat = -1 when the win is shared."""
    nw = 0
    ws = -1
    for p in range(state[L.S_N_PLAYERS]):
        if final_rank(state, rules, p) == 1:
            nw += 1
            ws = p
    if nw != 1:
        ws = -1
    return nw, ws


@njit(cache=True)
def _game_over(state, rules, log):
    """The game is over (ended, RB-E2, or truncated, RB-E5): no decision is pending any more."""
    state[L.S_PHASE] = L.PH_OVER
    state[L.S_POINT] = 0
    state[L.S_N_OPTIONS] = 0
    if log.shape[0] > 1:
        nw, ws = winners(state, rules)
        emit(log, L.EV_END, state[L.S_END_TRIGGER], state[L.S_END_SEAT], state[L.S_R], ws, nw)


@njit(cache=True)
def finish(state, rules, comp, games_row, seats_rows):
    """Fill the output row and the seat rows of a finished game through their declared
    indices (``GO_*``, ``SO_*`` of ``layout.GAME_OUT`` / ``layout.SEAT_OUT``)."""
    n = state[L.S_N_PLAYERS]
    nw, ws = winners(state, rules)
    turns = state[L.S_TURN]
    games_row[L.GO_ROUNDS] = (turns + n - 1) // n
    games_row[L.GO_TRUNCATED] = state[L.S_TRUNCATED]
    games_row[L.GO_N_WINNERS] = nw
    games_row[L.GO_WINNER_SEAT] = ws
    games_row[L.GO_END_REASON] = 1 if state[L.S_TRUNCATED] else 0   # SPEC.end_reasons
    games_row[L.GO_END_TRIGGER] = state[L.S_END_TRIGGER]
    games_row[L.GO_END_SEAT] = state[L.S_END_SEAT]
    games_row[L.GO_RINGMASTER_FINAL] = state[L.S_R]
    games_row[L.GO_TURNS] = turns
    games_row[L.GO_RINGMASTER_DROPS] = state[L.S_RM_DROPS]
    games_row[L.GO_STOCK_SCORINGS] = state[L.S_STOCK_SCORINGS]
    games_row[L.GO_TRAIN_RIDES] = state[L.S_TRAIN_MOVES]
    games_row[L.GO_TILES_MASK] = state[L.S_TILES_MASK]
    games_row[L.GO_START_CHAIR] = state[L.S_START_CHAIR]
    for p in range(n):
        b = seat_base(p)
        row = seats_rows[p]
        rank = final_rank(state, rules, p)
        row[L.SO_SCORE] = final_score(state, rules, p)
        row[L.SO_RANK] = rank
        row[L.SO_WON] = 1 if rank == 1 else 0
        row[L.SO_GOLD] = state[b + L.F_GOLD]
        row[L.SO_STARS] = state[b + L.F_STARS]
        row[L.SO_STOCKS] = state[b + L.F_STOCKS]
        row[L.SO_TOKENS] = tokens_held(state, p)
        row[L.SO_TURNS_TAKEN] = state[b + L.F_TURNS]
        row[L.SO_DICE_ROLLED] = state[b + L.F_DICE_ROLLED]
        row[L.SO_EXTRA_DICE] = state[b + L.F_EXTRA_DICE]
        row[L.SO_GOLD_SPENT] = state[b + L.F_GOLD_SPENT]
        row[L.SO_INSTALLS] = state[b + L.F_INSTALLS]
        row[L.SO_MOVES] = state[b + L.F_MOVES]
        row[L.SO_STEALS] = state[b + L.F_STEALS]
        row[L.SO_STOLEN] = state[b + L.F_STOLEN]
        row[L.SO_PTS_FACES] = state[b + L.F_PTS_FACES]
        row[L.SO_PTS_SHOP] = state[b + L.F_PTS_SHOP]
        row[L.SO_PTS_STOCK] = state[b + L.F_PTS_STOCK]
        row[L.SO_PTS_TRAIN] = state[b + L.F_PTS_TRAIN]
        row[L.SO_PTS_RANK] = state[b + L.F_PTS_RANK]
        row[L.SO_PTS_GAMBLE] = state[b + L.F_PTS_GAMBLE]
        row[L.SO_RINGMASTER_DROPS] = state[b + L.F_RM_DROPS]
        row[L.SO_STARS_CASHED] = state[b + L.F_STARS_CASHED]
        row[L.SO_GOLD_GAINED] = state[b + L.F_GOLD_GAINED]
        row[L.SO_STARS_GAINED] = state[b + L.F_STARS_GAINED]
        row[L.SO_STOCKS_TAKEN] = state[b + L.F_STOCKS_TAKEN]
        row[L.SO_REROLLS] = state[b + L.F_REROLLS]


@njit(cache=True)
def _begin(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
           scratch, rng_s, log):
    """Set game ``game_index`` of the run ``master_seed`` up in the caller's ``state`` (its
    streams included) and fill its ``cfg`` (``policies.fill_cfg``); nothing decided yet.
    ``rng_s`` (uint64[1], the caller's) holds the setup stream (RB-S11) while the set-up
    draws from it: a game allocates no array of its own."""
    rng_s[0] = stream_start(master_seed, game_index, np.int64(SUB_SETUP))
    setup_game(state, rules, comp, n_players, rng_s, scratch, log)
    start_in(state, L.S_RNG_D, master_seed, game_index, np.int64(SUB_DICE))
    start_in(state, L.S_RNG_P, master_seed, game_index, np.int64(SUB_POLICY))
    fill_cfg(cfg, state, rules, kinds, pparams)


@njit(cache=True)
def new_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, log):
    """A new game set up for stepping (``sim.decide``): ``(state, work)``, ``work = (cfg,)``
    the greedy heuristics' per-game array (``choose``)."""
    state = np.zeros(state_size(n_players), dtype=np.int64)
    cfg = np.zeros(R.C_LEN, dtype=np.float64)
    scratch = np.zeros(L.MAX_OPTS, dtype=np.int64)
    rng_s = np.zeros(1, dtype=np.uint64)
    _begin(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
           scratch, rng_s, log)
    return state, (cfg,)


@njit(cache=True)
def _play(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
          scratch, rng_s, games_row, seats_rows, log):
    """Set up and play one game in the caller's arrays (``state``, ``cfg``, ``scratch``,
    ``rng_s``), with its own streams, and write its result rows.

    The rules run on borrowed views of the arguments (``sim.borrow``: no reference counting in
    the thousands of calls a game makes); the caller keeps the arrays alive during the call."""
    _play_game(borrowed(rules), borrowed(comp), n_players, borrowed(kinds), borrowed(pparams),
               master_seed, game_index, borrowed(state), borrowed(cfg), borrowed(scratch),
               borrowed(rng_s), borrowed(games_row), borrowed(seats_rows), borrowed(log))


@njit(cache=True)
def _play_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
               scratch, rng_s, games_row, seats_rows, log):
    """The body of ``_play``: the loop of ``sim.decide``, ``while advance: apply_option(choose)``,
    run by ``_steps`` in one call (``self_play``). The rules are read from ``cfg``, which holds
    them at the same offsets: the loop works on two arrays, ``state`` and ``cfg``."""
    _begin(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, cfg,
           scratch, rng_s, log)
    _steps(state, cfg, kinds, (cfg,), log, False, True)
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
    cfg = np.zeros(R.C_LEN, dtype=np.float64)
    scratch = np.zeros(L.MAX_OPTS, dtype=np.int64)
    rng_s = np.zeros(1, dtype=np.uint64)
    _play(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index, state,
          cfg, scratch, rng_s, games_row, seats_rows, log)


@njit(cache=True, nogil=True)
def play_many(rules, comp, n_players, policy_kind, policy_params, master_seed, first_index,
              games_out, seats_out):
    """Play games ``first_index + i`` for i < games_out.shape[0]; each writes only its row.

    Serial and ``nogil`` (``sim.threads`` plays slices of the rows on threads). Games run in
    blocks of BLOCK_GAMES; each block reuses its work arrays (state, cfg, scratch, setup
    stream). The shared read-only inputs are only read through borrowed views (``_play``), so
    the threads never contend for their reference counts. A game is a pure function of
    (seed, index): results do not depend on the blocks or the threads. Returns nothing; fills
    ``games_out[i]``, ``seats_out[i]``.
    """
    n_games = games_out.shape[0]
    n_blocks = (n_games + BLOCK_GAMES - 1) // BLOCK_GAMES
    for blk in range(n_blocks):
        state = np.zeros(state_size(n_players), dtype=np.int64)
        cfg = np.zeros(R.C_LEN, dtype=np.float64)
        scratch = np.zeros(L.MAX_OPTS, dtype=np.int64)
        rng_s = np.zeros(1, dtype=np.uint64)
        grow = np.zeros(games_out.shape[1], dtype=np.int64)
        srows = np.zeros((n_players, seats_out.shape[2]), dtype=np.int64)
        log = np.zeros((1, 8), dtype=np.int64)
        lo = blk * BLOCK_GAMES
        hi = min(lo + BLOCK_GAMES, n_games)
        for i in range(lo, hi):
            _play(rules, comp, n_players, policy_kind, policy_params, master_seed,
                  first_index + i, state, cfg, scratch, rng_s, grow, srows, log)
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
    restart from ``key`` (the search's stream). The board and its tiles (RB-S2, placed face
    up), supplies and every seat's dice faces are open information and stay.
    """
    substream_in(state, L.S_RNG_D, key, SUB_DICE)
    substream_in(state, L.S_RNG_P, key, SUB_POLICY)
