"""The Little Flower Shop Dice Game (1-4 players): rules in ``shared/rules/flower_shop.md``."""
from sim.decide import Steps
from sim.spec import BalanceFactor, GameSpec

from . import kernel, options, rules
from . import layout as L
from . import trace
from .audit import audit
from .replay import format_event
from .report import SOLO_DIFFICULTY, component_notes

SPEC = GameSpec(
    id="flower_shop",
    title="The Little Flower Shop Dice Game",
    version="1.4.0",  # 1.4: greedy keeps $5 after buying a ribbon (ribbon_money_reserve 0 -> 5; solo greedy, novice and expert unchanged); 1.3.1: expert commits to a card in solo_easy (w_other_card); 1.3: expert uses every free lock (fill_free_locks), re-tuned; 1.2: random draws one index per decision (sim.decide), other games
    min_players=1,
    max_players=L.MAX_PLAYERS,
    params=rules.PARAMS,
    variants=rules.VARIANTS,
    policy_params=rules.POLICY_PARAMS,
    policies=rules.POLICIES,
    ladder=("random", "novice", "greedy", "expert"),  # weakest first (`playtest ladder`)
    search_rung="search:base=expert,rollouts=8,prune=halving,guard=1",  # `playtest ladder --search` (docs/search.md)
    provenance=rules.PROVENANCE,
    rules=rules.RULES,
    game_columns=L.GAME_COLUMNS,
    seat_columns=L.SEAT_COLUMNS,
    layouts=(rules.RULES_BLOCK, rules.POLICY_BLOCK, L.STATE, L.SEAT, L.STATE_TAIL, L.GAME_OUT,
             L.SEAT_OUT, L.SCRATCH, L.LINE, L.FSCRATCH, L.TILE, L.TASK),
    end_reasons=L.END_REASONS,
    load_components=rules.load_components,
    kernel_components=rules.kernel_components,
    play_many=kernel.play_many,
    play_one=kernel.play_one,
    format_event=format_event,
    default_variant=lambda n: "solo_base" if n == 1 else "base",
    validate=rules.validate,
    audit=audit,
    balance_factor=BalanceFactor("initiative_die", "initiative die", L.DIE_IDS),
    solo_difficulty=SOLO_DIFFICULTY,  # the solo ladder the reports check (report.py)
    component_notes=component_notes,  # task cards and assumptions, for the solo report
    end_reason_notes={"solo_infeasible": "the end-of-day check (FS-SOLO-C1) found that the "
                      "remaining orders can no longer be met: a loss, recorded with that day"},
    max_events=20000,
    steps=Steps(new=kernel.new_game, advance=kernel.advance, apply=kernel.apply_option,
                choose=kernel.choose, finish=kernel.finish, point=L.S_POINT, decider=L.S_DECIDER,
                n_options=L.S_N_OPTIONS, options=L.S_OPTIONS, points=L.DECISION_POINTS,
                resample=kernel.resample, playout=kernel.playout, advance_all=kernel.advance_all,
                option_text=options.option_text, ranks=False),
    trace=trace.TRACE,
)
