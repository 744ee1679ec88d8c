"""Rattlebones (Stephen Glenn, 2014): 2-4 players, dice building. Rules: shared/rules/rattlebones.md."""
from sim.decide import Steps
from sim.spec import BalanceFactor, GameSpec

from . import kernel, options, replay, rules
from . import layout as L
from . import trace

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
    layouts=(rules.RULES_BLOCK, rules.POLICY_BLOCK, L.STATE, L.SEAT, L.GAME_OUT, L.SEAT_OUT,
             rules.CFG_BLOCK, L.SPACE, L.BOARD_META, L.TOKENS, L.TRAIN_DATA),
    game_columns=L.GAME_COLUMNS,
    seat_columns=L.SEAT_COLUMNS,
    end_reasons=("ringmaster", "truncated"),
    load_components=rules.load_components,
    play_many=kernel.play_many,
    play_one=kernel.play_one,
    format_event=replay.format_event,
    validate=rules.validate,
    balance_factor=BalanceFactor("seat", "seat"),
    max_events=50000,
    steps=Steps(new=kernel.new_game, advance=kernel.advance, apply=kernel.apply_option,
                choose=kernel.choose, finish=kernel.finish, point=L.S_POINT, decider=L.S_DECIDER,
                n_options=L.S_N_OPTIONS, options=L.S_OPTIONS,
                points={L.D_EXTRA: "D01 extra dice e", L.D_DICE: "D02 which dice",
                        L.D_REROLL: "D03 reroll die pick", L.D_DOUBLE: "D04 double targets",
                        L.D_ORDER: "D05 resolution order", L.D_MOVE: "D06 monkey and move",
                        L.D_NINE: "D07 NINE distance", L.D_INSTALL: "D08 face install",
                        L.D_ARROW: "D09 arrow target", L.D_PLUS1: "D10 +1 choice",
                        L.D_SHOP: "D11 star cash-in", L.D_THIEF: "D12 thief item",
                        L.D_RM_MOVE: "D13 optional Ringmaster move"},
                chance_points={L.D_ROLL: "die roll (RB-T3, RB-F8)", L.D_GAMBLE_ROLL: "gamble die roll (RB-F6)"},
                resample=kernel.resample, playout=kernel.playout, advance_all=kernel.advance_all,
                option_text=options.option_text, ranks=False),
    trace=trace.TRACE,
)
