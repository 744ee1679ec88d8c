"""The ``playtest`` command line (design §4). Also ``python -m pipelines``.

Every command turns bad input (:class:`sim.spec.SpecError`, raised by validation before anything
is written) into one message on stderr and exit code 2. New commands (``compare``, ``sweep``,
``plan``, ``ladder``) build an :class:`~pipelines.experiment.Experiment` and call :func:`_run_and_summarise`.
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sim.spec import SpecError

from . import settings

app = typer.Typer(
    name="playtest",
    help="Game-balance analytics for tabletop dice games: simulate, store, query, report.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
# Tables stay readable when piped to a file or a CI log (rich would assume 80 columns).
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False)


class CLIError(Exception):
    """A failure that is not bad input (exit code 1), e.g. a missing optional component."""


def guarded(fn):
    """Bad input -> one message, exit 2; other known failures -> exit 1; no tracebacks."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SpecError as e:
            err.print(f"[bold red]error:[/] {escape(str(e))}", markup=True, soft_wrap=True)
            raise typer.Exit(2)
        except CLIError as e:
            err.print(f"[bold red]error:[/] {escape(str(e))}", markup=True, soft_wrap=True)
            raise typer.Exit(1)
        except OSError as e:  # a file the user named (or the disk) failed: not a traceback
            where = f"{e.filename}: " if e.filename else ""
            err.print(f"[bold red]error:[/] {escape(where + (e.strerror or str(e)))}",
                      markup=True, soft_wrap=True)
            raise typer.Exit(2)
        except KeyboardInterrupt:
            err.print("interrupted; run the same command again to resume")
            raise typer.Exit(130)

    return wrapper


def _registry():
    try:
        return importlib.import_module("sim.registry")
    except ImportError as e:  # a game package under construction
        raise CLIError(f"the game registry cannot be imported yet ({e})") from None


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, float) and v == int(v):
        return str(int(v)) if abs(v) < 1e15 else str(v)
    return str(v)


# ---- shared options ----------------------------------------------------------------------

StoreOpt = typer.Option(None, "--store", help="Store directory (default: $PLAYTEST_STORE or data/).")
PlayersOpt = typer.Option(None, "--players", "-p",
                          help="Player count(s): 4, 2-4 or 2,3 (run: default all; one arm each).")
OnePlayerCountOpt = typer.Option(None, "--players", "-p",
                                 help="One player count (default: the maximum; 1 = solo, where "
                                      "the game has it).")
VariantOpt = typer.Option(None, "--variant", help="Named rule variant (see `playtest rules GAME`).")
SetOpt = typer.Option(None, "--set", help="Rule tweak NAME=VALUE (repeatable).")
PolicyOpt = typer.Option(None, "--policy", help="Policy for every seat: NAME[:k=v,...] or @PRESET.toml (default greedy).")
AlsoPolicyOpt = typer.Option(
    None, "--also-policy",
    help="Play the same arms again with every seat on this policy too (repeatable; e.g. "
         "search): the report says whether each verdict holds under every policy.")
SeatPolicyOpt = typer.Option(None, "--seat-policy", help="SEAT=NAME[:k=v,...] or SEAT=@PRESET.toml for one seat (repeatable; 0 = start player).")
ComponentsOpt = typer.Option(None, "--components", help="Directory with your own component data files.")
SeedOpt = typer.Option(None, "--seed", help=f"Master seed (default {settings.DEFAULT_SEED}).")
WorkersOpt = typer.Option(None, "--workers", "-w", help="Threads (default: all cores).")
QuietOpt = typer.Option(False, "--quiet", "-q", help="No progress bar.")
OutOpt = typer.Option(Path("reports"), "--out", "-o", help="Report directory.")


PRECISION_HELP = ("Keep adding games until every 95% interval on the win-rate scale has a "
                  "half-width below this (e.g. 0.005); --games is then the first batch.")
MAX_GAMES_HELP = "Cap on games per arm for --precision (default 1,000,000)."
PrecisionOpt = typer.Option(None, "--precision", help=PRECISION_HELP)
MaxGamesOpt = typer.Option(None, "--max-games", help=MAX_GAMES_HELP)
ExperimentOpt = typer.Option(None, "--experiment", "-e", help="Experiment name (default: derived).")
ChunkSizeOpt = typer.Option(None, "--chunk-size", help="Games per chunk/part.")
ReplanOpt = typer.Option(False, "--replan", help="Apply a changed --games/--chunk-size to an "
                         "unfinished experiment (finished chunks within it are kept).")


# ---- games / rules -----------------------------------------------------------------------

@app.command("games")
@guarded
def games_cmd():
    """List games, player counts, variants and policies."""
    reg = _registry()
    t = Table(title="Games")
    for c in ("game", "title", "version", "players", "variants", "policies"):
        t.add_column(c, overflow="fold")
    for gid in reg.available_games():
        s = reg.make(gid)
        players = f"{s.min_players}" if s.min_players == s.max_players else f"{s.min_players}-{s.max_players}"
        t.add_row(gid, s.title, s.version, players, ", ".join(s.variants), ", ".join(s.policies))
    out.print(t)


@app.command("rules")
@guarded
def rules_cmd(game: str = typer.Argument(..., help="Game id (see `playtest games`).")):
    """Every rule parameter (name, default, range, meaning), variants, policies, rule status."""
    spec = _registry().make(game)
    out.print(f"[bold]{spec.title}[/] ({spec.id}, version {spec.version}), "
              f"{spec.min_players}-{spec.max_players} players")

    t = Table(title="Rule parameters (--set NAME=VALUE)")
    for c in ("name", "kind", "default", "range", "meaning", "source"):
        t.add_column(c, overflow="fold")
    for p in spec.params:
        t.add_row(p.name, p.kind, _fmt(p.default), p.range_text(), p.doc, p.source)
    out.print(t)
    used = sorted({p.source for p in spec.params})
    if spec.provenance:
        out.print("source: " + "; ".join(f"{tag} {spec.provenance.get(tag, '(no meaning given)')}"
                                         for tag in used), markup=False, soft_wrap=True)

    t = Table(title="Variants (--variant NAME)")
    for c in ("variant", "players", "overrides", "meaning", "rules"):
        t.add_column(c, overflow="fold")
    for v in spec.variants.values():
        pl = "any" if not v.players else f"{v.players[0]}-{v.players[1]}"
        ov = ", ".join(f"{k}={_fmt(x)}" for k, x in v.overrides.items()) or "(defaults)"
        t.add_row(v.name, pl, ov, v.doc, ", ".join(v.rule_ids))
    out.print(t)
    defaults = sorted({spec.default_variant(n) for n in range(spec.min_players, spec.max_players + 1)})
    out.print("default variant: " + ", ".join(
        f"{n}p={spec.default_variant(n)}" for n in range(spec.min_players, spec.max_players + 1))
        if len(defaults) > 1 else f"default variant: {defaults[0]}")

    t = Table(title="Policies (--policy NAME[:k=v,...], --seat-policy SEAT=NAME)")
    for c in ("policy", "presets", "meaning"):
        t.add_column(c, overflow="fold")
    for p in spec.policies.values():
        t.add_row(p.name, ", ".join(f"{k}={_fmt(x)}" for k, x in p.overrides.items()) or "(defaults)",
                  p.doc)
    out.print(t)
    out.print("ladder (`playtest ladder`, weakest first): " + " < ".join(spec.ladder)
              + (f" < {spec.search_rung} (with --search)" if spec.search_rung else ""),
              markup=False, soft_wrap=True)
    t = Table(title="Policy parameters")
    for c in ("name", "kind", "default", "range", "meaning"):
        t.add_column(c, overflow="fold")
    for p in spec.policy_params:
        t.add_row(p.name, p.kind, _fmt(p.default), p.range_text(), p.doc)
    out.print(t)
    own = next((p.params for p in spec.policies.values() if p.params is not None), None)
    if own:  # the search policies' table (sim.search)
        t = Table(title="Search policy parameters (search, oracle: docs/search.md)")
        for c in ("name", "kind", "default", "range", "meaning"):
            t.add_column(c, overflow="fold")
        for p in own:
            t.add_row(p.name, p.kind, _fmt(p.default), p.range_text(), p.doc)
        out.print(t)

    t = Table(title="Output columns")
    t.add_column("table")
    t.add_column("column")
    t.add_column("meaning", overflow="fold")
    for c in spec.game_columns:
        t.add_row("games", c.name, c.doc)
    for c in spec.seat_columns:
        t.add_row("seats", c.name, c.doc)
    t.add_row("games", "end_reason", ", ".join(spec.end_reasons))
    out.print(t)

    done = [r for r in spec.rules if r.implemented]
    todo = [r for r in spec.rules if not r.implemented]
    out.print(f"Rule IDs: {len(done)} of {len(spec.rules)} implemented"
              + ("" if todo else " (all)"))
    if todo:
        t = Table(title="Not implemented")
        t.add_column("rule")
        t.add_column("summary", overflow="fold")
        t.add_column("note", overflow="fold")
        for r in todo:
            t.add_row(r.rule_id, r.summary, r.note)
        out.print(t)


@app.command("layout")
@guarded
def layout_cmd(game: str = typer.Argument(..., help="Game id (see `playtest games`).")):
    """The game's array layouts (parameters, state, seat block, output rows), as derived from
    their declarations: every offset the kernel uses, with its size and meaning."""
    spec = _registry().make(game)
    if not spec.layouts:
        out.print(f"{spec.id}: no declared layouts")
        return
    for block in spec.layouts:
        typer.echo(block.table())
        typer.echo("")


# ---- run ---------------------------------------------------------------------------------

def _warn_unfinished_rules(game_ids) -> None:
    """Say, with the results of a run, when a game does not implement every rule ID of its spec
    yet: its results are then results of other rules than the rulebook's."""
    for gid in dict.fromkeys(game_ids):
        spec = _registry().make(gid)
        todo = [r.rule_id for r in spec.rules if not r.implemented]
        if todo:
            err.print(f"warning: {gid} does not implement {len(todo)} of its {len(spec.rules)} "
                      f"rule IDs yet ({', '.join(todo[:6])}{', ...' if len(todo) > 6 else ''}; "
                      f"see `playtest rules {gid}`): its results do not reflect the full rules",
                      markup=False, soft_wrap=True)


def _run_and_summarise(exp, store, workers, executor, scheduler, quiet, replan=False):
    from .runner import COMPILE_NOTE_S, run

    res = run(exp, store, workers=workers, executor=executor, scheduler=scheduler, quiet=quiet,
              replan=replan)
    _warn_unfinished_rules(a.game for a in exp.arms)  # after the input checks of ``run``
    for n in res.notes:
        err.print(f"note: {n}", markup=False, soft_wrap=True)
    arms = ", ".join(f"{a.name} ({a.game} {a.arm.n_players}p {a.arm.variant})" for a in exp.arms)
    if res.simulated == 0:
        out.print(f"experiment [bold]{res.experiment}[/] is complete "
                  f"({res.total_games:,} games in {len(res.arms)} arms); nothing to simulate", soft_wrap=True)
    else:
        out.print(f"experiment [bold]{res.experiment}[/]: simulated {res.simulated:,} games "
                  f"({res.chunks_done} chunks"
                  + (f", {res.chunks_skipped} already done" if res.chunks_skipped else "")
                  + f") in {res.elapsed:.1f} s"
                  + (f" ({res.kernel_load_s:.0f} s compiling the kernel)"
                     if res.kernel_load_s > COMPILE_NOTE_S else "")
                  + f", {res.games_per_s:,.0f} games/s "
                  f"({res.executor}, {res.workers} workers)", soft_wrap=True)
    out.print(f"arms: {arms}", soft_wrap=True, markup=False)
    out.print(f"store: {res.store}  manifest: {res.manifest_path}", soft_wrap=True, markup=False)
    return res


@app.command("run")
@guarded
def run_cmd(
    game: Optional[str] = typer.Argument(None, help="Game id (or use --spec)."),
    players: Optional[str] = PlayersOpt,
    variant: Optional[str] = VariantOpt,
    set_: Optional[List[str]] = SetOpt,
    policy: Optional[str] = PolicyOpt,
    also_policy: Optional[List[str]] = AlsoPolicyOpt,
    seat_policy: Optional[List[str]] = SeatPolicyOpt,
    games: Optional[int] = typer.Option(None, "--games", "-n",
                                        help=f"Games per arm (default {settings.DEFAULT_GAMES:,})."),
    seed: Optional[int] = SeedOpt,
    spec: Optional[Path] = typer.Option(None, "--spec", help="TOML experiment spec with several arms."),
    store: Optional[str] = StoreOpt,
    experiment: Optional[str] = typer.Option(None, "--experiment", "-e",
                                             help="Experiment name (default: derived from the arguments)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Threads/workers (default: all cores)."),
    executor: str = typer.Option("local", "--executor", help="local | dask"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (default: a LocalCluster)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size",
                                             help=f"Games per chunk/part (default {settings.DEFAULT_CHUNK_SIZE:,}; {settings.SEARCH_CHUNK_SIZE:,} for arms with search seats)."),
    components: Optional[str] = ComponentsOpt,
    precision: Optional[float] = PrecisionOpt,
    max_games: Optional[int] = MaxGamesOpt,
    quiet: bool = QuietOpt,
    replan: bool = ReplanOpt,
):
    """Simulate games into the store (resumes/grows an existing experiment)."""
    from . import experiment as ex

    _check_precision_options(precision, max_games)

    if spec is not None:
        given = [n for n, v in (("GAME", game), ("--players", players), ("--variant", variant),
                                ("--set", set_), ("--policy", policy),
                                ("--also-policy", also_policy),
                                ("--seat-policy", seat_policy), ("--components", components)) if v]
        if given:
            raise SpecError(f"--spec defines the arms; remove {', '.join(given)} "
                            f"(--games, --seed, --experiment, --chunk-size may override the spec)")
        exp = ex.from_toml(spec, games=games, seed=seed, experiment=experiment,
                           chunk_size=chunk_size)
    else:
        if not game:
            raise SpecError("give a GAME or --spec FILE.toml; games: "
                            + ", ".join(_registry().available_games()))
        exp = ex.from_cli(game, players, variant, set_ or (), policy, seat_policy or (),
                          settings.DEFAULT_GAMES if games is None else games,
                          settings.DEFAULT_SEED if seed is None else seed,
                          experiment, chunk_size, components, also_policy or ())
    res = _simulate(exp, store, workers, executor, scheduler, quiet, precision, max_games,
                    start_small=games is None and spec is None, replan=replan)
    for table in win_rate_tables(res.store, exp.name, exp.arms[0].game, factor_only=True):
        out.print(table)
    out.print(f"report: playtest report {exp.name}" + (f" --store {store}" if store else ""),
              soft_wrap=True, markup=False)


def _check_precision_options(precision, max_games):
    """--precision in range, --max-games a valid count and only given with --precision."""
    from .studies import check_precision

    check_precision(precision, max_games)
    if precision is None and max_games is not None:
        raise SpecError("--max-games only applies with --precision")


def _simulate(exp, store, workers, executor, scheduler, quiet, precision, max_games, start_small,
              replan=False):
    """Run ``exp``: its game counts, or with ``precision`` until the intervals are narrow enough
    (starting small when ``start_small``, i.e. no --games given); ``replan``: see ``run``."""
    if precision is None:
        return _run_and_summarise(exp, store, workers, executor, scheduler, quiet, replan)
    if start_small:
        _start_size(exp, max_games)
    return _run_precise(exp, store, workers, executor, scheduler, quiet, precision, max_games,
                        replan)[0]


def _start_size(exp, max_games):
    """--precision without --games: start with a small batch (grown as needed)."""
    from .studies import DEFAULT_MAX_GAMES, DEFAULT_PRECISION_START

    n = min(DEFAULT_PRECISION_START, max_games or DEFAULT_MAX_GAMES)
    for ra in exp.arms:
        if ra.config.games is None:
            ra.n_games = n
    exp.n_games = max(ra.n_games for ra in exp.arms)


def _run_precise(exp, store, workers, executor, scheduler, quiet, precision, max_games,
                 replan=False):
    """Precision-targeted run (pipelines.studies.run_to_precision) with the usual summary."""
    from .studies import run_to_precision

    def one_round(e, st, **kw):
        return _run_and_summarise(e, st, workers, executor, scheduler, quiet, replan)

    res, outcome = run_to_precision(
        exp, store, precision, max_games, run_fn=one_round,
        echo=lambda m: err.print(m, markup=False, soft_wrap=True))
    style = "green" if outcome.met else "yellow"
    out.print(f"[{style}]{escape(outcome.describe())}[/]; "
              f"{sum(outcome.games_per_arm.values()):,} games in {len(exp.arms)} arm(s), "
              f"{outcome.elapsed:.1f} s", soft_wrap=True)
    return res, outcome


def _study_report(store_root, experiment, out_dir, **extra) -> Path:
    reports = importlib.import_module("analysis.reports")
    return Path(reports.write_study_report(store_root, experiment, out_dir, **extra))


# ---- compare / sweep / plan ------------------------------------------------------------------

TweakSeatOpt = typer.Option(None, "--tweak-seat-policy",
                            help="SEAT=NAME[:k=v,...] in the tweak arm only (repeatable).")
StudyGamesOpt = typer.Option(None, "--games", "-n",
                             help=f"Games per arm (default {settings.DEFAULT_GAMES:,}; "
                                  f"with --precision: the first batch).")
StudyPlayersOpt = typer.Option(None, "--players", "-p",
                               help="Player count(s): 4, 2-4 or 2,3 (default: the maximum).")


def _print_compare(res_store, exp):
    from analysis import db, studies

    con = db.connect(res_store)
    try:
        for pair in exp.source["pairs"]:
            tab = studies.compare_frames(
                studies.arm_games(con, exp.name, pair["tweak"]),
                studies.arm_games(con, exp.name, pair["baseline"]))
            t = Table(title=f"{pair['tweak']} − {pair['baseline']} ({pair['n_players']} players, "
                            f"{int(tab['n'].max()) if len(tab) else 0:,} paired games; rates in %, "
                            f"their differences in points)")
            for c in ("metric", "baseline", "tweak", "Δ", "paired 95% CI", "unpaired CI",
                      "verdict"):
                t.add_column(c, overflow="fold")
            for r in tab.itertuples():
                k = 100.0 if r.scale == "prop" else 1.0
                dg = 2 if r.scale == "prop" else 3
                t.add_row(r.label, f"{k * r.baseline:.{dg}f}", f"{k * r.tweak:.{dg}f}",
                          f"{k * r.diff:+.{dg}f}", f"{k * r.low:+.{dg}f}…{k * r.high:+.{dg}f}",
                          f"{k * r.unpaired_low:+.{dg}f}…{k * r.unpaired_high:+.{dg}f}",
                          r.verdict)
            out.print(t)
            if len(tab) and (tab["verdict"] == studies.IDENTICAL).all():
                err.print(f"note: the tweak changed no game ({pair['n_players']} players): both "
                          f"arms are identical game by game", markup=False, soft_wrap=True)
    finally:
        con.close()


@app.command("compare")
@guarded
def compare_cmd(
    game: str = typer.Argument(..., help="Game id (see `playtest games`)."),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Tweak NAME=VALUE for the tweak arm (repeatable)."),
    tweak_seat_policy: Optional[List[str]] = TweakSeatOpt,
    players: Optional[str] = StudyPlayersOpt,
    variant: Optional[str] = VariantOpt,
    policy: Optional[str] = PolicyOpt,
    also_policy: Optional[List[str]] = AlsoPolicyOpt,
    seat_policy: Optional[List[str]] = typer.Option(None, "--seat-policy", help="SEAT=NAME[:k=v,...] in both arms (repeatable)."),
    games: Optional[int] = StudyGamesOpt,
    seed: Optional[int] = SeedOpt,
    precision: Optional[float] = PrecisionOpt,
    max_games: Optional[int] = MaxGamesOpt,
    store: Optional[str] = StoreOpt,
    experiment: Optional[str] = ExperimentOpt,
    out_dir: Path = OutOpt,
    workers: Optional[int] = WorkersOpt,
    chunk_size: Optional[int] = ChunkSizeOpt,
    components: Optional[str] = ComponentsOpt,
    quiet: bool = QuietOpt,
    replan: bool = ReplanOpt,
):
    """Tweak vs baseline on the same seeds: paired differences with 95% intervals, HTML report."""
    from .studies import compare_experiment

    _check_precision_options(precision, max_games)
    exp = compare_experiment(game, set_ or (), players, variant, policy, seat_policy or (),
                             tweak_seat_policy or (),
                             settings.DEFAULT_GAMES if games is None else games,
                             settings.DEFAULT_SEED if seed is None else seed, experiment,
                             chunk_size, components, also_policy or ())
    res = _simulate(exp, store, workers, "local", None, quiet, precision, max_games,
                    start_small=games is None, replan=replan)
    _print_compare(res.store, exp)
    out.print(f"report: {_study_report(res.store, exp.name, out_dir)}", soft_wrap=True,
              markup=False)


@app.command("sweep")
@guarded
def sweep_cmd(
    game: str = typer.Argument(..., help="Game id (see `playtest games`)."),
    param: Optional[List[str]] = typer.Option(None, "--param", help="NAME=v1,v2,... or NAME=lo..hi[:step] (once, or twice for a grid)."),
    players: Optional[str] = StudyPlayersOpt,
    variant: Optional[str] = VariantOpt,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed rule tweak for every point (repeatable)."),
    policy: Optional[str] = PolicyOpt,
    seat_policy: Optional[List[str]] = SeatPolicyOpt,
    games: Optional[int] = StudyGamesOpt,
    seed: Optional[int] = SeedOpt,
    tolerance: float = typer.Option(0.02, "--tolerance", help="Seats within 1/N ± this count as balanced."),
    precision: Optional[float] = PrecisionOpt,
    max_games: Optional[int] = MaxGamesOpt,
    store: Optional[str] = StoreOpt,
    experiment: Optional[str] = ExperimentOpt,
    out_dir: Path = OutOpt,
    workers: Optional[int] = WorkersOpt,
    chunk_size: Optional[int] = ChunkSizeOpt,
    components: Optional[str] = ComponentsOpt,
    quiet: bool = QuietOpt,
    replan: bool = ReplanOpt,
):
    """Metrics over a parameter (or a 2-parameter grid): curves with 95% bands, balanced points."""
    from .studies import sweep_experiment

    _check_precision_options(precision, max_games)
    exp = sweep_experiment(game, param or (), players, variant, set_ or (), policy,
                           seat_policy or (), settings.DEFAULT_GAMES if games is None else games,
                           settings.DEFAULT_SEED if seed is None else seed, experiment,
                           chunk_size, components, tolerance)
    res = _simulate(exp, store, workers, "local", None, quiet, precision, max_games,
                    start_small=games is None, replan=replan)
    from analysis import reports

    con = importlib.import_module("analysis.db").connect(res.store)
    try:
        table = reports.sweep_table(con, exp.name, exp.source, compact=True)
    finally:
        con.close()
    t = Table(title=f"Sweep {exp.name}: estimate ± 95% half-width (rates in %)")
    cols = [c for c in table.columns if c not in ("arm",)]
    for c in cols:
        t.add_column(c.replace("first-player adv.", "1st adv."), overflow="fold")
    for _, r in table.iterrows():
        t.add_row(*(str(r[c]) for c in cols))
    out.print(t)
    out.print(f"report: {_study_report(res.store, exp.name, out_dir)}", soft_wrap=True,
              markup=False)


@app.command("plan")
@guarded
def plan_cmd(
    game: str = typer.Argument(..., help="Game id (see `playtest games`)."),
    detect: float = typer.Option(..., "--detect", help="Difference in seat win rate to detect, e.g. 0.01."),
    players: Optional[str] = StudyPlayersOpt,
    variant: Optional[str] = VariantOpt,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="A tweak to plan a comparison for (paired design)."),
    tweak_seat_policy: Optional[List[str]] = TweakSeatOpt,
    policy: Optional[str] = PolicyOpt,
    seat_policy: Optional[List[str]] = SeatPolicyOpt,
    pilot_games: int = typer.Option(5000, "--pilot-games", help="Games per arm of the pilot run."),
    power: float = typer.Option(0.8, "--power", help="Power (default 0.8)."),
    seed: Optional[int] = SeedOpt,
    store: Optional[str] = StoreOpt,
    out_dir: Path = OutOpt,
    workers: Optional[int] = WorkersOpt,
    components: Optional[str] = ComponentsOpt,
    quiet: bool = QuietOpt,
):
    """Games needed to detect a difference in seat win rate (95% confidence), from a pilot run."""
    from . import experiment as ex
    from .studies import check_delta, compare_experiment

    delta = check_delta(detect)
    if not 0.5 <= power < 1:
        raise SpecError(f"--power: must be in [0.5, 1), got {power}")
    ex.check_games(pilot_games, "--pilot-games")
    seed = settings.DEFAULT_SEED if seed is None else seed
    if set_ or tweak_seat_policy:
        exp = compare_experiment(game, set_ or (), players, variant, policy, seat_policy or (),
                                 tweak_seat_policy or (), pilot_games, seed, None, None, components)
    else:
        spec = _registry().make(game)
        exp = ex.from_cli(game, str(spec.max_players) if players is None else players, variant,
                          (), policy, seat_policy or (), pilot_games, seed, None, None, components)
    res = _run_and_summarise(exp, store, workers, "local", None, quiet)
    from analysis import reports

    con = importlib.import_module("analysis.db").connect(res.store)
    try:
        ctx = reports.plan_rows(con, exp.name, exp.source, delta, power)
    finally:
        con.close()
    for block in ctx:
        t = Table(title=f"Games needed to detect ±{100 * delta:g} points of win rate "
                        f"({block['title']}; 95% confidence, {power:.0%} power)")
        for c in ("seat", "pilot win rate", "vs fair share (one arm)", "two arms, unpaired",
                  "two arms, paired (CRN)"):
            t.add_column(c, justify="right")
        for r in block["rows"]:
            t.add_row(r["label"], r["rate"], r["vs_fair"], r["unpaired"], r["paired"])
        out.print(t)
    path = _study_report(res.store, exp.name, out_dir, plan={"delta": delta, "power": power})
    out.print(f"report: {path}", soft_wrap=True, markup=False)


# ---- ladder --------------------------------------------------------------------------------

def ladder_tables(store_root, experiment: str, source: dict) -> list:
    """The ladder of a stored experiment as terminal tables and sentences (``ladder``,
    ``show``): head to head (or solo win probabilities and steps), ratings, verdict."""
    from analysis import db
    from analysis import ladder as ladder_stats
    from analysis import reports

    con = db.connect(store_root)
    try:
        lad = ladder_stats.summarize(con, experiment, source)
    finally:
        con.close()
    rows = reports.ladder_rows(lad)
    items: list = []

    def table(title, cols, keys, data):
        t = Table(title=title)
        for c in cols:
            t.add_column(c, overflow="fold")
        for r in data:
            t.add_row(*(escape(str(r[k])) for k in keys))
        items.append(t)

    if lad.n_players == 1:
        table(f"Solo win probability ({experiment})", ("policy", "games", "win prob.", "95% CI"),
              ("policy", "games", "rate", "ci"), rows["solo"])
        table("Steps: each rung minus the one below (paired)",
              ("step", "games", "difference", "95% CI", "verdict"),
              ("step", "games", "diff", "ci", "verdict"), rows["steps"])
    else:
        table(f"Head to head, {lad.n_players} players: one seat of the higher rung vs the "
              f"others ({experiment})",
              ("higher rung", "vs", "games", "seat win rate", "95% CI", "fair", "by seat",
               "verdict"),
              ("a", "b", "games", "rate", "ci", "fair", "by_seat", "verdict"), rows["pairs"])
        if rows["ratings"]:
            table("Ratings (Bradley-Terry, Elo scale)", ("policy", "rating", "95% CI", "rank"),
                  ("policy", "rating", "ci", "rank"), rows["ratings"])
    items += [s for s in (rows["skill"], lad.verdict) if s]
    return items


def _print_items(items: list) -> None:
    """Print rich tables and plain sentences (no markup: policy options hold brackets)."""
    for item in items:
        if isinstance(item, str):
            out.print(item, soft_wrap=True, markup=False)
        else:
            out.print(item)


@app.command("ladder")
@guarded
def ladder_cmd(
    game: str = typer.Argument(..., help="Game id (see `playtest games`)."),
    players: Optional[str] = OnePlayerCountOpt,
    policies: Optional[str] = typer.Option(None, "--policies",
                                           help="Rungs, weakest first: A,B,C (NAME[:k=v,...] or @PRESET.toml; "
                                                "default: the game's declared ladder)."),
    variant: Optional[str] = VariantOpt,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Rule tweak NAME=VALUE for "
                                             "every game (repeatable)."),
    games: Optional[int] = typer.Option(None, "--games", "-n",
                                        help=f"Games per arm, i.e. per pair and seat of the "
                                             f"higher rung (default {settings.DEFAULT_GAMES:,})."),
    seed: Optional[int] = SeedOpt,
    store: Optional[str] = StoreOpt,
    experiment: Optional[str] = ExperimentOpt,
    out_dir: Path = OutOpt,
    workers: Optional[int] = WorkersOpt,
    chunk_size: Optional[int] = ChunkSizeOpt,
    components: Optional[str] = ComponentsOpt,
    quiet: bool = QuietOpt,
    replan: bool = ReplanOpt,
    search: bool = typer.Option(False, "--search",
                                help="Add the game's search rung on top (`playtest rules GAME`), "
                                     "played against the top rung only."),
    search_games: Optional[int] = typer.Option(None, "--search-games",
                                               help=f"Games per arm of the search rung (default "
                                                    f"{settings.LADDER_SEARCH_GAMES}, or --games "
                                                    f"if smaller)."),
):
    """Policies head to head: win rates against the fair share, ratings, HTML report."""
    from .studies import ladder_experiment

    exp = ladder_experiment(game, players, variant, policies, set_ or (),
                            settings.DEFAULT_GAMES if games is None else games,
                            settings.DEFAULT_SEED if seed is None else seed, experiment,
                            chunk_size, components, search, search_games)
    res = _run_and_summarise(exp, store, workers, "local", None, quiet, replan)
    _print_items(ladder_tables(res.store, exp.name, exp.source))
    out.print(f"report: {_study_report(res.store, exp.name, out_dir)}", soft_wrap=True,
              markup=False)


# ---- tune ----------------------------------------------------------------------------------

def _tune_command(game, n, variant, tweaks, policy, params, field_policy, trials, games,
                  validation, seed, step) -> str:
    """The command line that reproduces a tuning run (recorded in its preset)."""
    import shlex

    parts = ["playtest", "tune", game, "--players", str(n)]
    for opt, v in (("--variant", variant), ("--policy", policy), ("--params", params),
                   ("--field", field_policy)):
        if v is not None:
            parts += [opt, v]
    for k, v in tweaks:
        parts += ["--set", f"{k}={v}"]
    parts += ["--trials", str(trials), "--games", str(games), "--validation-games",
              str(validation), "--seed", str(seed), "--step", str(step)]
    return shlex.join(parts)


def _print_tune(res, out_file: Path) -> None:
    """The tuned values against the start's, the training objective, the held-out gain."""
    from analysis import stats

    s = res.setup
    start = s.start_values
    out.print(f"tuned {s.base} for {s.spec.id}, {s.n_players} player"
              f"{'s' if s.n_players > 1 else ''}, variant {s.variant}: {res.trials_run} trials",
              markup=False, soft_wrap=True)
    t = Table()
    for c in ("parameter", "start", "tuned", "range"):
        t.add_column(c, overflow="fold")
    for p in s.params:
        t.add_row(p.name, _fmt(start[p.name]), _fmt(res.best[p.name]), p.range_text())
    out.print(t)
    what = "win probability" if s.n_players == 1 else \
        f"seat win rate against {s.field_policy} (fair share {1 / s.n_players:.1%})"
    out.print(f"training ({s.games_per_seat * s.n_players:,} games per trial): {what} "
              f"{res.train_start:.1%} (start) -> {res.train_best:.1%} (best trial)",
              markup=False, soft_wrap=True)
    v = res.validation
    gain = v["gain"]
    verdict = ("better than the start" if gain.low > 0 else "worse than the start"
               if gain.high < 0 else "no clear difference from the start")
    out.print(f"validation ({v['tuned'].n:,} held-out games each, same games for both): "
              f"tuned {v['tuned'].estimate:.1%} (95% CI {v['tuned'].low:.1%}–"
              f"{v['tuned'].high:.1%}), start {v['start'].estimate:.1%} (95% CI "
              f"{v['start'].low:.1%}–{v['start'].high:.1%})", markup=False, soft_wrap=True)
    out.print(f"gain: {stats.points(gain.estimate)} points (95% CI {stats.points(gain.low)} to "
              f"{stats.points(gain.high)}): {verdict}", markup=False, soft_wrap=True)
    out.print(f"policy: {res.policy}", markup=False, soft_wrap=True)
    out.print(f"preset: {out_file} (use it with --policy @{out_file}); {res.elapsed:.1f} s",
              markup=False, soft_wrap=True)


@app.command("tune")
@guarded
def tune_cmd(
    game: str = typer.Argument(..., help="Game id (see `playtest games`)."),
    players: Optional[int] = OnePlayerCountOpt,
    variant: Optional[str] = VariantOpt,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Rule tweak NAME=VALUE for "
                                             "every game (repeatable)."),
    policy: str = typer.Option(settings.DEFAULT_POLICY, "--policy",
                               help="Start policy: NAME[:k=v,...] or @PRESET.toml."),
    params: Optional[str] = typer.Option(None, "--params",
                                         help="Policy parameters to tune: A,B,... (default: "
                                              "every int and float one; bool and choice ones "
                                              "when named)."),
    field_policy: Optional[str] = typer.Option(None, "--field",
                                               help="Policy of the other seats (default: the "
                                                    "start policy; not for solo)."),
    trials: int = typer.Option(100, "--trials", help="Optuna trials (the start is the first)."),
    games: int = typer.Option(2000, "--games", "-n",
                              help="Training games per trial, split equally over the seats; "
                                   "the same games in every trial."),
    validation: int = typer.Option(10000, "--validation-games",
                                   help="Held-out games (split over the seats) for the gain."),
    seed: Optional[int] = SeedOpt,
    step: float = typer.Option(settings.DEFAULT_TUNE_STEP, "--step",
                               help="CMA-ES's first step, as a fraction of each parameter's "
                                    "range (smaller: a finer search near the start)."),
    out_file: Optional[Path] = typer.Option(None, "--out", "-o",
                                            help="Preset file to write (default "
                                                 "tuned-GAME-Np-POLICY.toml)."),
    quiet: bool = QuietOpt,
):
    """Tune a policy's parameters (Optuna CMA-ES) for its seat's win rate; write a preset."""
    from sim.presets import preset_toml

    from .experiment import parse_set
    from .runner import GameProgress, load_kernels
    from .tune import make_setup, preset_document, seat_arms, tune

    spec = _registry().make(game)
    n = spec.max_players if players is None else players
    seed = settings.DEFAULT_SEED if seed is None else seed
    setup = make_setup(spec, n, variant, policy, field_policy, params, trials, games,
                       validation, seed, step, parse_set(set_ or ()))
    out_file = out_file or Path(f"tuned-{spec.id}-{n}p-{setup.base}.toml")
    if out_file.is_dir() or not out_file.parent.is_dir():
        raise SpecError(f"--out {out_file}: give a file in an existing directory")
    load_kernels(seat_arms(setup, setup.start), quiet)
    total = n * (trials * setup.games_per_seat + 2 * setup.validation_per_seat)
    bar = GameProgress(total, quiet, f"tune {spec.id} {n}p")
    try:
        res = tune(setup, bar.advance)
    finally:
        bar.close()
    command = _tune_command(spec.id, n, variant, setup.tweaks, policy, params, field_policy,
                            trials, games, validation, seed, step)
    out_file.write_text(preset_toml(preset_document(res, command)), encoding="utf-8")
    _print_tune(res, out_file)


# ---- replay ------------------------------------------------------------------------------

@app.command("replay")
@guarded
def replay_cmd(
    game: str = typer.Argument(..., help="Game id."),
    seed: int = typer.Option(..., "--seed", help="Master seed of the run."),
    game_index: int = typer.Option(0, "--game-index", "-i", help="Game index within the run."),
    players: Optional[str] = typer.Option(None, "--players", "-p", help="Player count (default: the maximum)."),
    variant: Optional[str] = VariantOpt,
    set_: Optional[List[str]] = SetOpt,
    policy: Optional[str] = PolicyOpt,
    seat_policy: Optional[List[str]] = SeatPolicyOpt,
    components: Optional[str] = ComponentsOpt,
):
    """A readable turn-by-turn log of one game (same seed/index = same game as in `run`)."""
    from sim.batch import game_text, replay

    from . import experiment as ex

    spec = _registry().make(game)
    counts = ex.parse_players(players if players is not None else spec.max_players, spec)
    if len(counts) != 1:
        raise SpecError(f"--players: replay needs one player count, got {players!r}")
    ex.check_seed(seed)
    if game_index < 0:
        raise SpecError(f"--game-index: must be >= 0, got {game_index}")
    cfg = ex.ArmConfig("replay", spec.id, counts[0], variant, ex.parse_set(set_ or ()),
                       policy or settings.DEFAULT_POLICY,
                       ex.parse_seat_policies(seat_policy or ()), components)
    arm = ex.resolve_arm(cfg, 1).arm
    evs, g, s = replay(arm, seed, game_index)

    out.print(f"[bold]{spec.title}[/] ({spec.id} v{spec.version}) — {arm.n_players} players, "
              f"variant {arm.variant}, seed {seed}, game index {game_index}")
    changed = {k: v for k, v in arm.rule_values.items()
               if v != next(p.default for p in spec.params if p.name == k)}
    out.print("rules: " + (", ".join(f"{k}={_fmt(v)}" for k, v in changed.items())
                           if changed else "defaults"), soft_wrap=True)
    out.print("policies: " + ", ".join(f"seat {i}={p}" for i, p in enumerate(arm.policies)))
    comp = arm.components
    out.print(f"components: {comp.source_dir} (digest {comp.digest}"
              + (", includes assumed data" if comp.assumed else "") + ")")
    out.print()
    for line in game_text(arm, evs, g):
        out.print(line, soft_wrap=True, markup=False)
    # one column per seat, one row per statistic: fits any number of game-specific stats
    t = Table(title="Final scores")
    t.add_column("")
    for seat in range(arm.n_players):
        t.add_column(f"seat {seat}", justify="right")
    t.add_row("policy", *arm.policy_names)
    for j, c in enumerate(spec.seat_column_names):
        vals = [int(s[seat, j]) for seat in range(arm.n_players)]
        t.add_row(c, *(("yes" if v else "no") if c == "won" else str(v) for v in vals))
    out.print(t)


# ---- sql / report ------------------------------------------------------------------------

@app.command("sql")
@guarded
def sql_cmd(
    query: str = typer.Argument(..., help="SQL over the views games, seats, experiments."),
    store: Optional[str] = StoreOpt,
    format: str = typer.Option("table", "--format", "-f", help="table | csv | parquet"),
    out_file: Optional[Path] = typer.Option(None, "--out", "-o", help="Output file (needed for parquet)."),
    max_rows: int = typer.Option(200, "--max-rows", help="Rows shown by --format table."),
):
    """Query the store with DuckDB (views games, seats, experiments), read-only: one SELECT."""
    import duckdb

    from analysis.db import connect

    if format not in ("table", "csv", "parquet"):
        raise SpecError(f"--format: unknown format '{format}'; valid: table, csv, parquet")
    if format == "parquet" and out_file is None:
        raise SpecError("--format parquet needs --out FILE")
    root = settings.store_root(store)
    if out_file is not None:
        _check_out_file(out_file, root)
    con = connect(root, read_only=True)
    n_exp = len(list((Path(root) / "experiments").glob("*.json")))
    err.print(f"store: {root} ({n_exp} experiment{'' if n_exp == 1 else 's'})"
              + ("" if n_exp else "; nothing to query yet: run `playtest run GAME` or give "
                 "--store DIR"), markup=False, soft_wrap=True)
    try:
        _check_read_only_query(con, query)
        rel = con.sql(query)
        if rel is None:
            return
        if format != "table" and (format == "parquet" or out_file is not None):
            _write_result(rel.arrow(), format, out_file)
            return
        if format == "csv":
            import pyarrow.csv as pacsv

            pacsv.write_csv(_arrow_table(rel.arrow()), sys.stdout.buffer)
            return
        cols = rel.columns
        rows = rel.limit(max_rows + 1).fetchall()
        if out_file is not None:
            _write_result(rel.arrow(), "csv", out_file)
    except duckdb.Error as e:
        raise SpecError(f"SQL: {e}") from None
    t = Table()
    for c in cols:
        t.add_column(c, overflow="fold")
    for r in rows[:max_rows]:
        t.add_row(*("" if v is None else _fmt(v) for v in r))
    out.print(t)
    if len(rows) > max_rows:
        err.print(f"(more rows; showing {max_rows}: use --max-rows, --format csv or LIMIT)")


# Statements `playtest sql` runs: queries only (DESCRIBE, SHOW, SUMMARIZE parse as SELECT).
READ_ONLY_STATEMENTS = ("SELECT", "EXPLAIN")


def _check_read_only_query(con, query: str) -> None:
    """One query statement, or SpecError: the store is never written through ``sql``."""
    kinds = [st.type.name for st in con.extract_statements(query)]
    if len(kinds) != 1:
        raise SpecError(f"SQL: give exactly one statement, not {len(kinds)}")
    if kinds[0] not in READ_ONLY_STATEMENTS:
        raise SpecError(f"SQL: {kinds[0]} statements are not allowed; `playtest sql` is "
                        f"read-only (valid: a SELECT query; write results with --out FILE)")


def _check_out_file(out_file: Path, root: Path) -> None:
    """--out must be a new or regular file outside the store."""
    target = out_file.expanduser().resolve()
    if target.is_relative_to(root.expanduser().resolve()):
        raise SpecError(f"--out {out_file}: inside the store {root}; write results elsewhere")
    if target.is_dir():
        raise SpecError(f"--out {out_file}: is a directory; give a file name")
    if not target.parent.is_dir():
        raise SpecError(f"--out {out_file}: directory {target.parent} does not exist")


def _arrow_table(result):
    return result.read_all() if hasattr(result, "read_all") else result


def _write_result(result, format: str, out_file: Path) -> None:
    """Write a query result (Arrow) to ``out_file`` in Python: the DuckDB connection itself
    can write no file."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    table = _arrow_table(result)
    try:
        if format == "parquet":
            pq.write_table(table, out_file)
        else:
            pacsv.write_csv(table, out_file)
    except OSError as e:
        raise SpecError(f"--out {out_file}: cannot write ({e.strerror or e})") from None
    err.print(f"wrote {out_file}")


def _write_report(store_root: Path, experiment: str, out_dir: Path) -> Path:
    if importlib.util.find_spec("analysis.reports") is None:
        raise CLIError("analysis.reports is not available yet (the report writer is in progress)")
    reports = importlib.import_module("analysis.reports")
    return Path(reports.write_report(store_root, experiment, out_dir))


@app.command("report")
@guarded
def report_cmd(
    experiment: str = typer.Argument(..., help="Experiment name (see `playtest sql \"SELECT * FROM experiments\"`)."),
    store: Optional[str] = StoreOpt,
    out_dir: Path = typer.Option(Path("reports"), "--out", "-o", help="Output directory."),
):
    """Write a self-contained HTML report of one experiment."""
    from .store import Store

    root = settings.store_root(store)
    if out_dir.exists() and not out_dir.is_dir():
        raise SpecError(f"--out {out_dir}: is a file; give a directory for the report")
    known = Store(root).experiments()
    if experiment not in known:
        raise SpecError(f"unknown experiment '{experiment}' in store {root}; "
                        + (_did_you_mean(experiment, known) if known
                           else "valid: (none yet: run `playtest run` first)"))
    path = _write_report(root, experiment, out_dir)
    out.print(f"report: {path}")


# ---- list / show ---------------------------------------------------------------------------

def _arm_summary(arm: dict) -> dict:
    """One manifest arm in words: players, variant, tweaks and policies."""
    tweaks = arm.get("tweaks") or {}
    pols = [p.get("spec") or p.get("policy") if isinstance(p, dict) else p
            for p in arm.get("policies") or []]
    return {"players": str(arm.get("n_players", "?")), "variant": str(arm.get("variant") or ""),
            "tweaks": ", ".join(f"{k}={v}" for k, v in tweaks.items()) if isinstance(tweaks, dict)
            else str(tweaks),
            "policies": ", ".join(dict.fromkeys(map(str, pols)))}


@app.command("list")
@guarded
def list_cmd(store: Optional[str] = StoreOpt):
    """Experiments in the store: game, players, variants, tweaks, policies, games, status."""
    from .store import Store

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


@app.command("show")
@guarded
def show_cmd(experiment: str = typer.Argument(..., help="Experiment name (see `playtest list`)."),
             store: Optional[str] = StoreOpt):
    """One experiment: its arms in words, then its result table by the game's balance factor."""
    from .store import Store

    root = settings.store_root(store)
    st = Store(root)
    m = st.read_manifest(experiment)
    if m is None:
        raise SpecError(f"unknown experiment '{experiment}' in store {root}; "
                        + _did_you_mean(experiment, st.experiments()))
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
        _print_items(ladder_tables(root, experiment, src))
    elif game in _registry().available_games():
        for table in win_rate_tables(root, experiment, game, factor_only=True):
            out.print(table)
    out.print(f"report: playtest report {experiment}" + (f" --store {store}" if store else ""),
              soft_wrap=True, markup=False)


def _did_you_mean(name: str, valid) -> str:
    """``did you mean 'x'?`` for the closest valid name (difflib), then the valid names."""
    import difflib

    valid = list(valid)
    close = difflib.get_close_matches(name, valid, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return hint + ("valid: " + ", ".join(valid) if valid else "(none yet)")


# ---- demo --------------------------------------------------------------------------------

def win_rate_tables(store_root: Path, experiment: str, game: str,
                    factor_only: bool = False) -> list[Table]:
    """Win rate (mean win_share, Wilson 95%) by seat and player count, and by the game's balance
    factor (``GameSpec.balance_factor``, e.g. Flower Shop initiative dice) when not the seat;
    ``factor_only``: by the balance factor alone (the result table ending ``playtest run``)."""
    from analysis import db

    from analysis.db import connect

    con = connect(store_root)
    tables = []
    factor = _registry().make(game).balance_factor
    by = [] if factor_only and not factor.is_seat else [
        ("seat", db.seat_win_rates(con, experiment).rename(columns={"seat": "value"}), ())]
    if not factor.is_seat:
        by.append((factor.name, db.win_rate_by(con, experiment, factor.column), factor.labels))
    for col, df, labels in by:
        df = df[df["n_players"] > 1] if len(df) else df
        if df.empty:
            continue
        t = Table(title=f"Win rate by {col} ({experiment})")
        arms = int(df.groupby("n_players")["arm"].nunique().max()) > 1  # e.g. --also-policy
        for c in ("players",) + (("arm",) if arms else ()) + (col, "games", "win rate",
                                                               "95% CI", "fair share"):
            t.add_column(c, justify="right")
        for r in df.sort_values(["n_players", "arm", "value"]).itertuples():
            v = int(r.value)
            t.add_row(str(r.n_players), *((r.arm,) if arms else ()),
                      labels[v] if 0 <= v < len(labels) else str(v),
                      f"{int(r.n_games):,}", f"{r.win_rate:.3f}", f"[{r.low:.3f}, {r.high:.3f}]",
                      f"{1 / r.n_players:.3f}")
        tables.append(t)
    return tables


@app.command("demo")
@guarded
def demo_cmd(
    store: Optional[str] = StoreOpt,
    games: int = typer.Option(settings.DEMO_GAMES, "--games", "-n", help="Games per player count."),
    workers: Optional[int] = WorkersOpt,
    out_dir: Path = OutOpt,
    quiet: bool = QuietOpt,
):
    """The demo: Flower Shop, 2-4 players, greedy, seed 1; seat win rates and a report."""
    from . import experiment as ex

    players = f"{min(settings.DEMO_PLAYERS)}-{max(settings.DEMO_PLAYERS)}"
    exp = ex.from_cli(settings.DEMO_GAME, players=players, policy=settings.DEMO_POLICY,
                      games=games, seed=settings.DEMO_SEED)
    res = _run_and_summarise(exp, store, workers, "local", None, quiet)
    for table in win_rate_tables(res.store, exp.name, settings.DEMO_GAME):
        out.print(table)
    try:
        path = _write_report(res.store, exp.name, out_dir)
        out.print(f"report: {path}")
    except CLIError as e:
        err.print(f"note: no report ({e})")


def main():  # console script entry point
    app()


if __name__ == "__main__":
    main()
