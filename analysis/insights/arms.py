"""The insights of a stored experiment's arms, read through the store's DuckDB views, and what
puts arms side by side. Shared by ``playtest insights`` (the terminal and JSON forms) and the
experiment report's "How the game plays" section, so both show the same numbers.

* :func:`read_arm`: one arm's ``games``, ``seats``, ``rounds`` and ``actions`` from the views
  of :func:`analysis.db.connect` (checked finished parts);
* :func:`traced_games`: traced games per arm;
* :func:`experiment_insights`: :func:`analysis.insights.insights` of each arm;
* :func:`replay_options`: an arm's rule and policy options for ``playtest replay``;
* :func:`arm_groups`, :func:`policy_label`, :func:`readings`, :func:`survive`: arms that
  differ only in their policies, and which verdict readings hold under every policy ("which
  readings survive stronger play").
"""
from __future__ import annotations

import json

import pandas as pd

from ..words import option_value
from .verdict import CLOSE, EARLY, SWINGY

__all__ = ["read_arm", "traced_games", "experiment_insights", "replay_options", "arm_groups",
           "policy_label", "readings", "survive"]

# The columns of games/seats the insights read (all of them: a million-game arm stays small).
GAMES_COLS = ("experiment, arm, game, n_players, master_seed, game_index, rounds, truncated, "
              "n_winners, winner_seat, end_reason")
SEATS_COLS = ("experiment, arm, game, n_players, master_seed, game_index, seat, policy, "
              "score, win_share")


def read_arm(con, experiment: str, arm: str) -> dict[str, pd.DataFrame]:
    """The ``games``, ``seats``, ``rounds`` and ``actions`` rows of one arm, read through the
    views of ``con`` (:func:`analysis.db.connect`), in key order. A table the arm lacks is
    empty."""
    from .. import db

    params = [experiment, arm]
    where = "WHERE experiment = ? AND arm = ?"
    order = "ORDER BY master_seed, game_index"
    return {
        "games": db.query(con, f"SELECT {GAMES_COLS} FROM games {where} {order}", params),
        "seats": db.query(con, f"SELECT {SEATS_COLS} FROM seats {where} {order}, seat",
                          params),
        "rounds": db.query(con, f"SELECT * FROM rounds {where} {order}, round, seat", params),
        "actions": db.query(con, f"SELECT * FROM actions {where} {order}, seat", params),
    }


def traced_games(con, experiment: str) -> dict[str, int]:
    """Traced games (games with ``rounds`` rows) per arm of ``experiment``; arms without
    traces are absent."""
    from .. import db

    d = db.query(con, "SELECT arm, count(*) AS n FROM (SELECT DISTINCT arm, master_seed, "
                      "game_index FROM rounds WHERE experiment = ?) GROUP BY arm",
                 [experiment])
    return {str(r.arm): int(r.n) for r in d.itertuples()}


class _Quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def experiment_insights(con, experiment: str, arms: list[str], entries: dict,
                        stall_rounds: int = 10, max_examples: int = 3, status=None,
                        default_policy: str | None = None
                        ) -> tuple[dict[str, dict], dict[str, int]]:
    """``{arm: analysis.insights.insights(...)}`` of the arms of a stored experiment (read
    through the views of ``con``, one arm at a time; arms without games are left out), and
    the traced games per arm.

    ``entries``: the manifest's arms by name (for the replay commands of the flags);
    ``status(text)``: a context manager shown while an arm is computed; ``default_policy``:
    the policy ``playtest replay`` plays without ``--policy`` (:func:`replay_options`)."""
    from . import insights

    result, traced = {}, {}
    for name in arms:
        t = read_arm(con, experiment, name)
        games, rounds = t["games"], t["rounds"]
        if games.empty:
            continue
        traced[name] = int(rounds[["master_seed", "game_index"]].drop_duplicates().shape[0]
                           if len(rounds) else 0)
        with (status or (lambda _: _Quiet()))(
                f"arm {name}: insights over {len(games):,} games "
                f"({traced[name]:,} traced)"):
            result[name] = insights(
                games, t["seats"], rounds, t["actions"], stall_rounds=stall_rounds,
                max_examples=max_examples,
                replay_options=replay_options(entries.get(name, {}), default_policy))
    return result, traced


def replay_options(entry: dict, default_policy: str | None = None) -> str:
    """The rule and policy options of a manifest arm for ``playtest replay`` (after the game,
    ``--players`` and ``--seed``). ``--policy P`` is left out when ``P`` is
    ``default_policy``."""
    parts = []
    if entry.get("variant"):
        parts.append(f"--variant {entry['variant']}")
    for k, v in (entry.get("tweaks") or {}).items():
        parts.append(f"--set {k}={option_value(v)}")
    pols = [p.get("spec") or p.get("policy") for p in entry.get("policies") or []
            if isinstance(p, dict)]
    if pols and len(set(pols)) == 1:
        if pols[0] != default_policy:
            parts.append(f"--policy {pols[0]}")
    else:
        parts += [f"--seat-policy {i}={p}" for i, p in enumerate(pols)]
    comp = entry.get("components") or {}
    if comp.get("dir") and not str(comp["dir"]).startswith("<") and _custom_components(entry):
        parts.append(f"--components {comp['dir']}")
    return " ".join(parts)


def _custom_components(entry: dict) -> bool:
    """Whether an arm was played with other component data than its game's bundled data."""
    try:
        from sim.registry import make

        spec = make(entry["game"])
        return spec.load_components(None).digest != (entry.get("components") or {}).get("digest")
    except Exception:  # a game no longer registered: name the directory anyway
        return True


def policy_label(entry: dict) -> str:
    """The policies of a manifest arm, each once (``"greedy"``, ``"greedy, random"``)."""
    pols = [p.get("spec") or p.get("policy") for p in entry.get("policies") or []
            if isinstance(p, dict)]
    return ", ".join(dict.fromkeys(map(str, pols))) or "?"


def arm_groups(names, entries: dict) -> list[list[str]]:
    """Arms that differ only in their policies (same game, player count, variant, rule values
    and component data), together, in the order of ``names``."""
    groups: dict[str, list[str]] = {}
    for name in names:
        e = entries.get(name, {})
        key = json.dumps([e.get("game"), e.get("n_players"), e.get("variant"),
                          e.get("rule_values"), (e.get("components") or {}).get("digest")],
                         sort_keys=True, default=str)
        groups.setdefault(key, []).append(name)
    return list(groups.values())


def readings(ins: dict) -> dict[str, str]:
    """The verdict's readings of an arm as labels (:mod:`analysis.insights.verdict`
    thresholds): ``lead`` (swingy / stable) and ``decided`` (close / settled mid-game /
    decided early), each where traced."""
    out = {}
    lc = ins["lead_change_rate"]["mean"]["estimate"]
    dec = ins["decisiveness"]["mean"]["estimate"]
    if lc is not None:
        out["lead"] = "swingy" if lc >= SWINGY else "stable"
    if dec is not None:
        out["decided"] = ("close" if dec >= CLOSE else "decided early" if dec < EARLY
                          else "settled mid-game")
    return out


def survive(group: list[str], result: dict, entries: dict) -> str:
    """Which verdict readings hold under every policy of a group of arms, in one line."""
    labels = {name: readings(result[name]) for name in group}
    parts = []
    for key, what in (("decided", "when it is decided"), ("lead", "lead changes")):
        vals = {name: lab.get(key) for name, lab in labels.items()}
        if any(v is None for v in vals.values()):
            parts.append(f"{what}: not traced under every policy")
        elif len(set(vals.values())) == 1:
            parts.append(f"{what}: '{next(iter(vals.values()))}' holds under every policy")
        else:
            parts.append(f"{what}: differs (" + "; ".join(
                f"{policy_label(entries.get(n, {}))}: {v}" for n, v in vals.items()) + ")")
    return "which readings survive stronger play: " + "; ".join(parts)
