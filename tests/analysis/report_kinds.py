"""One synthetic store per report kind (experiment, solo, compare, sweep, plan, ladder), with
planted effects whose verdicts a test knows: the first-sentence and chart-hygiene tests run
over all of them (``write_all``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from analysis_synth import (SOLO_VARIANTS, arm_manifest, make_multiplayer_arm, make_solo_store,
                            write_arm, write_manifest)

N_PLAYERS = 3


def _deal(rng, n_games: int, n_players: int = N_PLAYERS) -> np.ndarray:
    """Initiative dice of the seats: n_players of the 4 dice, dealt at random."""
    return np.array([rng.permutation(4)[:n_players] for _ in range(n_games)])


def _winners(dice: np.ndarray, u: np.ndarray, die: int, rate: float) -> np.ndarray:
    """One winner per game from the uniform draws ``u``: the holder of ``die`` wins with
    probability ``rate`` (where it is dealt), the other seats share the rest equally. The same
    ``u`` in two arms makes them paired (most games keep their winner)."""
    n = dice.shape[1]
    p = np.full(dice.shape, 1.0 / n)
    held = dice == die
    rows = held.any(axis=1)
    p[rows] = (1.0 - rate) / (n - 1)
    p[held] = rate
    cum = np.cumsum(p, axis=1)
    return np.minimum((u[:, None] > cum).sum(axis=1), n - 1)


def _fs_arm(store, exp, arm, dice, winners, policy):
    n = dice.shape[1]
    games, seats = make_multiplayer_arm(exp, arm, n, [[int(x)] for x in winners],
                                        game="flower_shop", policies=[policy] * n)
    seats = seats.with_columns(initiative_die=pl.Series(dice.reshape(-1)))
    write_arm(store, exp, arm, "flower_shop", games, seats)
    return arm_manifest(arm, "flower_shop", n, policies=[policy] * n)


def experiment_store(tmp_path: Path, rates: dict[str, float], n_games: int = 4000,
                     name: str = "fs3", **manifest) -> tuple[Path, str]:
    """Flower Shop, 3 players, one arm per policy (``p3``, then ``p3-<policy>``): the holder of
    I-D wins ``rates[policy]`` (fair share 1/3)."""
    rng = np.random.default_rng(1)
    store = tmp_path / name
    dice = _deal(rng, n_games)
    arms = []
    for k, (pol, rate) in enumerate(rates.items()):
        u = rng.random(n_games)
        arm = "p3" if k == 0 else f"p3-{pol}"
        arms.append(_fs_arm(store, name, arm, dice, _winners(dice, u, 3, rate), pol))
    write_manifest(store, name, arms, n_games=n_games, **manifest)
    return store, name


def solo_store(tmp_path: Path, targets: dict | None = None) -> tuple[Path, str]:
    """Flower Shop solo: five variants under novice, greedy, expert and search (search the
    strongest); the ladder is monotone for every policy."""
    base = dict(zip(SOLO_VARIANTS, [0.6, 0.45, 0.3, 0.15, 0.04]))
    skill = {"novice": 0.3, "greedy": 0.6, "expert": 1.0, "search": 1.1}
    probs = {(v, pol): min(0.95, p * k) for v, p in base.items() for pol, k in skill.items()}
    store = make_solo_store(tmp_path / "solo", "solo", probs, n_games=600,
                            policies=("search", "expert", "novice", "greedy"))
    if targets is not None:
        import json
        path = store / "experiments" / "solo.json"
        m = json.loads(path.read_text())
        m["targets"] = targets
        path.write_text(json.dumps(m))
    return store, "solo"


OVERSHOOT = {"greedy": (0.024, -0.032), "expert": (0.02, -0.03)}


def compare_store(tmp_path: Path, planted: dict | None = None, n_games: int = 4000,
                  name: str = "cmp") -> tuple[Path, str]:
    """A comparison of ``seat_bonus_gold=1`` with its baseline under each policy of
    ``planted`` (``{policy: (gap before, gap after)}`` of the I-D holder's win rate from 1/3).
    Default: the tweak overshoots (:data:`OVERSHOOT`: under greedy +2.4 points before, -3.2
    after, the designer's case)."""
    planted = planted or OVERSHOOT
    policies = list(planted)
    rng = np.random.default_rng(2)
    store, exp = tmp_path / name, name
    dice = _deal(rng, n_games)
    arms, pairs = [], []
    for k, pol in enumerate(policies):
        suffix = "" if k == 0 else f"-{pol}"
        u = rng.random(n_games)
        b, t = planted[pol]
        arms.append(_fs_arm(store, exp, f"baseline-p3{suffix}", dice,
                            _winners(dice, u, 3, 1 / 3 + b), pol))
        arms.append(_fs_arm(store, exp, f"tweak-p3{suffix}", dice,
                            _winners(dice, u, 3, 1 / 3 + t), pol))
        arms[-1]["tweaks"] = {"seat_bonus_gold": 1}
        pairs.append({"n_players": 3, "baseline": f"baseline-p3{suffix}",
                      "tweak": f"tweak-p3{suffix}"})
    write_manifest(store, exp, arms, n_games=n_games,
                   spec={"kind": "compare", "game": "flower_shop", "set": ["seat_bonus_gold=1"],
                         "policy": policies[0], "also_policy": list(policies[1:]),
                         "pairs": pairs})
    return store, exp


def sweep_store(tmp_path: Path, n_games: int = 3000) -> tuple[Path, str]:
    """A sweep of ``x`` = 1, 2, 3 (an integer rule value): I-D's holder wins 1/3 - 6 points,
    1/3 + 0.5 and 1/3 + 2.5 points: unbalanced, plausibly balanced, undecided (±2 points)."""
    rng = np.random.default_rng(5)
    store, exp = tmp_path / "swp", "swp"
    dice = _deal(rng, n_games)
    points, arms = [], []
    for x, gap in ((1, -0.06), (2, 0.005), (3, 0.025)):
        arm = f"x{x}-p3"
        arms.append(_fs_arm(store, exp, arm, dice,
                            _winners(dice, rng.random(n_games), 3, 1 / 3 + gap), "greedy"))
        points.append({"arm": arm, "n_players": 3, "values": {"x": x}})
    write_manifest(store, exp, arms, n_games=n_games,
                   spec={"kind": "sweep", "game": "flower_shop", "tolerance": 0.02,
                         "policy": "greedy", "params": [{"name": "x", "values": [1, 2, 3]}],
                         "points": points})
    return store, exp


def ladder_store(tmp_path: Path, players: int = 2, games: int = 400) -> tuple[Path, str]:
    """Rattlebones ladder random < greedy < expert, 2 players: each rung beats the ones below."""
    rungs = ["random", "greedy", "expert"]
    rates = {("greedy", "random"): 0.7, ("expert", "random"): 0.8, ("expert", "greedy"): 0.6}
    rng = np.random.default_rng(0)
    store = tmp_path / "ladder"
    arms, matches = [], []
    for i, b in enumerate(rungs):
        for a in rungs[i + 1:]:
            for seat in range(players):
                name = f"{a}-vs-{b}-seat{seat}"
                other = (seat + 1) % players
                winners = [[seat] if rng.random() < rates[(a, b)] else [other]
                           for _ in range(games)]
                pol = [a if s == seat else b for s in range(players)]
                g, s = make_multiplayer_arm("lad", name, players, winners, policies=pol)
                write_arm(store, "lad", name, "rattlebones", g, s)
                arms.append(arm_manifest(name, "rattlebones", players, policies=pol))
                matches.append({"arm": name, "a": a, "b": b, "seat": seat})
    spec = {"kind": "ladder", "game": "rattlebones", "players": players, "variant": None,
            "set": [], "rungs": rungs, "games": games, "seed": 7, "search_games": None,
            "components": None, "matches": matches}
    write_manifest(store, "lad", arms, n_games=games, spec=spec)
    return store, "lad"


def solo_ladder_store(tmp_path: Path) -> tuple[Path, str]:
    rng = np.random.default_rng(2)
    store, arms, matches = tmp_path / "sololad", [], []
    for rung, p in (("random", 0.02), ("greedy", 0.3), ("expert", 0.5)):
        winners = [[0] if rng.random() < p else [] for _ in range(400)]
        g, s = make_multiplayer_arm("sololad", rung, 1, winners, policies=[rung])
        write_arm(store, "sololad", rung, "rattlebones", g, s)
        arms.append(arm_manifest(rung, "rattlebones", 1, policies=[rung]))
        matches.append({"arm": rung, "a": rung, "b": None, "seat": 0})
    write_manifest(store, "sololad", arms, n_games=400, spec={
        "kind": "ladder", "game": "rattlebones", "players": 1,
        "rungs": ["random", "greedy", "expert"], "games": 400, "seed": 7, "matches": matches})
    return store, "sololad"


def write_all(tmp_path: Path) -> dict[str, Path]:
    """Every report kind written once: ``{kind: html path}``."""
    from analysis.reports import write_report, write_study_report

    out = tmp_path / "reports"
    paths = {}
    store, exp = experiment_store(tmp_path, {"greedy": 1 / 3 - 0.05, "expert": 1 / 3 + 0.04})
    paths["experiment"] = write_report(store, exp, out)
    store, exp = solo_store(tmp_path, targets={"solo_hell": 0.05})
    paths["solo"] = write_report(store, exp, out)
    store, exp = compare_store(tmp_path)
    paths["compare"] = write_report(store, exp, out)
    paths["plan"] = write_study_report(store, exp, out, plan={"delta": 0.02})
    store, exp = sweep_store(tmp_path)
    paths["sweep"] = write_report(store, exp, out)
    store, exp = ladder_store(tmp_path)
    paths["ladder"] = write_report(store, exp, out)
    store, exp = solo_ladder_store(tmp_path)
    paths["solo ladder"] = write_report(store, exp, out)
    return paths
