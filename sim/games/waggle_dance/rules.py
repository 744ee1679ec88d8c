"""Waggle Dance: rule parameters, variants, policies, rule status and component loading.

The Python side of the rules. It also derives the offsets of the packed rule and policy
parameters (``R_*``, ``P_*``) from the ``ParamSpec`` tables and the codes of choice parameters,
for the kernels.

Rule source: ``shared/rules/waggle_dance.md`` (rules summary v1.7.5). Every constant of §8 is a
:class:`ParamSpec` row below (``num_players`` is the ``--players`` argument); the spec's
provenance tags are kept as they are ([S], [D], [A], [V]). Parameters that duplicate a
component datum (``pollen_per_colour``, ``egg_supply``, ``hive_tile_supply``,
``dice_per_player``, ``blocking_marker_sets``) default to ``-1``, meaning "use the component
data file"; any other value overrides the file. ``queen_deck_base`` and ``volunteer_cards`` of
§8 are the sums of ``count_base`` / ``count_mini`` in ``components/queen_cards.csv``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from sim import components as cf
from sim.layout import Block, choice_code, exports, params_block
from sim.presets import shipped
from sim.spec import Components, ParamSpec, PolicySpec, RuleStatus, SpecError, Variant

from . import layout as L

COMPONENTS_DIR = Path(__file__).resolve().parent / "components"
PRESETS_DIR = Path(__file__).resolve().parent / "presets"  # named policies written by `playtest tune`
CARD_LETTERS = ("A", "C", "E", "G")
QUEEN_KEYS = ("overtime", "command", "shift_change", "sick_day", "wrong_turn", "scout", "feint",
              "queens_gift", "expertise", "harvest", "efficiency", "alchemy", "relocation",
              "volunteer")

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("honey_to_win", "int", 7, "Honey that ends the game at the end of a night (WD-V2)", 1, 20, source="[S]"),
    ParamSpec("max_rounds", "int", 300, "Safety cap in rounds; reaching it flags the game truncated (WD-V6). The spec suggests 100; 300 because uniformly random play runs past 200 rounds in about 1 of 1,000,000 4-player games (one ended at round 217)", 20, 1000, source="[A]"),
    ParamSpec("start_player_mode", "choice", "random", "random: uniform start chair; fixed: chair start_player_fixed_seat (WD-S5)", choices=("random", "fixed"), source="[A]"),
    ParamSpec("start_player_fixed_seat", "int", 0, "Chair that starts when start_player_mode = fixed (WD-S5)", 0, L.MAX_PLAYERS - 1, source="[A]"),
    ParamSpec("dice_per_player", "int", -1, "Dice owned (pool + personal supply); -1 = components.toml [dice] per_player (18) (WD-S4, WD-X2)", -1, 30, source="[D]"),
    ParamSpec("start_pool_dice", "int", 6, "Worker pool at start (WD-S4)", 1, 30, source="[S]"),
    ParamSpec("seat_bonus_pool_dice", "list", (0,) * L.MAX_PLAYERS, "Extra worker dice in the pool of seat k at setup (0 = the first start player; the last value repeats for the seats after it), taken from its personal supply on top of start_pool_dice; the pool never exceeds the dice the player owns (WD-S4, WD-X2)", 0, 6, length=L.MAX_PLAYERS, source="[T]"),
    ParamSpec("dice_per_hatch", "int", 1, "Dice moved to the pool per hatch (WD-B1)", 0, 3, source="[S]"),
    ParamSpec("hatch_pair_size", "int", 2, "Dice needed on an egg tile (structural) (WD-B1)", 2, 2, source="[S]"),
    ParamSpec("hatch_without_supply", "choice", "no_hatch", "Empty personal supply: the egg stays (no_hatch) or goes back without a die (return_egg) (WD-B3, WD-I11)", choices=("no_hatch", "return_egg"), source="[A]"),
    ParamSpec("max_dice_per_hive_tile", "int", 0, "Dice per hive tile, 0 = unlimited (WD-R6c, WD-I4)", 0, 18, source="[A]"),
    ParamSpec("start_hive_tiles", "int", 3, "Tiles per player at start (WD-S3)", 1, 10, source="[S]"),
    ParamSpec("hive_tile_supply", "int", -1, f"Tiles in the box; -1 = components.toml [hive] tiles (48); at most {L.MAX_HIVE} (kernel limit) (WD-S2, WD-A4)", -1, L.MAX_HIVE, source="[S]"),
    ParamSpec("tiles_per_build_die", "int", 1, "Tiles per die on A (WD-A1)", 0, 3, source="[S]"),
    ParamSpec("tile_pollen_capacity", "int", 4, "Cubes per tile (WD-D7)", 1, 8, source="[S]"),
    ParamSpec("pollen_per_honey", "int", 4, "Same-colour cubes per honey, <= tile_pollen_capacity (WD-F4)", 1, 8, source="[S]"),
    ParamSpec("honey_pair_size", "int", 2, "Dice per honey pair (structural) (WD-F2)", 2, 2, source="[S]"),
    ParamSpec("egg_supply", "int", -1, "Eggs in the box; -1 = components.toml [hive] eggs (12) (WD-S2)", -1, 50, source="[S]"),
    ParamSpec("eggs_per_egg_die", "int", 1, "Eggs a die on C may take (WD-C1)", 0, 3, source="[S]"),
    ParamSpec("pollen_colours", "int", 6, "Colours = flower cards (structural) (WD-S2)", 6, 6, source="[S]"),
    ParamSpec("pollen_per_colour", "int", -1, "Cube supply per colour; -1 = components/flowers.csv (15 each) (WD-S2)", -1, 50, source="[D]"),
    ParamSpec("majority_first_payout", "int", 2, "Cubes for a sole first place (WD-D2)", 0, 5, source="[S]"),
    ParamSpec("majority_tied_first_payout", "int", 1, "Cubes for each tied first (WD-D2)", 0, 5, source="[S]"),
    ParamSpec("majority_second_payout", "int", 1, "Cubes for a sole second place (WD-D3)", 0, 5, source="[S]"),
    ParamSpec("majority_tied_second_payout", "int", 0, "Cubes for each tied second (WD-D3)", 0, 5, source="[S]"),
    ParamSpec("pay_second_when_first_tied", "bool", True, "Second place is paid even when first is tied (WD-D3)", source="[S]"),
    ParamSpec("d_payout_order", "choice", "turn", "Who takes first when a colour runs short: turn order from S, or rank (WD-D5, WD-I8)", choices=("turn", "rank"), source="[A]"),
    ParamSpec("trade_pollen_cost", "int", 2, "Same-colour cubes paid in trade 1 (WD-E2)", 1, 4, source="[S]"),
    ParamSpec("trade_pollen_gain", "int", 1, "Cubes received in trade 1 (WD-E2)", 1, 3, source="[S]"),
    ParamSpec("trade_requires_different_colour", "bool", True, "Trade 1 must take another colour (WD-E2)", source="[S]"),
    ParamSpec("trade_egg_cost", "int", 1, "Eggs paid in trade 2 (WD-E3)", 1, 2, source="[S]"),
    ParamSpec("trade_egg_gain", "int", 1, "Cubes received in trade 2 (WD-E3)", 1, 3, source="[S]"),
    ParamSpec("slots_per_slot_card", "int", 6, "Slots on A, C, E, G (structural) (WD-R6a)", 6, 6, source="[S]"),
    ParamSpec("blocked_cards", "list", (0, 1, 2, 3), "Cards that take blocking markers: 0 = A, 1 = C, 2 = E, 3 = G, in drawing order (WD-S8, WD-S10)", 0, 3, length=4, source="[S]"),
    ParamSpec("blocked_slots_per_card_4p", "int", 0, "Markers per card with 4 players (WD-S7)", 0, 5, source="[S]"),
    ParamSpec("blocked_slots_per_card_3p", "int", 1, "Markers per card with 3 players (WD-S8)", 0, 5, source="[S]"),
    ParamSpec("blocked_slots_per_card_2p", "int", 3, "Markers per card with 2 players (WD-S9)", 0, 5, source="[S]"),
    ParamSpec("blocking_marker_sets", "int", -1, "Marker sets numbered 1-6; -1 = components.toml [blocking] sets (3) (WD-S9)", -1, 6, source="[S]"),
    ParamSpec("blocking_mode", "choice", "static", "static markers (v1.7.5); reroll_each_round is a later edition's rule, not implemented yet (WD-S11)", choices=("static", "reroll_each_round"), source="[V]"),
    ParamSpec("use_mini_expansion", "bool", False, "Add the count_mini cards (3 Volunteer) to the deck (WD-S2, WD-I16)", source="[A]"),
    ParamSpec("queen_discard_reshuffle", "bool", False, "Shuffle the discards into a new deck when it runs out (WD-G2, WD-I12); true is not implemented yet and is refused", source="[A]"),
    ParamSpec("hand_limit", "int", 0, "Queen cards in hand, 0 = unlimited; a die on G at the limit draws nothing (WD-G3, WD-Q4)", 0, 10, source="[S]"),
    ParamSpec("cards_per_draw_die", "int", 1, "Queen cards per die on G (WD-G1)", 0, 3, source="[S]"),
    ParamSpec("scout_draw", "int", 3, "Scout: cards drawn (as far as the deck allows) (DP-03)", 1, 5, source="[S]"),
    ParamSpec("scout_keep", "int", 1, "Scout: cards kept, <= scout_draw; the others are discarded (DP-03, WD-Q3)", 1, 5, source="[S]"),
    ParamSpec("harvest_bonus", "int", 1, "Harvest: extra cubes of one flower's colour (WD-D6)", 1, 3, source="[S]"),
    ParamSpec("efficiency_cubes", "int", 3, "Efficiency: cubes of one colour a honey conversion needs (WD-I18), <= pollen_per_honey", 1, 8, source="[S]"),
    ParamSpec("alchemy_max_colours", "int", 2, "Alchemy: colours allowed on a converted tile (WD-I18)", 2, 4, source="[S]"),
    ParamSpec("allow_efficiency_with_alchemy", "bool", False, "Efficiency and Alchemy may apply to the same honey conversion (WD-Q7)", source="[A]"),
    ParamSpec("end_bonus_points", "list", (0,) * L.MAX_PLAYERS, "Points added to the final score (honey) of seat k (0 = the first start player; the last value repeats for the seats after it) once the game is over, before ranking and tie-breaks (WD-V3, WD-V4): the score column includes it, the honey column does not; it never ends the game (WD-V2)", -50, 50, length=L.MAX_PLAYERS, source="[T]"),
)

PROVENANCE = {
    "[S]": "stated in the rules summary v1.7.5 (or its binding Q&A)",
    "[D]": "derived from the rules summary by arithmetic or direct implication",
    "[A]": "assumption or interpretation chosen by the spec: a documented default you can change",
    "[V]": "optional variant not in v1.7.5, off by default",
    "[T]": "tweak hook: a designer's tool, not a rule of the game; its default leaves the game as the rules have it",
}

VARIANTS: dict[str, Variant] = {
    "base": Variant("base", {}, "Spec defaults (v1.7.5): static blocking, turn-order payout, no mini expansion."),
    "rank_payout": Variant("rank_payout", {"d_payout_order": "rank"},
                           "A short colour pays the best-placed players first (WD-D5, WD-I8).",
                           rule_ids=("WD-D5",)),
    "return_egg": Variant("return_egg", {"hatch_without_supply": "return_egg"},
                          "An egg hatched with an empty personal supply goes back without a die (WD-B3).",
                          rule_ids=("WD-B3",)),
    "mini_expansion": Variant("mini_expansion", {"use_mini_expansion": True},
                              "Queen deck with the 3 Volunteer cards and the volunteer die (WD-S2, WD-R3).",
                              rule_ids=("WD-S2",)),
}

# ---- policies ------------------------------------------------------------------------------
POLICY_PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("w_build", "float", 1.2, "DP-04: value of a die on A while building is wanted", -5, 20),
    ParamSpec("w_egg", "float", 1.5, "DP-04: value of a die on C while eggs are wanted", -5, 20),
    ParamSpec("w_trade", "float", 0.8, "DP-04: value of a die on E when a trade would help", -5, 20),
    ParamSpec("w_draw", "float", 0.05, "DP-04: value of a die on G (a queen card)", -5, 20),
    ParamSpec("w_flower", "float", 0.6, "DP-04: value per expected cube won on a flower", -5, 20),
    ParamSpec("w_pair", "float", 3.0, "DP-04: value of completing a pair on a tile that can make honey", -5, 20),
    ParamSpec("w_hatch", "float", 2.5, "DP-04: value of completing a pair on an egg tile", -5, 20),
    ParamSpec("block_weight", "float", 0.1, "DP-04: bonus for a slot an opponent could still use", 0, 5),
    ParamSpec("build_if_free_capacity_below", "int", 4, "DP-04: use A when free pollen space is below this", 0, 64),
    ParamSpec("target_hive_size", "int", 12, "DP-04: stop building at this hive size (12 since "
              "version 0.4; the spec's suggested 7-9 built too small a hive: with 8, greedy lost "
              "to builder in 2-player games)", 1, 64),
    ParamSpec("egg_if_pool_below", "int", 10, "DP-04/DP-14: take eggs while the pool is below this", 0, 30),
    ParamSpec("max_eggs_waiting", "int", 2, "DP-04/DP-14: cap on unhatched eggs", 0, 10),
    ParamSpec("honey_pair_min_same_colour", "int", 3, "DP-04: pair a tile holding at least this many cubes of one colour", 0, 8),
    ParamSpec("endgame_honey_threshold", "int", 5, "From this honey on, stop eggs and builds", 0, 20),
    ParamSpec("trade_egg_when_pool_ge", "int", 12, "DP-17: turn eggs into cubes once the pool is this large", 0, 30),
    ParamSpec("card_min_value", "float", 0.5, "DP-01..03, DP-09..11, DP-15: play a queen card when its one-step value (cubes, tiles, dice) beats this; otherwise pass", -5, 20),
    ParamSpec("scout_min_deck", "int", 3, "DP-03: play Scout only while the deck holds at least this many cards (§9.3)", 1, 120),
    ParamSpec("turn_card_margin", "float", 0.5, "DP-05..DP-08: play Overtime, Command, Feint or Shift Change (two placements) on the own turn when it beats the best plain placement by more than this", 0, 20),
    ParamSpec("shift_pass_below", "float", 0.0, "DP-07, WD-I19: pass the turn with Shift Change when the best placement is worth less than this (§9.3: pass early while information is low)", -5, 20),
    ParamSpec("careful", "bool", True, "DP-04, DP-08, DP-09: value a die by what it does at night: a slot die that will do nothing (A with no tile left, C with no egg, no EMPTY tile or no egg wanted, E with no trade greedy would make, G with no card to draw; judged from the dice already placed) is worth -1, below a lone die on a tile (-0.3), plus the blocking bonus only where others could use the slot; no Feint while a die of its value is unplaced; a Wrong Turn counts the flower it hands the opponent (false = version 0.5)"),
)

POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", L.K_RANDOM, "Uniform over the legal options at every decision (SUB_POLICY stream)."),
    "greedy": PolicySpec("greedy", L.K_GREEDY, "One-step heuristic over DP-04 and DP-14..DP-19: pairs on ripe tiles, single-colour tiles, eggs early; queen cards in their windows and on the own turn (DP-01..DP-13, DP-15) by the per-card rules of §9.3; a die valued by what it does at night (careful: no slot die that will do nothing)."),
    "builder": PolicySpec("builder", L.K_GREEDY,
                          "Grows first: builds eagerly, many eggs hatched early, fewer flowers; honey later.",
                          {"w_build": 2.5, "target_hive_size": 12, "build_if_free_capacity_below": 8,
                           "w_egg": 2.5, "egg_if_pool_below": 14, "max_eggs_waiting": 3,
                           "w_hatch": 3.5, "w_flower": 0.4, "endgame_honey_threshold": 6}),
    # expert (version 0.6): the careful greedy with every numeric parameter tuned by
    # `playtest tune --players 2-4` against the careful greedy, in two stages from the expert
    # of version 0.5; the commands and held-out results are in the file.
    "expert": PolicySpec("expert", L.K_GREEDY,
                         "greedy tuned by playtest tune (2-4 players, against greedy; presets/expert.toml): "
                         "plays the whole game with its six starting dice (no egg, no trade, no card drawn), "
                         "builds up to 9 tiles and puts its dice on flowers and honey pairs.",
                         shipped(PRESETS_DIR / "expert.toml", "waggle_dance")),
}

# ---- offsets and codes for the kernels (derived from the tables above) ---------------------
RULES_BLOCK = params_block("R_", PARAMS, title="rules: float64[R_LEN] (rule parameters)")
R_LEN = RULES_BLOCK.length
POLICY_BLOCK = params_block("P_", POLICY_PARAMS, title="policy parameters: float64[n_players, P_LEN]")
P_LEN = POLICY_BLOCK.length

START_FIXED = choice_code(PARAMS, "start_player_mode", "fixed")
RETURN_EGG = choice_code(PARAMS, "hatch_without_supply", "return_egg")
PAYOUT_RANK = choice_code(PARAMS, "d_payout_order", "rank")

# component arrays: comp = (queen_counts[2, N_QUEEN], cube_supply[N_COL], meta[CM_LEN])
COMP_META = Block("CM_", (
    ("marker_sets", 1, "blocking marker sets (components.toml [blocking] sets)"),
    ("dice", 1, "dice per player ([dice] per_player)"),
    ("tiles", 1, "hive tiles in the box ([hive] tiles)"),
    ("eggs", 1, "eggs in the box ([hive] eggs)"),
), title="components: meta[CM_LEN]; also queen_counts[2, N_QUEEN] (base, mini) and cubes[N_COL]")
CM_LEN = COMP_META.length


# ---- rule status ---------------------------------------------------------------------------
def _r(rule_id: str, summary: str, test: str = "", implemented: bool = True,
       why: str = "") -> RuleStatus:
    note = f"test: {test}" if implemented else f"not yet: {why}"
    return RuleStatus(rule_id, summary, implemented, note)


# WD-Q1, WD-I14: the phase (0 day, 1 night) the kernel plays each card type in
QUEEN_PHASES = (0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0)

RULES: tuple[RuleStatus, ...] = (
    _r("WD-S1", "cards A, B, C, D1-D6, E, F, G (action_cards.csv checked)", "test_setup.py::test_wd_s1_action_cards_file"),
    _r("WD-S2", "general supply: tiles, eggs, cubes per colour, shuffled queen deck", "test_setup.py::test_wd_s2_s3_s4_s6_supplies"),
    _r("WD-S3", "3 EMPTY tiles per player", "test_setup.py::test_wd_s3_three_empty_tiles"),
    _r("WD-S4", "6 dice in the pool (+ seat_bonus_pool_dice of the seat), the rest in the personal supply", "test_setup.py::test_wd_s4_pool_and_personal_supply"),
    _r("WD-S5", "random (or fixed) start chair; seat 0 starts", "test_setup.py::test_wd_s5_start_chair"),
    _r("WD-S6", "no cubes, eggs or cards at start", "test_setup.py::test_wd_s6_nothing_else_at_start"),
    _r("WD-S7", "no blocking with 4 players", "test_setup.py::test_wd_s7_no_blocking_4p"),
    _r("WD-S8", "3 players: one marker set over A, C, E, G (T-14)", "test_setup.py::test_t14_three_player_blocking_wd_s8"),
    _r("WD-S9", "2 players: three sets, redraw duplicates (T-15)", "test_setup.py::test_t15_two_player_blocking_wd_s9"),
    _r("WD-S10", "markers only on A, C, E, G", "test_setup.py::test_t14_three_player_blocking_wd_s8"),
    _r("WD-S11", "blocking lasts the game; blocked slots never take a die", "test_setup.py::test_wd_s11_blocked_slot_never_offered"),
    _r("WD-R1", "rounds of day then night", "test_round.py::test_wd_r1_r15_round_cycle"),
    _r("WD-R2", "everyone rolls the whole pool", "test_round.py::test_wd_r2_roll_pool"),
    _r("WD-R3", "window DW0: Sick Day, Volunteer, Scout, in turn order from S (T-30)", "test_cards.py::test_t30_sick_day_wd_r3"),
    _r("WD-R4", "placement turns in order from S, skipping players out of dice (T-13)", "test_round.py::test_t13_turn_order_wd_r4"),
    _r("WD-R5", "placement is compulsory", "test_round.py::test_t13_turn_order_wd_r4"),
    _r("WD-R6", "legal destinations: free unblocked slot v, flower v, own non-honey tile", "test_round.py::test_wd_r6_legal_destinations"),
    _r("WD-R7", "placed dice move only by Feint (own die) or Wrong Turn (opponent's, flower to flower)", "test_turn_cards.py::test_wd_i20_feint_moves_a_placed_die"),
    _r("WD-R8", "a die keeps its value all round; Overtime's new value too", "test_turn_cards.py::test_wd_q1_dp05_overtime_sets_the_value_and_forces_the_placement"),
    _r("WD-R9", "window DW-end: Wrong Turn, Scout (T-29)", "test_cards.py::test_t29_wrong_turn_wd_r9"),
    _r("WD-R10", "day turns into night", "test_round.py::test_wd_r1_r15_round_cycle"),
    _r("WD-R11", "night resolves A, B, C, D1-D6, E, F, G in order", "test_night.py::test_t18_no_hatch_on_egg_day_wd_b5"),
    _r("WD-R12", "night windows NW_A..NW_G: Queen's Gift, Relocation", "test_cards.py::test_wd_r12_night_windows_queens_gift"),
    _r("WD-R13", "per card: start player first, then clockwise", "test_night.py::test_t16_build_short_supply_wd_a2"),
    _r("WD-R14", "dice return to the pool after their card (egg-tile dice after B)", "test_night.py::test_wd_r14_dice_return"),
    _r("WD-R15", "end of round: victory check, start player passes clockwise", "test_round.py::test_wd_r1_r15_round_cycle"),
    _r("WD-R16", "the pool grows only by hatching", "test_night.py::test_t06_hatch_wd_b1"),
    _r("WD-A1", "a die on A adds a tile at once", "test_night.py::test_t12_build_wd_a1"),
    _r("WD-A2", "no tile left: no effect (T-16)", "test_night.py::test_t16_build_short_supply_wd_a2"),
    _r("WD-A3", "the tile is always taken", "test_night.py::test_t12_build_wd_a1"),
    _r("WD-A4", "no hive size limit but the supply", "test_night.py::test_t12_build_wd_a1"),
    _r("WD-B1", "egg tile with an equal pair hatches: egg back, +1 pool die (T-06, T-07)", "test_night.py::test_t06_hatch_wd_b1"),
    _r("WD-B2", "one hatch per tile", "test_night.py::test_t06_hatch_wd_b1"),
    _r("WD-B3", "no personal supply: no hatch (T-25); return_egg option", "test_night.py::test_t25_hatch_dice_cap_wd_b3"),
    _r("WD-B4", "the new die rolls next round", "test_night.py::test_t06_hatch_wd_b1"),
    _r("WD-B5", "an egg taken at C cannot hatch that night (T-18)", "test_night.py::test_t18_no_hatch_on_egg_day_wd_b5"),
    _r("WD-B6", "egg-tile dice go back after B", "test_night.py::test_wd_r14_dice_return"),
    _r("WD-C1", "a die on C may take an egg onto an EMPTY tile", "test_night.py::test_wd_c1_take_egg"),
    _r("WD-C2", "no EMPTY tile: no egg (T-17)", "test_night.py::test_t17_no_empty_tile_wd_c2"),
    _r("WD-C3", "egg supply 0: no effect", "test_night.py::test_wd_c3_no_egg_supply"),
    _r("WD-C4", "one egg per tile", "test_night.py::test_wd_c1_take_egg"),
    _r("WD-D1", "flower f: players with dice there take part", "test_majority.py::test_t01_majority_example1"),
    _r("WD-D2", "first place: 2 sole, 1 each tied (T-01..T-05)", "test_majority.py::test_t02_tied_first_sole_second"),
    _r("WD-D3", "second place: 1 sole, 0 tied, paid after a tied first", "test_majority.py::test_t03_tied_second_gets_nothing"),
    _r("WD-D4", "everyone else 0", "test_majority.py::test_t04_example4"),
    _r("WD-D5", "payout in turn order from S (or rank), capped by supply (T-20)", "test_majority.py::test_t20_short_supply_turn_and_rank"),
    _r("WD-D6", "Harvest after every flower paid, in turn order from S", "test_cards.py::test_wd_d6_harvest"),
    _r("WD-D7", "cubes placed after all flowers; keep as many as fit, choose which (T-19)", "test_majority.py::test_t19_overflow_wd_d7"),
    _r("WD-D8", "cubes in the hive are never displaced by D", "test_majority.py::test_t19_overflow_wd_d7"),
    _r("WD-E1", "one trade per die, dice in turn order", "test_trade.py::test_t21_trade_feeds_honey_wd_e2"),
    _r("WD-E2", "trade 1: 2 cubes of c for 1 of c' != c, from any tiles (T-21)", "test_trade.py::test_t21_trade_feeds_honey_wd_e2"),
    _r("WD-E3", "trade 2: an egg for any cube (T-22)", "test_trade.py::test_t22_egg_trade_wd_e3"),
    _r("WD-E4", "the new cube goes on any tile with room", "test_trade.py::test_t22_egg_trade_wd_e3"),
    _r("WD-E5", "trading is optional; an empty colour cannot be taken", "test_trade.py::test_wd_e5_optional_and_empty_colour"),
    _r("WD-E6", "paid items go back to the supply at once", "test_trade.py::test_wd_e6_paid_cubes_back_at_once"),
    _r("WD-F1", "F-dice: tile dice not on an egg tile at the start of B", "test_honey.py::test_t18_egg_tile_dice_wd_f1"),
    _r("WD-F2", "separate equal-value pairs; unpaired dice do nothing", "test_honey.py::test_t28_three_equal_dice_wd_f2"),
    _r("WD-F3", "a split pair lets cubes move between its tiles (T-10)", "test_honey.py::test_t10_move_wd_f3"),
    _r("WD-F4", "a pair flips one of its tiles holding 4 of one colour (T-08, T-09)", "test_honey.py::test_t08_honey_wd_f4"),
    _r("WD-F5", "move then flip (T-11)", "test_honey.py::test_t11_move_and_honey_wd_f5"),
    _r("WD-F6", "a pair on one tile flips but moves nothing", "test_honey.py::test_t08_honey_wd_f4"),
    _r("WD-F7", "honey needs one colour and an equal pair, except under Efficiency, Alchemy, Expertise (T-26, T-27)", "test_cards.py::test_t26_alchemy_and_efficiency_wd_f7"),
    _r("WD-F8", "players do F in turn order; returned cubes go back at once", "test_honey.py::test_t09_honey_supply_wd_f8"),
    _r("WD-G1", "a die on G draws a queen card", "test_night.py::test_t31_empty_deck_wd_g2"),
    _r("WD-G2", "empty deck: nothing; no reshuffle of the discards (T-31)", "test_night.py::test_wd_g2_no_reshuffle"),
    _r("WD-G3", "no hand limit (hand_limit option)", "test_night.py::test_wd_g3_no_hand_limit"),
    _r("WD-X1", "exhausted components: dice return empty-handed", "test_night.py::test_wd_c3_no_egg_supply"),
    _r("WD-X2", "never more than dice_per_player dice", "test_night.py::test_t25_hatch_dice_cap_wd_b3"),
    _r("WD-X3", "running out never blocks placement", "test_round.py::test_wd_r6_legal_destinations"),
    _r("WD-Q1", "day and night cards in their windows, the own placement turn included; any number per turn", "test_turn_cards.py::test_wd_i13_wrong_turn_scout_volunteer_then_the_turn_goes_on"),
    _r("WD-Q2", "a card resolves fully before the next", "test_cards.py::test_wd_q2_scout_resolves_before_the_next_play"),
    _r("WD-Q3", "played cards go to a discard pile", "test_cards.py::test_wd_q3_discard_pile"),
    _r("WD-Q4", "no hand limit", "test_night.py::test_t31_empty_deck_wd_g2"),
    _r("WD-Q5", "no empty plays (windows and the own turn)", "test_cards.py::test_wd_q5_no_empty_plays"),
    _r("WD-Q6", "cards drawn at G are first playable next day", "test_cards.py::test_wd_q6_cards_drawn_at_g_wait_for_the_next_day"),
    _r("WD-Q7", "Efficiency and Alchemy not on the same conversion (allow_efficiency_with_alchemy)", "test_cards.py::test_wd_q7_efficiency_with_alchemy"),
    _r("WD-V1", "victory checked only at the end of the night (T-24)", "test_end.py::test_t24_win_only_after_g_wd_v1"),
    _r("WD-V2", "someone has honey_to_win: the game ends", "test_end.py::test_t24_win_only_after_g_wd_v1"),
    _r("WD-V3", "rank by honey, then cubes (T-23)", "test_end.py::test_t23_tie_break_wd_v3"),
    _r("WD-V4", "still tied: shared win", "test_end.py::test_wd_v4_shared_win"),
    _r("WD-V5", "eggs, dice, cards, hive size do not count", "test_end.py::test_t23_tie_break_wd_v3"),
    _r("WD-V6", "max_rounds guard flags truncated", "test_end.py::test_wd_v6_max_rounds"),
    _r("WD-QA1", "too much pollen: choose colours to keep", "test_majority.py::test_t19_overflow_wd_d7"),
    _r("WD-QA2", "pollen moves only by card or an F pair", "test_honey.py::test_t10_move_wd_f3"),
    _r("WD-QA3", "honey from one colour only, except with Alchemy", "test_cards.py::test_t26_alchemy_and_efficiency_wd_f7"),
    _r("WD-QA4", "honey needs an equal pair, except with Expertise", "test_cards.py::test_t27_expertise_wd_i18"),
    _r("WD-QA5", "pollen and an egg never share a tile", "test_night.py::test_wd_c1_take_egg"),
    _r("WD-QA6", "more dice: place the rest once the others are done", "test_round.py::test_t13_turn_order_wd_r4"),
    _r("WD-QA7", "a die always has somewhere to go", "test_round.py::test_wd_r6_legal_destinations"),
    _r("WD-QA8", "a die on an empty tile is allowed", "test_round.py::test_wd_qa8_die_on_an_empty_tile"),
    _r("WD-QA9", "no hatch on the day the egg is taken", "test_night.py::test_t18_no_hatch_on_egg_day_wd_b5"),
    _r("WD-QA10", "exhausted supplies: dice come back empty-handed", "test_night.py::test_t31_empty_deck_wd_g2"),
    _r("WD-I1", "blocked cards are A, C, E, G", "test_setup.py::test_t14_three_player_blocking_wd_s8"),
    _r("WD-I2", "2-player redraw from the same set", "test_setup.py::test_t15_two_player_blocking_wd_s9"),
    _r("WD-I3", "start player: uniform random seat", "test_setup.py::test_wd_s5_start_chair"),
    _r("WD-I4", "tile dice: any value, any number, own non-honey tiles", "test_round.py::test_wd_r6_legal_destinations"),
    _r("WD-I5", "B or F decided by the egg at the start of B", "test_honey.py::test_t18_egg_tile_dice_wd_f1"),
    _r("WD-I6", "separate pairs; a split pair links its tiles; one flip per pair", "test_honey.py::test_t28_three_equal_dice_wd_f2"),
    _r("WD-I7", "a split pair links and flips", "test_honey.py::test_t11_move_and_honey_wd_f5"),
    _r("WD-I8", "short supply at D: turn order from S", "test_majority.py::test_t20_short_supply_turn_and_rank"),
    _r("WD-I9", "batch D, then place cubes", "test_majority.py::test_t19_overflow_wd_d7"),
    _r("WD-I10", "E: new cube on any tile with room; paid cubes from any tiles", "test_trade.py::test_t21_trade_feeds_honey_wd_e2"),
    _r("WD-I11", "empty personal supply: no hatch", "test_night.py::test_t25_hatch_dice_cap_wd_b3"),
    _r("WD-I12", "no reshuffle of discards", "test_night.py::test_t31_empty_deck_wd_g2"),
    _r("WD-I13", "discrete card windows: DW0, own turn, DW-end, NW_A..NW_G, in-resolution uses", "test_turn_cards.py::test_wd_i13_wrong_turn_scout_volunteer_then_the_turn_goes_on"),
    _r("WD-I14", "phases of Scout, Wrong Turn, Queen's Gift, Relocation (data)", "test_setup.py::test_wd_s2_s3_s4_s6_supplies"),
    _r("WD-I15", "27 base cards: 13 types x 2 + 1 Overtime (data)", "test_setup.py::test_wd_i15_i17_deck_split"),
    _r("WD-I16", "mini expansion: 3 Volunteer (data)", "test_setup.py::test_wd_i16_mini_expansion_deck"),
    _r("WD-I17", "Kickstarter cards excluded", "test_setup.py::test_wd_i15_i17_deck_split"),
    _r("WD-I18", "one pair per Expertise, one conversion per Efficiency / Alchemy, one flower per Harvest", "test_cards.py::test_t27_expertise_wd_i18"),
    _r("WD-I19", "Shift Change pass: the die waits for a later turn; only while another player has unplaced dice", "test_turn_cards.py::test_wd_i19_shift_change_pass_only_while_others_have_dice"),
    _r("WD-I20", "Feint on your own turn only, instead of its placement, with an unplaced die", "test_turn_cards.py::test_wd_i20_no_feint_without_an_unplaced_die"),
    _r("WD-I21", "ties after honey and pollen: shared win", "test_end.py::test_wd_v4_shared_win"),
    _r("WD-I22", "no dice on honey tiles", "test_round.py::test_wd_r6_legal_destinations"),
    _r("WD-I23", "stray letters carry no rule", "test_setup.py::test_wd_i23_card_names_without_stray_letters"),
    _r("WD-I24", "A always taken; C may be refused", "test_night.py::test_wd_c1_take_egg"),
    _r("WD-I25", "later editions out of scope (blocking_mode variant refused)", "test_setup.py::test_wd_s11_reroll_mode_refused"),
)


# ---- validation ----------------------------------------------------------------------------
def blocked_per_card(values: dict, n_players: int) -> int:
    """Markers per blocked card for ``n_players`` (WD-S7 .. WD-S9)."""
    return values[{2: "blocked_slots_per_card_2p", 3: "blocked_slots_per_card_3p"}.get(
        n_players, "blocked_slots_per_card_4p")]


def validate(values: dict, n_players: int) -> None:
    """Cross-parameter checks (single-parameter ranges are checked by ParamSpec)."""
    if values["blocking_mode"] != "static":
        raise SpecError("parameter 'blocking_mode' = 'reroll_each_round' is a later edition's "
                        "rule that is not implemented yet (valid: static)")
    if values["queen_discard_reshuffle"]:
        raise SpecError("parameter 'queen_discard_reshuffle' = true is not implemented yet "
                        "(valid: false; the discards stay out, WD-I12)")
    dice = values["dice_per_player"]
    if dice != -1 and dice < values["start_pool_dice"]:
        raise SpecError(f"parameter 'start_pool_dice' = {values['start_pool_dice']} must be <= "
                        f"dice_per_player = {dice}")
    bonus = values["seat_bonus_pool_dice"]
    most = max(bonus[min(k, len(bonus) - 1)] for k in range(n_players))
    if dice != -1 and values["start_pool_dice"] + most > dice:
        raise SpecError(f"parameter 'seat_bonus_pool_dice' = {list(bonus)}: start_pool_dice + "
                        f"the bonus = {values['start_pool_dice'] + most} must be <= "
                        f"dice_per_player = {dice} (WD-X2)")
    if dice == 0:
        raise SpecError("parameter 'dice_per_player' = 0 is out of range (valid: -1 = data file, or 1..30)")
    if values["pollen_per_honey"] > values["tile_pollen_capacity"]:
        raise SpecError(f"parameter 'pollen_per_honey' = {values['pollen_per_honey']} must be <= "
                        f"tile_pollen_capacity = {values['tile_pollen_capacity']}")
    tiles = values["hive_tile_supply"]
    if tiles != -1 and tiles < n_players * values["start_hive_tiles"]:
        raise SpecError(f"parameter 'hive_tile_supply' = {tiles} must be >= players x "
                        f"start_hive_tiles = {n_players * values['start_hive_tiles']}")
    if values["start_player_mode"] == "fixed" and values["start_player_fixed_seat"] >= n_players:
        raise SpecError(f"parameter 'start_player_fixed_seat' = {values['start_player_fixed_seat']} "
                        f"is out of range for {n_players} players (valid: 0..{n_players - 1})")
    cards = values["blocked_cards"]
    if len(set(cards)) != len(cards):
        raise SpecError(f"parameter 'blocked_cards' = {cards} has duplicates (0 = A, 1 = C, 2 = E, 3 = G)")
    k = blocked_per_card(values, n_players)
    if k and k + len(cards) > 7:
        raise SpecError(f"{k} markers on each of {len(cards)} cards cannot always be drawn from "
                        f"sets of 6 without a repeat (WD-S9): need markers per card + cards <= 7")
    sets = values["blocking_marker_sets"]
    if sets != -1 and k > sets:
        raise SpecError(f"parameter 'blocking_marker_sets' = {sets} is below the {k} markers per "
                        f"card used with {n_players} players")
    if values["scout_keep"] > values["scout_draw"]:
        raise SpecError(f"parameter 'scout_keep' = {values['scout_keep']} must be <= scout_draw")
    if values["efficiency_cubes"] > values["pollen_per_honey"]:
        raise SpecError(f"parameter 'efficiency_cubes' = {values['efficiency_cubes']} must be <= "
                        f"pollen_per_honey = {values['pollen_per_honey']}")


# ---- components ----------------------------------------------------------------------------
_ACTION_ORDER = ("A", "B", "C", "D1", "D2", "D3", "D4", "D5", "D6", "E", "F", "G")


def load_components(directory: Path | str | None = None) -> Components:
    """Read ``action_cards.csv``, ``queen_cards.csv``, ``flowers.csv`` and ``components.toml``.

    Returns
    -------
    Components whose ``arrays`` are (all int64): ``queen_counts[2, N_QUEEN]`` (base, mini
    expansion), ``cubes[N_COL]`` (supply per colour) and ``meta[CM_LEN]``.
    """
    d = Path(directory) if directory is not None else COMPONENTS_DIR
    if not d.is_dir():
        raise SpecError(f"{d}: components directory not found")
    assumed = False

    path = d / "action_cards.csv"
    rows = cf.read_csv(path, {"card": cf.cell_choice(_ACTION_ORDER, "card"),
                              "slots": cf.cell_int(0, 6), "resolve_order": cf.cell_int(1, 7),
                              "blockable": cf.cell_choice(("true", "false"), "blockable")},
                       unique="card")
    if sorted(r["card"] for r in rows) != list(range(len(_ACTION_ORDER))):
        raise SpecError(f"{path}: needs one row for each of {', '.join(_ACTION_ORDER)}")
    expect = {"A": 1, "B": 2, "C": 3, "E": 5, "F": 6, "G": 7}
    for r in rows:
        name = _ACTION_ORDER[r["card"]]
        want = expect.get(name, 4)
        if r["resolve_order"] != want:
            raise SpecError(f"{path}: row {r['_row']}, column 'resolve_order': card {name} "
                            f"resolves at {want} in the kernel (WD-R11), got {r['resolve_order']}")
        slots = 6 if name in CARD_LETTERS else (1 if name.startswith("D") else 0)
        if r["slots"] != slots:
            raise SpecError(f"{path}: row {r['_row']}, column 'slots': card {name} has {slots} "
                            f"slots in the kernel, got {r['slots']}")
        if (r["blockable"] == 0) != (name in CARD_LETTERS):
            raise SpecError(f"{path}: row {r['_row']}, column 'blockable': only A, C, E, G take "
                            f"blocking markers (WD-S10)")
        assumed |= r["provenance"] == "A"

    path = d / "queen_cards.csv"
    qrows = cf.read_csv(path, {"id": cf.cell_int(0, L.N_QUEEN - 1), "key": cf.cell_choice(QUEEN_KEYS, "key"),
                               "name": cf.cell_str(), "phase": cf.cell_choice(("day", "night"), "phase"),
                               "count_base": cf.cell_int(0, 60), "count_mini": cf.cell_int(0, 6)},
                        unique="id")
    queen = np.zeros((2, L.N_QUEEN), dtype=np.int64)
    for r in qrows:
        if r["key"] != r["id"]:
            raise SpecError(f"{path}: row {r['_row']}: id {r['id']} must be the card "
                            f"'{QUEEN_KEYS[r['id']]}' (ids follow {', '.join(QUEEN_KEYS)})")
        if r["phase"] != QUEEN_PHASES[r["id"]]:
            raise SpecError(f"{path}: row {r['_row']}, column 'phase': the kernel plays "
                            f"{r['name']} in its {('day', 'night')[QUEEN_PHASES[r['id']]]} "
                            f"windows (WD-Q1, WD-I14); another phase is not implemented")
        queen[0, r["id"]], queen[1, r["id"]] = r["count_base"], r["count_mini"]
        assumed |= r["provenance"] == "A"
    if queen.sum() > L.MAX_DECK:
        raise SpecError(f"{path}: {queen.sum()} cards in all; at most {L.MAX_DECK}")

    path = d / "flowers.csv"
    frows = cf.read_csv(path, {"flower": cf.cell_int(1, L.N_COL), "colour": cf.cell_str(),
                               "cubes": cf.cell_int(1, 50)}, unique="flower")
    if len(frows) != L.N_COL:
        raise SpecError(f"{path}: needs one row for each flower 1..{L.N_COL}")
    cubes = np.zeros(L.N_COL, dtype=np.int64)
    colours = [""] * L.N_COL
    for r in frows:
        cubes[r["flower"] - 1] = r["cubes"]
        colours[r["flower"] - 1] = r["colour"]
        assumed |= r["provenance"] == "A"

    path = d / "components.toml"
    data = cf.read_toml(path, required=("blocking", "dice", "hive", "provenance"))
    assumed |= cf.check_toml_provenance(path, data, ("blocking.sets", "dice.per_player",
                                                     "dice.player_colours", "hive.tiles", "hive.eggs"))
    meta = np.zeros(CM_LEN, dtype=np.int64)
    for sect, key, field, lo, hi in (("blocking", "sets", "marker_sets", 0, 6),
                                     ("dice", "per_player", "dice", 1, 30),
                                     ("hive", "tiles", "tiles", 2, L.MAX_HIVE),
                                     ("hive", "eggs", "eggs", 0, 50)):
        table = data[sect]
        v = table.get(key) if isinstance(table, dict) else None
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise SpecError(f"{path}: [{sect}] key '{key}' must be an integer {lo}..{hi}, got {v!r}")
        meta[COMP_META.offset(field)] = v
    player_colours = cf.toml_list(path, data["dice"], "player_colours", cf.cell_str(), 4, 4)
    tables = {"colours": tuple(colours), "player_colours": tuple(player_colours),
              "queen_names": tuple(r["name"] for r in sorted(qrows, key=lambda r: r["id"]))}
    return Components((queen, cubes, meta), d, cf.digest_dir(d), bool(assumed), tables)


# ---- the declared offsets as module attributes (R.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(RULES_BLOCK, POLICY_BLOCK, COMP_META)
