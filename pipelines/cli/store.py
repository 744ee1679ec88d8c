"""The commands that read the store: ``playtest sql``, ``report``, ``list``, ``show``; and
``playtest demo``, which fills one and reports on it."""
import importlib
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from analysis.words import count

from .. import settings
from . import handles
from . import options as opts
from .common import (CLIError, check_report_dir, err, fmt, guarded, out, print_items,
                     reading_store)
from .running import RunSettings
from .tables import result_items, win_rate_tables

# ---- sql ---------------------------------------------------------------------------------------

#: Long JSON cells (manifests, arms) are cut to this many characters by ``--format table``.
JSON_CELL = 30

_SQL_HELP = """Query the store with DuckDB, read-only: one SELECT.

\b
Views:
  games, seats      one row per game / per game x seat (see README: The store)
  experiments       one row per manifest: name, master_seed, status, arms...
  stg_games, stg_seats, stg_arms    typed staging; stg_arms: one row per arm
  seat_win_rates    win rate by experiment, arm, player count and seat
  score_summary, score_histogram    scores by arm and seat
  game_length, rounds_histogram     game length by arm
  end_reasons       how games ended, by arm
  solo_games, solo_ladder, solo_loss_day, solo_task_cards    solo marts

\b
--format table rounds floats and cuts long JSON cells for reading;
csv and parquet keep every value whole.
Example: playtest sql "SELECT * FROM seat_win_rates LIMIT 5"
"""


def _float_text(v: float) -> str:
    """A float for reading: four significant digits, at least one decimal (``0.3571``,
    ``45.23``, ``1234.5``); whole numbers without decimals."""
    import math

    if not math.isfinite(v):
        return str(v)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    a = abs(v)
    if a < 1e-4:
        return f"{v:.3e}"
    return f"{v:.{min(6, max(1, 3 - math.floor(math.log10(a))))}f}"


def _cell(v, json_like: bool = False) -> str:
    """A value of ``sql --format table``: floats rounded, JSON and nested values compact and
    cut to :data:`JSON_CELL` characters."""
    import decimal
    import json
    import re

    if v is None:
        return ""
    if json_like or isinstance(v, (dict, list, tuple)):
        text = v if isinstance(v, str) else json.dumps(v, default=str, separators=(", ", ": "))
        text = re.sub(r"\s+", " ", text)
        return text if len(text) <= JSON_CELL else text[:JSON_CELL - 1] + "…"
    if isinstance(v, decimal.Decimal):
        v = float(v)
    if isinstance(v, float):
        return _float_text(v)
    return fmt(v)


def _sql_error(root: Path, e: Exception) -> Exception:
    """A DuckDB failure as one line: the damaged part it met (experiment, arm, chunk:
    :func:`analysis.db.read_error`), else ``SQL: <DuckDB's message> (LINE n: <the query
    there>)`` without the caret line."""
    from analysis import db
    from sim.spec import SpecError

    named = db.read_error(root, e)
    if named is not None:
        return named
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip() and set(ln.strip()) != {"^"}]
    where = [ln for ln in lines if ln.startswith("LINE ")]
    text = " ".join(ln for ln in lines if not ln.startswith("LINE "))
    return SpecError(f"SQL: {text}" + (f" ({where[0]})" if where else ""))


@guarded
def sql_cmd(
    query: Annotated[str, typer.Argument(
        help="SQL over the views games, seats, experiments and the marts listed above.")],
    store: opts.Store = None,
    format: Annotated[str, typer.Option("--format", "-f", help="table | csv | parquet")
                      ] = "table",
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Output file (needed for parquet); never an existing one "
                            "without --force.")] = None,
    force: opts.Force = False,
    max_rows: Annotated[int, typer.Option(
        "--max-rows", help="Rows shown by --format table.")] = 200,
):
    import warnings

    import duckdb

    from analysis import db
    from analysis.query import arrow_table, check_read_only_query, write_result
    from analysis.storage import StoreWarning
    from sim.spec import SpecError

    from ..store import check_out_file

    if format not in ("table", "csv", "parquet"):
        raise SpecError(f"--format: unknown format '{format}'; valid: table, csv, parquet")
    if format == "parquet" and out_file is None:
        raise SpecError("--format parquet needs --out FILE")
    if max_rows < 1:
        raise SpecError(f"--max-rows: give at least 1, got {max_rows}")
    root = reading_store(store)
    if out_file is not None:
        check_out_file(out_file, root, force)
    try:
        with warnings.catch_warnings():  # said below, as lines of their own
            warnings.simplefilter("ignore", StoreWarning)
            con = db.connect(root, read_only=True)
    except duckdb.Error as e:
        raise _sql_error(root, e) from None
    n_exp = len(list((Path(root) / "experiments").glob("*.json")))
    err.print(f"store: {root} ({count(n_exp, 'experiment')})"
              + ("" if n_exp else "; nothing to query yet: run `playtest run GAME` or give "
                 "--store DIR"), soft_wrap=True)
    for w in db.store_warnings(con):
        err.print(f"warning: {w}", soft_wrap=True)

    def write(result, kind):
        write_result(result, kind, out_file)
        err.print(f"wrote {out_file}", soft_wrap=True)

    try:
        check_read_only_query(con, query)
        rel = con.sql(query)
        if rel is None:
            return
        if format != "table" and (format == "parquet" or out_file is not None):
            write(rel.arrow(), format)
            return
        if format == "csv":
            import pyarrow.csv as pacsv

            pacsv.write_csv(arrow_table(rel.arrow()), sys.stdout.buffer)
            return
        cols = rel.columns
        json_cols = [str(t).upper() == "JSON" for t in rel.types]
        rows = rel.limit(max_rows + 1).fetchall()
        if out_file is not None:
            write(rel.arrow(), "csv")
    except duckdb.Error as e:
        raise _sql_error(root, e) from None
    t = Table()
    for c in cols:
        t.add_column(c, overflow="fold")
    cut = False
    for r in rows[:max_rows]:
        cells = [_cell(v, j) for v, j in zip(r, json_cols)]
        cut = cut or any(c.endswith("…") and isinstance(v, (str, dict, list, tuple))
                         for c, v in zip(cells, r))
        t.add_row(*cells)
    out.print(t)
    if cut:
        err.print(f"(long JSON cells cut to {JSON_CELL} characters: use --format csv or "
                  f"json_extract to see them whole)")
    if len(rows) > max_rows:
        err.print(f"(more rows; showing {max_rows}: use --max-rows, --format csv or LIMIT)")


sql_cmd.__doc__ = _SQL_HELP


# ---- report ------------------------------------------------------------------------------------

def _write_report(store_root: Path, experiment: str, out_dir: Path,
                  targets: dict | None = None) -> Path:
    reports = importlib.import_module("analysis.reports")
    return Path(reports.write_report(store_root, experiment, out_dir, targets=targets))


def parse_targets(items: list[str] | None, game: str | None) -> dict:
    """``--target VARIANT=P`` / ``VARIANT:POLICY=P`` (repeatable) -> the report's targets,
    ``{variant: p}`` or ``{variant: {policy: p}}``; a variant the game does not have, or a
    value outside 0..1, is bad input (SpecError: exit 2)."""
    from analysis.targets import check_targets
    from sim import registry
    from sim.spec import SpecError

    targets: dict = {}
    for item in items or ():
        key, eq, value = item.partition("=")
        variant, _, policy = key.strip().partition(":")
        if not eq or not variant:
            raise SpecError(f"--target: expected VARIANT=P or VARIANT:POLICY=P "
                            f"(e.g. solo_hell=0.05), got {item!r}")
        try:
            p = float(value)
        except ValueError:
            p = value
        if policy:
            prev = targets.get(variant)
            targets[variant] = {**(prev if isinstance(prev, dict) else {}), policy: p}
        else:
            targets[variant] = p
    try:
        return check_targets(targets, registry.make(game).variants if game else None)
    except ValueError as e:
        raise SpecError("--" + str(e).replace("targets.", "target ", 1)) from None


Handle = Annotated[str, typer.Argument(
    help="Experiment: its name, a unique prefix of it, its short id (see `playtest list`) "
         "or `latest`.")]


@guarded
def report_cmd(
    experiment: Handle,
    store: opts.Store = None,
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")
                       ] = opts.REPORTS_DIR,
    target: Annotated[Optional[list[str]], typer.Option(
        "--target", metavar="VARIANT[:POLICY]=P",
        help="Target solo win probability of a variant (repeatable; e.g. solo_hell=0.05, or "
             "solo_hell:expert=0.1 for one policy): the solo report grades each variant "
             "against it. Adds to the experiment's own [targets].")] = None,
):
    """Write a self-contained HTML report of one experiment."""
    from analysis import db

    from ..store import Store

    root = reading_store(store)
    check_report_dir(out_dir, store)
    name = handles.resolve(Store(root), experiment)
    targets = None
    if target:
        manifest = db.load_manifest(root, name)
        games = {a.get("game") for a in manifest.get("arms") or [] if isinstance(a, dict)}
        game = games.pop() if len(games) == 1 else None
        targets = parse_targets(target, game)
    path = _write_report(root, name, out_dir, targets)
    out.print(f"report: {path}", markup=False, soft_wrap=True)


# ---- list / show -------------------------------------------------------------------------------

def _arm_summary(arm: dict) -> dict:
    """One manifest arm in words: players, variant, tweaks and policies."""
    tweaks = arm.get("tweaks") or {}
    pols = [p.get("spec") or p.get("policy") if isinstance(p, dict) else p
            for p in arm.get("policies") or []]
    return {"players": str(arm.get("n_players", "?")), "variant": str(arm.get("variant") or ""),
            "tweaks": ", ".join(f"{k}={fmt(v)}" for k, v in tweaks.items())
            if isinstance(tweaks, dict) else str(tweaks),
            "policies": ", ".join(dict.fromkeys(map(str, pols)))}


def _games_text(e) -> str:
    """Games per arm: ``300``, or ``120 of 300`` while unfinished."""
    done, planned = e.games()
    if e.manifest is None:
        return "?"
    return f"{planned:,}" if e.status == "finished" or done >= planned else \
        f"{done:,} of {planned:,}"


#: ``list`` columns, in display order; the essential ones always show, the others (by
#: priority) while the table fits the terminal; none wraps: long cells end with "…".
_LIST_COLUMNS = ("id", "last run", "status", "game", "players", "variant", "tweaks",
                 "policies", "games/arm", "experiment")
_LIST_ESSENTIAL = ("id", "last run", "status", "games/arm", "experiment")
_LIST_OPTIONAL = ("game", "players", "policies", "tweaks", "variant")
_LIST_CELL = 30  # widest optional cell
_LIST_NAME_MIN = 16


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"


def _list_layout(rows: list[dict], width: int) -> dict[str, int]:
    """Column -> width for ``list``: the essential columns, then the optional ones that fit,
    the experiment name taking what is left (at least :data:`_LIST_NAME_MIN`)."""
    natural = {c: max([len(c)] + [len(r[c]) for r in rows]) for c in _LIST_COLUMNS}
    for c in _LIST_OPTIONAL:
        natural[c] = min(natural[c], _LIST_CELL)

    def total(cols, name_w):  # cells + one space each side + the borders between them
        return sum(name_w if c == "experiment" else natural[c] for c in cols) + 3 * len(cols) + 1

    chosen = list(_LIST_ESSENTIAL)
    name_min = min(natural["experiment"], _LIST_NAME_MIN)
    for c in _LIST_OPTIONAL:
        if total(chosen + [c], name_min) <= width:
            chosen.append(c)
    rest = width - total([c for c in chosen if c != "experiment"], 0) - 3
    widths = {c: natural[c] for c in chosen}
    widths["experiment"] = max(name_min, min(natural["experiment"], rest))
    return {c: widths[c] for c in _LIST_COLUMNS if c in widths}


@guarded
def list_cmd(store: opts.Store = None):
    """Experiments in the store, the latest last: short id, date of the last run, status
    (finished, running, partial, interrupted), game, players, variants, tweaks, policies,
    games per arm, name. Any command that takes an experiment accepts its short id, a unique
    prefix of its name, or `latest`."""
    from analysis.words import span

    from ..store import Store

    root = reading_store(store)
    st = Store(root)
    es = handles.entries(st)
    out.print(f"store: {root}", markup=False, soft_wrap=True)
    if not es:
        err.print("note: the store holds no experiments yet (run `playtest run GAME` first)")
        return
    rows = []
    for e in es:
        arms = [a for a in (e.manifest or {}).get("arms") or [] if isinstance(a, dict)]
        words = [_arm_summary(a) for a in arms]
        players = span(a["n_players"] for a in arms if isinstance(a.get("n_players"), int))
        rows.append({
            "id": e.id, "last run": e.date, "status": e.status,
            "game": ", ".join(dict.fromkeys(str(a.get("game")) for a in arms)) or "?",
            "players": players or "?",
            **{k: ", ".join(dict.fromkeys(w[k] for w in words if w[k])) or "-"
               for k in ("variant", "tweaks", "policies")},
            "games/arm": _games_text(e), "experiment": e.name})
    widths = _list_layout(rows, out.width)
    t = Table()
    for c, w in widths.items():
        t.add_column(c, width=w, no_wrap=True, overflow="ellipsis",
                     justify="right" if c == "games/arm" else "left")
    for r in rows:
        t.add_row(*(_cut(r[c], w) for c, w in widths.items()))
    out.print(t)
    for e in es:
        if e.problem:
            err.print(f"note: {e.problem}", markup=False, soft_wrap=True)


@guarded
def show_cmd(
    experiment: Handle,
    store: opts.Store = None,
):
    """One experiment: its arms in words, then its results (win rates, solo win
    probabilities, a comparison's differences, a sweep's points or a ladder, by the command
    that made it)."""
    from analysis.storage import StoreError

    from ..store import Store

    root = reading_store(store)
    st = Store(root)
    name = handles.resolve(st, experiment)
    e = handles.entry(st, name)
    if e.manifest is None:
        raise StoreError(e.problem or f"experiment '{name}' has no readable manifest")
    m = e.manifest
    done, planned = e.games()
    games = f"{planned:,} games per arm" if e.status == "finished" else \
        f"{done:,} of {planned:,} games per arm done"
    out.print(f"experiment {name}", markup=False, soft_wrap=True)
    out.print(f"id {e.id}, {e.status}, last run {e.date}, master seed "
              f"{m.get('master_seed', '?')}, {games}", markup=False, soft_wrap=True)
    if e.status == "interrupted":
        out.print("the run was stopped before the end: run the same command again to resume "
                  "it (the tables below hold the finished chunks)", markup=False, soft_wrap=True)
    t = Table()
    for c in ("arm", "game", "players", "variant", "tweaks", "policies"):
        t.add_column(c, overflow="fold")
    arms = [a for a in m.get("arms") or [] if isinstance(a, dict)]
    for a in arms:
        s = _arm_summary(a)
        t.add_row(str(a.get("name")), str(a.get("game")), s["players"], s["variant"],
                  s["tweaks"] or "-", s["policies"])
    out.print(t)
    print_items(result_items(root, name, m.get("spec"), [str(a.get("game")) for a in arms]))
    out.print(f"report: playtest report {e.id}" + (f" --store {store}" if store else ""),
              soft_wrap=True, markup=False)


# ---- demo --------------------------------------------------------------------------------------

@guarded
def demo_cmd(
    store: opts.Store = None,
    games: opts.DemoGames = settings.DEMO_GAMES,
    workers: opts.Workers = None,
    out_dir: opts.Out = opts.REPORTS_DIR,
    quiet: opts.Quiet = False,
):
    """The demo: Flower Shop, 2-4 players, greedy, seed 1; seat win rates and a report."""
    from .. import experiment as ex

    check_report_dir(out_dir, store)
    players = f"{min(settings.DEMO_PLAYERS)}-{max(settings.DEMO_PLAYERS)}"
    exp = ex.from_cli(settings.DEMO_GAME, players=players, policy=settings.DEMO_POLICY,
                      games=games, seed=settings.DEMO_SEED)
    res = RunSettings(store, workers, quiet=quiet).run(exp)
    for table in win_rate_tables(res.store, exp.name, settings.DEMO_GAME):
        out.print(table)
    try:
        path = _write_report(res.store, exp.name, out_dir)
        out.print(f"report: {path}")
    except CLIError as e:
        err.print(f"note: no report ({e})")
