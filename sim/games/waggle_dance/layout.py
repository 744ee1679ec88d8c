"""Waggle Dance declarations: limits, enum codes, output columns and the declared array blocks.

Declarations only (no Numba, nothing imported from the game folder): the other modules read
their constants from here as ``L.NAME`` (``from . import layout as L``). Every offset is derived
from one ``(name, size, meaning)`` declaration by :class:`sim.layout.Block` and exported by the
``exports`` line at the end; ``playtest layout waggle_dance`` prints the tables.

State: one flat int64 array ``state[S_LEN + n_players * SEAT_LEN]``: the global block
``STATE`` (``S_*``), then one ``SEAT`` block (``F_*``) per seat at ``SEAT0 + seat * SEAT_LEN``.
Seat 0 is the first start player (the WD-S5 draw is reported as the game column
``start_chair``); the start player S rotates clockwise every round (WD-R15).

The game is a resumable step machine (``sim.decide``): ``S_PHASE`` (``PH_*``) and the cursor
fields below it say where play goes on; the options block holds the pending decision with its
legal option codes. A decision with a single legal option is taken without asking.

Option encodings (decision points of spec §9):

- ``D_PLACE`` (DP-04): ``value * PLACE_CODE + dest``; ``dest`` = ``DEST_A``/``DEST_C``/
  ``DEST_E``/``DEST_G`` (slot ``value`` of that card), ``DEST_FLOWER`` (flower D``value``) or
  ``DEST_TILE + t`` (own tile t). Values are 1..6. The own turn is a card window (WD-I13,
  DP-02, DP-03, DP-05..DP-09): codes ``>= TURN_CARD`` are ``TURN_CARD + card * CARD_PLAY +
  target``:
  Overtime ``(v - 1) * N_VAL + w - 1`` (an unplaced v becomes w); Command ``(v - 1) * N_COL +
  f`` (an unplaced v onto flower f+1); Shift Change ``SHIFT_TWO`` or ``SHIFT_PASS``; Feint
  ``((v - 1) * PLACE_CODE + src) * PLACE_CODE + dest`` (the seat's die of value v from ``src``
  = slot card ``CARD_*``, ``FROM_FLOWER + f`` or ``FROM_TILE + t`` to ``dest``); Wrong Turn,
  Scout and Volunteer as in ``D_CARD``.
- ``D_EGG`` (DP-14): -1 = do not take the egg, else the ``EMPTY`` tile t.
- ``D_CUBE`` (DP-16): ``colour * MAX_HIVE + t``: place one gained cube of ``colour`` on tile t.
- ``D_TRADE`` (DP-17): ``TR_SKIP``; ``TR_POLLEN + c * N_COL + c2`` (pay colour c, take c2);
  ``TR_EGG + c2`` (pay eggs, take c2).
- ``D_PAY``: tile t to take one paid cube / egg from.
- ``D_GAIN``: tile t for one cube received in a trade.
- ``D_PAIR`` (DP-18): ``PAIR_DONE`` (-1: leave the other F-dice unpaired), else
  ``(x * MAX_HIVE + y) * PAIR_CODE + value``: a pair of equal ``value`` dice on tiles x <= y.
- ``D_MOVE`` (DP-19): ``MV_NONE`` or ``MV_GATHER + colour * 2 + side``: gather ``colour`` on
  the pair's tile x (side 0) or y (side 1), the other colours going to the other tile as far
  as room allows (the kernel's canonical splits, see the README).
- ``D_FLIP`` (DP-19): ``kind * MAX_HIVE + t``: flip tile t plainly (``FLIP_PLAIN``) or with
  Efficiency, Alchemy or both (``FLIP_EFFICIENCY``, ``FLIP_ALCHEMY``, ``FLIP_BOTH``, WD-Q7);
  ``FLIP_NONE`` (-1) when only a card could flip a tile and the player keeps the card.
- ``D_PAIR`` with Expertise (DP-18): ``PAIR_EXPERT + ((x * MAX_HIVE + y) * PAIR_CODE + v) *
  PAIR_CODE + w``: a die of value v on tile x and one of value w != v on tile y.
- ``D_HATCH`` (DP-13): ``CARD_PASS`` or ``Q_EXPERTISE * CARD_PLAY + t``: egg tile t hatches
  with an unequal pair.
- ``D_CARD`` (DP-01..03, DP-09..11, a card window WD-R3/R9/R12): ``CARD_PASS`` (-1: the seat
  ends its part of the window), else ``card * CARD_PLAY + target`` with ``card`` a ``Q_*``
  type; targets: Sick Day ``seat * N_VAL + v - 1``; Scout and Volunteer 0; Wrong Turn
  ``(seat * N_COL + f) * N_COL + f2`` (an opponent's die from flower f+1 to f2+1); Queen's
  Gift 0 (a tile) or ``1 + t`` (an egg on EMPTY tile t); Relocation
  ``(x * MAX_HIVE + y) * RELOC_CODE + move`` (a ``D_MOVE`` gather code on tiles x < y).
- ``D_KEEP`` (DP-03): the card type kept from a Scout draw.
- ``D_HARVEST`` (DP-15): ``CARD_PASS`` or ``Q_HARVEST * CARD_PLAY + f`` (+1 cube of flower f+1).
- ``D_ROLL`` (no decision point of §9: a chance point, posted only when the step machine is
  asked to, ``chance``): the faces of the die about to be rolled (a pool die, WD-R2, or the
  volunteer die, WD-Q2), ``options.encode_face(v)`` for v = 1..6 in face order; the decider
  is the rolling seat.
"""
from sim.decide import option_fields
from sim.layout import Block, columns_block, exports
from sim.spec import GAME_COMMON, SEAT_COMMON, Column

# ---- limits -----------------------------------------------------------------------------------
MAX_PLAYERS = 4
MAX_HIVE = 64       # hive tiles of one player (hive_tile_supply is capped at this)
N_COL = 6           # pollen colours = flower cards (structural, WD-S2)
N_VAL = 6           # die values 1..6
N_SLOTCARDS = 4     # A, C, E, G
N_QUEEN = 14        # queen card types of components/queen_cards.csv
MAX_DECK = 120      # queen deck size limit (counts of queen_cards.csv)
MAX_OPTS = 512      # most options of one decision (6 values x (5 + MAX_HIVE) placements)

# ---- policy kinds ------------------------------------------------------------------------------
K_RANDOM = 0
K_GREEDY = 1

# ---- slot cards (index into the blocked / slot_owner arrays) ---------------------------------
CARD_A = 0
CARD_C = 1
CARD_E = 2
CARD_G = 3

# ---- placement destinations (D_PLACE codes) ---------------------------------------------------
DEST_A = 0
DEST_C = 1
DEST_E = 2
DEST_G = 3
DEST_FLOWER = 4
DEST_TILE = 5
PLACE_CODE = 128    # > DEST_TILE + MAX_HIVE

# ---- trade, pair and move codes -------------------------------------------------------------
TR_SKIP = 0
TR_POLLEN = 1       # + c * N_COL + c2  (< 1 + 36)
TR_EGG = 64         # + c2
PAIR_DONE = -1
PAIR_CODE = 8
PAIR_EXPERT = 1 << 24  # > every plain pair code
FLIP_NONE = -1
FLIP_PLAIN = 0
FLIP_EFFICIENCY = 1
FLIP_ALCHEMY = 2
FLIP_BOTH = 3
MV_NONE = 0
MV_GATHER = 1
CARD_PASS = -1
CARD_PLAY = 1 << 17  # > every card target (Feint: < 6 * PLACE_CODE ** 2)
TURN_CARD = 1 << 21  # own-turn card plays in D_PLACE: TURN_CARD + a D_CARD code (> every one)
SHIFT_TWO = 0       # Shift Change (DP-07): place two dice this turn
SHIFT_PASS = 1      # Shift Change (DP-07, WD-I19): place no die this turn
FROM_FLOWER = 4     # Feint source (DP-08): + flower f (slot cards are 0..3)
FROM_TILE = FROM_FLOWER + N_COL  # Feint source: + own tile t
RELOC_CODE = 16     # > MV_GATHER + 2 * N_COL

# ---- queen card types (ids of components/queen_cards.csv, rules.QUEEN_KEYS) ------------------
Q_OVERTIME = 0
Q_COMMAND = 1
Q_SHIFT_CHANGE = 2
Q_SICK_DAY = 3
Q_WRONG_TURN = 4
Q_SCOUT = 5
Q_FEINT = 6
Q_QUEENS_GIFT = 7
Q_EXPERTISE = 8
Q_HARVEST = 9
Q_EFFICIENCY = 10
Q_ALCHEMY = 11
Q_RELOCATION = 12
Q_VOLUNTEER = 13

# ---- card windows (S_WINDOW, WD-I13) ----------------------------------------------------------
W_DW0 = 0           # before the first placement (WD-R3)
W_DW_END = 1        # after the last placement (WD-R9)
W_NW = 2            # + card index 0..6: NW_A .. NW_G, before resolving A .. G (WD-R12)
W_TURN = W_NW + 7   # the own placement turn (WD-R4, DP-02..DP-09); events only

# ---- end triggers (game column end_trigger) ------------------------------------------------------
ET_NONE = 0         # truncated at max_rounds (WD-V6)
ET_HONEY = 1        # a player reached honey_to_win at the end of a night (WD-V2)

# ---- decision points (§9) ----------------------------------------------------------------------
D_PLACE = 1
D_EGG = 2
D_CUBE = 3
D_TRADE = 4
D_PAY = 5
D_GAIN = 6
D_PAIR = 7
D_MOVE = 8
D_FLIP = 9
D_CARD = 10
D_KEEP = 11
D_HARVEST = 12
D_HATCH = 13
D_ROLL = 14         # not a decision point of §9: a chance point, a die about to be rolled
                    # (WD-R2, WD-Q2), posted only on request (kernel ``_step``'s ``chance``)

# ---- control positions of the step machine (S_PHASE) ----------------------------------------
PH_DAY = 0          # a round starts: max_rounds guard, roll (WD-R2)
PH_PLACE = 1        # placement turns (WD-R4 .. WD-R6) and their cards (DP-02..DP-09), D_PLACE
PH_NIGHT_A = 2      # A forced (WD-A*), after the window NW_A
PH_C = 3            # C die by die (WD-C*), D_EGG
PH_D = 4            # D majorities (WD-D1 .. WD-D6), forced
PH_D_PLACE = 5      # D cube placing (WD-D7), D_CUBE
PH_E = 6            # E die by die (WD-E*), D_TRADE
PH_E_PAY = 7        # paying a trade, D_PAY
PH_E_GAIN = 8       # placing the received cubes, D_GAIN
PH_F = 9            # F pairs (WD-F*), D_PAIR
PH_F_MOVE = 10      # moves of the chosen pair, D_MOVE
PH_F_FLIP = 11      # the pair's flip, D_FLIP when both tiles qualify
PH_G = 12           # G and the end of the round (WD-G*, WD-R15, WD-V*)
PH_OVER = 13
PH_WINDOW = 14      # a card window S_WINDOW (WD-R3, R9, R12), D_CARD
PH_KEEP = 15        # Scout: the cards kept (DP-03), D_KEEP
PH_HARVEST = 16     # Harvest after the flowers paid (WD-D6), D_HARVEST
PH_B = 17           # B: Expertise on unequal egg-tile pairs (DP-13, D_HATCH), then the hatch (WD-B*)
PH_ROLL = 18        # the day's roll (WD-R2) from the roll cursor (S_CURSOR, S_ROLLED), D_ROLL
PH_VOLUNTEER = 19   # the volunteer die's roll (WD-Q2), then back to S_RESUME, D_ROLL
# the phase each night window NW_A .. NW_G leads to (WD-R12)
NIGHT_PHASES = (PH_NIGHT_A, PH_B, PH_C, PH_D, PH_E, PH_F, PH_G)

# ---- trace events (text in replay.py) ------------------------------------------------------------
EV_SETUP = 1        # n, start_chair, tiles supply, egg supply, deck size
EV_BLOCK = 2        # card index (A,C,E,G), slot number, marker set
EV_ROUND = 3        # round, start seat
EV_ROLL = 4         # seat, dice rolled, counts of values 1..6 packed as base-32 digits
EV_PLACE = 5        # seat, value, dest (DEST_*), tile
EV_BUILD = 6        # seat, slot, got (0/1), tiles now, tile supply
EV_HATCH = 7        # seat, tile, hatched (1) / egg returned without die (2) / no supply (0), pool
EV_EGG = 8          # seat, slot, tile (-1 = not taken), egg supply
EV_MAJORITY = 9     # flower, seat, dice, owed, paid, supply left
EV_CUBE = 10        # seat, colour, tile (-1 = returned to the supply), cubes on tile
EV_TRADE = 11       # seat, slot, code (TR_*)
EV_PAY = 12         # seat, tile, colour (-1 = egg)
EV_GAIN = 13        # seat, colour, tile (-1 = no room, returned)
EV_PAIR = 14        # seat, tile x, tile y, value
EV_MOVE = 15        # seat, tile x, tile y, move code
EV_FLIP = 16        # seat, tile, colour, honey now
EV_DRAW = 17        # seat, slot, card type (-1 = deck empty), deck left
EV_END = 18         # trigger, round, winner seat, n winners
EV_TRUNCATED = 19   # rounds
EV_PLAY = 20        # seat, card type (Q_*), then the effect: Sick Day (target seat, value);
                    # Scout (cards drawn); Volunteer (value rolled); Wrong Turn (target seat,
                    # flower from, flower to); Queen's Gift (tile, 1 = egg / 0 = tile, supply
                    # left); Relocation (tile x, tile y, move code); Harvest (flower, cubes
                    # taken, supply left); Expertise (tile x, tile y; at B x = y);
                    # Efficiency / Alchemy (tile); Overtime (value, new value); Command
                    # (value, flower); Shift Change (SHIFT_*); Feint (value, from, to: the
                    # Feint codes); last the window (W_*, -1 = during B, D or F)
EV_KEEP = 21        # seat, card type kept from a Scout draw, cards discarded with it (WD-Q3)

# ---- output columns (after sim.spec.GAME_COMMON / SEAT_COMMON) -----------------------------------
GAME_COLUMNS = (
    Column("end_trigger", "0 truncated at max_rounds (WD-V6), 1 honey_to_win reached (WD-V2)"),
    Column("start_chair", "WD-S5 random start-player draw: the physical chair of seat 0"),
    Column("queen_played", "queen cards played (WD-Q1: in every window of WD-I13, the own placement turn included)"),
    Column("queen_drawn", "queen cards drawn at G (WD-G1)"),
    Column("deck_left", "queen cards left in the deck at the end (WD-G2)"),
    Column("tiles_left", "hive tiles left in the supply at the end (WD-A2)"),
    Column("eggs_left", "eggs left in the supply at the end (WD-C3)"),
)

SEAT_COLUMNS = (
    Column("honey", "honey tiles at the end (the score, WD-V3)"),
    Column("cubes", "pollen cubes in the hive at the end (the WD-V3 tie-break)"),
    Column("pool", "worker pool dice at the end (WD-R16)"),
    Column("hive_tiles", "hive tiles at the end"),
    Column("eggs_hatched", "hatches (WD-B1)"),
    Column("eggs_taken", "eggs taken at C (WD-C1)"),
    Column("majorities_won", "flowers where the seat was paid as first, sole or tied (WD-D2)"),
    Column("cubes_gained", "cubes received at D (WD-D5)"),
    Column("cubes_lost", "gained cubes returned for lack of room (WD-D7)"),
    Column("trades", "trades made at E (WD-E1)"),
    Column("builds", "tiles built at A (WD-A1)"),
    Column("cards_drawn", "queen cards drawn at G (WD-G1)"),
    Column("cards_held", "queen cards in hand at the end"),
)

# ---- the game state ------------------------------------------------------------------------------
STATE = Block("S_", (
    ("n_players", 1, "N"),
    ("round", 1, "rounds started (1 in the first round)"),
    ("start", 1, "current start player S (WD-R15)"),
    ("start_chair", 1, "WD-S5 draw: chair of seat 0"),
    ("phase", 1, "control position PH_*"),
    ("cursor", 1, "turn offset from S of the seat to act next (day roll, day turns, night cards)"),
    ("ended", 1, "1 once the victory check fired (WD-V2)"),
    ("truncated", 1, "1 if max_rounds was reached (WD-V6)"),
    ("end_trigger", 1, "ET_*"),
    ("ctx_seat", 1, "seat of the pending trade / pair"),
    ("ctx_slot", 1, "E slot of the pending trade"),
    ("ctx_colour", 1, "trade: colour paid (-1 = eggs)"),
    ("ctx_gain", 1, "trade: colour received"),
    ("ctx_left", 1, "trade: items still to pay; then cubes still to place"),
    ("ctx_x", 1, "F: tile x of the pending pair"),
    ("ctx_y", 1, "F: tile y of the pending pair"),
    ("tile_supply", 1, "hive tiles in the supply (WD-S2)"),
    ("egg_supply", 1, "eggs in the supply"),
    ("cube_supply", N_COL, "cubes of each colour in the supply"),
    ("deck", MAX_DECK, "queen deck: card types, top at S_DECK_POS"),
    ("unseen", MAX_DECK, "scratch of a search's re-sampling: the queen cards the seat has not seen"),
    ("deck_n", 1, "cards in the shuffled deck"),
    ("deck_pos", 1, "next card to draw (WD-G1)"),
    ("discard", 1, "queen cards on the discard pile: played, or not kept from a Scout (WD-Q3)"),
    ("window", 1, "the card window being played (W_*, WD-I13)"),
    ("volunteer", 1, "seat + 1 holding the volunteer die this round; 0 = in the supply"),
    ("queen_played", 1, "queen cards played"),
    ("turn_left", 1, "placements still due in the current turn (WD-R4; Shift Change +1, DP-07); 0 = between turns"),
    ("turn_placed", 1, "placements made in the current turn (Shift Change pass only before any, WD-I19)"),
    ("turn_value", 1, "Overtime pending: the value 1..6 the turn's placement must have (DP-05); 0 = none"),
    ("resume", 1, "the control position a Scout's keep or the volunteer die's roll returns to (PH_WINDOW or PH_PLACE)"),
    ("rolled", 1, "the day's roll (PH_ROLL, WD-R2): dice the seat at turn offset S_CURSOR has rolled"),
    ("blocked", N_SLOTCARDS * N_VAL, "1 = slot card k, slot v+1 blocked (k * 6 + v, WD-S8/S9)"),
    ("slot_owner", N_SLOTCARDS * N_VAL, "seat + 1 of the die on slot card k, slot v+1; 0 = free"),
    ("flower", N_COL * MAX_PLAYERS, "dice of seat p on flower f at f * MAX_PLAYERS + p"),
    ("rng_d", 1, "SUB_DICE stream state (uint64 bits as int64, sim.rng.draw)"),
    ("rng_p", 1, "SUB_POLICY stream state (same)"),
) + option_fields(MAX_OPTS), title="state: global block (then one seat block per seat)")
S_LEN = STATE.end
SEAT0 = STATE.end

SEAT = Block("F_", (
    ("pool", 1, "worker pool dice (WD-S4)"),
    ("personal", 1, "personal supply dice (dice_per_player - pool)"),
    ("n_tiles", 1, "hive tiles"),
    ("honey", 1, "tiles honey side up"),
    ("unplaced", N_VAL, "this round's unplaced dice by value (1..6 at index v-1)"),
    ("gained", N_COL, "cubes gained at D still to place (WD-D7)"),
    ("hand", N_QUEEN, "queen cards in hand by type"),
    ("fval", N_COL * N_VAL, "this round's dice of value v+1 on flower f at f * N_VAL + v (Command, Wrong Turn, Feint)"),
    ("sick", 1, "dice sitting out this round (Sick Day), back at the round's end (WD-R15)"),
    ("expert", MAX_HIVE, "1 = egg tile t hatches with its unequal pair tonight (Expertise, DP-13)"),
    ("eggs_hatched", 1, "statistic: hatches"),
    ("eggs_taken", 1, "statistic: eggs taken at C"),
    ("majorities", 1, "statistic: flowers paid as first"),
    ("cubes_gained", 1, "statistic: cubes received at D"),
    ("cubes_lost", 1, "statistic: gained cubes returned for lack of room"),
    ("trades", 1, "statistic: trades"),
    ("builds", 1, "statistic: tiles built"),
    ("drawn", 1, "statistic: queen cards drawn"),
    ("cubes", MAX_HIVE * N_COL, "cubes of colour c on tile t at t * N_COL + c"),
    ("tdice", MAX_HIVE * N_VAL, "this round's dice of value v+1 on tile t at t * N_VAL + v"),
    ("tkey", MAX_HIVE, "hive.tile_key of tile t (its cubes, egg, honey side and dice packed), "
     "kept by the rules wherever the tile changes (hive.rekey)"),
    ("first", 1, "kernel.distinct_tiles of the seat (no tile left out) once worked out; 0 until "
     "then (hive.rekey resets it)"),
    ("egg", MAX_HIVE, "1 = tile holds an egg"),
    ("tile_honey", MAX_HIVE, "1 = tile is honey side up"),
), title="state: seat block at SEAT0 + seat * SEAT_LEN")
SEAT_LEN = SEAT.length

# ---- policy scratch (greedy's placement caches; written only by the policies) -------------------
HIVE_KEY = 4 + MAX_HIVE   # tiles + 1, pool, personal supply, honey, then hive.tile_contents by tile
SCRATCH = Block("SCR_", (
    ("wait_n", N_VAL, "per value v (at v - 1): tiles of the deciding seat holding an odd number of "
     "dice of value v; emptied (NaN) by each placement decision"),
    ("wait", N_VAL * MAX_HIVE, "per value v: those tiles, at (v - 1) * MAX_HIVE + k"),
    ("rivals", N_VAL, "per value v (at v - 1): opponents holding an unplaced die of value v "
     "(policies._rivals); emptied (NaN) by each placement decision"),
    ("slot_now", N_SLOTCARDS, "per slot card A, C, E, G: the value of a die there in this "
     "decision before its blocking bonus (policies._slot_now: the hive's _slot_value, or IDLE "
     "with careful when it does nothing at night); emptied (NaN) by each placement decision"),
    ("block_now", N_SLOTCARDS, "per slot card: 1 if the blocking bonus counts there in this "
     "decision (0: the slot does nothing for anyone)"),
    ("completion", N_COL, "a trade decision (DP-17): policies._completions of one more cube, by colour"),
    ("colour", N_COL, "a trade decision: the deciding seat's cubes of each colour"),
    ("hive", MAX_PLAYERS * HIVE_KEY, "per seat: the hive and dice its values below were worked out "
     "for (tiles + 1, pool, personal supply, honey, then hive.tile_contents of tile t at 4 + t)"),
    ("slot", MAX_PLAYERS * DEST_FLOWER, "per seat (seat * DEST_FLOWER + dest): _slot_value of "
     "DEST_A..DEST_G (the die's value plays no part)"),
    ("free_cap", MAX_PLAYERS, "per seat: free_capacity of its hive"),
    ("trade_ok", MAX_PLAYERS, "per seat: 1 if its hive holds trade_pollen_cost cubes of a colour"),
    ("trade_colours", MAX_PLAYERS * 3, "per seat (seat * 3): careful's trades (policies."
     "_trade_colours): the colours a pollen trade would buy and those only an egg trade would "
     "(6-bit masks), and the egg trades its eggs pay for"),
    ("egg_room", MAX_PLAYERS * 2, "per seat (seat * 2): careful's C (policies._egg_room): its "
     "EMPTY tiles (-1: no egg wanted) and its egg tiles"),
    ("tile_pair", MAX_PLAYERS * MAX_HIVE, "per seat and pollen tile t (seat * MAX_HIVE + t): "
     "the value of a die there that completes a pair (DP-04, policies._tile_pair)"),
    ("tile_first", MAX_PLAYERS * MAX_HIVE, "per seat and pollen tile t: the value of a die "
     "there as the first of a pair to come (-1e18: none; DP-04, policies._tile_first)"),
    ("link", MAX_PLAYERS * MAX_HIVE * MAX_HIVE, "per seat: _link_value(t, u) at "
     "(seat * MAX_HIVE + t) * MAX_HIVE + u (DP-04)"),
), title="policy scratch: float64[SCR_LEN]; a seat's hive values are emptied (NaN) when its hive "
   "changed, then filled lazily")
SCR_LEN = SCRATCH.length

# ---- output rows ---------------------------------------------------------------------------------
GAME_OUT = columns_block("GO_", GAME_COMMON, GAME_COLUMNS, title="output: games row")
SEAT_OUT = columns_block("SO_", SEAT_COMMON, SEAT_COLUMNS, title="output: seats row")


# ---- the declared offsets as module attributes (L.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(STATE, SEAT, SCRATCH, GAME_OUT, SEAT_OUT)
