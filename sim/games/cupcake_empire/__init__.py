"""Cupcake Empire (Al Leduc & Yves Tourigny, 2018): 2-4 players, dice as workers.
Rules: shared/rules/cupcake_empire.md."""
from sim.decide import Steps
from sim.spec import BalanceFactor, GameSpec

from . import audit, kernel, replay, rules
from . import trace
from .layout import (COLDATA, D_ACTIVATE, D_BAKERY_Y, D_BASE, D_DISC, D_FREE, D_FROST, D_HIRE,
                     D_INIT_MENU, D_L4, D_MENU, D_MORE, D_MOVE_DIE, D_MOVE_TO, D_OVERFLOW, D_PAIR, D_REST,
                     D_REST_DIE, D_S1, D_SELL, D_SHOP, D_SPECIAL, D_START_DISC, GAME_COLUMNS,
                     GAME_OUT, GOALDATA, MISC, REGDATA, SEAT, SEAT_COLUMNS, SEAT_OUT, STATE,
                     SUPDATA, S_DECIDER, S_N_OPTIONS, S_OPTIONS, S_POINT)

SPEC = GameSpec(
    id="cupcake_empire",
    title="Cupcake Empire",
    version="1.1.0",  # 1.1: the expert policy (greedy tuned by playtest tune, presets/expert.toml)
    min_players=2,
    max_players=4,
    params=rules.PARAMS,
    variants=rules.VARIANTS,
    policy_params=rules.POLICY_PARAMS,
    policies=rules.POLICIES,
    ladder=("random", "greedy_no_free", "greedy", "salesman", "expert"),  # weakest first (`playtest ladder`; README)
    search_rung="search:base=expert",  # `playtest ladder --search` (docs/search.md)
    provenance=rules.PROVENANCE,
    rules=rules.RULES,
    layouts=(rules.RULES_BLOCK, rules.POLICY_BLOCK, STATE, SEAT, GAME_OUT, SEAT_OUT, COLDATA,
             REGDATA, SUPDATA, GOALDATA, MISC),
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    end_reasons=("income", "truncated"),
    load_components=rules.load_components,
    play_many=kernel.play_many,
    play_one=kernel.play_one,
    format_event=replay.format_event,
    validate=rules.validate,
    balance_factor=BalanceFactor("seat", "seat"),
    audit=audit.audit,
    max_events=60000,
    steps=Steps(new=kernel.new_game, advance=kernel.advance, apply=kernel.apply_option,
                choose=kernel.choose, finish=kernel.finish, point=S_POINT, decider=S_DECIDER,
                n_options=S_N_OPTIONS, options=S_OPTIONS,
                points={D_START_DISC: "DP1 start disc column", D_INIT_MENU: "DP2 initial menu",
                        D_FREE: "DP3-5 free action", D_MENU: "DP3 menu", D_REST: "DP4 rest use",
                        D_REST_DIE: "DP4 rest die", D_SPECIAL: "DP5 special action",
                        D_MOVE_DIE: "DP5 die to move", D_MORE: "DP4/DP5 one more die", D_MOVE_TO: "DP5 move target",
                        D_ACTIVATE: "DP6 column and level", D_S1: "DP7 main action or disc",
                        D_BASE: "DP8 simple base", D_FROST: "DP9 simple frosting",
                        D_PAIR: "DP9 mixed pair", D_SHOP: "DP10 shop placement",
                        D_SELL: "DP11 customer", D_HIRE: "DP12 hire colour",
                        D_DISC: "DP12 disc gain", D_BAKERY_Y: "DP12 yellow bakery",
                        D_L4: "DP12 level-4 choice", D_OVERFLOW: "DP13 overflow"},
                resample=kernel.resample, playout=kernel.playout),
    trace=trace.TRACE,
)
