"""Rattlebones (Stephen Glenn, 2014): 2-4 players, dice building. Rules: shared/rules/rattlebones.md."""
from sim.spec import BalanceFactor, Column, GameSpec

from . import kernel, replay, rules

GAME_COLUMNS = (
    Column("end_trigger", "effect that ended the game: 0 none (truncated), 1 score gain, "
                          "2 Ringmaster decrement, 3 stock scoring, 4 star exchange, 5 setup (RB-E2)"),
    Column("end_seat", "active seat (turn order) when the game ended; -1 if truncated (RB-E4)"),
    Column("ringmaster_final", "Ringmaster position R at the end (RB-E1)"),
    Column("turns", "player turns played (the last may be cut short, RB-E2)"),
    Column("ringmaster_drops", "number of R decrements (RB-E1)"),
    Column("stock_scorings", "number of stock scorings (RB-F10)"),
    Column("train_rides", "number of TRAIN resolutions (RB-F7)"),
    Column("tiles_mask", "bit c set = tile code c of components/tiles.csv was placed (RB-S2)"),
    Column("start_chair", "RB-S9 random start-player draw: the physical chair of seat 0"),
)

SEAT_COLUMNS = (
    Column("gold", "gold held at the end"),
    Column("stars", "stars held at the end"),
    Column("stocks", "stocks held at the end"),
    Column("tokens", "gold + stars + stocks, the RB-E3 tiebreak"),
    Column("turns_taken", "turns started"),
    Column("dice_rolled", "dice rolls, rerolls included (RB-T3, RB-F8)"),
    Column("extra_dice", "extra dice bought with gold (RB-T1)"),
    Column("gold_spent", "gold paid for extra dice (RB-T1)"),
    Column("installs", "faces installed or upgraded (RB-T7, RB-P3)"),
    Column("moves", "monkey movements (RB-T6)"),
    Column("steals", "tokens stolen from others (RB-F2)"),
    Column("stolen", "tokens lost to thieves (RB-F2)"),
    Column("pts_faces", "points from POINTS faces (RB-F1)"),
    Column("pts_shop", "points from star exchanges (RB-P2)"),
    Column("pts_stock", "points from stock scorings (RB-F10)"),
    Column("pts_train", "points from TRAIN (RB-F7)"),
    Column("pts_rank", "points from RANK_1234 (RB-F4)"),
    Column("pts_gamble", "points from the gamble die (RB-F6)"),
    Column("ringmaster_drops", "R decrements caused (RB-E1)"),
    Column("stars_cashed", "stars exchanged at START (RB-P2)"),
    Column("gold_gained", "gold gained from GOLD faces (RB-F12)"),
    Column("stars_gained", "stars gained from STAR faces (RB-F11)"),
    Column("stocks_taken", "stocks taken from the supply (RB-F9)"),
    Column("rerolls", "reroll events (RB-F8)"),
)

SPEC = GameSpec(
    id="rattlebones",
    title="Rattlebones",
    version="1.0.0",
    min_players=2,
    max_players=4,
    params=rules.PARAMS,
    variants=rules.VARIANTS,
    policy_params=rules.POLICY_PARAMS,
    policies=rules.POLICIES,
    rules=rules.RULES,
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
)
