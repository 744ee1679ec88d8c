"""``playtest compensate``: what fixes a favoured seat. A points bonus per seat from the final
scores, checked by a run with it in the rules, or (``--param``) the value of a rule parameter
that equalises the seats, found by paired runs; per policy, verdict first, then the figures side
by side, and the study's HTML report. The question is built and answered by
:mod:`pipelines.compensate`, the words and tables are :mod:`analysis.reports.compensation`."""
from __future__ import annotations

import json
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import settings
from . import options as opts
from .common import check_report_dir, err, guarded, out, print_items

FORMATS = ("table", "json")

CompPlayers = opts._players("One player count, 2 or more (default: the maximum).")
Param = Annotated[Optional[str], typer.Option(
    "--param", help="A numeric rule parameter to search instead of a points bonus (`playtest "
                    "rules GAME`); a list with one value per seat takes the value at the "
                    "disadvantaged seats only.")]
Range = Annotated[Optional[str], typer.Option(
    "--range", help="LO..HI for --param (default: its declared range).")]
Step = Annotated[Optional[float], typer.Option(
    "--step", help="Resolution of --param (default 1 for whole values, else 1/20 of the "
                   "range).")]
NBoot = Annotated[int, typer.Option(
    "--n-boot", help="Bootstrap resamples for the points bonus's interval.")]
Format = Annotated[str, typer.Option(
    "--format", "-f", help="table | json (json: the answer per policy on stdout).")]


def _runner(store, workers, quiet: bool):
    """``run(experiment)``: one round of the study into the store, one line on stderr."""
    from ..runner import run
    from .running import _warn_unfinished_rules

    warned = []

    def run_one(exp):
        res = run(exp, store, workers=workers, quiet=quiet)
        if not warned:
            _warn_unfinished_rules(a.game for a in exp.arms)
            warned.append(True)
        for n in res.notes:
            if not n.startswith("arms kept from earlier runs"):
                err.print(f"note: {n}", markup=False, soft_wrap=True)
        arms = ", ".join(a.name for a in exp.arms)
        what = (f"simulated {res.simulated:,} games in {res.elapsed:.1f} s"
                if res.simulated else "nothing to simulate (stored)")
        if not quiet or res.simulated:
            err.print(f"experiment {res.experiment} [{arms}]: {what}", markup=False,
                      soft_wrap=True)
        return res

    return run_one


@guarded
def compensate_cmd(
    game: opts.Game,
    players: CompPlayers = None,
    policy: opts.Policy = None,
    also_policy: opts.AlsoPolicy = None,
    variant: opts.Variant = None,
    set_: opts.GameSet = None,
    param: Param = None,
    range_: Range = None,
    step: Step = None,
    games: opts.RunGames = None,
    seed: opts.Seed = None,
    n_boot: NBoot = 400,
    format_: Format = "table",
    store: opts.Store = None,
    experiment: opts.Experiment = None,
    out_dir: opts.Out = opts.REPORTS_DIR,
    workers: opts.Workers = None,
    chunk_size: opts.ChunkSize = None,
    components: opts.Components = None,
    quiet: opts.Quiet = False,
):
    """What fixes a favoured seat: points bonus per seat (checked by re-simulation) or the
    value of a rule parameter that equalises the seats; per policy, HTML report."""
    import importlib

    from sim.spec import SpecError

    from ..compensate import compensation, run_compensation
    from ..runner import check_run_options

    if format_ not in FORMATS:
        raise SpecError(f"--format: unknown format '{format_}'; valid: {', '.join(FORMATS)}")
    check_report_dir(out_dir, store)
    check_run_options(workers, "local", None)
    c = compensation(game, players, variant, set_ or (), policy, also_policy or (),
                     settings.DEFAULT_GAMES if games is None else games,
                     settings.DEFAULT_SEED if seed is None else seed, experiment, chunk_size,
                     components, param, range_, step, n_boot)
    result = run_compensation(
        c, _runner(store, workers, quiet),
        echo=lambda m: err.print(m, markup=False, soft_wrap=True) if not quiet else None)
    text = importlib.import_module("analysis.reports.compensation")
    reports = importlib.import_module("analysis.reports")
    path = reports.write_study_report(settings.store_root(store), c.name, out_dir)
    verdict = text.verdict_lines(result)
    if format_ == "json":
        typer.echo(json.dumps({**result, "verdict": verdict}, indent=2))
        err.print(f"report: {path}", markup=False, soft_wrap=True)
        return
    items: list = list(verdict)
    cols, rows = text.policy_table(result)
    t = Table(title=f"{'Points bonus' if c.search is None else c.search.param.name}, "
                    f"{c.n_players} players ({c.name})")
    for col in cols:
        t.add_column(col, overflow="fold", justify="left" if not col else "right")
    for r in rows:
        t.add_row(*r)
    items.append(t)
    pts = text.search_points(result)
    if pts:
        t = Table(title="Values measured: compensated seats' win rate − fair share (points)")
        for col in ("policy", c.search.param.name, "gap", "95% CI", ""):
            t.add_column(col, overflow="fold")
        for p in pts:
            t.add_row(p["policy"], p["value"], p["gap"], p["ci"], p["best"])
        items.append(t)
    print_items(items)
    out.print(f"report: {path}", soft_wrap=True, markup=False)
