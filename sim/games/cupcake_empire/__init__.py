"""Cupcake Empire (Al Leduc & Yves Tourigny, 2018): 2-4 players, dice as workers.
Rules: shared/rules/cupcake_empire.md."""
from sim.decide import Steps
from sim.spec import BalanceFactor, GameSpec

from . import audit, kernel, options, replay, rules
from . import layout as L
from . import trace

SPEC = GameSpec(
    id="cupcake_empire",
    title="Cupcake Empire",
    version="1.2.0",  # 1.1: the expert policy (greedy tuned by playtest tune, presets/expert.toml); 1.2: careful greedy (last turn, highest level, no empty-column pass)
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
    layouts=(rules.RULES_BLOCK, rules.POLICY_BLOCK, L.STATE, L.SEAT, L.GAME_OUT, L.SEAT_OUT,
             L.COLDATA, L.REGDATA, L.SUPDATA, L.GOALDATA, L.MISC),
    game_columns=L.GAME_COLUMNS,
    seat_columns=L.SEAT_COLUMNS,
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
                choose=kernel.choose, finish=kernel.finish, point=L.S_POINT, decider=L.S_DECIDER,
                n_options=L.S_N_OPTIONS, options=L.S_OPTIONS,
                points={L.D_START_DISC: "DP1 start disc column", L.D_INIT_MENU: "DP2 initial menu",
                        L.D_FREE: "DP3-5 free action", L.D_MENU: "DP3 menu",
                        L.D_REST: "DP4 rest use",
                        L.D_REST_DIE: "DP4 rest die", L.D_SPECIAL: "DP5 special action",
                        L.D_MOVE_DIE: "DP5 die to move", L.D_MORE: "DP4/DP5 one more die", L.D_MOVE_TO: "DP5 move target",
                        L.D_ACTIVATE: "DP6 column and level", L.D_S1: "DP7 main action or disc",
                        L.D_BASE: "DP8 simple base", L.D_FROST: "DP9 simple frosting",
                        L.D_PAIR: "DP9 mixed pair", L.D_SHOP: "DP10 shop placement",
                        L.D_SELL: "DP11 customer", L.D_HIRE: "DP12 hire colour",
                        L.D_DISC: "DP12 disc gain", L.D_BAKERY_Y: "DP12 yellow bakery",
                        L.D_L4: "DP12 level-4 choice", L.D_OVERFLOW: "DP13 overflow"},
                chance_points={L.D_ROLL: "S3 die roll (CE-T7)"},
                resample=kernel.resample, playout=kernel.playout, advance_all=kernel.advance_all,
                option_text=options.option_text),
    trace=trace.TRACE,
)
