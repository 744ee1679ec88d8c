"""The commands that read the store: ``playtest sql``, ``report``, ``list``, ``show``; and
``playtest demo``, which fills one and reports on it."""
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import settings
from . import options as opts
from .common import CLIError, did_you_mean, err, fmt, guarded, out, print_items, registry
from .running import RunSettings
from .tables import ladder_tables, win_rate_tables

# ---- sql ---------------------------------------------------------------------------------------


@guarded
def sql_cmd(
    query: Annotated[str, typer.Argument(
        help="SQL over the views games, seats, experiments.")],
    store: opts.Store = None,
    format: Annotated[str, typer.Option("--format", "-f", help="table | csv | parquet")
                      ] = "table",
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Output file (needed for parquet).")] = None,
    max_rows: Annotated[int, typer.Option(
        "--max-rows", help="Rows shown by --format table.")] = 200,
):
    """Query the store with DuckDB (views games, seats, experiments), read-only: one SELECT."""
    import duckdb

    from analysis import db
    from analysis.query import arrow_table, check_out_file, check_read_only_query, write_result
    from sim.spec import SpecError

    if format not in ("table", "csv", "parquet"):
        raise SpecError(f"--format: unknown format '{format}'; valid: table, csv, parquet")
    if format == "parquet" and out_file is None:
        raise SpecError("--format parquet needs --out FILE")
    root = settings.store_root(store)
    if out_file is not None:
        check_out_file(out_file, root)
    con = db.connect(root, read_only=True)
    n_exp = len(list((Path(root) / "experiments").glob("*.json")))
    err.print(f"store: {root} ({n_exp} experiment{'' if n_exp == 1 else 's'})"
              + ("" if n_exp else "; nothing to query yet: run `playtest run GAME` or give "
                 "--store DIR"), markup=False, soft_wrap=True)

    def write(result, kind):
        write_result(result, kind, out_file)
        err.print(f"wrote {out_file}")

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
        rows = rel.limit(max_rows + 1).fetchall()
        if out_file is not None:
            write(rel.arrow(), "csv")
    except duckdb.Error as e:
        raise SpecError(f"SQL: {e}") from None
    t = Table()
    for c in cols:
        t.add_column(c, overflow="fold")
    for r in rows[:max_rows]:
        t.add_row(*("" if v is None else fmt(v) for v in r))
    out.print(t)
    if len(rows) > max_rows:
        err.print(f"(more rows; showing {max_rows}: use --max-rows, --format csv or LIMIT)")


# ---- report ------------------------------------------------------------------------------------

def _write_report(store_root: Path, experiment: str, out_dir: Path) -> Path:
    if importlib.util.find_spec("analysis.reports") is None:
        raise CLIError("analysis.reports is not available yet (the report writer is in progress)")
    reports = importlib.import_module("analysis.reports")
    return Path(reports.write_report(store_root, experiment, out_dir))


@guarded
def report_cmd(
    experiment: Annotated[str, typer.Argument(
        help="Experiment name (see `playtest sql \"SELECT * FROM experiments\"`).")],
    store: opts.Store = None,
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")
                       ] = opts.REPORTS_DIR,
):
    """Write a self-contained HTML report of one experiment."""
    from sim.spec import SpecError

    from ..store import Store

    root = settings.store_root(store)
    if out_dir.exists() and not out_dir.is_dir():
        raise SpecError(f"--out {out_dir}: is a file; give a directory for the report")
    known = Store(root).experiments()
    if experiment not in known:
        raise SpecError(f"unknown experiment '{experiment}' in store {root}; "
                        + (did_you_mean(experiment, known) if known
                           else "valid: (none yet: run `playtest run` first)"))
    path = _write_report(root, experiment, out_dir)
    out.print(f"report: {path}")


# ---- list / show -------------------------------------------------------------------------------

def _arm_summary(arm: dict) -> dict:
    """One manifest arm in words: players, variant, tweaks and policies."""
    tweaks = arm.get("tweaks") or {}
    pols = [p.get("spec") or p.get("policy") if isinstance(p, dict) else p
            for p in arm.get("policies") or []]
    return {"players": str(arm.get("n_players", "?")), "variant": str(arm.get("variant") or ""),
            "tweaks": ", ".join(f"{k}={v}" for k, v in tweaks.items()) if isinstance(tweaks, dict)
            else str(tweaks),
            "policies": ", ".join(dict.fromkeys(map(str, pols)))}


@guarded
def list_cmd(store: opts.Store = None):
    """Experiments in the store: game, players, variants, tweaks, policies, games, status."""
    from ..store import Store

    root = settings.store_root(store)
    st = Store(root)
    names = st.experiments()
    out.print(f"store: {root}", markup=False, soft_wrap=True)
    if not names:
        err.print("note: the store holds no experiments yet (run `playtest run GAME` first)")
        return
    t = Table()
    for c in ("experiment", "game", "players", "variant", "tweaks", "policies", "games/arm",
              "status"):
        t.add_column(c, overflow="fold")
    for name in names:
        m = st.read_manifest(name) or {}
        arms = [_arm_summary(a) for a in m.get("arms") or [] if isinstance(a, dict)]
        col = lambda k: ", ".join(dict.fromkeys(a[k] for a in arms if a[k])) or "-"  # noqa: E731
        games = ", ".join(dict.fromkeys(str(a.get("game")) for a in m.get("arms") or []
                                        if isinstance(a, dict))) or "?"
        n = m.get("n_games")
        t.add_row(name, games, col("players"), col("variant"), col("tweaks"), col("policies"),
                  f"{n:,}" if isinstance(n, int) else "?", str(m.get("status", "?")))
    out.print(t)


@guarded
def show_cmd(
    experiment: Annotated[str, typer.Argument(help="Experiment name (see `playtest list`).")],
    store: opts.Store = None,
):
    """One experiment: its arms in words, then its result table by the game's balance factor."""
    from sim.spec import SpecError

    from ..store import Store

    root = settings.store_root(store)
    st = Store(root)
    m = st.read_manifest(experiment)
    if m is None:
        raise SpecError(f"unknown experiment '{experiment}' in store {root}; "
                        + did_you_mean(experiment, st.experiments()))
    out.print(f"experiment {experiment} (status {m.get('status', '?')}, master seed "
              f"{m.get('master_seed', '?')}, {m.get('n_games', '?')} games per arm)",
              markup=False, soft_wrap=True)
    t = Table()
    for c in ("arm", "players", "variant", "tweaks", "policies"):
        t.add_column(c, overflow="fold")
    for a in m.get("arms") or []:
        if isinstance(a, dict):
            s = _arm_summary(a)
            t.add_row(str(a.get("name")), s["players"], s["variant"], s["tweaks"] or "-",
                      s["policies"])
    out.print(t)
    game = next((a.get("game") for a in m.get("arms") or [] if isinstance(a, dict)), None)
    src = m.get("spec") if isinstance(m.get("spec"), dict) else {}
    if src.get("kind") == "ladder":
        print_items(ladder_tables(root, experiment, src))
    elif game in registry().available_games():
        for table in win_rate_tables(root, experiment, game, factor_only=True):
            out.print(table)
    out.print(f"report: playtest report {experiment}" + (f" --store {store}" if store else ""),
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
