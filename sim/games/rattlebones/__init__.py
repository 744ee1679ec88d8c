"""Rattlebones (Stephen Glenn, 2014): 2-4 players, dice building. Rules: shared/rules/rattlebones.md."""
from sim.decide import Steps
from sim.spec import BalanceFactor, GameSpec

from . import kernel, replay, rules
from . import trace
from .layout import (BOARD_META, D_ARROW, D_DICE, D_DOUBLE, D_EXTRA, D_INSTALL, D_MOVE, D_NINE,
                     D_ORDER, D_PLUS1, D_REROLL, D_RM_MOVE, D_SHOP, D_THIEF, GAME_COLUMNS, GAME_OUT,
                     SEAT, SEAT_COLUMNS, SEAT_OUT, SPACE, STATE, S_DECIDER, S_N_OPTIONS,
                     S_OPTIONS, S_POINT, TOKENS, TRAIN_DATA)

SPEC = GameSpec(
    id="rattlebones",
    title="Rattlebones",
    version="1.2.0",  # 1.2: the expert policy (greedy tuned by playtest tune, presets/expert.toml)
    min_players=2,
    max_players=4,
    params=rules.PARAMS,
    variants=rules.VARIANTS,
    policy_params=rules.POLICY_PARAMS,
    policies=rules.POLICIES,
    ladder=("random", "novice", "greedy", "expert"),  # weakest first (`playtest ladder`; README)
    search_rung="search:base=expert,rollouts=64,prune=halving,objective=margin",  # `playtest ladder --search` (docs/search.md)
    provenance=rules.PROVENANCE,
    rules=rules.RULES,
    layouts=(rules.RULES_BLOCK, rules.POLICY_BLOCK, STATE, SEAT, GAME_OUT, SEAT_OUT,
             rules.CFG_BLOCK, SPACE, BOARD_META, TOKENS, TRAIN_DATA),
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    end_reasons=("ringmaster", "truncated"),
    load_components=rules.load_components,
    play_many=kernel.play_many,
    play_one=kernel.play_one,
    format_event=replay.format_event,
    validate=rules.validate,
    balance_factor=BalanceFactor("seat", "seat"),
    max_events=50000,
    steps=Steps(new=kernel.new_game, advance=kernel.advance, apply=kernel.apply_option,
                choose=kernel.choose, finish=kernel.finish, point=S_POINT, decider=S_DECIDER,
                n_options=S_N_OPTIONS, options=S_OPTIONS,
                points={D_EXTRA: "D01 extra dice e", D_DICE: "D02 which dice",
                        D_REROLL: "D03 reroll die pick", D_DOUBLE: "D04 double targets",
                        D_ORDER: "D05 resolution order", D_MOVE: "D06 monkey and move",
                        D_NINE: "D07 NINE distance", D_INSTALL: "D08 face install",
                        D_ARROW: "D09 arrow target", D_PLUS1: "D10 +1 choice",
                        D_SHOP: "D11 star cash-in", D_THIEF: "D12 thief item",
                        D_RM_MOVE: "D13 optional Ringmaster move"},
                resample=kernel.resample, playout=kernel.playout),
    trace=trace.TRACE,
)
