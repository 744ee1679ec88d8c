"""Rule parameters, variants, policies, rule status and component loading for The Little Flower
Shop Dice Game.

Rule source: ``shared/rules/flower_shop.md`` (rule IDs FS-*, parameters §8, variants §7,
decision points §9, ambiguities §10). Every rule constant is one :class:`ParamSpec` row in
``PARAMS``; the kernel reads them through the ``R_*`` offsets derived from it here
(``RULES_BLOCK``), the policies their parameters through ``P_*`` (``POLICY_BLOCK``). Choice
codes (``SCOPE_DAY``, ``WIN_ANY``, ...) are the index of the choice in its ``ParamSpec``.
"""
from __future__ import annotations

import functools
from itertools import permutations
from pathlib import Path

import numpy as np

from sim.components import (cell_choice, cell_int, cell_str, check_toml_provenance, digest_dir,
                            read_csv, read_toml, toml_list)
from sim.layout import choice_code, exports, params_block
from sim.spec import Components, ParamSpec, PolicySpec, RuleStatus, SpecError, Variant

from . import layout as L
from .conflicts import load_conflicts
from .tasks import derive_tile_columns

COMPONENTS_DIR = Path(__file__).resolve().parent / "components"

_TB_ITEMS = ("money", "wild_tokens", "ribbons")
TIEBREAK_CHOICES = ("none",) + tuple(
    "+".join(p) for k in (1, 2, 3) for p in permutations(_TB_ITEMS, k))

P = ParamSpec
PARAMS: tuple[ParamSpec, ...] = (
    P("days", "int", 6, "Days (rounds) in a game (FS-D1)", 1, 12, source="[R]"),
    P("shop_rows", "int", 2, "Rows of the shop grid (§2.6)", 1, L.MAX_SHOP_ROWS, source="[P]"),
    P("shop_cols", "int", 3, "Columns of the shop grid (§2.6)", 1, L.MAX_SHOP_COLS, source="[P]"),
    P("flower_dice_per_player", "int", 4, "Flower dice per player (FS-S2)", 1, L.MAX_FLOWER_DICE, source="[R]"),
    P("vase_dice_per_player", "int", 1, "Vase dice per player (FS-S2)", 1, L.MAX_VASE_DICE, source="[R]"),
    P("starting_money", "int", 5, "Money at setup (FS-S2)", 0, 20, source="[R]"),
    P("seat_bonus_money", "list", (0,) * L.MAX_PLAYERS,
      "Extra money at setup for seat k (the seat column; the last value repeats for the seats "
      "after it), on top of starting_money (FS-S2). Multiplayer only: solo refuses a non-zero "
      "value", 0, 20, length=L.MAX_PLAYERS, source="[T]"),
    P("row_size_offset", "int", 1, "Multiplayer row = n_players + offset (FS-S4, FS-N4)", 0, 3, source="[R]"),
    P("free_locks_max", "int", 2, "Dice lockable for free in one Step 1 (FS-L2)", 1, 6, source="[R]"),
    P("min_locks", "int", 1, "Minimum dice to lock unless paying the skip cost (FS-L1, FS-L4)", 0, 6, source="[R]"),
    P("extra_lock_cost_schedule", "list", (1, 1, 1, 1),
      "Cost of the j-th extra die beyond the free ones; the last value repeats (FS-L3, FS-V-VHARD-1)",
      0, 10, length=L.LIST_SLOTS, source="[R]"),
    P("extra_lock_cost_scope", "choice", "step",
      "Extras counted per Step 1 (step) or across the whole day (day; sensitivity only) (FS-L3)",
      choices=("step", "day"), source="[R]"),
    P("skip_lock_cost", "int", 1, "Cost to lock no dice; -1 forbids skipping (FS-L4)", -1, 5, source="[R]"),
    P("salary_2p", "list", (3, 1), "Salary cards with 2 players (FS-S7)", 0, 6, length=L.SALARY_SLOTS, source="[R]"),
    P("salary_3p", "list", (3, 2, 1), "Salary cards with 3 players (FS-S7)", 0, 6, length=L.SALARY_SLOTS, source="[R]"),
    P("salary_4p", "list", (4, 3, 2, 1), "Salary cards with 4 players (FS-S7)", 0, 6, length=L.SALARY_SLOTS, source="[R]"),
    P("money_per_die", "int", 1, "'Take money' yield per die (FS-U6)", 0, 3, source="[R]"),
    P("dice_per_wild", "int", 2, "Dice spent per 'take wild token' (FS-U5)", 1, 5, source="[R]"),
    P("wild_token_max", "int", 5, "Max wild tokens held (FS-U5, FS-U7)", 0, 20, source="[R]"),
    P("wild_token_cost", "int", 3, "Price of a wild token (FS-U7)", 1, 10, source="[R]"),
    P("wild_cap_applies_to_buy", "bool", True, "Whether the token cap also limits bought tokens (AMB-09)", source="[D]"),
    P("wild_token_supply", "int", 20, "Shared wild token supply (FS-S6)", 0, 40, source="[R]"),
    P("ribbon_cost", "int", 5, "Ribbon price, only when finishing (FS-U4)", 1, 10, source="[R]"),
    P("ribbon_supply", "int", 11, "Shared ribbons (FS-S6, AMB-10)", 0, 32, source="[R]"),
    P("ribbon_points", "int", 1, "Points per ribbon (FS-E2)", 0, 3, source="[R]"),
    P("max_ribbons_per_tile", "int", 1, "Ribbons per tile (FS-U4)", 1, 3, source="[RV]"),
    P("task_row_points_default", "int", 2, "Points per satisfied row if the card leaves it blank (FS-E3)", 0, 5, source="[A]"),
    P("task_col_points_default", "int", 1, "Points per satisfied column if the card leaves it blank (FS-E3)", 0, 5, source="[A]"),
    P("task_requires_full_line", "bool", True, "A line needs all its slots finished to count (AMB-12)", source="[D]"),
    P("n_task_cards", "int", 1, "Task cards in a multiplayer game (FS-S5)", 1, L.MAX_CARDS_IN_PLAY, source="[R]"),
    P("initiative_tie_break", "choice", "seat", "Turn-order tie rule (FS-D5)", choices=("seat", "random"), source="[A]"),
    P("initiative_assignment", "choice", "random", "How initiative dice are dealt in multiplayer (FS-S3)",
      choices=("random", "fixed"), source="[A]"),
    P("tiebreak_order", "choice", "money+wild_tokens",
      "End-of-game tie-breakers in order, joined by '+' (FS-E4, AMB-11)", choices=TIEBREAK_CHOICES, source="[R]"),
    P("solo_row_size", "int", 4, "Tiles per solo row (FS-SOLO-S3, FS-V-HARD-1)", 1, L.MAX_ROW, source="[RV]"),
    P("solo_salary", "list", (3, 2, 1, 1), "Solo salary cards (FS-SOLO-S6)", 0, 6, length=L.MAX_SAL, source="[RV]"),
    P("solo_player_die", "choice", "I-D", "Player's initiative die in solo (FS-SOLO-S1)", choices=L.DIE_IDS, source="[RV]"),
    P("solo_opponent_die", "choice", "I-A", "Opponent die in solo (FS-SOLO-S2)", choices=L.DIE_IDS, source="[RV]"),
    P("solo_discard_on_lower", "bool", True, "Discard a row tile when o < p (FS-SOLO-R2)", source="[RV]"),
    P("solo_always_discard", "bool", False,
      "Discard a tile on every opponent roll, whatever the comparison (FS-SOLO-R3, FS-V-HARD-2)", source="[RV]"),
    P("solo_salary_remove_on_lower", "choice", "lowest", "Salary card returned when o < p (FS-SOLO-R2)",
      choices=("lowest", "highest", "none"), source="[RV]"),
    P("solo_salary_remove_on_higher", "choice", "highest", "Salary card returned when o > p (FS-SOLO-R3)",
      choices=("lowest", "highest", "none"), source="[RV]"),
    P("solo_tie_rule", "choice", "none", "Effect of o = p (FS-SOLO-R4, AMB-16)",
      choices=("none", "as_lower", "as_higher"), source="[A]"),
    P("solo_min_row_tiles", "int", 1, "Opponent discards never take the row below this (FS-SOLO-R2, AMB-17)", 0, 3, source="[RV]"),
    P("solo_odd_side", "choice", "left", "Side discarded on an odd o; even = the other side (FS-SOLO-R2)",
      choices=("left", "right"), source="[RV]"),
    P("solo_refresh_cost", "int", 3, "Price of a new solo row between days (FS-SOLO-N2)", 0, 10, source="[RV]"),
    P("solo_max_refreshes_per_day", "int", 1, "Refreshes per day (FS-SOLO-N2, AMB-20)", 0, 3, source="[A]"),
    P("solo_task_cards", "int", 1, "Task cards in solo (FS-SOLO-S4, FS-V-EASY-1, FS-V-HELL-1)", 1,
      L.MAX_CARDS_IN_PLAY, source="[RV]"),
    P("solo_win_rule", "choice", "all", "Solo win needs all / any of the cards (FS-SOLO-E1, FS-V-EASY-2)",
      choices=("all", "any"), source="[RV]"),
    P("solo_require_compatible_tasks", "bool", False, "Redraw conflicting card pairs (FS-V-HELL-2)", source="[RV]"),
    P("solo_feasibility_mode", "choice", "lines", "End-of-day solo feasibility line check (FS-SOLO-C4, AMB-18)",
      choices=L.FEASIBILITY_MODES, source="[A]"),
    P("solo_check_capacity", "bool", True, "Solo capacity check (FS-SOLO-C5)", source="[A]"),
    P("reshuffle_discards_when_empty", "bool", False,
      "Reshuffle discarded tiles into the stack when it is empty (FS-SOLO-N4, AMB-21)", source="[A]"),
    P("end_bonus_points", "list", (0,) * L.MAX_PLAYERS,
      "Points added to the final score of seat k (the seat column; the last value repeats for the "
      "seats after it) at the game end, before ranking and tie-breaks (FS-E2, FS-E4): the score "
      "column includes it, stars, ribbons and task points do not. Multiplayer only: solo has a "
      "win condition, not a ranking (FS-SOLO-E1), and refuses a non-zero bonus",
      -50, 50, length=L.MAX_PLAYERS, source="[T]"),
)

# What the provenance tags of the parameters and component data mean (spec, head of the file).
PROVENANCE = {
    "[R]": "stated in the rulebook (English, multiplayer rules)",
    "[RV]": "stated in the rules review (full rules, including the solo mode and its variants)",
    "[P]": "stated in public previews of a prototype: weaker than [R] and [RV]",
    "[D]": "derived from [R], [RV] or [P] by arithmetic or consistency",
    "[A]": "assumption: a documented default, not a fact; data or a parameter you can change",
    "[T]": "tweak hook: a designer's tool, not a rule of the game; its default leaves the game as the rules have it",
}

VARIANTS: dict[str, Variant] = {
    "base": Variant("base", {}, "The rulebook game for 2-4 players.", players=(2, 4)),
    "solo_base": Variant("solo_base", {}, "Solo mode as in the rules review (§6).", players=(1, 1),
                         rule_ids=("FS-SOLO-S1",)),
    "solo_easy": Variant("solo_easy", {"solo_task_cards": 2, "solo_win_rule": "any"},
                         "Easier: 2 task cards, win if at least one is fully satisfied.",
                         players=(1, 1), rule_ids=("FS-V-EASY-1", "FS-V-EASY-2")),
    "solo_hard": Variant("solo_hard", {"solo_row_size": 5, "solo_always_discard": True},
                         "Slightly harder: row of 5, a tile discarded on every opponent roll.",
                         players=(1, 1), rule_ids=("FS-V-HARD-1", "FS-V-HARD-2", "FS-V-HARD-3")),
    "solo_very_hard": Variant("solo_very_hard", {"extra_lock_cost_schedule": (1, 2, 3, 4)},
                              "Much harder: extra locks cost $1, $2, $3, $4 within one step (A-10).",
                              players=(1, 1), rule_ids=("FS-V-VHARD-1", "FS-V-VHARD-2")),
    "solo_very_hard_one_free": Variant("solo_very_hard_one_free", {"free_locks_max": 1},
                                       "Much harder, second (open) reading of the source's "
                                       "garbled sentence: one free lock per step.",
                                       players=(1, 1), rule_ids=("FS-V-VHARD-1",)),
    "solo_hell": Variant("solo_hell", {"solo_task_cards": 2, "solo_require_compatible_tasks": True,
                                       "solo_win_rule": "all"},
                         "Hell: 2 compatible task cards, both must be fully satisfied.",
                         players=(1, 1), rule_ids=("FS-V-HELL-1", "FS-V-HELL-2", "FS-V-HELL-3")),
}

# ---- policies ---------------------------------------------------------------------------
POLICY_PARAMS: tuple[ParamSpec, ...] = (
    P("n_targets", "int", 2, "DP-1: target tiles dice are locked for (best first)", 1, 4),
    P("w_stars", "float", 1.0, "DP-1/2: weight of a tile's stars", 0, 10),
    P("w_task", "float", 2.0, "DP-1/2: weight of task-line potential gained at a slot", 0, 30),
    P("w_prob", "float", 1.0, "DP-1: weight per icon already matched by the dice", 0, 10),
    P("w_now", "float", 4.0, "DP-2: bonus if the tile can be finished in this Step 4", 0, 30),
    P("w_tokens", "float", 1.0, "DP-1/2: penalty per wild token a finish would need", 0, 10),
    P("w_other_card", "float", 1.0,
      "DP-1/2 (solo, when any one card wins, FS-V-EASY-2): weight of the cards other than the one "
      "closest to done in the task gains (1 = every card alike, 0 = commit to one)", 0, 1),
    P("w_future", "float", 1.0, "DP-2: weight of the chance to finish the tile on a later day", 0, 10),
    P("max_paid_extras_per_step", "int", 1, "DP-1: extra (paid) dice locked in one step", 0, 4),
    P("money_reserve", "int", 0, "DP-1: money kept when paying for locks", 0, 20),
    P("skip_if_no_match", "bool", True, "DP-1: pay to lock nothing when no unlocked die is useful", ),
    P("max_skips_per_day", "int", 1, "DP-1: paid skips per day", 0, 10),
    P("fill_free_locks", "bool", False,
      "DP-1 lock tempo: when fewer dice are wanted than lock for free, lock more (lowest index first) "
      "up to the free count; each unused free lock costs a roll, in solo also a roll of the opponent die"),
    P("init_lock_min", "int", 20, "DP-1: lock the initiative die early when its face >= this", 1, 25),
    P("init_lock_last", "bool", False, "DP-1: lock the initiative die only with the final dice"),
    P("rush_factor", "float", 1.0,
      "DP-1: $ per other active player the policy pays to finish locking when its target is complete", 0, 5),
    P("finish_priority", "choice", "stars", "DP-3: order of finishes", choices=("stars", "fewest_tokens")),
    P("max_tokens_per_finish", "int", 5, "DP-3: tokens spent on one finish", 0, 20),
    P("token_reserve", "int", 0, "DP-3: tokens kept (not spent on finishes)", 0, 5),
    P("buy_wild_to_finish", "bool", True, "DP-3: buy tokens to complete a finish"),
    P("max_buys_per_day", "int", 3, "DP-3/6: token purchases per day", 0, 10),
    P("ribbon_money_reserve", "int", 5,
      "DP-4: buy a ribbon if money - cost >= this (5 since version 1.4: a ribbon is 1 point for "
      "$5, money that locks and tokens turn into more; with 0 greedy lost to novice in multiplayer)",
      0, 99),
    P("ribbon_min_day", "int", 1, "DP-4: first day on which ribbons are bought", 1, 12),
    P("wild_stock_target", "int", 2, "DP-5/6: tokens the policy likes to hold", 0, 5),
    P("leftover_pref", "choice", "wild", "DP-5: leftover dice go to tokens first or money",
      choices=("wild", "money")),
    P("convert_before_finish", "bool", True,
      "DP-5: take money with a spare die before finishing when that makes the ribbon affordable (TS-07)"),
    P("buy_wild_stock_money_min", "int", 8, "DP-6: buy stock tokens only with at least this money", 0, 40),
    P("refresh_if_no_feasible_tile", "bool", True, "DP-7: refresh the solo row if no tile passes the check"),
    P("refresh_if_best_tile_score_below", "float", -1000.0, "DP-7: refresh if the best tile scores below this", -1000, 1000),
    P("refresh_money_reserve", "int", 0, "DP-7: money kept after a refresh", 0, 20),
    P("solo_check_placements", "bool", True,
      "DP-2 (solo): only place tiles that pass the feasibility check afterwards"),
    P("solo_win_focus", "bool", True,
      "DP-1/2/4 (solo): play for the win, not the score: ignore stars, buy no ribbons (keep the "
      "money for tokens), pay no skips (each extra roll also rolls the opponent die)"),
)

# ---- offsets and choice codes derived from the tables ---------------------------------
RULES_BLOCK = params_block("R_", PARAMS, title="rules: float64[R_LEN] (rule parameters)")
R_LEN = RULES_BLOCK.length
POLICY_BLOCK = params_block("P_", POLICY_PARAMS, title="policy parameters: float64[n_players, P_LEN]")
P_LEN = POLICY_BLOCK.length


SCOPE_STEP = choice_code(PARAMS, "extra_lock_cost_scope", "step")
SCOPE_DAY = choice_code(PARAMS, "extra_lock_cost_scope", "day")
TIE_SEAT = choice_code(PARAMS, "initiative_tie_break", "seat")
TIE_RANDOM = choice_code(PARAMS, "initiative_tie_break", "random")
ASSIGN_RANDOM = choice_code(PARAMS, "initiative_assignment", "random")
ASSIGN_FIXED = choice_code(PARAMS, "initiative_assignment", "fixed")
# salary card removed by the opponent die (also the card a player takes: the lowest)
SAL_LOWEST = choice_code(PARAMS, "solo_salary_remove_on_lower", "lowest")
SAL_HIGHEST = choice_code(PARAMS, "solo_salary_remove_on_lower", "highest")
SAL_NONE = choice_code(PARAMS, "solo_salary_remove_on_lower", "none")
STIE_NONE = choice_code(PARAMS, "solo_tie_rule", "none")
STIE_AS_LOWER = choice_code(PARAMS, "solo_tie_rule", "as_lower")
STIE_AS_HIGHER = choice_code(PARAMS, "solo_tie_rule", "as_higher")
SIDE_LEFT = choice_code(PARAMS, "solo_odd_side", "left")
WIN_ALL = choice_code(PARAMS, "solo_win_rule", "all")
WIN_ANY = choice_code(PARAMS, "solo_win_rule", "any")
TB_MONEY, TB_TOKENS, TB_RIBBONS = (_TB_ITEMS.index(x) for x in ("money", "wild_tokens", "ribbons"))
PRIORITY_STARS = choice_code(POLICY_PARAMS, "finish_priority", "stars")
PREF_WILD = choice_code(POLICY_PARAMS, "leftover_pref", "wild")

POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", L.K_RANDOM, "Uniform over the legal options of every decision point."),
    "greedy": PolicySpec("greedy", L.K_GREEDY, "Parameterized heuristic covering DP-1..DP-8."),
    "thrifty": PolicySpec("thrifty", L.K_GREEDY, "Greedy that never pays for extra locks or skips.",
                          {"max_paid_extras_per_step": 0, "skip_if_no_match": False, "max_skips_per_day": 0,
                           "rush_factor": 0.0}),
    "novice": PolicySpec("novice", L.K_GREEDY, "Solo beginner: one target, little task planning, no refresh.",
                         {"n_targets": 1, "w_task": 1.0, "w_now": 2.0, "refresh_if_no_feasible_tile": False,
                          "ribbon_money_reserve": 3, "wild_stock_target": 1, "solo_win_focus": False}),
    # expert (version 1.3): `playtest tune flower_shop --players 1 --variant solo_base --policy
    # expert --trials 300 --games 10000 --validation-games 40000 --seed 1`, started from the
    # version 1.2 expert (a coordinate search, 5.9% solo_base wins at seed 1) with lock tempo
    # (fill_free_locks) on: held-out 6.8% -> 8.5%; then card commitment (w_other_card 0.5,
    # version 1.3.1: solo_easy 9.8% -> 10.4%). README "How expert was found".
    "expert": PolicySpec("expert", L.K_GREEDY,
                         "Solo expert, tuned for the solo win (playtest tune on solo_base): four targets, "
                         "strong task planning (in solo_easy mostly for the card closest to done), both free "
                         "locks used and no paid ones, cheapest finishes first, a row refresh only when its "
                         "tiles score very low.",
                         {"n_targets": 4, "w_stars": 1.94, "w_task": 6.453, "w_prob": 2.315, "w_now": 6.003,
                          "w_tokens": 2.88, "w_future": 2.159, "max_paid_extras_per_step": 0,
                          "money_reserve": 0, "max_skips_per_day": 3, "init_lock_min": 4,
                          "rush_factor": 1.094, "max_tokens_per_finish": 5, "token_reserve": 0,
                          "max_buys_per_day": 4, "ribbon_money_reserve": 89, "ribbon_min_day": 3,
                          "wild_stock_target": 4, "buy_wild_stock_money_min": 0,
                          "refresh_if_best_tile_score_below": -592.4, "refresh_money_reserve": 3,
                          "finish_priority": "fewest_tokens", "refresh_if_no_feasible_tile": False,
                          "fill_free_locks": True, "w_other_card": 0.5}),
}

# ---- rule status ------------------------------------------------------------------------
_RS = RuleStatus
RULES: tuple[RuleStatus, ...] = (
    _RS("FS-S1", "Seats 0..n-1; seat index only for ties"),
    _RS("FS-S2", "Each player: empty shop, dice, $5 (+ seat_bonus_money of the seat), 0 tokens, 0 ribbons"),
    _RS("FS-S3", "Initiative dice dealt at random (or fixed)"),
    _RS("FS-S4", "Shuffled public stack; row of n + offset tiles"),
    _RS("FS-S5", "Random task card(s)"),
    _RS("FS-S6", "Supply: money, ribbons, wild tokens"),
    _RS("FS-S7", "Salary area per player count"),
    _RS("FS-S8", "Day 1, all dice unlocked"),
    _RS("FS-D1", "Game lasts `days` days"),
    _RS("FS-D2", "Start of day: unlock all dice, all players active"),
    _RS("FS-D3", "Phase 1: active players roll unlocked dice"),
    _RS("FS-D4", "Turn order by initiative face, high to low"),
    _RS("FS-D5", "Initiative ties: lower seat (or random)"),
    _RS("FS-D6", "Phase 2: Step 1, then Steps 2-4 when all dice locked"),
    _RS("FS-D7", "Repeat Phase 1/2 while anyone is active"),
    _RS("FS-D8", "Termination (max-cycles guard sets truncated)"),
    _RS("FS-L1", "Choose a set of unlocked dice to lock"),
    _RS("FS-L2", "1-2 locks are free"),
    _RS("FS-L3", "Extra locks cost the schedule"),
    _RS("FS-L4", "Lock none: pay the skip cost"),
    _RS("FS-L5", "Only affordable choices are legal"),
    _RS("FS-L6", "Locked dice keep their faces"),
    _RS("FS-L7", "Steps 2-4 only when all dice are locked"),
    _RS("FS-Y1", "Salary: lowest remaining card"),
    _RS("FS-Y2", "Empty salary area: no salary"),
    _RS("FS-T1", "Take one row tile (mandatory)"),
    _RS("FS-T2", "Place it in any empty slot"),
    _RS("FS-T3", "Placement is permanent"),
    _RS("FS-T4", "Empty row: skip Step 3"),
    _RS("FS-U1", "Finish a tile with dice/tokens"),
    _RS("FS-U2", "Minimum-token assignment; tokens anywhere"),
    _RS("FS-U3", "Fuchsia = any flower; vase die only for vases"),
    _RS("FS-U4", "Ribbon only when finishing, $5, 1 per tile"),
    _RS("FS-U5", "Take a token with 2 dice (cap 5)"),
    _RS("FS-U6", "Take $1 with 1 die"),
    _RS("FS-U7", "Buy a token for $3 (cap 5)"),
    _RS("FS-U8", "Tokens and money carry over; unused dice wasted"),
    _RS("FS-U9", "Unfinished tiles stay and can be finished later"),
    _RS("FS-N1", "Day ends when all players did Step 4"),
    _RS("FS-N2", "Solo: feasibility check first"),
    _RS("FS-N3", "Discard the row"),
    _RS("FS-N4", "Refill the row"),
    _RS("FS-N5", "Reset the salary area"),
    _RS("FS-N6", "Next day"),
    _RS("FS-E1", "Remove unfinished tiles at game end"),
    _RS("FS-E2", "Score = stars + ribbons + task points"),
    _RS("FS-E3", "Task points per satisfied line (both cards add)"),
    _RS("FS-E4", "Ranking with tie-breaks money, tokens; shared places"),
    _RS("FS-E5", "Per-player analytics columns", note="placed/finished day per tile kept in the state "
        "(replay), not as output columns"),
    _RS("FS-SOLO-S1", "Solo player die I-D"),
    _RS("FS-SOLO-S2", "Opponent die I-A"),
    _RS("FS-SOLO-S3", "Solo row of 4"),
    _RS("FS-SOLO-S4", "Solo task card(s)"),
    _RS("FS-SOLO-S5", "Solo supply"),
    _RS("FS-SOLO-S6", "Solo salary 3,2,1,1"),
    _RS("FS-SOLO-R1", "Opponent roll after the player's roll"),
    _RS("FS-SOLO-R2", "Lower: lowest salary card out, discard by parity"),
    _RS("FS-SOLO-R3", "Higher: highest salary card out"),
    _RS("FS-SOLO-R4", "Equal: no effect (configurable)"),
    _RS("FS-SOLO-R5", "Empty salary area: money part does nothing"),
    _RS("FS-SOLO-R6", "Row stays ordered"),
    _RS("FS-SOLO-R7", "Outcome probabilities (statistical test)"),
    _RS("FS-SOLO-C1", "End-of-day feasibility check; loss recorded with the day"),
    _RS("FS-SOLO-C2", "Feasibility definitions (solo.py)"),
    _RS("FS-SOLO-C3", "Structural fail conditions (solo.py)"),
    _RS("FS-SOLO-C4", "Line check modes (solo.py)"),
    _RS("FS-SOLO-C5", "Capacity check (solo.py)"),
    _RS("FS-SOLO-C6", "Win rule all/any in the check (solo.py)"),
    _RS("FS-SOLO-N1", "Solo refill of the row"),
    _RS("FS-SOLO-N2", "Optional paid refresh (policy DP-7)"),
    _RS("FS-SOLO-N3", "Solo salary reset"),
    _RS("FS-SOLO-N4", "No reshuffle (configurable)"),
    _RS("FS-SOLO-E1", "Solo win: card(s) fully satisfied"),
    _RS("FS-SOLO-E2", "Solo records score and loss day (7 at the end)"),
    _RS("FS-V-EASY-1", "Easier: 2 task cards"),
    _RS("FS-V-EASY-2", "Easier: win with any card"),
    _RS("FS-V-HARD-1", "Slightly harder: row of 5"),
    _RS("FS-V-HARD-2", "Slightly harder: discard on every opponent roll"),
    _RS("FS-V-HARD-3", "Slightly harder: salary removal and keep-last unchanged"),
    _RS("FS-V-VHARD-1", "Much harder: escalating extra-lock costs"),
    _RS("FS-V-VHARD-2", "Much harder: skip still costs $1"),
    _RS("FS-V-HELL-1", "Hell: 2 task cards"),
    _RS("FS-V-HELL-2", "Hell: redraw conflicting second card"),
    _RS("FS-V-HELL-3", "Hell: both cards must be satisfied"),
)


# ---- components ---------------------------------------------------------------------------
def load_components(directory: Path | str | None = None) -> Components:
    """Read and validate the component files of ``directory`` (default: the shipped data).

    Returns
    -------
    Components with ``arrays`` = (tiles int64[n_tiles, TL_W], tasks int64[n_cards, TK_W],
    conflicts int64[n_cards, n_cards], flower_die int64[n_faces] (type index, -1 = any),
    vase_die int64[n_faces] (colour index), initiative int64[4, 6]) and ``tables`` holding the
    names used by replay.
    """
    d = Path(directory) if directory is not None else COMPONENTS_DIR
    if not d.is_dir():
        raise SpecError(f"components directory {d} does not exist")
    toml_path = d / "components.toml"
    keys = ("flower_types", "vase_colours", "knickknacks", "flower_die_faces", "vase_die_faces",
            "initiative_dice", "solo_player_die", "solo_opponent_die")
    cfg = read_toml(toml_path, keys)
    assumed = check_toml_provenance(toml_path, cfg, keys)
    flowers = toml_list(toml_path, cfg, "flower_types", cell_str(), 1, L.MAX_FLOWER_TYPES)
    vases = toml_list(toml_path, cfg, "vase_colours", cell_str(), 1, 32)
    knicks = toml_list(toml_path, cfg, "knickknacks", cell_str(), 1, 32)
    for key, names in (("flower_types", flowers), ("vase_colours", vases), ("knickknacks", knicks)):
        if len(set(n.lower() for n in names)) != len(names):
            raise SpecError(f"{toml_path}: key '{key}' has duplicate names")
    if "any" in [f.lower() for f in flowers]:
        raise SpecError(f"{toml_path}: key 'flower_types': 'any' is reserved for wild die faces")
    fd = toml_list(toml_path, cfg, "flower_die_faces", cell_choice(flowers + ["any"], "flower name"),
                   1, L.MAX_FACES)
    flower_die = np.array([-1 if i == len(flowers) else i for i in fd], dtype=np.int64)
    vase_die = np.array(toml_list(toml_path, cfg, "vase_die_faces", cell_choice(vases, "vase colour"),
                                  1, L.MAX_FACES), dtype=np.int64)
    idice = cfg["initiative_dice"]
    if not isinstance(idice, dict) or list(idice) != list(L.DIE_IDS):
        raise SpecError(f"{toml_path}: [initiative_dice] must define exactly {', '.join(L.DIE_IDS)} in order")
    init = np.zeros((4, 6), dtype=np.int64)
    for k, die in enumerate(L.DIE_IDS):
        vals = toml_list(toml_path, idice, die, cell_int(1, 99), 6, 6)
        init[k] = vals
    for key in ("solo_player_die", "solo_opponent_die"):
        if cfg[key] not in L.DIE_IDS:
            raise SpecError(f"{toml_path}: key '{key}' = {cfg[key]!r} is not a die id "
                            f"(valid: {', '.join(L.DIE_IDS)})")

    tile_cols = {"tile_id": cell_str()}
    for f in flowers:
        tile_cols[f] = cell_int(0, 9)
    tile_cols.update({"any_flower": cell_int(0, 9), "vase": cell_choice(vases, "vase colour"),
                      "knickknack": cell_choice(knicks, "knickknack"), "stars": cell_int(0, 20)})
    tile_rows = read_csv(d / "tiles.csv", tile_cols, unique="tile_id")
    if len(tile_rows) > L.MAX_TILES:
        raise SpecError(f"{d / 'tiles.csv'}: {len(tile_rows)} tiles; at most {L.MAX_TILES} are supported")
    tiles = np.zeros((len(tile_rows), L.TL_W), dtype=np.int64)
    for i, r in enumerate(tile_rows):
        for j, f in enumerate(flowers):
            tiles[i, j] = r[f]
        tiles[i, L.TL_ANY] = r["any_flower"]
        tiles[i, L.TL_VASE] = r["vase"]
        tiles[i, L.TL_KNICK] = r["knickknack"]
        tiles[i, L.TL_STARS] = r["stars"]
        if sum(r[f] for f in flowers) + r["any_flower"] == 0:
            raise SpecError(f"{d / 'tiles.csv'}: row {r['_row']}, column 'any_flower': a tile needs at "
                            f"least one flower icon")
        assumed |= r["provenance"] == "A" or bool(r.get("assumption_id"))
    derive_tile_columns(tiles)

    cond = cell_choice(L.CONDITIONS, "condition")
    task_rows = read_csv(d / "tasks.csv", {
        "task_id": cell_str(), "row_condition": cond, "row_param": cell_int(0, 200, blank=0),
        "row_points": cell_int(0, 20, blank=-1), "col_condition": cond,
        "col_param": cell_int(0, 200, blank=0), "col_points": cell_int(0, 20, blank=-1)},
        unique="task_id")
    if len(task_rows) > L.MAX_CARDS:
        raise SpecError(f"{d / 'tasks.csv'}: {len(task_rows)} cards; at most {L.MAX_CARDS} are supported")
    tasks = np.zeros((len(task_rows), L.TK_W), dtype=np.int64)
    for i, r in enumerate(task_rows):
        tasks[i] = (r["row_condition"], r["row_param"], r["row_points"],
                    r["col_condition"], r["col_param"], r["col_points"])
        assumed |= r["provenance"] == "A" or bool(r.get("assumption_id"))

    tables = {
        "flower_types": flowers, "vase_colours": vases, "knickknacks": knicks,
        "tile_ids": [r["tile_id"] for r in tile_rows], "task_ids": [r["task_id"] for r in task_rows],
        "tasks": task_rows, "tiles": tile_rows, "die_ids": list(L.DIE_IDS),
        "flower_die_faces": fd, "solo_player_die": cfg["solo_player_die"],
        "solo_opponent_die": cfg["solo_opponent_die"],
    }
    conflicts = np.asarray(load_conflicts(d, [r["task_id"] for r in task_rows], tasks, tiles),
                           dtype=np.int64)
    tables["conflicts_source"] = "task_conflicts.csv"
    if conflicts.shape != (len(task_rows), len(task_rows)):
        raise SpecError(f"{d}: task conflict matrix has shape {conflicts.shape}, expected "
                        f"{(len(task_rows), len(task_rows))}")
    arrays = (tiles, tasks, np.ascontiguousarray(conflicts), flower_die, vase_die, init)
    return Components(arrays=arrays, source_dir=d, digest=digest_dir(d), assumed=bool(assumed),
                      tables=tables)


N_ARRAYS = 6  # the arrays of load_components; a solo run's kernels get SOLO_MARK as a 7th
SOLO_MARK = np.ones(1, dtype=np.int64)


def kernel_components(arrays: tuple, player_counts: tuple) -> tuple:
    """The component arrays of kernels that play games of ``player_counts``
    (``GameSpec.kernel_components``): with solo games among them, ``SOLO_MARK`` as one more. The
    type of the tuple (7 arrays, not 6) makes Numba compile the solo feasibility solver
    (FS-SOLO-C1..C6, ``solo_feasible``) only into kernels that may play a solo game: the
    multiplayer game never calls it, and it is about a quarter of the game's compile."""
    return tuple(arrays) + (SOLO_MARK,) if 1 in player_counts else tuple(arrays)


@functools.lru_cache(maxsize=1)
def _default_n_tiles() -> int:
    return int(load_components(None).arrays[0].shape[0])


def validate(values: dict, n_players: int) -> None:
    """Cross-parameter constraints (raise SpecError naming the parameters)."""
    v = values
    if v["min_locks"] > v["free_locks_max"]:
        raise SpecError(f"min_locks = {v['min_locks']} must be <= free_locks_max = {v['free_locks_max']}")
    slots = v["shop_rows"] * v["shop_cols"]
    if v["days"] > slots:
        raise SpecError(f"days = {v['days']} must be <= shop_rows*shop_cols = {slots} (one tile per day)")
    n_tiles = _default_n_tiles()
    if n_players >= 2:
        row = n_players + v["row_size_offset"]
        if row > L.MAX_ROW:
            raise SpecError(f"n_players + row_size_offset = {row} exceeds the maximum row of {L.MAX_ROW}")
        if row < 1:
            raise SpecError("the row of available tiles would be empty")
        need = row * v["days"]
        if need > n_tiles and not v["reshuffle_discards_when_empty"]:
            raise SpecError(f"(n_players + row_size_offset) * days = {need} tiles needed but the tile "
                            f"set has {n_tiles}; lower days/row_size_offset or set "
                            f"reshuffle_discards_when_empty=true")
    else:
        if v["solo_player_die"] == v["solo_opponent_die"]:
            raise SpecError("solo_opponent_die must differ from solo_player_die")
        if any(x != 0 for x in v["end_bonus_points"]):
            raise SpecError(f"parameter 'end_bonus_points' = {list(v['end_bonus_points'])} must be "
                            f"all 0 in solo: a solo game is won by its task cards (FS-SOLO-E1), "
                            f"not by a ranking the bonus could change")
        if any(x != 0 for x in v["seat_bonus_money"]):
            raise SpecError(f"parameter 'seat_bonus_money' = {list(v['seat_bonus_money'])} must be "
                            f"all 0 in solo: a solo game has no seats to balance; set "
                            f"starting_money instead")
    if v["shop_rows"] * v["shop_cols"] > L.MAX_SLOTS:
        raise SpecError(f"shop_rows*shop_cols must be <= {L.MAX_SLOTS}")


# ---- the declared offsets as module attributes (R.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(RULES_BLOCK, POLICY_BLOCK)
