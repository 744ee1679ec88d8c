"""The experiment report's "How the game plays" section: the insights of the traced arms
(:mod:`analysis.insights`, the numbers ``playtest insights`` prints) as the report shows them.

First each traced arm's plain verdict (:func:`analysis.insights.verdict`); then, per group of
arms that differ only in their policies (greedy beside expert: which readings survive stronger
play), one table with the arms side by side (completion, duration, closeness, lead change
rate, drama, decisiveness, comebacks, each with its 95% interval); per arm the comeback
heatmap (its cells carry their intervals), the actions summary under the strongest policy
(association, not cause) and the rule-hole flags with their rate per 10,000 games and the
``playtest replay`` command of an example. Arms without round traces get one line saying so;
they are not computed (the section costs nothing for an experiment run without ``--trace``).
"""
from __future__ import annotations

import pandas as pd

from .. import plots
from ..insights import CAVEAT
from ..insights.arms import (arm_groups, experiment_insights, policy_label, survive,
                             traced_games)
from ..words import count, option_value
from . import formatting as fmt
from . import render

__all__ = ["NO_TRACES", "how_it_plays", "TOP_LIFT"]

#: The line an arm without round traces gets.
NO_TRACES = "no traced games: run with --trace N"
#: Option kinds listed by win lift (highest first) per arm.
TOP_LIFT = 5
#: The flags, in the order shown, with what each means.
_FLAGS = {
    "truncated": "stopped by the max-rounds safety cap (every game of the arm)",
    "stall": "a run of {K}+ rounds in a row in which no seat's score changed (traced games)",
    "no_legal_option": "a seat reached a decision with no legal option (traced games)",
}


def how_it_plays(con, experiment: str, manifest: dict, arms: list[str]) -> dict:
    """The section's context (plain strings and lists; ``insights``: the JSON-ready
    :func:`analysis.insights.insights` dict of each traced arm, keyed by arm).

    ``arms``: the arms with stored games, in report order; ``con``: the report's connection
    (:func:`analysis.db.connect`, scoped to the experiment)."""
    entries = {str(a.get("name")): a for a in manifest.get("arms") or [] if isinstance(a, dict)}
    n_traced = traced_games(con, experiment)
    traced = [a for a in arms if n_traced.get(a)]
    untraced = [a for a in arms if not n_traced.get(a)]
    result, _ = experiment_insights(con, experiment, traced, entries) if traced else ({}, {})
    groups = [_group(g, result, entries, n_traced) for g in arm_groups(result, entries)]
    return {
        "any": bool(result),
        "no_traces": NO_TRACES,
        "untraced": untraced,
        "verdicts": [{"arm": a, "policy": policy_label(entries.get(a, {})),
                      "text": result[a]["verdict"]} for a in result],
        "groups": groups,
        "arms": [_arm(a, result[a], entries.get(a, {})) for a in result],
        "caveat": CAVEAT,
        "insights": result,
    }


# ---- cells -----------------------------------------------------------------------------------

def _bounds_missing(e: dict) -> bool:
    return e.get("low") is None or e.get("high") is None


def pct_cell(e: dict | None) -> str:
    """``"14.0% (12.9–15.0%)"``: a share with its 95% interval (``n/a`` where missing)."""
    if not e or e.get("estimate") is None:
        return "n/a"
    if _bounds_missing(e):
        return f"{fmt.pct(e['estimate'])} (95% CI {fmt.pct(e.get('low'))} to " \
               f"{fmt.pct(e.get('high'))})"
    return f"{fmt.pct(e['estimate'])} ({fmt.ci(e['low'], e['high'])})"


def num_cell(e: dict | None, digits: int = 1) -> str:
    """``"31.4 (30.8–32.0)"``: a number with its 95% interval (a bound that does not exist,
    such as the upper bound of a 95th percentile of few games, is ``n/a``)."""
    if not e or e.get("estimate") is None:
        return "n/a"
    return (f"{fmt.num(e['estimate'], digits)} ({fmt.num(e.get('low'), digits)}–"
            f"{fmt.num(e.get('high'), digits)})")


def _rows(ins: dict, traced: int) -> list[tuple[str, str]]:
    """The side-by-side table's rows of one arm: (label, cell)."""
    c, d, cl = ins["completion"], ins["duration"], ins["closeness"]
    return [
        ("games (traced)", f"{c['n_games']:,} ({traced:,})"),
        ("completed", pct_cell(c["completed"])),
        ("duration: mean rounds", num_cell(d.get("mean"))),
        ("duration: median rounds (p50)", num_cell(d.get("p50"))),
        ("duration: 95th percentile (p95)", num_cell(d.get("p95"))),
        ("closeness: mean winning margin", num_cell((cl.get("margin") or {}).get("mean"))),
        ("closeness: 1/√E[margin²]", num_cell(cl.get("closeness"), 3)),
        ("lead change rate (share of rounds)", pct_cell(ins["lead_change_rate"]["mean"])),
        ("drama: winner behind after (share of rounds)",
         pct_cell(ins["drama"]["behind_share"])),
        ("drama: winner's mean deficit (points)", num_cell(ins["drama"]["deficit"], 2)),
        ("decisiveness: led for good from (share of the game)",
         pct_cell(ins["decisiveness"]["mean"])),
        ("comeback: P(win | trailing)", pct_cell(ins["comeback"].get("p_win_trailing"))),
    ]


def _group(group: list[str], result: dict, entries: dict, n_traced: dict) -> dict:
    e0 = entries.get(group[0], {})
    tweaks = ", ".join(f"{k}={option_value(v)}" for k, v in (e0.get("tweaks") or {}).items())
    n = e0.get("n_players")
    players = count(n, "player") if isinstance(n, int) else "? players"
    title = (f"{e0.get('game', fmt.UNKNOWN)}, {players}, variant "
             f"{e0.get('variant') or fmt.UNKNOWN}" + (f", {tweaks}" if tweaks else ""))
    rows = {a: _rows(result[a], n_traced.get(a, 0)) for a in group}
    labels = [label for label, _ in rows[group[0]]]
    return {
        "title": title,
        "arms": [{"name": a, "policy": policy_label(entries.get(a, {}))} for a in group],
        "rows": [{"label": label, "cells": [dict(rows[a])[label] for a in group]}
                 for label in labels],
        "survive": survive(group, result, entries) if len(group) > 1 else "",
    }


# ---- per arm ---------------------------------------------------------------------------------

def _arm(name: str, ins: dict, entry: dict) -> dict:
    cb = ins["comeback"]
    table = pd.DataFrame(cb.get("table") or [])
    return {
        "arm": name, "policy": policy_label(entry),
        "comeback_chart": (render.figure_to_data_uri(plots.comeback_heatmap_plot(
            table, f"{name}: P(win | trailing by d after round r), 95% CI"))
            if len(table) else None),
        "comeback_rows": [{"rounds": r["round_bin"], "deficit": r["deficit_bin"],
                           "n": fmt.num(r["n"]), "games": fmt.num(r["games"]),
                           "p_win": fmt.pct(r["p_win"]), "ci": fmt.ci(r["low"], r["high"])}
                          for r in cb.get("table") or []],
        "actions": _actions(ins["actions"]),
        "flags": _flags(ins["flags"]),
    }


def _kind_rows(rows: list[dict]) -> list[dict]:
    return [{"point": r["point"], "kind": r["kind"] or "–", "legal": fmt.num(r["legal"]),
             "chosen": fmt.num(r["chosen"])} for r in rows]


def _actions(a: dict) -> dict:
    """Never- and always-picked kinds and the top win lifts under the strongest policy."""
    best = a.get("strongest_policy")
    floor = a.get("min_legal") or 0
    kinds = [k for k in a.get("kinds") or []
             if k.get("policy") == best and k.get("win_lift_low") is not None
             and min(k.get("n_picked") or 0, k.get("n_not") or 0) >= floor]
    # the lifts we are surest of first: by the lower bound of the interval
    kinds.sort(key=lambda k: -k["win_lift_low"])
    rate = (a.get("policy_win_rates") or {}).get(best) if best else None
    return {
        "n_games": a.get("n_games", 0), "strongest": best or fmt.UNKNOWN,
        "strongest_rate": pct_cell(rate) if rate else "n/a",
        "min_legal": a.get("min_legal"),
        "never": _kind_rows(a.get("never_picked") or []),
        "always": _kind_rows(a.get("always_picked") or []),
        "lift": [{"point": k["point"], "kind": k["kind"] or "–",
                  "picked": fmt.num(k.get("n_picked")),
                  "lift": fmt.pts(k["win_lift"]),
                  "ci": (f"{fmt.pts(k['win_lift_low'])} to {fmt.pts(k['win_lift_high'])}"
                         if k.get("win_lift_low") is not None
                         and k.get("win_lift_high") is not None else "n/a"),
                  "excludes_0": bool(k.get("win_lift_low") is not None
                                     and (k["win_lift_low"] > 0
                                          or (k.get("win_lift_high") or 0) < 0))}
                 for k in kinds[:TOP_LIFT]],
    }


def _flags(flags: dict) -> list[dict]:
    out = []
    for key, what in _FLAGS.items():
        f = flags.get(key)
        if f is None:
            continue
        ex = (f.get("examples") or [None])[0]
        out.append({
            "name": key.replace("_", " "), "what": what.format(K=f.get("K", "K")),
            "recorded": bool(f.get("recorded", True)),
            "games": f"{f['games']:,} of {f['n_games']:,}",
            "rate": num_cell(f.get("per_10000"), 1),
            "command": ex["command"] if ex else "",
            "example": (f"game {ex['game_index']}" if ex else ""),
        })
    return out
