"""Rattlebones: rule parameters, variants, policies, rule status and component loading.

The Python side of the rules. It also derives the offsets of the packed rule and policy
parameters (``R_*``, ``P_*``) from the ``ParamSpec`` tables, the policy configuration array
``cfg`` (``C_*``) and the codes of choice parameters (``STACK_ADD``, ...), for the kernels.

Rule source: ``shared/rules/rattlebones.md`` (spec version 1). Every numeric constant of §8 is
one :class:`ParamSpec` row below (``n_players`` is the ``--players`` argument, not a parameter).
Provenance letters follow ``sim/components.py``: the spec's [S] (rules summary) is ``[R]``,
[P] is ``[P]``, [A] is ``[A]`` with its AMB id, [D] is ``[D]``.

Parameters that duplicate a component datum (``stock_count``, ``point_face_supply``,
``action_face_supply``, ``gold_supply``, ``star_supply``, ``train_track``, ``gamble_faces``)
default to ``-1``, meaning "use the component data file"; any other value overrides the file.
``track_length`` of §8 comes from the board data (the number of rows of the chosen preset).
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

# Face names in code order (FC_* in layout.py; checked by a test).
FACE_NAMES = (
    "EMPTY", "RINGMASTER", "PIP_2", "PIP_3", "PIP_4", "PIP_5", "PIP_6", "NINE",
    "POINTS_1", "POINTS_2", "POINTS_3", "POINTS_4", "POINTS_5", "THIEF", "ARROW", "RANK_1234",
    "DOUBLE", "GAMBLE", "TRAIN", "REROLL", "STOCK", "STAR", "GOLD",
)
FACE_SHORT = (
    "-", "R", "2", "3", "4", "5", "6", "9", "P1", "P2", "P3", "P4", "P5", "THIEF", "ARROW",
    "1234", "2x", "GAMBLE", "TRAIN", "REROLL", "STOCK", "STAR", "GOLD",
)
ACTION_FACES = ("NINE", "THIEF", "ARROW", "RANK_1234", "DOUBLE", "GAMBLE", "TRAIN", "REROLL",
                "STOCK", "STAR", "GOLD")
POINT_FACES = ("POINTS_1", "POINTS_2", "POINTS_3", "POINTS_4", "POINTS_5")
SPACE_KINDS = ("EMPTY", "START", "FACE", "PLUS1", "SLOT")
BOARD_PRESETS = ("base", "points_row", "custom")
TILE_NAMES = ("NINE", "THIEF", "ARROW", "RANK_1234", "STOCK", "GOLD", "REROLL", "STAR", "TRAIN",
              "PLUS1", "DOUBLE", "GAMBLE")

_TILE_DOC = ", ".join(f"{i}={n}" for i, n in enumerate(TILE_NAMES))

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("ringmaster_start_2p", "int", 55, "Initial Ringmaster position R, 2 players (RB-S8)", 10, 200, source="[R]"),
    ParamSpec("ringmaster_start_3p", "int", 60, "Initial R, 3 players (RB-S8)", 10, 200, source="[R]"),
    ParamSpec("ringmaster_start_4p", "int", 65, "Initial R, 4 players (RB-S8)", 10, 200, source="[R]"),
    ParamSpec("ringmaster_step", "int", 1, "R decrement per Ringmaster result (RB-T8, RB-E1)", 0, 5, source="[R]"),
    ParamSpec("end_inclusive", "bool", False, "End when a score >= R (true) instead of > R (false) (RB-E2, AMB-01)", source="[R]"),
    ParamSpec("n_monkeys", "int", 3, "Monkeys per player (RB-S4)", 1, 5, source="[R]"),
    ParamSpec("n_dice", "int", 3, "Dice per player (RB-S5)", 1, 5, source="[R]"),
    ParamSpec("max_dice_per_turn", "int", 3, "Dice rolled per turn, Reroll included; <= n_dice (RB-T1, RB-F8)", 1, 5, source="[R]"),
    ParamSpec("gold_per_extra_die", "int", 1, "Gold per die beyond the first; 0 = free (RB-T1)", 0, 5, source="[R]"),
    ParamSpec("starting_gold", "int", 0, "Gold per player at setup (RB-S4, AMB-27)", 0, 10, source="[A]"),
    ParamSpec("starting_stars", "int", 0, "Stars per player at setup (RB-S4)", 0, 10, source="[A]"),
    ParamSpec("seat_bonus_gold", "list", (0, 0, 0, 0), "Setup gold for the k-th player in turn order; tweak hook, not a rule (RB-S10)", 0, 10, length=4, source="[T]"),
    ParamSpec("seat_bonus_points", "list", (0, 0, 0, 0), "Setup points for the k-th player in turn order; tweak hook (RB-S10)", 0, 10, length=4, source="[T]"),
    ParamSpec("board_preset", "choice", "base", "Board layout preset of components/board.csv (§2.3, AMB-21)", choices=BOARD_PRESETS, source="[A]"),
    ParamSpec("tile_pool", "list", tuple(range(12)), f"Tile codes eligible for drawing (RB-S2): {_TILE_DOC}", 0, 11, length=12, source="[P]"),
    ParamSpec("tiles_used", "int", 7, "Tiles drawn per game, placed on SLOT spaces in index order; capped at the slots and the pool (RB-S2)", 0, 12, source="[R]"),
    ParamSpec("star_exchange", "list", (0, 3, 7, 11, 15), "Points for cashing k = 0,1,2,... stars at START; non-decreasing (RB-P2)", 0, 100, length=11, source="[R]"),
    ParamSpec("shop_max_stars", "int", 4, "Maximum stars per exchange (RB-P2, AMB-03)", 1, 10, source="[R]"),
    ParamSpec("shop_on_pass", "bool", False, "The START shop also triggers when passing START, once per movement (RB-P1, AMB-02)", source="[A]"),
    ParamSpec("shop_exchanges_per_landing", "int", 1, "Star exchanges per landing (RB-P2, AMB-03)", 1, 3, source="[A]"),
    ParamSpec("stock_count", "int", -1, "Stocks in the game; -1 = components.toml [tokens] stock (5) (RB-S7, RB-F9)", -1, 10, source="[R]"),
    ParamSpec("stock_pay_first", "int", 10, "Stock scoring: sole first (RB-F10)", 0, 30, source="[R]"),
    ParamSpec("stock_pay_second", "int", 5, "Stock scoring: sole second after a sole first (RB-F10)", 0, 30, source="[R]"),
    ParamSpec("stock_pay_tie_first", "int", 7, "Stock scoring: each tied first (RB-F10)", 0, 30, source="[R]"),
    ParamSpec("stock_pay_after_tie_first", "int", 2, "Stock scoring: each of the group after a tied first (RB-F10, AMB-18)", 0, 30, source="[R]"),
    ParamSpec("stock_pay_tie_second", "int", 2, "Stock scoring: each tied second after a sole first (RB-F10, AMB-18)", 0, 30, source="[D]"),
    ParamSpec("stock_pay_monopoly", "int", 15, "Stock scoring: sole holder of all stocks (RB-F10)", 0, 40, source="[R]"),
    ParamSpec("rank_points", "list", (1, 2, 3, 4), "RANK_1234 payout for ranks 1..4 (RB-F4, AMB-26)", 0, 10, length=4, source="[R]"),
    ParamSpec("point_face_max", "int", 5, "Highest point face; +1 upgrades only POINTS_k with k < this (RB-P3, RB-P4)", 1, 5, source="[R]"),
    ParamSpec("point_face_supply", "list", (-1,), "Piles of POINTS_1..5; -1 = components/face_supply.csv (5/4/3/2/1) (RB-S3, AMB-15)", -1, 30, length=5, source="[A]"),
    ParamSpec("action_face_supply", "int", -1, "Pile size of each of the 11 action faces; -1 = face_supply.csv (15 each) (RB-S3)", -1, 30, source="[P]"),
    ParamSpec("gold_supply", "int", -1, "Gold in the supply, 0 = unlimited; -1 = components.toml (20) (RB-F12, AMB-17)", -1, 100, source="[P]"),
    ParamSpec("star_supply", "int", -1, "Stars in the supply, 0 = unlimited; -1 = components.toml (20) (RB-F11, AMB-17)", -1, 100, source="[P]"),
    ParamSpec("train_track", "list", (-1,), "Train space values, 2..20 of them; -1 = components.toml [train] (0..9) (RB-F7, AMB-23)", -1, 50, length=20, source="[A]"),
    ParamSpec("gamble_faces", "list", (-1,), "The 6 gamble-die faces: 1..8 = that many points, 0 = RINGMASTER, 9 = NINE; -1 = components.toml (RB-F6)", -1, 9, length=6, source="[R]"),
    ParamSpec("nine_move_min", "int", 1, "Smallest NINE / Gamble-9 distance (RB-F13, AMB-12)", 1, 13, source="[A]"),
    ParamSpec("nine_move_max", "int", 9, "Largest NINE / Gamble-9 distance (RB-F13)", 1, 13, source="[R]"),
    ParamSpec("ringmaster_face_move", "int", 1, "Spaces of the optional move after a Ringmaster result (RB-T8)", 0, 3, source="[R]"),
    ParamSpec("double_multiplier", "int", 2, "Double factor (RB-F5)", 1, 4, source="[R]"),
    ParamSpec("double_stacking", "choice", "multiply", "k Doubles on one die: multiply m^k, add 1+k(m-1), forbid = one per target (RB-F5, AMB-08)", choices=("multiply", "add", "forbid"), source="[A]"),
    ParamSpec("double_affects_thief", "bool", False, "A doubled Thief takes mult tokens per victim (RB-F2, AMB-20)", source="[A]"),
    ParamSpec("reroll_mandatory", "bool", True, "Reroll must be applied (RB-F8, AMB-10)", source="[A]"),
    ParamSpec("reroll_second_scope", "choice", "all", "Second and later reroll events reroll all dice, or only Reroll dice plus the new die (RB-F8, AMB-10)", choices=("all", "reroll_only"), source="[A]"),
    ParamSpec("move_optional", "bool", True, "A number result may be declined (RB-T6, AMB-04)", source="[R]"),
    ParamSpec("arrow_targets", "choice", "adjacent", "An arrow may target adjacent slots only, or any other slot (§2.2, AMB-05)", choices=("adjacent", "any"), source="[A]"),
    ParamSpec("arrow_number_mode", "choice", "resolve", "Arrow -> number/Ringmaster is resolved, or has no effect (RB-F3, AMB-06)", choices=("resolve", "none"), source="[A]"),
    ParamSpec("plus1_any_die", "bool", False, "The +1 upgrade may target any own die (RB-P3, AMB-14)", source="[A]"),
    ParamSpec("max_turns", "int", 1000, "Safety cap in player turns; reaching it flags the game truncated (RB-E5)", 100, 10000, source="[A]"),
    ParamSpec("end_bonus_points", "list", (0,) * L.MAX_PLAYERS, "Points added to the final score of seat k (0 = start player; the last value repeats for the seats after it) once the game is over, before ranking and tie-breaks (RB-E3): the score column includes it; it never triggers the end (RB-E2)", -50, 50, length=L.MAX_PLAYERS, source="[T]"),
)

# What the provenance tags of the parameters and component data mean (spec, head of the file).
PROVENANCE = {
    "[R]": "stated in the rules summary of the 2014 rules ([S] in the spec): the primary source",
    "[P]": "public information on the English edition (rulebook component list, reviews)",
    "[D]": "derived from the rules summary by logic",
    "[A]": "assumption: a documented default, not a fact; data or a parameter you can change",
    "[T]": "tweak hook: a designer's tool, not a rule of the game; its default leaves the game as the rules have it",
}

VARIANTS: dict[str, Variant] = {
    "base": Variant("base", {}, "Spec defaults: score must exceed R, base board, 5/4/3/2/1 point faces."),
    "end_inclusive": Variant("end_inclusive", {"end_inclusive": True},
                             "Game ends when a score reaches R (English reviews' reading, AMB-01).",
                             rule_ids=("RB-E2",)),
    "points_row": Variant("points_row", {"board_preset": "points_row"},
                          "Alternative board: preprinted POINTS_1..5 and GOLD spaces (AMB-21).",
                          rule_ids=("RB-S2",)),
    "no_thief": Variant("no_thief", {"tile_pool": (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)},
                        "THIEF tile left out of the pool, as reviews suggest.", rule_ids=("RB-S2",)),
    "nine_exact": Variant("nine_exact", {"nine_move_min": 9}, "NINE moves exactly 9 (AMB-12).",
                          rule_ids=("RB-F13",)),
    "flat_points": Variant("flat_points", {"point_face_supply": (15,)},
                           "15 of each point face (AMB-15 alternative).", rule_ids=("RB-S3",)),
    "short_train": Variant("short_train", {"train_track": (0, 1, 2, 3, 4, 5, 6, 7)},
                           "Train track 0..7 (AMB-23 alternative).", rule_ids=("RB-F7",)),
    "symmetric_train": Variant("symmetric_train", {"train_track": (0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)},
                               "Symmetric 12-space train loop (AMB-23 alternative).", rule_ids=("RB-F7",)),
}

# ---- policies ------------------------------------------------------------------------------
POLICY_PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("gold_reserve", "int", 0, "D01/D04: keep at least this much gold; Double prefers GOLD below it", 0, 20),
    ParamSpec("extra_dice_mode", "choice", "threshold", "D01: never / max / threshold (extra die only if its value >= extra_die_min_value)", choices=("never", "max", "threshold")),
    ParamSpec("extra_die_min_value", "float", 0.8, "D01: minimum die_value of an extra die", 0, 20),
    ParamSpec("v_ringmaster", "float", 0.5, "face value of RINGMASTER (fixed slot; used in die_value)", -5, 20),
    ParamSpec("v_pip", "float", 1.0, "face value of PIP_k", -5, 20),
    ParamSpec("v_nine", "float", 1.5, "face value of NINE", -5, 20),
    ParamSpec("v_points", "list", (1, 2, 3, 4, 5), "face values of POINTS_1..5", -5, 20, length=5),
    ParamSpec("w_points", "float", 4.0, "D06/D08/D10: weight of the point faces: POINTS_k is worth w_points x v_points[k] (it scores on every roll); 1 = a POINTS_1 is worth no more than a pip and +1 is never taken", 0, 10),
    ParamSpec("v_gold", "float", 2.0, "face value of GOLD", -5, 20),
    ParamSpec("v_star", "float", 3.5, "face value of STAR", -5, 20),
    ParamSpec("v_train", "float", -1.0, "face value of TRAIN; -1 = mean of the train track", -1, 50),
    ParamSpec("v_rank", "float", -1.0, "face value of RANK_1234; -1 = (n+1)/2", -1, 20),
    ParamSpec("v_gamble", "float", 2.5, "face value of GAMBLE", -5, 20),
    ParamSpec("v_double", "float", 1.5, "face value of DOUBLE", -5, 20),
    ParamSpec("v_reroll", "float", 1.5, "face value of REROLL", -5, 20),
    ParamSpec("v_thief_per_opponent", "float", 0.8, "face value of THIEF per opponent", -5, 20),
    ParamSpec("v_stock", "float", 2.0, "face value of STOCK", -5, 20),
    ParamSpec("arrow_penalty", "float", 0.2, "ARROW value = value of its target minus this", -5, 20),
    ParamSpec("keep_moves", "int", 2, "D06/D08/D10: while a die has at most this many number faces (pips, NINE) in slots 2..6, each counts v_keep_move more when it would be replaced; 0 = off", 0, 5),
    ParamSpec("v_keep_move", "float", 4.0, "D06/D08/D10: extra value of each of a die's last keep_moves number faces", 0, 20),
    ParamSpec("install_margin", "float", 0.0, "D08/D10: install only if the value gain exceeds this", -5, 20),
    ParamSpec("protect_arrow_targets", "bool", True, "D08: a slot targeted by an arrow counts once more per arrow"),
    ParamSpec("avoid_ringmaster_target", "bool", False, "D09: never point an arrow at the Ringmaster slot if another target exists"),
    ParamSpec("plus1_prefer_upgrade", "bool", True, "D10: on equal gain prefer the upgrade"),
    ParamSpec("w_install", "float", 1.0, "D06: weight of the install gain of a landing", 0, 20),
    ParamSpec("w_shop", "float", 0.3, "D06: weight of shop points of a landing on START", 0, 20),
    ParamSpec("star_cash_min", "int", 1, "D11: cash stars only when holding at least this many", 1, 10),
    ParamSpec("star_hoard_max", "int", 4, "D01-D03: STAR faces count 0 in die values while holding at least this many stars or when the star supply is dry; 0 = never", 0, 20),
    ParamSpec("cash_all_if_gap_le", "int", 6, "D11: cash as many as allowed when R - own score <= this", 0, 200),
    ParamSpec("gains_first", "bool", True, "D05: resolve gains before Ringmaster results"),
    ParamSpec("ringmaster_last_if_not_leading", "bool", True, "D05: resolve Ringmaster results last when not leading"),
    ParamSpec("moves_before_abilities", "bool", False, "D05: resolve number results before abilities"),
    ParamSpec("decline_if_below", "float", -1.0, "D06/D07/D13: decline a move whose best value is below this (if declining is legal)", -5, 20),
    ParamSpec("monkey_tiebreak", "choice", "rearmost", "D06: among equal moves prefer the rearmost or frontmost monkey", choices=("rearmost", "frontmost")),
    ParamSpec("w_steal_gold", "float", 1.0, "D12: preference for stealing gold", 0, 10),
    ParamSpec("w_steal_star", "float", 2.0, "D12: preference for stealing a star", 0, 10),
    ParamSpec("w_steal_stock", "float", 3.0, "D12: preference for stealing a stock", 0, 10),
    ParamSpec("stock_race_override", "bool", True, "D12: take a stock when the victim holds at least as many as we do"),
)

# The parameter values of greedy before the fixes of issue 14 (rattlebones v1.0.0): the
# ``novice`` rung of the ladder random < novice < greedy < expert.
NOVICE = {"w_points": 1.0, "keep_moves": 0, "star_cash_min": 4, "star_hoard_max": 0,
          "w_shop": 0.3}

POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", L.K_RANDOM, "Uniform over the legal options at every decision (SUB_POLICY stream)."),
    "greedy": PolicySpec("greedy", L.K_GREEDY, "One-step heuristic over every decision point (§9) with the baseline face values."),
    "novice": PolicySpec("novice", L.K_GREEDY,
                         "greedy before its fixes (v1.0.0): a POINTS_1 is worth no more than a pip, "
                         "dice may lose every number face, stars wait for full exchanges.",
                         NOVICE),
    "aggressive": PolicySpec("aggressive", L.K_GREEDY,
                             "Spends all gold on dice, cashes stars at once, loves thieves and Ringmaster-first.",
                             {"extra_dice_mode": "max", "star_cash_min": 1, "v_thief_per_opponent": 1.5,
                              "gains_first": False, "ringmaster_last_if_not_leading": False,
                              "monkey_tiebreak": "frontmost", "w_shop": 1.0}),
    "hoarder": PolicySpec("hoarder", L.K_GREEDY,
                          "Keeps 3 gold, values tokens highly, cashes only full exchanges of 4 stars.",
                          {"gold_reserve": 3, "v_gold": 3.0, "v_star": 4.5, "v_stock": 3.0,
                           "star_cash_min": 4, "cash_all_if_gap_le": 3, "w_shop": 0.2}),
    # expert (version 1.2): greedy tuned by `playtest tune` in 2-player games against greedy,
    # every numeric parameter but the four that keep greedy from stalling (star_cash_min,
    # star_hoard_max, keep_moves, v_keep_move: tuned too, they gave 0.1% of 2-player games over
    # 100 rounds); the command and held-out result are in the file.
    "expert": PolicySpec("expert", L.K_GREEDY,
                         "greedy tuned by playtest tune (2 players, against greedy; presets/expert.toml): "
                         "keeps 3 gold, values train, stock, gamble and reroll results highly; greedy's star "
                         "cashing and last number faces.",
                         shipped(PRESETS_DIR / "expert.toml", "rattlebones")),
}


# ---- offsets and codes for the kernels (derived from the tables above) ---------------------
RULES_BLOCK = params_block("R_", PARAMS, title="rules: float64[R_LEN] (rule parameters)")
R_LEN = RULES_BLOCK.length
POLICY_BLOCK = params_block("P_", POLICY_PARAMS, title="policy parameters: float64[n_players, P_LEN]")
P_LEN = POLICY_BLOCK.length


STACK_ADD = choice_code(PARAMS, "double_stacking", "add")
STACK_FORBID = choice_code(PARAMS, "double_stacking", "forbid")
SCOPE_REROLL_ONLY = choice_code(PARAMS, "reroll_second_scope", "reroll_only")
ARROW_ANY = choice_code(PARAMS, "arrow_targets", "any")
ARROWNUM_NONE = choice_code(PARAMS, "arrow_number_mode", "none")
MODE_NEVER = choice_code(POLICY_PARAMS, "extra_dice_mode", "never")
MODE_MAX = choice_code(POLICY_PARAMS, "extra_dice_mode", "max")
TIE_REARMOST = choice_code(POLICY_PARAMS, "monkey_tiebreak", "rearmost")

# The policy configuration array ``cfg`` (float64, one per game, filled by policies.fill_cfg):
# passing one array instead of rules + kinds + policy parameters keeps the calls of the hot
# loop narrow (every array argument is reference counted at each call). Its first R_LEN slots
# are the rules, so every R_* offset reads the same value from ``cfg`` as from ``rules``.
CFG_BLOCK = Block("C_", (
    ("rules", R_LEN, "copy of the rules (R_* offsets)"),
    ("kind", L.MAX_PLAYERS, "policy kind K_* of each seat"),
    ("pp", L.MAX_PLAYERS * P_LEN, "policy parameters of each seat: C_PP + seat * P_LEN + P_*"),
    ("fv", L.MAX_PLAYERS * L.N_FACES,
     "face_value table of each seat: C_FV + seat * N_FACES + face"),
    ("sv", L.N_SLOTS, "scratch: slot values of one die (policies._prep_die)"),
    ("w", L.N_SLOTS, "scratch: install weights of that die"),
    ("dv", L.MAX_DICE, "scratch: die values of one seat (policies.die_values)"),
), title="policy configuration cfg: float64[C_LEN] (policies.fill_cfg)")
C_LEN = CFG_BLOCK.length

# ---- rule status ---------------------------------------------------------------------------
def _r(rule_id: str, summary: str, test: str, implemented: bool = True) -> RuleStatus:
    return RuleStatus(rule_id, summary, implemented, f"test: {test}")


RULES: tuple[RuleStatus, ...] = (
    _r("RB-S1", "2-4 players", "test_setup.py::test_rb_s1_player_count"),
    _r("RB-S2", "7 of the tile pool drawn and placed on SLOT spaces in index order", "test_setup.py::test_rb_s2_tiles_on_slots"),
    _r("RB-S3", "face piles from face_supply", "test_setup.py::test_rb_s3_face_piles"),
    _r("RB-S4", "monkeys on START, score 0, starting gold/stars, no stocks", "test_setup.py::test_rb_s4_s5_players_and_dice"),
    _r("RB-S5", "dice hold the start faces, no arrows", "test_setup.py::test_rb_s4_s5_players_and_dice"),
    _r("RB-S6", "train on index 0", "test_setup.py::test_rb_s6_s7_s8_train_supplies_ringmaster"),
    _r("RB-S7", "stock/gold/star supplies, less setup deals", "test_setup.py::test_rb_s6_s7_s8_train_supplies_ringmaster"),
    _r("RB-S8", "R = 55/60/65 for 2/3/4 players", "test_setup.py::test_rb_s6_s7_s8_train_supplies_ringmaster"),
    _r("RB-S9", "random start player: seat 0 is the start player by definition; the draw is the game column start_chair", "test_setup.py::test_rb_s9_start_chair_uniform"),
    _r("RB-S10", "seat_bonus_gold / seat_bonus_points hooks by turn order", "test_setup.py::test_rb_s10_seat_bonus"),
    _r("RB-S11", "RNG consumption order: tiles, start seat, rolls, rerolls, gamble", "test_setup.py::test_rb_s11_rng_order"),
    _r("RB-T1", "extra dice for gold", "test_turn.py::test_rb_t1_extra_dice_cost"),
    _r("RB-T2", "choice of which dice to roll", "test_turn.py::test_rb_t2_dice_choice"),
    _r("RB-T3", "a roll shows a uniform slot", "test_chance.py::test_rb_t3_fresh_die_distribution"),
    _r("RB-T4", "roll phase: rerolls until none applies", "test_reroll.py::test_ts06a_reroll_chain_rb_t4_f8"),
    _r("RB-T5", "Doubles declared first, then dice resolved one by one in a free order", "test_turn.py::test_rb_t5_free_order_and_double_declaration"),
    _r("RB-T6", "number result moves one monkey N clockwise, optional", "test_turn.py::test_rb_t6_number_move_wraps_and_optional"),
    _r("RB-T7", "landing: install offered face on the moving die; never triggers the ability", "test_turn.py::test_rb_t7_landing_install"),
    _r("RB-T8", "Ringmaster: R-1, end check, then optional 1-space move", "test_turn.py::test_rb_t8_ringmaster_result"),
    _r("RB-T9", "ability faces apply their effect and never move", "test_turn.py::test_rb_t9_ability_does_not_move"),
    _r("RB-T10", "free assignment; several dice may move the same monkey", "test_turn.py::test_ts01_worked_example_rb_t13"),
    _r("RB-T11", "a replacement changes only the die being resolved", "test_turn.py::test_rb_t11_replacement_only_moving_die"),
    _r("RB-T12", "turn ends when all rolled dice are resolved; next seat clockwise", "test_turn.py::test_rb_t12_next_seat"),
    _r("RB-T13", "worked example (TS-01)", "test_turn.py::test_ts01_worked_example_rb_t13"),
    _r("RB-P1", "START shop on landing only (shop_on_pass option)", "test_spaces.py::test_ts10_start_shop_rb_p1_p2"),
    _r("RB-P2", "star exchange 0/3/7/11/15, never doubled, end check", "test_spaces.py::test_ts10_start_shop_rb_p1_p2"),
    _r("RB-P3", "+1 space: POINTS_1 into a slot, or upgrade, or decline", "test_spaces.py::test_ts11_plus1_limited_supply_rb_p3"),
    _r("RB-P4", "+1 never scores, no upgrade past 5 or the supply", "test_spaces.py::test_rb_p4_plus1_never_scores_no_upgrade_past_max"),
    _r("RB-F1", "POINTS_k: +k x mult", "test_faces.py::test_rb_f1_points"),
    _r("RB-F2", "THIEF: one token from each opponent holding any", "test_faces.py::test_ts12_thief_rb_f2"),
    _r("RB-F3", "ARROW resolves the targeted slot of the same die", "test_faces.py::test_ts02_arrow_at_train_rb_f3"),
    _r("RB-F4", "RANK_1234 with ties taking the better rank", "test_faces.py::test_ts09_rank_1234_rb_f4"),
    _r("RB-F5", "DOUBLE modifier on another rolled die", "test_faces.py::test_ts04_double_with_gold_rb_f5"),
    _r("RB-F6", "GAMBLE die: 2-5 points, Ringmaster, NINE move", "test_faces.py::test_ts13_gamble_rb_f6"),
    _r("RB-F7", "TRAIN scores the track value and advances", "test_faces.py::test_ts02_arrow_at_train_rb_f3"),
    _r("RB-F8", "REROLL in the roll phase (chains, added die)", "test_reroll.py::test_ts06a_reroll_chain_rb_t4_f8"),
    _r("RB-F9", "STOCK taken from the supply; empty supply triggers scoring", "test_faces.py::test_ts03_stock_scoring_rb_f9_f10"),
    _r("RB-F10", "stock scoring by groups, atomic", "test_faces.py::test_ts03_stock_scoring_rb_f9_f10"),
    _r("RB-F11", "STAR: +mult stars, capped by the supply", "test_faces.py::test_rb_f11_f12_star_gold_supply_cap"),
    _r("RB-F12", "GOLD: +mult gold, capped by the supply", "test_faces.py::test_rb_f11_f12_star_gold_supply_cap"),
    _r("RB-F13", "NINE: choose N in [nine_move_min, nine_move_max]", "test_faces.py::test_ts14_nine_rb_f13"),
    _r("RB-F14", "PIP_k moves k; RINGMASTER per RB-T8", "test_faces.py::test_rb_f14_pip_and_ringmaster"),
    _r("RB-F15", "outcomes with no effect", "test_faces.py::test_rb_f15_no_effect_outcomes"),
    _r("RB-E1", "R only falls, by ringmaster_step per Ringmaster result", "test_end.py::test_rb_e1_ringmaster_sources"),
    _r("RB-E2", "end check after each atomic effect; rest of the turn discarded", "test_end.py::test_ts07_game_ends_mid_turn_rb_e2"),
    _r("RB-E3", "winner: score, then tokens, then shared", "test_end.py::test_ts08_trailing_ringmaster_tiebreak_rb_e3_e4"),
    _r("RB-E4", "the end may be triggered by a non-active player's score", "test_end.py::test_ts08_trailing_ringmaster_tiebreak_rb_e3_e4"),
    _r("RB-E5", "termination; max_turns guard flags truncated", "test_end.py::test_rb_e5_truncation_and_termination"),
)


# ---- validation ----------------------------------------------------------------------------
def validate(values: dict, n_players: int) -> None:
    """Cross-parameter checks (single-parameter ranges are checked by ParamSpec)."""
    if values["max_dice_per_turn"] > values["n_dice"]:
        raise SpecError(f"parameter 'max_dice_per_turn' = {values['max_dice_per_turn']} must be "
                        f"<= n_dice = {values['n_dice']}")
    if values["nine_move_min"] > values["nine_move_max"]:
        raise SpecError(f"parameter 'nine_move_min' = {values['nine_move_min']} must be <= "
                        f"nine_move_max = {values['nine_move_max']}")
    pool = values["tile_pool"]
    if len(set(pool)) != len(pool):
        raise SpecError(f"parameter 'tile_pool' = {pool} has duplicate tile codes ({_TILE_DOC})")
    se = values["star_exchange"]
    if any(b < a for a, b in zip(se, se[1:])):
        raise SpecError(f"parameter 'star_exchange' = {se} must be non-decreasing")
    if len(se) < values["shop_max_stars"] + 1:
        raise SpecError(f"parameter 'star_exchange' needs {values['shop_max_stars'] + 1} values "
                        f"(k = 0..shop_max_stars), got {len(se)}")
    if values["stock_count"] != -1 and values["stock_count"] < 2:
        raise SpecError(f"parameter 'stock_count' = {values['stock_count']} is out of range "
                        f"(valid: -1 = data file, or 2..10)")
    for name in ("point_face_supply", "train_track", "gamble_faces"):
        v = values[name]
        if -1 in v and tuple(v) != (-1,):
            raise SpecError(f"parameter '{name}' = {v}: -1 (use the data file) must be alone")
    tt = values["train_track"]
    if tuple(tt) != (-1,) and len(tt) < 2:
        raise SpecError(f"parameter 'train_track' = {tt} needs 2..20 values")
    gf = values["gamble_faces"]
    if tuple(gf) != (-1,) and len(gf) != 6:
        raise SpecError(f"parameter 'gamble_faces' = {gf} needs exactly 6 values "
                        f"(1..8 points, 0 = RINGMASTER, 9 = NINE)")


# ---- components ----------------------------------------------------------------------------
def _space(text: str) -> tuple[int, int]:
    t = text.strip().upper()
    if t in ("START", "SLOT", "PLUS1", "EMPTY"):
        return SPACE_KINDS.index(t), 0
    if t.startswith("FACE:"):
        name = t[5:].strip()
        if name not in ACTION_FACES + POINT_FACES:
            raise ValueError(f"unknown face '{name}' (valid: {', '.join(ACTION_FACES + POINT_FACES)})")
        return SPACE_KINDS.index("FACE"), FACE_NAMES.index(name)
    raise ValueError(f"unknown space '{text.strip()}' (valid: START, SLOT, PLUS1, EMPTY, FACE:<face>)")


def _gamble(text: str) -> int:
    t = text.strip().upper()
    if t == "RINGMASTER":
        return L.GB_RINGMASTER
    if t == "NINE":
        return L.GB_NINE
    if t.startswith("POINTS:"):
        try:
            k = int(t[7:])
        except ValueError:
            raise ValueError(f"'{text}': POINTS:k needs an integer k") from None
        if not 1 <= k <= 8:
            raise ValueError(f"'{text}': points must be 1..8")
        return k
    raise ValueError(f"unknown gamble face '{text}' (valid: POINTS:k, RINGMASTER, NINE)")


def _face(text: str) -> int:
    t = text.strip().upper()
    if t not in FACE_NAMES[1:]:
        raise ValueError(f"unknown face '{text}' (valid: {', '.join(FACE_NAMES[1:])})")
    return FACE_NAMES.index(t)


def _provenance(path: Path, data: dict, keys: tuple[str, ...]) -> bool:
    # dotted keys "section.key" are single quoted TOML keys in [provenance]
    return cf.check_toml_provenance(path, data, keys)


def load_components(directory: Path | str | None = None) -> Components:
    """Read ``board.csv``, ``tiles.csv``, ``face_supply.csv`` and ``components.toml``.

    Returns
    -------
    Components whose ``arrays`` are, in order (all int64):

    0. ``boards[3, MAX_TRACK, SPC_LEN]``: (space kind, face) per preset in BOARD_PRESETS order
    1. ``board_meta[3, BM_LEN]``: (track length, START index) per preset
    2. ``tiles[n_tiles, SPC_LEN]``: (space kind, face) created by each tile code
    3. ``face_supply[N_FACES]``: default pile sizes
    4. ``tokens[TOK_LEN]``: gold, star (0 = unlimited), stock
    5. ``train[TRD_LEN]``: (length, start index, values...)
    6. ``gamble[6]``: 1..8 points, GB_RINGMASTER, GB_NINE
    7. ``start_faces[6]``: face codes of slots 1..6
    8. ``opposite[6]``: opposite slot index of each slot index
    """
    d = Path(directory) if directory is not None else COMPONENTS_DIR
    if not d.is_dir():
        raise SpecError(f"{d}: components directory not found")
    assumed = False

    # board.csv
    path = d / "board.csv"
    rows = cf.read_csv(path, {"preset": cf.cell_choice(BOARD_PRESETS, "preset"),
                              "index": cf.cell_int(0, L.MAX_TRACK - 1),
                              "space": _space})
    boards = np.zeros((len(BOARD_PRESETS), L.MAX_TRACK, L.SPC_LEN), dtype=np.int64)
    meta = np.zeros((len(BOARD_PRESETS), L.BM_LEN), dtype=np.int64)
    for p, pname in enumerate(BOARD_PRESETS):
        prow = [r for r in rows if r["preset"] == p]
        if not prow:
            raise SpecError(f"{path}: preset '{pname}' has no rows (every preset of "
                            f"{', '.join(BOARD_PRESETS)} is required)")
        idx = sorted(r["index"] for r in prow)
        if idx != list(range(len(prow))):
            raise SpecError(f"{path}: preset '{pname}': column 'index' must be 0..{len(prow) - 1} "
                            f"exactly once each, got {idx}")
        if not 6 <= len(prow) <= L.MAX_TRACK:
            raise SpecError(f"{path}: preset '{pname}': track length {len(prow)} out of range 6..{L.MAX_TRACK}")
        starts = [r for r in prow if r["space"][0] == L.SP_START]
        if len(starts) != 1:
            raise SpecError(f"{path}: preset '{pname}': exactly one START space is required, got {len(starts)}")
        for r in prow:
            boards[p, r["index"], L.SPC_KIND], boards[p, r["index"], L.SPC_FACE] = r["space"]
            assumed |= r["provenance"] == "A"
        meta[p, L.BM_TRACK_LEN], meta[p, L.BM_START] = len(prow), starts[0]["index"]

    # tiles.csv
    path = d / "tiles.csv"
    trows = cf.read_csv(path, {"code": cf.cell_int(0, L.MAX_TILES - 1), "tile": cf.cell_str(),
                               "space": _space}, unique="code")
    if sorted(r["code"] for r in trows) != list(range(len(trows))):
        raise SpecError(f"{path}: column 'code' must be 0..{len(trows) - 1} in order")
    tiles = np.zeros((len(trows), L.SPC_LEN), dtype=np.int64)
    for r in trows:
        if r["space"][0] not in (L.SP_FACE, L.SP_PLUS1):
            raise SpecError(f"{path}: row {r['_row']}, column 'space': a tile creates FACE:<face> or PLUS1")
        tiles[r["code"], L.SPC_KIND], tiles[r["code"], L.SPC_FACE] = r["space"]
        assumed |= r["provenance"] == "A"

    # face_supply.csv
    path = d / "face_supply.csv"
    frows = cf.read_csv(path, {"face": cf.cell_choice(ACTION_FACES + POINT_FACES, "face"),
                               "count": cf.cell_int(0, 99)}, unique="face")
    supply = np.zeros(L.N_FACES, dtype=np.int64)
    names = ACTION_FACES + POINT_FACES
    got = {names[r["face"]] for r in frows}
    missing = [n for n in names if n not in got]
    if missing:
        raise SpecError(f"{path}: missing row(s) for {', '.join(missing)}")
    for r in frows:
        supply[FACE_NAMES.index(names[r["face"]])] = r["count"]
        assumed |= r["provenance"] == "A"

    # components.toml
    path = d / "components.toml"
    data = cf.read_toml(path, required=("tokens", "train", "gamble_die", "dice", "provenance"))
    keys = ("tokens.gold", "tokens.star", "tokens.stock", "train.track", "train.start_index",
            "gamble_die.faces", "dice.colors", "dice.start_faces", "dice.opposite")
    assumed |= _provenance(path, data, keys)

    def sect(name):
        v = data[name]
        if not isinstance(v, dict):
            raise SpecError(f"{path}: [{name}] must be a table")
        return v

    tok = sect("tokens")
    tokens = np.zeros(L.TOK_LEN, dtype=np.int64)
    for k, lo, hi in (("gold", 0, 100), ("star", 0, 100), ("stock", 2, 10)):
        v = tok.get(k)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise SpecError(f"{path}: [tokens] key '{k}' must be an integer {lo}..{hi}, got {v!r}")
        tokens[L.TOKENS.offset(k)] = v
    tr = sect("train")
    track = cf.toml_list(path, tr, "track", cf.cell_int(0, 50), 2, 20)
    start = tr.get("start_index")
    if not isinstance(start, int) or not 0 <= start < len(track):
        raise SpecError(f"{path}: [train] key 'start_index' must be 0..{len(track) - 1}, got {start!r}")
    train = np.zeros(L.TRD_LEN, dtype=np.int64)
    train[L.TRD_N], train[L.TRD_START] = len(track), start
    train[L.TRD_VALUES:L.TRD_VALUES + len(track)] = track
    gamble = np.array(cf.toml_list(path, sect("gamble_die"), "faces", _gamble, 6, 6), dtype=np.int64)
    dice = sect("dice")
    cf.toml_list(path, dice, "colors", cf.cell_str(), 1, 5)
    start_faces = np.array(cf.toml_list(path, dice, "start_faces", _face, 6, 6), dtype=np.int64)
    if start_faces[0] != L.FC_RINGMASTER:
        raise SpecError(f"{path}: [dice] key 'start_faces', item 1: slot 1 must be RINGMASTER (permanent)")
    if any(f == L.FC_ARROW for f in start_faces):
        raise SpecError(f"{path}: [dice] key 'start_faces': ARROW cannot be a start face")
    opp = dice.get("opposite")
    opposite = np.full(6, -1, dtype=np.int64)
    ok = isinstance(opp, list) and len(opp) == 3
    if ok:
        for pair in opp:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) and 1 <= x <= 6 for x in pair)):
                ok = False
                break
            a, b = pair[0] - 1, pair[1] - 1
            if a == b or opposite[a] != -1 or opposite[b] != -1:
                ok = False
                break
            opposite[a], opposite[b] = b, a
    if not ok:
        raise SpecError(f"{path}: [dice] key 'opposite' must pair slots 1..6 into 3 disjoint pairs, got {opp!r}")

    arrays = (boards, meta, tiles, supply, tokens, train, gamble, start_faces, opposite)
    tables = {
        "face_names": FACE_NAMES, "face_short": FACE_SHORT, "tile_names": tuple(r["tile"] for r in trows),
        "colors": tuple(dice["colors"]), "board_presets": BOARD_PRESETS,
    }
    return Components(arrays, d, cf.digest_dir(d), bool(assumed), tables)


# ---- the declared offsets as module attributes (R.NAME elsewhere; sim.layout.exports) -----------
__getattr__, __dir__ = exports(RULES_BLOCK, POLICY_BLOCK, CFG_BLOCK)
