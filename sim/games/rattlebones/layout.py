"""Rattlebones declarations: limits, enum codes, output columns and the declared array blocks.

Declarations only (no Numba, nothing imported from the game folder): the other modules read
their constants from here as ``L.NAME`` (``from . import layout as L``). Every offset is derived
from one ``(name, size, meaning)`` declaration by :class:`sim.layout.Block` and exported by the
``exports`` line at the end; ``playtest layout rattlebones`` prints the tables.

State: one flat int64 array ``state[S_LEN + n_players * SEAT_LEN]``: the global block
``STATE`` (``S_*``), then one ``SEAT`` block (``F_*``) per seat at ``SEAT0 + seat * SEAT_LEN``
(``dice.seat_base``). Seat 0 is the start player by definition (RB-S9); play is clockwise =
increasing seat.

The game is a resumable step machine (``sim.decide``): the state also holds the control
position (``S_PHASE`` = ``PH_*`` and the continuation fields below it) and the options block
(``S_POINT``, ``S_DECIDER``, ``S_N_OPTIONS``, ``S_OPTIONS``): the pending decision (§9) with its
legal options. A decision with a single legal option is taken without asking. The option
codes of every decision point are declared in ``options.py`` (``encode_*`` / ``decode_*``).
Tests choose the dice by answering chance points (``D_ROLL``, ``D_GAMBLE_ROLL``: posted only
when the step machine is asked to, ``kernel.advance_turn`` with ``chance``) and script decisions
through ``sim.decide`` (``Game.take``), not through the state.
"""
from sim.decide import option_fields
from sim.layout import Block, columns_block, exports
from sim.spec import GAME_COMMON, SEAT_COMMON, Column

# ---- limits -----------------------------------------------------------------------------------
MAX_PLAYERS = 4
MAX_DICE = 5
MAX_MONKEYS = 5
MAX_TRACK = 40
MAX_TRAIN = 20
MAX_TILES = 12
MAX_OPTS = 64       # most options of one decision: D07 NINE 9 distances x 5 monkeys + decline
N_SLOTS = 6         # slots (faces) of a die
N_GAMBLE = 6        # faces of the gamble die

# ---- policy kinds (rules.POLICIES) -------------------------------------------------------------
K_RANDOM = 0
K_GREEDY = 1

# ---- face codes (§2.1; names in rules.FACE_NAMES) and space kinds (§2.3) ----------------------
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

# gamble-die faces other than 1..8 points (RB-F6)
GB_RINGMASTER = 0
GB_NINE = 9

# token types (D12 options; F_GOLD, F_STARS, F_STOCKS are consecutive in this order)
TK_GOLD = 0
TK_STAR = 1
TK_STOCK = 2

# ---- end triggers (game column end_trigger) ------------------------------------------------------
ET_NONE = 0
ET_SCORE = 1
ET_RINGMASTER = 2
ET_STOCK = 3
ET_SHOP = 4
ET_SETUP = 5

# ---- decision points (§9) and option encodings ---------------------------------------------------
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
# chance points: not decision points of the spec (§9). Posted only on request (the step machine's
# ``chance``, for tests and tools): the decider is the rolling seat, the options its die's faces
D_ROLL = 14           # RB-T3 / RB-F8: the next die of S_ROLL_LEFT shows a slot (options.py)
D_GAMBLE_ROLL = 15    # RB-F6: the gamble die of S_CTX_DIE's Gamble shows a face (options.py)

# ---- control positions of the step machine (S_PHASE): where play goes on ------------------------
PH_TURN = 0       # a turn of S_ACTIVE starts (truncation check, RB-T1 extra dice D01)
PH_DICE = 1       # RB-T2: choose the 1 + S_EXTRA dice to roll (D02)
PH_ROLL = 2       # RB-T3 / RB-F8: the dice of S_ROLL_LEFT roll in die-id order (chance D_ROLL)
PH_REROLL = 3     # RB-T4: the reroll loop (D03)
PH_DOUBLES = 4    # RB-T5a: the Double of die S_CURSOR or a later one (D04)
PH_ORDER = 5      # RB-T5b: the next die to resolve (D05); none left ends the turn (RB-T12)
PH_GAMBLE = 6     # RB-F6: the gamble die of die S_CTX_DIE's Gamble (chance D_GAMBLE_ROLL)
PH_MOVE = 7       # RB-T6: move of S_CTX_DIE by S_CTX_DIST..S_CTX_DMAX (S_MOVE_POINT: D06/D07/D13)
PH_SHOP = 8       # RB-P2: star exchanges (S_SHOP_LEFT left, D11), then the landing S_LAND
PH_LAND = 9       # RB-T7: the FACE (D08) / +1 (D10) effect of space S_LAND
PH_ARROW = 10     # D09: target of the arrow installed in slot index S_CTX_SLOT
PH_THIEF = 11     # RB-F2: victims from offset S_CURSOR clockwise (D12)
PH_OVER = 12      # the game is over (ended or truncated)

# ---- trace events (text in replay.py) ------------------------------------------------------------
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

# reasons of EV_NO_EFFECT
NE_CYCLE = 1
NE_DOUBLE_ALONE = 2
NE_REROLL_LATE = 3
NE_THIEF_NOBODY = 4
NE_ARROW_NUMBER = 5
NE_DOUBLE_DIE = 6
NE_NO_STOCK = 7

# ---- output columns (after sim.spec.GAME_COMMON / SEAT_COMMON) -----------------------------------
GAME_COLUMNS = (
    Column("end_trigger", "effect that ended the game: 0 none (truncated), 1 score gain, "
                          "2 Ringmaster decrement, 3 stock scoring, 4 star exchange, 5 setup (RB-E2)"),
    Column("end_seat", "active seat (turn order) when the game ended; -1 if truncated (RB-E4)"),
    Column("ringmaster_final", "Ringmaster position R at the end (RB-E1)"),
    Column("turns", "player turns played (the last may be cut short, RB-E2)"),
    Column("ringmaster_drops", "number of R decrements (RB-E1)"),
    Column("stock_scorings", "number of stock scorings (RB-F10)"),
    Column("train_rides", "number of TRAIN resolutions (RB-F7)"),
    Column("tiles_mask", "bit c set = tile code c of components/tiles.csv was placed (RB-S2)"),
    Column("start_chair", "RB-S9 random start-player draw: the physical chair of seat 0"),
)

SEAT_COLUMNS = (
    Column("gold", "gold held at the end"),
    Column("stars", "stars held at the end"),
    Column("stocks", "stocks held at the end"),
    Column("tokens", "gold + stars + stocks, the RB-E3 tiebreak"),
    Column("turns_taken", "turns started"),
    Column("dice_rolled", "dice rolls, rerolls included (RB-T3, RB-F8)"),
    Column("extra_dice", "extra dice bought with gold (RB-T1)"),
    Column("gold_spent", "gold paid for extra dice (RB-T1)"),
    Column("installs", "faces installed or upgraded (RB-T7, RB-P3)"),
    Column("moves", "monkey movements (RB-T6)"),
    Column("steals", "tokens stolen from others (RB-F2)"),
    Column("stolen", "tokens lost to thieves (RB-F2)"),
    Column("pts_faces", "points from POINTS faces (RB-F1)"),
    Column("pts_shop", "points from star exchanges (RB-P2)"),
    Column("pts_stock", "points from stock scorings (RB-F10)"),
    Column("pts_train", "points from TRAIN (RB-F7)"),
    Column("pts_rank", "points from RANK_1234 (RB-F4)"),
    Column("pts_gamble", "points from the gamble die (RB-F6)"),
    Column("ringmaster_drops", "R decrements caused (RB-E1)"),
    Column("stars_cashed", "stars exchanged at START (RB-P2)"),
    Column("gold_gained", "gold gained from GOLD faces (RB-F12)"),
    Column("stars_gained", "stars gained from STAR faces (RB-F11)"),
    Column("stocks_taken", "stocks taken from the supply (RB-F9)"),
    Column("rerolls", "reroll events (RB-F8)"),
)

# ---- component arrays (rules.load_components) ---------------------------------------------------
SPACE = Block("SPC_", (
    ("kind", 1, "SP_* kind of the space"),
    ("face", 1, "face code offered by a FACE space (0 otherwise)"),
), title="components: boards[preset, space, SPC_LEN] and tiles[tile code, SPC_LEN]")
SPC_LEN = SPACE.length

BOARD_META = Block("BM_", (
    ("track_len", 1, "spaces on the monkey loop"),
    ("start", 1, "index of START"),
), title="components: board_meta[preset, BM_LEN]")
BM_LEN = BOARD_META.length

TOKENS = Block("TOK_", (
    ("gold", 1, "gold in the supply, 0 = unlimited (components.toml [tokens] gold)"),
    ("star", 1, "stars in the supply, 0 = unlimited ([tokens] star)"),
    ("stock", 1, "stocks in the game ([tokens] stock)"),
), title="components: tokens[TOK_LEN]")
TOK_LEN = TOKENS.length

TRAIN_DATA = Block("TRD_", (
    ("n", 1, "train track length (2..MAX_TRAIN)"),
    ("start", 1, "start index of the train (RB-S6)"),
    ("values", MAX_TRAIN, "train values (RB-F7)"),
), title="components: train[TRD_LEN]")
TRD_LEN = TRAIN_DATA.length

# ---- the game state ------------------------------------------------------------------------------
STATE = Block("S_", (
    ("r", 1, "Ringmaster position R (RB-S8, RB-E1)"),
    ("train_pos", 1, "train index on the train track (RB-S6, RB-F7)"),
    ("stock_supply", 1, "stocks in the supply (RB-F9)"),
    ("gold_supply", 1, "gold in the supply (meaningful when S_GOLD_LIMITED)"),
    ("star_supply", 1, "stars in the supply (meaningful when S_STAR_LIMITED)"),
    ("gold_limited", 1, "1 = gold supply limited, 0 = unlimited (§2.6)"),
    ("star_limited", 1, "1 = star supply limited"),
    ("n_players", 1, "n"),
    ("n_dice", 1, "dice per player"),
    ("n_monkeys", 1, "monkeys per player"),
    ("track_len", 1, "spaces on the monkey loop"),
    ("start_index", 1, "index of START"),
    ("turn", 1, "player turns started so far"),
    ("active", 1, "active seat"),
    ("first_seat", 1, "always 0 (seat 0 = start player)"),
    ("start_chair", 1, "RB-S9 draw: the chair that starts; seat k sits in (start_chair + k) mod n"),
    ("ended", 1, "1 once the end check fired (RB-E2)"),
    ("truncated", 1, "1 if max_turns was reached (RB-E5)"),
    ("end_trigger", 1, "ET_* effect that ended the game"),
    ("end_seat", 1, "active seat when the game ended (-1 if truncated)"),
    ("rolled", 1, "bitmask of dice rolled this turn"),
    ("resolved", 1, "bitmask of dice resolved this turn"),
    ("reroll_events", 1, "reroll events this turn (RB-F8)"),
    ("train_len", 1, "train track length"),
    ("tiles_mask", 1, "bit c set = tile code c placed this game"),
    ("rm_drops", 1, "R decrements so far"),
    ("stock_scorings", 1, "stock scorings so far"),
    ("ctx_die", 1, "decision context: die concerned (moving / Double / resolving die)"),
    ("ctx_face", 1, "decision context: face offered (D08)"),
    ("ctx_slot", 1, "decision context: slot index of the arrow being installed (D09)"),
    ("ctx_victim", 1, "decision context: thief victim (D12)"),
    ("ctx_dist", 1, "decision context: move distance (D06/D13)"),
    ("stock_count", 1, "stocks in the game (RB-S7)"),
    ("train_moves", 1, "train resolutions so far"),
    ("phase", 1, "control position PH_*: where play goes on (step machine)"),
    ("extra", 1, "extra dice paid this turn (RB-T1), for the dice choice"),
    ("cursor", 1, "PH_DOUBLES: next die to check; PH_THIEF: offset of the next victim"),
    ("roll_left", 1, "PH_ROLL: bitmask of the dice still to roll, in die-id order (RB-S11)"),
    ("ctx_dmax", 1, "pending move: largest distance (S_CTX_DIST is the smallest)"),
    ("move_point", 1, "pending move: its decision point D06 / D07 / D13"),
    ("land", 1, "space whose FACE / +1 effect follows the shop (-1 = none, AMB-02)"),
    ("shop_left", 1, "star exchanges left at this shop visit (RB-P2)"),
    ("thief_amount", 1, "tokens each thief victim gives (RB-F2, AMB-20)"),
    ("thief_took", 1, "tokens the thief took so far"),
    ("up_slot", MAX_DICE, "slot index (0..5) showing on each die this turn"),
    ("dbl_count", MAX_DICE, "Doubles assigned to each die (RB-F5)"),
    ("dbl_target", MAX_DICE, "target of each Double die, -1 = none"),
    ("face_supply", N_FACES, "face piles by face code (RB-S3)"),
    ("space_kind", MAX_TRACK, "SP_* kind of each space after tiles (RB-S2)"),
    ("space_face", MAX_TRACK, "face offered by FACE spaces"),
    ("train_track", MAX_TRAIN, "train values"),
    ("gamble", N_GAMBLE, "gamble faces: 1..8 points, GB_RINGMASTER, GB_NINE"),
    ("opp", N_SLOTS, "opposite slot index of each slot index (§2.2)"),
    ("rng_d", 1, "SUB_DICE stream state (uint64 bits stored as int64, sim.rng.draw)"),
    ("rng_p", 1, "SUB_POLICY stream state (same)"),
) + option_fields(MAX_OPTS), title="state: global block (then one seat block per seat)")
S_LEN = STATE.end
SEAT0 = STATE.end           # first seat block

SEAT = Block("F_", (
    ("score", 1, "score (mouse)"),
    ("gold", 1, "gold"),
    ("stars", 1, "stars"),
    ("stocks", 1, "stocks"),
    ("turns", 1, "statistic: turns started"),
    ("dice_rolled", 1, "statistic: dice rolls, rerolls included"),
    ("extra_dice", 1, "statistic: extra dice bought"),
    ("gold_spent", 1, "statistic: gold paid for extra dice"),
    ("installs", 1, "statistic: faces installed or upgraded"),
    ("moves", 1, "statistic: monkey movements"),
    ("steals", 1, "statistic: tokens stolen"),
    ("stolen", 1, "statistic: tokens lost to thieves"),
    ("pts_faces", 1, "statistic: points from POINTS faces"),
    ("pts_shop", 1, "statistic: points from star exchanges"),
    ("pts_stock", 1, "statistic: points from stock scorings"),
    ("pts_train", 1, "statistic: points from TRAIN"),
    ("pts_rank", 1, "statistic: points from RANK_1234"),
    ("pts_gamble", 1, "statistic: points from the gamble die"),
    ("rm_drops", 1, "statistic: R decrements caused"),
    ("stars_cashed", 1, "statistic: stars exchanged at START"),
    ("gold_gained", 1, "statistic: gold gained from GOLD faces"),
    ("stars_gained", 1, "statistic: stars gained from STAR faces"),
    ("stocks_taken", 1, "statistic: stocks taken from the supply"),
    ("rerolls", 1, "statistic: reroll events"),
    ("monkey", MAX_MONKEYS, "monkey positions"),
    ("face", MAX_DICE * N_SLOTS, "face code of die d, slot index s at d * 6 + s (slot = s + 1)"),
    ("arrow", MAX_DICE * N_SLOTS, "arrow target slot index, -1 when the face is not an arrow"),
), title="state: seat block at SEAT0 + seat * SEAT_LEN")
SEAT_LEN = SEAT.length

# ---- output rows ---------------------------------------------------------------------------------
GAME_OUT = columns_block("GO_", GAME_COMMON, GAME_COLUMNS, title="output: games row")
SEAT_OUT = columns_block("SO_", SEAT_COMMON, SEAT_COLUMNS, title="output: seats row")


# ---- the declared offsets as module attributes (L.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(SPACE, BOARD_META, TOKENS, TRAIN_DATA, STATE, SEAT, GAME_OUT,
                               SEAT_OUT)
