"""Declared layouts of The Little Flower Shop Dice Game: limits, codes, output columns and the
blocks of every array the kernel and the policies address.

Declarations only (no Numba, nothing imported from this folder): every offset is derived at
import by :class:`sim.layout.Block` from one ``(name, size, meaning)`` list and exported as a
module attribute by the ``exports`` line at the end; the other modules read ``L.S_DAY``,
``L.F_MONEY``, ``L.SCR_LINES``, ``L.GO_LOSS_DAY``, ... (``from . import layout as L``), which
Numba freezes into the compiled code. ``playtest layout flower_shop`` prints the tables. Rule and policy
parameter offsets (``R_*``, ``P_*``) are derived from the ``ParamSpec`` tables in ``rules.py``.
"""
from sim.decide import option_fields
from sim.layout import Block, columns_block, exports
from sim.spec import GAME_COMMON, SEAT_COMMON, Column

# ---- limits of the fixed layouts (checked on load / validate) ---------------------------
MAX_PLAYERS = 4
MAX_TILES = 64            # tiles in the tile set
MAX_CARDS = 16            # task cards in the card set
MAX_CARDS_IN_PLAY = 2     # task cards in one game (FS-S5, FS-SOLO-S4)
MAX_ROW = 8               # tiles in the row of available tiles
MAX_SAL = 6               # salary cards in the salary area (solo_salary has 6 entries)
MAX_SHOP_ROWS = 3         # shop grid (§2.6)
MAX_SHOP_COLS = 4
MAX_SLOTS = MAX_SHOP_ROWS * MAX_SHOP_COLS
MAX_LINES = MAX_SHOP_ROWS + MAX_SHOP_COLS         # rows + columns of the shop grid
MAX_LINE_LEN = max(MAX_SHOP_ROWS, MAX_SHOP_COLS)  # slots of the longest line
MAX_FLOWER_DICE = 6
MAX_VASE_DICE = 2
MAX_FACES = 12            # faces of a flower or vase die
MAX_FLOWER_TYPES = 8
MAX_ICONS_PER_TYPE = 15   # the packed form (TL_NEED8) keeps a guard bit above 4 bits per type
LIST_SLOTS = 4            # padded length of the extra-lock schedule (ParamSpec list length)
SALARY_SLOTS = 4          # padded length of the multiplayer salary lists (ParamSpec list length)
MAX_CYCLES_PER_DAY = 200  # safety guard of a day (FS-D8)
MAX_STEP4_ACTIONS = 100   # safety guard of one Step 4

# Die index of a player's dice: flower dice 0..5, vase dice 6..7, initiative die 8.
DIE_VASE0 = MAX_FLOWER_DICE
DIE_INIT = DIE_VASE0 + MAX_VASE_DICE
MAX_DICE = DIE_INIT + 1
DIE_IDS = ("I-A", "I-B", "I-C", "I-D")  # initiative dice, die id = index

# Work area of the solo feasibility check (solo.work_len for the largest grid and pool).
WORK_MAX = 4 * 2 + (4 * MAX_SLOTS + 5) + (6 * MAX_TILES + 2)

# ---- codes ------------------------------------------------------------------------------
K_RANDOM = 0   # policy kinds (rules.POLICIES)
K_GREEDY = 1

END_REASONS = ("completed", "solo_infeasible", "truncated")  # SPEC.end_reasons
END_COMPLETED, END_SOLO_INFEASIBLE, END_TRUNCATED = range(len(END_REASONS))

# Decision points (sim.decide: S_POINT of the pending decision) and their option codes
# (options.py encodes and decodes them).
D_LOCK = 1      # DP-1: the dice mask to lock (0 = lock none, pay the skip cost)
D_TILE = 2      # DP-2: a row tile and an empty shop slot (options.encode_tile)
D_STEP4 = 3     # DP-3/5/6/8: a Step-4 action A_* and its argument (options.encode_step4)
D_RIBBON = 4    # DP-4: 1 buy a ribbon for the tile just finished, 0 not
D_REFRESH = 5   # DP-7 (solo, between days): 1 pay for a new row, 0 keep it
DECISION_POINTS = {D_LOCK: "DP-1 lock", D_TILE: "DP-2 tile and slot",
                   D_STEP4: "DP-3/5/6/8 Step-4 action", D_RIBBON: "DP-4 ribbon",
                   D_REFRESH: "DP-7 solo refresh"}
# The most options of one decision: every subset of a player's dice (DP-1).
MAX_OPTS = 1 << 9

# Control positions of the step machine (S_PHASE): where play goes on.
PH_DAY = 0        # start of a day (FS-D2)
PH_CYCLE = 1      # Phase 1: roll, opponent roll, turn order (FS-D3..D5)
PH_LOCK = 2       # Step 1 of the player at S_TURN in the turn order (DP-1)
PH_TILE = 3       # Step 3 of that player (DP-2)
PH_STEP4 = 4      # Step 4 of that player (DP-3/5/6/8)
PH_RIBBON = 5     # ribbons on the tile just finished (DP-4)
PH_DAY_END = 6    # end of the day (FS-N*, FS-SOLO-C1)
PH_REFRESH = 7    # solo refreshes before the next day (DP-7)
PH_END = 8        # final scoring (FS-E*)
PH_OVER = 9       # the game is over

# Step-4 actions (A_DONE ends Step 4); options.encode_step4 packs them with their argument.
A_DONE = 0
A_FINISH = 1       # argument: shop slot
A_TAKE_TOKEN = 2   # argument: bitmask of dice
A_TAKE_MONEY = 3   # argument: die index
A_BUY_TOKEN = 4    # argument: 0

# Task-card condition codes (§2.8): the index in CONDITIONS.
CONDITIONS = (
    "SUM_FLOWERS_EQ", "SUM_FLOWERS_GE", "SUM_FLOWERS_LE", "SUM_STARS_GE",
    "SAME_KNICK", "DIFF_KNICK", "SAME_VASE", "DIFF_VASE",
    "SAME_FLOWER_COUNT", "DIFF_FLOWER_COUNT", "SHARE_FLOWER_TYPE",
)
CONDITIONS_WITH_PARAM = ("SUM_FLOWERS_EQ", "SUM_FLOWERS_GE", "SUM_FLOWERS_LE", "SUM_STARS_GE")

# Modes of the solo feasibility check (choices of rules' solo_feasibility_mode, FS-SOLO-C4).
FEASIBILITY_MODES = ("off", "complete_lines", "lines", "full")
MODE_OFF, MODE_COMPLETE_LINES, MODE_LINES, MODE_FULL = range(len(FEASIBILITY_MODES))

# Events: code, a0..a6 (rendered by replay.format_event).
EV_SETUP = 1          # n_players, n_tiles, stack_n, first card, second card (-1), opp die (-1)
EV_INIT_DIE = 2       # seat, die id
EV_DAY = 3            # day
EV_ROW_DEAL = 4       # position, tile id
EV_ROLL = 5           # seat, flower faces (4 bits each, face+1), vase faces (4 bits, colour+1),
                      #   initiative face, locked mask before the roll
EV_OPP_ROLL = 6       # o, p, outcome (0 lower, 1 higher, 2 tie), salary card removed (-1 none),
                      #   tile discarded (-1 none), discarded position
EV_TURN_ORDER = 7     # count, seats packed 4 bits each (first in the low bits)
EV_LOCK = 8           # seat, mask locked (0 = skip), k, cost, money after, locked mask after
EV_SALARY = 9         # seat, value (-1 = none left), money after
EV_TAKE_TILE = 10     # seat, row position, tile id, slot
EV_FINISH = 11        # seat, slot, tile id, dice mask used, tokens used, tokens after
EV_RIBBON = 12        # seat, slot, tile id, money after
EV_TAKE_MONEY = 13    # seat, die index, face, money after
EV_TAKE_TOKEN = 14    # seat, dice mask, tokens after
EV_BUY_TOKEN = 15     # seat, money after, tokens after
EV_STEP4_DONE = 16    # seat, dice wasted, money, tokens
EV_ROW_DISCARD = 17   # tile id, reason (0 end of day, 1 refresh)
EV_REFRESH = 18       # seat, cost, money after
EV_FEASIBLE = 19      # day, result (1 pass, 0 fail), mode, pool size
EV_REMOVE_UNFINISHED = 20  # seat, slot, tile id
EV_SCORE = 21         # seat, stars, ribbons, task points, score, rank, task lines
EV_SOLO_RESULT = 22   # won, loss day
EV_TRUNCATED = 23     # day
EV_NO_TILE = 24       # seat (row empty, FS-T4)
EV_RESHUFFLE = 25     # tiles reshuffled into the stack

# ---- component arrays (built by rules.load_components) ----------------------------------
TILE = Block("TL_", (
    ("icons", MAX_FLOWER_TYPES, "specific flower icons of flower type 0..7 (unused types are 0)"),
    ("any", 1, "fuchsia 'any flower' icons"),
    ("vase", 1, "vase colour index"),
    ("knick", 1, "knickknack index"),
    ("stars", 1, "printed stars"),
    ("flowers", 1, "derived: total flower icons (specific + fuchsia)"),
    ("need8", 1, "derived: the specific icons packed 8 bits per flower type (type f in bits "
                 "8f..8f+7), for the count form of the finish rule (tokens_needed)"),
    ("specific", 1, "derived: specific flower icons in all"),
    ("types", 1, "derived: the flower types with specific icons, ascending, as 4-bit codes f + 1 "
                 "(first type in the low bits; 0 ends the list)"),
), title="tiles: int64[n_tiles, TL_W] (derived columns by tasks.derive_tile_columns)")
TL_W = TILE.length

TASK = Block("TK_", (
    ("row_cond", 1, "row condition (C_*)"),
    ("row_param", 1, "row parameter"),
    ("row_points", 1, "points per satisfied row, -1 = the rule default"),
    ("col_cond", 1, "column condition (C_*)"),
    ("col_param", 1, "column parameter"),
    ("col_points", 1, "points per satisfied column, -1 = the rule default"),
), title="tasks: int64[n_cards, TK_W]")
TK_W = TASK.length

# ---- game state: one flat int64 array, S_LEN + n_players * SEAT_LEN ---------------------
STATE = Block("S_", (
    ("day", 1, "current day, 1..days (FS-S8, FS-N6)"),
    ("n_players", 1, "number of players"),
    ("row_n", 1, "tiles in the row of available tiles"),
    ("row", MAX_ROW, "tile ids of the row, left to right"),
    ("stack_pos", 1, "index of the top tile of the draw stack in S_STACK"),
    ("stack_n", 1, "tiles in S_STACK (drawn or not)"),
    ("sal_n", 1, "salary cards in the salary area"),
    ("sal", MAX_SAL, "salary card values, ascending"),
    ("n_cards", 1, "task cards in play"),
    ("cards", MAX_CARDS_IN_PLAY, "task card ids (-1 = none)"),
    ("ribbon_supply", 1, "ribbons left in the supply"),
    ("token_supply", 1, "wild tokens left in the supply"),
    ("opp_die", 1, "solo opponent die id (0..3, -1 in multiplayer)"),
    ("opp_face", 1, "last opponent roll o (solo)"),
    ("refreshes_today", 1, "solo refreshes bought since the last deal"),
    ("refreshes", 1, "solo refreshes in the game"),
    ("loss_day", 1, "solo: day of loss, 0 while playing (days + 1 = reached the end)"),
    ("end_reason", 1, "index into SPEC.end_reasons (END_*)"),
    ("cycles", 1, "Phase 1/2 cycles today (safety guard, FS-D8)"),
    ("discard_n", 1, "tiles in the discard pile"),
    ("opp_discards", 1, "solo: tiles discarded by opponent rolls"),
    ("rounds", 1, "days completed"),
    ("truncated", 1, "1 if the safety guard stopped the game"),
    ("opp_lower", 1, "solo: opponent rolls resolved as lower"),
    ("stack", MAX_TILES, "draw stack (tile ids; top = S_STACK_POS)"),
    ("discard", MAX_TILES, "discarded tiles"),
    ("won", 1, "solo: 1 if the game was won (set at the end)"),
    # control position of the step machine (sim.decide)
    ("phase", 1, "where play goes on (PH_*)"),
    ("order_n", 1, "players in this Phase 2's turn order"),
    ("order", MAX_PLAYERS, "this Phase 2's turn order (seats), fixed for the phase (FS-D4)"),
    ("turn", 1, "index in S_ORDER of the player whose turn it is"),
    ("actions", 1, "Step-4 actions taken in this turn (safety guard MAX_STEP4_ACTIONS)"),
    ("fin_slot", 1, "slot of the tile just finished (DP-4)"),
    ("roll", MAX_DICE, "work: the faces drawn for one seat in Phase 1"),
    # random streams (sim.rng int64 bits): setup, dice, the dice base key, policy
    ("rng_setup", 1, "setup stream (shuffles, deals)"),
    ("rng_dice", 1, "dice stream, keyed by (day, cycle) from S_DICE_BASE"),
    ("dice_base", 1, "start of the dice stream"),
    ("rng_policy", 1, "policy stream (the random policy)"),
) , title="state: global block")
S_LEN = STATE.end
SEAT0 = STATE.end

SEAT = Block("F_", (
    ("money", 1, "money"),
    ("tokens", 1, "wild tokens held"),
    ("ribbons", 1, "ribbons bought"),
    ("init_die", 1, "initiative die id (0..3 = I-A..I-D)"),
    ("locked", 1, "bitmask of locked dice (die index)"),
    ("used", 1, "bitmask of dice used in Step 4 today"),
    ("active", 1, "1 while the player has not finished Step 4 today (FS-D2)"),
    ("skips_today", 1, "paid skips today"),
    ("extras_today", 1, "extra (paid) locks today (scope `day`)"),
    ("buys_today", 1, "tokens bought today"),
    ("salary_total", 1, "salary earned"),
    ("lock_paid", 1, "money paid for extra locks and skips"),
    ("skips", 1, "skips in the game"),
    ("tokens_taken", 1, "tokens taken with dice"),
    ("tokens_bought", 1, "tokens bought"),
    ("tokens_spent", 1, "tokens spent on finishes"),
    ("money_taken", 1, "money taken with dice"),
    ("dice_wasted", 1, "dice left unused at the end of Step 4"),
    ("lock_steps", 1, "Step 1 decisions"),
    ("tiles_placed", 1, "tiles placed"),
    ("tiles_finished", 1, "tiles finished"),
    ("score", 1, "final score (FS-E2)"),
    ("stars", 1, "stars of finished tiles"),
    ("task_pts", 1, "task points"),
    ("task_lines", 1, "task lines met (all cards)"),
    ("rank", 1, "final rank (1 = best)"),
    ("slot_today", 1, "slot of the tile taken today, -1 if none"),
    ("face", MAX_DICE, "die faces by die index: flower dice a flower type (-1 = any face), vase "
                       "dice a colour index, the initiative die its number"),
    ("shop", MAX_SLOTS, "tile id per shop slot, -1 = empty (slot = row * cols + col)"),
    ("fin", MAX_SLOTS, "1 if the slot's tile is finished"),
    ("rib", MAX_SLOTS, "ribbons on the slot's tile"),
    ("pday", MAX_SLOTS, "day the slot's tile was placed"),
    ("fday", MAX_SLOTS, "day the slot's tile was finished (0 = not)"),
), title="state: seat block at SEAT0 + seat * SEAT_LEN")
SEAT_LEN = SEAT.length

# The large, rarely touched areas come after the seat blocks of all MAX_PLAYERS seats, so the
# fields every decision reads (global block and seat blocks) stay close together.
STATE_TAIL_START = SEAT0 + MAX_PLAYERS * SEAT_LEN
STATE_TAIL = Block("S_", (
    ("feas", WORK_MAX, "work area of the end-of-day solo feasibility check (FS-SOLO-C1)"),
) + option_fields(MAX_OPTS), start=STATE_TAIL_START,
    title="state: work area and options block, after the seat blocks")
STATE_LEN = STATE_TAIL.end  # the length of every state array, whatever the player count

# ---- policy scratch (per game, reused across games; written only by the policies) --------
LINE = Block("LS_", (
    ("n", 1, "placed tiles in the line"),
    ("len", 1, "slots of the line"),
    ("fl", 1, "flowers of the placed tiles"),
    ("st", 1, "stars of the placed tiles"),
    ("tmask", 1, "AND of the placed tiles' flower-type masks"),
    ("ids", MAX_LINE_LEN, "placed tile ids"),
), title="line summary record in SCR_LINES (per seat MAX_LINES records)")
LS_W = LINE.length

SCRATCH = Block("SCR_", (
    ("min_fl", 1, "fewest flowers on a tile of the set"),
    ("max_fl", 1, "most flowers on a tile"),
    ("max_stars", 1, "most stars on a tile"),
    ("shop", MAX_SLOTS, "hypothetical shop (placement check)"),
    ("fin", MAX_SLOTS, "hypothetical finished flags"),
    ("cand", MAX_ROW * MAX_SLOTS, "candidate decisions (row position x slot)"),
    ("tgt", MAX_ROW + MAX_SLOTS, "target tiles (row tiles, then shop tiles)"),
    ("tgt_kind", MAX_ROW + MAX_SLOTS, "0 row tile, 1 shop tile"),
    ("tv_day", MAX_PLAYERS * MAX_TILES, "day stamp of the cached task gains of (seat, tile)"),
    ("before_day", MAX_PLAYERS, "day stamp of the line summaries of a seat (follows tv_day)"),
    ("tmask", MAX_TILES, "per tile: bit f set if it has a specific icon of flower type f"),
    ("lines", MAX_PLAYERS * MAX_LINES * LS_W, "line summaries (LS_*), per seat MAX_LINES"),
    ("tfl", MAX_TILES, "per tile: flowers (copy of tiles[t, TL_FLOWERS])"),
    ("tst", MAX_TILES, "per tile: stars"),
    ("tkn", MAX_TILES, "per tile: knickknack"),
    ("tva", MAX_TILES, "per tile: vase colour"),
    ("feas", WORK_MAX, "work area of the solo feasibility check"),
), title="policy scratch: int64[SCR_LEN]")
SCR_LEN = SCRATCH.length

FSCRATCH = Block("FSCR_", (
    ("cand", MAX_ROW * MAX_SLOTS, "candidate scores"),
    ("tgt", MAX_ROW + MAX_SLOTS, "target scores"),
    ("tv", MAX_PLAYERS * MAX_TILES, "cached best task gain per (seat, tile)"),
    ("before", MAX_PLAYERS * MAX_LINES * MAX_CARDS_IN_PLAY,
     "line potentials without a new tile, per seat (lines x cards)"),
    ("tg", MAX_PLAYERS * MAX_TILES * MAX_SLOTS, "cached task gain per (seat, tile, slot)"),
    ("col", MAX_SHOP_COLS, "task gain of one tile per column (tile_gains work area)"),
    ("card_w", MAX_PLAYERS * MAX_CARDS_IN_PLAY,
     "weight of each card in play in a seat's task gains (card commitment, w_other_card)"),
), title="policy scratch: float64[FSCR_LEN]")
FSCR_LEN = FSCRATCH.length

# ---- output columns (sim.spec.GameSpec: GAME_COMMON / SEAT_COMMON, then these) -----------
GAME_COLUMNS = (
    Column("task_card", "Task card in play (index into tasks.csv, T1 = 0)"),
    Column("task_card_2", "Second task card (-1 if only one is in play)"),
    Column("loss_day", "Solo: day of the loss (FS-SOLO-C1), 7 (days+1) when the game reached its "
                       "end, won or lost (FS-SOLO-E2); -1 in multiplayer"),
    Column("task_lines_met", "Task lines (rows + columns, all cards) met by seat 0 at the end"),
    Column("tiles_left_in_stack", "Tiles left in the draw stack at the end"),
    Column("refreshes", "Solo: paid row refreshes (FS-SOLO-N2)"),
    Column("opp_discards", "Solo: row tiles discarded by the opponent die"),
    Column("opp_lower", "Solo: opponent rolls resolved as lower"),
)
SEAT_COLUMNS = (
    Column("stars", "Stars of finished tiles (FS-E2)"),
    Column("ribbons", "Ribbons bought"),
    Column("task_points", "Task points (FS-E3)"),
    Column("task_lines", "Task lines met (rows + columns, all cards)"),
    Column("money", "Money at the end (first tie-break)"),
    Column("tokens", "Wild tokens at the end (second tie-break)"),
    Column("tiles_finished", "Tiles finished"),
    Column("tiles_placed", "Tiles placed in the shop"),
    Column("initiative_die", "Initiative die: 0..3 = I-A..I-D"),
    Column("salary_total", "Salary earned"),
    Column("lock_payments", "Money paid for extra locks and skips"),
    Column("skips", "Lock-none steps (FS-L4)"),
    Column("lock_steps", "Step 1 decisions"),
    Column("tokens_taken", "Tokens taken with dice (FS-U5)"),
    Column("tokens_bought", "Tokens bought (FS-U7)"),
    Column("tokens_spent", "Tokens spent on finishes"),
    Column("money_taken", "Money taken with dice (FS-U6)"),
    Column("dice_wasted", "Dice left unused at the end of Step 4"),
)
GAME_OUT = columns_block("GO_", GAME_COMMON, GAME_COLUMNS, title="output: games row")
SEAT_OUT = columns_block("SO_", SEAT_COMMON, SEAT_COLUMNS, title="output: seats row")


# ---- the declared offsets as module attributes (L.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(TILE, TASK, STATE, SEAT, STATE_TAIL, LINE, SCRATCH, FSCRATCH,
                               GAME_OUT, SEAT_OUT,
                               **{"C_" + name: code for code, name in enumerate(CONDITIONS)})
