"""A tiny fake game for pipeline tests only: "Fake Dice".

Each seat rolls ``dice`` dice whose faces come from the component file ``faces.csv``; a policy may
reroll its lowest die once (``greedy``: when the total is below ``threshold``; ``random``: on a
coin flip from the policy stream). Highest total wins; ties share (``winner_seat = -1``).
Solo: win when the total reaches ``solo_target``.

Parameters: ``dice`` (int 1..5, default 2), ``solo_target`` (int 2..30, default 8),
``reroll`` (bool, default true). Policy parameter: ``threshold`` (int 0..30, default 7).

``BONUS_SPEC`` (``fakebonus``, registered by the tests that use it) is the same game with two
more parameters, for multiplayer games: ``head_start`` (int 0..10, default 0: points added to
seat 0's total, a planted first-player advantage) and ``end_bonus_points`` (one int 0..20 per
seat, default all 0: added to each seat's final total before ranking, as in the real games).
The kernel reads them when the rules array holds them.
"""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import importlib
import sys
import types
from pathlib import Path

import numpy as np
from numba import njit

from sim.rng import SUB_DICE, SUB_POLICY, make_stream, randint
from sim.spec import (Column, Components, GameSpec, ParamSpec, PolicySpec, RuleStatus, SpecError,
                      Variant)
from sim.trace import emit

GAME_ID = "fakedice"

# rules layout
R_DICE = 0
R_SOLO_TARGET = 1
R_REROLL = 2
R_HEAD_START = 3  # BONUS_SPEC only
R_END_BONUS_POINTS = 4  # BONUS_SPEC only; a list: its length, then one value per seat
# policy params layout
P_THRESHOLD = 0
K_RANDOM = 0
K_GREEDY = 1
# output columns: GAME_COMMON then high_total; SEAT_COMMON then rerolls
G_HIGH_TOTAL = 5
S_REROLLS = 3
EV_ROLL = 1
EV_REROLL = 2
E_HIGHEST = 0
E_TIE = 1
E_MISSED = 2
E_REACHED = 3

PARAMS = (
    ParamSpec("dice", "int", 2, "dice rolled per seat", 1, 5),
    ParamSpec("solo_target", "int", 8, "solo: total needed to win", 2, 30),
    ParamSpec("reroll", "bool", True, "may reroll the lowest die once"),
)
BONUS_PARAMS = PARAMS + (
    ParamSpec("head_start", "int", 0, "points added to seat 0's total (multiplayer)", 0, 10),
    ParamSpec("end_bonus_points", "list", (0, 0, 0, 0),
              "points added to each seat's final total before ranking (multiplayer)", 0, 20,
              length=4),
)
POLICY_PARAMS = (ParamSpec("threshold", "int", 7, "greedy: reroll when total is below", 0, 30),)


@njit(cache=True)
def _play(rules, comp, n_players, kinds, params, master_seed, game_index, grow, srow, log):
    """Play one game of Fake Dice, writing one games row and n_players seat rows."""
    faces = comp[0]
    nf = faces.shape[0]
    nd = np.int64(rules[R_DICE])
    dice = make_stream(master_seed, game_index, SUB_DICE)
    pol = make_stream(master_seed, game_index, SUB_POLICY)
    for seat in range(n_players):
        total = 0
        low = 1 << 30
        for _ in range(nd):
            v = faces[randint(dice, nf)]
            total += v
            if v < low:
                low = v
        emit(log, EV_ROLL, seat, total)
        rr = 0
        if rules[R_REROLL] != 0.0:
            if kinds[seat] == K_GREEDY:
                want = total < params[seat, P_THRESHOLD]
            else:
                want = randint(pol, 2) == 1
            if want:
                v = faces[randint(dice, nf)]
                total += v - low
                rr = 1
                emit(log, EV_REROLL, seat, low, v, total)
        if n_players > 1 and rules.shape[0] > R_HEAD_START:  # BONUS_SPEC
            total += np.int64(rules[R_END_BONUS_POINTS + 1 + seat])
            if seat == 0:
                total += np.int64(rules[R_HEAD_START])
        srow[seat, 0] = total
        srow[seat, S_REROLLS] = rr
    high = -1
    for seat in range(n_players):
        if srow[seat, 0] > high:
            high = srow[seat, 0]
    n_win = 0
    winner = -1
    for seat in range(n_players):
        r = 1
        for o in range(n_players):
            if srow[o, 0] > srow[seat, 0]:
                r += 1
        srow[seat, 1] = r
        won = r == 1
        if n_players == 1:
            won = srow[seat, 0] >= rules[R_SOLO_TARGET]
        srow[seat, 2] = 1 if won else 0
        if won:
            n_win += 1
            winner = seat
    grow[0] = 1
    grow[1] = 0
    grow[2] = n_win
    grow[3] = winner if n_win == 1 else -1
    if n_players == 1:
        grow[4] = E_REACHED if n_win == 1 else E_MISSED
    else:
        grow[4] = E_HIGHEST if n_win == 1 else E_TIE
    grow[G_HIGH_TOTAL] = high


@njit(cache=True, nogil=True)
def play_many(rules, comp, n_players, kinds, params, master_seed, first_index, games_out,
              seats_out):
    """Play games first_index .. first_index + n - 1 (each writes only its own rows)."""
    for i in range(games_out.shape[0]):
        log = np.zeros((1, 8), dtype=np.int64)
        _play(rules, comp, n_players, kinds, params, master_seed, first_index + i,
              games_out[i], seats_out[i], log)


@njit(cache=True)
def play_one(rules, comp, n_players, kinds, params, master_seed, game_index, g, s, log):
    """Play one game with an event log."""
    _play(rules, comp, n_players, kinds, params, master_seed, game_index, g, s, log)


def format_event(ev, ctx) -> str:
    if ev[0] == EV_ROLL:
        return f"seat {ev[1]} rolls, total {ev[2]}"
    if ev[0] == EV_REROLL:
        return f"seat {ev[1]} rerolls a {ev[2]}, gets {ev[3]}: total {ev[4]}"
    return f"event {list(ev)}"


DEFAULT_FACES = np.array([1, 2, 3, 4, 5, 6], dtype=np.int64)


def load_components(directory: Path | None) -> Components:
    """Die faces from ``faces.csv`` (columns value, source); built-in d6 when None."""
    if directory is None:
        digest = hashlib.sha256(DEFAULT_FACES.tobytes()).hexdigest()[:16]
        return Components((DEFAULT_FACES,), Path("<builtin>"), digest, True,
                          {"faces": DEFAULT_FACES.tolist()})
    path = Path(directory) / "faces.csv"
    if not path.is_file():
        raise SpecError(f"{path}: missing component file faces.csv")
    raw = path.read_bytes()
    values = []
    assumed = False
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "value" not in rows[0] or "source" not in rows[0]:
        raise SpecError(f"{path}: needs columns value, source")
    for i, row in enumerate(rows, start=2):
        try:
            v = int(row["value"])
        except (TypeError, ValueError):
            raise SpecError(f"{path}: row {i}, column value: {row['value']!r} is not an integer") from None
        if not 0 <= v <= 20:
            raise SpecError(f"{path}: row {i}, column value: {v} out of range (valid: 0..20)")
        values.append(v)
        assumed |= row["source"].strip() == "[A]"
    arr = np.array(values, dtype=np.int64)
    return Components((arr,), Path(directory), hashlib.sha256(raw).hexdigest()[:16], assumed,
                      {"faces": values})


def _validate(values, n_players):
    if n_players == 1 and values["solo_target"] > 6 * values["dice"]:
        raise SpecError(f"solo_target {values['solo_target']} cannot be reached with "
                        f"{values['dice']} dice (valid: at most {6 * values['dice']})")


SPEC = GameSpec(
    id=GAME_ID,
    title="Fake Dice (tests only)",
    version="1",
    min_players=1,
    max_players=4,
    params=PARAMS,
    variants={
        "base": Variant("base", {}, "defaults"),
        "many": Variant("many", {"dice": 3}, "three dice each"),
        "hard": Variant("hard", {"solo_target": 10}, "solo only: harder target", players=(1, 1)),
    },
    policy_params=POLICY_PARAMS,
    policies={
        "greedy": PolicySpec("greedy", K_GREEDY, "reroll the lowest die when below threshold"),
        "random": PolicySpec("random", K_RANDOM, "reroll on a coin flip"),
    },
    rules=(RuleStatus("FD-1", "roll dice", True), RuleStatus("FD-2", "reroll lowest", True),
           RuleStatus("FD-3", "bonus for doubles", False, "not yet")),
    game_columns=(Column("high_total", "highest total at the table"),),
    seat_columns=(Column("rerolls", "rerolls used"),),
    end_reasons=("highest", "tie", "missed", "reached"),
    load_components=load_components,
    play_many=play_many,
    play_one=play_one,
    format_event=format_event,
    validate=_validate,
    max_events=100,
)


BONUS_SPEC = dataclasses.replace(SPEC, id="fakebonus", params=BONUS_PARAMS,
                                 title="Fake Dice with an end-of-game bonus (tests only)")


def _stub_registry() -> types.ModuleType:
    """A stand-in ``sim.registry`` while the real one cannot be imported (a game in progress)."""
    m = types.ModuleType("sim.registry")
    m._GAMES = {}
    m.available_games = lambda: list(m._GAMES)

    def make(game_id):
        try:
            return m._GAMES[game_id]
        except KeyError:
            raise SpecError(f"unknown game '{game_id}'; valid: {', '.join(m._GAMES)}") from None

    m.make = make
    return m


def install(monkeypatch=None):
    """Register the fake game (with ``monkeypatch`` in tests; permanently in subprocesses)."""
    try:
        reg = importlib.import_module("sim.registry")
    except ImportError:
        reg = _stub_registry()
        if monkeypatch is not None:
            monkeypatch.setitem(sys.modules, "sim.registry", reg)
        else:
            sys.modules["sim.registry"] = reg
    if monkeypatch is not None:
        monkeypatch.setitem(reg._GAMES, GAME_ID, SPEC)
    else:
        reg._GAMES[GAME_ID] = SPEC
    return reg
