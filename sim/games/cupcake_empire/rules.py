"""Cupcake Empire: rule parameters, variants, policies, rule status and component loading.

The Python side of the rules; it derives the offsets of the packed rule and policy parameters
(``R_*``, ``P_*``) from the ``ParamSpec`` tables for the kernels.

Rule source: ``shared/rules/cupcake_empire.md``. Every constant of §9 is one
:class:`ParamSpec` row below; the data of §2 (columns, regions, supply, goal thresholds) is in
``components/`` (``load_components``). Provenance: the spec's [SRC] is ``[R]``, [PUB] ``[P]``,
[ASM] ``[A]``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from sim import components as cf
from sim.layout import exports, params_block
from sim.presets import shipped
from sim.spec import Components, ParamSpec, PolicySpec, RuleStatus, SpecError, Variant

from . import layout as L

COMPONENTS_DIR = Path(__file__).resolve().parent / "components"
PRESETS_DIR = Path(__file__).resolve().parent / "presets"  # named policies written by `playtest tune`

COLOURS = ("grey", "purple", "yellow", "orange", "green", "pink")
BASES = ("plain", "chocolate", "mixed")
FLAVOURS = ("lemon", "chocolate", "mint", "strawberry")
FROST_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
FROSTINGS = FLAVOURS + tuple(f"{FLAVOURS[a]}/{FLAVOURS[b]}" for a, b in FROST_PAIRS)
REGION_KINDS = ("grey", "yellow", "beige")
DISC_TYPES = ("BASE", "FROST", "SHOP_Y", "SELL2", "INCOME3", "IDEA2")
GOAL_NAMES = tuple(f"{s}{i}" for s in "ABCD" for i in range(1, 6))

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("end_threshold", "int", 70, "Income that triggers the end (CE-E1)", 20, 200, source="[R]"),
    ParamSpec("finish_round", "bool", True, "Finish the round after the trigger; false = end at once (CE-E2)", source="[R]"),
    ParamSpec("goal_bonus", "int", 6, "Income per claimed goal (CE-T6)", 0, 20, source="[R]"),
    ParamSpec("goal_stacks", "int", 4, "4 = goals A-D revealed, 3 = A-C only, 0 = no goals (CE-S3, CE-AMB-05)", 0, 4, source="[A]"),
    ParamSpec("start_income", "int", 5, "Starting income (CE-S5)", 0, 30, source="[R]"),
    ParamSpec("seat_bonus_income", "list", (0,) * L.MAX_PLAYERS, "Extra starting income of seat k (0 = start player; the last value repeats for the seats after it), on top of start_income (CE-S5, CE-S11); income is the score and pays for SP3, SP4 and rest recalls", 0, 20, length=L.MAX_PLAYERS, source="[T]"),
    ParamSpec("start_production", "int", 2, "Starting production (CE-S6)", 0, 10, source="[R]"),
    ParamSpec("start_sales", "int", 1, "Starting sales (CE-S6)", 0, 10, source="[R]"),
    ParamSpec("start_idea_pos", "int", 0, "Idea marker start, 0 = green box (CE-S6); < idea_track_len", 0, 5, source="[R]"),
    ParamSpec("start_ideas", "int", 0, "Idea discs at start (CE-S6)", 0, 3, source="[R]"),
    ParamSpec("start_grey_dice", "int", 3, "Grey dice per player (CE-S4, CE-S8)", 0, 6, source="[R]"),
    ParamSpec("start_colour_dice", "int", 1, "Dice of each colour 1-5 per player, on their own column (CE-S4, CE-S7)", 0, 2, source="[R]"),
    ParamSpec("start_discs", "int", 1, "Random extra-action discs dealt per player at setup (CE-S10)", 0, 2, source="[R]"),
    ParamSpec("initial_menu", "bool", True, "Reverse-order initial menu choice (CE-S11)", source="[R]"),
    ParamSpec("initial_menu_production", "int", 0, "Production added by the initial menu (CE-S11, CE-AMB-06)", 0, 4, source="[A]"),
    ParamSpec("initial_menu_counts_for_goals", "bool", True, "The initial menu counts for A goals (CE-S11, CE-AMB-06)", source="[A]"),
    ParamSpec("menu_prod_ss", "int", 2, "Production of a simple base + simple frosting menu (CE-F1)", 0, 8, source="[R]"),
    ParamSpec("menu_prod_sm", "int", 3, "Production of a menu with one simple and one mixed tile (CE-F1)", 0, 8, source="[R]"),
    ParamSpec("menu_prod_mm", "int", 4, "Production of a mixed + mixed menu (CE-F1)", 0, 8, source="[R]"),
    ParamSpec("idea_cap", "int", 3, "Most idea discs held (§2.3)", 1, 12, source="[R]"),
    ParamSpec("idea_track_len", "int", 3, "Steps per idea on the idea track (CE-T7.4, CE-AMB-16)", 1, 6, source="[P]"),
    ParamSpec("first_six_idea", "int", 1, "Ideas gained for the first 6 of a roll (CE-T7.3)", 0, 2, source="[R]"),
    ParamSpec("own_steps_per_extra_six", "int", 1, "Own idea steps per additional 6 (CE-T7.3)", 0, 3, source="[R]"),
    ParamSpec("others_steps_per_six", "int", 1, "Opponents' idea steps per 6 rolled (CE-T7.3)", 0, 3, source="[R]"),
    ParamSpec("rest_recall_idea_cost", "int", 1, "Ideas to recall any number of rest dice (CE-F2)", 0, 3, source="[R]"),
    ParamSpec("rest_recall_income_per_die", "int", 1, "Income per recalled rest die (CE-F2)", 0, 5, source="[R]"),
    ParamSpec("rest_uses_per_turn", "int", 1, "Rest-area uses per turn (CE-F2)", 0, 3, source="[R]"),
    ParamSpec("specials_per_turn", "int", 1, "Special actions per turn (CE-F3)", 0, 3, source="[R]"),
    ParamSpec("sp_disc_idea_cost", "int", 1, "SP1 cost in ideas", 0, 3, source="[R]"),
    ParamSpec("sp_move_idea_cost", "int", 1, "SP2 cost in ideas", 0, 3, source="[R]"),
    ParamSpec("sp_idea_income_cost", "int", 2, "SP3 cost in income", 0, 10, source="[R]"),
    ParamSpec("sp_move_income_per_die", "int", 3, "SP4 cost per die in income", 0, 10, source="[R]"),
    ParamSpec("shop_sales_gain", "int", 1, "Sales per shop placed from the reserve (CE-A3.2)", 0, 3, source="[R]"),
    ParamSpec("shop_displaced_sales_loss", "int", 1, "Sales lost by a displaced owner (CE-A3.2)", 0, 3, source="[R]"),
    ParamSpec("relocation_sales_gain", "int", 1, "Sales for placing a relocated shop (CE-A3.2, CE-AMB-10)", 0, 1, source="[A]"),
    ParamSpec("bakery_yellow_gain", "int", 1, "Production and sales per yellow bakery (CE-A5 L3)", 0, 4, source="[R]"),
    ParamSpec("bakery_beige_gain", "int", 2, "Production and sales per beige bakery (CE-A5 L4a)", 0, 6, source="[R]"),
    ParamSpec("sell_reach_l1", "int", 2, "Column-4 reach at level 1 (CE-A4)", 1, 4, source="[R]"),
    ParamSpec("sell_reach_l2", "int", 3, "Column-4 reach at level 2 (CE-A4)", 1, 4, source="[R]"),
    ParamSpec("sell_reach_l3", "int", 4, "Column-4 reach at level 3 (CE-A4)", 1, 4, source="[R]"),
    ParamSpec("disc_sell_reach", "int", 2, "Disc X4 SELL2 reach (§2.7)", 1, 4, source="[R]"),
    ParamSpec("disc_income_gain", "int", 3, "Disc X5 INCOME3 income (§2.7)", 0, 10, source="[R]"),
    ParamSpec("disc_idea_steps", "int", 2, "Disc X6 IDEA2 idea steps (§2.7)", 0, 6, source="[R]"),
    ParamSpec("shops_per_player", "int", 6, "Shops per player (CE-S4)", 1, 10, source="[R]"),
    ParamSpec("bakeries_per_player", "int", 3, "Bakeries per player, start bakery included (CE-S4)", 1, 5, source="[R]"),
    ParamSpec("production_max", "int", 20, "Production track maximum (§2.3, CE-AMB-22)", 10, 60, source="[A]"),
    ParamSpec("sales_max", "int", 20, "Sales track maximum (§2.3, CE-AMB-22)", 10, 60, source="[A]"),
    ParamSpec("allow_level0_activation", "bool", True, "Activating a column at level 0 (pure reroll) is legal (CE-T1.1, CE-AMB-13)", source="[A]"),
    ParamSpec("disc_trigger_on_available", "bool", False, "Discs trigger on L_avail instead of L_exec (CE-T3, CE-AMB-07)", source="[A]"),
    ParamSpec("max_rounds", "int", 200, "Safety horizon in rounds; reaching it flags the game truncated (CE-E4; the spec suggests 100, which 2 in 1,000,000 2-player random games reach: they end by round 110)", 20, 500, source="[A]"),
    ParamSpec("end_bonus_points", "list", (0,) * L.MAX_PLAYERS, "Points added to the final score (income) of seat k (0 = start player; the last value repeats for the seats after it) once the game is over, before ranking and tie-breaks (CE-E3): the score column includes it, the income column does not; it never triggers the end (CE-E1)", -50, 50, length=L.MAX_PLAYERS, source="[T]"),
)

PROVENANCE = {
    "[R]": "stated in the rules summary ([SRC] in the spec): the primary source",
    "[P]": "public component lists and reviews of the published game ([PUB])",
    "[A]": "assumption ([ASM]): a documented default, data or a parameter you can change",
    "[T]": "tweak hook: a designer's tool, not a rule of the game; its default leaves the game as the rules have it",
}

VARIANTS: dict[str, Variant] = {
    "base": Variant("base", {}, "Spec defaults: 4 goals (A-D), end at income 70, finish the round."),
    "three_goals": Variant("three_goals", {"goal_stacks": 3},
                           "Only goals A-C, as the rules summary's setup step lists (CE-AMB-05).",
                           rule_ids=("CE-S3",)),
    "no_goals": Variant("no_goals", {"goal_stacks": 0}, "No goal tiles.", rule_ids=("CE-S3", "CE-T6")),
    "no_level0": Variant("no_level0", {"allow_level0_activation": False},
                         "A column below level 1 cannot be activated (CE-AMB-13).",
                         rule_ids=("CE-T1.1",)),
    "neutral_relocation": Variant("neutral_relocation", {"relocation_sales_gain": 0},
                                  "A relocated shop gains no sales (CE-AMB-10).",
                                  rule_ids=("CE-A3",)),
}

# ---- policies (§10.2) --------------------------------------------------------------------------
POLICY_PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("w_income", "float", 1.0, "DP6/DP7: value of 1 immediate income", 0, 10),
    ParamSpec("w_min_track", "float", 1.0, "value of +1 to min(P, S), times the remaining own turns H", 0, 10),
    ParamSpec("h_cap", "float", 12.0, "cap on H = (end_threshold - income) / max(1, min(P, S))", 0, 50),
    ParamSpec("w_excess_track", "float", 0.3, "value of +1 on the larger track", 0, 10),
    ParamSpec("w_goal", "float", 1.0, "multiplier on goal_bonus for a goal an option completes", 0, 10),
    ParamSpec("w_idea", "float", 2.0, "value of 1 idea disc (income units)", 0, 20),
    ParamSpec("w_die", "float", 2.5, "value of a hired die", 0, 20),
    ParamSpec("w_disc", "list", (1.5, 1.5, 1.5, 2.5, 3.0, 1.0), "value of gaining each disc type X1..X6", 0, 20, length=6),
    ParamSpec("w_disc_column", "list", (1.0, 1.0, 1.0, 1.0, 1.0), "preference for disc columns 1..5", 0, 10, length=5),
    ParamSpec("w_denial", "float", 0.5, "DP10: value per opponent sales point removed", 0, 10),
    ParamSpec("w_reach", "float", 0.5, "DP10/DP12: value per reachable matching customer value of a new shop or bakery", 0, 10),
    ParamSpec("w_expert_keep", "float", 0.5, "DP6: value of keeping an expert die in place", 0, 10),
    ParamSpec("recall_min_dice_idea", "int", 2, "DP4: spend an idea on a recall only if >= this many dice return", 1, 12),
    ParamSpec("recall_max_income", "int", 2, "DP4: most income paid per turn for recalls", 0, 20),
    ParamSpec("buy_idea_min_income", "int", 15, "DP5: SP3 only if income >= this", 0, 200),
    ParamSpec("buy_idea_max_held", "int", 1, "DP5: SP3 only if ideas held < this", 0, 12),
    ParamSpec("move_max_income", "int", 3, "DP5: most income per turn on SP4", 0, 30),
    ParamSpec("use_free_actions", "bool", True, "DP4/DP5: use rest recalls and special actions at all (false = greedy_no_free)"),
    ParamSpec("endgame_turns", "float", 2.0, "when H <= this, score only immediate income and goals", 0, 10),
    ParamSpec("prefer_mixed", "float", 0.5, "DP8/DP9/DP3: bias for mixed tiles", 0, 10),
    ParamSpec("customer_w_value", "float", 1.0, "DP11: weight of a customer's sale value", 0, 10),
    ParamSpec("customer_w_goal", "float", 1.0, "DP11: weight of a customer completing a B goal", 0, 10),
    ParamSpec("region_w_customers", "float", 1.0, "DP10/DP12: weight of matching customers in a region", 0, 10),
    ParamSpec("region_w_empty_slot", "float", 0.5, "DP10: bonus for an empty slot (no displacement fight)", 0, 10),
    ParamSpec("l4_bakery_bias", "float", 0.0, "DP12: additive bias for L4(a) bakery over L4(b)", -20, 20),
    ParamSpec("overflow_keep_experts", "bool", True, "DP13: send grey dice to the rest area first"),
    ParamSpec("epsilon", "float", 0.0, "probability of a uniformly random legal choice", 0, 1),
    ParamSpec("careful", "bool", True, "DP4-DP6/DP12: on a turn known to be the seat's last (end triggered; income + min(P, S) reaches end_threshold; round max_rounds) value options by this turn's income only: no income on recalls, SP3, SP4; higher level of columns 1-4 on a tie; no empty-column pass while a column can act (false = version 1.1)"),
)

POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", L.K_RANDOM, "Uniform over the legal options at every decision (SUB_POLICY stream)."),
    "greedy": PolicySpec("greedy", L.K_GREEDY, "One-ply heuristic over every decision point (§10.1) with the §10.2 defaults."),
    "greedy_no_free": PolicySpec("greedy_no_free", L.K_GREEDY,
                                 "Greedy that never uses the rest area or special actions (§10.2 reference).",
                                 {"use_free_actions": False}),
    "salesman": PolicySpec("salesman", L.K_GREEDY,
                           "Greedy that values sales and shops over production: denial, reach and customers weigh more.",
                           {"w_denial": 2.0, "w_reach": 1.5, "customer_w_value": 2.0, "prefer_mixed": 1.5,
                            "w_excess_track": 0.6}),
    # expert (version 1.1): greedy with every numeric parameter but epsilon tuned by `playtest
    # tune` in 2-player games against greedy; the command and held-out result are in the file.
    "expert": PolicySpec("expert", L.K_GREEDY,
                         "greedy tuned by playtest tune (2 players, against greedy; presets/expert.toml): "
                         "values hired dice, raising the lower of production and sales and the level-4 bakery highly, never buys ideas (SP3).",
                         shipped(PRESETS_DIR / "expert.toml", "cupcake_empire")),
}

RULES_BLOCK = params_block("R_", PARAMS, title="rules: float64[R_LEN] (rule parameters)")
R_LEN = RULES_BLOCK.length
POLICY_BLOCK = params_block("P_", POLICY_PARAMS, title="policy parameters: float64[n_players, P_LEN]")
P_LEN = POLICY_BLOCK.length


# ---- rule status ---------------------------------------------------------------------------
def _r(rule_id: str, summary: str, test: str, implemented: bool = True) -> RuleStatus:
    return RuleStatus(rule_id, summary, implemented, f"test: {test}" if implemented else test)


RULES: tuple[RuleStatus, ...] = (
    _r("CE-S1", "24 customers shuffled onto the 24 houses", "test_setup.py::test_ce_s1_customers_fill_houses"),
    _r("CE-S2", "supply per player count (supply.csv); no grey dice", "test_setup.py::test_ce_s2_supply_per_player_count"),
    _r("CE-S3", "one goal revealed per stack A-D (goal_stacks)", "test_setup.py::test_ce_s3_goals_revealed"),
    _r("CE-S4", "8 dice, 3 bakeries, 6 shops per player", "test_setup.py::test_ce_s4_to_s7_player_setup"),
    _r("CE-S5", "income 5 (+ seat_bonus_income of the seat), start bakery in grey, reserve 2", "test_setup.py::test_ce_s5_start_income_and_grey_bakery"),
    _r("CE-S6", "idea marker 0, production 2, sales 1, no ideas", "test_setup.py::test_ce_s6_start_tracks_from_parameters"),
    _r("CE-S7", "coloured dice on their columns", "test_setup.py::test_ce_s4_to_s7_player_setup"),
    _r("CE-S8", "grey dice rolled, 6s rerolled, placed by face", "test_setup.py::test_ce_s8_grey_dice"),
    _r("CE-S9", "shop slots with min_players > N blocked", "test_setup.py::test_ce_s9_blocked_slots"),
    _r("CE-S10", "one random start disc each, on space 1 of a chosen column", "test_setup.py::test_ce_s10_start_discs"),
    _r("CE-S11", "seat 0 starts; initial menus in reverse order, pairs distinct", "test_setup.py::test_t17_initial_menu_order_ce_s11"),
    _r("CE-T1", "one column per turn, L_avail frozen at activation", "test_turn.py::test_t4_level_table_ce_t1"),
    _r("CE-T1.1", "any level 0..L_avail; level 0 = reroll (allow_level0_activation)", "test_turn.py::test_t18_level0_ce_t1_1"),
    _r("CE-T1.2", "used dice = the column's dice at activation", "test_turn.py::test_ce_t1_2_used_dice_only"),
    _r("CE-T2", "the column's action at L_exec", "test_actions.py::test_t1_sell_with_two_green_experts_ce_a4"),
    _r("CE-T3", "discs on space <= L_exec trigger, optional, before or after", "test_discs.py::test_t12_disc_trigger_by_executed_level_ce_t3"),
    _r("CE-T4", "discs placed in S1 trigger at once", "test_discs.py::test_t13_disc_gained_and_used_ce_t4"),
    _r("CE-T5", "S2 income += min(production, sales)", "test_turn.py::test_ce_t5_s2_income_is_the_lower_capped_track"),
    _r("CE-T6", "S2 goals claimed automatically, once, +goal_bonus", "test_turn.py::test_t11_income_and_goal_ce_t5_t6"),
    _r("CE-T7", "S3 rolls used and gained dice", "test_turn.py::test_ce_t7_s3_rolls_used_and_hired_dice_wherever_they_are"),
    _r("CE-T7.1", "faces 1-5 go to that column; overflow chosen to rest", "test_turn.py::test_t8_overflow_to_rest_ce_t7_1"),
    _r("CE-T7.2", "6s go to rest", "test_turn.py::test_t3_two_sixes_and_ideas_ce_t7_3"),
    _r("CE-T7.3", "first 6 an idea, further 6s own steps; others step per 6", "test_turn.py::test_t3_two_sixes_and_ideas_ce_t7_3"),
    _r("CE-T7.4", "idea marker steps; idea on reaching the green box (cap, supply)", "test_turn.py::test_t15_idea_cap_ce_t7_4"),
    _r("CE-T8", "end check after W3", "test_end.py::test_t16_end_of_game_ce_e1_e2_e3"),
    _r("CE-T9", "rest dice stay until recalled", "test_turn.py::test_ce_t9_rest_dice_stay"),
    _r("CE-F1", "menus: +2/+3/+4 production, A counters", "test_free.py::test_t5_menus_and_serving_ce_f1"),
    _r("CE-F2", "rest use once per turn: 1 idea for any number or 1 income per die", "test_free.py::test_ce_f2_rest_recall_stops_at_the_column_capacity"),
    _r("CE-F3", "one special action per turn", "test_free.py::test_ce_f3_one_special_action_per_turn_besides_the_rest_use"),
    _r("SP1", "pay an idea: gain a disc of a chosen type", "test_free.py::test_sp1_disc"),
    _r("SP2", "pay an idea: move one die", "test_free.py::test_sp2_move_one_die"),
    _r("SP3", "pay 2 income: gain an idea", "test_free.py::test_t10_special_actions_ce_f3"),
    _r("SP4", "pay 3 income per die moved", "test_free.py::test_t10_special_actions_ce_f3"),
    _r("CE-F4", "income never below 0", "test_free.py::test_t9_rest_recall_ce_f2"),
    _r("CE-A1", "bake: simple base / mixed / both", "test_actions.py::test_ce_a1_a2_tiles"),
    _r("CE-A2", "frosting: simple / mixed pair / both", "test_actions.py::test_ce_a1_a2_tiles"),
    _r("CE-A3", "shops: yellow / beige / both", "test_actions.py::test_ce_a3_level3_places_a_yellow_and_a_beige_shop"),
    _r("CE-A3.2", "shop placement: reserve or relocation; empty slot or displacement", "test_actions.py::test_t7_relocation_ce_a3_2"),
    _r("CE-A4", "sell: reach 2/3/4", "test_actions.py::test_ce_a4_level1_sells_within_reach_2_in_own_regions_only"),
    _r("CE-A4.2", "sale procedure: own building, reach, served customer", "test_actions.py::test_t1_sell_with_two_green_experts_ce_a4"),
    _r("CE-A5", "hire / hire + disc / yellow bakery + disc / beige bakery or another column", "test_actions.py::test_t14_beige_bakery_ce_a5"),
    _r("CE-A5.4b", "level 4: another column at any level, column 5's discs", "test_actions.py::test_t2_column5_level4_other_column_ce_a5_4b"),
    _r("CE-X1", "six disc types, limited supply", "test_discs.py::test_ce_x1_x4_disc_supply_and_duplicates"),
    _r("CE-X2", "3 disc spaces in columns 1-4, 4 in column 5", "test_discs.py::test_ce_x1_x4_disc_supply_and_duplicates"),
    _r("CE-X3", "a new disc goes on the first empty space", "test_discs.py::test_t13_disc_gained_and_used_ce_t4"),
    _r("CE-X4", "no duplicate type in a column", "test_discs.py::test_ce_x1_x4_disc_supply_and_duplicates"),
    _r("CE-X5", "disc on space p triggers at L_exec >= p, once", "test_discs.py::test_t12_disc_trigger_by_executed_level_ce_t3"),
    _r("CE-X6", "discs are permanent", "test_discs.py::test_t12_disc_trigger_by_executed_level_ce_t3"),
    _r("CE-E1", "end triggered at income >= end_threshold after a turn", "test_end.py::test_t16_end_of_game_ce_e1_e2_e3"),
    _r("CE-E2", "the round is finished (equal turns)", "test_end.py::test_t16_end_of_game_ce_e1_e2_e3"),
    _r("CE-E3", "winner: income, customers, shops on board, shared", "test_end.py::test_ce_e3_rank_by_income_then_customers_then_shops"),
    _r("CE-E4", "max_rounds guard flags truncated", "test_end.py::test_ce_e4_truncation"),
)


# ---- validation ----------------------------------------------------------------------------
def validate(values: dict, n_players: int) -> None:
    """Cross-parameter checks (single-parameter ranges are checked by ParamSpec)."""
    if values["goal_stacks"] not in (0, 3, 4):
        raise SpecError(f"parameter 'goal_stacks' = {values['goal_stacks']} is out of range "
                        f"(valid: 0, 3, 4)")
    if values["start_idea_pos"] >= values["idea_track_len"]:
        raise SpecError(f"parameter 'start_idea_pos' = {values['start_idea_pos']} must be < "
                        f"idea_track_len = {values['idea_track_len']}")
    if values["start_ideas"] > values["idea_cap"]:
        raise SpecError(f"parameter 'start_ideas' = {values['start_ideas']} must be <= "
                        f"idea_cap = {values['idea_cap']}")
    for name in ("start_production", "start_sales"):
        top = values["production_max" if name == "start_production" else "sales_max"]
        if values[name] > top:
            raise SpecError(f"parameter '{name}' = {values[name]} must be <= {top}")


# ---- components ----------------------------------------------------------------------------
def _numbers(lo: int, hi: int, min_len: int, max_len: int):
    def parse(text: str) -> tuple[int, ...]:
        parts = text.split()
        if not min_len <= len(parts) <= max_len:
            raise ValueError(f"'{text}' needs {min_len}..{max_len} numbers")
        out = []
        for p in parts:
            try:
                v = int(p)
            except ValueError:
                raise ValueError(f"'{p}' is not an integer") from None
            if not lo <= v <= hi:
                raise ValueError(f"{v} is out of range ({lo}..{hi})")
            out.append(v)
        return tuple(out)
    return parse


def load_components(directory: Path | str | None = None) -> Components:
    """Read ``columns.csv``, ``regions.csv``, ``supply.csv``, ``goals.csv`` and
    ``components.toml``.

    Returns
    -------
    Components whose ``arrays`` are, in order (all int64):

    0. ``columns[5, CD_LEN]`` (``layout.COLDATA``)
    1. ``regions[6, RD_LEN]`` (``layout.REGDATA``)
    2. ``supply[3, SU_LEN]`` for 2, 3, 4 players (``layout.SUPDATA``)
    3. ``goals[20, GD_LEN]`` A1..D5 (``layout.GOALDATA``)
    4. ``misc[MI_LEN]`` (``layout.MISC``)
    """
    d = Path(directory) if directory is not None else COMPONENTS_DIR
    if not d.is_dir():
        raise SpecError(f"{d}: components directory not found")
    assumed = False

    path = d / "columns.csv"
    rows = cf.read_csv(path, {"column": cf.cell_int(1, L.N_COLS), "max_level": cf.cell_int(1, L.MAX_LEVEL),
                              "capacity": cf.cell_int(1, 12),
                              "expert_colour": cf.cell_choice(COLOURS[1:], "colour"),
                              "thresholds": _numbers(1, 12, 1, L.MAX_THRESH),
                              "disc_spaces": cf.cell_int(1, L.MAX_SPACES)}, unique="column")
    if sorted(r["column"] for r in rows) != list(range(1, L.N_COLS + 1)):
        raise SpecError(f"{path}: column 'column' must list 1..{L.N_COLS} once each")
    cols = np.zeros((L.N_COLS, L.CD_LEN), dtype=np.int64)
    for r in rows:
        k, th = r["column"] - 1, r["thresholds"]
        if list(th) != sorted(set(th)) or th[-1] > r["capacity"]:
            raise SpecError(f"{path}: row {r['_row']}, column 'thresholds': must increase and "
                            f"be <= capacity {r['capacity']}, got {' '.join(map(str, th))}")
        cols[k, L.CD_MAX_LEVEL], cols[k, L.CD_CAPACITY] = r["max_level"], r["capacity"]
        cols[k, L.CD_COLOUR], cols[k, L.CD_SPACES] = r["expert_colour"] + 1, r["disc_spaces"]
        cols[k, L.CD_N_THRESH] = len(th)
        cols[k, L.CD_THRESH:L.CD_THRESH + len(th)] = th
        assumed |= r["provenance"] == "A"

    path = d / "regions.csv"
    rows = cf.read_csv(path, {"region": cf.cell_int(0, L.N_REGIONS - 1),
                              "name": cf.cell_str(), "kind": cf.cell_choice(REGION_KINDS, "kind"),
                              **{f"value_d{i}": cf.cell_int(1, 3) for i in range(1, 5)},
                              "bakery_slots": cf.cell_int(0, L.MAX_SLOTS),
                              "shop_slot_min_players": _numbers(1, 99, 0, L.MAX_SLOTS)},
                       unique="region")
    if sorted(r["region"] for r in rows) != list(range(L.N_REGIONS)):
        raise SpecError(f"{path}: column 'region' must list 0..{L.N_REGIONS - 1} once each")
    regions = np.zeros((L.N_REGIONS, L.RD_LEN), dtype=np.int64)
    region_names = tuple(r["name"] for r in sorted(rows, key=lambda r: r["region"]))
    for r in rows:
        g = r["region"]
        regions[g, L.RD_KIND] = r["kind"]
        for i in range(4):
            regions[g, L.RD_VALUE + i] = r[f"value_d{i + 1}"]
        regions[g, L.RD_BAKERY_SLOTS] = r["bakery_slots"]
        mins = r["shop_slot_min_players"]
        regions[g, L.RD_N_SHOP_SLOTS] = len(mins)
        regions[g, L.RD_SHOP_MIN:L.RD_SHOP_MIN + len(mins)] = mins
        assumed |= r["provenance"] == "A"
    if not any(regions[g, L.RD_KIND] == 0 and regions[g, L.RD_BAKERY_SLOTS] >= 4 for g in range(L.N_REGIONS)):
        raise SpecError(f"{path}: a grey region with 4 bakery slots is needed for the start bakeries (CE-S5)")

    path = d / "supply.csv"
    items = tuple(f.name for f in L.SUPDATA.fields)
    rows = cf.read_csv(path, {"item": cf.cell_choice(items, "item"), "p2": cf.cell_int(0, 99),
                              "p3": cf.cell_int(0, 99), "p4": cf.cell_int(0, 99)}, unique="item")
    got = {r["item"] for r in rows}
    if len(got) != len(items):
        missing = [items[i] for i in range(len(items)) if i not in got]
        raise SpecError(f"{path}: missing row(s) for {', '.join(missing)}")
    supply = np.zeros((3, L.SU_LEN), dtype=np.int64)
    for r in rows:
        for j, col in enumerate(("p2", "p3", "p4")):
            supply[j, r["item"]] = r[col]
        assumed |= r["provenance"] == "A"

    path = d / "goals.csv"
    rows = cf.read_csv(path, {"goal": cf.cell_choice(GOAL_NAMES, "goal"), "first": cf.cell_int(0, 30),
                              "second": cf.cell_int(0, 30)}, unique="goal")
    if len(rows) != L.N_GOALS:
        raise SpecError(f"{path}: needs one row per goal {GOAL_NAMES[0]}..{GOAL_NAMES[-1]}")
    goals = np.zeros((L.N_GOALS, L.GD_LEN), dtype=np.int64)
    for r in rows:
        goals[r["goal"], L.GD_FIRST], goals[r["goal"], L.GD_SECOND] = r["first"], r["second"]
        assumed |= r["provenance"] == "A"

    path = d / "components.toml"
    data = cf.read_toml(path, required=("customers", "provenance"))
    assumed |= cf.check_toml_provenance(path, data, ("customers.per_type",))
    per_type = data["customers"].get("per_type") if isinstance(data["customers"], dict) else None
    if not isinstance(per_type, int) or isinstance(per_type, bool) or per_type * 8 != 24:
        raise SpecError(f"{path}: [customers] per_type must be 3 (8 types fill the 24 houses), got {per_type!r}")
    misc = np.zeros(L.MI_LEN, dtype=np.int64)
    misc[L.MI_PER_TYPE] = per_type

    tables = {"colours": COLOURS, "bases": BASES, "frostings": FROSTINGS, "disc_types": DISC_TYPES,
              "goal_names": GOAL_NAMES, "region_names": region_names}
    return Components((cols, regions, supply, goals, misc), d, cf.digest_dir(d), bool(assumed), tables)


# ---- the declared offsets as module attributes (R.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(RULES_BLOCK, POLICY_BLOCK)
