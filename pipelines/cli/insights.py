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
# The columns of games/seats the insights read (all of them: a million-game arm stays small).
_GAMES_COLS = ("experiment, arm, game, n_players, master_seed, game_index, rounds, truncated, "
               "n_winners, winner_seat, end_reason")
_SEATS_COLS = ("experiment, arm, game, n_players, master_seed, game_index, seat, policy, "
               "score, win_share")


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


class _Quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def experiment_insights(root, experiment: str, arms: list[str], entries: dict,
                        stall_rounds: int = 10, max_examples: int = 3, status=None
                        ) -> tuple[dict[str, dict], dict[str, int]]:
    """``{arm: analysis.insights.insights(...)}`` of the arms of a stored experiment (read
    through the checked DuckDB views, one arm at a time), and the traced games per arm.
    ``status(text)``: a context manager shown while an arm is computed (its bootstrap over
    every game takes about half a minute per 100,000 games)."""
    from analysis import db
    from analysis.insights import insights

    con = db.connect(root, experiments=[experiment])
    result, traced = {}, {}
    try:
        for name in arms:
            params = [experiment, name]
            where = "WHERE experiment = ? AND arm = ?"
            order = "ORDER BY master_seed, game_index"
            games = db.query(con, f"SELECT {_GAMES_COLS} FROM games {where} {order}", params)
            if games.empty:
                continue
            seats = db.query(con, f"SELECT {_SEATS_COLS} FROM seats {where} {order}, seat",
                             params)
            rounds = db.query(con, f"SELECT * FROM rounds {where} {order}, round, seat", params)
            actions = db.query(con, f"SELECT * FROM actions {where} {order}, seat", params)
            traced[name] = int(rounds[["master_seed", "game_index"]].drop_duplicates().shape[0]
                               if len(rounds) else 0)
            with (status or (lambda _: _Quiet()))(
                    f"arm {name}: insights over {len(games):,} games "
                    f"({traced[name]:,} traced)"):
                result[name] = insights(games, seats, rounds, actions,
                                        stall_rounds=stall_rounds, max_examples=max_examples,
                                        replay_options=replay_options(entries.get(name, {})))
    finally:
        con.close()
    return result, traced


def replay_options(entry: dict) -> str:
    """The rule and policy options of a manifest arm for ``playtest replay`` (after the game,
    ``--players`` and ``--seed``)."""
    parts = []
    if entry.get("variant"):
        parts.append(f"--variant {entry['variant']}")
    for k, v in (entry.get("tweaks") or {}).items():
        parts.append(f"--set {k}={fmt(v)}")
    pols = [p.get("spec") or p.get("policy") for p in entry.get("policies") or []
            if isinstance(p, dict)]
    if pols and len(set(pols)) == 1:
        if pols[0] != settings.DEFAULT_POLICY:
            parts.append(f"--policy {pols[0]}")
    else:
        parts += [f"--seat-policy {i}={p}" for i, p in enumerate(pols)]
    comp = entry.get("components") or {}
    if comp.get("dir") and not str(comp["dir"]).startswith("<") and _custom_components(entry):
        parts.append(f"--components {comp['dir']}")
    return " ".join(parts)


def _custom_components(entry: dict) -> bool:
    """Whether an arm was played with other component data than its game's bundled data."""
    from .common import registry

    try:
        spec = registry().make(entry["game"])
        return spec.load_components(None).digest != (entry.get("components") or {}).get("digest")
    except Exception:  # a game no longer registered: name the directory anyway
        return True


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
    return f"{f['games']} of {f['n_games']} games ({_num(f['per_10000'], 1)} per 10,000)"


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
        ("truncated", _pct(c["truncated"], 2)),
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


def _labels(ins: dict) -> dict[str, str]:
    """The verdict's readings of an arm as labels (``analysis.insights.verdict`` thresholds)."""
    from analysis.insights.verdict import CLOSE, EARLY, SWINGY

    out_ = {}
    lc = ins["lead_change_rate"]["mean"]["estimate"]
    dec = ins["decisiveness"]["mean"]["estimate"]
    if lc is not None:
        out_["lead"] = "swingy" if lc >= SWINGY else "stable"
    if dec is not None:
        out_["decided"] = ("close" if dec >= CLOSE else "decided early" if dec < EARLY
                           else "settled mid-game")
    return out_


def _groups(result: dict, entries: dict) -> list[list[str]]:
    """Arms that differ only in their policies, together (in manifest order)."""
    groups: dict[str, list[str]] = {}
    for name in result:
        e = entries.get(name, {})
        key = json.dumps([e.get("game"), e.get("n_players"), e.get("variant"),
                          e.get("rule_values"), (e.get("components") or {}).get("digest")],
                         sort_keys=True, default=str)
        groups.setdefault(key, []).append(name)
    return list(groups.values())


def _policy_label(entry: dict) -> str:
    pols = [p.get("spec") or p.get("policy") for p in entry.get("policies") or []
            if isinstance(p, dict)]
    return ", ".join(dict.fromkeys(map(str, pols))) or "?"


def print_insights(experiment: str, result: dict, entries: dict, traced: dict, store,
                   stall_rounds: int) -> None:
    """The terminal form of :func:`experiment_insights`."""
    where = f" --store {store}" if store else ""
    if not result:
        err.print(f"note: experiment '{experiment}' has no finished games yet", markup=False)
        return
    for group in _groups(result, entries):
        e0 = entries.get(group[0], {})
        tweaks = ", ".join(f"{k}={fmt(v)}" for k, v in (e0.get("tweaks") or {}).items())
        head = (f"{e0.get('game')} {e0.get('n_players')} players, variant {e0.get('variant')}"
                + (f", {tweaks}" if tweaks else ""))
        out.print(Text(head, style="bold"), soft_wrap=True)
        for name in group:
            out.print(Text.assemble("  ", (name, "bold"),
                                    f" ({_policy_label(entries.get(name, {}))}): "
                                    f"{result[name]['verdict']}"), soft_wrap=True)
        t = Table(title=f"How it plays ({experiment})")
        t.add_column("", overflow="fold")
        for name in group:
            t.add_column(f"{name}\n{_policy_label(entries.get(name, {}))}", overflow="fold")
        rows = {name: dict(_rows(result[name])) for name in group}
        for label in rows[group[0]]:
            t.add_row(label, *(rows[name].get(label, "—") for name in group))
        out.print(t)
        if len(group) > 1:
            out.print(_survive(group, result, entries), soft_wrap=True, markup=False)
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


def _survive(group: list[str], result: dict, entries: dict) -> str:
    """Which verdict readings hold under every policy of a group."""
    labels = {name: _labels(result[name]) for name in group}
    parts = []
    for key, what in (("decided", "when it is decided"), ("lead", "lead changes")):
        vals = {name: lab.get(key) for name, lab in labels.items()}
        if any(v is None for v in vals.values()):
            parts.append(f"{what}: not traced under every policy")
        elif len(set(vals.values())) == 1:
            parts.append(f"{what}: '{next(iter(vals.values()))}' holds under every policy")
        else:
            parts.append(f"{what}: differs (" + "; ".join(
                f"{_policy_label(entries.get(n, {}))}: {v}" for n, v in vals.items()) + ")")
    return "which readings survive stronger play: " + "; ".join(parts)


def _print_flags(group: list[str], result: dict) -> None:
    for name in group:
        for key, f in result[name]["flags"].items():
            for ex in f.get("examples", []):
                out.print(f"  {name} {key}: game {ex['game_index']}: {ex['command']}",
                          soft_wrap=True, markup=False)
