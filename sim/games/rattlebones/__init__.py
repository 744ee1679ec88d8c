"""Rattlebones (Stephen Glenn, 2014): 2-4 players, dice building. Rules: shared/rules/rattlebones.md."""
from sim.spec import BalanceFactor, GameSpec

from . import kernel, replay, rules
from .layout import (BOARD_META, GAME_COLUMNS, GAME_OUT, SEAT, SEAT_COLUMNS, SEAT_OUT, SPACE, STATE,
                     TOKENS, TRAIN_DATA)

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
)
