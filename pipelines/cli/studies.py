"""The studies: ``playtest compare`` (tweak vs baseline, paired), ``sweep`` (metrics over a
parameter), ``plan`` (games needed), ``ladder`` (policies head to head) and ``tune`` (a policy's
parameters). Each builds its experiment (:mod:`pipelines.studies`, :mod:`pipelines.tune`), runs
it, prints its tables and writes its report."""
import importlib
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.table import Table

from analysis.words import count, plural

from .. import settings
from . import options as opts
from .common import check_report_dir, fmt, guarded, out, print_items, registry
from .running import RunSettings, check_precision_options, plan_counts, use_legacy_name
from .tables import compare_items, ladder_tables, sweep_items


def _study_report(store_root, experiment, out_dir, **extra) -> Path:
    reports = importlib.import_module("analysis.reports")
    return Path(reports.write_study_report(store_root, experiment, out_dir, **extra))


def _print_report(store_root, experiment, out_dir, **extra) -> None:
    out.print(f"report: {_study_report(store_root, experiment, out_dir, **extra)}",
              soft_wrap=True, markup=False)


# ---- compare -----------------------------------------------------------------------------------

@guarded
def compare_cmd(
    game: opts.Game,
    set_: opts.TweakSet = None,
    tweak_seat_policy: opts.TweakSeatPolicy = None,
    players: opts.StudyPlayers = None,
    variant: opts.Variant = None,
    policy: opts.Policy = None,
    also_policy: opts.AlsoPolicy = None,
    also_games: opts.AlsoGames = None,
    budget: opts.Budget = None,
    seat_policy: opts.BothArmsSeatPolicy = None,
    games: opts.StudyGames = None,
    seed: opts.Seed = None,
    precision: opts.Precision = None,
    max_games: opts.MaxGames = None,
    store: opts.Store = None,
    experiment: opts.Experiment = None,
    out_dir: opts.Out = opts.REPORTS_DIR,
    workers: opts.Workers = None,
    chunk_size: opts.ChunkSize = None,
    components: opts.Components = None,
    quiet: opts.Quiet = False,
    replan: opts.Replan = False,
):
    """Tweak vs baseline on the same seeds: paired differences with 95% intervals, HTML report.

    Each --also-policy plays the pair again under that policy; --also-games NAME=N or
    --budget DURATION give its pair fewer games (both arms the same first N games), e.g.
    `playtest compare rattlebones -p 2 --set seat_bonus_gold=[0,1] --also-policy search
    --also-games search=400` (or `--budget 10m`)."""
    from ..budget import check_options
    from ..studies import compare_experiment

    check_report_dir(out_dir, store)
    check_precision_options(precision, max_games)
    budget_s = check_options(also_policy, also_games, budget, precision)
    exp = compare_experiment(game, set_ or (), players, variant, policy, seat_policy or (),
                             tweak_seat_policy or (),
                             settings.DEFAULT_GAMES if games is None else games,
                             settings.DEFAULT_SEED if seed is None else seed, experiment,
                             chunk_size, components, also_policy or (), also_games or ())
    how = RunSettings(store, workers, quiet=quiet, replan=replan)
    use_legacy_name(exp, store)
    if precision is None:
        plan_counts(exp, how, budget_s)
    res = how.simulate(exp, precision, max_games, start_small=games is None)
    from ..store import Store

    stored = (Store(res.store).read_manifest(exp.name) or {}).get("spec") or {}
    # the manifest's pairs: also those an earlier --also-policy left in the store
    print_items(compare_items(res.store, exp.name, stored.get("pairs") or exp.source["pairs"]))
    _print_report(res.store, exp.name, out_dir)


# ---- sweep -------------------------------------------------------------------------------------

@guarded
def sweep_cmd(
    game: opts.Game,
    param: Annotated[Optional[List[str]], typer.Option(
        "--param", help="NAME=v1,v2,... or NAME=lo..hi[:step] (once, or twice for a grid).")
    ] = None,
    players: opts.StudyPlayers = None,
    variant: opts.Variant = None,
    set_: opts.SweepSet = None,
    policy: opts.Policy = None,
    seat_policy: opts.SeatPolicy = None,
    games: opts.StudyGames = None,
    seed: opts.Seed = None,
    tolerance: Annotated[float, typer.Option(
        "--tolerance", help="Seats within 1/N ± this count as balanced.")] = 0.02,
    precision: opts.Precision = None,
    max_games: opts.MaxGames = None,
    store: opts.Store = None,
    experiment: opts.Experiment = None,
    out_dir: opts.Out = opts.REPORTS_DIR,
    workers: opts.Workers = None,
    chunk_size: opts.ChunkSize = None,
    components: opts.Components = None,
    quiet: opts.Quiet = False,
    replan: opts.Replan = False,
):
    """Metrics over a parameter (or a 2-parameter grid): curves with 95% bands, balanced points."""
    from ..studies import sweep_experiment

    check_report_dir(out_dir, store)
    check_precision_options(precision, max_games)
    exp = sweep_experiment(game, param or (), players, variant, set_ or (), policy,
                           seat_policy or (), settings.DEFAULT_GAMES if games is None else games,
                           settings.DEFAULT_SEED if seed is None else seed, experiment,
                           chunk_size, components, tolerance)
    res = RunSettings(store, workers, quiet=quiet, replan=replan).simulate(
        exp, precision, max_games, start_small=games is None)
    print_items(sweep_items(res.store, exp.name, exp.source))
    _print_report(res.store, exp.name, out_dir)


# ---- plan --------------------------------------------------------------------------------------

@guarded
def plan_cmd(
    game: opts.Game,
    detect: Annotated[float, typer.Option(
        "--detect", help="Difference in seat win rate to detect, e.g. 0.01.")],
    players: opts.StudyPlayers = None,
    variant: opts.Variant = None,
    set_: opts.PlanSet = None,
    tweak_seat_policy: opts.TweakSeatPolicy = None,
    policy: opts.Policy = None,
    seat_policy: opts.SeatPolicy = None,
    pilot_games: Annotated[int, typer.Option(
        "--pilot-games", help="Games per arm of the pilot run.")] = 5000,
    power: Annotated[float, typer.Option("--power", help="Power (default 0.8).")] = 0.8,
    seed: opts.Seed = None,
    store: opts.Store = None,
    out_dir: opts.Out = opts.REPORTS_DIR,
    workers: opts.Workers = None,
    components: opts.Components = None,
    quiet: opts.Quiet = False,
):
    """Games needed to detect a difference in seat win rate (95% confidence), from a pilot run."""
    from analysis import summary
    from sim.spec import SpecError

    from .. import experiment as ex
    from ..studies import check_delta, compare_experiment

    check_report_dir(out_dir, store)
    delta = check_delta(detect)
    if not 0.5 <= power < 1:
        raise SpecError(f"--power: must be in [0.5, 1), got {power}")
    ex.check_games(pilot_games, "--pilot-games")
    seed = settings.DEFAULT_SEED if seed is None else seed
    if set_ or tweak_seat_policy:
        exp = compare_experiment(game, set_ or (), players, variant, policy, seat_policy or (),
                                 tweak_seat_policy or (), pilot_games, seed, None, None, components)
    else:
        spec = registry().make(game)
        exp = ex.from_cli(game, str(spec.max_players) if players is None else players, variant,
                          (), policy, seat_policy or (), pilot_games, seed, None, None, components)
    res = RunSettings(store, workers, quiet=quiet).run(exp)
    from analysis.studies import balance_factor

    factor_name = balance_factor(game).name
    for block in summary.plan_blocks(res.store, exp.name, exp.source, delta, power):
        t = Table(title=f"Games needed to detect ±{100 * delta:g} "
                        f"{plural(100 * delta, 'point')} of win rate "
                        f"({block['title']}; 95% confidence, {power:.0%} power)")
        for c in (factor_name, "pilot win rate", "vs fair share (one arm)", "two arms, unpaired",
                  "two arms, paired (CRN)"):
            t.add_column(c, justify="right")
        for r in block["rows"]:
            t.add_row(r["label"], r["rate"], r["vs_fair"], r["unpaired"], r["paired"])
        out.print(t)
    _print_report(res.store, exp.name, out_dir, plan={"delta": delta, "power": power})


# ---- ladder ------------------------------------------------------------------------------------

@guarded
def ladder_cmd(
    game: opts.Game,
    players: opts.OnePlayerCount = None,
    policies: Annotated[Optional[str], typer.Option(
        "--policies", help="Rungs, weakest first: A,B,C (NAME[:k=v,...] or @PRESET.toml; "
                           "default: the game's declared ladder).")] = None,
    variant: opts.Variant = None,
    set_: opts.GameSet = None,
    games: opts.LadderGames = None,
    seed: opts.Seed = None,
    store: opts.Store = None,
    experiment: opts.Experiment = None,
    out_dir: opts.Out = opts.REPORTS_DIR,
    workers: opts.Workers = None,
    chunk_size: opts.ChunkSize = None,
    components: opts.Components = None,
    quiet: opts.Quiet = False,
    replan: opts.Replan = False,
    search: Annotated[bool, typer.Option(
        "--search", help="Add the game's search rung on top (`playtest rules GAME`), played "
                         "against the top rung only.")] = False,
    search_games: Annotated[Optional[int], typer.Option(
        "--search-games", help=f"Games per arm of the search rung (default "
                               f"{settings.LADDER_SEARCH_GAMES}, or --games if smaller).")
    ] = None,
):
    """Policies head to head: win rates against the fair share, ratings, HTML report."""
    from ..studies import ladder_experiment

    check_report_dir(out_dir, store)
    exp = ladder_experiment(game, players, variant, policies, set_ or (),
                            settings.DEFAULT_GAMES if games is None else games,
                            settings.DEFAULT_SEED if seed is None else seed, experiment,
                            chunk_size, components, search, search_games)
    res = RunSettings(store, workers, quiet=quiet, replan=replan).run(exp)
    print_items(ladder_tables(res.store, exp.name, exp.source))
    _print_report(res.store, exp.name, out_dir)


# ---- tune --------------------------------------------------------------------------------------

def _tune_command(game, players, variant, tweaks, policy, params, field_policy, trials, games,
                  validation, seed, step) -> str:
    """The command line that reproduces a tuning run (recorded in its preset)."""
    import shlex

    parts = ["playtest", "tune", game, "--players", players]
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
    out.print(f"tuned {s.base} for {s.spec.id}, {s.players_text} players, variant "
              f"{s.variant}: {count(res.trials_run, 'trial')}",
              markup=False, soft_wrap=True)
    t = Table()
    for c in ("parameter", "start", "tuned", "range"):
        t.add_column(c, overflow="fold")
    for p in s.params:
        t.add_row(p.name, fmt(start[p.name]), fmt(res.best[p.name]), p.range_text())
    out.print(t)
    if len(s.counts) > 1:
        out.print(f"training ({s.games_per_trial:,} games per trial, {s.games:,} at each count): the mean "
                  f"over {s.players_text} players of the seat win rate against {s.field_policy} "
                  f"divided by its fair share (1.00 = fair) {res.train_start:.2f} (start) -> "
                  f"{res.train_best:.2f} (best trial)", markup=False, soft_wrap=True)
    else:
        n = s.counts[0]
        what = "win probability" if n == 1 else \
            f"seat win rate against {s.field_policy} (fair share {1 / n:.1%})"
        out.print(f"training ({s.games_per_trial:,} games per trial): {what} "
                  f"{res.train_start:.1%} (start) -> {res.train_best:.1%} (best trial)",
                  markup=False, soft_wrap=True)
    for n in s.counts:
        v = res.validation[n]
        gain = v["gain"]
        verdict = ("better than the start" if gain.low > 0 else "worse than the start"
                   if gain.high < 0 else "no clear difference from the start")
        at = f"{n} players, " if len(s.counts) > 1 else ""
        out.print(f"validation ({at}{v['tuned'].n:,} held-out games each, same games for both): "
                  f"tuned {v['tuned'].estimate:.1%} (95% CI {v['tuned'].low:.1%}–"
                  f"{v['tuned'].high:.1%}), start {v['start'].estimate:.1%} (95% CI "
                  f"{v['start'].low:.1%}–{v['start'].high:.1%})", markup=False, soft_wrap=True)
        out.print(f"gain: {stats.points(gain.estimate)} points (95% CI {stats.points(gain.low)} "
                  f"to {stats.points(gain.high)}): {verdict}", markup=False, soft_wrap=True)
    out.print(f"policy: {res.policy}", markup=False, soft_wrap=True)
    out.print(f"preset: {out_file} (use it with --policy @{out_file}); {res.elapsed:.1f} s",
              markup=False, soft_wrap=True)


@guarded
def tune_cmd(
    game: opts.Game,
    players: opts.TunePlayers = None,
    variant: opts.Variant = None,
    set_: opts.GameSet = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="Start policy: NAME[:k=v,...] or @PRESET.toml.")
    ] = settings.DEFAULT_POLICY,
    params: Annotated[Optional[str], typer.Option(
        "--params", help="Policy parameters to tune: A,B,... (default: every int and float "
                         "one; bool and choice ones when named).")] = None,
    field_policy: Annotated[Optional[str], typer.Option(
        "--field", help="Policy of the other seats (default: the start policy; not for "
                        "solo).")] = None,
    trials: Annotated[int, typer.Option(
        "--trials", help="Optuna trials (the start is the first).")] = 100,
    games: opts.TuneGames = 2000,
    validation: Annotated[int, typer.Option(
        "--validation-games", help="Held-out games (split over the seats) for the gain.")
    ] = 10000,
    seed: opts.Seed = None,
    step: Annotated[float, typer.Option(
        "--step", help="CMA-ES's first step, as a fraction of each parameter's range "
                       "(smaller: a finer search near the start).")
    ] = settings.DEFAULT_TUNE_STEP,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Preset file to write (default tuned-GAME-Np-POLICY.toml); never "
                            "an existing one without --force.")
    ] = None,
    force: opts.Force = False,
    quiet: opts.Quiet = False,
):
    """Tune a policy's parameters (Optuna CMA-ES) for its seat's win rate; write a preset."""
    from sim.presets import preset_toml
    from sim.spec import SpecError

    from ..experiment import parse_players, parse_set
    from ..runner import GameProgress, load_kernels
    from ..tune import make_setup, preset_document, seat_arms, tune

    spec = registry().make(game)
    counts = [spec.max_players] if players is None else parse_players(players, spec)
    seed = settings.DEFAULT_SEED if seed is None else seed
    setup = make_setup(spec, tuple(counts), variant, policy, field_policy, params, trials, games,
                       validation, seed, step, parse_set(set_ or ()))
    out_file = out_file or Path(f"tuned-{spec.id}-{setup.players_text}p-{setup.base}.toml")
    if out_file.is_dir() or not out_file.parent.is_dir():
        raise SpecError(f"--out {out_file}: give a file in an existing directory")
    if out_file.exists() and not force:
        raise SpecError(f"--out {out_file}: the file exists; give another name, or --force to "
                        f"overwrite it")
    load_kernels([a for n in setup.counts for a in seat_arms(setup, setup.start, n)], quiet)
    bar = GameProgress(setup.total_games(), quiet, f"tune {spec.id} {setup.players_text}p")
    try:
        res = tune(setup, bar.advance)
    finally:
        bar.close()
    command = _tune_command(spec.id, setup.players_text, variant, setup.tweaks, policy, params,
                            field_policy, trials, games, validation, seed, step)
    out_file.write_text(preset_toml(preset_document(res, command)), encoding="utf-8")
    _print_tune(res, out_file)
