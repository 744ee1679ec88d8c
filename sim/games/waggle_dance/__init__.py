"""Waggle Dance (Mike Nudd, 2014): 2-4 players, dice placement and pollen majorities.
Rules: shared/rules/waggle_dance.md."""
from sim.decide import Steps
from sim.spec import BalanceFactor, GameSpec

from . import audit, kernel, options, replay, rules
from . import layout as L
from . import trace

SPEC = GameSpec(
    id="waggle_dance",
    title="Waggle Dance",
    version="0.6.0",  # 0.6.0: careful greedy (a die valued by what it does at night: no idle slot dice, no Feint undone, Wrong Turn counts the flower it hands over) and the expert re-tuned at 2-4 players against it; 0.5.0: the expert policy (greedy tuned by playtest tune, presets/expert.toml); 0.4.0: greedy builds up to 12 tiles like builder (target_hive_size 8 -> 12); 0.3.1: max_rounds 300 (was 200; only games that reached the cap change)
    min_players=2,
    max_players=4,
    params=rules.PARAMS,
    variants=rules.VARIANTS,
    policy_params=rules.POLICY_PARAMS,
    policies=rules.POLICIES,
    ladder=("random", "builder", "greedy", "expert"),  # weakest first (`playtest ladder`; README)
    search_rung="search:base=expert,top=3,rollouts=4,guard=1",  # `playtest ladder --search` (docs/search.md)
    provenance=rules.PROVENANCE,
    rules=rules.RULES,
    layouts=(rules.RULES_BLOCK, rules.POLICY_BLOCK, L.STATE, L.SEAT, L.GAME_OUT, L.SEAT_OUT,
             L.SCRATCH, rules.COMP_META),
    game_columns=L.GAME_COLUMNS,
    seat_columns=L.SEAT_COLUMNS,
    end_reasons=("honey", "truncated"),
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
                points={L.D_PLACE: "DP-04 placement", L.D_EGG: "DP-14 take egg",
                        L.D_CUBE: "DP-16 cube placement", L.D_TRADE: "DP-17 trade",
                        L.D_PAY: "DP-17 trade payment", L.D_GAIN: "DP-17 received cube",
                        L.D_PAIR: "DP-18 pairing", L.D_MOVE: "DP-19 move",
                        L.D_FLIP: "DP-19 flip", L.D_CARD: "DP-01..03, DP-09..11 card window",
                        L.D_KEEP: "DP-03 Scout keep", L.D_HATCH: "DP-13 Expertise at B",
                        L.D_HARVEST: "DP-15 Harvest"},
                chance_points={L.D_ROLL: "die roll (WD-R2, WD-Q2 Volunteer)"},
                resample=kernel.resample, playout=kernel.playout, advance_all=kernel.advance_all,
                option_text=options.option_text),
    trace=trace.TRACE,
)
