"""The report of one experiment (``playtest report``): the multiplayer section (win rate by
seat and by the game's balance factor, first-player advantage, balance test, score
distributions), game length, end reasons, the solo section (:mod:`.solo`), whether the
verdicts hold under stronger play and how the game plays (:mod:`.how_it_plays`, traced arms)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import db, difficulty, plots, robust, stats, studies
from . import formatting as fmt
from . import headline, render, summary
from .how_it_plays import how_it_plays
from .solo import check_targets, solo_section

__all__ = ["build_context", "factor_rates", "factor_verdict"]


def build_context(con, store, experiment: str, targets: dict | None = None) -> dict:
    """Everything the template shows, as plain strings/lists (raises SpecError if unknown).

    ``targets``: target solo win probabilities, ``{variant: p}`` or ``{variant: {policy: p}}``
    (e.g. ``{"solo_hell": 0.05}``); they update the manifest's ``targets`` (or its spec's)."""
    ctx = summary.summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    arm_rows = ctx["arms"]
    multi = [r["name"] for r in arm_rows
             if isinstance(r["n_players"], int) and r["n_players"] >= 2 and r["games_stored"]]
    solo = [r["name"] for r in arm_rows if r["n_players"] == 1 and r["games_stored"]]
    solo_game = next((r["game"] for r in arm_rows if r["name"] in solo), None)
    goals = {**_manifest_targets(manifest), **check_targets(targets)}
    ctx.update({
        "is_solo": bool(solo) and not multi,
        "multi": (_multiplayer_section(con, experiment, multi, summary.game_of(manifest))
                  if multi else None),
        "solo": (solo_section(con, experiment, manifest, solo, solo_game, goals)
                 if solo else None),
        "scores": _score_rows(con, experiment) if multi else [],
        "rounds_chart": None,
        "precision": summary.precision_block(manifest),  # `run --precision`: met or NOT met
    })
    order = _arm_order(manifest, arm_rows, ctx["solo"], solo_game, ctx["is_solo"])
    length_rows, n_truncated = _length_rows(con, experiment, order)
    ctx.update({"length": length_rows, "n_truncated": n_truncated,
                "ends": _end_rows(con, experiment, order),
                "end_notes": _end_notes(con, experiment, summary.game_of(manifest))})
    rates = ctx["multi"].pop("_rates") if ctx["multi"] else None
    ctx["robust"] = _robustness(manifest, rates, ctx["solo"])
    ctx["headline"] = _headline(manifest, rates, multi, ctx["solo"], summary.game_of(manifest))
    ctx["how_it_plays"] = how_it_plays(con, experiment, manifest,
                                       [r["name"] for r in arm_rows if r["games_stored"]])
    rh = db.rounds_histogram(con, experiment)
    if multi and len(rh):
        ctx["rounds_chart"] = render.figure_to_data_uri(
            plots.rounds_distribution_plot(rh[rh["arm"].isin(multi)]))
    return ctx


def _headline(manifest: dict, rates, multi: list[str], solo: dict | None,
              game: str) -> dict | None:
    """The report's first sentence (:mod:`.headline`): the multiplayer verdict, else the solo
    one."""
    if rates is not None:
        factor, frates, srates = rates
        rows = (frates if not factor.is_seat and len(frates) else
                srates.assign(value=srates["seat"],
                              label=[f"seat {int(v)}" for v in srates["seat"]]))
        games = srates.groupby("arm")["n_games"].max().astype(int).to_dict()
        return headline.experiment(manifest, factor, rows, multi, game, games)
    return solo.get("headline") if solo else None


def _robustness(manifest: dict, rates, solo: dict | None) -> dict:
    """"Does the verdict hold under stronger play?": the verdicts of arms that differ only in
    the policy every seat plays, side by side (``analysis.robust``), from the rates the
    multi-player section already queried (``rates``: factor, its rates, the seat rates)."""
    arms = [a for a in manifest.get("arms") or [] if isinstance(a, dict)]
    tables = []
    if rates is not None:
        factor, frates, rates = rates
        srates = rates.rename(columns={"seat": "value"})
        names = set(srates["arm"])
        for group in robust.same_but_policy(a for a in arms if a.get("name") in names):
            first = next(a for a in arms if a.get("name") == next(iter(group.values())))
            verdicts = (robust.seat_verdicts(frates, group, factor.label)
                        if not factor.is_seat and len(frates) else [])
            verdicts += robust.seat_verdicts(
                srates, group,
                lambda v: "seat 0 (start player)" if int(v) == 0 else f"seat {int(v)}")
            tables.append(robust.table(f"{first.get('n_players')} players, variant "
                                       f"{first.get('variant', fmt.UNKNOWN)}", list(group),
                                       verdicts))
    if solo and solo.get("checks"):
        pols = [p for p in solo["policies"] if p in {c["policy"] for c in solo["checks"]}]
        if len(pols) >= 2:
            tables.append(robust.table("Solo difficulty", pols,
                                       robust.step_verdicts(solo["checks"])))
    return {"tables": tables,
            "note": "" if tables else robust.one_policy_note("the same `playtest run` command")}


def factor_rates(con, experiment: str, arms: list[str], factor) -> pd.DataFrame:
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
    is_off = _off_fair(rates)
    off, rest = rates[is_off], rates[~is_off]
    parts = [f"{r.label} wins {abs(100 * (r.win_rate - fair)):.1f} points "
             f"{'above' if r.win_rate > fair else 'below'} its fair share "
             f"({fmt.pct(r.win_rate)}, 95% CI {fmt.ci(r.low, r.high)})"
             for r in off.loc[gap[is_off].abs().sort_values(ascending=False).index].itertuples()]
    if parts:
        text = "; ".join(parts) + f" (fair share 1/{n} = {fmt.pct(fair)})."
        if len(rest):
            text += (f" The others are within {100 * (rest['win_rate'] - fair).abs().max():.1f} "
                     f"points of it (their intervals include it).")
        return text
    w = rates.loc[gap.abs().idxmax()]
    text = (f"no {factor.name} wins significantly more or less than its fair share 1/{n} = "
            f"{fmt.pct(fair)}: the largest gap is {w['label']}, "
            f"{fmt.pts(w['win_rate'] - fair)} points "
            f"(95% CI {fmt.pts(w['low'] - fair)} to {fmt.pts(w['high'] - fair)}).")
    games, need = underpowered(rates)
    if need:
        return (f"Undecided: {text} With {games:,} games the intervals are too wide to rule "
                f"out a {100 * DETECTABLE:.0f}-point gap; about {need:,} games would detect "
                f"one (95% confidence, 80% power).")
    return text[0].upper() + text[1:]


#: the smallest gap from the fair share worth detecting (the report's plan line uses it too)
DETECTABLE = 0.02


def _off_fair(rates: pd.DataFrame) -> pd.Series:
    """The rows whose 95% interval excludes the fair share 1/N."""
    fair = 1.0 / int(rates["n_players"].iloc[0])
    return (rates["low"] > fair) | (rates["high"] < fair)


def underpowered(rates: pd.DataFrame) -> tuple[int, int]:
    """(games, games needed) of one arm's balance-factor rows: the games needed to detect a
    ``DETECTABLE`` gap from the fair share 1/N with 95% confidence and 80% power when the arm
    has fewer (its verdict of no difference is then undecided), else 0."""
    n = int(rates["n_players"].iloc[0])
    games = int(rates["n_games"].max())
    need = stats.required_games(1.0 / n, DETECTABLE)
    return games, (need if games < need else 0)


def _factor_block(rates: pd.DataFrame, factor) -> dict:
    """Table rows, balance test and verdict of one arm's balance factor."""
    n = int(rates["n_players"].iloc[0])
    rows = [{"value": r.label, "n_games": fmt.num(r.n_games), "rate": fmt.pct(r.win_rate),
             "ci": fmt.ci(r.low, r.high), "vs_fair": fmt.pts(r.win_rate - 1.0 / n)}
            for r in rates.itertuples()]
    # the chi-square test needs every value held equally often (every seat; all dice at N = 4)
    held = rates["n_games"].to_numpy(float)
    test = (stats.seat_balance_test(rates["win_share_sum"].to_numpy(float), n)
            if len(held) == n and np.allclose(held, held[0]) else None)
    balance = (test.describe().replace("Seat win rates", f"Win rates by {factor.name}")
               .replace("seat win rates", f"win rates by {factor.name}") if test else "")
    return {"name": factor.name, "rows": rows, "balance": balance,
            "verdict": factor_verdict(rates, factor),
            "undecided": bool(underpowered(rates)[1]) and not _off_fair(rates).any()}


def _multiplayer_section(con, experiment: str, multi_arms: list[str], game: str = "") -> dict:
    factor = studies.balance_factor(game)
    frates = factor_rates(con, experiment, multi_arms, factor)
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
            "seat": int(r.seat), "policy": r.policy, "n_games": fmt.num(r.n_games),
            "wins": fmt.num(r.wins), "share_sum": fmt.num(r.win_share_sum),
            "rate": fmt.pct(r.win_rate), "ci": fmt.ci(r.low, r.high),
            "vs_fair": fmt.pts(r.win_rate - fair),
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
        adv_text = (f"Seat 0 (start player) wins {fmt.pct(s0.win_rate)} "
                    f"(95% CI {fmt.ci(s0.low, s0.high)}) "
                    f"against a fair share of {fmt.pct(fair)}: {fmt.pts(adv)} points "
                    f"(95% CI {fmt.pts(lo)} to {fmt.pts(hi)}), {adv_word}.")
        if not factor.is_seat:
            adv_text += (f" In this game the seat does not fix the turn order: see the win rate "
                         f"by {factor.name} above.")
        need = stats.required_games(fair, DETECTABLE)
        plan = (f"Detecting a {100 * DETECTABLE:.0f}-point seat advantage (vs {fmt.pct(fair)}) "
                f"with 95% confidence and 80% power needs about {need:,} games; this arm has "
                f"{n_games:,}.")
        policies = set(d["policy"])
        mixed = len(policies) > 1
        per_arm.append({
            "arm": arm, "n_players": n, "n_games": n_games, "seats": seats,
            "balance": test.describe(), "balance_rejected": test.significant,
            # no difference found on too few games is undecided (amber), not a pass
            "balance_class": "bad" if test.significant else ("warn" if n_games < need else "ok"),
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
        "factor_chart": (render.figure_to_data_uri(plots.factor_gap_plot(frates, factor.name))
                         if len(frates) else None),
        "chart": (render.figure_to_data_uri(plots.factor_gap_plot(seat_rates, "seat"))
                  if len(rates) and not factor.is_seat else None),
        "score_chart": (render.figure_to_data_uri(plots.score_distribution_plot(hist))
                        if len(hist) else None),
        "_rates": (factor, frates, rates),  # for _robustness (popped: not for the template)
    }


def _score_rows(con, experiment: str) -> list[dict]:
    ss = db.score_summary(con, experiment)
    return [{
        "arm": r.arm, "seat": int(r.seat), "policy": r.policy, "n_games": fmt.num(r.n_games),
        "mean": fmt.num(r.mean_score), "ci": f"{fmt.num(r.mean_low)}–{fmt.num(r.mean_high)}",
        "sd": fmt.num(r.sd_score), "median": fmt.num(r.median_score),
        "iqr": f"{fmt.num(r.q25_score)}–{fmt.num(r.q75_score)}",
        "range": f"{fmt.num(r.min_score)}–{fmt.num(r.max_score)}",
    } for r in ss.itertuples()]


def _manifest_targets(manifest: dict) -> dict:
    """Target win probabilities recorded with the experiment (``targets``, or its spec's)."""
    spec = manifest.get("spec") if isinstance(manifest.get("spec"), dict) else {}
    try:
        return {**check_targets(spec.get("targets")), **check_targets(manifest.get("targets"))}
    except ValueError:
        return {}


def _arm_order(manifest: dict, arm_rows: list[dict], solo: dict | None, game: str | None,
               is_solo: bool) -> dict[str, tuple]:
    """Sort key per arm for the length and end-reason tables: solo arms by difficulty
    (easiest first) then skill (weakest first), with their variant and policy; other arms in
    manifest order."""
    arms = {str(a.get("name")): a for a in manifest.get("arms") or [] if isinstance(a, dict)}
    order = {}
    variants = difficulty.variant_order([r["variant"] for r in arm_rows],
                                        difficulty.of_game(game))
    policies = (solo or {}).get("policies") or []
    for i, r in enumerate(arm_rows):
        pol = robust.uniform_policy(arms.get(r["name"], {})) or "; ".join(r["policies"])
        key = ((variants.index(r["variant"]) if r["variant"] in variants else len(variants),
                policies.index(pol) if pol in policies else len(policies), i)
               if is_solo else (i,))
        order[r["name"]] = (key, r["variant"], pol)
    return order


def _length_rows(con, experiment: str, order: dict | None = None) -> tuple[list[dict], int]:
    gl = db.game_length(con, experiment)
    order = order or {}
    rows = [{
        "arm": r.arm, "variant": order.get(r.arm, ((), "", ""))[1],
        "policy": order.get(r.arm, ((), "", ""))[2],
        "n_players": int(r.n_players), "n_games": fmt.num(r.n_games),
        "mean": fmt.num(r.mean_rounds), "ci": f"{fmt.num(r.mean_low)}–{fmt.num(r.mean_high)}",
        "median": fmt.num(r.median_rounds),
        "range": f"{fmt.num(r.min_rounds)}–{fmt.num(r.max_rounds)}",
        "truncated": int(r.n_truncated), "tied": int(r.n_tied), "no_winner": int(r.n_no_winner),
    } for r in gl.itertuples()]
    rows.sort(key=lambda r: order.get(r["arm"], ((len(order),),))[0])
    return rows, int(gl["n_truncated"].sum()) if len(gl) else 0


def _end_rows(con, experiment: str, order: dict | None = None) -> list[dict]:
    er = db.end_reasons(con, experiment)
    order = order or {}
    rows = [{"arm": r.arm, "variant": order.get(r.arm, ((), "", ""))[1],
             "policy": order.get(r.arm, ((), "", ""))[2], "reason": r.end_reason,
             "n_games": fmt.num(r.n_games), "share": fmt.pct(r.share),
             "ci": fmt.ci(r.low, r.high)} for r in er.itertuples()]
    rows.sort(key=lambda r: order.get(r["arm"], ((len(order),),))[0])  # stable: by count within
    return rows


#: What the end reasons every game shares mean (a game describes its own in
#: ``GameSpec.end_reason_notes``).
_GENERIC_END_NOTES = {
    "truncated": "the game hit the max-rounds safety cap before it ended by its rules; it "
                 "counts in every table",
}


def _end_notes(con, experiment: str, game: str | None) -> list[dict]:
    """Each end reason of the experiment with the sentence the game gives for it
    (``GameSpec.end_reason_notes``), or says that it gives none."""
    er = db.end_reasons(con, experiment)
    reasons = list(dict.fromkeys(er["end_reason"])) if len(er) else []
    try:
        from sim.registry import make

        notes = dict(make(str(game)).end_reason_notes)
    except Exception:
        notes = {}
    return [{"reason": r, "text": notes.get(r) or _GENERIC_END_NOTES.get(r) or
             "not described by the game (its GameSpec.end_reason_notes has no sentence for it)",
             "known": bool(notes.get(r) or _GENERIC_END_NOTES.get(r))} for r in reasons]
