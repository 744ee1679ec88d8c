"""The answer of a compensation study (``playtest compensate``) in words and tables, for the
terminal and the report: the verdict first ("Give seat 1 +2 points (95% CI ...): then every
seat wins 50% ± 0.6 under greedy and expert."), then the figures per policy side by side.

Everything here reads the ``compensation`` dictionary that the study writes to its manifest
(and that ``playtest compensate --format json`` prints): ``results`` per policy with the keys
``bonus``, ``interval``, ``residual`` and ``resimulated`` of :mod:`analysis.compensate`.
"""
from __future__ import annotations

import math
from typing import Any

from sim.spec import SpecError

from . import summary

__all__ = ["verdict_lines", "policy_table", "search_points", "compensate_context"]


def _pct(x, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%" if _finite(x) else "n/a"


def _pts(x, digits: int = 1) -> str:
    """A difference of two rates in percentage points, signed."""
    return f"{100 * x:+.{digits}f}" if _finite(x) else "n/a"


def _fair(x) -> str:
    """The fair share as a percentage: ``50%``, ``33.3%``."""
    return _pct(x, 0 if _finite(x) and (100 * x).is_integer() else 1)


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _num(x, digits: int = 2) -> str:
    if not _finite(x):
        return "n/a"
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e12 else f"{x:.{digits}f}"


def _signed(x) -> str:
    """A bonus on the point grid (whole or half points): ``0``, ``+2``, ``-1``, ``+2.5``."""
    if not _finite(x):
        return "n/a"
    return "0" if x == 0 else f"{x:+g}"


def _cont(x) -> str:
    """A continuous bonus (the solution, its interval): ``+2.46``."""
    return f"{x:+.2f}" if _finite(x) else "n/a"


def _points_word(x) -> str:
    return "point" if abs(float(x)) == 1 else "points"


def _join(items: list[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _seats(seats) -> str:
    seats = list(seats)
    return ("seat " if len(seats) == 1 else "seats ") + _join([str(s) for s in seats])


# ---- after the fix: the seat win rates --------------------------------------------------------

def _then(rates: dict | None) -> tuple[str, Any]:
    """What the seats win after the fix: ``("fair", half-width)`` when every seat's 95%
    interval holds the fair share, else ``("text", sentence)``."""
    if not rates or not rates.get("win_rate"):
        return "none", None
    fair = rates["fair"]
    lo, hi, r = rates["low"], rates["high"], rates["win_rate"]
    off = [s for s in range(len(r)) if not lo[s] <= fair <= hi[s]]
    if not off:
        return "fair", max((high - low) / 2 for low, high in zip(lo, hi))
    parts = [f"seat {s} wins {_pct(r[s])} (95% CI {_pct(lo[s])} to {_pct(hi[s])})" for s in off]
    text = _join(parts) + f" against a fair share of {_fair(fair)}"
    changed = rates.get("played_differently")
    if rates.get("reacted"):
        text += (f": the bots react to the bonus ({_pct(changed)} of the games went "
                 f"differently)")
    elif _finite(changed) and changed == 0:
        text += (": every game went as before plus the bonus, so whole points cannot do better "
                 "on these games")
    return "text", text


def _then_text(items: list[tuple[str, tuple[str, Any]]], fair: float, how: str) -> str:
    """``then ...`` over the policies: the fair ones merged, the others one by one."""
    fair_pols = [p for p, (k, _) in items if k == "fair"]
    parts = []
    if fair_pols:
        hw = max(v for p, (k, v) in items if k == "fair")
        parts.append(f"every seat wins {_fair(fair)} ± "
                     f"{100 * hw:.1f} points under {_join(fair_pols)}")
    for p, (k, v) in items:
        if k == "text":
            parts.append(f"under {p} {v}")
    return ("then " + "; ".join(parts) + f" ({how})") if parts else ""


# ---- the verdict ---------------------------------------------------------------------------

def verdict_lines(result: dict, notes: bool = True) -> list[str]:
    """The answer in plain sentences, verdict first, then (``notes``) the notes."""
    if result.get("mode") == "parameter":
        lines = _parameter_verdict(result)
    else:
        lines = _points_verdict(result)
    return lines + (list(result.get("notes") or []) if notes else [])


def _points_verdict(result: dict) -> list[str]:
    res = result.get("results") or {}
    n = int(result.get("n_players") or 0)
    fair = 1.0 / n if n else math.nan
    lines = []
    groups: dict[tuple, list[str]] = {}
    for pol in result.get("policies") or list(res):
        r = res.get(pol) or {}
        if r.get("bonus") is None:
            lines.append(f"Under {pol}: {r.get('note') or 'no bonus could be computed'}.")
            continue
        groups.setdefault(tuple(r["whole"]), []).append(pol)
    for whole, pols in groups.items():
        give = []
        for s in range(1, len(whole)):
            if whole[s] == 0:
                continue
            cis = [res[p]["interval"][s] for p in pols]
            ci = "; ".join(f"{_cont(lo)} to {_cont(hi)}" + (f" under {p}" if len(pols) > 1
                                                               else "")
                           for p, (lo, hi) in zip(pols, cis))
            give.append(f"seat {s} {_signed(whole[s])} {_points_word(whole[s])} (95% CI {ci})")
        resim = [(p, _then(res[p].get("resimulated"))) for p in pols]
        if all(k != "none" for _, (k, _) in resim):
            then = _then_text(resim, fair, "re-simulated with the bonus in the rules, 95% "
                                           "intervals")
        else:
            gaps = [(p, res[p]["residual"]) for p in pols]
            then = ("then, on the stored games, every seat wins within " + " and within ".join(
                f"{100 * g['estimate']:.1f} points" + (f" of {_fair(fair)}" if i == 0 else "")
                + f" (95% CI {100 * g['low']:.1f} to {100 * g['high']:.1f}) under {p}"
                for i, (p, g) in enumerate(gaps)) + " (offline; not re-simulated)")
        if give:
            head = "Give " + _join(give)
        else:
            head = (f"No whole-point bonus makes the seats more even under {_join(pols)} "
                    f"(continuous solution: "
                    + ", ".join(f"seat {s} {_cont(res[pols[0]]['bonus'][s])}"
                                for s in range(1, len(whole))) + ")")
        lines.append(f"{head}: {then}." if then else f"{head}.")
    return lines


def _value_text(result: dict, r: dict) -> str:
    v = r["bonus"]
    name = result["param"]
    if result.get("per_seat"):
        return f"{name} = {_num(v)} for {_seats(r.get('seats') or [])}"
    return f"{name} = {_num(v)}"


def _parameter_verdict(result: dict) -> list[str]:
    res = result.get("results") or {}
    n = int(result.get("n_players") or 0)
    fair = 1.0 / n if n else math.nan
    lo, hi = (result.get("range") or [math.nan, math.nan])[:2]
    lines = []
    groups: dict[tuple, list[str]] = {}
    for pol in result.get("policies") or list(res):
        r = res[pol]
        if not r.get("bracketed"):
            lines.append(f"Under {pol}, no value of {result['param']} from {_num(lo)} to "
                         f"{_num(hi)} equalises the seats: {r.get('note')}.")
            continue
        groups.setdefault((r["bonus"], tuple(r.get("seats") or ())), []).append(pol)
    for _, pols in groups.items():
        r0 = res[pols[0]]
        roots = "; ".join(
            f"root {_num(res[p]['root'])}, 95% CI {_num(res[p]['interval'][0])} to "
            f"{_num(res[p]['interval'][1])}" + (f" under {p}" if len(pols) > 1 else "")
            for p in pols)
        then = _then_text([(p, _then(res[p].get("resimulated"))) for p in pols], fair,
                          "measured at that value, 95% intervals")
        keep = all(res[p].get("base_value") == res[p]["bonus"] for p in pols)
        line = (f"{'Keep' if keep else 'Set'} {_value_text(result, r0)} "
                f"({'as it is; ' if keep else ''}{roots})" + (f": {then}." if then else "."))
        if len(pols) == 1 and "under" not in then:
            line = line[:-1] + f" under {pols[0]}."
        unsure = [p for p in pols if not res[p].get("converged")]
        if unsure:
            line += " Not settled under " + _join(unsure) + ": " + "; ".join(
                res[p]["note"] for p in unsure) + "."
        lines.append(line)
    return lines


# ---- tables ----------------------------------------------------------------------------------

def policy_table(result: dict) -> tuple[list[str], list[list[str]]]:
    """The figures of every policy side by side: ``(columns, rows)``, the first column naming
    the figure and one column per policy."""
    pols = list(result.get("policies") or (result.get("results") or {}))
    res = result.get("results") or {}
    n = int(result.get("n_players") or 0)
    rows: list[list[str]] = []

    def row(label, fn):
        cells = []
        for p in pols:
            try:
                cells.append(fn(res[p]))
            except (KeyError, TypeError, IndexError):
                cells.append("")
        if any(cells):
            rows.append([label] + cells)

    def rates(d, s):
        return f"{_pct(d['win_rate'][s])} ({_pct(d['low'][s])}–{_pct(d['high'][s])})"

    if result.get("mode") == "parameter":
        name = result.get("param")
        row("compensated seats", lambda r: ", ".join(map(str, r["seats"])))
        for s in range(n):
            row(f"seat {s} win rate as it is (95% CI)", lambda r, s=s: rates(r["base_rates"], s))
        row(f"best {name}", lambda r: _num(r["bonus"]))
        row("root (95% CI)", lambda r: f"{_num(r['root'])} ({_num(r['interval'][0])} to "
                                        f"{_num(r['interval'][1])})")
        row("compensated seats' gap left, points (95% CI)",
            lambda r: f"{_pts(r['residual']['estimate'])} ({_pts(r['residual']['low'])} to "
                      f"{_pts(r['residual']['high'])})")
        for s in range(n):
            row(f"seat {s} win rate at best (95% CI)",
                lambda r, s=s: rates(r["resimulated"], s))
        row("values measured", lambda r: str(len(r["points"])))
        row("settled (root's interval < step)", lambda r: "yes" if r["converged"] else "no")
        return [""] + pols, rows
    row("games", lambda r: f"{r['games']:,}")
    for s in range(1, n):
        row(f"seat {s} bonus, points (95% CI)",
            lambda r, s=s: f"{_cont(r['bonus'][s])} ({_cont(r['interval'][s][0])} to "
                           f"{_cont(r['interval'][s][1])})")
    for what, key, gap in (("whole", "whole", "residual"), ("half", "half", "half_residual")):
        row(f"best {what} points", lambda r, key=key: " / ".join(_signed(x) for x in r[key]))
        row(f"largest gap left at {what} points (95% CI)",
            lambda r, gap=gap: f"{100 * r[gap]['estimate']:.1f} pts ({100 * r[gap]['low']:.1f}"
                               f" to {100 * r[gap]['high']:.1f})")
    for s in range(n):
        row(f"seat {s} win rate, no bonus (stored)",
            lambda r, s=s: f"{_pct(r['stored'][s])} (offline tie rule "
                           f"{_pct(r['before']['win_rate'][s])})")
    row("re-simulated with", lambda r: f"{r['resimulated']['param']} = ["
                                       + ", ".join(_num(x) for x in r["resimulated"]["value"])
                                       + "]")
    for s in range(n):
        row(f"seat {s} win rate with it (95% CI)", lambda r, s=s: rates(r["resimulated"], s))
    row("games played differently", lambda r: _pct(r["resimulated"]["played_differently"]))
    return [""] + pols, rows


def search_points(result: dict) -> list[dict]:
    """Every value a parameter search measured, per policy: the compensated seats' win rate
    minus 1/N with its 95% interval (``[]`` for a points bonus)."""
    if result.get("mode") != "parameter":
        return []
    out = []
    for pol in result.get("policies") or []:
        r = (result.get("results") or {}).get(pol) or {}
        arms = {a["value"]: a["arm"] for a in r.get("arms") or []}
        for p in r.get("points") or []:
            est, se = p["estimate"], p["se"]
            out.append({"policy": pol, "value": _num(p["value"]), "arm": arms.get(p["value"], ""),
                        "gap": _pts(est), "ci": f"{_pts(est - 1.96 * se)} to "
                                                f"{_pts(est + 1.96 * se)}",
                        "best": "best" if p["value"] == r.get("bonus") else ""})
    return out


# ---- the report ------------------------------------------------------------------------------

def compensate_context(con, store, experiment: str) -> dict:
    """Context of the compensation report: the verdict, the figures per policy, the values a
    search measured, then what every report states."""
    ctx = summary.summary_context(con, store, experiment)
    manifest = ctx.pop("_manifest")
    result = manifest.get("compensation")
    if not isinstance(result, dict):
        raise SpecError(f"experiment '{experiment}' has no compensation answer yet: run its "
                        f"`playtest compensate` command to the end")
    cols, rows = policy_table(result)
    src = manifest.get("spec") or {}
    question = (f"the value of {result['param']} from {_num(result['range'][0])} to "
                f"{_num(result['range'][1])} that equalises the seats"
                if result.get("mode") == "parameter" else "the points bonus per seat")
    ctx.update({
        "kind": "compensate", "verdict": verdict_lines(result, notes=False),
        "notes": list(result.get("notes") or []), "columns": cols, "rows": rows,
        "points": search_points(result), "question": question,
        "n_players": result.get("n_players"), "policies": result.get("policies") or [],
        "parameter": result.get("mode") == "parameter", "per_seat": result.get("per_seat"),
        "param": result.get("param"), "resim_param": result.get("resim_param"),
        "n_boot": src.get("n_boot"), "precision": None})
    return ctx
