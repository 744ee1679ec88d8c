"""Waggle Dance (Mike Nudd, 2014) simulation kernel.

Rule source: ``shared/rules/waggle_dance.md`` (rules summary v1.7.5); rule IDs WD-S*, WD-R*,
WD-A*..WD-G*, WD-X*, WD-V* are cited in each function's docstring. Parameters
(``rules.PARAMS``, defaults in brackets): honey_to_win [7], max_rounds [100],
start_player_mode [random], start_player_fixed_seat [0], dice_per_player [data: 18],
start_pool_dice [6], dice_per_hatch [1], hatch_without_supply [no_hatch],
max_dice_per_hive_tile [0 = unlimited], start_hive_tiles [3], hive_tile_supply [data: 48],
tiles_per_build_die [1], tile_pollen_capacity [4], pollen_per_honey [4], egg_supply
[data: 12], eggs_per_egg_die [1], pollen_per_colour [data: 15], majority payouts [2/1/1/0],
pay_second_when_first_tied [true], d_payout_order [turn], trade costs and gains [2/1, 1/1],
trade_requires_different_colour [true], blocked_cards [A,C,E,G], blocked slots per card
[0/1/3 for 4/3/2 players], blocking_marker_sets [data: 3], use_mini_expansion [false],
hand_limit [0], cards_per_draw_die [1], scout_draw / scout_keep [3 / 1], harvest_bonus [1],
efficiency_cubes [3], alchemy_max_colours [2], allow_efficiency_with_alchemy [false]. Queen
cards (WD-Q*) are played in the windows DW0, DW-end, NW_A..NW_G (WD-R3/R9/R12, WD-I13) and
at B, D and F (Expertise, Harvest, Efficiency, Alchemy), and on the own placement turn
(Overtime, Command, Shift Change, Feint, Wrong Turn, Scout, Volunteer; DP-02..DP-09).

Seats: seat 0 is the first start player; the WD-S5 draw is the game column ``start_chair``.
The start player S passes clockwise every round (WD-R15); every "turn order" is from S.

The game is a resumable step machine (``sim.decide``): ``S_PHASE`` and the cursor fields say
where play goes on, the options block holds the pending decision, so ``advance`` /
``apply_option`` / ``choose`` / ``finish`` (and ``new_game``) stop and resume at any decision
and a copy of the state plays on like the original. ``play_many`` is the loop
``while advance: apply_option(choose)``. Dice are drawn from the dice stream; tests and tools
may ask for chance points instead (``advance_chance``, ``_step``'s ``chance``): each die about
to be rolled (WD-R2, WD-Q2) is then posted as a decision D_ROLL of the rolling seat whose
options are its faces, and the face applied is the one the die shows.
"""
import numpy as np
from numba import njit

from sim.borrow import borrowed, no_refcount_module, no_wraparound_module, whole_program
from sim.decide import random_index
from sim.rng import (SUB_DICE, SUB_POLICY, SUB_SETUP, draw, make_stream, randint, shuffle,
                     shuffle_in, start_in, substream_in)
from sim.trace import emit

from . import layout as L
from . import options as O
from . import rules as R
from .hive import (card_flip_ok, has_room, hive_cubes, holds_pollen, honey_colour, is_empty_tile,
                   majority_owed, rekey, room, seat_base, tile_cubes, tile_dice)
from .policies import greedy

# The game loop only sees arrays its callers own (sim.borrow). These allocate or receive arrays
# a callee allocated: the set-up of a new game and the batch entry points.
no_refcount_module(__name__, exclude=("_begin", "new_game", "play_one", "play_many"))
no_wraparound_module(__name__)  # indices are never negative (sim.borrow)
# a run's and a replay's calls are private to them (sim.borrow)
whole_program(__name__, "play_many")
whole_program(__name__, "play_one")

BLOCK_GAMES = 32   # games per block of play_many (one state array reused)
PASSED = -2        # ``_step``: PASSED - D_*, that decision point reached with no legal option


# ==== small helpers =========================================================================
@njit(cache=True)
def state_size(n_players):
    """Length of the state array for ``n_players`` seats."""
    return L.SEAT0 + n_players * L.SEAT_LEN


@njit(cache=True)
def _param_or(value, data):
    """A rule parameter that defaults to a component datum: -1 means the data file."""
    return data if value < 0 else int(value)


@njit(cache=True)
def wrap(x, n):
    """``x % n`` for ``x >= 0`` by subtraction (seats and turn positions: x < 2n wherever it is
    used). An integer division by a number known only at run time costs tens of cycles, and
    the turn order asks for one several thousand times a game."""
    while x >= n:
        x -= n
    return x


@njit(cache=True)
def turn_seat(state, k):
    """The k-th seat in turn order from the start player S (§0)."""
    return wrap(state[L.S_START] + k, state[L.S_N_PLAYERS])


@njit(cache=True)
def roll_die(state):
    """WD-R2, WD-Q2: one die drawn from the dice stream, uniform on 1..6."""
    return 1 + draw(state, L.S_RNG_D, L.N_VAL)


@njit(cache=True)
def list_faces(state):
    """The options of a chance point (D_ROLL): the faces 1..6 of the die about to be rolled,
    in face order (``options.encode_face``). Returns their number."""
    for v in range(1, L.N_VAL + 1):
        state[L.S_OPTIONS + v - 1] = O.encode_face(v)
    return L.N_VAL


@njit(cache=True)
def _clear_tile_dice(state, b, t):
    """WD-R14: the dice on tile ``t`` go back to the pool."""
    for v in range(L.N_VAL):
        state[b + L.F_TDICE + t * L.N_VAL + v] = 0
    rekey(state, b, t)


# ==== setup (WD-S1 .. WD-S11) =================================================================
@njit(cache=True)
def block_marker(state, card, number, marker_set, log):
    """WD-S8/S9: put a marker of ``number`` (1..6) on slot card ``card`` (0..3 = A, C, E, G)."""
    state[L.S_BLOCKED + card * L.N_VAL + number - 1] = 1
    if log.shape[0] > 1:
        emit(log, L.EV_BLOCK, card, number, marker_set + 1)


@njit(cache=True)
def place_blocking_markers(state, rules, meta, rng, log):
    """WD-S7 .. WD-S10: with k markers per card (0 / 1 / 3 for 4 / 3 / 2 players), draw from
    k marker sets in turn; from each set, one marker per card of ``blocked_cards`` in order
    (A, C, E, G), uniformly among the set's remaining markers whose number is not yet blocked
    on that card (the WD-S9 redraw, WD-I2). Leftover markers go back to the box."""
    n = state[L.S_N_PLAYERS]
    if n == 2:
        k = int(rules[R.R_BLOCKED_SLOTS_PER_CARD_2P])
    elif n == 3:
        k = int(rules[R.R_BLOCKED_SLOTS_PER_CARD_3P])
    else:
        k = int(rules[R.R_BLOCKED_SLOTS_PER_CARD_4P])
    k = min(k, _param_or(rules[R.R_BLOCKING_MARKER_SETS], meta[R.CM_MARKER_SETS]))
    n_cards = int(rules[R.R_BLOCKED_CARDS])
    for s in range(k):
        left = (1 << L.N_VAL) - 1          # bit v-1: marker v still in this set
        for j in range(n_cards):
            card = int(rules[R.R_BLOCKED_CARDS + 1 + j])
            m = 0
            for v in range(L.N_VAL):
                if (left >> v) & 1 and state[L.S_BLOCKED + card * L.N_VAL + v] == 0:
                    m += 1
            if m == 0:
                continue                 # impossible under rules.validate
            pick = randint(rng, m)
            for v in range(L.N_VAL):
                if (left >> v) & 1 and state[L.S_BLOCKED + card * L.N_VAL + v] == 0:
                    if pick == 0:
                        left &= ~(1 << v)
                        block_marker(state, card, v + 1, s, log)
                        break
                    pick -= 1


@njit(cache=True)
def build_queen_deck(state, rules, queen, rng):
    """WD-S2: the queen deck of ``queen_cards.csv`` (plus the mini-expansion cards when
    ``use_mini_expansion``), shuffled; the discard pile starts empty."""
    m = 0
    for q in range(L.N_QUEEN):
        c = queen[0, q]
        if rules[R.R_USE_MINI_EXPANSION] > 0.5:
            c += queen[1, q]
        for _ in range(c):
            state[L.S_DECK + m] = q
            m += 1
    state[L.S_DECK_N] = m
    state[L.S_DECK_POS] = 0
    shuffle(rng, state[L.S_DECK:L.S_DECK + m])


@njit(cache=True)
def setup_game(state, rules, comp, n_players, rng, log):
    """Set a game up (WD-S1 .. WD-S11), drawing from the setup stream: the start chair
    (WD-S5), the blocking markers (WD-S8/S9), then the queen deck shuffle (WD-S2). Seat k's
    pool is ``start_pool_dice`` plus its ``seat_bonus_pool_dice``, at most its dice (WD-S4,
    WD-X2)."""
    queen, cubes, meta = comp
    state[:] = 0
    state[L.S_N_PLAYERS] = n_players
    if int(rules[R.R_START_PLAYER_MODE]) == R.START_FIXED:
        state[L.S_START_CHAIR] = int(rules[R.R_START_PLAYER_FIXED_SEAT])
    else:
        state[L.S_START_CHAIR] = randint(rng, n_players)
    place_blocking_markers(state, rules, meta, rng, log)
    build_queen_deck(state, rules, queen, rng)
    tiles = _param_or(rules[R.R_HIVE_TILE_SUPPLY], meta[R.CM_TILES])
    state[L.S_EGG_SUPPLY] = _param_or(rules[R.R_EGG_SUPPLY], meta[R.CM_EGGS])
    for c in range(L.N_COL):
        state[L.S_CUBE_SUPPLY + c] = _param_or(rules[R.R_POLLEN_PER_COLOUR], cubes[c])
    dice = _param_or(rules[R.R_DICE_PER_PLAYER], meta[R.CM_DICE])
    start_tiles = int(rules[R.R_START_HIVE_TILES])
    for p in range(n_players):
        b = seat_base(p)
        state[b + L.F_POOL] = min(int(rules[R.R_START_POOL_DICE])
                                  + int(rules[R.R_SEAT_BONUS_POOL_DICE + 1 + p]), dice)
        state[b + L.F_PERSONAL] = dice - state[b + L.F_POOL]
        state[b + L.F_N_TILES] = start_tiles
    state[L.S_TILE_SUPPLY] = tiles - n_players * start_tiles
    state[L.S_PHASE] = L.PH_DAY
    if log.shape[0] > 1:
        emit(log, L.EV_SETUP, n_players, state[L.S_START_CHAIR], state[L.S_TILE_SUPPLY],
             state[L.S_EGG_SUPPLY], state[L.S_DECK_N])


# ==== day (WD-R1 .. WD-R10) ===================================================================
@njit(cache=True)
def begin_round(state, rules, log):
    """WD-R1 (and the WD-V6 guard): a new round starts; its roll (WD-R2, ``roll_pools``)
    begins at the start player. Returns False when ``max_rounds`` rounds were played (the
    game is truncated)."""
    if state[L.S_ROUND] >= int(rules[R.R_MAX_ROUNDS]):
        state[L.S_TRUNCATED] = 1
        if log.shape[0] > 1:
            emit(log, L.EV_TRUNCATED, state[L.S_ROUND])
        return False
    state[L.S_ROUND] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_ROUND, state[L.S_ROUND], state[L.S_START])
    state[L.S_CURSOR] = 0
    state[L.S_ROLLED] = 0
    state[L.S_PHASE] = L.PH_ROLL
    return True


@njit(cache=True)
def wd_r2_pool_die(state, b, v):
    """WD-R2: a pool die of the seat at ``b`` is rolled showing ``v``: one more unplaced die
    of value v this round."""
    state[b + L.F_UNPLACED + v - 1] += 1


@njit(cache=True)
def roll_pools(state, log, chance):
    """WD-R2: every player, in turn order from S, rolls their whole pool (``wd_r2_pool_die``;
    an EV_ROLL after each pool), from the roll cursor on: the seat at turn offset S_CURSOR
    has rolled S_ROLLED of its dice. Then the window DW0 opens (WD-R3) and 0 is returned.
    With ``chance`` it stops before each die instead: the cursor is kept, the chance point
    (D_ROLL) of the rolling seat (S_DECIDER) is listed and its number of options returned;
    applying face code x rolls that die as showing x (``_apply``)."""
    n = state[L.S_N_PLAYERS]
    for k in range(state[L.S_CURSOR], n):
        seat = turn_seat(state, k)
        b = seat_base(seat)
        for _ in range(state[L.S_ROLLED], state[b + L.F_POOL]):
            if chance:
                state[L.S_CURSOR] = k
                state[L.S_DECIDER] = seat
                return list_faces(state)
            wd_r2_pool_die(state, b, roll_die(state))
        state[L.S_ROLLED] = 0
        if log.shape[0] > 1:
            packed = 0
            for v in range(L.N_VAL):
                packed = packed * 32 + state[b + L.F_UNPLACED + v]
            emit(log, L.EV_ROLL, seat, state[b + L.F_POOL], packed)
    open_window(state, L.W_DW0)
    return 0


@njit(cache=True)
def next_placer(state):
    """WD-R4: the next seat in turn order (from the cursor) that still has unplaced dice;
    -1 when nobody has (the day is over)."""
    n = state[L.S_N_PLAYERS]
    for j in range(n):
        k = wrap(state[L.S_CURSOR] + j, n)
        seat = turn_seat(state, k)
        b = seat_base(seat)
        for v in range(L.N_VAL):
            if state[b + L.F_UNPLACED + v] > 0:
                state[L.S_CURSOR] = k
                return seat
    return -1


@njit(cache=True)
def distinct_tiles(state, b, skip=-1):
    """§9.1 (options that lead to the same position up to the order of the tiles are listed
    once): bit t set for each tile of the seat at ``b`` that is not identical to an earlier
    tile other than ``skip`` (-1 none), by ``hive.tile_key`` (F_TKEY, kept by the rules: ``rekey``).
    With none left out it is kept in F_FIRST until a tile changes."""
    if skip < 0 and state[b + L.F_FIRST] != 0:
        return state[b + L.F_FIRST]          # no tile changed since (hive.rekey)
    first = 0
    for t in range(state[b + L.F_N_TILES]):
        k = state[b + L.F_TKEY + t]
        dup = False
        for u in range(t):
            dup |= (state[b + L.F_TKEY + u] == k) & (u != skip)
        if not dup:
            first |= 1 << t
    if skip < 0:
        state[b + L.F_FIRST] = first
    return first


@njit(cache=True)
def open_tiles(state, rules, b, src):
    """WD-R6c, WD-I4, WD-I22: bit t set for each own tile a die may not go to: HONEY, at
    ``max_dice_per_hive_tile``, the die's own tile ``src`` (Feint; -1 none), or identical to an
    earlier tile other than ``src`` (listed once, ``distinct_tiles``)."""
    cap = int(rules[R.R_MAX_DICE_PER_HIVE_TILE])
    skip = ~distinct_tiles(state, b, src)
    if src >= 0:
        skip |= 1 << src
    for t in range(state[b + L.F_N_TILES]):
        skip |= state[b + L.F_TILE_HONEY + t] << t
        if cap > 0 and tile_dice(state, b, t) >= cap:
            skip |= 1 << t
    return skip


@njit(cache=True)
def list_destinations(state, seat, v, head, src, skip, n):
    """WD-R6 (DP-04, DP-08): append ``head + dest`` for every legal destination of a die of
    value v: a free unblocked slot v of A, C, E, G; flower Dv (always legal, WD-QA7); an own
    tile not in the bit set ``skip`` (``open_tiles``). ``src`` (a Feint source, -1 none) is
    left out. ``head`` is the code with dest 0 (the destination is the last field of a
    placement and of a Feint, ``options``)."""
    for card in range(L.N_SLOTCARDS):
        i = card * L.N_VAL + v - 1
        n = _opt_if(state, n, head + card, (card != src) & (state[L.S_BLOCKED + i] == 0)
                    & (state[L.S_SLOT_OWNER + i] == 0))
    n = _opt_if(state, n, head + L.DEST_FLOWER, src != L.FROM_FLOWER + v - 1)
    for t in range(state[seat_base(seat) + L.F_N_TILES]):
        n = _opt_if(state, n, head + L.DEST_TILE + t, 1 - ((skip >> t) & 1))
    return n


@njit(cache=True)
def list_placements(state, rules, seat, only, n):
    """WD-R6 (DP-04): every (value, destination) for an unplaced die (of value ``only``
    when Overtime set it, DP-05; 0 = any), appended from option ``n``. Returns the count."""
    b = seat_base(seat)
    skip = open_tiles(state, rules, b, -1)
    for v in range(1, L.N_VAL + 1):
        if state[b + L.F_UNPLACED + v - 1] > 0 and (only == 0 or v == only):
            n = list_destinations(state, seat, v, O.encode_place(v, 0), -1, skip, n)
    return n


@njit(cache=True)
def put_on_flower(state, seat, f, v):
    """A die of value v goes on flower f (by placement, Command or Wrong Turn)."""
    state[L.S_FLOWER + f * L.MAX_PLAYERS + seat] += 1
    state[seat_base(seat) + L.F_FVAL + f * L.N_VAL + v - 1] += 1


@njit(cache=True)
def take_from_flower(state, seat, f, v):
    """A die of ``seat`` leaves flower f: the value v given, or (v = 0, Wrong Turn) the lowest
    value there. Returns its value."""
    b = seat_base(seat) + L.F_FVAL + f * L.N_VAL
    if v == 0:
        v = 1
        while state[b + v - 1] == 0:
            v += 1
    state[b + v - 1] -= 1
    state[L.S_FLOWER + f * L.MAX_PLAYERS + seat] -= 1
    return v


@njit(cache=True)
def put_die(state, seat, v, dest):
    """WD-R6: a die of value v goes to ``dest`` (slot card, flower Dv or own tile)."""
    if dest < L.DEST_FLOWER:
        state[L.S_SLOT_OWNER + dest * L.N_VAL + v - 1] = seat + 1
    elif dest == L.DEST_FLOWER:
        put_on_flower(state, seat, v - 1, v)
    else:
        b = seat_base(seat)
        t = dest - L.DEST_TILE
        state[b + L.F_TDICE + t * L.N_VAL + v - 1] += 1
        rekey(state, b, t)


@njit(cache=True)
def place_die(state, seat, code, log):
    """WD-R4/R6: place one die of value v where ``code`` (``options.encode_place``) says; it
    is the turn's placement (``turn_used``)."""
    v, dest = O.decode_place(code)
    state[seat_base(seat) + L.F_UNPLACED + v - 1] -= 1
    put_die(state, seat, v, dest)
    turn_used(state, seat)
    if log.shape[0] > 1:
        emit(log, L.EV_PLACE, seat, v, min(dest, L.DEST_TILE), dest - L.DEST_TILE if dest >= L.DEST_TILE else -1)


@njit(cache=True)
def unplaced_dice(state, b):
    """Unplaced dice of the seat at ``b``."""
    k = 0
    for v in range(L.N_VAL):
        k += state[b + L.F_UNPLACED + v]
    return k


@njit(cache=True)
def turn_used(state, seat):
    """WD-R4: one placement of the turn is done (a die placed, a Command or a Feint); the turn
    passes to the next seat once none is due (Shift Change: two, DP-07) or the seat is out of
    dice."""
    state[L.S_TURN_LEFT] -= 1
    state[L.S_TURN_PLACED] += 1
    state[L.S_TURN_VALUE] = 0
    if state[L.S_TURN_LEFT] <= 0 or unplaced_dice(state, seat_base(seat)) == 0:
        end_turn(state)


@njit(cache=True)
def end_turn(state):
    """WD-R4: the turn is over; the next seat in turn order plays."""
    state[L.S_TURN_LEFT] = 0
    state[L.S_TURN_PLACED] = 0
    state[L.S_TURN_VALUE] = 0
    state[L.S_CURSOR] = wrap(state[L.S_CURSOR] + 1, state[L.S_N_PLAYERS])


# ==== night A, B (WD-A*, WD-B*) ================================================================
@njit(cache=True)
def build_hive(state, rules, log):
    """WD-A1 .. WD-A4 (WD-R13): in turn order, each die on A takes ``tiles_per_build_die``
    tiles from the supply at once, as EMPTY (always taken, WD-I24); none left: no effect."""
    for k in range(state[L.S_N_PLAYERS]):
        seat = turn_seat(state, k)
        b = seat_base(seat)
        for v in range(L.N_VAL):
            if state[L.S_SLOT_OWNER + L.CARD_A * L.N_VAL + v] != seat + 1:
                continue
            state[L.S_SLOT_OWNER + L.CARD_A * L.N_VAL + v] = 0
            got = 0
            for _ in range(int(rules[R.R_TILES_PER_BUILD_DIE])):
                if state[L.S_TILE_SUPPLY] > 0 and state[b + L.F_N_TILES] < L.MAX_HIVE:
                    state[L.S_TILE_SUPPLY] -= 1
                    t = state[b + L.F_N_TILES]
                    state[b + L.F_N_TILES] = t + 1
                    rekey(state, b, t)
                    got += 1
            state[b + L.F_BUILDS] += got
            if log.shape[0] > 1:
                emit(log, L.EV_BUILD, seat, v + 1, got, state[b + L.F_N_TILES],
                     state[L.S_TILE_SUPPLY])


@njit(cache=True)
def hatch(state, rules, log):
    """WD-B1 .. WD-B6: in turn order, each tile holding an egg at the start of B with two dice
    of equal value returns the egg and moves ``dice_per_hatch`` dice from the personal supply
    to the pool (rolled from the next round, WD-B4); under Expertise (DP-13) any two dice do.
    An empty personal supply: no hatch
    (``return_egg``: the egg goes back without a die, WD-B3). Every die on an egg tile goes
    back to the pool after B (WD-B6); the other tile dice are the F-dice (WD-I5)."""
    for k in range(state[L.S_N_PLAYERS]):
        seat = turn_seat(state, k)
        b = seat_base(seat)
        for t in range(state[b + L.F_N_TILES]):
            if state[b + L.F_EGG + t] == 0:
                continue
            pair = state[b + L.F_EXPERT + t] == 1      # Expertise (DP-13)
            state[b + L.F_EXPERT + t] = 0
            for v in range(L.N_VAL):
                if state[b + L.F_TDICE + t * L.N_VAL + v] >= 2:
                    pair = True
            _clear_tile_dice(state, b, t)
            if not pair:
                continue
            got = min(int(rules[R.R_DICE_PER_HATCH]), state[b + L.F_PERSONAL])
            result = 0
            if got > 0 or int(rules[R.R_HATCH_WITHOUT_SUPPLY]) == R.RETURN_EGG:
                state[b + L.F_EGG + t] = 0
                rekey(state, b, t)
                state[L.S_EGG_SUPPLY] += 1
                state[b + L.F_PERSONAL] -= got
                state[b + L.F_POOL] += got
                result = 1 if got > 0 else 2
                if got > 0:
                    state[b + L.F_EGGS_HATCHED] += 1
            if log.shape[0] > 1:
                emit(log, L.EV_HATCH, seat, t, result, state[b + L.F_POOL])


# ==== night C (WD-C*) ==========================================================================
@njit(cache=True)
def next_slot_die(state, card):
    """The next die on slot card ``card`` in resolution order (WD-R13: start player first,
    slots 1..6): sets S_CTX_SEAT / S_CTX_SLOT and returns the seat, or -1."""
    for k in range(state[L.S_N_PLAYERS]):
        seat = turn_seat(state, k)
        for v in range(L.N_VAL):
            if state[L.S_SLOT_OWNER + card * L.N_VAL + v] == seat + 1:
                state[L.S_CTX_SEAT] = seat
                state[L.S_CTX_SLOT] = v
                return seat
    return -1


@njit(cache=True)
def list_eggs(state, seat):
    """WD-C1 .. WD-C4 (DP-14): decline (-1) or an EMPTY tile for the egg; 0 options when the
    egg supply is empty or the player has no EMPTY tile (the die does nothing)."""
    if state[L.S_EGG_SUPPLY] == 0 or state[L.S_CTX_LEFT] == 0:
        return 0
    b = seat_base(seat)
    n = 1
    state[L.S_OPTIONS] = -1
    first = distinct_tiles(state, b)
    for t in range(state[b + L.F_N_TILES]):
        if (first >> t) & 1 and is_empty_tile(state, b, t):
            state[L.S_OPTIONS + n] = t
            n += 1
    return n if n > 1 else 0


@njit(cache=True)
def take_egg(state, seat, code, log):
    """WD-C1: put one egg from the supply on EMPTY tile ``code`` (-1: decline, the die is
    done); a die takes up to ``eggs_per_egg_die`` eggs."""
    b = seat_base(seat)
    if code < 0:
        state[L.S_CTX_LEFT] = 0
    else:
        state[b + L.F_EGG + code] = 1
        rekey(state, b, code)
        state[L.S_EGG_SUPPLY] -= 1
        state[b + L.F_EGGS_TAKEN] += 1
        state[L.S_CTX_LEFT] -= 1
    if log.shape[0] > 1:
        emit(log, L.EV_EGG, seat, state[L.S_CTX_SLOT] + 1, code, state[L.S_EGG_SUPPLY])


# ==== night D (WD-D*) ==========================================================================
@njit(cache=True)
def pay_flower(state, rules, f, seat, log):
    """WD-D5: ``seat`` takes what it is owed on flower ``f``, capped by the colour's supply."""
    owed, place = majority_owed(state, rules, f, seat)
    if place == 0:
        return
    b = seat_base(seat)
    got = min(owed, state[L.S_CUBE_SUPPLY + f])
    state[L.S_CUBE_SUPPLY + f] -= got
    state[b + L.F_GAINED + f] += got
    state[b + L.F_CUBES_GAINED] += got
    if place == 1:
        state[b + L.F_MAJORITIES] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_MAJORITY, f + 1, seat, state[L.S_FLOWER + f * L.MAX_PLAYERS + seat], owed,
             got, state[L.S_CUBE_SUPPLY + f])


@njit(cache=True)
def resolve_flowers(state, rules, log):
    """WD-D1 .. WD-D5, WD-R11 (D1 to D6): every flower pays its majorities, in turn order
    from S (``d_payout_order = rank``: first places before second places, each in turn
    order); the dice go back to the pools. The cubes are placed afterwards (WD-D7, WD-I9)."""
    n = state[L.S_N_PLAYERS]
    rank = int(rules[R.R_D_PAYOUT_ORDER]) == R.PAYOUT_RANK
    for f in range(L.N_COL):
        for want in range(1, 3):
            for k in range(n):
                seat = turn_seat(state, k)
                if rank:
                    _, place = majority_owed(state, rules, f, seat)
                    if place != want:
                        continue
                elif want == 2:
                    continue
                pay_flower(state, rules, f, seat, log)
        for p in range(n):
            state[L.S_FLOWER + f * L.MAX_PLAYERS + p] = 0
            for v in range(L.N_VAL):
                state[seat_base(p) + L.F_FVAL + f * L.N_VAL + v] = 0


@njit(cache=True)
def next_cube_owner(state, rules, log):
    """WD-D7: the first seat in turn order with gained cubes to place, or -1. A seat with no
    room left returns the rest of its cubes to the supply (the player kept as many as fit)."""
    for k in range(state[L.S_N_PLAYERS]):
        seat = turn_seat(state, k)
        b = seat_base(seat)
        left = 0
        for c in range(L.N_COL):
            left += state[b + L.F_GAINED + c]
        if left == 0:
            continue
        if has_room(state, rules, b):
            return seat
        for c in range(L.N_COL):
            g = state[b + L.F_GAINED + c]
            if g > 0:
                state[L.S_CUBE_SUPPLY + c] += g
                state[b + L.F_CUBES_LOST] += g
                state[b + L.F_GAINED + c] = 0
                if log.shape[0] > 1:
                    emit(log, L.EV_CUBE, seat, c, -1, g)
    return -1


@njit(cache=True)
def cube_tiles(state, rules, b):
    """WD-D7, WD-E4: bit t set for each tile with room for a cube (identical tiles once)."""
    first = distinct_tiles(state, b)
    ok = 0
    for t in range(state[b + L.F_N_TILES]):
        if (first >> t) & 1 and room(state, rules, b, t) > 0:
            ok |= 1 << t
    return ok


@njit(cache=True)
def list_cube_places(state, rules, seat):
    """WD-D7 (DP-16): a colour of the gained cubes and a tile with room for it (identical tiles
    listed once, ``cube_tiles``); the cubes of that colour go there as far as they fit
    (``place_cubes``)."""
    b = seat_base(seat)
    ok = cube_tiles(state, rules, b)
    n = 0
    for c in range(L.N_COL):
        if state[b + L.F_GAINED + c] == 0:
            continue
        for t in range(state[b + L.F_N_TILES]):
            if (ok >> t) & 1:
                state[L.S_OPTIONS + n] = O.encode_cube(c, t)
                n += 1
    return n


@njit(cache=True)
def place_cubes(state, rules, seat, code, log):
    """WD-D7: put the gained cubes of the colour of ``code`` (``options.encode_cube``) on its
    tile, as many as fit there; the rest of that colour waits for the next choice."""
    b = seat_base(seat)
    c, t = O.decode_cube(code)
    k = min(state[b + L.F_GAINED + c], room(state, rules, b, t))
    state[b + L.F_GAINED + c] -= k
    for _ in range(k):
        state[b + L.F_CUBES + t * L.N_COL + c] += 1
        if log.shape[0] > 1:
            emit(log, L.EV_CUBE, seat, c, t, tile_cubes(state, b, t))
    rekey(state, b, t)


# ==== night E (WD-E*) ==========================================================================
@njit(cache=True)
def list_trades(state, rules, seat):
    """WD-E1 .. WD-E5 (DP-17): skip; trade 1 (``trade_pollen_cost`` cubes of c from any tiles
    for a colour c2 != c still in the supply); trade 2 (``trade_egg_cost`` eggs for any
    colour in the supply). Returns 0 when no trade is possible (the die does nothing)."""
    b = seat_base(seat)
    cost = int(rules[R.R_TRADE_POLLEN_COST])
    diff = rules[R.R_TRADE_REQUIRES_DIFFERENT_COLOUR] > 0.5
    n = 1
    state[L.S_OPTIONS] = L.TR_SKIP
    for c in range(L.N_COL):
        have = 0
        for t in range(state[b + L.F_N_TILES]):
            have += state[b + L.F_CUBES + t * L.N_COL + c]
        if have < cost:
            continue
        for c2 in range(L.N_COL):
            if (c2 == c and diff) or state[L.S_CUBE_SUPPLY + c2] + (cost if c2 == c else 0) == 0:
                continue
            state[L.S_OPTIONS + n] = O.encode_trade(c, c2)
            n += 1
    eggs = 0
    for t in range(state[b + L.F_N_TILES]):
        eggs += state[b + L.F_EGG + t]
    if eggs >= int(rules[R.R_TRADE_EGG_COST]):
        for c2 in range(L.N_COL):
            if state[L.S_CUBE_SUPPLY + c2] > 0:
                state[L.S_OPTIONS + n] = O.encode_trade(-1, c2)
                n += 1
    return n if n > 1 else 0


@njit(cache=True)
def start_trade(state, rules, seat, code, log):
    """WD-E1: the die's trade choice; paying follows (S_CTX_*), or the die is done."""
    if log.shape[0] > 1:
        emit(log, L.EV_TRADE, seat, state[L.S_CTX_SLOT] + 1, code)
    if code == L.TR_SKIP:
        _end_trade(state)
        return
    c, c2 = O.decode_trade(code)
    state[L.S_CTX_COLOUR] = c
    state[L.S_CTX_GAIN] = c2
    if c < 0:
        state[L.S_CTX_LEFT] = int(rules[R.R_TRADE_EGG_COST])
    else:
        state[L.S_CTX_LEFT] = int(rules[R.R_TRADE_POLLEN_COST])
    state[seat_base(seat) + L.F_TRADES] += 1
    state[L.S_PHASE] = L.PH_E_PAY


@njit(cache=True)
def _end_trade(state):
    """The E die is done: it goes back to the pool (WD-R14)."""
    state[L.S_SLOT_OWNER + L.CARD_E * L.N_VAL + state[L.S_CTX_SLOT]] = 0
    state[L.S_CTX_LEFT] = 0
    state[L.S_PHASE] = L.PH_E


@njit(cache=True)
def list_payments(state, seat):
    """WD-E2/E3: the tiles one paid cube of S_CTX_COLOUR (or one egg) can come from."""
    b = seat_base(seat)
    c = state[L.S_CTX_COLOUR]
    first = distinct_tiles(state, b)
    n = 0
    for t in range(state[b + L.F_N_TILES]):
        if not (first >> t) & 1:
            continue
        if ((c < 0 and state[b + L.F_EGG + t])
                or (c >= 0 and state[b + L.F_CUBES + t * L.N_COL + c] > 0)):
            state[L.S_OPTIONS + n] = t
            n += 1
    return n


@njit(cache=True)
def pay_item(state, rules, seat, t, log):
    """WD-E2/E3/E6: one paid cube (or egg) from tile ``t`` goes back to the supply at once;
    once paid in full, the received cubes are taken from the supply (WD-E5)."""
    b = seat_base(seat)
    c = state[L.S_CTX_COLOUR]
    if c < 0:
        state[b + L.F_EGG + t] = 0
        state[L.S_EGG_SUPPLY] += 1
    else:
        state[b + L.F_CUBES + t * L.N_COL + c] -= 1
        state[L.S_CUBE_SUPPLY + c] += 1
    rekey(state, b, t)
    if log.shape[0] > 1:
        emit(log, L.EV_PAY, seat, t, c)
    state[L.S_CTX_LEFT] -= 1
    if state[L.S_CTX_LEFT] == 0:
        g = state[L.S_CTX_GAIN]
        want = int(rules[R.R_TRADE_EGG_GAIN]) if c < 0 else int(rules[R.R_TRADE_POLLEN_GAIN])
        got = min(want, state[L.S_CUBE_SUPPLY + g])
        state[L.S_CUBE_SUPPLY + g] -= got
        state[L.S_CTX_LEFT] = got
        state[L.S_PHASE] = L.PH_E_GAIN


@njit(cache=True)
def list_gain_tiles(state, rules, seat):
    """WD-E4: the tiles with room for a received cube (``cube_tiles``)."""
    ok = cube_tiles(state, rules, seat_base(seat))
    n = 0
    for t in range(state[seat_base(seat) + L.F_N_TILES]):
        if (ok >> t) & 1:
            state[L.S_OPTIONS + n] = t
            n += 1
    return n


@njit(cache=True)
def gain_cube(state, seat, t, log):
    """WD-E4: place one received cube on tile ``t`` (-1: no room, it goes back)."""
    b = seat_base(seat)
    g = state[L.S_CTX_GAIN]
    if t >= 0:
        state[b + L.F_CUBES + t * L.N_COL + g] += 1
        rekey(state, b, t)
    else:
        state[L.S_CUBE_SUPPLY + g] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_GAIN, seat, g, t)
    state[L.S_CTX_LEFT] -= 1


# ==== night F (WD-F*) ==========================================================================
@njit(cache=True)
def has_tile_dice(state, b):
    """True if the seat still has F-dice on its tiles (one pass over its tiles' dice)."""
    any_ = 0
    for i in range(state[b + L.F_N_TILES] * L.N_VAL):
        any_ |= state[b + L.F_TDICE + i]
    return any_ != 0


@njit(cache=True)
def list_pairs(state, seat):
    """WD-F2 (DP-18): a pair of equal-value F-dice on tiles x <= y (x == y needs two dice
    there). Stopping early is not offered while a pair can be formed: a pair's moves are
    optional and an unpaired die does nothing, so leaving dice unpaired never helps. Returns
    0 when no pair is left (the rest of the seat's F-dice then go back unpaired). Holding
    Expertise, the unequal pairs follow (``list_expert_pairs``)."""
    b = seat_base(seat)
    nt = state[b + L.F_N_TILES]
    n = 0
    for v in range(L.N_VAL):
        for x in range(nt):
            dx = state[b + L.F_TDICE + x * L.N_VAL + v]
            if dx == 0:
                continue
            if dx >= 2:
                state[L.S_OPTIONS + n] = O.encode_pair(x, x, v, -1)
                n += 1
            for y in range(x + 1, nt):
                if state[b + L.F_TDICE + y * L.N_VAL + v] > 0:
                    state[L.S_OPTIONS + n] = O.encode_pair(x, y, v, -1)
                    n += 1
    if state[b + L.F_HAND + L.Q_EXPERTISE] > 0:
        n = list_expert_pairs(state, b, n)
    return n


@njit(cache=True)
def list_expert_pairs(state, b, n):
    """Expertise (DP-18, WD-I18): one pair of unequal dice, a die of value v on tile x and one
    of w != v on tile y (x <= y; v < w when x == y), counts as a pair. Played only by choice:
    when no equal pair is left, PAIR_DONE (keep the card) is offered too (WD-Q5)."""
    plain = n
    nt = state[b + L.F_N_TILES]
    for x in range(nt):
        for v in range(L.N_VAL):
            if state[b + L.F_TDICE + x * L.N_VAL + v] == 0:
                continue
            for y in range(x, nt):
                for w in range(L.N_VAL):
                    if w == v or (x == y and w < v) or state[b + L.F_TDICE + y * L.N_VAL + w] == 0:
                        continue
                    n = _opt(state, n, O.encode_pair(x, y, v, w))
    if plain == 0 and n > 0:
        n = _opt(state, n, L.PAIR_DONE)
    return n


@njit(cache=True)
def take_pair(state, seat, code, log):
    """WD-F2: form the pair ``code`` (its two dice are used up; an Expertise pair plays the
    card, WD-Q3); PAIR_DONE returns the seat's other F-dice to the pool unpaired (they do
    nothing)."""
    b = seat_base(seat)
    if code == L.PAIR_DONE:
        for t in range(state[b + L.F_N_TILES]):
            _clear_tile_dice(state, b, t)
        return
    x, y, v, w = O.decode_pair(code)             # w >= 0: Expertise, dice v on x and w on y
    state[b + L.F_TDICE + x * L.N_VAL + v] -= 1
    state[b + L.F_TDICE + y * L.N_VAL + (v if w < 0 else w)] -= 1
    rekey(state, b, x)
    rekey(state, b, y)
    if w >= 0:
        discard_card(state, seat, L.Q_EXPERTISE)
        if log.shape[0] > 1:
            emit(log, L.EV_PLAY, seat, L.Q_EXPERTISE, x, y, (v + 1) * 10 + w + 1, -1)
    state[L.S_CTX_SEAT] = seat
    state[L.S_CTX_X] = x
    state[L.S_CTX_Y] = y
    if log.shape[0] > 1:
        emit(log, L.EV_PAIR, seat, x, y, v + 1)
    linked = x != y and holds_pollen(state, b, x) and holds_pollen(state, b, y)
    state[L.S_PHASE] = L.PH_F_MOVE if linked else L.PH_F_FLIP


@njit(cache=True)
def list_moves(state, rules, seat):
    """WD-F3 (DP-19): no move, or gather one colour on x or y (``hive.gather_split``); only
    the gathers that change the tiles are listed."""
    b = seat_base(seat)
    x = state[L.S_CTX_X]
    y = state[L.S_CTX_Y]
    n = 1
    state[L.S_OPTIONS] = L.MV_NONE
    for c in range(L.N_COL):
        if state[b + L.F_CUBES + x * L.N_COL + c] + state[b + L.F_CUBES + y * L.N_COL + c] == 0:
            continue
        for side in range(2):
            tx = x if side == 0 else y
            ty = y if side == 0 else x
            if _gather_changes(state, rules, b, tx, ty, c):
                state[L.S_OPTIONS + n] = O.encode_move(c, side)
                n += 1
    return n


@njit(cache=True)
def _gather_changes(state, rules, b, x, y, c):
    """True if gathering ``c`` on x (``apply_gather``) changes the cubes of x and y."""
    cap = int(rules[R.R_TILE_POLLEN_CAPACITY])
    cx = state[b + L.F_CUBES + x * L.N_COL + c]
    cy = state[b + L.F_CUBES + y * L.N_COL + c]
    ox = tile_cubes(state, b, x) - cx
    tc = cx + cy
    xc = min(cap, tc)
    if xc != cx:
        return True
    # x already holds its share of c: others move off x if y has room
    oy_room = cap - (tc - xc) - (tile_cubes(state, b, y) - cy)
    return ox > 0 and oy_room > 0


@njit(cache=True)
def apply_gather(state, rules, b, x, y, c):
    """WD-F3: share the cubes of x and y out so that x holds as many ``c`` as fit and y the
    rest of ``c``; the other colours go to y as far as its room allows (y's own first, then
    x's by colour), the rest stays on x. Both tiles end with at most their capacity."""
    cap = int(rules[R.R_TILE_POLLEN_CAPACITY])
    tc = state[b + L.F_CUBES + x * L.N_COL + c] + state[b + L.F_CUBES + y * L.N_COL + c]
    xc = min(cap, tc)
    yroom = cap - (tc - xc)
    state[b + L.F_CUBES + x * L.N_COL + c] = xc
    state[b + L.F_CUBES + y * L.N_COL + c] = tc - xc
    for d in range(L.N_COL):       # y keeps its own other colours first
        if d == c:
            continue
        k = state[b + L.F_CUBES + y * L.N_COL + d]
        keep = min(k, yroom)
        yroom -= keep
        state[b + L.F_CUBES + y * L.N_COL + d] = keep
        state[b + L.F_CUBES + x * L.N_COL + d] += k - keep
    for d in range(L.N_COL):       # then x's other colours move to y while it has room
        if d == c:
            continue
        k = state[b + L.F_CUBES + x * L.N_COL + d]
        mv = min(k, yroom)
        yroom -= mv
        state[b + L.F_CUBES + x * L.N_COL + d] = k - mv
        state[b + L.F_CUBES + y * L.N_COL + d] += mv
    rekey(state, b, x)
    rekey(state, b, y)


@njit(cache=True)
def move_pollen(state, rules, seat, code, log):
    """WD-F3/F5: carry out the chosen move of the pending pair; its flip follows."""
    if code != L.MV_NONE:
        b = seat_base(seat)
        c, side = O.decode_move(code)
        x = state[L.S_CTX_X]
        y = state[L.S_CTX_Y]
        if side == 1:
            x, y = y, x
        apply_gather(state, rules, b, x, y, c)
    if log.shape[0] > 1:
        emit(log, L.EV_MOVE, seat, state[L.S_CTX_X], state[L.S_CTX_Y], code)
    state[L.S_PHASE] = L.PH_F_FLIP


@njit(cache=True)
def list_flips(state, rules, seat):
    """WD-F4, WD-F7 (DP-19): the pair's tiles that can turn into honey (x, and y if
    different), plainly; then, holding Efficiency or Alchemy, the tiles that only a card can
    flip (``card_flip_ok``): with Efficiency, Alchemy, or both when neither alone works and
    ``allow_efficiency_with_alchemy`` (WD-Q7). A card flip is a choice: FLIP_NONE keeps the
    card when no plain flip is listed (WD-Q5: no card on a tile that flips without it)."""
    b = seat_base(seat)
    x = state[L.S_CTX_X]
    y = state[L.S_CTX_Y]
    n = 0
    if honey_colour(state, rules, b, x) >= 0:
        state[L.S_OPTIONS] = O.encode_flip(L.FLIP_PLAIN, x)
        n = 1
    if y != x and honey_colour(state, rules, b, y) >= 0:
        state[L.S_OPTIONS + n] = O.encode_flip(L.FLIP_PLAIN, y)
        n += 1
    eff = state[b + L.F_HAND + L.Q_EFFICIENCY] > 0
    alc = state[b + L.F_HAND + L.Q_ALCHEMY] > 0
    if not (eff or alc):
        return n
    plain = n
    for i in range(2):
        t = x if i == 0 else y
        if (i == 1 and y == x) or honey_colour(state, rules, b, t) >= 0:
            continue
        one = False
        if eff and card_flip_ok(state, rules, b, t, 1):
            state[L.S_OPTIONS + n] = O.encode_flip(L.FLIP_EFFICIENCY, t)
            n += 1
            one = True
        if alc and card_flip_ok(state, rules, b, t, 2):
            state[L.S_OPTIONS + n] = O.encode_flip(L.FLIP_ALCHEMY, t)
            n += 1
            one = True
        if (not one and eff and alc and rules[R.R_ALLOW_EFFICIENCY_WITH_ALCHEMY] > 0.5
                and card_flip_ok(state, rules, b, t, 3)):
            state[L.S_OPTIONS + n] = O.encode_flip(L.FLIP_BOTH, t)
            n += 1
    if plain == 0 and n > 0:
        state[L.S_OPTIONS + n] = L.FLIP_NONE
        n += 1
    return n


@njit(cache=True)
def flip_tile(state, rules, seat, code, log):
    """WD-F4/F8: the pair flips the tile of ``code`` (``options.encode_flip``): all its cubes
    go back to the supply at once and the tile is HONEY for good (the kernel always flips a
    qualifying tile: honey is the goal). A card flip plays Efficiency and/or Alchemy first
    (WD-Q3, WD-Q7); FLIP_NONE flips nothing."""
    state[L.S_PHASE] = L.PH_F
    if code == L.FLIP_NONE:
        return
    b = seat_base(seat)
    kind, t = O.decode_flip(code)
    for q in range(2):
        if (kind >> q) & 1:
            card = L.Q_EFFICIENCY if q == 0 else L.Q_ALCHEMY
            discard_card(state, seat, card)
            if log.shape[0] > 1:
                emit(log, L.EV_PLAY, seat, card, t, 0, 0, -1)
    c = 0
    for d in range(L.N_COL):
        if state[b + L.F_CUBES + t * L.N_COL + d] > state[b + L.F_CUBES + t * L.N_COL + c]:
            c = d
    for d in range(L.N_COL):
        state[L.S_CUBE_SUPPLY + d] += state[b + L.F_CUBES + t * L.N_COL + d]
        state[b + L.F_CUBES + t * L.N_COL + d] = 0
    state[b + L.F_TILE_HONEY + t] = 1
    rekey(state, b, t)
    state[b + L.F_HONEY] += 1
    if log.shape[0] > 1:
        emit(log, L.EV_FLIP, seat, t, c, state[b + L.F_HONEY])


# ==== night G and the end of the round (WD-G*, WD-R15, WD-V*) ===================================
@njit(cache=True)
def draw_queen_cards(state, rules, log):
    """WD-G1 .. WD-G3 (WD-R13): in turn order, each die on G draws ``cards_per_draw_die``
    cards into its owner's hand; an empty deck (no reshuffle, WD-I12) or a full hand
    (``hand_limit``) draws nothing. There is no window after G: the cards drawn are first
    played the next day (WD-Q6)."""
    limit = int(rules[R.R_HAND_LIMIT])
    for k in range(state[L.S_N_PLAYERS]):
        seat = turn_seat(state, k)
        b = seat_base(seat)
        for v in range(L.N_VAL):
            if state[L.S_SLOT_OWNER + L.CARD_G * L.N_VAL + v] != seat + 1:
                continue
            state[L.S_SLOT_OWNER + L.CARD_G * L.N_VAL + v] = 0
            for _ in range(int(rules[R.R_CARDS_PER_DRAW_DIE])):
                held = 0
                for q in range(L.N_QUEEN):
                    held += state[b + L.F_HAND + q]
                card = -1
                if state[L.S_DECK_POS] < state[L.S_DECK_N] and (limit == 0 or held < limit):
                    card = state[L.S_DECK + state[L.S_DECK_POS]]
                    state[L.S_DECK_POS] += 1
                    state[b + L.F_HAND + card] += 1
                    state[b + L.F_DRAWN] += 1
                if log.shape[0] > 1:
                    emit(log, L.EV_DRAW, seat, v + 1, card, state[L.S_DECK_N] - state[L.S_DECK_POS])


@njit(cache=True)
def end_of_round(state, rules, log):
    """WD-R15, WD-V1, WD-V2: after G, the game ends if a player has ``honey_to_win`` honey;
    otherwise the start player passes clockwise and the next day begins. First the volunteer
    die goes back to the supply and the dice out sick rejoin their pools (WD-R15 steps 1, 2:
    the pools never lost them)."""
    state[L.S_VOLUNTEER] = 0
    for p in range(state[L.S_N_PLAYERS]):
        state[seat_base(p) + L.F_SICK] = 0
    for p in range(state[L.S_N_PLAYERS]):
        if state[seat_base(p) + L.F_HONEY] >= int(rules[R.R_HONEY_TO_WIN]):
            state[L.S_ENDED] = 1
            state[L.S_END_TRIGGER] = L.ET_HONEY
    if state[L.S_ENDED] == 0:
        state[L.S_START] = wrap(state[L.S_START] + 1, state[L.S_N_PLAYERS])
        state[L.S_PHASE] = L.PH_DAY


@njit(cache=True)
def final_score(state, rules, p):
    """The final score of seat ``p``: its honey plus its ``end_bonus_points`` (added once the
    game is over, so the bonus never ends the game, WD-V2)."""
    return state[seat_base(p) + L.F_HONEY] + np.int64(rules[R.R_END_BONUS_POINTS + 1 + p])


@njit(cache=True)
def final_rank(state, rules, p):
    """WD-V3/V4: rank of seat ``p`` by final score (honey + end bonus), then cubes in the
    hive; ties share the rank."""
    bp = seat_base(p)
    hp = final_score(state, rules, p)
    cp = hive_cubes(state, bp)
    r = 1
    for q in range(state[L.S_N_PLAYERS]):
        bq = seat_base(q)
        hq = final_score(state, rules, q)
        if hq > hp or (hq == hp and hive_cubes(state, bq) > cp):
            r += 1
    return r


@njit(cache=True)
def winners(state, rules):
    """(n_winners, winner_seat) of WD-V3/V4: winner_seat = -1 when the win is shared."""
    nw = 0
    ws = -1
    for p in range(state[L.S_N_PLAYERS]):
        if final_rank(state, rules, p) == 1:
            nw += 1
            ws = p
    return nw, ws if nw == 1 else -1


@njit(cache=True)
def _game_over(state, rules, log):
    """The game is over (WD-V2, or truncated WD-V6): no decision is pending any more."""
    state[L.S_PHASE] = L.PH_OVER
    state[L.S_POINT] = 0
    state[L.S_N_OPTIONS] = 0
    if log.shape[0] > 1:
        nw, ws = winners(state, rules)
        emit(log, L.EV_END, state[L.S_END_TRIGGER], state[L.S_ROUND], ws, nw)


# ==== queen cards (WD-Q*, windows WD-R3 / R9 / R12, WD-I13) =====================================
@njit(cache=True)
def open_window(state, w):
    """WD-I13: card window ``w`` (W_*) opens: one pass in turn order from S (WD-R3/R9/R12)."""
    state[L.S_WINDOW] = w
    state[L.S_CURSOR] = 0
    state[L.S_PHASE] = L.PH_WINDOW


@njit(cache=True)
def close_window(state):
    """The window is over: DW0 goes on to the placement turns, DW-end to NW_A (the day/night
    card flips, WD-R10), NW_X to the resolution of card X (WD-R12)."""
    w = state[L.S_WINDOW]
    state[L.S_CURSOR] = 0
    if w == L.W_DW0:
        state[L.S_PHASE] = L.PH_PLACE
    elif w == L.W_DW_END:
        open_window(state, L.W_NW)
    else:
        state[L.S_PHASE] = L.NIGHT_PHASES[w - L.W_NW]


@njit(cache=True)
def _opt(state, n, code):
    """Append ``code`` to the options block unless it is full (MAX_OPTS); the new count."""
    if n < L.MAX_OPTS:
        state[L.S_OPTIONS + n] = code
        return n + 1
    return n


@njit(cache=True)
def _opt_if(state, n, code, cond):
    """``_opt`` if ``cond`` (a bool or 0/1), without a branch on it: the code is written after
    the listed ones whatever ``cond`` and counted only if ``cond`` (the options block beyond
    the count means nothing)."""
    if n < L.MAX_OPTS:
        state[L.S_OPTIONS + n] = code
        return n + int(cond)
    return n


@njit(cache=True)
def list_sick_day(state, seat, n):
    """Sick Day (DP-01, DW0 only): any opponent's unplaced die, by value (WD-Q5: only dice
    that are there)."""
    if state[seat_base(seat) + L.F_HAND + L.Q_SICK_DAY] == 0:
        return n
    for p in range(state[L.S_N_PLAYERS]):
        if p == seat:
            continue
        for v in range(L.N_VAL):
            if state[seat_base(p) + L.F_UNPLACED + v] > 0:
                n = _opt(state, n, O.encode_card(L.Q_SICK_DAY, O.encode_sick_day(p, v)))
    return n


@njit(cache=True)
def list_wrong_turn(state, seat, n, head):
    """Wrong Turn (DP-09): an opponent's die on flower f to another flower f2 != f (codes
    after ``head``: 0 in a window, TURN_CARD on the own turn)."""
    if state[seat_base(seat) + L.F_HAND + L.Q_WRONG_TURN] == 0:
        return n
    for p in range(state[L.S_N_PLAYERS]):
        if p == seat:
            continue
        for f in range(L.N_COL):
            if state[L.S_FLOWER + f * L.MAX_PLAYERS + p] == 0:
                continue
            for f2 in range(L.N_COL):
                if f2 != f:
                    n = _opt(state, n, head + O.encode_card(L.Q_WRONG_TURN,
                                                          O.encode_wrong_turn(p, f, f2)))
    return n


@njit(cache=True)
def list_queens_gift(state, seat, n):
    """Queen's Gift (DP-10): a tile from the supply, or an egg onto an EMPTY tile (identical
    tiles listed once); nothing when the supplies are empty (WD-Q5)."""
    b = seat_base(seat)
    if state[b + L.F_HAND + L.Q_QUEENS_GIFT] == 0:
        return n
    if state[L.S_TILE_SUPPLY] > 0 and state[b + L.F_N_TILES] < L.MAX_HIVE:
        n = _opt(state, n, O.encode_card(L.Q_QUEENS_GIFT, O.encode_gift(-1)))
    if state[L.S_EGG_SUPPLY] > 0:
        first = distinct_tiles(state, b)
        for t in range(state[b + L.F_N_TILES]):
            if (first >> t) & 1 and is_empty_tile(state, b, t):
                n = _opt(state, n, O.encode_card(L.Q_QUEENS_GIFT, O.encode_gift(t)))
    return n


@njit(cache=True)
def list_relocation(state, rules, seat, n):
    """Relocation (DP-11): two tiles x < y that hold neither egg nor honey, shared out by a
    canonical split "gather colour c on x (or y)" of WD-F3 (``apply_gather``) that changes
    them (WD-Q5); an empty partner tile is offered once (the first one), as EMPTY tiles are
    alike."""
    b = seat_base(seat)
    if state[b + L.F_HAND + L.Q_RELOCATION] == 0:
        return n
    nt = state[b + L.F_N_TILES]
    for x in range(nt):
        if not holds_pollen(state, b, x) or tile_cubes(state, b, x) == 0:
            continue
        empty_seen = False
        for y in range(nt):
            if y == x or not holds_pollen(state, b, y):
                continue
            if tile_cubes(state, b, y) == 0:
                if empty_seen:
                    continue
                empty_seen = True
            elif y < x:
                continue                     # the pair was listed from y
            lo = min(x, y)
            hi = max(x, y)
            for c in range(L.N_COL):
                for side in range(2):
                    tx = lo if side == 0 else hi
                    ty = hi if side == 0 else lo
                    if (state[b + L.F_CUBES + lo * L.N_COL + c] + state[b + L.F_CUBES + hi * L.N_COL + c] > 0
                            and _gather_changes(state, rules, b, tx, ty, c)):
                        n = _opt(state, n, O.encode_card(L.Q_RELOCATION, O.encode_relocation(
                            lo, hi, O.encode_move(c, side))))
    return n


@njit(cache=True)
def list_scout(state, seat, n, head):
    """Scout (DP-03): while the deck holds a card (WD-Q5); codes after ``head``."""
    if (state[seat_base(seat) + L.F_HAND + L.Q_SCOUT] > 0
            and state[L.S_DECK_POS] < state[L.S_DECK_N]):
        n = _opt(state, n, head + O.encode_card(L.Q_SCOUT, 0))
    return n


@njit(cache=True)
def list_volunteer(state, seat, n, head):
    """Volunteer (DP-02): only while the volunteer die is in the supply (WD-Q5); codes after
    ``head``."""
    if state[seat_base(seat) + L.F_HAND + L.Q_VOLUNTEER] > 0 and state[L.S_VOLUNTEER] == 0:
        n = _opt(state, n, head + O.encode_card(L.Q_VOLUNTEER, 0))
    return n


@njit(cache=True)
def list_window_plays(state, rules, seat):
    """WD-Q1, WD-I13 (DP-01 .. DP-03, DP-09 .. DP-11): pass, or a card of the window's phase
    with its targets: DW0 Sick Day, Volunteer, Scout (WD-R3); DW-end Wrong Turn, Scout
    (WD-R9); NW_A .. NW_G Queen's Gift, Relocation (WD-R12). Only plays with an effect
    (WD-Q5). Returns the number of options (1: pass only). The own turn: ``list_turn``."""
    w = state[L.S_WINDOW]
    state[L.S_OPTIONS] = L.CARD_PASS
    n = 1
    if w == L.W_DW0:
        n = list_sick_day(state, seat, n)
        n = list_volunteer(state, seat, n, 0)
        n = list_scout(state, seat, n, 0)
    elif w == L.W_DW_END:
        n = list_wrong_turn(state, seat, n, 0)
        n = list_scout(state, seat, n, 0)
    else:
        n = list_queens_gift(state, seat, n)
        n = list_relocation(state, rules, seat, n)
    return n


# ---- the own placement turn (WD-R4, WD-Q1, WD-I13: DP-02 .. DP-09) ----------------------------
@njit(cache=True)
def list_turn(state, rules, seat):
    """WD-R4, WD-I13: the options of ``seat``'s placement turn: every placement (DP-04), then
    the cards of its hand that can apply (WD-Q5): Overtime, Command, Shift Change, Feint (they
    change the turn's placement), Wrong Turn, Scout, Volunteer (the turn goes on after them).
    With Overtime pending, only the placements of its die (it resolves with them, WD-Q2)."""
    only = state[L.S_TURN_VALUE]
    n = list_placements(state, rules, seat, only, 0)
    if only > 0:
        return n
    n = list_overtime(state, seat, n)
    n = list_command(state, seat, n)
    n = list_shift_change(state, seat, n)
    n = list_feint(state, rules, seat, n)
    n = list_wrong_turn(state, seat, n, O.encode_turn_card(0))
    n = list_scout(state, seat, n, O.encode_turn_card(0))
    return list_volunteer(state, seat, n, O.encode_turn_card(0))


@njit(cache=True)
def list_overtime(state, seat, n):
    """Overtime (DP-05): an unplaced die of value v set to a new value w != v (the same value
    would be an empty play, WD-Q5)."""
    b = seat_base(seat)
    if state[b + L.F_HAND + L.Q_OVERTIME] == 0:
        return n
    for v in range(L.N_VAL):
        if state[b + L.F_UNPLACED + v] > 0:
            for w in range(L.N_VAL):
                if w != v:
                    n = _opt(state, n, O.encode_turn_card(O.encode_card(L.Q_OVERTIME,
                                                                    O.encode_overtime(v, w))))
    return n


@njit(cache=True)
def list_command(state, seat, n):
    """Command (DP-06): an unplaced die of value v onto a flower f where the seat already has a
    die, f != v (on its own flower the die needs no card, WD-Q5)."""
    b = seat_base(seat)
    if state[b + L.F_HAND + L.Q_COMMAND] == 0:
        return n
    for v in range(L.N_VAL):
        if state[b + L.F_UNPLACED + v] == 0:
            continue
        for f in range(L.N_COL):
            if f != v and state[L.S_FLOWER + f * L.MAX_PLAYERS + seat] > 0:
                n = _opt(state, n, O.encode_turn_card(O.encode_card(L.Q_COMMAND,
                                                                    O.encode_command(v, f))))
    return n


@njit(cache=True)
def list_shift_change(state, seat, n):
    """Shift Change (DP-07): two placements this turn, while the seat holds a die for each
    placement due; or pass, only before the turn's first placement and while another player
    has unplaced dice (WD-I19)."""
    b = seat_base(seat)
    if state[b + L.F_HAND + L.Q_SHIFT_CHANGE] == 0:
        return n
    if unplaced_dice(state, b) > state[L.S_TURN_LEFT]:
        n = _opt(state, n, O.encode_turn_card(O.encode_card(L.Q_SHIFT_CHANGE, L.SHIFT_TWO)))
    if state[L.S_TURN_PLACED] == 0 and state[L.S_TURN_LEFT] == 1:
        for p in range(state[L.S_N_PLAYERS]):
            if p != seat and unplaced_dice(state, seat_base(p)) > 0:
                return _opt(state, n, O.encode_turn_card(O.encode_card(L.Q_SHIFT_CHANGE,
                                                                       L.SHIFT_PASS)))
    return n


@njit(cache=True)
def list_feint(state, rules, seat, n):
    """Feint (DP-08, WD-I20): one of the seat's placed dice (on a slot, a flower or a tile; a
    die on a flower by Command or Wrong Turn keeps its own value) to another legal destination
    for its value (WD-R6), instead of the turn's placement; only with an unplaced die."""
    b = seat_base(seat)
    if state[b + L.F_HAND + L.Q_FEINT] == 0 or unplaced_dice(state, b) == 0:
        return n
    first = distinct_tiles(state, b)
    for v in range(1, L.N_VAL + 1):
        for card in range(L.N_SLOTCARDS):
            if state[L.S_SLOT_OWNER + card * L.N_VAL + v - 1] == seat + 1:
                n = _feint_moves(state, rules, seat, v, card, n)
        for f in range(L.N_COL):
            if state[b + L.F_FVAL + f * L.N_VAL + v - 1] > 0:
                n = _feint_moves(state, rules, seat, v, L.FROM_FLOWER + f, n)
        for t in range(state[b + L.F_N_TILES]):
            if (first >> t) & 1 and state[b + L.F_TDICE + t * L.N_VAL + v - 1] > 0:
                n = _feint_moves(state, rules, seat, v, L.FROM_TILE + t, n)
    return n


@njit(cache=True)
def _feint_moves(state, rules, seat, v, src, n):
    """DP-08: the Feint options of the seat's die of value v at ``src`` (WD-R6 but ``src``)."""
    skip = open_tiles(state, rules, seat_base(seat),
                      src - L.FROM_TILE if src >= L.FROM_TILE else -1)
    head = O.encode_turn_card(O.encode_card(L.Q_FEINT, O.encode_feint(v, src, 0)))
    return list_destinations(state, seat, v, head, src, skip, n)


@njit(cache=True)
def feint(state, seat, a):
    """Feint (DP-08): the die leaves its spot (a slot becomes free) for the new destination;
    no die is placed this turn (WD-R7 exception). Returns (v, src, dest)."""
    v, src, dest = O.decode_feint(a)
    if src < L.FROM_FLOWER:
        state[L.S_SLOT_OWNER + src * L.N_VAL + v - 1] = 0
    elif src < L.FROM_TILE:
        take_from_flower(state, seat, src - L.FROM_FLOWER, v)
    else:
        b = seat_base(seat)
        state[b + L.F_TDICE + (src - L.FROM_TILE) * L.N_VAL + v - 1] -= 1
        rekey(state, b, src - L.FROM_TILE)
    put_die(state, seat, v, dest)
    return v, src, dest


@njit(cache=True)
def discard_card(state, seat, q):
    """WD-Q2/Q3: card ``q`` leaves the hand for the face-up discard pile."""
    state[seat_base(seat) + L.F_HAND + q] -= 1
    state[L.S_DISCARD] += 1
    state[L.S_QUEEN_PLAYED] += 1


@njit(cache=True)
def play_card(state, rules, seat, code, log):
    """WD-Q2: play the card of ``code`` (``options.encode_card``) on its target and resolve it
    completely, then discard it (WD-Q3). Sick Day: the die sits out the round; Volunteer: take the
    volunteer die, rolled at PH_VOLUNTEER (``wd_q2_volunteer_die``); Scout: draw, then keep
    (PH_KEEP); Wrong Turn: move the die to the other flower, its value ignored; Queen's Gift: a
    tile or an egg; Relocation: share the cubes of two tiles out. On the own turn (DP-05..DP-08):
    Overtime sets a die's value, which must be this turn's placement; Command puts a die on a
    flower of the seat's; Shift Change adds a placement or passes the turn; Feint moves a placed
    die instead of placing one."""
    q, a = O.decode_card(code)
    window = play_window(state)
    discard_card(state, seat, q)
    if q == L.Q_VOLUNTEER:
        state[L.S_VOLUNTEER] = seat + 1        # the die leaves the supply, then is rolled
        suspend(state, L.PH_VOLUNTEER)
        return
    r0 = 0
    r1 = 0
    r2 = 0
    if q == L.Q_SICK_DAY:
        r0, v = O.decode_sick_day(a)
        r1 = v + 1
        bp = seat_base(r0)
        state[bp + L.F_UNPLACED + r1 - 1] -= 1
        state[bp + L.F_SICK] += 1
    elif q == L.Q_SCOUT:
        r0 = scout(state, rules, seat)
    elif q == L.Q_WRONG_TURN:
        r0, r1, r2 = O.decode_wrong_turn(a)
        put_on_flower(state, r0, r2, take_from_flower(state, r0, r1, 0))
        r1 += 1
        r2 += 1
    elif q == L.Q_OVERTIME:
        v, w = O.decode_overtime(a)
        r0 = v + 1
        r1 = w + 1
        b = seat_base(seat)
        state[b + L.F_UNPLACED + r0 - 1] -= 1
        state[b + L.F_UNPLACED + r1 - 1] += 1
        state[L.S_TURN_VALUE] = r1
    elif q == L.Q_COMMAND:
        v, f = O.decode_command(a)
        r0 = v + 1
        r1 = f + 1
        state[seat_base(seat) + L.F_UNPLACED + r0 - 1] -= 1
        put_on_flower(state, seat, r1 - 1, r0)
        turn_used(state, seat)
    elif q == L.Q_SHIFT_CHANGE:
        r0 = a
        if a == L.SHIFT_TWO:
            state[L.S_TURN_LEFT] += 1
        else:
            end_turn(state)
    elif q == L.Q_FEINT:
        r0, r1, r2 = feint(state, seat, a)
        turn_used(state, seat)
    elif q == L.Q_QUEENS_GIFT:
        b = seat_base(seat)
        t = O.decode_gift(a)
        if t < 0:
            r0 = state[b + L.F_N_TILES]
            state[b + L.F_N_TILES] = r0 + 1
            rekey(state, b, r0)
            state[L.S_TILE_SUPPLY] -= 1
            r2 = state[L.S_TILE_SUPPLY]
        else:
            r0 = t
            r1 = 1
            state[b + L.F_EGG + r0] = 1
            rekey(state, b, r0)
            state[L.S_EGG_SUPPLY] -= 1
            r2 = state[L.S_EGG_SUPPLY]
    else:                                    # Q_RELOCATION
        r0, r1, r2 = O.decode_relocation(a)
        c, side = O.decode_move(r2)
        if side == 0:
            apply_gather(state, rules, seat_base(seat), r0, r1, c)
        else:
            apply_gather(state, rules, seat_base(seat), r1, r0, c)
    if log.shape[0] > 1:
        emit(log, L.EV_PLAY, seat, q, r0, r1, r2, window)


@njit(cache=True)
def play_window(state):
    """The window a card is played in (EV_PLAY): W_TURN on the own turn, else S_WINDOW."""
    return L.W_TURN if state[L.S_PHASE] == L.PH_PLACE else state[L.S_WINDOW]


@njit(cache=True)
def suspend(state, phase):
    """A card's resolution goes on at control position ``phase`` (a Scout's keep, the
    volunteer die's roll); the window or own turn it was played in (S_RESUME) follows."""
    state[L.S_RESUME] = state[L.S_PHASE]
    state[L.S_PHASE] = phase


@njit(cache=True)
def wd_q2_volunteer_die(state, v, log):
    """WD-Q2 (Volunteer, DP-02; WD-R3, WD-R16): the volunteer die of seat S_VOLUNTEER - 1 is
    rolled showing ``v`` and joins its unplaced dice for this round; the card's resolution is
    complete (EV_PLAY) and the window or own turn it was played in goes on."""
    seat = state[L.S_VOLUNTEER] - 1
    state[seat_base(seat) + L.F_UNPLACED + v - 1] += 1
    state[L.S_PHASE] = state[L.S_RESUME]
    if log.shape[0] > 1:
        emit(log, L.EV_PLAY, seat, L.Q_VOLUNTEER, v, 0, 0, play_window(state))


@njit(cache=True)
def scout(state, rules, seat):
    """Scout (DP-03): draw min(``scout_draw``, deck) cards; ``scout_keep`` of them are kept one
    by one at PH_KEEP, the rest go to the discard pile (WD-Q3). Returns the cards drawn."""
    k = min(int(rules[R.R_SCOUT_DRAW]), state[L.S_DECK_N] - state[L.S_DECK_POS])
    state[L.S_CTX_SEAT] = seat
    state[L.S_CTX_X] = state[L.S_DECK_POS]
    state[L.S_CTX_Y] = state[L.S_DECK_POS] + k
    state[L.S_CTX_LEFT] = min(int(rules[R.R_SCOUT_KEEP]), k)
    state[L.S_DECK_POS] += k
    suspend(state, L.PH_KEEP)
    return k


@njit(cache=True)
def list_keeps(state):
    """DP-03: the card types among the Scout draw not kept yet (each type listed once)."""
    n = 0
    for i in range(state[L.S_CTX_X], state[L.S_CTX_Y]):
        q = state[L.S_DECK + i]
        dup = False
        for j in range(state[L.S_CTX_X], i):
            if state[L.S_DECK + j] == q:
                dup = True
        if not dup:
            state[L.S_OPTIONS + n] = q
            n += 1
    return n


@njit(cache=True)
def keep_card(state, seat, q, log):
    """DP-03: keep one drawn card of type ``q``; once ``scout_keep`` are kept, the others go to
    the discard pile (WD-Q3) and the window (or the own turn) goes on."""
    x = state[L.S_CTX_X]
    for i in range(x, state[L.S_CTX_Y]):
        if state[L.S_DECK + i] == q:
            state[L.S_DECK + i] = state[L.S_DECK + x]
            state[L.S_DECK + x] = q
            break
    state[seat_base(seat) + L.F_HAND + q] += 1
    state[L.S_CTX_X] = x + 1
    state[L.S_CTX_LEFT] -= 1
    gone = 0
    if state[L.S_CTX_LEFT] == 0 or state[L.S_CTX_X] == state[L.S_CTX_Y]:
        gone = state[L.S_CTX_Y] - state[L.S_CTX_X]
        state[L.S_DISCARD] += gone
        state[L.S_PHASE] = state[L.S_RESUME]
    if log.shape[0] > 1:
        emit(log, L.EV_KEEP, seat, q, gone)


@njit(cache=True)
def list_harvests(state, seat):
    """WD-D6, WD-I18 (DP-15): pass, or Harvest on a flower from which the seat took >= 1 cube
    this night and whose colour is still in the supply (WD-Q5)."""
    b = seat_base(seat)
    state[L.S_OPTIONS] = L.CARD_PASS
    if state[b + L.F_HAND + L.Q_HARVEST] == 0:
        return 1
    n = 1
    for f in range(L.N_COL):
        if state[b + L.F_GAINED + f] > 0 and state[L.S_CUBE_SUPPLY + f] > 0:
            state[L.S_OPTIONS + n] = O.encode_card(L.Q_HARVEST, f)
            n += 1
    return n


@njit(cache=True)
def harvest(state, rules, seat, code, log):
    """WD-D6: one Harvest adds ``harvest_bonus`` cubes of flower f's colour (as far as the
    supply allows) to the cubes the seat gained this D; they are placed with them (WD-D7)."""
    _, f = O.decode_card(code)
    b = seat_base(seat)
    discard_card(state, seat, L.Q_HARVEST)
    got = min(int(rules[R.R_HARVEST_BONUS]), state[L.S_CUBE_SUPPLY + f])
    state[L.S_CUBE_SUPPLY + f] -= got
    state[b + L.F_GAINED + f] += got
    state[b + L.F_CUBES_GAINED] += got
    if log.shape[0] > 1:
        emit(log, L.EV_PLAY, seat, L.Q_HARVEST, f + 1, got, state[L.S_CUBE_SUPPLY + f], -1)


@njit(cache=True)
def list_expert_hatches(state, rules, seat):
    """DP-13, WD-I18: pass, or Expertise on an egg tile whose dice hold no equal pair but at
    least two dice (one hatch per card); only where a hatch can happen (WD-Q5, WD-B3)."""
    b = seat_base(seat)
    state[L.S_OPTIONS] = L.CARD_PASS
    if state[b + L.F_HAND + L.Q_EXPERTISE] == 0:
        return 1
    if state[b + L.F_PERSONAL] == 0 and int(rules[R.R_HATCH_WITHOUT_SUPPLY]) != R.RETURN_EGG:
        return 1
    n = 1
    for t in range(state[b + L.F_N_TILES]):
        if state[b + L.F_EGG + t] == 0 or state[b + L.F_EXPERT + t] == 1:
            continue
        dice = 0
        pair = False
        for v in range(L.N_VAL):
            dice += state[b + L.F_TDICE + t * L.N_VAL + v]
            pair = pair or state[b + L.F_TDICE + t * L.N_VAL + v] >= 2
        if dice >= 2 and not pair:
            n = _opt(state, n, O.encode_card(L.Q_EXPERTISE, t))
    return n


@njit(cache=True)
def expert_hatch(state, seat, code, log):
    """DP-13: Expertise makes egg tile ``t``'s unequal dice count as a pair at B (WD-Q3)."""
    _, t = O.decode_card(code)
    discard_card(state, seat, L.Q_EXPERTISE)
    state[seat_base(seat) + L.F_EXPERT + t] = 1
    if log.shape[0] > 1:
        emit(log, L.EV_PLAY, seat, L.Q_EXPERTISE, t, t, 0, -1)


@njit(cache=True)
def window_step(state, rules, kind):
    """One pass in turn order from S (the cursor) through a card window (``kind`` 0), Harvest
    at D (1) or Expertise at B (2): the next seat with a card it can play posts its decision;
    a seat with nothing to play is passed over. Returns the options, or 0 when the pass is
    over."""
    n_players = state[L.S_N_PLAYERS]
    while state[L.S_CURSOR] < n_players:
        seat = turn_seat(state, state[L.S_CURSOR])
        if kind == 1:
            n = list_harvests(state, seat)
        elif kind == 2:
            n = list_expert_hatches(state, rules, seat)
        else:
            n = list_window_plays(state, rules, seat)
        if n > 1:
            state[L.S_DECIDER] = seat
            return n
        state[L.S_CURSOR] += 1
    return 0


# ==== the step machine (sim.decide) ============================================================
@njit(cache=True)
def _step(state, rules, log, chance):
    """One step from the control position S_PHASE. Returns the number of options of the
    decision listed there (S_DECIDER set), 0 when the step moved on by itself, -1 at the end,
    ``PASSED - dp`` when it reached decision point ``dp`` of S_DECIDER with no legal option
    and played the rules' fallback: an egg die with no egg to take (D_EGG, WD-C3), a trade
    die with no possible trade (D_TRADE, WD-E5) and a gained cube with no tile to take it
    (D_GAIN, WD-E4). A die (WD-R2, WD-Q2) is drawn from the dice stream, or with ``chance``
    (tests and tools) listed as a chance point (D_ROLL: the faces) before it is rolled."""
    ph = state[L.S_PHASE]
    if ph == L.PH_DAY or ph == L.PH_ROLL:
        if ph == L.PH_DAY and not begin_round(state, rules, log):
            return -1
        return roll_pools(state, log, chance)
    elif ph == L.PH_PLACE:
        seat = next_placer(state)
        if seat < 0:
            open_window(state, L.W_DW_END)
            return 0
        state[L.S_DECIDER] = seat
        if state[L.S_TURN_LEFT] == 0:
            state[L.S_TURN_LEFT] = 1           # the seat's turn begins (WD-R4)
        return list_turn(state, rules, seat)
    elif ph == L.PH_WINDOW:
        n = window_step(state, rules, 0)
        if n == 0:
            close_window(state)
        return n
    elif ph == L.PH_KEEP:
        state[L.S_DECIDER] = state[L.S_CTX_SEAT]
        return list_keeps(state)
    elif ph == L.PH_NIGHT_A:
        build_hive(state, rules, log)
        open_window(state, L.W_NW + 1)
    elif ph == L.PH_B:
        n = window_step(state, rules, 2)
        if n > 0:
            return n
        hatch(state, rules, log)
        state[L.S_CTX_LEFT] = 0
        open_window(state, L.W_NW + 2)
    elif ph == L.PH_C:
        if state[L.S_CTX_LEFT] == 0:
            if next_slot_die(state, L.CARD_C) < 0:
                open_window(state, L.W_NW + 3)
                return 0
            state[L.S_CTX_LEFT] = int(rules[R.R_EGGS_PER_EGG_DIE])
        seat = state[L.S_CTX_SEAT]
        state[L.S_DECIDER] = seat
        n = list_eggs(state, seat)
        if n == 0:
            state[L.S_CTX_LEFT] = 0
        if state[L.S_CTX_LEFT] == 0 and n == 0:
            state[L.S_SLOT_OWNER + L.CARD_C * L.N_VAL + state[L.S_CTX_SLOT]] = 0
            if log.shape[0] > 1:
                emit(log, L.EV_EGG, seat, state[L.S_CTX_SLOT] + 1, -1, state[L.S_EGG_SUPPLY])
            return PASSED - L.D_EGG
        return n
    elif ph == L.PH_D:
        resolve_flowers(state, rules, log)
        state[L.S_CURSOR] = 0
        state[L.S_PHASE] = L.PH_HARVEST
    elif ph == L.PH_HARVEST:
        n = window_step(state, rules, 1)
        if n == 0:
            state[L.S_PHASE] = L.PH_D_PLACE
        return n
    elif ph == L.PH_D_PLACE:
        seat = next_cube_owner(state, rules, log)
        if seat < 0:
            open_window(state, L.W_NW + 4)
            return 0
        state[L.S_DECIDER] = seat
        return list_cube_places(state, rules, seat)
    elif ph == L.PH_E:
        seat = next_slot_die(state, L.CARD_E)
        if seat < 0:
            open_window(state, L.W_NW + 5)
            return 0
        state[L.S_DECIDER] = seat
        n = list_trades(state, rules, seat)
        if n == 0:
            if log.shape[0] > 1:
                emit(log, L.EV_TRADE, seat, state[L.S_CTX_SLOT] + 1, L.TR_SKIP)
            _end_trade(state)
            return PASSED - L.D_TRADE
        return n
    elif ph == L.PH_E_PAY:
        state[L.S_DECIDER] = state[L.S_CTX_SEAT]
        return list_payments(state, state[L.S_CTX_SEAT])
    elif ph == L.PH_E_GAIN:
        seat = state[L.S_CTX_SEAT]
        state[L.S_DECIDER] = seat
        if state[L.S_CTX_LEFT] == 0:
            _end_trade(state)
            return 0
        n = list_gain_tiles(state, rules, seat)
        if n == 0:
            gain_cube(state, seat, -1, log)
            return PASSED - L.D_GAIN
        return n
    elif ph == L.PH_F:
        for k in range(state[L.S_N_PLAYERS]):
            seat = turn_seat(state, k)
            if has_tile_dice(state, seat_base(seat)):
                state[L.S_DECIDER] = seat
                n = list_pairs(state, seat)
                if n == 0:
                    take_pair(state, seat, L.PAIR_DONE, log)
                return n
        open_window(state, L.W_NW + 6)
    elif ph == L.PH_F_MOVE:
        seat = state[L.S_CTX_SEAT]
        state[L.S_DECIDER] = seat
        return list_moves(state, rules, seat)
    elif ph == L.PH_F_FLIP:
        seat = state[L.S_CTX_SEAT]
        state[L.S_DECIDER] = seat
        n = list_flips(state, rules, seat)
        if n == 0:
            state[L.S_PHASE] = L.PH_F
        return n
    elif ph == L.PH_G:
        draw_queen_cards(state, rules, log)
        end_of_round(state, rules, log)
        if state[L.S_ENDED]:
            return -1
    elif ph == L.PH_VOLUNTEER:
        if chance:
            state[L.S_DECIDER] = state[L.S_VOLUNTEER] - 1
            return list_faces(state)
        wd_q2_volunteer_die(state, roll_die(state), log)
    else:
        return -1
    return 0


@njit(cache=True)
def _apply(state, rules, seat, code, log):
    """Carry out option ``code`` of the decision at the current control position."""
    ph = state[L.S_PHASE]
    if ph == L.PH_PLACE:
        if code < L.TURN_CARD:
            place_die(state, seat, code, log)
        else:
            play_card(state, rules, seat, O.decode_turn_card(code), log)
    elif ph == L.PH_WINDOW or ph == L.PH_HARVEST or ph == L.PH_B:
        if code == L.CARD_PASS:
            state[L.S_CURSOR] += 1
        elif ph == L.PH_HARVEST:
            harvest(state, rules, seat, code, log)
        elif ph == L.PH_B:
            expert_hatch(state, seat, code, log)
        else:
            play_card(state, rules, seat, code, log)
    elif ph == L.PH_KEEP:
        keep_card(state, seat, code, log)
    elif ph == L.PH_C:
        take_egg(state, seat, code, log)
        if state[L.S_CTX_LEFT] == 0:
            state[L.S_SLOT_OWNER + L.CARD_C * L.N_VAL + state[L.S_CTX_SLOT]] = 0
    elif ph == L.PH_D_PLACE:
        place_cubes(state, rules, seat, code, log)
    elif ph == L.PH_E:
        start_trade(state, rules, seat, code, log)
    elif ph == L.PH_E_PAY:
        pay_item(state, rules, seat, code, log)
    elif ph == L.PH_E_GAIN:
        gain_cube(state, seat, code, log)
    elif ph == L.PH_F:
        take_pair(state, seat, code, log)
    elif ph == L.PH_F_MOVE:
        move_pollen(state, rules, seat, code, log)
    elif ph == L.PH_F_FLIP:
        flip_tile(state, rules, seat, code, log)
    elif ph == L.PH_ROLL:                      # a chance point (D_ROLL): the die shows ``code``
        wd_r2_pool_die(state, seat_base(seat), O.decode_face(code))
        state[L.S_ROLLED] += 1
    elif ph == L.PH_VOLUNTEER:
        wd_q2_volunteer_die(state, O.decode_face(code), log)


@njit(cache=True)
def decision_point(phase):
    """The decision point D_* posted at control position ``phase``."""
    if phase == L.PH_PLACE:
        return L.D_PLACE
    if phase == L.PH_WINDOW:
        return L.D_CARD
    if phase == L.PH_KEEP:
        return L.D_KEEP
    if phase == L.PH_HARVEST:
        return L.D_HARVEST
    if phase == L.PH_B:
        return L.D_HATCH
    if phase == L.PH_C:
        return L.D_EGG
    if phase == L.PH_D_PLACE:
        return L.D_CUBE
    if phase == L.PH_E:
        return L.D_TRADE
    if phase == L.PH_E_PAY:
        return L.D_PAY
    if phase == L.PH_E_GAIN:
        return L.D_GAIN
    if phase == L.PH_F:
        return L.D_PAIR
    if phase == L.PH_F_MOVE:
        return L.D_MOVE
    if phase == L.PH_F_FLIP:
        return L.D_FLIP
    return L.D_ROLL                            # PH_ROLL, PH_VOLUNTEER: a chance point


@njit(cache=True)
def _post(state, seat, dp, n):
    """Post decision ``dp`` of ``seat`` with ``n`` listed options; returns 1."""
    state[L.S_POINT] = dp
    state[L.S_DECIDER] = seat
    state[L.S_N_OPTIONS] = n
    return 1


@njit(cache=True)
def _steps(state, rules, log, self_play, chance=False):
    """The step machine from the control position S_PHASE (``_step`` by ``_step``): play the
    forced steps up to the next decision, post it and return 1; 0 once the game is over.
    With ``chance`` (tests and tools only) each die about to be rolled is posted too, as a
    chance point (D_ROLL, ``_step``).
    The production loops leave ``chance`` out: compiled with its default (False) as a
    constant, their roll loops carry no test for it (``sim.decide``).

    With ``self_play`` (the game loop, ``playout``) a decision with a single option is taken
    at once and only those with two or more are posted. Without it every decision is posted,
    whatever its number of options (one: a forced decision, which ``advance`` takes with
    option 0), and so is a decision point ``_step`` reached with no legal option (posted with
    n = 0 once the rules' fallback is played, so the caller only passes it; ``PASSED``).
    ``sim.tracing`` counts them (``advance_all``)."""
    while True:
        if state[L.S_PHASE] == L.PH_OVER:
            return 0
        n = _step(state, rules, log, chance)
        if n < 0:
            if n == -1:
                _game_over(state, rules, log)
                return 0
            if not self_play:
                return _post(state, state[L.S_DECIDER], PASSED - n, 0)
            continue
        if n >= 2 or (n == 1 and not self_play):
            return _post(state, state[L.S_DECIDER], decision_point(state[L.S_PHASE]), n)
        if n == 1:
            _apply(state, rules, state[L.S_DECIDER], state[L.S_OPTIONS], log)


@njit(cache=True)
def _self_play_step(state, rules, log):
    """The game loop's ``advance`` (``playout``): the next decision with two or more options,
    the single ones taken at once; with a decision pending: 1."""
    if state[L.S_POINT] != 0:
        return 1
    return _steps(state, rules, log, True)


@njit(cache=True)
def advance(state, rules, comp, log):
    """Play the forced steps up to the next decision with two or more legal options (listed
    in the options block) and return 1; 0 once the game is over (``sim.decide``). A decision
    with one legal option is taken here (option 0), one with none passed. With a decision
    pending: 1, nothing changes. Dice are drawn from the dice stream."""
    return advance_chance(state, rules, comp, log, False)


@njit(cache=True)
def advance_chance(state, rules, comp, log, chance):
    """``advance``, and with ``chance`` (tests and tools) it stops at each die about to be
    rolled too (WD-R2, WD-Q2): a chance point D_ROLL of the rolling seat whose options are the
    faces (``options.encode_face``); ``apply_option`` of face code x rolls the die showing x.
    Without ``chance``: ``advance``."""
    while True:
        if state[L.S_POINT] != 0:
            n = state[L.S_N_OPTIONS]
            if n >= 2:
                return 1
            if n == 1:
                apply_option(state, rules, comp, np.int64(0), log)
            else:
                state[L.S_POINT] = 0
        if not _steps(state, rules, log, False, chance):
            return 0


@njit(cache=True)
def advance_all(state, rules, comp, log):
    """``advance`` that stops at every decision the rules pose (``sim.decide``): 1 with it
    posted, whatever its number of options n; n = 0 (no legal option, the rules' fallback
    played): the next call passes it and goes on; 0 once the game is over."""
    if state[L.S_POINT] != 0:
        if state[L.S_N_OPTIONS] > 0:
            return 1
        state[L.S_POINT] = 0
    return _steps(state, rules, log, False, False)   # as advance's: one compiled loop for both


@njit(cache=True)
def apply_option(state, rules, comp, index, log):
    """Carry out option ``index`` of the pending decision (``sim.decide``); False (and no
    change) when no decision is pending or ``index`` is out of range."""
    if state[L.S_POINT] == 0 or index < 0 or index >= state[L.S_N_OPTIONS]:
        return False
    state[L.S_POINT] = 0
    n = state[L.S_N_OPTIONS]
    state[L.S_N_OPTIONS] = 0
    _apply(state, rules, state[L.S_DECIDER], state[L.S_OPTIONS + index], log)
    return n > 0


@njit(cache=True)
def choose(state, rules, comp, kinds, pparams, work):
    """The deciding seat's policy: an index into the pending options (``sim.decide``).
    K_RANDOM: uniform (SUB_POLICY stream in the state); K_GREEDY and its presets:
    ``policies.greedy``. ``work = (scr,)``: ``scr`` is float64[SCR_LEN], greedy's placement
    cache (a seat's hive values are checked against the hive they were worked out for, so a
    copy of the game may share it)."""
    seat = state[L.S_DECIDER]
    if kinds[seat] == L.K_GREEDY:
        return greedy(state, rules, pparams, seat, state[L.S_POINT], state[L.S_N_OPTIONS], work[0])
    return random_index(state, L.S_RNG_P, state[L.S_N_OPTIONS])


# ==== results and entry points ===================================================================
@njit(cache=True)
def finish(state, rules, comp, games_row, seats_rows):
    """Fill the output row and the seat rows of a finished game through their declared
    indices (``GO_*``, ``SO_*``)."""
    n = state[L.S_N_PLAYERS]
    nw, ws = winners(state, rules)
    games_row[L.GO_ROUNDS] = state[L.S_ROUND]
    games_row[L.GO_TRUNCATED] = state[L.S_TRUNCATED]
    games_row[L.GO_N_WINNERS] = nw
    games_row[L.GO_WINNER_SEAT] = ws
    games_row[L.GO_END_REASON] = 1 if state[L.S_TRUNCATED] else 0   # SPEC.end_reasons
    games_row[L.GO_END_TRIGGER] = state[L.S_END_TRIGGER]
    games_row[L.GO_START_CHAIR] = state[L.S_START_CHAIR]
    games_row[L.GO_QUEEN_PLAYED] = state[L.S_QUEEN_PLAYED]
    drawn = 0
    for p in range(n):
        drawn += state[seat_base(p) + L.F_DRAWN]
    games_row[L.GO_QUEEN_DRAWN] = drawn
    games_row[L.GO_DECK_LEFT] = state[L.S_DECK_N] - state[L.S_DECK_POS]
    games_row[L.GO_TILES_LEFT] = state[L.S_TILE_SUPPLY]
    games_row[L.GO_EGGS_LEFT] = state[L.S_EGG_SUPPLY]
    for p in range(n):
        b = seat_base(p)
        row = seats_rows[p]
        rank = final_rank(state, rules, p)
        held = 0
        for q in range(L.N_QUEEN):
            held += state[b + L.F_HAND + q]
        row[L.SO_SCORE] = final_score(state, rules, p)
        row[L.SO_RANK] = rank
        row[L.SO_WON] = 1 if rank == 1 else 0
        row[L.SO_HONEY] = state[b + L.F_HONEY]
        row[L.SO_CUBES] = hive_cubes(state, b)
        row[L.SO_POOL] = state[b + L.F_POOL]
        row[L.SO_HIVE_TILES] = state[b + L.F_N_TILES]
        row[L.SO_EGGS_HATCHED] = state[b + L.F_EGGS_HATCHED]
        row[L.SO_EGGS_TAKEN] = state[b + L.F_EGGS_TAKEN]
        row[L.SO_MAJORITIES_WON] = state[b + L.F_MAJORITIES]
        row[L.SO_CUBES_GAINED] = state[b + L.F_CUBES_GAINED]
        row[L.SO_CUBES_LOST] = state[b + L.F_CUBES_LOST]
        row[L.SO_TRADES] = state[b + L.F_TRADES]
        row[L.SO_BUILDS] = state[b + L.F_BUILDS]
        row[L.SO_CARDS_DRAWN] = state[b + L.F_DRAWN]
        row[L.SO_CARDS_HELD] = held


@njit(cache=True)
def _begin(rules, comp, n_players, master_seed, game_index, state, log):
    """Set game ``game_index`` of the run ``master_seed`` up in the caller's ``state`` (its
    streams included); nothing decided yet."""
    rng_s = make_stream(master_seed, game_index, np.int64(SUB_SETUP))
    setup_game(state, rules, comp, n_players, rng_s, log)
    start_in(state, L.S_RNG_D, master_seed, game_index, np.int64(SUB_DICE))
    start_in(state, L.S_RNG_P, master_seed, game_index, np.int64(SUB_POLICY))


@njit(cache=True)
def new_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, log):
    """A new game set up for stepping (``sim.decide``): ``(state, work)``; ``work = (scr,)``,
    greedy's scratch (``choose``)."""
    state = np.zeros(state_size(n_players), dtype=np.int64)
    _begin(rules, comp, n_players, master_seed, game_index, state, log)
    return state, (np.zeros(L.SCR_LEN, dtype=np.float64),)


@njit(cache=True)
def _play(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, scr,
          games_row, seats_rows, log):
    """Set up and play one game in the caller's ``state`` (and greedy's scratch ``scr``,
    float64[SCR_LEN]) and write its result rows, on borrowed views of the arguments
    (``sim.borrow``)."""
    _play_game(borrowed(rules), borrowed(comp), n_players, borrowed(kinds), borrowed(pparams),
               master_seed, game_index, borrowed(state), borrowed(scr), borrowed(games_row),
               borrowed(seats_rows), borrowed(log))


@njit(cache=True)
def _play_game(rules, comp, n_players, kinds, pparams, master_seed, game_index, state, scr,
               games_row, seats_rows, log):
    """The body of ``_play``: the loop of ``sim.decide``, ``while advance: apply_option(choose)``."""
    _begin(rules, comp, n_players, master_seed, game_index, state, log)
    playout(state, rules, comp, kinds, pparams, (scr,), log)
    finish(state, rules, comp, games_row, seats_rows)


@njit(cache=True)
def playout(state, rules, comp, kinds, pparams, work, log):
    """Play on from the current position to the end with the seats' policies, ``while
    advance: apply_option(choose)``: the game loop, and a search policy's rollouts
    (``sim.search``; ``work`` as ``new_game`` makes it, unused by the policies)."""
    while _self_play_step(state, rules, log):
        apply_option(state, rules, comp, choose(state, rules, comp, kinds, pparams, work), log)


@njit(cache=True)
def resample(state, rules, comp, seat, key):
    """Re-sample what ``seat`` cannot know, for a search policy's rollout (``sim.search``).

    - The dice not yet rolled (WD-R2, the volunteer die) and the random seats' draws: the dice
      and policy streams restart from ``key`` (the search's stream).
    - The queen cards ``seat`` has not seen: the deck (WD-S2, face down) and the other
      players' hands are pooled, shuffled on a stream of ``key`` and dealt back in the same
      numbers (on the policy stream): every hand keeps its size, the deck its length. No array
      is allocated (the scratch is ``S_UNSEEN``). ``seat``'s own hand, the cards a
      Scout of ``seat`` is choosing from (drawn, below the deck position) and the face-up
      discard pile (WD-Q3) stay.

    Everything else is open: the board, hives, supplies, blocking markers and placed dice.
    """
    substream_in(state, L.S_RNG_D, key, SUB_DICE)
    substream_in(state, L.S_RNG_P, key, SUB_POLICY)
    n = state[L.S_N_PLAYERS]
    lo, hi = state[L.S_DECK_POS], state[L.S_DECK_N]
    k = 0  # the unseen cards in S_UNSEEN, by type: their order in the state cannot leak
    for q in range(L.N_QUEEN):
        for i in range(lo, hi):
            if state[L.S_DECK + i] == q:
                state[L.S_UNSEEN + k] = q
                k += 1
        for s in range(n):
            if s != seat:
                for _ in range(state[seat_base(s) + L.F_HAND + q]):
                    state[L.S_UNSEEN + k] = q
                    k += 1
    shuffle_in(state, L.S_RNG_P, state[L.S_UNSEEN:L.S_UNSEEN + k])
    k = 0
    for s in range(n):
        if s != seat:
            held = 0
            for q in range(L.N_QUEEN):
                held += state[seat_base(s) + L.F_HAND + q]
                state[seat_base(s) + L.F_HAND + q] = 0
            for _ in range(held):
                state[seat_base(s) + L.F_HAND + state[L.S_UNSEEN + k]] += 1
                k += 1
    for i in range(lo, hi):
        state[L.S_DECK + i] = state[L.S_UNSEEN + k]
        k += 1


@njit(cache=True)
def play_one(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index,
             games_row, seats_rows, log):
    """Play game ``game_index`` of the run ``master_seed`` with an event log (replay).

    Parameters
    ----------
    rules : float64[R_LEN]
    comp : tuple of component arrays (rules.load_components)
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
    scr = np.zeros(L.SCR_LEN, dtype=np.float64)
    _play(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index, state,
          scr, games_row, seats_rows, log)


@njit(cache=True, nogil=True)
def play_many(rules, comp, n_players, policy_kind, policy_params, master_seed, first_index,
              games_out, seats_out):
    """Play games ``first_index + i`` for i < games_out.shape[0]; each writes only its row.

    Serial and ``nogil`` (``sim.threads`` plays slices of the rows on threads). Games run in
    blocks of BLOCK_GAMES; each block reuses its
    state. A game is a pure function of (seed, index): results do not depend on the blocks or
    the threads.
    """
    n_games = games_out.shape[0]
    n_blocks = (n_games + BLOCK_GAMES - 1) // BLOCK_GAMES
    for blk in range(n_blocks):
        state = np.zeros(state_size(n_players), dtype=np.int64)
        scr = np.zeros(L.SCR_LEN, dtype=np.float64)
        grow = np.zeros(games_out.shape[1], dtype=np.int64)
        srows = np.zeros((n_players, seats_out.shape[2]), dtype=np.int64)
        log = np.zeros((1, 8), dtype=np.int64)
        lo = blk * BLOCK_GAMES
        hi = min(lo + BLOCK_GAMES, n_games)
        for i in range(lo, hi):
            _play(rules, comp, n_players, policy_kind, policy_params, master_seed,
                  first_index + i, state, scr, grow, srows, log)
            for j in range(grow.shape[0]):
                games_out[i, j] = grow[j]
            for p in range(n_players):
                for j in range(srows.shape[1]):
                    seats_out[i, p, j] = srows[p, j]
