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

State: one flat int64 array ``state[SEAT0 + n_players * SEAT_LEN]``.

=================== ====== =====================================================================
field               offset meaning
=================== ====== =====================================================================
S_R                 0      Ringmaster position R (RB-S8, RB-E1)
S_TRAIN_POS         1      train index on the train track (RB-S6, RB-F7)
S_STOCK_SUPPLY      2      stocks in the supply (RB-F9)
S_GOLD_SUPPLY       3      gold in the supply (meaningful when S_GOLD_LIMITED)
S_STAR_SUPPLY       4      stars in the supply (meaningful when S_STAR_LIMITED)
S_GOLD_LIMITED      5      1 = gold supply limited, 0 = unlimited (§2.6)
S_STAR_LIMITED      6      1 = star supply limited
S_N_PLAYERS         7      n
S_N_DICE            8      dice per player
S_N_MONKEYS         9      monkeys per player
S_TRACK_LEN         10     spaces on the monkey loop
S_START_INDEX       11     index of START
S_TURN              12     player turns started so far
S_ACTIVE            13     active seat
S_FIRST_SEAT        14     always 0 (seat 0 = start player)
S_START_CHAIR       15     RB-S9 draw: the chair that starts
S_ENDED             16     1 once the end check fired (RB-E2)
S_TRUNCATED         17     1 if max_turns was reached (RB-E5)
S_END_TRIGGER       18     ET_* effect that ended the game
S_END_SEAT          19     active seat when the game ended (-1 if truncated)
S_ROLLED            20     bitmask of dice rolled this turn
S_RESOLVED          21     bitmask of dice resolved this turn
S_REROLL_EVENTS     22     reroll events this turn (RB-F8)
S_TRAIN_LEN         23     train track length
S_TILES_MASK        24     bit c set = tile code c placed this game
S_RM_DROPS          25     R decrements so far
S_STOCK_SCORINGS    26     stock scorings so far
S_CTX_DIE           27     decision context: die concerned (moving / Double / resolving die)
S_CTX_FACE          28     decision context: face offered (D08)
S_CTX_SLOT          29     decision context: slot index of the arrow being installed (D09)
S_CTX_VICTIM        30     decision context: thief victim (D12)
S_CTX_DIST          31     decision context: move distance (D06/D13)
S_SCRIPT_N          32     test hook: number of scripted decisions
S_SCRIPT_POS        33     test hook: next scripted decision
S_SCRIPT_ERR        34     test hook: D_* code of the first illegal scripted decision (0 = none)
S_FORCE_N           35     test hook: number of forced dice draws
S_FORCE_POS         36     test hook: next forced draw
S_STOCK_COUNT       37     stocks in the game (RB-S7)
S_TRAIN_MOVES       38     train resolutions so far
S_SCRIPT_STRICT     39     test hook: 1 = an unscripted multi-option decision is an error
S_UP_SLOT           40     [MAX_DICE] slot index (0..5) showing on each die this turn
S_DBL_COUNT         45     [MAX_DICE] Doubles assigned to each die (RB-F5)
S_DBL_TARGET        50     [MAX_DICE] target of each Double die, -1 = none
S_FACE_SUPPLY       55     [N_FACES] face piles (RB-S3)
S_SPACE_KIND        78     [MAX_TRACK] SP_* kind of each space after tiles (RB-S2)
S_SPACE_FACE        118    [MAX_TRACK] face offered by FACE spaces
S_TRAIN_TRACK       158    [MAX_TRAIN] train values
S_GAMBLE            178    [6] gamble faces: 1..8 points, GB_RINGMASTER, GB_NINE
S_OPP               184    [6] opposite slot index of each slot index (§2.2)
S_FORCE             190    [MAX_FORCE] forced draws: slot numbers 1..6 for dice, face index
                           0..5 for the gamble die, consumed in RNG order (RB-S11)
S_SCRIPT            222    [MAX_SCRIPT] scripted decisions (encodings below)
S_RNG_D             286    SUB_DICE stream state (uint64 bits stored as int64, see ``_rand``)
S_RNG_P             287    SUB_POLICY stream state (same)
S_OPTS              288    [MAX_OPTS] legal options of the current decision
SEAT0               416    first seat block
=================== ====== =====================================================================

Per-seat block ``SEAT0 + seat * SEAT_LEN``:

=============== ====== ========================================================================
field           offset meaning
=============== ====== ========================================================================
F_SCORE         0      score (mouse)
F_GOLD          1      gold
F_STARS         2      stars
F_STOCKS        3      stocks
F_TURNS .. 23   4..23  statistics (see the F_* constants)
F_MONKEY        24     [MAX_MONKEYS] monkey positions
F_FACE          29     [MAX_DICE * 6] face code of die d, slot index s at d * 6 + s (slot = s + 1)
F_ARROW         59     [MAX_DICE * 6] arrow target slot index, -1 when the face is not an arrow
SEAT_LEN        89
=============== ====== ========================================================================

Decisions (§9) are asked with the legal options listed in ``state[S_OPTS:]``;
a decision with a single legal option is taken without asking. Encodings:
D01 e; D02 dice bitmask; D03 die index (-1 = do not apply a non-mandatory Reroll);
D04 target die; D05 die; D06/D07/D13 ``dist * 16 + monkey`` (-1 = decline);
D08 slot number 2..6 (0 = decline); D09 target slot number 1..6;
D10 ``kind * 64 + die * 8 + slot`` with kind 0 = place POINTS_1, 1 = upgrade (-1 = decline);
D11 k stars; D12 token type TK_GOLD / TK_STAR / TK_STOCK.
Tests may script decisions (S_SCRIPT) and force dice (S_FORCE); both are empty in real games.
"""
import numpy as np
from numba import njit, prange

from sim.borrow import borrowed, no_refcount_module, no_wraparound_module, whole_program
from sim.rng import (SUB_DICE, SUB_POLICY, SUB_SETUP, make_stream, mix64, randint, shuffle,
                     stream_start)
from sim.trace import emit

# The game loop only sees arrays its callers own (sim.borrow). These allocate or receive arrays
# a callee allocated: the batch entry points, the stream of setup and the test-facing wrappers
# that build a policy configuration (policies.make_cfg).
no_refcount_module(__name__, exclude=(
    "_play_game", "play_one", "play_many", "play_turn", "pay_extra_dice", "choose_and_roll",
    "reroll_phase", "declare_doubles", "resolution_phase"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)
whole_program(__name__, "_play")  # a game's calls are private to it (sim.borrow)

# ---- rule parameter offsets (== sim.spec.layout(rules.PARAMS); checked by a test) ---------
R_RINGMASTER_START_2P = 0
R_RINGMASTER_START_3P = 1
R_RINGMASTER_START_4P = 2
R_RINGMASTER_STEP = 3
R_END_INCLUSIVE = 4
R_N_MONKEYS = 5
R_N_DICE = 6
R_MAX_DICE_PER_TURN = 7
R_GOLD_PER_EXTRA_DIE = 8
R_STARTING_GOLD = 9
R_STARTING_STARS = 10
R_SEAT_BONUS_GOLD = 11
R_SEAT_BONUS_POINTS = 16
R_BOARD_PRESET = 21
R_TILE_POOL = 22
R_TILES_USED = 35
R_STAR_EXCHANGE = 36
R_SHOP_MAX_STARS = 48
R_SHOP_ON_PASS = 49
R_SHOP_EXCHANGES_PER_LANDING = 50
R_STOCK_COUNT = 51
R_STOCK_PAY_FIRST = 52
R_STOCK_PAY_SECOND = 53
R_STOCK_PAY_TIE_FIRST = 54
R_STOCK_PAY_AFTER_TIE_FIRST = 55
R_STOCK_PAY_TIE_SECOND = 56
R_STOCK_PAY_MONOPOLY = 57
R_RANK_POINTS = 58
R_POINT_FACE_MAX = 63
R_POINT_FACE_SUPPLY = 64
R_ACTION_FACE_SUPPLY = 70
R_GOLD_SUPPLY = 71
R_STAR_SUPPLY = 72
R_TRAIN_TRACK = 73
R_GAMBLE_FACES = 94
R_NINE_MOVE_MIN = 101
R_NINE_MOVE_MAX = 102
R_RINGMASTER_FACE_MOVE = 103
R_DOUBLE_MULTIPLIER = 104
R_DOUBLE_STACKING = 105
R_DOUBLE_AFFECTS_THIEF = 106
R_REROLL_MANDATORY = 107
R_REROLL_SECOND_SCOPE = 108
R_MOVE_OPTIONAL = 109
R_ARROW_TARGETS = 110
R_ARROW_NUMBER_MODE = 111
R_PLUS1_ANY_DIE = 112
R_MAX_TURNS = 113
R_LEN = 114

# choice indices of choice parameters
STACK_MULTIPLY = 0
STACK_ADD = 1
STACK_FORBID = 2
SCOPE_ALL = 0
SCOPE_REROLL_ONLY = 1
ARROW_ADJACENT = 0
ARROW_ANY = 1
ARROWNUM_RESOLVE = 0
ARROWNUM_NONE = 1

# ---- face codes (§2.1) and space kinds (§2.3) ---------------------------------------------
FC_EMPTY = 0
FC_RINGMASTER = 1
FC_PIP_2 = 2
FC_PIP_6 = 6
FC_NINE = 7
FC_POINTS_1 = 8
FC_POINTS_5 = 12
FC_THIEF = 13
FC_ARROW = 14
FC_RANK = 15
FC_DOUBLE = 16
FC_GAMBLE = 17
FC_TRAIN = 18
FC_REROLL = 19
FC_STOCK = 20
FC_STAR = 21
FC_GOLD = 22
N_FACES = 23

SP_EMPTY = 0
SP_START = 1
SP_FACE = 2
SP_PLUS1 = 3
SP_SLOT = 4

GB_RINGMASTER = 0
GB_NINE = 9

TK_GOLD = 0
TK_STAR = 1
TK_STOCK = 2

# end triggers (game column end_trigger)
ET_NONE = 0
ET_SCORE = 1
ET_RINGMASTER = 2
ET_STOCK = 3
ET_SHOP = 4
ET_SETUP = 5

# decision points (§9)
D_EXTRA = 1
D_DICE = 2
D_REROLL = 3
D_DOUBLE = 4
D_ORDER = 5
D_MOVE = 6
D_NINE = 7
D_INSTALL = 8
D_ARROW = 9
D_PLUS1 = 10
D_SHOP = 11
D_THIEF = 12
D_RM_MOVE = 13

MOVE_CODE = 16
PLUS1_KIND = 64
PLUS1_DIE = 8

# ---- sizes ----------------------------------------------------------------------------------
MAX_DICE = 5
MAX_MONKEYS = 5
MAX_TRACK = 40
MAX_TRAIN = 20
MAX_FORCE = 32
MAX_SCRIPT = 64
N_SLOTS = 6
MAX_OPTS = 128

# ---- global state fields ----------------------------------------------------------------------
S_R = 0
S_TRAIN_POS = 1
S_STOCK_SUPPLY = 2
S_GOLD_SUPPLY = 3
S_STAR_SUPPLY = 4
S_GOLD_LIMITED = 5
S_STAR_LIMITED = 6
S_N_PLAYERS = 7
S_N_DICE = 8
S_N_MONKEYS = 9
S_TRACK_LEN = 10
S_START_INDEX = 11
S_TURN = 12
S_ACTIVE = 13
S_FIRST_SEAT = 14
S_START_CHAIR = 15
S_ENDED = 16
S_TRUNCATED = 17
S_END_TRIGGER = 18
S_END_SEAT = 19
S_ROLLED = 20
S_RESOLVED = 21
S_REROLL_EVENTS = 22
S_TRAIN_LEN = 23
S_TILES_MASK = 24
S_RM_DROPS = 25
S_STOCK_SCORINGS = 26
S_CTX_DIE = 27
S_CTX_FACE = 28
S_CTX_SLOT = 29
S_CTX_VICTIM = 30
S_CTX_DIST = 31
S_SCRIPT_N = 32
S_SCRIPT_POS = 33
S_SCRIPT_ERR = 34
S_FORCE_N = 35
S_FORCE_POS = 36
S_STOCK_COUNT = 37
S_TRAIN_MOVES = 38
S_SCRIPT_STRICT = 39
S_UP_SLOT = 40
S_DBL_COUNT = 45
S_DBL_TARGET = 50
S_FACE_SUPPLY = 55
S_SPACE_KIND = 78
S_SPACE_FACE = 118
S_TRAIN_TRACK = 158
S_GAMBLE = 178
S_OPP = 184
S_FORCE = 190
S_SCRIPT = 222
S_RNG_D = 286
S_RNG_P = 287
S_OPTS = 288
SEAT0 = 416

# ---- per-seat fields ----------------------------------------------------------------------------
F_SCORE = 0
F_GOLD = 1
F_STARS = 2
F_STOCKS = 3
F_TURNS = 4
F_DICE_ROLLED = 5
F_EXTRA_DICE = 6
F_GOLD_SPENT = 7
F_INSTALLS = 8
F_MOVES = 9
F_STEALS = 10
F_STOLEN = 11
F_PTS_FACES = 12
F_PTS_SHOP = 13
F_PTS_STOCK = 14
F_PTS_TRAIN = 15
F_PTS_RANK = 16
F_PTS_GAMBLE = 17
F_RM_DROPS = 18
F_STARS_CASHED = 19
F_GOLD_GAINED = 20
F_STARS_GAINED = 21
F_STOCKS_TAKEN = 22
F_REROLLS = 23
F_MONKEY = 24
F_FACE = 29
F_ARROW = 59
SEAT_LEN = 89

# ---- trace events (format in replay.py) ------------------------------------------------------
EV_SETUP = 1          # n, R, start_chair, tiles_mask
EV_TILE = 2           # space index, tile code, kind, face
EV_TURN = 3           # seat, turn, round, R, score
EV_EXTRA = 4          # seat, e, gold paid, gold left
EV_ROLL = 5           # seat, die, slot number, face, result face, reroll event (0 = initial)
EV_REROLL = 6         # seat, event, added die, rerolled mask
EV_DOUBLE = 7         # seat, double die, target die, doubles on target
EV_RESOLVE = 8        # seat, die, slot number, face in slot, result face, mult
EV_MOVE = 9           # seat, monkey, from, to, dist, die, passed START
EV_DECLINE = 10       # seat, die, decision point
EV_INSTALL = 11       # seat, die, slot number, new face, old face, arrow target slot number (0)
EV_UPGRADE = 12       # seat, die, slot number, new face, old face
EV_SHOP = 13          # seat, k stars, points, score, stars left
EV_POINTS = 14        # seat, points, source face, score, mult
EV_TOKEN = 15         # seat, token type, gained, total, mult
EV_TRAIN = 16         # seat, value, mult, points, new train pos
EV_STOCK = 17         # seat, stocks held, stock supply
EV_STOCK_PAY = 18     # seat, stocks, payout, score
EV_THEFT = 19         # seat, victim, token type, amount
EV_RINGMASTER = 20    # seat, R before, R after, source face (RINGMASTER / GAMBLE)
EV_GAMBLE = 21        # seat, die, gamble face value
EV_NO_EFFECT = 22     # seat, die, face, reason (NE_*)
EV_END = 23           # trigger, active seat, R, winner seat, n winners
EV_TRUNCATED = 24     # turns
EV_RANK = 25          # seat, rank, points, mult

NE_CYCLE = 1
NE_DOUBLE_ALONE = 2
NE_REROLL_LATE = 3
NE_THIEF_NOBODY = 4
NE_ARROW_NUMBER = 5
NE_DOUBLE_DIE = 6
NE_NO_STOCK = 7


# ---- policy configuration array ``cfg`` (float64, one per game; built by policies.fill_cfg) ----
# cfg[:R_LEN] is a copy of the rules (so every R_* offset reads the same value from ``cfg`` as
# from ``rules``), then the policy kind of each seat, the policy parameters and tables derived
# from them (see policies.C_*). Passing one array instead of rules + kinds + policy_params keeps
# the calls of the hot loop narrow (every array argument is reference counted at each call).
MAX_PLAYERS = 4
C_KIND = R_LEN

ASK_DECIDE = 0
ASK_GREEDY = 1
ASK_RANDOM = 2

BLOCK_GAMES = 32   # games per prange block of play_many

RNG_STEP = np.uint64(0x9E3779B97F4A7C15)   # == sim.rng._GOLDEN (checked by a test)


# ==== small helpers =========================================================================
@njit(cache=True, inline='always')
def _ev(log, code, a0=0, a1=0, a2=0, a3=0, a4=0, a5=0, a6=0):
    """``sim.trace.emit`` behind an inlined tracing-on test (no call when tracing is off).

    Arguments are passed as np.int64 so that ``emit`` is compiled once (numba would otherwise
    specialise it on every literal event code). Convention in this module: constants passed to
    a non-inlined jitted function are wrapped in ``np.int64`` for the same reason."""
    if log.shape[0] > 1:
        emit(log, np.int64(code), np.int64(a0), np.int64(a1), np.int64(a2), np.int64(a3),
             np.int64(a4), np.int64(a5), np.int64(a6))


@njit(cache=True, inline='always')
def _rand(state, field, n):
    """``sim.rng.randint`` on the stream kept in ``state[field]`` (S_RNG_D / S_RNG_P): uniform
    integer in [0, n), the same draws as the ``uint64[1]`` stream of ``sim.rng``."""
    u = np.uint64(state[field]) + RNG_STEP
    state[field] = np.int64(u)
    x = mix64(u) >> np.uint64(11)
    return np.int64((x * np.uint64(n)) >> np.uint64(53))


@njit(cache=True, inline='always')
def _sb(seat):
    """Offset of ``seat``'s block in the state array."""
    return SEAT0 + seat * SEAT_LEN


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
def is_number_face(f):
    """True for faces that move a monkey (RINGMASTER, PIP_k, NINE) (§2.1)."""
    return FC_RINGMASTER <= f <= FC_NINE


@njit(cache=True, inline='always')
def is_action_face(f):
    """True for the 11 action faces of the supply (§2.5)."""
    return f == FC_NINE or FC_THIEF <= f <= FC_GOLD


@njit(cache=True, inline='always')
def face_at(state, seat, die, sidx):
    """Face code in slot index ``sidx`` (0..5) of ``die`` of ``seat``."""
    return state[_sb(seat) + F_FACE + die * N_SLOTS + sidx]


@njit(cache=True, inline='always')
def arrow_at(state, seat, die, sidx):
    """Arrow target slot index of slot ``sidx``, -1 when not an arrow."""
    return state[_sb(seat) + F_ARROW + die * N_SLOTS + sidx]


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
def double_mult(state, rules, die):
    """``mult`` for ``die`` from the Doubles assigned to it (RB-F5, AMB-08).

    multiply: m^k; add: 1 + k(m-1); forbid: at most one Double per target, m^k.
    ``rules`` may be the rules or a ``cfg`` array (same R_* offsets).
    """
    k = state[S_DBL_COUNT + die]
    m = int(rules[R_DOUBLE_MULTIPLIER])
    if k == 0:
        return 1
    if int(rules[R_DOUBLE_STACKING]) == STACK_ADD:
        return 1 + k * (m - 1)
    r = 1
    for _ in range(k):
        r *= m
    return r


@njit(cache=True, inline='always')
def follow_arrow(state, seat, die, sidx):
    """Face reached from slot ``sidx`` of ``die`` by following arrows (RB-F3, AMB-05/07).

    Returns
    -------
    (face, via_arrow): the first non-arrow face on the chain, or (FC_EMPTY, 1) when the chain
    revisits a slot (no effect, RB-F15).
    """
    b = _sb(seat) + die * N_SLOTS
    visited = 0
    s = sidx
    via = 0
    while True:
        f = state[b + F_FACE + s]
        if f != FC_ARROW:
            return f, via
        visited |= 1 << s
        t = state[b + F_ARROW + s]
        if t < 0 or (visited >> t) & 1:
            return FC_EMPTY, 1
        s = t
        via = 1


@njit(cache=True, inline='always')
def die_result(state, rules, seat, die):
    """The result of a rolled die: its up face, arrows followed (RB-T3, RB-F3).

    With ``arrow_number_mode = none`` an arrow reaching a number face or RINGMASTER gives
    no effect (FC_EMPTY).
    """
    f, via = follow_arrow(state, seat, die, state[S_UP_SLOT + die])
    if via and is_number_face(f) and int(rules[R_ARROW_NUMBER_MODE]) == ARROWNUM_NONE:
        return FC_EMPTY
    return f


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
        s = state[_sb(p) + F_SCORE]
        if s > r or (incl and s >= r):
            state[S_ENDED] = 1
            state[S_END_TRIGGER] = trigger
            state[S_END_SEAT] = state[S_ACTIVE]
            return True
    return False


@njit(cache=True, inline='always')
def gain_points(state, cfg, seat, amount, source, stat, log):
    """Add points to ``seat`` as one atomic gain, then run the end check (RB-F1, RB-E2)."""
    b = _sb(seat)
    state[b + F_SCORE] += amount
    state[b + stat] += amount
    if log.shape[0] > 1:
        _ev(log, EV_POINTS, seat, amount, source, state[b + F_SCORE])
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
    L = meta[p, 0]
    state[S_TRACK_LEN] = L
    state[S_START_INDEX] = meta[p, 1]
    for i in range(L):
        state[S_SPACE_KIND + i] = boards[p, i, 0]
        state[S_SPACE_FACE + i] = boards[p, i, 1]
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
                state[S_SPACE_KIND + i] = tiles[t, 0]
                state[S_SPACE_FACE + i] = tiles[t, 1]
                state[S_TILES_MASK] |= 1 << t
                if log.shape[0] > 1:
                    _ev(log, EV_TILE, i, t, tiles[t, 0], tiles[t, 1])
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
    g = tokens[0] if rules[R_GOLD_SUPPLY] < 0 else int(rules[R_GOLD_SUPPLY])
    s = tokens[1] if rules[R_STAR_SUPPLY] < 0 else int(rules[R_STAR_SUPPLY])
    state[S_GOLD_SUPPLY] = g
    state[S_GOLD_LIMITED] = 1 if g > 0 else 0
    state[S_STAR_SUPPLY] = s
    state[S_STAR_LIMITED] = 1 if s > 0 else 0
    c = tokens[2] if rules[R_STOCK_COUNT] < 0 else int(rules[R_STOCK_COUNT])
    state[S_STOCK_COUNT] = c
    state[S_STOCK_SUPPLY] = c


@njit(cache=True)
def setup_train_and_gamble(state, rules, train, gamble):
    """RB-S6: train on its start index; the train values (RB-F7) and gamble faces (RB-F6)."""
    if rules[R_TRAIN_TRACK + 1] < 0:
        n = train[0]
        state[S_TRAIN_POS] = train[1]
        for i in range(n):
            state[S_TRAIN_TRACK + i] = train[2 + i]
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
        b = _sb(seat)
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
        _ev(log, EV_SETUP, n_players, state[S_R], state[S_START_CHAIR], state[S_TILES_MASK])
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
    return _pol.greedy(state, cfg, seat, dp, n)


# ==== turn start: extra dice, dice choice, roll (RB-T1 .. RB-T3) ============================
@njit(cache=True, inline='always')
def _pay_extra_dice(state, cfg, seat, log):
    """RB-T1: choose e extra dice, 0 <= e <= min(max_dice_per_turn - 1, gold / cost), and pay.

    Returns
    -------
    int e.
    """
    b = _sb(seat)
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
        e = _pol.greedy_extra_dice(state, cfg, seat, emax + 1)
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
            _ev(log, EV_EXTRA, seat, e, paid, state[b + F_GOLD])
    return e


@njit(cache=True, inline='always')
def roll_die(state, cfg, seat, die, event, log):
    """RB-T3: the die shows a uniform slot; its result is the face there."""
    s = _draw_slot(state)
    state[S_UP_SLOT + die] = s
    state[_sb(seat) + F_DICE_ROLLED] += 1
    if log.shape[0] > 1:
        _ev(log, EV_ROLL, seat, die, s + 1, face_at(state, seat, die, s),
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
        mask = _pol.greedy_dice(state, cfg, seat, n)
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
        state[_sb(seat) + F_REROLLS] += 1
        if ev == 1 or int(cfg[R_REROLL_SECOND_SCOPE]) == SCOPE_REROLL_ONLY:
            mask = k | (1 << u)
        else:
            mask = rolled
        if log.shape[0] > 1:
            _ev(log, EV_REROLL, seat, ev, u, mask)
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
                _ev(log, EV_NO_EFFECT, seat, d, FC_DOUBLE, NE_DOUBLE_ALONE)
            continue
        state[S_CTX_DIE] = d
        t = _decide(state, cfg, seat, np.int64(D_DOUBLE), n)
        state[S_DBL_COUNT + t] += 1
        state[S_DBL_TARGET + d] = t
        if log.shape[0] > 1:
            _ev(log, EV_DOUBLE, seat, d, t, state[S_DBL_COUNT + t])


# ==== landing effects (RB-T7, RB-P1 .. RB-P4) ================================================
@njit(cache=True)
def install_face(state, seat, die, sidx, face, target, log):
    """Replace slot ``sidx`` (1..5) of ``die`` with ``face`` from the supply (RB-T7, AMB-16).

    The removed face returns to its pile; a pip face leaves the game. ``target`` is the arrow
    target slot index when ``face`` is ARROW.
    """
    b = _sb(seat) + die * N_SLOTS + sidx
    old = state[b + F_FACE]
    if old != FC_EMPTY and not (FC_PIP_2 <= old <= FC_PIP_6):
        state[S_FACE_SUPPLY + old] += 1
    state[S_FACE_SUPPLY + face] -= 1
    state[b + F_FACE] = face
    state[b + F_ARROW] = target if face == FC_ARROW else -1
    state[_sb(seat) + F_INSTALLS] += 1
    if log.shape[0] > 1:
        _ev(log, EV_INSTALL, seat, die, sidx + 1, face, old, target + 1 if face == FC_ARROW else 0)


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
        s = _pol.greedy_install(state, cfg, seat, np.int64(N_SLOTS))
    elif mode == ASK_RANDOM:
        s = state[S_OPTS + _rand(state, S_RNG_P, N_SLOTS)]
    else:
        s = _decide(state, cfg, seat, np.int64(D_INSTALL), np.int64(N_SLOTS))
    if s == 0:
        if log.shape[0] > 1:
            _ev(log, EV_DECLINE, seat, die, D_INSTALL)
        return
    target = -1
    if face == FC_ARROW:
        n = _arrow_target_options(state, cfg, s - 1)
        state[S_CTX_SLOT] = s - 1
        mode = _mode(state, cfg, seat)
        if n == 1:
            target = state[S_OPTS + 0] - 1
        elif mode == ASK_GREEDY:
            target = _pol.greedy_arrow(state, cfg, seat, n) - 1
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
        a = _pol.greedy_plus1(state, cfg, seat, n)
    elif mode == ASK_RANDOM:
        a = state[S_OPTS + _rand(state, S_RNG_P, n)]
    else:
        a = _decide(state, cfg, seat, np.int64(D_PLUS1), n)
    if a < 0:
        if log.shape[0] > 1:
            _ev(log, EV_DECLINE, seat, die, D_PLUS1)
        return
    kind = a // PLUS1_KIND
    d = (a % PLUS1_KIND) // PLUS1_DIE
    s = a % PLUS1_DIE - 1
    if kind == 0:
        install_face(state, seat, d, s, np.int64(FC_POINTS_1), np.int64(-1), log)
    else:
        b = _sb(seat) + F_FACE + d * N_SLOTS + s
        old = state[b]
        state[S_FACE_SUPPLY + old] += 1
        state[S_FACE_SUPPLY + old + 1] -= 1
        state[b] = old + 1
        state[_sb(seat) + F_INSTALLS] += 1
        if log.shape[0] > 1:
            _ev(log, EV_UPGRADE, seat, d, s + 1, old + 1, old)


@njit(cache=True)
def start_shop(state, cfg, seat, log):
    """RB-P1 / RB-P2: exchange k <= min(shop_max_stars, stars) stars for star_exchange[k]
    points, never doubled; ``shop_exchanges_per_landing`` exchanges; end check after each."""
    b = _sb(seat)
    kcap = min(int(cfg[R_SHOP_MAX_STARS]), int(cfg[R_STAR_EXCHANGE]) - 1)
    for _ in range(int(cfg[R_SHOP_EXCHANGES_PER_LANDING])):
        kmax = min(kcap, state[b + F_STARS])
        if kmax <= 0:
            return
        for k in range(kmax + 1):
            state[S_OPTS + k] = k
        mode = _mode(state, cfg, seat)
        if mode == ASK_GREEDY:
            k = _pol.shop_k(state, cfg, seat, kmax)
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
            _ev(log, EV_SHOP, seat, k, pts, state[b + F_SCORE], state[b + F_STARS])
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
        a = _pol.greedy_move(state, cfg, seat, n)
    elif mode == ASK_RANDOM:
        a = state[S_OPTS + _rand(state, S_RNG_P, n)]
    else:
        a = _decide(state, cfg, seat, dp, n)
    if a < 0:
        if log.shape[0] > 1:
            _ev(log, EV_DECLINE, seat, die, dp)
        return
    monkey = a % MOVE_CODE
    dist = a // MOVE_CODE
    b = _sb(seat)
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
        _ev(log, EV_MOVE, seat, monkey, frm, to, dist, die, passed)
    kind = state[S_SPACE_KIND + to]
    if kind != SP_EMPTY or (passed and cfg[R_SHOP_ON_PASS] > 0.5):
        landing(state, cfg, seat, die, to, passed, log)


@njit(cache=True, inline='always')
def lower_ringmaster(state, cfg, seat, source, log):
    """RB-E1: R falls by ringmaster_step (never rises); then the end check (RB-E2)."""
    r0 = state[S_R]
    state[S_R] = r0 - int(cfg[R_RINGMASTER_STEP])
    state[S_RM_DROPS] += 1
    state[_sb(seat) + F_RM_DROPS] += 1
    if log.shape[0] > 1:
        _ev(log, EV_RINGMASTER, seat, r0, state[S_R], source)
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
    b = _sb(seat)
    if token == TK_GOLD:
        got = _deal(state, S_GOLD_SUPPLY, S_GOLD_LIMITED, amount)
        state[b + F_GOLD] += got
        state[b + F_GOLD_GAINED] += got
        if log.shape[0] > 1:
            _ev(log, EV_TOKEN, seat, TK_GOLD, got, state[b + F_GOLD], mult)
    else:
        got = _deal(state, S_STAR_SUPPLY, S_STAR_LIMITED, amount)
        state[b + F_STARS] += got
        state[b + F_STARS_GAINED] += got
        if log.shape[0] > 1:
            _ev(log, EV_TOKEN, seat, TK_STAR, got, state[b + F_STARS], mult)


@njit(cache=True)
def rank_1234(state, cfg, seat, mult, log):
    """RB-F4: r = 1 + #players with a strictly greater score; + rank_points[r] x mult."""
    me = state[_sb(seat) + F_SCORE]
    r = 1
    for p in range(state[S_N_PLAYERS]):
        if state[_sb(p) + F_SCORE] > me:
            r += 1
    pts = int(cfg[R_RANK_POINTS + 1 + min(r, 4) - 1]) * mult
    if log.shape[0] > 1:
        _ev(log, EV_RANK, seat, r, pts, mult)
    gain_points(state, cfg, seat, pts, FC_RANK, F_PTS_RANK, log)


@njit(cache=True)
def train_ride(state, cfg, seat, mult, log):
    """RB-F7: + train_track[train_pos] x mult, then the train advances once (even doubled)."""
    pos = state[S_TRAIN_POS]
    v = state[S_TRAIN_TRACK + pos]
    state[S_TRAIN_POS] = (pos + 1) % state[S_TRAIN_LEN]
    state[S_TRAIN_MOVES] += 1
    if log.shape[0] > 1:
        _ev(log, EV_TRAIN, seat, v, mult, v * mult, state[S_TRAIN_POS])
    gain_points(state, cfg, seat, v * mult, FC_TRAIN, F_PTS_TRAIN, log)


@njit(cache=True)
def thief(state, cfg, seat, mult, log):
    """RB-F2: clockwise from the left, each opponent holding a star, gold or stock gives one
    token of a type the active player chooses (D12). Not doubled unless
    ``double_affects_thief`` (then mult tokens of that type, AMB-20). No stock scoring."""
    n = state[S_N_PLAYERS]
    amount = mult if cfg[R_DOUBLE_AFFECTS_THIEF] > 0.5 else 1
    me = _sb(seat)
    took = 0
    for i in range(1, n):
        v = (seat + i) % n
        vb = _sb(v)
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
            _ev(log, EV_THEFT, seat, v, t, got)
    if took == 0:
        if log.shape[0] > 1:
            _ev(log, EV_NO_EFFECT, seat, state[S_CTX_DIE], FC_THIEF, NE_THIEF_NOBODY)


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
        c1 = max(c1, state[_sb(p) + F_STOCKS])
    c2 = 0
    n1 = 0
    n2 = 0
    for p in range(n):
        c = state[_sb(p) + F_STOCKS]
        if c == c1 and c > 0:
            n1 += 1
        elif 0 < c < c1:
            c2 = max(c2, c)
    for p in range(n):
        if 0 < state[_sb(p) + F_STOCKS] == c2:
            n2 += 1
    for p in range(n):
        b = _sb(p)
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
                _ev(log, EV_STOCK_PAY, p, c, pay, state[b + F_SCORE])
    for p in range(n):
        state[_sb(p) + F_STOCKS] = 0
    state[S_STOCK_SUPPLY] = state[S_STOCK_COUNT]
    state[S_STOCK_SCORINGS] += 1
    end_check(state, cfg, ET_STOCK, log)


@njit(cache=True)
def take_stock(state, cfg, seat, log):
    """RB-F9: take a stock if the supply has one; an emptied supply scores at once (RB-F10).
    Never doubled."""
    if state[S_STOCK_SUPPLY] < 1:
        if log.shape[0] > 1:
            _ev(log, EV_NO_EFFECT, seat, state[S_CTX_DIE], FC_STOCK, NE_NO_STOCK)
        return
    b = _sb(seat)
    state[b + F_STOCKS] += 1
    state[b + F_STOCKS_TAKEN] += 1
    state[S_STOCK_SUPPLY] -= 1
    if log.shape[0] > 1:
        _ev(log, EV_STOCK, seat, state[b + F_STOCKS], state[S_STOCK_SUPPLY])
    if state[S_STOCK_SUPPLY] == 0:
        stock_scoring(state, cfg, log)


@njit(cache=True)
def gamble(state, cfg, seat, die, log):
    """RB-F6: roll the gamble die once: points (never doubled); RINGMASTER lowers R with no
    move; NINE moves a monkey N in [nine_move_min, nine_move_max] with this die as the moving
    die (AMB-13)."""
    g = state[S_GAMBLE + _draw_gamble(state)]
    if log.shape[0] > 1:
        _ev(log, EV_GAMBLE, seat, die, g)
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
        _ev(log, EV_RESOLVE, seat, die, s + 1, face_at(state, seat, die, s), f, mult)
    if via and f == FC_EMPTY:
        if log.shape[0] > 1:
            _ev(log, EV_NO_EFFECT, seat, die, FC_ARROW, NE_CYCLE)
        return
    if via and is_number_face(f) and int(cfg[R_ARROW_NUMBER_MODE]) == ARROWNUM_NONE:
        if log.shape[0] > 1:
            _ev(log, EV_NO_EFFECT, seat, die, f, NE_ARROW_NUMBER)
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
            _ev(log, EV_NO_EFFECT, seat, die, f, NE_REROLL_LATE)
    elif f == FC_DOUBLE:
        if log.shape[0] > 1:
            _ev(log, EV_NO_EFFECT, seat, die, f, NE_DOUBLE_DIE)


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
            d = _pol.greedy_order(state, cfg, seat, n)
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
    b = _sb(seat)
    state[b + F_TURNS] += 1
    if log.shape[0] > 1:
        n = state[S_N_PLAYERS]
        if log.shape[0] > 1:
            _ev(log, EV_TURN, seat, state[S_TURN], (state[S_TURN] - 1) // n + 1, state[S_R],
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


# ==== entry points with rules / kinds / policy_params / opts / streams as separate arrays =====
# (tests and single phases; the game loop passes ``cfg`` and keeps options and streams in state)
@njit(cache=True)
def _copy_opts(state, opts):
    """Copy the options listed at ``state[S_OPTS:]`` into ``opts``."""
    for i in range(min(opts.shape[0], MAX_OPTS)):
        opts[i] = state[S_OPTS + i]


@njit(cache=True)
def _load_streams(state, rng_d, rng_p):
    """Store the ``uint64[1]`` dice and policy streams in the state (S_RNG_D, S_RNG_P)."""
    state[S_RNG_D] = np.int64(rng_d[0])
    state[S_RNG_P] = np.int64(rng_p[0])


@njit(cache=True)
def _save_streams(state, rng_d, rng_p):
    """Write the streams kept in the state back to the ``uint64[1]`` stream arrays."""
    rng_d[0] = np.uint64(state[S_RNG_D])
    rng_p[0] = np.uint64(state[S_RNG_P])


@njit(cache=True)
def _swap_dice_stream(state, rng):
    """Exchange the dice stream kept in the state (S_RNG_D) with the ``uint64[1]`` stream
    ``rng``: called before and after a draw, it draws from ``rng`` and leaves the state's
    stream as it was."""
    v = state[S_RNG_D]
    state[S_RNG_D] = np.int64(rng[0])
    rng[0] = np.uint64(v)


@njit(cache=True)
def draw_slot(state, rng):
    """One die roll (see ``_draw_slot``) from the ``uint64[1]`` stream ``rng``."""
    _swap_dice_stream(state, rng)
    s = _draw_slot(state)
    _swap_dice_stream(state, rng)
    return s


@njit(cache=True)
def draw_gamble(state, rng):
    """One gamble-die roll (see ``_draw_gamble``) from the ``uint64[1]`` stream ``rng``."""
    _swap_dice_stream(state, rng)
    g = _draw_gamble(state)
    _swap_dice_stream(state, rng)
    return g


@njit(cache=True)
def arrow_target_options(state, rules, sidx, opts):
    """Legal arrow targets (see ``_arrow_target_options``) listed into ``opts``; returns n."""
    n = _arrow_target_options(state, rules, sidx)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def plus1_options(state, rules, seat, die, opts):
    """Legal +1 choices (see ``_plus1_options``) listed into ``opts``; returns n."""
    n = _plus1_options(state, rules, seat, die)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def move_options(state, seat, dmin, dmax, optional, opts):
    """Legal moves (see ``_move_options``) listed into ``opts``; returns n."""
    n = _move_options(state, seat, dmin, dmax, optional)
    _copy_opts(state, opts)
    return n


@njit(cache=True)
def play_turn(state, rules, kinds, pparams, opts, rng_d, rng_p, log):
    """One turn of the active seat (see ``_play_turn``), with the rules, policy kinds
    ``int64[n]`` and policy parameters ``float64[n, P_LEN]`` as separate arrays."""
    cfg = _pol.make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    _play_turn(state, cfg, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def pay_extra_dice(state, rules, kinds, pparams, seat, opts, rng_p, log):
    """RB-T1 (see ``_pay_extra_dice``). Returns e."""
    cfg = _pol.make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_p, rng_p)
    e = _pay_extra_dice(state, cfg, seat, log)
    _save_streams(state, rng_p, rng_p)
    _copy_opts(state, opts)
    return e


@njit(cache=True)
def choose_and_roll(state, rules, kinds, pparams, seat, e, opts, rng_d, rng_p, log):
    """RB-T2 + RB-T3 (see ``_choose_and_roll``)."""
    cfg = _pol.make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    _choose_and_roll(state, cfg, seat, e, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def reroll_phase(state, rules, kinds, pparams, seat, opts, rng_d, rng_p, log):
    """RB-T4 / RB-F8 (see ``_reroll_phase``)."""
    cfg = _pol.make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    _reroll_phase(state, cfg, seat, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def declare_doubles(state, rules, kinds, pparams, seat, opts, rng_p, log):
    """RB-T5a / RB-F5 (see ``_declare_doubles``)."""
    cfg = _pol.make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_p, rng_p)
    _declare_doubles(state, cfg, seat, log)
    _save_streams(state, rng_p, rng_p)
    _copy_opts(state, opts)


@njit(cache=True)
def resolution_phase(state, rules, kinds, pparams, seat, opts, rng_d, rng_p, log):
    """RB-T5b (see ``_resolution_phase``)."""
    cfg = _pol.make_cfg(state, rules, kinds, pparams)
    _load_streams(state, rng_d, rng_p)
    _resolution_phase(state, cfg, seat, log)
    _save_streams(state, rng_d, rng_p)
    _copy_opts(state, opts)


# ==== game end (RB-E3 .. RB-E5) and entry points =============================================
@njit(cache=True, inline='always')
def tokens_held(state, seat):
    """gold + stocks + stars, the RB-E3 tiebreak."""
    b = _sb(seat)
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
        sp = state[_sb(p) + F_SCORE]
        tp = tokens_held(state, p)
        r = 1
        for q in range(n):
            sq = state[_sb(q) + F_SCORE]
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
                _ev(log, EV_TRUNCATED, state[S_TURN])
            return
        _play_turn(state, cfg, log)


@njit(cache=True)
def write_results(state, games_row, seats_rows, opts, log):
    """Fill the output row (GAME_COMMON + game columns) and seat rows (SEAT_COMMON + seat
    columns); column order matches ``SPEC.game_columns`` / ``SPEC.seat_columns``."""
    n = state[S_N_PLAYERS]
    nw, ws = final_ranks(state, opts)
    turns = state[S_TURN]
    games_row[0] = (turns + n - 1) // n
    games_row[1] = state[S_TRUNCATED]
    games_row[2] = nw
    games_row[3] = ws
    games_row[4] = 1 if state[S_TRUNCATED] else 0
    games_row[5] = state[S_END_TRIGGER]
    games_row[6] = state[S_END_SEAT]
    games_row[7] = state[S_R]
    games_row[8] = turns
    games_row[9] = state[S_RM_DROPS]
    games_row[10] = state[S_STOCK_SCORINGS]
    games_row[11] = state[S_TRAIN_MOVES]
    games_row[12] = state[S_TILES_MASK]
    games_row[13] = state[S_START_CHAIR]
    for p in range(n):
        b = _sb(p)
        row = seats_rows[p]
        row[0] = state[b + F_SCORE]
        row[1] = opts[p]
        row[2] = 1 if opts[p] == 1 else 0
        row[3] = state[b + F_GOLD]
        row[4] = state[b + F_STARS]
        row[5] = state[b + F_STOCKS]
        row[6] = tokens_held(state, p)
        for j in range(F_STOCKS_TAKEN - F_TURNS + 2):
            row[7 + j] = state[b + F_TURNS + j]
    if log.shape[0] > 1:
        _ev(log, EV_END, state[S_END_TRIGGER], state[S_END_SEAT], state[S_R], ws, nw)


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
    _pol.fill_cfg(cfg, state, rules, kinds, pparams)
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
    cfg = np.zeros(_pol.C_LEN, dtype=np.float64)
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
        cfg = np.zeros(_pol.C_LEN, dtype=np.float64)
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


# Policies read the layout constants above; imported last to break the import cycle
# (numba resolves ``_pol.*`` when the callers are first compiled).
from . import policies as _pol  # noqa: E402

K_GREEDY_CODE = float(_pol.K_GREEDY)
