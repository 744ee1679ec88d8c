"""The solo difficulty section of an experiment report: the ladder (win probability per
variant and policy), its monotonicity checked once per reading of a garbled rung, the day of
loss, the win probability per task card, what the assumed component data do, and arms on
alternative component data compared with the main ones. What the game knows (its ladder, its
cards and assumptions) comes from its spec: ``GameSpec.solo_difficulty`` and
``GameSpec.component_notes``."""
from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.spec import CardNote, ComponentNotes, SoloDifficulty

from .. import db, difficulty, plots, stats
from ..targets import check_targets
from . import formatting as fmt
from . import headline, render

__all__ = ["check_targets", "solo_section"]


def solo_section(con, experiment: str, manifest: dict, arms: list[str], game: str | None,
                 targets: dict | None = None) -> dict:
    """The solo section of ``arms`` (the experiment's solo arms, with games stored), played
    with ``game``'s ladder: arms on component data other than the first arm's are compared
    with the main ones, not taken for extra rungs. ``targets``: target win probabilities,
    ``{variant: p}`` or ``{variant: {policy: p}}`` (:func:`check_targets`)."""
    main, alts = _component_sets(manifest, arms)
    out = _solo_section(con, experiment, main, difficulty.of_game(game),
                        _components_info(manifest), alts, game, targets or {})
    out["headline"] = headline.solo(out.pop("_ladder"), out["checks"], out["policies"],
                                    targets or {}, manifest, game)
    return out


def _ladder_label(ladder: pd.DataFrame) -> pd.DataFrame:
    dup = ladder.duplicated(["variant", "policy"], keep=False)
    return ladder.assign(label=np.where(dup, ladder["arm"], ladder["variant"]))


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
            name = f"{Path(str(comp[a].get('dir') or fmt.UNKNOWN)).name} [digest {digest[a]}]"
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
        skill = list(dict.fromkeys(main["policy"]))  # main is in skill order, weakest first
        alt = alt.assign(_o=alt["variant"].map(lambda v: _place(order, v)),
                         _p=alt["policy"].map(lambda p, skill=skill: _place(skill, p))
                         ).sort_values(["_p", "_o"])
        rows = []
        for r in alt.itertuples():
            b = main[(main["variant"] == r.variant) & (main["policy"] == r.policy)]
            row = {"variant": r.variant + _tag(r.variant, solo), "policy": r.policy,
                   "alt": f"{fmt.pct(r.win_rate)} ({fmt.ci(r.low, r.high)})", "main": "–",
                   "diff": "–"}
            if len(b) == 1:
                b = b.iloc[0]
                d = stats.proportion_difference(r.wins, r.n_games, b["wins"], b["n_games"])
                row.update(main=f"{fmt.pct(b['win_rate'])} ({fmt.ci(b['low'], b['high'])})",
                           diff=f"{fmt.pts(d.estimate)} ({fmt.pts(d.low)} to {fmt.pts(d.high)})")
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


def _grid(ladder: pd.DataFrame, order: list[str], policies: list[str], solo: SoloDifficulty,
          targets: dict) -> dict:
    """The first screen: one row per variant (easiest first), one column per policy (weakest
    first), the win probability with its 95% interval in each cell, graded against the
    variant's target win rate when one is given."""
    rows = []
    labels = list(dict.fromkeys(ladder.sort_values("_o")["label"]))
    for label in labels:
        d = ladder[ladder["label"] == label].set_index("policy")
        variant = d["variant"].iloc[0]
        cells, goals = [], []
        for pol in policies:
            if pol not in d.index:
                cells.append({"text": "–", "grade": "", "cls": ""})
                continue
            r = d.loc[pol]
            cell = {"text": f"{fmt.pct(r['win_rate'])} ({fmt.ci(r['low'], r['high'])})",
                    "n": fmt.num(r["n_games"]), "grade": "", "cls": ""}
            t = headline._target_of(targets, variant, pol) if label == variant else None
            if t is not None:
                cell["grade"], cell["cls"] = headline.target_grade(r["win_rate"], r["low"],
                                                                   r["high"], t)
                goals.append((pol, t))
            cells.append(cell)
        if goals and len({t for _, t in goals}) == 1:
            goal = fmt.pct(goals[0][1])
        else:
            goal = "; ".join(f"{p}: {fmt.pct(t)}" for p, t in goals)
        rows.append({"variant": label, "tag": _tag(variant, solo) if label == variant else "",
                     "cells": cells, "target": goal})
    played = {v for v in ladder["variant"]}
    unknown = sorted(set(targets) - played)
    return {"policies": policies, "rows": rows, "has_targets": any(r["target"] for r in rows),
            "unknown_targets": unknown,
            "n_games": [f"{x:,}" for x in sorted({int(x) for x in ladder["n_games"]})]}


def _solo_section(con, experiment: str, solo_arms: list[str], solo: SoloDifficulty,
                  comp: ComponentNotes | None = None,
                  alts: dict[str, list[str]] | None = None, game: str | None = None,
                  targets: dict | None = None) -> dict:
    comp = comp or ComponentNotes()
    targets = targets or {}
    card_names = [c.name for c in comp.cards]
    ladder = db.solo_ladder(con, experiment)
    ladder = _ladder_label(ladder[ladder["arm"].isin(solo_arms)])
    order = difficulty.variant_order(ladder["variant"], solo)
    policies = difficulty.skill_order(ladder["policy"], difficulty.skill_ladder(game))
    ladder = ladder.assign(_o=ladder["variant"].map(order.index),
                           _p=ladder["policy"].map(policies.index)).sort_values(["_p", "_o"])
    rows = [{"variant": r.label, "policy": r.policy, "n_games": fmt.num(r.n_games),
             "wins": fmt.num(r.wins), "rate": fmt.pct(r.win_rate), "ci": fmt.ci(r.low, r.high),
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
                "cls": {"monotone": "ok", "not monotone": "bad"}.get(res.verdict, "warn"),
                "_raw": res.steps, "_n": dict(zip(use["label"], use["n_games"].astype(int))),
                "assumption": assumption, "identical": same if k == 0 else [],
                "steps": [{
                    "easier": s.easier, "harder": s.harder,
                    "rates": f"{fmt.pct(s.p_easier)} → {fmt.pct(s.p_harder)}",
                    "diff": fmt.pts(s.diff), "ci": f"{fmt.pts(s.low)} to {fmt.pts(s.high)}",
                    "p_exp": fmt.p_value(s.p_expected), "p_rev": fmt.p_value(s.p_reversed),
                    "verdict": s.label,
                } for s in res.steps],
            })
    verdicts = []
    for pol, d in ladder.groupby("policy", sort=False):
        d = d.sort_values("win_rate", ascending=False)
        verdicts.append({
            "order": (f"Policy {pol}, easiest to hardest by measured win probability: "
                      + ", ".join(f"{r.label}"
                                  f"{_tag(r.variant, solo) if r.label == r.variant else ''} "
                                  f"{fmt.pct(r.win_rate)} ({fmt.ci(r.low, r.high)})"
                                  for r in d.itertuples()) + "."),
            "ladders": [f"Ladder{' with ' + c['reading'] if c['reading'] else ''}: "
                        f"{c['verdict']}. {c['text']}" for c in checks if c["policy"] == pol]})
    out: dict[str, Any] = {
        "rows": rows, "checks": checks, "verdicts": verdicts, "policies": policies,
        "grid": _grid(ladder, order, policies, solo, targets), "_ladder": ladder,
        "readings": _readings_text(ladder["variant"], solo),
        "chart": (render.figure_to_data_uri(plots.solo_ladder_plot(ladder, solo))
                  if len(ladder) else None),
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
                          "sort": variant, "n_games": fmt.num(d["n_games"].sum()),
                          "cells": [(fmt.pct(d.loc[x, "share"]) if x in d.index else "0.0%")
                                    for x in days]})
        table.sort(key=lambda r: (_place(policies, r["policy"]), _place(order, r["sort"])))
        end = f"end ({solo.end_day})" if solo.end_day is not None else ""
        out["loss"] = {"days": [(end if x == solo.end_day else str(x)) for x in days],
                       "end": end, "rows": table,
                       "chart": render.figure_to_data_uri(plots.loss_day_plot(loss, solo))}
    cards = db.solo_task_cards(con, experiment)
    if len(cards):
        cards = cards[cards["arm"].isin(solo_arms)]
        variants = [v for v in order if v in set(cards["variant"])]
        tables = []
        for pol, dp in sorted(cards.groupby("policy", sort=False),
                              key=lambda x: _place(policies, x[0])):
            rows_c = []
            for card, dc in dp.groupby("card", sort=True):
                dc = dc.set_index("variant")
                label = card_names[int(card)] if 0 <= int(card) < len(card_names) else int(card)
                src = (_card_source(comp.cards[int(card)])
                       if 0 <= int(card) < len(comp.cards) else "")
                rows_c.append({"card": label, "source": src, "cells": [
                    (f"{fmt.pct(dc.loc[v, 'win_rate'])} "
                     f"({fmt.ci(dc.loc[v, 'low'], dc.loc[v, 'high'])}; "
                     f"n = {fmt.num(dc.loc[v, 'n_games'])})") if v in dc.index else "–"
                    for v in variants]})
            tables.append({"policy": pol, "rows": rows_c})
        out["cards"] = {"variants": [v + _tag(v, solo) for v in variants], "tables": tables,
                        "chart": render.figure_to_data_uri(
                            plots.task_card_plot(cards, card_names, solo))}
        out["assumed"] = _assumed_components(cards, checks, order, solo, comp, _alternative_blocks(
            con, experiment, alts, ladder, checks, order, solo) if alts else [], policies)
    return out


def _assumed_components(cards: pd.DataFrame, checks: list[dict], order: list[str],
                        solo: SoloDifficulty, comp: ComponentNotes,
                        alternatives: list[dict], policies: list[str] = ()) -> dict:
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
            "low": f"{name(lo.card)}: {fmt.pct(lo.win_rate)} ({fmt.ci(lo.low, lo.high)})",
            "high": f"{name(hi.card)}: {fmt.pct(hi.win_rate)} ({fmt.ci(hi.low, hi.high)})",
            "doc": "; ".join(f"{name(r.card)}: {fmt.pct(r.win_rate)} ({fmt.ci(r.low, r.high)})"
                             for r in doc.itertuples()) or "–",
            "differ": ("yes: the intervals do not overlap" if hi.low > lo.high
                       else "not clearly (the intervals overlap)"),
        })
    spread.sort(key=lambda r: (_place(list(policies), r["policy"]), r["_o"]))
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
                     f"({fmt.num(d.loc[rungs, 'n_games'].min())}–"
                     f"{fmt.num(d.loc[rungs, 'n_games'].max())} "
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
