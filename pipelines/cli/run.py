"""``playtest run`` (simulate into the store) and ``playtest replay`` (one game, turn by turn)."""
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import settings
from . import options as opts
from .common import fmt, guarded, out, registry
from .running import RunSettings, check_precision_options
from .tables import win_rate_tables


@guarded
def run_cmd(
    game: Annotated[Optional[str], typer.Argument(help="Game id (or use --spec).")] = None,
    players: opts.Players = None,
    variant: opts.Variant = None,
    set_: opts.Set = None,
    policy: opts.Policy = None,
    also_policy: opts.AlsoPolicy = None,
    seat_policy: opts.SeatPolicy = None,
    games: opts.RunGames = None,
    seed: opts.Seed = None,
    spec: Annotated[Optional[Path], typer.Option(
        "--spec", help="TOML experiment spec with several arms.")] = None,
    store: opts.Store = None,
    experiment: opts.RunExperiment = None,
    workers: opts.RunWorkers = None,
    executor: opts.Executor = "local",
    scheduler: opts.Scheduler = None,
    chunk_size: opts.RunChunkSize = None,
    components: opts.Components = None,
    precision: opts.Precision = None,
    max_games: opts.MaxGames = None,
    quiet: opts.Quiet = False,
    replan: opts.Replan = False,
    trace: opts.Trace = None,
):
    """Simulate games into the store (resumes/grows an existing experiment)."""
    from sim.spec import SpecError

    from .. import experiment as ex

    check_precision_options(precision, max_games)

    if spec is not None:
        given = [n for n, v in (("GAME", game), ("--players", players), ("--variant", variant),
                                ("--set", set_), ("--policy", policy),
                                ("--also-policy", also_policy),
                                ("--seat-policy", seat_policy), ("--components", components)) if v]
        if given:
            raise SpecError(f"--spec defines the arms; remove {', '.join(given)} "
                            f"(--games, --seed, --experiment, --chunk-size may override the spec)")
        exp = ex.from_toml(spec, games=games, seed=seed, experiment=experiment,
                           chunk_size=chunk_size, trace=trace,
                           default_trace=settings.DEFAULT_TRACE)
    else:
        if not game:
            raise SpecError("give a GAME or --spec FILE.toml; games: "
                            + ", ".join(registry().available_games()))
        exp = ex.from_cli(game, players, variant, set_ or (), policy, seat_policy or (),
                          settings.DEFAULT_GAMES if games is None else games,
                          settings.DEFAULT_SEED if seed is None else seed,
                          experiment, chunk_size, components, also_policy or (),
                          trace=trace, default_trace=settings.DEFAULT_TRACE)
    how = RunSettings(store, workers, executor, scheduler, quiet, replan)
    res = how.simulate(exp, precision, max_games, start_small=games is None and spec is None)
    for table in win_rate_tables(res.store, exp.name, exp.arms[0].game, factor_only=True):
        out.print(table)
    out.print(f"report: playtest report {exp.name}" + (f" --store {store}" if store else ""),
              soft_wrap=True, markup=False)
    if any(res.trace.values()):
        out.print(f"how it plays: playtest insights {exp.name}"
                  + (f" --store {store}" if store else "")
                  + (f" (traced {res.traced:,} games now)" if res.traced else ""),
                  soft_wrap=True, markup=False)


@guarded
def replay_cmd(
    game: Annotated[str, typer.Argument(help="Game id.")],
    seed: Annotated[int, typer.Option("--seed", help="Master seed of the run.")],
    game_index: Annotated[int, typer.Option(
        "--game-index", "-i", help="Game index within the run.")] = 0,
    players: opts.ReplayPlayers = None,
    variant: opts.Variant = None,
    set_: opts.Set = None,
    policy: opts.Policy = None,
    seat_policy: opts.SeatPolicy = None,
    components: opts.Components = None,
):
    """A readable turn-by-turn log of one game (same seed/index = same game as in `run`)."""
    from sim.batch import game_text, replay
    from sim.spec import SpecError

    from .. import experiment as ex

    spec = registry().make(game)
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
    out.print("rules: " + (", ".join(f"{k}={fmt(v)}" for k, v in changed.items())
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
