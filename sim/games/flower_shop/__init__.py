"""The Little Flower Shop Dice Game (1-4 players): rules in ``shared/rules/flower_shop.md``."""
from sim.spec import BalanceFactor, Column, GameSpec

from . import kernel, rules
from .audit import audit
from .replay import format_event

GAME_COLUMNS = (
    Column("task_card", "Task card in play (index into tasks.csv, T1 = 0)"),
    Column("task_card_2", "Second task card (-1 if only one is in play)"),
    Column("loss_day", "Solo: day of the loss (FS-SOLO-C1), 7 (days+1) when the game reached its "
                       "end, won or lost (FS-SOLO-E2); -1 in multiplayer"),
    Column("task_lines_met", "Task lines (rows + columns, all cards) met by seat 0 at the end"),
    Column("tiles_left_in_stack", "Tiles left in the draw stack at the end"),
    Column("refreshes", "Solo: paid row refreshes (FS-SOLO-N2)"),
    Column("opp_discards", "Solo: row tiles discarded by the opponent die"),
    Column("opp_lower", "Solo: opponent rolls resolved as lower"),
)
SEAT_COLUMNS = (
    Column("stars", "Stars of finished tiles (FS-E2)"),
    Column("ribbons", "Ribbons bought"),
    Column("task_points", "Task points (FS-E3)"),
    Column("task_lines", "Task lines met (rows + columns, all cards)"),
    Column("money", "Money at the end (first tie-break)"),
    Column("tokens", "Wild tokens at the end (second tie-break)"),
    Column("tiles_finished", "Tiles finished"),
    Column("tiles_placed", "Tiles placed in the shop"),
    Column("initiative_die", "Initiative die: 0..3 = I-A..I-D"),
    Column("salary_total", "Salary earned"),
    Column("lock_payments", "Money paid for extra locks and skips"),
    Column("skips", "Lock-none steps (FS-L4)"),
    Column("lock_steps", "Step 1 decisions"),
    Column("tokens_taken", "Tokens taken with dice (FS-U5)"),
    Column("tokens_bought", "Tokens bought (FS-U7)"),
    Column("tokens_spent", "Tokens spent on finishes"),
    Column("money_taken", "Money taken with dice (FS-U6)"),
    Column("dice_wasted", "Dice left unused at the end of Step 4"),
)

SPEC = GameSpec(
    id="flower_shop",
    title="The Little Flower Shop Dice Game",
    version="1.1.0",
    min_players=1,
    max_players=4,
    params=rules.PARAMS,
    variants=rules.VARIANTS,
    policy_params=rules.POLICY_PARAMS,
    policies=rules.POLICIES,
    rules=rules.RULES,
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    end_reasons=("completed", "solo_infeasible", "truncated"),
    load_components=rules.load_components,
    play_many=kernel.play_many,
    play_one=kernel.play_one,
    format_event=format_event,
    default_variant=lambda n: "solo_base" if n == 1 else "base",
    validate=rules.validate,
    audit=audit,
    balance_factor=BalanceFactor("initiative_die", "initiative die", ("I-A", "I-B", "I-C", "I-D")),
    max_events=20000,
)
