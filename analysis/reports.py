"""Self-contained HTML reports of one experiment (``playtest report EXPERIMENT``).

One file, no external resources: CSS inline, charts embedded as base64 PNG. The report states
what a reader needs to reproduce it (design.md §5): games per arm, master seed, code and game
versions, policies per seat, rule values that differ from the defaults, and whether the
component data are assumed defaults.

Multiplayer arms get: win rate by seat with Wilson 95% intervals (table and chart), the
first-player advantage (seat 0 minus 1/N, with interval), a chi-square goodness-of-fit test of
seat balance in plain words, score distributions, game length, end reasons and truncated games.
Solo arms (``n_players == 1``, e.g. Flower Shop solo variants) get the difficulty report: the
ladder (win probability per variant and skill level), a monotonicity verdict with its evidence
(once per reading of a rung whose source sentence is garbled: the game's
``GameSpec.solo_difficulty``, :mod:`analysis.difficulty`), the day
of loss per variant, "what the assumed components do" (win probability per task card by name
and provenance, whether the verdict holds on the documented card alone, and the assumed
component data the experiment does not vary) and the exact settings.
"""
from __future__ import annotations

import base64
import csv
import html as html_lib
import datetime as _dt
import functools
import io
import itertools
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd

from sim.spec import CardNote, ComponentNotes, SoloDifficulty, SpecError

from . import db, difficulty, plots, robust, stats, studies
from . import ladder as ladder_stats

__all__ = ["ASSUMED_COMPONENTS_TEXT", "write_report", "render_report", "build_context",
           "figure_to_data_uri", "policy_text", "study_kind", "study_pairs", "compare_context",
           "sweep_long", "sweep_table", "sweep_context", "plan_rows", "plan_context",
           "ladder_rows", "ladder_context", "write_study_report"]

ASSUMED_COMPONENTS_TEXT = (
    "assumed defaults (spec §2 [A]); replace with real components via --components"
)
UNKNOWN = "unknown"


# ----------------------------------------------------------------------------------------------
# formatting
# ----------------------------------------------------------------------------------------------
def _digits(x: float, digits: int) -> int:
    """Enough decimals to show two significant figures of a small percentage (0.033%)."""
    v = abs(100 * float(x))
    if 0 < v < 1:
        return min(4, max(digits, 1 - int(np.floor(np.log10(v)))))
    return digits


def _pct(x, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    return f"{100 * float(x):.{_digits(x, digits)}f}%"


def _ci(lo, hi, digits: int = 1) -> str:
    if lo is None or not np.isfinite(lo):
        return "n/a"
    d = _digits(hi, digits)
    return f"{100 * float(lo):.{d}f}–{100 * float(hi):.{d}f}%"


def _pts(x, digits: int = 1) -> str:
    return stats.points(x, digits)


def _num(x, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    x = float(x)
    return f"{int(x):,}" if x == int(x) and abs(x) < 1e15 else f"{x:,.{digits}f}"


def _p(p: float) -> str:
    return stats._fmt_p(p)


def figure_to_data_uri(fig, dpi: int = 100) -> str:
    """Render a matplotlib figure to a ``data:image/png;base64,...`` URI (for ``<img src>``)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    if getattr(fig.canvas, "manager", None) is not None:  # a pyplot figure: release it
        import matplotlib.pyplot as plt

        plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


# ----------------------------------------------------------------------------------------------
# manifest helpers
# ----------------------------------------------------------------------------------------------
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


def _show(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


def _rule_changes(arm: dict) -> tuple[list[str], str]:
    """Rule values of ``arm`` that differ from the game's defaults, and a note on their source."""
    rv = arm.get("rule_values") or {}
    tweaks = arm.get("tweaks") or {}
    defaults = _defaults(str(arm.get("game")))
    if defaults is not None and isinstance(rv, dict) and rv:
        items = [f"{k} = {_show(v)} (default {_show(defaults[k])})" for k, v in rv.items()
                 if k in defaults and _norm(v) != _norm(defaults[k])]
        items += [f"{k} = {_show(v)} (not a parameter of the current game version)"
                  for k, v in rv.items() if k not in defaults]
        return items, "compared with the game's defaults"
    items = [f"{k} = {_show(v)}" for k, v in (tweaks.items() if isinstance(tweaks, dict) else [])]
    return items, "defaults unavailable: --set tweaks shown (variant presets not expanded)"


def _components_text(arm: dict) -> str:
    comp = arm.get("components") or {}
    if not isinstance(comp, dict) or "assumed" not in comp:
        return f"{UNKNOWN} (manifest does not say whether component data are assumed)"
    digest = comp.get("digest") or UNKNOWN
    if comp.get("assumed"):
        return f"{ASSUMED_COMPONENTS_TEXT} [digest {digest}]"
    return f"real component data from {comp.get('dir') or UNKNOWN} [digest {digest}]"


def policy_text(text: str) -> str:
    """``"greedy:w_stars=2,money_reserve=3"`` -> ``"greedy (w_stars=2, money_reserve=3)"``."""
    name, _, opts = str(text).partition(":")
    opts = ", ".join(o.strip() for o in opts.split(",") if o.strip())
    return f"{name} ({opts})" if opts else name


def _policy_texts(pols) -> list[str]:
    """``seat i: policy (overrides)`` per seat; manifest entries may be strings or
    ``{seat, policy, spec, params}`` objects (as pipelines writes them)."""
    if not isinstance(pols, list) or not pols:
        return [UNKNOWN]
    out = []
    for i, p in enumerate(pols):
        if isinstance(p, dict):
            seat = p.get("seat", i)
            text = p.get("spec") or p.get("policy") or UNKNOWN
        else:
            seat, text = i, p
        out.append(f"seat {seat}: {policy_text(text)}")
    return out


def _get(d: dict, key: str):
    v = d.get(key) if isinstance(d, dict) else None
    return UNKNOWN if v is None or v == "" else v


# ----------------------------------------------------------------------------------------------
# sections
# ----------------------------------------------------------------------------------------------
def _arm_rows(manifest: dict, stored: pd.DataFrame, games_stored: dict) -> list[dict]:
    """One row per arm: manifest arms in order, then arms only present in the data."""
    versions = manifest.get("game_versions") if isinstance(manifest.get("game_versions"), dict) else {}
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
            "game": game or UNKNOWN,
            "n_players": n_players if n_players is not None else UNKNOWN,
            "variant": _get(a, "variant"),
            "policies": _policy_texts(a.get("policies")),
            "game_version": _get(a, "game_version"),
            "components": _components_text(a),
            "assumed": bool((a.get("components") or {}).get("assumed", False)),
            "changes": changes,
            "changes_note": changes_note,
            "games_stored": games_stored.get(name, 0),
            "games_requested": requested if isinstance(requested, int) else None,
            "rule_values": json.dumps(a.get("rule_values", UNKNOWN), sort_keys=True, indent=1),
            "tweaks": json.dumps(a.get("tweaks", UNKNOWN), sort_keys=True),
        })
    return rows


def _factor_rates(con, experiment: str, arms: list[str], factor) -> pd.DataFrame:
    """Win rate by value of the game's balance factor per arm (Wilson 95%), with its label."""
    d = db.win_rate_by(con, experiment, factor.column)
    if d.empty:
        return d
    d = d[d["arm"].isin(arms)]
    return d.assign(label=[factor.label(v) for v in d["value"]])


def factor_verdict(rates: pd.DataFrame, factor) -> str:
    """One arm's balance in plain words: which values of the balance factor win more or less
    than the fair share 1/N (95% interval excluding it), with numbers and intervals.

    ``rates``: one arm's rows of :func:`_factor_rates` (``n_players, label, win_rate, low,
    high``)."""
    n = int(rates["n_players"].iloc[0])
    fair = 1.0 / n
    gap = rates["win_rate"] - fair
    is_off = (rates["low"] > fair) | (rates["high"] < fair)
    off, rest = rates[is_off], rates[~is_off]
    parts = [f"{r.label} wins {abs(100 * (r.win_rate - fair)):.1f} points "
             f"{'above' if r.win_rate > fair else 'below'} its fair share "
             f"({_pct(r.win_rate)}, 95% CI {_ci(r.low, r.high)})"
             for r in off.loc[gap[is_off].abs().sort_values(ascending=False).index].itertuples()]
    if parts:
        text = "; ".join(parts) + f" (fair share 1/{n} = {_pct(fair)})."
        if len(rest):
            text += (f" The others are within {100 * (rest['win_rate'] - fair).abs().max():.1f} "
                     f"points of it (their intervals include it).")
        return text
    w = rates.loc[gap.abs().idxmax()]
    return (f"No {factor.name} wins significantly more or less than its fair share 1/{n} = "
            f"{_pct(fair)}: the largest gap is {w['label']}, {_pts(w['win_rate'] - fair)} points "
            f"(95% CI {_pts(w['low'] - fair)} to {_pts(w['high'] - fair)}).")


def _factor_block(rates: pd.DataFrame, factor) -> dict:
    """Table rows, balance test and verdict of one arm's balance factor."""
    n = int(rates["n_players"].iloc[0])
    rows = [{"value": r.label, "n_games": _num(r.n_games), "rate": _pct(r.win_rate),
             "ci": _ci(r.low, r.high), "vs_fair": _pts(r.win_rate - 1.0 / n)}
            for r in rates.itertuples()]
    # the chi-square test needs every value held equally often (every seat; all dice at N = 4)
    held = rates["n_games"].to_numpy(float)
    test = (stats.seat_balance_test(rates["win_share_sum"].to_numpy(float), n)
            if len(held) == n and np.allclose(held, held[0]) else None)
    balance = (test.describe().replace("Seat win rates", f"Win rates by {factor.name}")
               .replace("seat win rates", f"win rates by {factor.name}") if test else "")
    return {"name": factor.name, "rows": rows, "balance": balance,
            "verdict": factor_verdict(rates, factor)}


def _multiplayer_section(con, experiment: str, multi_arms: list[str], game: str = "") -> dict:
    factor = studies.balance_factor(game)
    frates = _factor_rates(con, experiment, multi_arms, factor)
    rates = db.seat_win_rates(con, experiment)
    rates = rates[rates["arm"].isin(multi_arms)]
    per_arm = []
    for arm in multi_arms:
        d = rates[rates["arm"] == arm].sort_values("seat")
        f = frates[frates["arm"] == arm] if len(frates) else frates
        if d.empty:
            continue
        n = int(d["n_players"].iloc[0])
        fair = 1.0 / n
        n_games = int(d["n_games"].max())
        seats = [{
            "seat": int(r.seat), "policy": r.policy, "n_games": _num(r.n_games),
            "wins": _num(r.wins), "share_sum": _num(r.win_share_sum),
            "rate": _pct(r.win_rate), "ci": _ci(r.low, r.high),
            "vs_fair": _pts(r.win_rate - fair),
        } for r in d.itertuples()]
        test = stats.seat_balance_test(d["win_share_sum"].to_numpy(float), n)
        s0 = d[d["seat"] == 0].iloc[0]
        adv, lo, hi = s0.win_rate - fair, s0.low - fair, s0.high - fair
        if lo > 0:
            adv_word = "significantly above the fair share"
        elif hi < 0:
            adv_word = "significantly below the fair share"
        else:
            adv_word = "consistent with the fair share (the interval includes 0)"
        adv_text = (f"Seat 0 (start player) wins {_pct(s0.win_rate)} (95% CI {_ci(s0.low, s0.high)}) "
                    f"against a fair share of {_pct(fair)}: {_pts(adv)} points "
                    f"(95% CI {_pts(lo)} to {_pts(hi)}), {adv_word}.")
        if not factor.is_seat:
            adv_text += (f" In this game the seat does not fix the turn order: see the win rate "
                         f"by {factor.name} above.")
        need = stats.required_games(fair, 0.02)
        plan = (f"Detecting a 2-point seat advantage (vs {_pct(fair)}) with 95% confidence and "
                f"80% power needs about {need:,} games; this arm has {n_games:,}.")
        policies = set(d["policy"])
        mixed = len(policies) > 1
        per_arm.append({
            "arm": arm, "n_players": n, "n_games": n_games, "seats": seats,
            "balance": test.describe(), "balance_rejected": test.significant,
            "advantage": adv_text, "plan": plan,
            "mixed_note": ("Seats play different policies, so seat differences mix seat order "
                           "and policy strength." if mixed else ""),
            "factor": _factor_block(f, factor) if len(f) else None,
        })
    seat_rates = rates.assign(label=[f"seat {int(v)}" for v in rates["seat"]])
    hist = db.score_histogram(con, experiment)
    hist = hist[hist["arm"].isin(multi_arms)]
    return {
        "arms": per_arm, "factor_name": factor.name, "factor_is_seat": factor.is_seat,
        "factor_chart": (figure_to_data_uri(plots.factor_gap_plot(frates, factor.name))
                         if len(frates) else None),
        "chart": (figure_to_data_uri(plots.factor_gap_plot(seat_rates, "seat"))
                  if len(rates) and not factor.is_seat else None),
        "score_chart": (figure_to_data_uri(plots.score_distribution_plot(hist))
                        if len(hist) else None),
        "_rates": (factor, frates, rates),  # for _robustness (popped: not for the template)
    }


def _score_rows(con, experiment: str) -> list[dict]:
    ss = db.score_summary(con, experiment)
    return [{
        "arm": r.arm, "seat": int(r.seat), "policy": r.policy, "n_games": _num(r.n_games),
        "mean": _num(r.mean_score), "ci": f"{_num(r.mean_low)}–{_num(r.mean_high)}",
        "sd": _num(r.sd_score), "median": _num(r.median_score),
        "iqr": f"{_num(r.q25_score)}–{_num(r.q75_score)}",
        "range": f"{_num(r.min_score)}–{_num(r.max_score)}",
    } for r in ss.itertuples()]


def _length_rows(con, experiment: str) -> tuple[list[dict], int]:
    gl = db.game_length(con, experiment)
    rows = [{
        "arm": r.arm, "n_players": int(r.n_players), "n_games": _num(r.n_games),
        "mean": _num(r.mean_rounds), "ci": f"{_num(r.mean_low)}–{_num(r.mean_high)}",
        "median": _num(r.median_rounds), "range": f"{_num(r.min_rounds)}–{_num(r.max_rounds)}",
        "truncated": int(r.n_truncated), "tied": int(r.n_tied), "no_winner": int(r.n_no_winner),
    } for r in gl.itertuples()]
    return rows, int(gl["n_truncated"].sum()) if len(gl) else 0


def _end_rows(con, experiment: str) -> list[dict]:
    er = db.end_reasons(con, experiment)
    return [{"arm": r.arm, "reason": r.end_reason, "n_games": _num(r.n_games),
             "share": _pct(r.share), "ci": _ci(r.low, r.high)} for r in er.itertuples()]


def _ladder_label(ladder: pd.DataFrame) -> pd.DataFrame:
    dup = ladder.duplicated(["variant", "policy"], keep=False)
    return ladder.assign(label=np.where(dup, ladder["arm"], ladder["variant"]))


def _game_of(manifest: dict) -> str:
    """The game of the manifest's first arm ('' if unknown)."""
    arms = (manifest or {}).get("arms") or [{}]
    return arms[0].get("game", "")


def _components_info(manifest: dict) -> ComponentNotes:
    """The experiment's component data as the game describes it for the report
    (``GameSpec.component_notes``: task cards with their rule and provenance, the assumptions
    the data rest on). Empty if the game has nothing to say or its data cannot be loaded (card
    ids are then shown as stored)."""
    try:
        from sim.registry import make

        arm = manifest["arms"][0]
        d = (arm.get("components") or {}).get("dir")
        spec = make(arm["game"])
        if spec.component_notes is None:
            return ComponentNotes()
        return spec.component_notes(spec.load_components(d if d and os.path.isdir(d) else None))
    except Exception:  # an unknown game or unreadable data
        return ComponentNotes()


def _component_sets(manifest: dict, arms: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Split ``arms`` by component data (manifest ``components.digest``): the main set (that of
    the first arm) and the alternatives, ``{"<folder> [digest d]": arms}``, so that arms
    differing only in their component data are compared, not taken for extra rungs."""
    comp = {str(a.get("name")): (a.get("components") or {}) for a in manifest.get("arms") or []
            if isinstance(a, dict)}
    digest = {a: comp.get(a, {}).get("digest") for a in arms}
    main_digest = digest[arms[0]] if arms else None
    main, alts = [], {}
    for a in arms:
        if digest[a] == main_digest or digest[a] is None:
            main.append(a)
        else:
            name = f"{Path(str(comp[a].get('dir') or UNKNOWN)).name} [digest {digest[a]}]"
            alts.setdefault(name, []).append(a)
    return main, alts


def _alternative_blocks(con, experiment: str, alts: dict[str, list[str]], main: pd.DataFrame,
                        checks: list[dict], order: list[str], solo: SoloDifficulty
                        ) -> list[dict]:
    """Per alternative component data set: each arm's win probability next to the same variant
    and policy on the main data (difference with a Newcombe 95% interval, which ignores the
    shared seeds and so is conservative), and the ladder verdict under the alternative."""
    full = db.solo_ladder(con, experiment)
    blocks = []
    for name, arms in alts.items():
        alt = _ladder_label(full[full["arm"].isin(arms)])
        alt = alt.assign(_o=alt["variant"].map(lambda v: _place(order, v))).sort_values(["policy", "_o"])
        rows = []
        for r in alt.itertuples():
            b = main[(main["variant"] == r.variant) & (main["policy"] == r.policy)]
            row = {"variant": r.variant + _tag(r.variant, solo), "policy": r.policy,
                   "alt": f"{_pct(r.win_rate)} ({_ci(r.low, r.high)})", "main": "–", "diff": "–"}
            if len(b) == 1:
                b = b.iloc[0]
                d = stats.proportion_difference(r.wins, r.n_games, b["wins"], b["n_games"])
                row.update(main=f"{_pct(b['win_rate'])} ({_ci(b['low'], b['high'])})",
                           diff=f"{_pts(d.estimate)} ({_pts(d.low)} to {_pts(d.high)})")
            rows.append(row)
        ladders = []
        for pol, d in alt[alt["label"] == alt["variant"]].groupby("policy", sort=False):
            for note, rungs in difficulty.solo_ladders(d["variant"], solo):
                if len(rungs) < 2:
                    continue
                u = d.set_index("variant").loc[rungs]
                res = stats.ladder_monotonicity(u["wins"].to_numpy(float),
                                                u["n_games"].to_numpy(float), labels=rungs)
                ref = next((c["verdict"] for c in checks
                            if c["policy"] == pol and c["reading"] == note), None)
                ladders.append({
                    "cls": "ok" if res.verdict == ref else "warn",
                    "text": (f"Policy {pol}{', ' + note if note else ''}: the ladder is "
                             f"{res.verdict} with these data"
                             + (f" ({ref} with the main data)" if ref else "") + "."),
                    "detail": res.text})
        blocks.append({"name": name, "rows": rows, "ladders": ladders})
    return blocks


def _assumed(card: CardNote) -> bool:
    return card.provenance == "A" or bool(card.assumption_id)


def _card_source(card: CardNote) -> str:
    """``documented [D]`` or ``assumed (A-07)`` for one task card."""
    if _assumed(card):
        return f"assumed ({card.assumption_id or 'A'})"
    return f"documented [{card.provenance or '?'}]"


def _place(order: list[str], variant: str) -> int:
    """Sort key of ``variant`` in the ladder ``order`` (unknown variants last)."""
    return order.index(variant) if variant in order else len(order)


def _tag(variant: str, solo: SoloDifficulty) -> str:
    """`` ('very hard' reading 1 of 2)`` after a variant that is one reading of a rung."""
    t = difficulty.reading_tag(variant, solo)
    return f" ({t})" if t else ""


def _readings_text(variants, solo: SoloDifficulty) -> list[str]:
    """For each garbled rung with a variant in the experiment: its readings in plain words,
    which ones were played, and that they are alternatives for one rung, not two rungs."""
    seen = set(variants)
    out = []
    for r in solo.readings.values():
        readings = r.variants
        played = [v for v, _ in readings if v in seen]
        if not played:
            continue
        name = r.name
        text = (f"'{name.capitalize()}' is one garbled sentence in the source "
                f"({r.source}), read {len(readings)} ways: "
                + "; ".join(f"{v} = reading {k}, {meaning}"
                            for k, (v, meaning) in enumerate(readings, 1)) + ". ")
        missing = [v for v, _ in readings if v not in seen]
        if missing:
            text += (f"This experiment plays only {', '.join(played)}: its figures hold under "
                     f"that reading; {', '.join(missing)} is not played.")
        else:
            text += (f"The readings are alternatives for the one '{name}' rung, not two rungs: "
                     f"the ladder is checked once with each reading.")
        out.append(text)
    return out


def _solo_section(con, experiment: str, solo_arms: list[str], solo: SoloDifficulty,
                  comp: ComponentNotes | None = None,
                  alts: dict[str, list[str]] | None = None) -> dict:
    comp = comp or ComponentNotes()
    card_names = [c.name for c in comp.cards]
    ladder = db.solo_ladder(con, experiment)
    ladder = _ladder_label(ladder[ladder["arm"].isin(solo_arms)])
    order = difficulty.variant_order(ladder["variant"], solo)
    ladder = ladder.assign(_o=ladder["variant"].map(order.index)).sort_values(["policy", "_o"])
    rows = [{"variant": r.label, "policy": r.policy, "n_games": _num(r.n_games),
             "wins": _num(r.wins), "rate": _pct(r.win_rate), "ci": _ci(r.low, r.high),
             "reading": (difficulty.reading_note(r.variant, solo) if r.label == r.variant
                         else "")}
            for r in ladder.itertuples()]
    checks = []
    prints = db.arm_fingerprints(con, experiment, ladder["arm"])
    for pol, d in ladder.groupby("policy", sort=False):
        known = d[(d["label"] == d["variant"])]
        ladders = difficulty.solo_ladders(known["variant"], solo)
        ladders = [(note, rungs) for note, rungs in ladders if len(rungs) >= 2]
        if ladders:
            in_any = {v for _, rungs in ladders for v in rungs}
            left_out = sorted(set(d["label"]) - in_any)
            uses = [(note, known.set_index("variant").loc[rungs].reset_index(),
                     "expected order, easiest first: " + " < ".join(rungs) + " in difficulty"
                     + (f"; not in the standard ladder, left out: {', '.join(left_out)}"
                        if left_out else "")) for note, rungs in ladders]
        elif len(d) >= 2:
            uses = [("", d, "no standard solo variant names; order assumed as listed: "
                     + " < ".join(d["label"]))]
        else:
            continue
        label = dict(zip(d["arm"], d["label"]))
        same = [f"{label[a]} and {label[b]}" for a, b in itertools.combinations(d["arm"], 2)
                if a in prints and prints[a] == prints.get(b)]
        for k, (note, use, assumption) in enumerate(uses):
            res = stats.ladder_monotonicity(use["wins"].to_numpy(float),
                                            use["n_games"].to_numpy(float),
                                            labels=list(use["label"]))
            checks.append({
                "policy": pol, "reading": note, "verdict": res.verdict, "text": res.text,
                "assumption": assumption, "identical": same if k == 0 else [],
                "steps": [{
                    "easier": s.easier, "harder": s.harder,
                    "rates": f"{_pct(s.p_easier)} → {_pct(s.p_harder)}",
                    "diff": _pts(s.diff), "ci": f"{_pts(s.low)} to {_pts(s.high)}",
                    "p_exp": _p(s.p_expected), "p_rev": _p(s.p_reversed), "verdict": s.label,
                } for s in res.steps],
            })
    verdicts = []
    for pol, d in ladder.groupby("policy", sort=False):
        d = d.sort_values("win_rate", ascending=False)
        verdicts.append({
            "order": (f"Policy {pol}, easiest to hardest by measured win probability: "
                      + ", ".join(f"{r.label}{_tag(r.variant, solo) if r.label == r.variant else ''} "
                                  f"{_pct(r.win_rate)} ({_ci(r.low, r.high)})"
                                  for r in d.itertuples()) + "."),
            "ladders": [f"Ladder{' with ' + c['reading'] if c['reading'] else ''}: "
                        f"{c['verdict']}. {c['text']}" for c in checks if c["policy"] == pol]})
    out: dict[str, Any] = {
        "rows": rows, "checks": checks, "verdicts": verdicts,
        "readings": _readings_text(ladder["variant"], solo),
        "chart": figure_to_data_uri(plots.solo_ladder_plot(ladder, solo)) if len(ladder) else None,
        "loss": None, "cards": None, "assumed": None,
    }
    loss = db.solo_loss_day(con, experiment)
    if len(loss):
        loss = loss[loss["arm"].isin(solo_arms)]
        days = sorted(int(x) for x in loss["loss_day"].unique())
        table = []
        for (arm, pol), d in loss.groupby(["arm", "policy"], sort=False):
            d = d.set_index("loss_day")
            variant = d["variant"].iloc[0]
            table.append({"variant": variant + _tag(variant, solo), "arm": arm, "policy": pol,
                          "sort": variant, "n_games": _num(d["n_games"].sum()),
                          "cells": [(_pct(d.loc[x, "share"]) if x in d.index else "0.0%")
                                    for x in days]})
        table.sort(key=lambda r: (r["policy"], _place(order, r["sort"])))
        end = f"end ({solo.end_day})" if solo.end_day is not None else ""
        out["loss"] = {"days": [(end if x == solo.end_day else str(x)) for x in days],
                       "end": end, "rows": table,
                       "chart": figure_to_data_uri(plots.loss_day_plot(loss, solo))}
    cards = db.solo_task_cards(con, experiment)
    if len(cards):
        cards = cards[cards["arm"].isin(solo_arms)]
        variants = [v for v in order if v in set(cards["variant"])]
        tables = []
        for pol, dp in cards.groupby("policy", sort=False):
            rows_c = []
            for card, dc in dp.groupby("card", sort=True):
                dc = dc.set_index("variant")
                label = card_names[int(card)] if 0 <= int(card) < len(card_names) else int(card)
                src = (_card_source(comp.cards[int(card)])
                       if 0 <= int(card) < len(comp.cards) else "")
                rows_c.append({"card": label, "source": src, "cells": [
                    (f"{_pct(dc.loc[v, 'win_rate'])} ({_ci(dc.loc[v, 'low'], dc.loc[v, 'high'])}; "
                     f"n = {_num(dc.loc[v, 'n_games'])})") if v in dc.index else "–"
                    for v in variants]})
            tables.append({"policy": pol, "rows": rows_c})
        out["cards"] = {"variants": [v + _tag(v, solo) for v in variants], "tables": tables,
                        "chart": figure_to_data_uri(plots.task_card_plot(cards, card_names, solo))}
        out["assumed"] = _assumed_components(cards, checks, order, solo, comp, _alternative_blocks(
            con, experiment, alts, ladder, checks, order, solo) if alts else [])
    return out


def _assumed_components(cards: pd.DataFrame, checks: list[dict], order: list[str],
                        solo: SoloDifficulty, comp: ComponentNotes,
                        alternatives: list[dict]) -> dict:
    """"What the assumed components do": how far the win probability moves between task cards
    (per variant and policy), whether the ladder verdict holds on the games dealt only
    documented cards, the ``alternatives`` (:func:`_alternative_blocks`) and which assumed
    component data this experiment does not vary."""
    names = [c.name for c in comp.cards]

    def name(c):
        return names[int(c)] if 0 <= int(c) < len(names) else str(int(c))

    documented = [i for i, c in enumerate(comp.cards) if not _assumed(c)]
    spread = []
    for (pol, v), d in cards.groupby(["policy", "variant"], sort=False):
        lo, hi = d.loc[d["win_rate"].idxmin()], d.loc[d["win_rate"].idxmax()]
        doc = d[d["card"].isin(documented)]
        spread.append({
            "variant": v + _tag(v, solo), "policy": pol, "_o": _place(order, v),
            "low": f"{name(lo.card)}: {_pct(lo.win_rate)} ({_ci(lo.low, lo.high)})",
            "high": f"{name(hi.card)}: {_pct(hi.win_rate)} ({_ci(hi.low, hi.high)})",
            "doc": "; ".join(f"{name(r.card)}: {_pct(r.win_rate)} ({_ci(r.low, r.high)})"
                             for r in doc.itertuples()) or "–",
            "differ": ("yes: the intervals do not overlap" if hi.low > lo.high
                       else "not clearly (the intervals overlap)"),
        })
    spread.sort(key=lambda r: (r["policy"], r["_o"]))
    doc_names = ", ".join(name(i) for i in documented)
    ladders = []
    for c in checks if documented else []:
        rungs = [s["easier"] for s in c["steps"]] + [c["steps"][-1]["harder"]] if c["steps"] else []
        d = cards[(cards["policy"] == c["policy"]) & cards["card"].isin(documented)]
        d = d.groupby("variant")[["wins", "n_games"]].sum()
        if len(rungs) < 2 or not set(rungs) <= set(d.index):
            continue
        res = stats.ladder_monotonicity(d.loc[rungs, "wins"].to_numpy(float),
                                        d.loc[rungs, "n_games"].to_numpy(float), labels=rungs)
        same = res.verdict == c["verdict"]
        ladders.append({
            "cls": "ok" if same else "warn",
            "text": (f"Policy {c['policy']}{', ' + c['reading'] if c['reading'] else ''}: with "
                     f"every card the ladder is {c['verdict']}; on the games dealt {doc_names} "
                     f"({_num(d.loc[rungs, 'n_games'].min())}–{_num(d.loc[rungs, 'n_games'].max())} "
                     f"per variant) it is {res.verdict}"
                     + (". The assumed cards do not change the verdict." if same else
                        ". The verdict rests on the assumed cards (or on the games they add).")),
            "detail": res.text,
        })
    not_varied = [{"id": a, "what": "; ".join(what), "alternative": comp.alternatives.get(a, "")}
                  for a, what in comp.assumptions]
    varied = (f"Besides the main component data, this experiment plays {len(alternatives)} "
              f"alternative set(s) ({', '.join(a['name'] for a in alternatives)}; compared "
              f"above): only the assumptions those data change are varied; the others below are "
              f"not." if alternatives else
              "This experiment plays one component data set, so none of the assumptions below is "
              "varied: their effect on the verdict is not measured yet. To vary one, copy the "
              "game's components folder, edit it and add arms with components = DIR to the spec "
              "(or run with --components DIR).")
    return {"summary": comp.summary, "spread": spread, "ladders": ladders,
            "not_varied": not_varied, "varied": varied,
            "alternatives": alternatives,
            "documented": doc_names,
            "cards": [{"card": name(i), "source": _card_source(c), "rule": c.rule}
                      for i, c in enumerate(comp.cards)]}


# ----------------------------------------------------------------------------------------------
# public API
# ----------------------------------------------------------------------------------------------
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


def _summary_context(con, store, experiment: str) -> dict:
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
        "games": ", ".join(games) or UNKNOWN,
        "game_versions": ", ".join(versions) or UNKNOWN,
        "code_version": _get(manifest, "code_version"),
        "code_versions_mixed": (sorted(map(str, manifest["code_versions"]))
                                if isinstance(manifest.get("code_versions"), list)
                                and len(manifest["code_versions"]) > 1 else []),
        "master_seed": master_seed if master_seed is not None else UNKNOWN,
        "n_games": _get(manifest, "n_games"),
        "status": _get(manifest, "status"),
        "created_at": _get(manifest, "created_at"),
        "total_stored": int(stored["n_games"].sum()) if len(stored) else 0,
        "components_summary": (ASSUMED_COMPONENTS_TEXT if any_assumed else
                               ("real component data" if manifest.get("arms") and all_assumed_known
                                else UNKNOWN)),
        "arms": arm_rows,
        "partial": _partial_text(manifest, int(stored["n_games"].sum()) if len(stored) else 0),
        "arms_common": _common_settings(arm_rows),
        "manifest_json": json.dumps(manifest, indent=2, sort_keys=True) if manifest else "",
        "_manifest": manifest,
    }


def build_context(con, store, experiment: str) -> dict:
    """Everything the template shows, as plain strings/lists (raises SpecError if unknown)."""
    ctx = _summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    arm_rows = ctx["arms"]
    multi = [r["name"] for r in arm_rows
             if isinstance(r["n_players"], int) and r["n_players"] >= 2 and r["games_stored"]]
    solo = [r["name"] for r in arm_rows if r["n_players"] == 1 and r["games_stored"]]
    main, alts = _component_sets(manifest, solo)  # arms on other component data: compared
    solo_game = next((r["game"] for r in arm_rows if r["name"] in solo), None)
    length_rows, n_truncated = _length_rows(con, experiment)
    ctx.update({
        "is_solo": bool(solo) and not multi,
        "multi": (_multiplayer_section(con, experiment, multi, _game_of(manifest))
                  if multi else None),
        "solo": (_solo_section(con, experiment, main, difficulty.of_game(solo_game),
                               _components_info(manifest), alts) if solo else None),
        "scores": _score_rows(con, experiment) if multi else [],
        "length": length_rows,
        "rounds_chart": None,
        "n_truncated": n_truncated,
        "ends": _end_rows(con, experiment),
        "precision": _precision_block(manifest),  # `run --precision`: met or NOT met
    })
    ctx["robust"] = _robustness(manifest, ctx["multi"], ctx["solo"])
    rh = db.rounds_histogram(con, experiment)
    if multi and len(rh):
        ctx["rounds_chart"] = figure_to_data_uri(
            plots.rounds_distribution_plot(rh[rh["arm"].isin(multi)]))
    return ctx


def _robustness(manifest: dict, multi: dict | None, solo: dict | None) -> dict:
    """"Does the verdict hold under stronger play?": the verdicts of arms that differ only in
    the policy every seat plays, side by side (``analysis.robust``), from the rates the
    multi-player section already queried."""
    arms = [a for a in manifest.get("arms") or [] if isinstance(a, dict)]
    tables = []
    if multi:
        factor, frates, rates = multi.pop("_rates")
        srates = rates.rename(columns={"seat": "value"})
        names = set(srates["arm"])
        for group in robust.same_but_policy(a for a in arms if a.get("name") in names):
            first = next(a for a in arms if a.get("name") == next(iter(group.values())))
            verdicts = (robust.seat_verdicts(frates, group, factor.label)
                        if not factor.is_seat and len(frates) else [])
            verdicts += robust.seat_verdicts(
                srates, group, lambda v: "seat 0 (start player)" if int(v) == 0 else f"seat {int(v)}")
            tables.append(robust.table(f"{first.get('n_players')} players, variant "
                                       f"{first.get('variant', UNKNOWN)}", list(group), verdicts))
    if solo and solo.get("checks"):
        known = [robust.uniform_policy(a) for a in arms]  # the manifest's order of policies
        pols = sorted(dict.fromkeys(c["policy"] for c in solo["checks"]),
                      key=lambda p: known.index(p) if p in known else len(known))
        if len(pols) >= 2:
            tables.append(robust.table("Solo difficulty", pols,
                                       robust.step_verdicts(solo["checks"])))
    return {"tables": tables,
            "note": "" if tables else robust.one_policy_note("the same `playtest run` command")}


# ----------------------------------------------------------------------------------------------
# studies: compare, sweep, plan (playtest compare / sweep / plan; analysis.studies)
# ----------------------------------------------------------------------------------------------
def study_kind(manifest: dict) -> str | None:
    """``"compare"``, ``"sweep"`` or ``"ladder"`` for experiments made by those commands (or
    ``"compare"`` for a TOML spec with a ``baseline`` arm), else None."""
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    if not isinstance(spec, dict):
        return None
    if spec.get("kind") in ("compare", "sweep", "ladder"):
        return spec["kind"]
    return "compare" if spec.get("pairs") else None


def study_pairs(manifest: dict) -> list[dict]:
    """``[{n_players, baseline, tweak}]`` of a comparison experiment (``[]`` otherwise)."""
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    pairs = spec.get("pairs") if isinstance(spec, dict) else None
    return [p for p in pairs if isinstance(p, dict)] if isinstance(pairs, list) else []


def _est(scale: str, est, lo, hi) -> tuple[str, str]:
    if scale == "prop":
        return _pct(est, 2), _ci(lo, hi, 2)
    return _num(est, 2), f"{_num(lo, 2)}–{_num(hi, 2)}"


def _diff(scale: str, d, lo, hi) -> tuple[str, str]:
    if not np.isfinite(d):
        return "n/a", "n/a"
    if scale == "prop":
        return f"{100 * d:+.2f} pts", f"{100 * lo:+.2f} to {100 * hi:+.2f}"
    return f"{d:+.3f}", f"{lo:+.3f} to {hi:+.3f}"


def _precision_block(manifest: dict) -> dict | None:
    pr = manifest.get("precision") if isinstance(manifest, dict) else None
    if not isinstance(pr, dict):
        return None
    target = pr.get("target")
    widest = pr.get("widest")
    rounds = len(pr.get("steps") or [])
    games = pr.get("games_per_arm") or {}
    sizes = ", ".join(sorted({f"{int(v):,}" for v in games.values()})) or UNKNOWN
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


def _question(manifest: dict, pair: dict, arm_rows: list[dict]) -> str:
    src = manifest.get("spec") or {}
    parts = list(src.get("set") or []) + [f"seat {x.replace('=', ' plays ', 1)}"
                                          for x in (src.get("tweak_seat_policy") or [])]
    if src.get("kind") == "compare" and parts:
        return "; ".join(parts)
    rows = {r["name"]: r for r in arm_rows}
    t, b = rows.get(pair["tweak"]), rows.get(pair["baseline"])
    if t and b:
        diff = sorted(set(t["changes"]) - set(b["changes"]))
        pol = [p for p, q in zip(t["policies"], b["policies"]) if p != q]
        if diff or pol:
            return "; ".join(diff + pol)
    return f"{pair['tweak']} instead of {pair['baseline']}"


def compare_context(con, store, experiment: str, pairs: list[dict] | None = None) -> dict:
    """Context of the comparison report: per pair of arms, every metric's paired difference."""
    ctx = _summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    pairs = pairs or study_pairs(manifest)
    if not pairs:
        raise SpecError(f"experiment '{experiment}' is not a comparison (no baseline/tweak pairs)")
    factor = studies.balance_factor(_game_of(manifest))
    rates = _factor_rates(con, experiment, [a["name"] for a in ctx["arms"]], factor)
    sections = []
    for pair in pairs:
        t = studies.arm_games(con, experiment, pair["tweak"])
        b = studies.arm_games(con, experiment, pair["baseline"])
        if t.empty or b.empty:
            continue
        tab = studies.compare_frames(t, b)
        rows = []
        for r in tab.itertuples():
            base, base_ci = _est(r.scale, r.baseline, r.baseline_low, r.baseline_high)
            tw, tw_ci = _est(r.scale, r.tweak, r.tweak_low, r.tweak_high)
            d, d_ci = _diff(r.scale, r.diff, r.low, r.high)
            _, u_ci = _diff(r.scale, r.diff, r.unpaired_low, r.unpaired_high)
            rows.append({"label": r.label, "baseline": base, "baseline_ci": base_ci, "tweak": tw,
                         "tweak_ci": tw_ci, "diff": d, "ci": d_ci, "unpaired_ci": u_ci,
                         "p": _p(r.p_value), "verdict": r.verdict,
                         "cls": "hl" if r.verdict in ("higher", "lower") else ""})
        found = [f"{r['label']} {r['diff']} (95% CI {r['ci']})" for r in rows
                 if r["verdict"] in ("higher", "lower")]
        none = [r["label"] for r in rows if r["verdict"] == studies.NOT_DISTINGUISHABLE]
        same = [r["label"] for r in rows if r["verdict"] == studies.IDENTICAL]
        prop = tab[(tab["scale"] == "prop") & (tab["half_width"] > 0)]
        ratio = ((prop["unpaired_high"] - prop["unpaired_low"]) / (prop["high"] - prop["low"])
                 ).median() if len(prop) else float("nan")
        chart_rates = (rates[rates["arm"].isin([pair["baseline"], pair["tweak"]])]
                       if len(rates) else rates)
        question = _question(manifest, pair, ctx["arms"])
        n_pair = int(tab["n"].max()) if len(tab) else 0
        if len(same) == len(rows) and rows:
            verdict = "the tweak changed no game: both arms are identical in every game."
        elif found:
            verdict = ("distinguishable from zero (95% interval excludes 0): "
                       + "; ".join(found) + ".")
        else:
            verdict = "no difference is distinguishable from zero at 95% confidence."
        verdict = (f"{question}, {pair['n_players']} players ({n_pair:,} paired games): "
                   + verdict)
        sections.append({
            "n_players": pair["n_players"], "baseline": pair["baseline"], "tweak": pair["tweak"],
            "question": question, "verdict": verdict, "factor_name": factor.name,
            "n_games": int(tab["n"].max()) if len(tab) else 0, "rows": rows,
            "found": found, "none": none, "same": same,
            "all_same": bool(rows) and len(same) == len(rows),
            "pairing": (f"Pairing the games (same seeds in both arms) made the win-rate intervals "
                        f"about {ratio:.1f}× narrower than treating the arms as independent "
                        f"(as many as {ratio ** 2:.0f}× the games unpaired)."
                        if np.isfinite(ratio) and ratio > 0 else ""),
            "chart": figure_to_data_uri(plots.difference_plot(tab)),
            "seat_chart": (figure_to_data_uri(plots.factor_gap_plot(chart_rates, factor.name))
                           if len(chart_rates) and pair["n_players"] > 1 else None),
        })
    policy_of = {a["name"]: robust.uniform_policy(a) for a in manifest.get("arms") or []
                 if isinstance(a, dict) and a.get("name")}
    tables = robust.effect_verdicts(sections, {k: v for k, v in policy_of.items() if v})
    ctx["robust"] = {"tables": tables, "note": "" if tables else robust.one_policy_note(
        "the same `playtest compare` command")}
    ctx.update({"kind": "compare", "sections": sections,
                "precision": _precision_block(manifest), "n_truncated": sum(
                    int(x) for x in db.query(con, "SELECT count(*) FROM stg_games WHERE "
                                                  "experiment = ? AND truncated", [experiment]
                                             ).iloc[:, 0])})
    return ctx


def _value_text(v) -> str:
    return _show(v)


def sweep_long(con, experiment: str, source: dict) -> pd.DataFrame:
    """Every metric of every sweep point with its interval (long format): ``arm, n_players,
    <param columns>, metric, label, scale, estimate, low, high, half_width, n``."""
    frames = []
    for pt in source.get("points") or []:
        df = studies.arm_games(con, experiment, pt["arm"])
        if df.empty:
            continue
        t = studies.level_table(df)
        t.insert(0, "arm", pt["arm"])
        t.insert(1, "n_players", int(pt["n_players"]))
        for k, v in pt["values"].items():
            t[k] = _value_text(v) if isinstance(v, (list, tuple, bool, str)) else v
        frames.append(t)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _balance_by_arm(long: pd.DataFrame, tolerance: float, factor) -> dict:
    out = {}
    for arm, d in long.groupby("arm", sort=False):
        n = int(d["n_players"].iloc[0])
        out[arm] = studies.balance_status(
            d[d["metric"].str.startswith(studies.factor_prefix(factor))], n, tolerance)
    return out


def sweep_table(con, experiment: str, source: dict, long: pd.DataFrame | None = None,
                compact: bool = False) -> pd.DataFrame:
    """One row per sweep point: parameter values, games, key metrics with 95% intervals and the
    seat-balance verdict (strings, for the CLI and the report). ``compact``: ``estimate ±
    half-width`` (rates in %) instead of ``estimate [low–high]``."""
    long = sweep_long(con, experiment, source) if long is None else long
    if long.empty:
        return pd.DataFrame()
    names = [p["name"] for p in source.get("params") or []]
    tol = float(source.get("tolerance") or 0.02)
    factor = studies.balance_factor(source.get("game"))
    bal = _balance_by_arm(long, tol, factor)
    rows = []
    for arm, d in long.groupby("arm", sort=False):
        d = d.set_index("metric")
        row = {"arm": arm, **{n: d[n].iloc[0] for n in names},
               "players": int(d["n_players"].iloc[0]), "games": f"{int(d['n'].max()):,}"}
        for key in [k for k in d.index if k.startswith(studies.factor_prefix(factor))] + [
                "first_player_advantage", "solo_win", "mean_score", "rounds"]:
            if key in d.index:
                r = d.loc[key]
                est, ci = _est(r["scale"], r["estimate"], r["low"], r["high"])
                if compact:
                    k, dg = (100.0, 1) if r["scale"] == "prop" else (1.0, 2)
                    est, ci = f"{k * r['estimate']:.{dg}f}", f"{k * r['half_width']:.{dg}f}"
                short = (r["label"].removeprefix("win rate, ")
                         if key.startswith(studies.factor_prefix(factor)) else
                         key.replace("first_player_advantage", "first-player adv.")
                         .replace("solo_win", "solo win").replace("mean_score", "mean score"))
                row[short] = f"{est}±{ci}" if compact else f"{est} [{ci}]"
        if int(d["n_players"].iloc[0]) > 1:
            row["balance"] = bal[arm]
        rows.append(row)
    return pd.DataFrame(rows)


def sweep_context(con, store, experiment: str) -> dict:
    """Context of the sweep report: curves with 95% bands and where the seats are balanced."""
    ctx = _summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    source = manifest.get("spec") or {}
    params = source.get("params") or []
    names = [p["name"] for p in params]
    tol = float(source.get("tolerance") or 0.02)
    factor = studies.balance_factor(source.get("game"))
    prefix = studies.factor_prefix(factor)
    long = sweep_long(con, experiment, source)
    table = sweep_table(con, experiment, source, long)
    charts, verdicts = [], []
    if len(long):
        bal = _balance_by_arm(long, tol, factor)
        long = long.assign(balance=long["arm"].map(bal))
        long["balanced"] = long["balance"] == "balanced"
        x = names[0]
        order = [_value_text(v) if not isinstance(v, (int, float)) or isinstance(v, bool) else v
                 for v in params[0]["values"]]
        hue2 = names[1] if len(names) > 1 else None
        for n, dn in long.groupby("n_players", sort=True):
            n = int(n)
            fair = 1.0 / n
            slices = [(None, dn)] if hue2 is None else list(dn.groupby(hue2, sort=False))
            for key, d in slices:
                sub = "" if key is None else f", {hue2} = {key}"
                seats = d[d["metric"].str.startswith(prefix)]
                seats = seats.assign(**{factor.name: seats["label"].str.removeprefix(
                    "win rate, ")})
                if len(seats):
                    charts.append({"title": f"Win rate per {factor.name} ({n} players{sub})",
                                   "img": figure_to_data_uri(plots.metric_curve_plot(
                                       seats, x, hue=factor.name, reference=fair, percent=True,
                                       band=(fair - tol, fair + tol), order=order,
                                       ylabel="win rate (95% CI)",
                                       title=f"{n} players{sub}: win rate per {factor.name}"))})
            for metric, ylabel, pct, ref in (
                    ("first_player_advantage", "seat 0 win rate − 1/N (95% CI)", True, 0.0),
                    ("solo_win", "solo win probability (95% CI)", True, None),
                    ("mean_score", "mean score (95% CI)", False, None),
                    ("rounds", "game length, rounds (95% CI)", False, None)):
                d = dn[dn["metric"] == metric]
                if d.empty:
                    continue
                fpa = metric == "first_player_advantage"
                charts.append({"title": f"{d['label'].iloc[0]} ({n} players)",
                               "img": figure_to_data_uri(plots.metric_curve_plot(
                                   d, x, hue=hue2, reference=ref, percent=pct,
                                   band=(-tol, tol) if fpa else None,
                                   mark="balanced" if fpa else None, order=order,
                                   ylabel=ylabel, title=f"{n} players: {d['label'].iloc[0]}"))})
            if n > 1:
                pts = dn.drop_duplicates("arm")
                label = lambda r: ", ".join(f"{k}={r[k]}" for k in names)  # noqa: E731
                sure = [label(r) for _, r in pts.iterrows() if r["balance"] == "balanced"]
                maybe = [label(r) for _, r in pts.iterrows() if r["balance"] == "plausibly balanced"]
                if sure:
                    text = (f"{n} players: every {factor.name} wins within ±{100 * tol:g} points "
                            f"of 1/{n} (every 95% interval inside the band) at: "
                            + "; ".join(sure) + ".")
                    cls = "ok"
                else:
                    text = (f"{n} players: no point balances the {factor.name} win rates within "
                            f"±{100 * tol:g} points with 95% confidence.")
                    cls = "warn"
                if maybe:
                    text += (" Plausibly balanced (estimates inside the band, intervals reaching "
                             "outside; more games would tell): " + "; ".join(maybe) + ".")
                verdicts.append({"text": text, "cls": cls})
    ctx.update({
        "kind": "sweep", "factor_name": factor.name,
        "params": [{"name": p["name"], "value_list": ", ".join(
            _value_text(v) for v in p["values"])} for p in params],
        "tolerance": f"±{100 * tol:g} points", "verdicts": verdicts, "charts": charts,
        "columns": [c for c in table.columns if c != "arm"],
        "rows": [[str(r[c]) for c in table.columns if c != "arm"] for _, r in table.iterrows()],
        "precision": _precision_block(manifest),
    })
    return ctx


def _plan_verdict(title: str, tab: pd.DataFrame, delta: float) -> str:
    """The plan in one sentence: the largest sample any row of ``tab`` needs, per design."""
    def most(col):
        v = pd.to_numeric(tab[col], errors="coerce").dropna() if col in tab else pd.Series()
        return f"{int(v.max()):,}" if len(v) else None

    parts = [f"about {x} games show a {100 * delta:g}-point gap from the fair share"
             for x in [most("vs_fair")] if x]
    parts += [f"comparing two arms needs {x} games per arm unpaired" for x in [most("unpaired")]
              if x]
    parts += [f"{x} per arm paired (same seeds)" for x in [most("paired")] if x]
    who = ", ".join(str(x).removeprefix("win rate, ") for x in tab["label"])
    return f"{title}: " + ", ".join(parts) + f" (the largest over {who})."


def plan_rows(con, experiment: str, source: dict, delta: float, power: float = 0.8
              ) -> list[dict]:
    """Sample-size blocks from a pilot experiment: per compared pair (paired and unpaired
    figures) or per arm (one-sample vs the fair share, and two independent arms)."""
    blocks = []
    pairs = source.get("pairs") or []
    if pairs:
        items = [(f"{p['tweak']} vs {p['baseline']}", p["baseline"], p["tweak"]) for p in pairs]
    else:
        names = db.query(con, "SELECT DISTINCT arm FROM stg_games WHERE experiment = ? "
                              "ORDER BY arm", [experiment])["arm"].tolist()
        items = [(a, a, None) for a in names]
    for title, base, tweak in items:
        b = studies.arm_games(con, experiment, base)
        t = studies.arm_games(con, experiment, tweak) if tweak else None
        if b.empty:
            continue
        tab = studies.plan_table(b, delta, t, power=power)
        lv = studies.level_table(b).set_index("metric")
        rows = []
        for r in tab.itertuples():
            e = lv.loc[r.metric]
            rows.append({
                "label": r.label, "rate": f"{_pct(e.estimate, 2)} ({_ci(e.low, e.high, 2)})",
                "vs_fair": _num(r.vs_fair) if r.vs_fair is not None and r.vs_fair == r.vs_fair
                else "n/a",
                "unpaired": _num(r.unpaired),
                "paired": (_num(r.paired) if r.paired is not None and r.paired == r.paired
                           else "needs --set (a tweak pilot)"),
                "corr": ("" if r.correlation is None or r.correlation != r.correlation
                         else f"{r.correlation:.2f}"),
                "pilot_diff": ("" if r.pilot_diff is None or r.pilot_diff != r.pilot_diff
                               else _pts(r.pilot_diff, 2)),
            })
        blocks.append({"title": title, "pilot_games": int(len(b)), "rows": rows,
                       "verdict": _plan_verdict(title, tab, delta)})
    return blocks


def plan_context(con, store, experiment: str, delta: float, power: float = 0.8) -> dict:
    """Context of the sample-size report (``playtest plan``)."""
    ctx = _summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    blocks = plan_rows(con, experiment, manifest.get("spec") or {}, delta, power)
    pilots = []
    for r in ctx["arms"]:
        df = studies.arm_games(con, experiment, r["name"])
        if df.empty:
            continue
        lv = studies.level_table(df)
        pilots.append({"arm": r["name"], "rows": [
            dict(zip(("label", "est", "ci"), (x.label, *_est(x.scale, x.estimate, x.low, x.high))))
            for x in lv.itertuples()]})
    ctx.update({"kind": "plan", "factor_name": studies.balance_factor(_game_of(manifest)).name,
                "precision": None, "delta": f"{100 * delta:g}", "power": f"{power:.0%}",
                "blocks": blocks, "pilots": pilots, "paired": bool(study_pairs(manifest))})
    return ctx


def _elo(x: float) -> str:
    return f"{x:+.0f}" if np.isfinite(x) else "n/a"


def _index(x: float) -> str:
    return f"{round(float(x), 2) + 0.0:.2f}"  # never "-0.00"


def ladder_rows(lad: ladder_stats.Ladder) -> dict:
    """The ladder's tables as strings (the report and ``playtest ladder / show``): ``pairs``
    (multiplayer: a vs b, games, a's seat win rate with its interval, fair share, rate per
    seat, the rate the ratings predict, verdict), ``ratings`` (policy, Elo rating, 95%
    interval, rank), ``solo`` (policy, games, win probability, interval), ``steps`` (solo:
    each rung minus the one below, paired) and ``skill`` / ``fit`` sentences."""
    out: dict[str, Any] = {"pairs": [], "ratings": [], "solo": [], "steps": [], "skill": "",
                           "fit": ""}
    if lad.n_players == 1:
        out["solo"] = [{"policy": r.policy, "games": _num(r.games), "rate": _pct(r.rate),
                        "ci": _ci(r.low, r.high)} for r in lad.pairs.itertuples()]
        out["steps"] = [{"step": f"{r.a} over {r.b}", "games": _num(r.games),
                         "diff": f"{_pts(r.diff)} pts", "ci": f"{_pts(r.low)} to {_pts(r.high)}",
                         "verdict": r.verdict,
                         "cls": "hl" if r.verdict != ladder_stats.BEATS else ""}
                        for r in lad.steps.itertuples()]
        return out
    adjacent = {(a, b) for b, a in zip(lad.rungs, lad.rungs[1:])}
    for r in lad.pairs.itertuples():
        out["pairs"].append({
            "a": r.a, "b": r.b, "step": (r.a, r.b) in adjacent, "games": _num(r.games),
            "rate": _pct(r.rate), "ci": _ci(r.low, r.high), "fair": _pct(r.fair),
            "by_seat": " / ".join(_pct(x) for x in r.by_seat),
            "expected": _pct(getattr(r, "expected", float("nan"))), "verdict": r.verdict,
            "cls": "hl" if r.verdict != ladder_stats.BEATS else ""})
    rt = lad.ratings
    if rt is not None:
        rank = {n: i + 1 for i, n in enumerate(np.array(rt.names)[np.argsort(-rt.rating,
                                                                            kind="stable")])}
        out["ratings"] = [{"policy": n, "rating": _elo(rt.rating[i]),
                           "ci": ("anchor (0 by definition)" if i == rt.anchor else
                                  f"{_elo(rt.low[i])} to {_elo(rt.high[i])}"),
                           "rank": str(rank[n])} for i, n in enumerate(rt.names)]
        out["fit"] = (f"Ratings: Bradley-Terry maximum likelihood over all "
                      f"{_num(int(lad.pairs['games'].sum()))} games, anchored at "
                      f"{rt.names[rt.anchor]} = 0; 95% intervals with cluster-robust standard "
                      f"errors (the games of one index share their dice in every pair and "
                      f"seat). Compare each pair's win rate with the rate the ratings predict: "
                      f"a large gap means one strength per policy does not describe the pairs "
                      f"(e.g. A beats B beats C beats A)."
                      + (" Some policy won (or lost) every game against the others, so 0.5 "
                         "wins were added to each side of every pair to keep the ratings "
                         "finite." if rt.adjusted else ""))
    sk = lad.skill
    if sk is not None:
        out["skill"] = (f"Skill versus luck: the better-rated policy of a pair wins "
                        f"{_pct(sk['rate'])} of its seats' games (95% CI "
                        f"{_ci(sk['low'], sk['high'])}; fair share {_pct(sk['fair'])}, pooled "
                        f"over {_num(sk['games'])} seat-games of all pairs): skill index "
                        f"{_index(sk['index'])} (95% CI {_index(sk['index_low'])} to "
                        f"{_index(sk['index_high'])}; 0 = the better policy wins no more than its "
                        f"fair share, luck decides; 1 = it always wins).")
    return out


def ladder_context(con, store, experiment: str) -> dict:
    """Context of the ladder report (``playtest ladder``): verdict, head-to-head table,
    ratings, skill versus luck, charts with 95% intervals."""
    ctx = _summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    source = manifest.get("spec") or {}
    lad = ladder_stats.summarize(con, experiment, source)
    rows = ladder_rows(lad)
    charts = []
    n = lad.n_players
    if n == 1 and len(lad.pairs):
        d = lad.pairs.assign(label=lad.pairs["policy"], estimate=lad.pairs["rate"])
        charts.append({"title": "Solo win probability per policy", "img": figure_to_data_uri(
            plots.estimate_plot(d, "solo win probability (95% CI)",
                                "Solo win probability per policy (lowest rung at the top)",
                                percent=True))})
    if lad.ratings is not None:
        rt = lad.ratings
        d = pd.DataFrame({"label": rt.names, "estimate": rt.rating, "low": rt.low,
                          "high": rt.high})
        charts.append({"title": "Ratings (Elo scale)", "img": figure_to_data_uri(
            plots.estimate_plot(d, f"rating, Elo points (95% CI; {rt.names[rt.anchor]} = 0)",
                                "Bradley-Terry ratings (lowest rung at the top)",
                                reference=0.0))})
    if n > 1 and len(lad.pairs):
        d = lad.pairs.assign(arm="head to head", n_players=n, win_rate=lad.pairs["rate"],
                             label=[f"{r.a} vs {r.b}" for r in lad.pairs.itertuples()])
        charts.append({"title": "Head to head: win rate of the higher rung's seat",
                       "img": figure_to_data_uri(plots.factor_gap_plot(d, "pair"))})
    ctx.update({"kind": "ladder", "rungs": lad.rungs, "n_players": n, "verdict": lad.verdict,
                "verdict_ok": lad.all_steps_hold, "charts": charts, **rows,
                "games_per_arm": source.get("games"), "precision": None})
    return ctx


def write_study_report(store, experiment: str, out_dir, plan: dict | None = None) -> Path:
    """Write the comparison, sweep or (with ``plan={"delta": d, "power": p}``) sample-size
    report of ``experiment`` to ``<out_dir>/<experiment>[-plan].html``; return its path."""
    con = db.connect(store)
    try:
        if plan is not None:
            ctx = plan_context(con, store, experiment, plan["delta"], plan.get("power", 0.8))
        else:
            kind = study_kind(db.load_manifest(store, experiment))
            if kind == "sweep":
                ctx = sweep_context(con, store, experiment)
            elif kind == "compare":
                ctx = compare_context(con, store, experiment)
            elif kind == "ladder":
                ctx = ladder_context(con, store, experiment)
            else:
                ctx = build_context(con, store, experiment)
                ctx["kind"] = "report"
    finally:
        con.close()
    template = {"report": "report.html.j2", "compare": "compare.html.j2",
                "sweep": "sweep.html.j2", "plan": "plan.html.j2",
                "ladder": "ladder.html.j2"}[ctx["kind"]]
    html = _env().get_template(template).render(**ctx)
    suffix = "-plan" if ctx["kind"] == "plan" else ""
    return _write_html(out_dir, f"{_safe_name(experiment)}{suffix}.html", html)


class _TableText(HTMLParser):
    """The rows of cell texts of one HTML table."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


_TABLE = re.compile(r"<table[\s>].*?</table>", re.S)
_HEADING = re.compile(r"<h[23][^>]*>(.*?)</h[23]>", re.S)


def with_csv_links(html: str) -> str:
    """Every table of a report followed by a link that downloads it as CSV (a ``data:`` URI,
    so the report stays one self-contained file without scripts)."""
    parts, last = [], 0
    for k, m in enumerate(_TABLE.finditer(html), 1):
        parser = _TableText()
        parser.feed(m.group(0))
        rows = [r for r in parser.rows if r]
        if not rows:
            continue
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        headings = _HEADING.findall(html, 0, m.start())
        title = html_lib.unescape(re.sub(r"<[^>]+>", "", headings[-1])) if headings else "table"
        name = f"{k:02d}-{re.sub(r'[^A-Za-z0-9]+', '_', title).strip('_').lower()[:40]}.csv"
        data = base64.b64encode(buf.getvalue().encode("utf-8")).decode("ascii")
        parts += [html[last:m.end()],
                  f'\n<p class="csv"><a download="{name}" href="data:text/csv;base64,{data}">'
                  f"download this table (CSV)</a></p>"]
        last = m.end()
    return "".join(parts) + html[last:]


def _write_html(out_dir, name: str, html: str) -> Path:
    html = with_csv_links(html)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(path)
    return path


@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("analysis", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_report(context: dict) -> str:
    """Render the HTML of a report context (:func:`build_context`)."""
    return _env().get_template("report.html.j2").render(**context)


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=+-]+", "_", name).strip("._") or "experiment"


def write_report(store, experiment: str, out_dir) -> Path:
    """Write ``<out_dir>/<experiment>.html``, one self-contained report; return its path.

    Experiments made by ``playtest compare`` / ``sweep`` (or a spec with a ``baseline`` arm)
    get their study report (:func:`write_study_report`).

    Parameters
    ----------
    store : str or path-like
        Store root.
    experiment : str
        Experiment name (manifest ``name`` / ``experiment=`` partition).
    out_dir : str or path-like
        Created if missing.

    Raises
    ------
    sim.spec.SpecError
        Unknown experiment; the message lists the experiments in the store.
    """
    if study_kind(db.load_manifest(store, experiment)) is not None:
        return write_study_report(store, experiment, out_dir)
    con = db.connect(store)
    try:
        ctx = build_context(con, store, experiment)
    finally:
        con.close()
    return _write_html(out_dir, f"{_safe_name(experiment)}.html", render_report(ctx))
