"""The contexts of the study reports: a comparison of a tweak with its baseline
(``playtest compare``: paired differences), a sweep over rule values (``playtest sweep``:
curves and balanced points), a sample-size plan from a pilot (``playtest plan``) and a policy
ladder (``playtest ladder``: head to head, ratings, skill versus luck, how much of the game is
skill); and which kind of study an experiment is."""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from sim.spec import SpecError

from .. import db, plots, robust, studies
from .. import ladder as ladder_stats
from ..words import plural
from . import formatting as fmt
from . import headline, render, summary
from .experiment import factor_rates

__all__ = ["study_kind", "study_pairs", "compare_context", "sweep_long", "sweep_table",
           "sweep_context", "plan_rows", "plan_context", "skill_luck_rows", "ladder_rows",
           "ladder_context"]


def study_kind(manifest: dict) -> str | None:
    """``"compare"``, ``"sweep"``, ``"ladder"`` or ``"compensate"`` for experiments made by
    those commands (or ``"compare"`` for a TOML spec with a ``baseline`` arm), else None."""
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    if not isinstance(spec, dict):
        return None
    if spec.get("kind") in ("compare", "sweep", "ladder", "compensate"):
        return spec["kind"]
    return "compare" if spec.get("pairs") else None


def study_pairs(manifest: dict) -> list[dict]:
    """``[{n_players, baseline, tweak}]`` of a comparison experiment (``[]`` otherwise)."""
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    pairs = spec.get("pairs") if isinstance(spec, dict) else None
    return [p for p in pairs if isinstance(p, dict)] if isinstance(pairs, list) else []


def _est(scale: str, est, lo, hi) -> tuple[str, str]:
    if scale == "prop":
        return fmt.pct(est), fmt.ci(lo, hi)
    return fmt.num(est, 2), f"{fmt.num(lo, 2)}–{fmt.num(hi, 2)}"


def _diff(scale: str, d, lo, hi) -> tuple[str, str]:
    if not np.isfinite(d):
        return "n/a", "n/a"
    if scale == "prop":
        return f"{100 * d:+.1f} pts", f"{100 * lo:+.1f} to {100 * hi:+.1f}"
    return f"{d:+.3f}", f"{lo:+.3f} to {hi:+.3f}"


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


def _pairing_text(ratio: float) -> str:
    """How much pairing the games narrowed the win-rate intervals, or nothing worth saying."""
    if not np.isfinite(ratio) or ratio <= 0:
        return ""
    if ratio < 1.1:
        return ("Pairing the games (same seeds in both arms) hardly narrowed the win-rate "
                "intervals here: the tweak changes most games, so an unpaired design would "
                "need about as many games.")
    games = ratio ** 2
    return (f"Pairing the games (same seeds in both arms) made the win-rate intervals about "
            f"{ratio:.1f}× narrower than treating the arms as independent: an unpaired design "
            f"would need about {games:.1f}× the games for the same precision."
            if games < 10 else
            f"Pairing the games (same seeds in both arms) made the win-rate intervals about "
            f"{ratio:.0f}× narrower than treating the arms as independent: an unpaired design "
            f"would need about {games:,.0f}× the games for the same precision.")


def _balance_text(bal: dict | None, factor_name: str) -> dict | None:
    """Did the tweak bring the game closer to balance? (:func:`analysis.studies.balance_change`)
    as a sentence and its class."""
    if bal is None:
        return None
    pct = lambda x: f"{100 * x:.1f}"  # noqa: E731
    text = (f"Largest gap from the fair share (over every {factor_name}): "
            f"{pct(bal['before'])} points in the baseline ({bal['before_value']} "
            f"{fmt.pts(bal['before_gap'])}; 95% CI {pct(bal['before_low'])}–"
            f"{pct(bal['before_high'])}), {pct(bal['after'])} points with the tweak "
            f"({bal['after_value']} {fmt.pts(bal['after_gap'])}; 95% CI {pct(bal['after_low'])}–"
            f"{pct(bal['after_high'])}); change {fmt.pts(bal['change'])} points (95% CI "
            f"{fmt.pts(bal['low'])} to {fmt.pts(bal['high'])}, paired bootstrap over "
            f"{bal['n']:,} games): ")
    if bal["verdict"] == "closer to balance":
        text += "balance improved."
    elif bal["verdict"] == "further from balance":
        text += "balance got worse."
    else:
        text += "whether balance improved is undecided (the change's interval includes 0)."
    if bal["overshoot"]:
        text += (f" The tweak overshoots: {bal['before_value']} goes from "
                 f"{fmt.pts(bal['before_gap'])} to {fmt.pts(bal['gap_after_of_before_value'])} "
                 f"points, past the fair share.")
    return {"text": text, "cls": {"closer to balance": "ok", "further from balance": "bad"}
            .get(bal["verdict"], "warn")}


def compare_context(con, store, experiment: str, pairs: list[dict] | None = None) -> dict:
    """Context of the comparison report: per pair of arms, every metric's paired difference."""
    ctx = summary.summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    pairs = pairs or study_pairs(manifest)
    if not pairs:
        raise SpecError(f"experiment '{experiment}' is not a comparison (no baseline/tweak pairs)")
    game = summary.game_of(manifest)
    factor = studies.balance_factor(game)
    rates = factor_rates(con, experiment, [a["name"] for a in ctx["arms"]], factor)
    policy_of = {a["name"]: robust.uniform_policy(a) for a in manifest.get("arms") or []
                 if isinstance(a, dict) and a.get("name")}
    sections = []
    for pair in pairs:
        t = studies.arm_games(con, experiment, pair["tweak"])
        b = studies.arm_games(con, experiment, pair["baseline"])
        if t.empty or b.empty:
            continue
        tab = studies.compare_frames(t, b)
        bal = studies.balance_change(t, b) if pair["n_players"] > 1 else None
        rows = []
        for r in tab.itertuples():
            base, base_ci = _est(r.scale, r.baseline, r.baseline_low, r.baseline_high)
            tw, tw_ci = _est(r.scale, r.tweak, r.tweak_low, r.tweak_high)
            d, d_ci = _diff(r.scale, r.diff, r.low, r.high)
            _, u_ci = _diff(r.scale, r.diff, r.unpaired_low, r.unpaired_high)
            rows.append({"label": r.label, "baseline": base, "baseline_ci": base_ci, "tweak": tw,
                         "tweak_ci": tw_ci, "diff": d, "ci": d_ci, "unpaired_ci": u_ci,
                         "p": fmt.p_value(r.p_value), "verdict": r.verdict,
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
        pol = policy_of.get(pair["baseline"])
        under = f"under {pol}" if pol else "under mixed policies"
        n_pair = int(tab["n"].max()) if len(tab) else 0
        if len(same) == len(rows) and rows:
            verdict = "the tweak changed no game: both arms are identical in every game."
        elif found:
            verdict = ("distinguishable from zero (95% interval excludes 0): "
                       + "; ".join(found) + ".")
        else:
            verdict = "no difference is distinguishable from zero at 95% confidence."
        verdict = (f"{question}, {pair['n_players']} players, {under} ({n_pair:,} paired "
                   f"games): " + verdict)
        sections.append({
            "n_players": pair["n_players"], "baseline": pair["baseline"], "tweak": pair["tweak"],
            "question": question, "policy": pol or "mixed policies", "under": under,
            "verdict": verdict, "factor_name": factor.name,
            "balance_raw": bal, "balance": _balance_text(bal, factor.name),
            "_raw": {r.label: (r.diff, r.low, r.high) for r in tab.itertuples()},
            "n_games": int(tab["n"].max()) if len(tab) else 0, "rows": rows,
            "found": found, "none": none, "same": same,
            "all_same": bool(rows) and len(same) == len(rows),
            "pairing": _pairing_text(ratio),
            "chart": render.figure_to_data_uri(plots.difference_plot(tab)),
            "seat_chart": (render.figure_to_data_uri(
                               plots.factor_gap_plot(chart_rates, factor.name))
                           if len(chart_rates) and pair["n_players"] > 1 else None),
        })
    tables = robust.effect_verdicts(sections, {k: v for k, v in policy_of.items() if v})
    ctx["robust"] = {"tables": tables, "note": "" if tables else robust.one_policy_note(
        "the same `playtest compare` command")}
    ctx["headline"] = headline.compare(sections, policy_of, manifest, game)
    ctx.update({"kind": "compare", "sections": sections,
                "precision": summary.precision_block(manifest), "n_truncated": sum(
                    int(x) for x in db.query(con, "SELECT count(*) FROM stg_games WHERE "
                                                  "experiment = ? AND truncated", [experiment]
                                             ).iloc[:, 0])})
    return ctx


def sweep_long(con, experiment: str, source: dict) -> pd.DataFrame:
    """Every metric of every sweep point with its interval (long format): ``arm, n_players,
    <param columns>, metric, label, scale, estimate, low, high, half_width, n``."""
    points = source.get("points") or []
    levels = {arm: studies.level_table(df)  # the arms a batch per query, not one by one
              for arm, df in studies.arms_games(con, experiment, [pt["arm"] for pt in points])}
    frames = []
    for pt in points:
        t = levels.get(pt["arm"])
        if t is None or t.empty:
            continue
        t.insert(0, "arm", pt["arm"])
        t.insert(1, "n_players", int(pt["n_players"]))
        for k, v in pt["values"].items():
            t[k] = fmt.show(v) if isinstance(v, (list, tuple, bool, str)) else v
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
    ctx = summary.summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    source = manifest.get("spec") or {}
    params = source.get("params") or []
    names = [p["name"] for p in params]
    tol = float(source.get("tolerance") or 0.02)
    factor = studies.balance_factor(source.get("game"))
    prefix = studies.factor_prefix(factor)
    long = sweep_long(con, experiment, source)
    table = sweep_table(con, experiment, source, long)
    charts, verdicts, chart_note = [], [], ""
    if len(long):
        bal = _balance_by_arm(long, tol, factor)
        long = long.assign(balance=long["arm"].map(bal))
        long["balanced"] = long["balance"] == "balanced"
        long_all = long
        x = names[0]
        order = [fmt.show(v) if not isinstance(v, (int, float)) or isinstance(v, bool) else v
                 for v in params[0]["values"]]
        hue2 = names[1] if len(names) > 1 else None
        if hue2 is not None:
            shown = _chart_values(params[1]["values"])
            if len(shown) < len(params[1]["values"]):
                long_all, long = long, long[long[hue2].map(fmt.show).isin(shown)]
                chart_note = (f"The curves show {len(shown)} of the {len(params[1]['values'])} "
                              f"values of {hue2} ({', '.join(shown)}); the table has every "
                              f"point.")
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
                                   "img": render.figure_to_data_uri(plots.metric_curve_plot(
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
                               "img": render.figure_to_data_uri(plots.metric_curve_plot(
                                   d, x, hue=hue2, reference=ref, percent=pct,
                                   band=(-tol, tol) if fpa else None,
                                   mark="balanced" if fpa else None, order=order,
                                   ylabel=ylabel, title=f"{n} players: {d['label'].iloc[0]}"))})
            if n > 1:
                pts = long_all[long_all["n_players"] == n].drop_duplicates("arm")
                label = lambda r: ", ".join(f"{k}={r[k]}" for k in names)  # noqa: E731
                by_grade = {g: [label(r) for _, r in pts.iterrows() if r["balance"] == g]
                            for g in studies.BALANCE_GRADES}
                sure = by_grade[studies.BALANCED]
                if sure:
                    text = (f"{n} players: balanced — every {factor.name} wins within "
                            f"±{100 * tol:g} points of 1/{n} (every 95% interval inside the band) "
                            f"at: " + "; ".join(sure) + ".")
                    cls = "ok"
                else:
                    text = (f"{n} players: no point is balanced — none puts every {factor.name} "
                            f"within ±{100 * tol:g} points of 1/{n} with 95% confidence.")
                    cls = "warn"
                for g in (studies.PLAUSIBLY_BALANCED, studies.UNDECIDED, studies.UNBALANCED):
                    if by_grade[g]:
                        text += (f" {g[0].upper() + g[1:]} ({studies.BALANCE_GRADES[g]}): "
                                 + "; ".join(by_grade[g]) + ".")
                verdicts.append({"text": text, "cls": cls})
    policy = source.get("policy") or next(
        (p for p in (robust.uniform_policy(a) for a in manifest.get("arms") or []) if p),
        "mixed policies")
    ctx["headline"] = (headline.sweep(long, names, _balance_by_arm(long, tol, factor), factor,
                                      tol, policy, manifest) if len(long) else None)
    ctx.update({
        "kind": "sweep", "factor_name": factor.name,
        "grades": studies.balance_legend(tol, factor.name),
        "params": [{"name": p["name"], "value_list": ", ".join(
            fmt.show(v) for v in p["values"])} for p in params],
        "tolerance": f"±{100 * tol:g} points", "verdicts": verdicts, "charts": charts,
        "chart_note": chart_note,
        "columns": [c for c in table.columns if c != "arm"],
        "rows": [[str(r[c]) for c in table.columns if c != "arm"] for _, r in table.iterrows()],
        "precision": summary.precision_block(manifest),
    })
    return ctx


#: A sweep's second parameter draws its curves for at most this many of its values (a chart
#: each for the win rates, a line each in the others): a grid of a thousand points stays a
#: report of a few dozen charts, drawn in seconds; the table lists every point.
MAX_CHART_VALUES = 6


def _chart_values(values: list) -> list[str]:
    """The values of the second swept parameter that get curves (as shown): all of them, or
    :data:`MAX_CHART_VALUES` spread evenly from the first to the last."""
    shown = [fmt.show(v) for v in values]
    if len(shown) <= MAX_CHART_VALUES:
        return shown
    k = MAX_CHART_VALUES - 1
    return [shown[round(i * (len(shown) - 1) / k)] for i in range(MAX_CHART_VALUES)]


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
                "label": str(r.label).removeprefix("win rate, "),
                "rate": f"{fmt.pct(e.estimate)} ({fmt.ci(e.low, e.high)})",
                "vs_fair": fmt.num(r.vs_fair) if r.vs_fair is not None and r.vs_fair == r.vs_fair
                else "n/a",
                "unpaired": fmt.num(r.unpaired),
                "paired": (fmt.num(r.paired) if r.paired is not None and r.paired == r.paired
                           else "needs --set (a tweak pilot)"),
                "corr": ("" if r.correlation is None or r.correlation != r.correlation
                         else f"{r.correlation:.2f}"),
                "pilot_diff": ("" if r.pilot_diff is None or r.pilot_diff != r.pilot_diff
                               else fmt.pts(r.pilot_diff)),
            })
        most = {}
        for col in ("vs_fair", "unpaired", "paired"):
            v = pd.to_numeric(tab[col], errors="coerce").dropna() if col in tab else pd.Series()
            most[col] = int(v.max()) if len(v) else None
        solo = bool(len(tab)) and (tab["metric"] == "solo_win").all()
        keys = [k for k in tab["metric"] if k in lv.index]
        gap = None
        if keys:  # the pilot's own effect: its largest gap from the fair share (or solo rate)
            n_seats = len([c for c in b.columns if c.startswith("win_share_")]) or 1
            fair = 0.0 if solo else 1.0 / n_seats
            g = lv.loc[keys]
            k = (g["estimate"] - fair).abs().idxmax()
            gap = (str(g.loc[k, "label"]).removeprefix("win rate, "),
                   *(float(g.loc[k, c]) - fair for c in ("estimate", "low", "high")))
        blocks.append({"title": title, "pilot_games": int(len(b)), "rows": rows,
                       "verdict": _plan_verdict(title, tab, delta), "_most": most,
                       "solo": solo, "_gap": gap})
    return blocks


def plan_context(con, store, experiment: str, delta: float, power: float = 0.8) -> dict:
    """Context of the sample-size report (``playtest plan``)."""
    ctx = summary.summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    blocks = plan_rows(con, experiment, manifest.get("spec") or {}, delta, power)
    pilots = []
    levels = {arm: studies.level_table(df) for arm, df in
              studies.arms_games(con, experiment, [r["name"] for r in ctx["arms"]])}
    for r in ctx["arms"]:
        lv = levels.get(r["name"])
        if lv is None:
            continue
        pilots.append({"arm": r["name"], "rows": [
            dict(zip(("label", "est", "ci"), (x.label, *_est(x.scale, x.estimate, x.low, x.high))))
            for x in lv.itertuples()]})
    factor = studies.balance_factor(summary.game_of(manifest))
    policy = next((p for p in (robust.uniform_policy(a) for a in manifest.get("arms") or [])
                   if p), "mixed policies")
    ctx["headline"] = headline.plan(blocks, delta, policy, factor.name)
    ctx.update({"kind": "plan", "factor_name": factor.name,
                "precision": None, "delta": f"{100 * delta:g}",
                "delta_text": f"{100 * delta:g} {plural(100 * delta, 'point')}", "power": f"{power:.0%}",
                "blocks": blocks, "pilots": pilots, "paired": bool(study_pairs(manifest))})
    return ctx


def _elo(x: float) -> str:
    return f"{x:+.0f}" if np.isfinite(x) else "n/a"


def _index(x: float) -> str:
    return f"{round(float(x), 2) + 0.0:.2f}"  # never "-0.00"


def skill_luck_rows(lad: ladder_stats.Ladder) -> dict:
    """How much of the game is skill, as strings: ``skill_luck`` (one row per figure:
    ``measure, of, value, ci, meaning, method``), ``skill_luck_notes`` (what could not be
    computed) and ``skill_luck_text`` (:func:`analysis.ladder.skill_luck_lines`)."""
    sk = lad.skill_luck or {}
    rows = []
    c = sk.get("chain")
    if c:
        rows.append({"measure": "Skill-chain length", "of": f"{c['random']} → {c['best']}",
                     "value": f"{_num(c['estimate'], 1)} links",
                     "ci": f"{_num(c['low'], 1)} to {_num(c['high'], 1)}",
                     "meaning": c["meaning"], "method": c["method"]})
    s = sk.get("share")
    if s:
        rows.append({"measure": "Share of games decided by skill",
                     "of": f"{s['best']} vs {s['random']} seats", "value": fmt.pct(s["estimate"]),
                     "ci": fmt.ci(s["low"], s["high"]), "meaning": s["meaning"],
                     "method": s["method"]})
    o = sk.get("solo")
    if o and np.isfinite(o["estimate"]):
        rows.append({"measure": "Solo skill score", "of": f"{o['random']} vs {o['best']}",
                     "value": _num(o["estimate"]), "ci": f"{_num(o['low'])} to {_num(o['high'])}",
                     "meaning": o["meaning"], "method": o["method"]})
    return {"skill_luck": rows, "skill_luck_notes": list(sk.get("notes") or []),
            "skill_luck_text": ladder_stats.skill_luck_lines(lad)}


def _num(x: float, digits: int = 2) -> str:
    return f"{round(float(x), digits) + 0.0:.{digits}f}" if np.isfinite(x) else "n/a"


def ladder_rows(lad: ladder_stats.Ladder) -> dict:
    """The ladder's tables as strings (the report and ``playtest ladder / show``): ``pairs``
    (multiplayer: a vs b, games, a's seat win rate with its interval, fair share, rate per
    seat, the rate the ratings predict, verdict), ``ratings`` (policy, Elo rating, 95%
    interval, rank), ``solo`` (policy, games, win probability, interval), ``steps`` (solo:
    each rung minus the one below, paired), ``skill`` / ``fit`` sentences, and how much of the
    game is skill: ``skill_luck`` (measure, value, interval, meaning, method per figure),
    ``skill_luck_text`` (the same as sentences, then the notes, for the terminal:
    :func:`analysis.ladder.skill_luck_lines`) and ``skill_luck_notes``."""
    out: dict[str, Any] = {"pairs": [], "ratings": [], "solo": [], "steps": [], "skill": "",
                           "fit": "", **skill_luck_rows(lad)}
    if lad.n_players == 1:
        out["solo"] = [{"policy": r.policy, "games": fmt.num(r.games), "rate": fmt.pct(r.rate),
                        "ci": fmt.ci(r.low, r.high)} for r in lad.pairs.itertuples()]
        out["steps"] = [{"step": f"{r.a} over {r.b}", "games": fmt.num(r.games),
                         "diff": f"{fmt.pts(r.diff)} pts",
                         "ci": f"{fmt.pts(r.low)} to {fmt.pts(r.high)}",
                         "verdict": r.verdict,
                         "cls": "hl" if r.verdict != ladder_stats.BEATS else ""}
                        for r in lad.steps.itertuples()]
        return out
    adjacent = {(a, b) for b, a in zip(lad.rungs, lad.rungs[1:])}
    for r in lad.pairs.itertuples():
        out["pairs"].append({
            "a": r.a, "b": r.b, "step": (r.a, r.b) in adjacent, "games": fmt.num(r.games),
            "rate": fmt.pct(r.rate), "ci": fmt.ci(r.low, r.high), "fair": fmt.pct(r.fair),
            "by_seat": " / ".join(fmt.pct(x) for x in r.by_seat),
            "expected": fmt.pct(getattr(r, "expected", float("nan"))), "verdict": r.verdict,
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
                      f"{fmt.num(int(lad.pairs['games'].sum()))} games, anchored at "
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
                        f"{fmt.pct(sk['rate'])} of its seats' games (95% CI "
                        f"{fmt.ci(sk['low'], sk['high'])}; fair share {fmt.pct(sk['fair'])}, "
                        f"pooled "
                        f"over {fmt.num(sk['games'])} seat-games of all pairs): skill index "
                        f"{_index(sk['index'])} (95% CI {_index(sk['index_low'])} to "
                        f"{_index(sk['index_high'])}; 0 = the better policy wins no more than its "
                        f"fair share, luck decides; 1 = it always wins).")
    return out


def ladder_context(con, store, experiment: str) -> dict:
    """Context of the ladder report (``playtest ladder``): verdict, head-to-head table,
    ratings, skill versus luck, charts with 95% intervals."""
    ctx = summary.summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    source = manifest.get("spec") or {}
    lad = ladder_stats.summarize(con, experiment, source)
    rows = ladder_rows(lad)
    charts = []
    n = lad.n_players
    if n == 1 and len(lad.pairs):
        d = lad.pairs.assign(label=lad.pairs["policy"], estimate=lad.pairs["rate"])
        charts.append({"title": "Solo win probability per policy", "img": render.figure_to_data_uri(
            plots.estimate_plot(d, "solo win probability (95% CI)",
                                "Solo win probability per policy (lowest rung at the top)",
                                percent=True))})
    if lad.ratings is not None:
        rt = lad.ratings
        d = pd.DataFrame({"label": rt.names, "estimate": rt.rating, "low": rt.low,
                          "high": rt.high})
        charts.append({"title": "Ratings (Elo scale)", "img": render.figure_to_data_uri(
            plots.estimate_plot(d, f"rating, Elo points (95% CI; {rt.names[rt.anchor]} = 0)",
                                "Bradley-Terry ratings (lowest rung at the top)",
                                reference=0.0))})
    if n > 1 and len(lad.pairs):
        d = lad.pairs.assign(arm="head to head", n_players=n, win_rate=lad.pairs["rate"],
                             label=[f"{r.a} vs {r.b}" for r in lad.pairs.itertuples()])
        charts.append({"title": "Head to head: win rate of the higher rung's seat",
                       "img": render.figure_to_data_uri(plots.factor_gap_plot(d, "pair"))})
    ctx["headline"] = headline.ladder(lad, manifest)
    ctx.update({"kind": "ladder", "rungs": lad.rungs, "n_players": n, "verdict": lad.verdict,
                "verdict_ok": lad.all_steps_hold, "charts": charts, **rows,
                "games_per_arm": source.get("games"), "precision": None})
    return ctx
