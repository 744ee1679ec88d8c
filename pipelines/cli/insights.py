"""``playtest insights EXPERIMENT``: why a game plays as it does (:mod:`analysis.insights`),
per arm, in the terminal or as JSON.

Each arm's plain verdict comes first, then one table per arm group: the arms that differ only
in their policies (same game, player count, variant and rule values) stand side by side, with
a line saying which readings hold under every policy ("which readings survive stronger
play"). The trace sections (lead changes, drama, decisiveness, comebacks, actions, stalls)
need round traces (``playtest run ... --trace N``); without them the outcome, duration and
closeness sections are still shown, from ``games``/``seats``, with how to add traces.
"""
from __future__ import annotations

import json
from typing import Annotated, List, Optional

import typer
from rich.table import Table
from rich.text import Text

from .. import settings
from . import options as opts
from .common import did_you_mean, err, fmt, guarded, out

FORMATS = ("table", "json")

@guarded
def insights_cmd(
    experiment: Annotated[str, typer.Argument(help="Experiment name (see `playtest list`).")],
    store: opts.Store = None,
    format_: Annotated[str, typer.Option("--format", "-f", help="table | json")] = "table",
    arm: Annotated[Optional[List[str]], typer.Option(
        "--arm", help="Only this arm (repeatable; default: every arm).")] = None,
    stall_rounds: Annotated[int, typer.Option(
        "--stall-rounds", help="Static rounds in a row that flag a stall.")] = 10,
    examples: Annotated[int, typer.Option(
        "--examples", help="Example games (replay commands) per flag.")] = 3,
):
    """How the game plays, per arm: completion, duration, closeness, lead changes, drama,
    decisiveness, comebacks, actions and rule-hole flags (needs `run --trace N` for the
    round-trace parts)."""
    from sim.spec import SpecError

    from ..store import Store

    if format_ not in FORMATS:
        raise SpecError(f"--format: unknown format '{format_}'; valid: {', '.join(FORMATS)}")
    if stall_rounds < 1:
        raise SpecError(f"--stall-rounds: must be >= 1, got {stall_rounds}")
    if examples < 0:
        raise SpecError(f"--examples: must be >= 0, got {examples}")
    root = settings.store_root(store)
    st = Store(root)
    known = st.experiments()
    if experiment not in known:
        raise SpecError(f"unknown experiment '{experiment}' in store {root}; "
                        + (did_you_mean(experiment, known) if known
                           else "valid: (none yet: run `playtest run` first)"))
    manifest = st.read_manifest(experiment) or {}
    entries = {a["name"]: a for a in manifest.get("arms", [])}
    names = list(entries)
    for a in arm or ():
        if a not in entries:
            raise SpecError(f"--arm: experiment '{experiment}' has no arm '{a}'; "
                            + did_you_mean(a, names))
    if arm:
        names = [a for a in names if a in set(arm)]
    result, traced = experiment_insights(root, experiment, names, entries, stall_rounds,
                                         examples, err.status)
    if format_ == "json":
        typer.echo(json.dumps(result, indent=2, allow_nan=False))
        return
    print_insights(experiment, result, entries, traced, store, stall_rounds)


def experiment_insights(root, experiment: str, arms: list[str], entries: dict,
                        stall_rounds: int = 10, max_examples: int = 3, status=None
                        ) -> tuple[dict[str, dict], dict[str, int]]:
    """``{arm: analysis.insights.insights(...)}`` of the arms of a stored experiment and the
    traced games per arm (:func:`analysis.insights.arms.experiment_insights`, through the
    checked DuckDB views). ``status(text)``: a context manager shown while an arm is
    computed."""
    from analysis import db
    from analysis.insights.arms import experiment_insights as arm_insights

    con = db.connect(root, experiments=[experiment])
    try:
        return arm_insights(con, experiment, arms, entries, stall_rounds, max_examples,
                            status, default_policy=settings.DEFAULT_POLICY)
    finally:
        con.close()


# ---- the terminal tables ------------------------------------------------------------------

def _pct(e: dict | None, digits: int = 1) -> str:
    if not e or e.get("estimate") is None:
        return "—"
    f = f"{{:.{digits}f}}"

    def p(x):
        return "?" if x is None else f.format(100 * x)
    return f"{p(e['estimate'])}% ({p(e.get('low'))}–{p(e.get('high'))})"


def _num(e: dict | None, digits: int = 2) -> str:
    if not e or e.get("estimate") is None:
        return "—"
    f = f"{{:.{digits}f}}"

    def n(x):
        return "?" if x is None else f.format(x)
    return f"{n(e['estimate'])} ({n(e.get('low'))}–{n(e.get('high'))})"


def _value(e: dict | None) -> str:
    return "—" if not e or e.get("estimate") is None else fmt(e["estimate"])


def _kinds(rows: list[dict], limit: int = 3) -> str:
    if not rows:
        return "none"
    text = ", ".join(f"{r['point']}/{r['kind'] or '-'}" for r in rows[:limit])
    return text + (f" (+{len(rows) - limit} more)" if len(rows) > limit else "")


def _forced_share(ins: dict) -> str:
    best = ins["actions"].get("strongest_policy")
    rows = [r for r in ins["actions"].get("points", []) if r.get("point") == "(all)"]
    row = next((r for r in rows if r.get("policy") == best), rows[0] if rows else None)
    if row is None:
        return "—"
    return _pct({"estimate": row.get("forced_share"), "low": row.get("forced_share_low"),
                 "high": row.get("forced_share_high")})


def _flag(f: dict) -> str:
    if not f.get("recorded", True):
        return "not recorded"
    return f"{f['games']:,} of {f['n_games']:,} games ({_num(f['per_10000'], 1)} per 10,000)"


def _rows(ins: dict) -> list[tuple[str, str]]:
    c, d, cl = ins["completion"], ins["duration"], ins["closeness"]
    lc, dr, de, cb = (ins["lead_change_rate"], ins["drama"], ins["decisiveness"],
                      ins["comeback"])
    a, fl = ins["actions"], ins["flags"]
    rows = [
        ("games", f"{c['n_games']:,}"),
        ("completed", _pct(c["completed"])),
        ("with a winner", _pct(c["with_winner"])),
        ("natural ties", _pct(c["natural_ties"])),
        ("truncated", _pct(c["truncated"])),
        ("duration: mean rounds", _num(d.get("mean"), 1)),
        ("duration: median (p95)", f"{_value(d.get('p50'))} ({_value(d.get('p95'))})"),
    ]
    if cl.get("n_games"):
        rows += [("closeness: mean margin", _num(cl["margin"].get("mean"), 2)),
                 ("closeness: top-two tie rate", _pct(cl["tie_rate"])),
                 ("closeness: 1/rms margin", _num(cl["closeness"], 3))]
    rows += [
        ("traced games", f"{lc['n_games']:,}" if lc["n_games"] else "none"),
        ("lead change rate", _pct(lc["mean"])),
        ("drama: winner behind after", _pct(dr["behind_share"])),
        ("drama: mean deficit", _num(dr["deficit"], 2)),
        ("decisiveness (decided at)", _pct(de["mean"])),
        ("comeback: P(win | trailing)", _pct(cb.get("p_win_trailing"))),
        ("actions: strongest policy", a.get("strongest_policy") or "—"),
        ("actions: never picked", _kinds(a["never_picked"]) if a["n_games"] else "—"),
        ("actions: always picked", _kinds(a["always_picked"]) if a["n_games"] else "—"),
        ("actions: forced share*", _forced_share(ins) if a["n_games"] else "—"),
        ("flag: truncated", _flag(fl["truncated"])),
        ("flag: stall", _flag(fl["stall"])),
        ("flag: no legal option*", _flag(fl["no_legal_option"])),
    ]
    return rows


def print_insights(experiment: str, result: dict, entries: dict, traced: dict, store,
                   stall_rounds: int) -> None:
    """The terminal form of :func:`experiment_insights`."""
    from analysis.insights.arms import arm_groups, policy_label, survive

    where = f" --store {store}" if store else ""
    if not result:
        err.print(f"note: experiment '{experiment}' has no finished games yet", markup=False)
        return
    for group in arm_groups(result, entries):
        e0 = entries.get(group[0], {})
        tweaks = ", ".join(f"{k}={fmt(v)}" for k, v in (e0.get("tweaks") or {}).items())
        head = (f"{e0.get('game')} {e0.get('n_players')} players, variant {e0.get('variant')}"
                + (f", {tweaks}" if tweaks else ""))
        out.print(Text(head, style="bold"), soft_wrap=True)
        for name in group:
            out.print(Text.assemble("  ", (name, "bold"),
                                    f" ({policy_label(entries.get(name, {}))}): "
                                    f"{result[name]['verdict']}"), soft_wrap=True)
        t = Table(title=f"How it plays ({experiment})")
        t.add_column("", overflow="fold")
        for name in group:
            t.add_column(f"{name}\n{policy_label(entries.get(name, {}))}", overflow="fold")
        rows = {name: dict(_rows(result[name])) for name in group}
        for label in rows[group[0]]:
            t.add_row(label, *(rows[name].get(label, "—") for name in group))
        out.print(t)
        if len(group) > 1:
            out.print(survive(group, result, entries), soft_wrap=True, markup=False)
        _print_flags(group, result)
    if not any(traced.values()):
        out.print(f"no round traces in experiment {experiment}: the lead, drama, comeback "
                  f"and action readings need them. Run the command that made the experiment "
                  f"again with --trace N (e.g. --trace {settings.DEFAULT_TRACE}; a game must "
                  f"declare a trace): its games are kept, only the traces are added. Then "
                  f"`playtest insights {experiment}{where}`.", soft_wrap=True, markup=False)
    if any(traced.values()):
        out.print("* every decision counts: forced ones (one legal option) and decision "
                  "points reached with no legal option, which these games' rules pass over "
                  "(which points, per game: docs/metrics_play.md)", soft_wrap=True,
                  markup=False, style="dim")
    out.print("actions are associations, not causes; every interval is 95% "
              "(docs/metrics_play.md)", soft_wrap=True, markup=False, style="dim")


def _print_flags(group: list[str], result: dict) -> None:
    for name in group:
        for key, f in result[name]["flags"].items():
            for ex in f.get("examples", []):
                out.print(f"  {name} {key}: game {ex['game_index']}: {ex['command']}",
                          soft_wrap=True, markup=False)
