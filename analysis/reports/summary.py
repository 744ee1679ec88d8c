"""What every report states first, from the manifest and the stored games: the experiment, games,
versions, seed, each arm's settings in words (rule values against the game's defaults, policies
per seat, component data), the settings all arms share, an unfinished run and a precision
target (design §5: enough for a reader to reproduce the report)."""
from __future__ import annotations

import datetime as _dt
import functools
import json
import os

import pandas as pd

from sim.spec import SpecError

from .. import db
from . import formatting as fmt

__all__ = ["ASSUMED_COMPONENTS_TEXT", "policy_text", "game_of", "summary_context",
           "precision_block"]

ASSUMED_COMPONENTS_TEXT = (
    "assumed defaults (spec §2 [A]); replace with real components via --components"
)


@functools.lru_cache(maxsize=None)
def _defaults(game: str) -> dict | None:
    """Default rule values of ``game`` from the registry, or None if it cannot be loaded."""
    try:
        from sim.registry import make

        return {p.name: p.default for p in make(game).params}
    except Exception:
        return None


def _norm(v):
    if isinstance(v, (list, tuple)):
        return tuple(_norm(x) for x in v)
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    try:
        return float(v)
    except (TypeError, ValueError):
        return v


def _rule_changes(arm: dict) -> tuple[list[str], str]:
    """Rule values of ``arm`` that differ from the game's defaults, and a note on their source."""
    rv = arm.get("rule_values") or {}
    tweaks = arm.get("tweaks") or {}
    defaults = _defaults(str(arm.get("game")))
    if defaults is not None and isinstance(rv, dict) and rv:
        items = [f"{k} = {fmt.show(v)} (default {fmt.show(defaults[k])})" for k, v in rv.items()
                 if k in defaults and _norm(v) != _norm(defaults[k])]
        items += [f"{k} = {fmt.show(v)} (not a parameter of the current game version)"
                  for k, v in rv.items() if k not in defaults]
        return items, "compared with the game's defaults"
    items = [f"{k} = {fmt.show(v)}"
             for k, v in (tweaks.items() if isinstance(tweaks, dict) else [])]
    return items, "defaults unavailable: --set tweaks shown (variant presets not expanded)"


def _components_text(arm: dict) -> str:
    comp = arm.get("components") or {}
    if not isinstance(comp, dict) or "assumed" not in comp:
        return f"{fmt.UNKNOWN} (manifest does not say whether component data are assumed)"
    digest = comp.get("digest") or fmt.UNKNOWN
    if comp.get("assumed"):
        return f"{ASSUMED_COMPONENTS_TEXT} [digest {digest}]"
    return f"real component data from {comp.get('dir') or fmt.UNKNOWN} [digest {digest}]"


def policy_text(text: str) -> str:
    """``"greedy:w_stars=2,money_reserve=3"`` -> ``"greedy (w_stars=2, money_reserve=3)"``."""
    name, _, opts = str(text).partition(":")
    opts = ", ".join(o.strip() for o in opts.split(",") if o.strip())
    return f"{name} ({opts})" if opts else name


def _policy_texts(pols) -> list[str]:
    """``seat i: policy (overrides)`` per seat; manifest entries may be strings or
    ``{seat, policy, spec, params}`` objects (as pipelines writes them)."""
    if not isinstance(pols, list) or not pols:
        return [fmt.UNKNOWN]
    out = []
    for i, p in enumerate(pols):
        if isinstance(p, dict):
            seat = p.get("seat", i)
            text = p.get("spec") or p.get("policy") or fmt.UNKNOWN
        else:
            seat, text = i, p
        out.append(f"seat {seat}: {policy_text(text)}")
    return out


def _get(d: dict, key: str):
    v = d.get(key) if isinstance(d, dict) else None
    return fmt.UNKNOWN if v is None or v == "" else v


def _arm_rows(manifest: dict, stored: pd.DataFrame, games_stored: dict) -> list[dict]:
    """One row per arm: manifest arms in order, then arms only present in the data."""
    versions = (manifest.get("game_versions")
                if isinstance(manifest.get("game_versions"), dict) else {})
    arms = [a for a in (manifest.get("arms") or []) if isinstance(a, dict)]
    names = [str(a.get("name")) for a in arms]
    for arm in stored.get("arm", pd.Series(dtype=str)).tolist():
        if arm not in names:
            names.append(arm)
            arms.append({"name": arm})
    rows = []
    for a in arms:
        name = str(a.get("name"))
        srow = stored[stored["arm"] == name] if len(stored) else stored
        game = a.get("game") or (srow["game"].iloc[0] if len(srow) else None)
        n_players = a.get("n_players") or (int(srow["n_players"].iloc[0]) if len(srow) else None)
        a = {**a, "game": game, "n_players": n_players,
             "game_version": a.get("game_version") or versions.get(game)}
        changes, changes_note = _rule_changes(a)
        requested = a.get("n_games")
        rows.append({
            "name": name,
            "game": game or fmt.UNKNOWN,
            "n_players": n_players if n_players is not None else fmt.UNKNOWN,
            "variant": _get(a, "variant"),
            "policies": _policy_texts(a.get("policies")),
            "game_version": _get(a, "game_version"),
            "components": _components_text(a),
            "assumed": bool((a.get("components") or {}).get("assumed", False)),
            "changes": changes,
            "changes_note": changes_note,
            "games_stored": games_stored.get(name, 0),
            "games_requested": requested if isinstance(requested, int) else None,
            "rule_values": json.dumps(a.get("rule_values", fmt.UNKNOWN), sort_keys=True, indent=1),
            "tweaks": json.dumps(a.get("tweaks", fmt.UNKNOWN), sort_keys=True),
        })
    return rows


def game_of(manifest: dict) -> str:
    """The game of the manifest's first arm ('' if unknown)."""
    arms = (manifest or {}).get("arms") or [{}]
    return arms[0].get("game", "")


def _partial_text(manifest: dict, stored: int) -> str:
    """``partial: N of M games ...`` for an experiment with unfinished chunks, else "".

    The views hold finished chunks only (:func:`analysis.db.connect`), so every table of the
    report counts the same N games; M is what the manifest plans over all arms."""
    planned = sum(a.get("n_games", 0) for a in manifest.get("arms") or []
                  if isinstance(a, dict) and isinstance(a.get("n_games"), int))
    if manifest.get("status") == "complete" or not planned or stored >= planned:
        return ""
    return (f"partial: {stored:,} of {planned:,} games (the run is unfinished; every table "
            f"below uses the same finished chunks; run the same command again to finish it)")


_ARM_FIELDS = (("game", "Game"), ("n_players", "Players"), ("variant", "Variant"),
               ("policies", "Policies per seat"), ("game_version", "Game version"),
               ("changes", "Rule values differing from defaults"),
               ("components", "Component data"))


def _common_settings(arm_rows: list[dict]) -> dict:
    """Settings shared by every arm (said once) and the fields that differ (one column each)."""
    def show(v):
        return "; ".join(v) if isinstance(v, list) else str(v)

    same = [(k, label) for k, label in _ARM_FIELDS
            if len(arm_rows) > 1 and len({show(r[k]) for r in arm_rows}) == 1]
    return {"same": [{"label": label, "value": show(arm_rows[0][k]) or "none"}
                     for k, label in same],
            "vary": [k for k, _ in _ARM_FIELDS if (k, dict(_ARM_FIELDS)[k]) not in same]}


def summary_context(con, store, experiment: str) -> dict:
    """What every report states: the experiment, games, versions, seed, arms and settings
    (raises SpecError if the experiment is unknown). Keys starting with ``_`` are for builders."""
    names = db.experiment_names(con)
    if experiment not in names:
        where = os.fspath(store)
        valid = ", ".join(names) if names else f"none (the store at {where} has no experiments)"
        raise SpecError(f"unknown experiment '{experiment}'; valid: {valid}")
    manifest = db.load_manifest(store, experiment)
    stored = db.query(con, """
        SELECT arm, any_value(game) AS game, any_value(n_players) AS n_players,
               count(*) AS n_games, sum(CASE WHEN truncated THEN 1 ELSE 0 END) AS n_truncated,
               list(DISTINCT master_seed ORDER BY master_seed) AS seeds
        FROM stg_games WHERE experiment = ? GROUP BY arm ORDER BY arm""", [experiment])
    games_stored = dict(zip(stored["arm"], stored["n_games"].astype(int)))
    arm_rows = _arm_rows(manifest, stored, games_stored)
    seeds = sorted({int(s) for lst in stored.get("seeds", []) for s in lst})
    master_seed = manifest.get("master_seed")
    if master_seed is None and seeds:
        master_seed = ", ".join(map(str, seeds))
    games = sorted({r["game"] for r in arm_rows})
    versions = sorted({f"{r['game']} {r['game_version']}" for r in arm_rows})
    any_assumed = any(r["assumed"] for r in arm_rows)
    all_assumed_known = all("assumed" in (a.get("components") or {})
                            for a in manifest.get("arms") or [] if isinstance(a, dict))
    return {
        "experiment": experiment,
        "generated_at": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "games": ", ".join(games) or fmt.UNKNOWN,
        "game_versions": ", ".join(versions) or fmt.UNKNOWN,
        "code_version": _get(manifest, "code_version"),
        "code_versions_mixed": (sorted(map(str, manifest["code_versions"]))
                                if isinstance(manifest.get("code_versions"), list)
                                and len(manifest["code_versions"]) > 1 else []),
        "master_seed": master_seed if master_seed is not None else fmt.UNKNOWN,
        "n_games": _get(manifest, "n_games"),
        "status": _get(manifest, "status"),
        "created_at": _get(manifest, "created_at"),
        "total_stored": int(stored["n_games"].sum()) if len(stored) else 0,
        "components_summary": (ASSUMED_COMPONENTS_TEXT if any_assumed else
                               ("real component data" if manifest.get("arms") and all_assumed_known
                                else fmt.UNKNOWN)),
        "arms": arm_rows,
        "partial": _partial_text(manifest, int(stored["n_games"].sum()) if len(stored) else 0),
        "arms_common": _common_settings(arm_rows),
        "manifest_json": json.dumps(manifest, indent=2, sort_keys=True) if manifest else "",
        "_manifest": manifest,
    }


def precision_block(manifest: dict) -> dict | None:
    """What ``run --precision`` reached (target met or NOT met, with its rounds), or None."""
    pr = manifest.get("precision") if isinstance(manifest, dict) else None
    if not isinstance(pr, dict):
        return None
    target = pr.get("target")
    widest = pr.get("widest")
    rounds = len(pr.get("steps") or [])
    games = pr.get("games_per_arm") or {}
    sizes = ", ".join(sorted({f"{int(v):,}" for v in games.values()})) or fmt.UNKNOWN
    if pr.get("met"):
        text = (f"Precision target met: every 95% interval on the probability scale (win rates, "
                f"first-player advantage, end-reason shares and their differences) has a "
                f"half-width below ±{target:g} (widest ±{widest:.4f}, {pr.get('widest_metric')}) "
                f"after {rounds} round(s); games per arm: {sizes}.")
    else:
        text = (f"Precision target ±{target:g} NOT met: the run stopped at the --max-games cap of "
                f"{int(pr.get('max_games', 0)):,} games per arm "
                f"({', '.join(pr.get('capped') or []) or 'some arms'}); the widest interval is "
                f"±{widest:.4f} ({pr.get('widest_metric')}). Read the intervals as they are, or "
                f"raise --max-games.")
    return {"met": bool(pr.get("met")), "text": text,
            "steps": [{"round": i + 1, "widest": f"±{st.get('widest', float('nan')):.4f}",
                       "metric": st.get("metric", ""),
                       "games": ", ".join(f"{k}: {int(v):,}" for k, v in
                                          (st.get("games") or {}).items())}
                      for i, st in enumerate(pr.get("steps") or [])]}
