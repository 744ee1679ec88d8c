"""Cupcake Empire declarations: limits, enum codes, output columns and the declared array blocks.

Declarations only (no Numba, nothing imported from the game folder): the other modules read
their constants from here as ``L.NAME`` (``from . import layout as L``). Every offset is derived
from one ``(name, size, meaning)`` declaration by :class:`sim.layout.Block` and exported by the
``exports`` line at the end; ``playtest layout cupcake_empire`` prints the tables.

State: one flat int64 array ``state[S_LEN + n_players * SEAT_LEN]``: the global block
``STATE`` (``S_*``), then one ``SEAT`` block (``F_*``) per seat at ``SEAT0 + seat * SEAT_LEN``.
Seat 0 is the start player (CE-S11); play is clockwise = increasing seat.

Indices are 0-based in the kernel: column ``k`` = 0..4 is the spec's column k + 1; die colours
0 grey, 1 purple, 2 yellow, 3 orange, 4 green, 5 pink (§2.1); dice locations 0..4 = columns,
``LOC_REST`` = the rest area. Base kinds ``B_*``; frosting kinds 0..3 simple (lemon, chocolate,
mint, strawberry) and 4..9 the mixed pairs in ``FROST_PAIRS`` order; customer type
``pants * 4 + shirt`` (pants 0 plain, 1 chocolate; shirt = frosting flavour); house
``options.encode_house(region, distance - 1)``.

The game is a resumable step machine (``sim.decide``): ``S_PHASE`` (``PH_*``) and the turn
context fields say where play goes on; the options block holds the pending decision (§10.1).
A decision with a single legal option is taken without asking. Option codes (``options.py``
encodes and decodes the packed ones):

- D01 start disc column (DP1): column 0..4.
- D02 initial menu (DP2): ``encode_init_menu(base, shirt)`` (simple base, simple frosting).
- D03 free action (DP3-DP5 entry): ``FA_*``.
- D04 menu (DP3): ``encode_menu(base_kind, frost_kind)``.
- D05 rest use (DP4): ``encode_rest(method, column)`` (method 0 = pay ideas, 1 = pay income per
  die); D06 rest die: colour; D22 one more die: ``STOP`` or ``MORE`` (also for SP4).
- D07 special action (DP5): ``encode_special_disc(type, column)`` (SP1), ``SP_MOVE1`` (SP2),
  ``SP_IDEA`` (SP3), ``SP_MOVEN`` (SP4); D08 die to move: ``encode_move_die(column, colour)``;
  D09 target column 0..4.
- D10 activation (DP6): ``encode_activate(column, L_exec)``.
- D11 S1 step (DP7): ``S1_MAIN``, ``S1_MENU``, ``S1_END`` or ``encode_s1_disc(space)``.
- D12 simple base flavour / D13 simple frosting flavour / D14 mixed pair (DP8, DP9): the kind.
- D15 shop placement (DP10): ``encode_shop(src, region, victim)`` (src = region of a relocated
  own shop, or ``SRC_RESERVE``; victim 0 = an empty slot, 1 + seat = displace that seat).
- D16 sale (DP11): house index ``encode_house(region, distance - 1)``.
- D17 hire colour, D18 disc gain ``encode_disc_gain(type, column)``, D19 yellow bakery region,
  D20 column-5 level-4 choice ``encode_l4(0, region, 0)`` or ``encode_l4(1, column, level)``
  (DP12).
- D21 overflow (DP13): colour of a die sent to the rest area.
- D23 die roll: a chance point, not a decision point of the spec, posted only when the step
  machine is asked for chance points (tests): the face 1..6 the S3 die shows (CE-T7).
"""
from sim.decide import option_fields
from sim.layout import Block, columns_block, exports
from sim.spec import GAME_COMMON, SEAT_COMMON, Column

# ---- limits -----------------------------------------------------------------------------------
MAX_PLAYERS = 4
N_COLS = 5
N_COLOURS = 6
N_LOCS = 6            # 5 columns + rest area
LOC_REST = 5
MAX_LEVEL = 4
MAX_THRESH = 4
MAX_SPACES = 4        # disc spaces per column
N_REGIONS = 6
N_HOUSES = 24         # 4 per region
MAX_SLOTS = 4         # bakery / shop slots per region
N_BASE = 3
N_FROST = 10
N_CUST = 8            # customer types
N_VALUES = 3          # sale values 1..3
N_DISC_TYPES = 6
N_GOALS = 20          # A1..A5, B1..B5, C1..C5, D1..D5
N_STACKS = 4
MAX_TASKS = 8
MAX_OPTS = 64
N_FACES = 6           # faces of a die (d6)

# ---- codes --------------------------------------------------------------------------------------
K_RANDOM = 0
K_GREEDY = 1

GREY = 0
PINK = 5
B_PLAIN = 0
B_CHOC = 1
B_MIXED = 2
FR_SIMPLE = 4         # frosting kinds < FR_SIMPLE are simple
KIND_GREY = 0
KIND_YELLOW = 1
KIND_BEIGE = 2
SLOT_EMPTY = -1
SLOT_BLOCKED = -2
SLOT_NONE = -3        # the region has no such slot

X_BASE = 0
X_FROST = 1
X_SHOP_Y = 2
X_SELL2 = 3
X_INCOME3 = 4
X_IDEA2 = 5

# option codes
FA_DONE = 0
FA_MENU = 1
FA_REST = 2
FA_SPECIAL = 3
STOP = -1
MORE = 1
SP_DISC = 0
SP_MOVE1 = 100
SP_IDEA = 101
SP_MOVEN = 102
S1_MAIN = 0
S1_MENU = 1
S1_END = 2
S1_DISC = 10
SRC_RESERVE = 7
L4_BAKERY = 0
L4_OTHER = 100

# tasks of the S1 action queue: code * TASK_CODE + argument
TASK_CODE = 16
T_BASE_SIMPLE = 1
T_BASE_MIXED = 2
T_FROST_SIMPLE = 3
T_FROST_MIXED = 4
T_SHOP = 5            # argument: region kind
T_SELL = 6            # argument: reach
T_HIRE = 7
T_DISC_GAIN = 8
T_BAKERY_Y = 9
T_L4 = 10
T_INCOME = 11         # argument: amount
T_IDEA_STEPS = 12     # argument: steps

# ---- decision points (§10.1) ---------------------------------------------------------------------
D_START_DISC = 1
D_INIT_MENU = 2
D_FREE = 3
D_MENU = 4
D_REST = 5
D_REST_DIE = 6
D_SPECIAL = 7
D_MOVE_DIE = 8
D_MOVE_TO = 9
D_ACTIVATE = 10
D_S1 = 11
D_BASE = 12
D_FROST = 13
D_PAIR = 14
D_SHOP = 15
D_SELL = 16
D_HIRE = 17
D_DISC = 18
D_BAKERY_Y = 19
D_L4 = 20
D_OVERFLOW = 21
D_MORE = 22
D_ROLL = 23        # not a decision point of the spec: the chance point of an S3 die (CE-T7)

# ---- control positions (S_PHASE) ---------------------------------------------------------------
PH_START_DISC = 0  # CE-S10: seat S_CURSOR places its start disc
PH_INIT_MENU = 1   # CE-S11: seat S_CURSOR forms its initial menu (reverse order)
PH_TURN = 2        # a turn of S_ACTIVE starts (truncation check, CE-E4)
PH_FREE = 3        # free actions of window S_WINDOW (W1/W2/W3)
PH_MENU = 4        # CE-F1: which menu (then back to S_RETURN)
PH_REST = 5        # CE-F2: method and column
PH_REST_DIE = 6    # CE-F2: the dice moved one by one
PH_SPECIAL = 7     # CE-F3: SP1..SP4
PH_MOVE_DIE = 8    # SP2 / SP4: die to move
PH_MOVE_TO = 9     # SP2 / SP4: its target column
PH_ACTIVATE = 10   # CE-T1: column and level
PH_S1 = 11         # CE-T2 / CE-T3: main action and discs in any order
PH_TASK = 12       # the S1 task queue
PH_S2 = 13         # CE-T5, CE-T6
PH_S3 = 14         # CE-T7: roll (resumable: the dice still marked F_ROLL), place the 6s
PH_OVERFLOW = 15   # CE-T7.1: column S_CURSOR overflows
PH_END_TURN = 16   # CE-T8 / CE-E1 / CE-E2
PH_OVER = 17
PH_MORE = 18       # CE-F2 / SP4: one more die or stop (then S_MORE_PHASE)

# ---- trace events (text in replay.py) ------------------------------------------------------------
EV_SETUP = 1        # n, goal ids A, B, C, D (-1 = none)
EV_CUSTOMER = 2     # house, customer type
EV_GREY = 3         # seat, face (column 1..5)
EV_MENU = 5         # seat, base kind, frost kind, production gain, production, initial (1)
EV_TURN = 6         # seat, round, income, production, sales
EV_ACTIVATE = 7     # seat, column, L_avail, L_exec
EV_TILE = 8         # seat, 0 base / 1 frosting, kind
EV_SHOP = 9         # seat, region, victim (-1 none), relocated from (-1 reserve), sales, victim sales
EV_SALE = 10        # seat, house, customer type, value, sales, income
EV_HIRE = 11        # seat, colour, location
EV_DISC = 12        # seat, type, column, space, source (0 setup, 1 column 5, 2 SP1)
EV_BAKERY = 13      # seat, region, production, sales
EV_DISC_USE = 14    # seat, type, column, space
EV_INCOME = 15      # seat, amount, income, source (IN_*)
EV_IDEA = 16        # seat, steps, idea pos, ideas held, ideas gained
EV_REST = 17        # seat, method, column, colour, income, ideas
EV_SPECIAL = 18     # seat, SP code, income, ideas
EV_MOVE = 19        # seat, from loc, to column, colour
EV_ROLL = 20        # seat, colour, face, location it left (1..5 columns, 6 rest)
EV_PLACE = 21       # seat, colour, location (rest area), dice, face shown (6, or an overflow)
EV_GOAL = 22        # seat, goal id, income
EV_END = 23         # trigger seat, active seat, winner seat, n winners, truncated
EV_TRUNCATED = 24   # round
EV_PAY = 25         # seat, amount, income after, what (PAY_*)

IN_S2 = 0
IN_SALE = 1
IN_DISC = 2
IN_GOAL = 3

# ---- output columns -------------------------------------------------------------------------------
GAME_COLUMNS = (
    Column("end_trigger_seat", "seat whose income first reached end_threshold (CE-E1); -1 if truncated"),
    Column("turns", "player turns played"),
    Column("goals_claimed", "goal claims by all players (CE-T6)"),
    Column("goal_a", "revealed A goal 0..4 (A1..A5), -1 none (CE-S3)"),
    Column("goal_b", "revealed B goal 0..4, -1 none"),
    Column("goal_c", "revealed C goal 0..4, -1 none"),
    Column("goal_d", "revealed D goal 0..4, -1 none"),
    Column("customers_left", "customers still on the board"),
)

SEAT_COLUMNS = (
    Column("income", "income at the end (= score)"),
    Column("production", "production level at the end"),
    Column("sales", "sales level at the end"),
    Column("customers", "customers served (CE-A4.2), the first tie-break (CE-E3)"),
    Column("shops_on_board", "own shops on the board at the end, the second tie-break (CE-E3)"),
    Column("bakeries", "own bakeries on the board, start bakery included"),
    Column("menus", "menus made, initial menu included (CE-F1, CE-S11)"),
    Column("goals", "goals claimed (CE-T6)"),
    Column("goal_income", "income from goals"),
    Column("ideas", "idea discs held at the end"),
    Column("ideas_gained", "idea discs gained (CE-T7.3, CE-T7.4, SP3)"),
    Column("discs", "extra-action discs on the board"),
    Column("discs_used", "extra-action discs resolved (CE-T3)"),
    Column("dice_c1", "dice in column 1 at the end"),
    Column("dice_c2", "dice in column 2 at the end"),
    Column("dice_c3", "dice in column 3 at the end"),
    Column("dice_c4", "dice in column 4 at the end"),
    Column("dice_c5", "dice in column 5 at the end"),
    Column("dice_rest", "dice in the rest area at the end"),
    Column("turns_taken", "turns played"),
    Column("activations_c1", "activations of column 1 at level >= 1"),
    Column("activations_c2", "activations of column 2 at level >= 1"),
    Column("activations_c3", "activations of column 3 at level >= 1"),
    Column("activations_c4", "activations of column 4 at level >= 1"),
    Column("activations_c5", "activations of column 5 at level >= 1"),
    Column("sale_income", "income from sales (CE-A4.2)"),
    Column("s2_income", "income from S2 (CE-T5)"),
    Column("income_paid", "income paid for rest dice and special actions (CE-F2, CE-F3)"),
    Column("displaced", "times this seat's shops were displaced (CE-A3.2)"),
)

# ---- component arrays (rules.load_components) ---------------------------------------------------
COLDATA = Block("CD_", (
    ("max_level", 1, "highest level M_k"),
    ("capacity", 1, "dice the column holds"),
    ("colour", 1, "expert colour of the column (pink is expert everywhere)"),
    ("spaces", 1, "disc spaces"),
    ("n_thresh", 1, "number of base thresholds"),
    ("thresh", MAX_THRESH, "dice counts for base levels 1..n"),
), title="components: columns[5, CD_LEN] (columns.csv)")
CD_LEN = COLDATA.length

REGDATA = Block("RD_", (
    ("kind", 1, "KIND_* (0 grey, 1 yellow, 2 beige)"),
    ("value", 4, "sale value of the houses at distance 1..4"),
    ("bakery_slots", 1, "bakery slots"),
    ("n_shop_slots", 1, "shop slots"),
    ("shop_min", MAX_SLOTS, "min_players of each shop slot"),
), title="components: regions[6, RD_LEN] (regions.csv)")
RD_LEN = REGDATA.length

SUPDATA = Block("SU_", (
    ("simple_base", 1, "simple bases per flavour"),
    ("mixed_base", 1, "mixed bases"),
    ("simple_frost", 1, "simple frostings per flavour"),
    ("mixed_frost", 1, "mixed frostings per pair"),
    ("discs", 1, "extra-action discs per type"),
    ("ideas", 1, "idea discs"),
    ("dice", 1, "hireable dice per colour purple/yellow/orange/green"),
    ("pink", 1, "hireable pink dice"),
), title="components: supply[3 (2p, 3p, 4p), SU_LEN] (supply.csv)")
SU_LEN = SUPDATA.length

GOALDATA = Block("GD_", (
    ("first", 1, "first threshold of the goal condition (§8)"),
    ("second", 1, "second threshold (two-part conditions; 0 otherwise)"),
), title="components: goals[20 (A1..D5), GD_LEN] (goals.csv)")
GD_LEN = GOALDATA.length

MISC = Block("MI_", (
    ("per_type", 1, "customers per type (8 types)"),
), title="components: misc[MI_LEN] (components.toml)")
MI_LEN = MISC.length

# ---- the game state ------------------------------------------------------------------------------
STATE = Block("S_", (
    ("n_players", 1, "N"),
    ("phase", 1, "control position PH_*"),
    ("window", 1, "free-action window 1..3 (W1, W2, W3)"),
    ("return", 1, "phase to go back to after a menu (PH_FREE or PH_S1)"),
    ("cursor", 1, "setup: seat deciding; S3: die at a chance point (loc * 6 + colour), then "
                  "column being placed"),
    ("active", 1, "active seat"),
    ("round", 1, "current round (1-based)"),
    ("turns", 1, "player turns started"),
    ("end_triggered", 1, "1 once the end is triggered (CE-E1)"),
    ("trigger_seat", 1, "seat that triggered the end, -1 none"),
    ("over", 1, "1 when the game is over"),
    ("truncated", 1, "1 if max_rounds was reached (CE-E4)"),
    ("goal", N_STACKS, "revealed goal id per stack A..D, -1 none (CE-S3)"),
    ("goals_claimed", 1, "goal claims so far"),
    ("init_pairs", 1, "bit base * 4 + shirt: initial menus taken (CE-S11)"),
    ("sup_base", N_BASE, "base tiles in the supply"),
    ("sup_frost", N_FROST, "frosting tiles in the supply"),
    ("sup_discs", N_DISC_TYPES, "extra-action discs in the supply"),
    ("sup_ideas", 1, "idea discs in the supply"),
    ("sup_dice", N_COLOURS, "hireable dice per colour"),
    ("house", N_HOUSES, "customer type on each house, -1 empty"),
    ("bakery", N_REGIONS * MAX_SLOTS, "bakery slot owners (seat, SLOT_EMPTY, SLOT_NONE)"),
    ("shop", N_REGIONS * MAX_SLOTS, "shop slot owners (seat, SLOT_EMPTY, SLOT_BLOCKED, SLOT_NONE)"),
    # turn context
    ("col", 1, "activated column this turn, -1 none yet"),
    ("l_avail", 1, "L_avail frozen at activation (CE-T1)"),
    ("l_exec", 1, "executed level"),
    ("main_done", 1, "1 once the main action is resolved"),
    ("disc_done", 1, "bit p: disc on space p resolved this turn"),
    ("rest_used", 1, "rest uses this turn (CE-F2)"),
    ("special_used", 1, "special actions this turn (CE-F3)"),
    ("rest_method", 1, "pending rest use: method"),
    ("rest_col", 1, "pending rest use: target column"),
    ("rest_moved", 1, "pending rest use: dice moved"),
    ("move_kind", 1, "pending move: SP_MOVE1 or SP_MOVEN"),
    ("moved", 1, "pending move: dice moved"),
    ("move_from", 1, "pending move: column * 8 + colour of the die picked"),
    ("more_phase", 1, "PH_MORE: the phase that moves one more die (PH_REST_DIE or PH_MOVE_DIE)"),
    ("tasks", MAX_TASKS, "S1 task queue (code * TASK_CODE + argument)"),
    ("n_tasks", 1, "tasks queued"),
    ("task_pos", 1, "next task"),
    ("task", 1, "task being resolved"),
    ("rolled", N_COLOURS * N_COLOURS, "S3: dice rolled by face 1..6 (row face-1) and colour"),
    ("sixes", 1, "S3: number of 6s"),
    ("dealt", MAX_PLAYERS * 2, "start discs dealt to seat s at s * 2 + j, -1 none (CE-S10)"),
    ("rng_d", 1, "SUB_DICE stream state (int64 bits, sim.rng.draw)"),
    ("rng_p", 1, "SUB_POLICY stream state"),
) + option_fields(MAX_OPTS), title="state: global block (then one seat block per seat)")
S_LEN = STATE.end
SEAT0 = STATE.end

SEAT = Block("F_", (
    ("income", 1, "income = score (CE-S5)"),
    ("production", 1, "production level"),
    ("sales", 1, "sales level"),
    ("idea_pos", 1, "idea marker 0..idea_track_len-1 (0 = green box)"),
    ("ideas", 1, "idea discs held"),
    ("dice", N_LOCS * N_COLOURS, "dice by location (columns 0..4, rest 5) * 6 + colour"),
    ("roll", N_LOCS * N_COLOURS, "of those, dice to roll in S3 (used or gained, CE-T1.2, CE-T7)"),
    ("stock_base", N_BASE, "base tiles in stock"),
    ("stock_frost", N_FROST, "frosting tiles in stock"),
    ("served", 1, "bit t: customer type t served by a menu (§2.5)"),
    ("menus", 1, "menus made"),
    ("ss_base", 1, "menus made with a simple base (A goals)"),
    ("mx_base", 1, "menus made with a mixed base"),
    ("ss_frost", 1, "menus made with a simple frosting"),
    ("mx_frost", 1, "menus made with a mixed frosting"),
    ("cust", N_CUST, "customers served by type"),
    ("cust_val", N_VALUES, "customers served by sale value 1..3"),
    ("disc", N_COLS * MAX_SPACES, "disc type on column * 4 + space, -1 empty (CE-X2)"),
    ("shops_reserve", 1, "shops in reserve"),
    ("bakeries_reserve", 1, "bakeries in reserve"),
    ("goals", 1, "bit g: goal of stack g claimed (CE-T6)"),
    ("turns", 1, "statistic: turns"),
    ("activations", N_COLS, "statistic: activations at level >= 1 per column"),
    ("ideas_gained", 1, "statistic: idea discs gained"),
    ("discs_used", 1, "statistic: discs resolved"),
    ("goal_income", 1, "statistic: income from goals"),
    ("sale_income", 1, "statistic: income from sales"),
    ("s2_income", 1, "statistic: income from S2"),
    ("income_paid", 1, "statistic: income paid"),
    ("displaced", 1, "statistic: own shops displaced"),
), title="state: seat block at SEAT0 + seat * SEAT_LEN")
SEAT_LEN = SEAT.length

# ---- output rows ---------------------------------------------------------------------------------
GAME_OUT = columns_block("GO_", GAME_COMMON, GAME_COLUMNS, title="output: games row")
SEAT_OUT = columns_block("SO_", SEAT_COMMON, SEAT_COLUMNS, title="output: seats row")


# ---- the declared offsets as module attributes (L.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(COLDATA, REGDATA, SUPDATA, GOALDATA, MISC, STATE, SEAT, GAME_OUT,
                               SEAT_OUT)
