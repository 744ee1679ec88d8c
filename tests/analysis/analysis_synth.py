"""Synthetic stores in the exact contract layout (design.md §4), independent of game kernels.

Imported by the analysis tests (``from analysis_synth import ...``) and their fixtures.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

SOLO_VARIANTS = ("solo_easy", "solo_base", "solo_hard", "solo_very_hard", "solo_hell")


def write_arm(store: Path, experiment: str, arm: str, game: str, games: pl.DataFrame,
              seats: pl.DataFrame, chunk_size: int | None = None) -> None:
    """Write one arm's rows as hive-partitioned parts (optionally in several chunks)."""
    for kind, df in (("games", games), ("seats", seats)):
        d = store / "results" / kind / f"game={game}" / f"experiment={experiment}" / f"arm={arm}"
        d.mkdir(parents=True, exist_ok=True)
        if chunk_size is None:
            df.write_parquet(d / "part-000000.parquet")
            continue
        for c, lo in enumerate(range(0, games.height, chunk_size)):
            idx = set(range(lo, min(lo + chunk_size, games.height)))
            part = df.filter(pl.col("game_index").is_in(sorted(idx)))
            part.write_parquet(d / f"part-{c:06d}.parquet")


def make_multiplayer_arm(experiment: str, arm: str, n_players: int, winners: list[list[int]],
                         scores: list[list[int]] | None = None, rounds: list[int] | None = None,
                         end_reason: list[str] | None = None, truncated: list[bool] | None = None,
                         game: str = "rattlebones", seed: int = 7,
                         policies: list[str] | None = None):
    """Games and seats frames from explicit winner lists (``[]`` = nobody won)."""
    n = len(winners)
    policies = policies or ["greedy"] * n_players
    rounds = rounds or [10] * n
    end_reason = end_reason or ["target_score"] * n
    truncated = truncated or [False] * n
    scores = scores or [[10 * (s in w) + s for s in range(n_players)] for w in winners]
    games = pl.DataFrame({
        "experiment": [experiment] * n,
        "arm": [arm] * n,
        "game": [game] * n,
        "n_players": [n_players] * n,
        "master_seed": [seed] * n,
        "game_index": list(range(n)),
        "rounds": rounds,
        "truncated": truncated,
        "n_winners": [len(w) for w in winners],
        "winner_seat": [w[0] if len(w) == 1 else -1 for w in winners],
        "end_reason": end_reason,
        "bank_busts": [i % 3 for i in range(n)],
    })
    rows = []
    for i, w in enumerate(winners):
        sc = scores[i]
        for s in range(n_players):
            rank = 1 + sum(1 for t in range(n_players) if sc[t] > sc[s])
            rows.append({
                "experiment": experiment, "arm": arm, "game": game, "n_players": n_players,
                "master_seed": seed, "game_index": i, "seat": s, "policy": policies[s],
                "score": sc[s], "rank": rank, "won": s in w,
                "win_share": (1.0 / len(w)) if s in w else 0.0, "busts": s,
            })
    return games, pl.DataFrame(rows)


def write_manifest(store: Path, experiment: str, arms: list[dict], master_seed: int = 7,
                   n_games: int = 0, **extra) -> None:
    d = store / "experiments"
    d.mkdir(parents=True, exist_ok=True)
    m = {"name": experiment, "master_seed": master_seed, "n_games": n_games, "arms": arms,
         "code_version": "abc1234", "created_at": "2026-01-01T00:00:00Z", "status": "complete",
         "finished_chunks": {a["name"]: [0] for a in arms}}
    m.update(extra)
    (d / f"{experiment}.json").write_text(json.dumps(m, indent=2))


def arm_manifest(name, game, n_players, variant="base", policies=None, rule_values=None,
                 tweaks=None, assumed=True, game_version="1.0"):
    return {"name": name, "game": game, "n_players": n_players, "variant": variant,
            "rule_values": rule_values or {"target": 30}, "tweaks": tweaks or {},
            "policies": policies or ["greedy"] * n_players,
            "components": {"dir": "sim/games/x/components", "digest": "d1g3st", "assumed": assumed},
            "game_version": game_version}


def make_solo_store(store: Path, experiment: str, win_probs: dict, n_games: int = 400,
                    policies=("greedy",), seed: int = 11, game_version="fs-1.2",
                    exact: bool = False, card_probs: dict | None = None,
                    alt_components: dict | None = None) -> Path:
    """Solo Flower Shop store: one arm per variant x policy with planted win probabilities.

    ``win_probs[(variant, policy)]`` (or ``win_probs[variant]``) is the planted probability;
    with ``exact`` every arm wins exactly ``round(p * n_games)`` games (in random order), so a
    test can plant counts whose statistics it knows. ``card_probs[(variant, card)]`` replaces
    the planted probability of that variant's games whose first card is ``card``. Losses end on
    days 1..6 (more on later days), wins on day 7; task cards 0..5, a second card for the easy
    and hell variants. ``alt_components[name]`` = win probabilities of the same arms on another
    component data set (arms ``<variant>-<policy>-<name>``, dir ``alt/<name>``, digest ``name``).
    """
    rng = np.random.default_rng(seed)
    arms: list[dict] = []
    sets = [("", win_probs, {})] + [
        (f"-{name}", probs, {"dir": f"alt/{name}", "digest": name, "assumed": True})
        for name, probs in (alt_components or {}).items()]
    for suffix, probs, comp in sets:
        _solo_arms(store, experiment, probs, n_games, policies, seed, game_version, exact,
                   card_probs, rng, arms, suffix, comp)
    write_manifest(store, experiment, arms, master_seed=seed, n_games=n_games)
    return store


def _solo_arms(store, experiment, win_probs, n_games, policies, seed, game_version, exact,
               card_probs, rng, arms, suffix, comp):
    """Write one solo arm per variant x policy of ``win_probs`` (see make_solo_store)."""
    for variant in win_probs if not isinstance(next(iter(win_probs)), tuple) else \
            dict.fromkeys(v for v, _ in win_probs):
        for pol in policies:
            p = win_probs.get((variant, pol), win_probs.get(variant))
            arm = f"{variant}-{pol}{suffix}"
            won = (rng.permutation(n_games) < round(p * n_games)) if exact else \
                rng.random(n_games) < p
            loss_day = np.where(won, 7, rng.choice([2, 3, 4, 5, 6, 7], n_games,
                                                   p=[.05, .1, .15, .2, .25, .25]))
            card = rng.integers(0, 6, n_games)
            two = variant in ("solo_easy", "solo_hell")
            card2 = np.where(two, (card + 1 + rng.integers(0, 5, n_games)) % 6, -1)
            for (v, c), pc in (card_probs or {}).items():
                if v == variant:
                    won[card == c] = rng.random(int((card == c).sum())) < pc
                    loss_day[won] = 7
            games = pl.DataFrame({
                "experiment": experiment, "arm": arm, "game": "flower_shop", "n_players": 1,
                "master_seed": seed, "game_index": np.arange(n_games),
                "rounds": loss_day.clip(max=6), "truncated": False,
                "n_winners": won.astype(np.int64), "winner_seat": np.where(won, 0, -1),
                "end_reason": np.where(won, "solo_win", np.where(loss_day < 7, "solo_infeasible",
                                                                  "solo_unsatisfied")),
                "loss_day": loss_day, "task_card": card, "task_card_2": card2,
            })
            seats = pl.DataFrame({
                "experiment": experiment, "arm": arm, "game": "flower_shop", "n_players": 1,
                "master_seed": seed, "game_index": np.arange(n_games), "seat": 0,
                "policy": pol, "score": rng.integers(10, 40, n_games), "rank": 1, "won": won,
                "win_share": won.astype(float),
            })
            write_arm(store, experiment, arm, "flower_shop", games, seats)
            arms.append(arm_manifest(arm, "flower_shop", 1, variant=variant, policies=[pol],
                                     rule_values={"days": 6, "solo_row_size": 4},
                                     game_version=game_version))
            arms[-1]["components"].update(comp)
