"""``playtest run`` (simulate into the store) and ``playtest replay`` (games turn by turn)."""
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from analysis.words import count

from .. import settings
from . import options as opts
from .common import fmt, guarded, out, print_items, registry
from .running import RunSettings, check_precision_options, plan_counts, use_legacy_name
from .tables import result_items


@guarded
def run_cmd(
    game: Annotated[Optional[str], typer.Argument(help="Game id (or use --spec).")] = None,
    players: opts.Players = None,
    variant: opts.Variant = None,
    set_: opts.Set = None,
    policy: opts.Policy = None,
    also_policy: opts.AlsoPolicy = None,
    also_games: opts.AlsoGames = None,
    budget: opts.Budget = None,
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

    from ..budget import check_options

    check_precision_options(precision, max_games)
    budget_s = check_options(also_policy, also_games, budget, precision)

    if spec is not None:
        given = [n for n, v in (("GAME", game), ("--players", players), ("--variant", variant),
                                ("--set", set_), ("--policy", policy),
                                ("--also-policy", also_policy), ("--also-games", also_games),
                                ("--budget", budget),
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
                          trace=trace, default_trace=settings.DEFAULT_TRACE,
                          also_games=also_games or ())
    how = RunSettings(store, workers, executor, scheduler, quiet, replan)
    if spec is None:
        use_legacy_name(exp, store)
        if precision is None:
            plan_counts(exp, how, budget_s)
    res = how.simulate(exp, precision, max_games, start_small=games is None and spec is None)
    print_items(result_items(res.store, exp.name, exp.source, [a.game for a in exp.arms]))
    out.print(f"report: playtest report {exp.name}" + (f" --store {store}" if store else ""),
              soft_wrap=True, markup=False)
    if any(res.trace.values()):
        out.print(f"how it plays: playtest insights {exp.name}"
                  + (f" --store {store}" if store else "")
                  + (f" (traced {res.traced:,} games now)" if res.traced else ""),
                  soft_wrap=True, markup=False)


#: Most games one ``replay`` call plays (``--game-index 0-9999``).
MAX_REPLAYS = 10_000


def parse_indices(text: str) -> list[int]:
    """``--game-index``: ``7``, ``0-99`` or ``0,5,10-12`` -> the game indices, in order, each
    once (SpecError on anything else)."""
    from sim.spec import SpecError

    def bad(why: str) -> SpecError:
        return SpecError(f"--game-index: {why}; give I, FIRST-LAST or a comma list "
                         f"(e.g. 0-99), got {text!r}")

    import re

    out_: list[int] = []
    for part in str(text).replace(" ", "").split(","):
        m = re.fullmatch(r"([0-9]+)(?:-([0-9]+))?", part)
        if m is None:
            raise bad("game indices are whole numbers >= 0")
        a = int(m[1])
        b = int(m[2]) if m[2] is not None else a
        if b > settings.MAX_SEED:
            raise bad(f"game indices go up to {settings.MAX_SEED:,}")
        if b < a:
            raise bad(f"{a}-{b} runs backwards")
        if len(out_) + b - a + 1 > MAX_REPLAYS:
            raise bad(f"at most {MAX_REPLAYS:,} games per call")
        out_.extend(range(a, b + 1))
    return list(dict.fromkeys(out_))


def replay_text(arm, seed: int, game_index: int, evs, g, s) -> str:
    """The text ``playtest replay`` prints for one game (and writes to a file with --out):
    header, rules, policies, components, the turn-by-turn log and the final scores."""
    import io

    from rich.console import Console

    from sim.batch import game_text

    spec = arm.spec
    buf = io.StringIO()
    con = Console(file=buf, width=200, color_system=None, highlight=False, emoji=False,
                  markup=False, soft_wrap=True)
    con.print(f"{spec.title} ({spec.id} v{spec.version}) — {count(arm.n_players, 'player')}, "
              f"variant {arm.variant}, seed {seed}, game index {game_index}")
    changed = {k: v for k, v in arm.rule_values.items()
               if v != next(p.default for p in spec.params if p.name == k)}
    con.print("rules: " + (", ".join(f"{k}={fmt(v)}" for k, v in changed.items())
                           if changed else "defaults"))
    con.print("policies: " + ", ".join(f"seat {i}={p}" for i, p in enumerate(arm.policies)))
    comp = arm.components
    con.print(f"components: {comp.source_dir} (digest {comp.digest}"
              + (", includes assumed data" if comp.assumed else "") + ")")
    con.print()
    for line in game_text(arm, evs, g):
        con.print(line)
    # one column per seat, one row per statistic: fits any number of game-specific stats
    t = Table(title="Final scores")
    t.add_column("")
    for seat in range(arm.n_players):
        t.add_column(f"seat {seat}", justify="right")
    t.add_row("policy", *arm.policy_names)
    for j, c in enumerate(spec.seat_column_names):
        vals = [int(s[seat, j]) for seat in range(arm.n_players)]
        t.add_row(c, *(("yes" if v else "no") if c == "won" else str(v) for v in vals))
    con.print(t, soft_wrap=False)
    return buf.getvalue()


@guarded
def replay_cmd(
    game: Annotated[str, typer.Argument(help="Game id.")],
    seed: opts.Seed = None,
    game_index: Annotated[str, typer.Option(
        "--game-index", "-i", help="Game index within the run: I, FIRST-LAST or a comma list "
                                   "(e.g. 0-99: one game after another, or one file each "
                                   "with --out).")] = "0",
    out_dir: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Directory: write one text file per game instead of printing "
                            "(never over an existing file without --force).")
    ] = None,
    force: opts.Force = False,
    players: opts.ReplayPlayers = None,
    variant: opts.Variant = None,
    set_: opts.Set = None,
    policy: opts.Policy = None,
    seat_policy: opts.SeatPolicy = None,
    components: opts.Components = None,
):
    """Readable turn-by-turn logs of games (same seed and index = same game as in `run`)."""
    from sim.batch import replay
    from sim.spec import SpecError

    from .. import experiment as ex

    spec = registry().make(game)
    counts = ex.parse_players(players if players is not None else spec.max_players, spec)
    if len(counts) != 1:
        raise SpecError(f"--players: replay needs one player count, got {players!r}")
    seed = settings.DEFAULT_SEED if seed is None else seed
    ex.check_seed(seed)
    indices = parse_indices(game_index)
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise SpecError(f"--out {out_dir}: is a file; give a directory for the replays")
    cfg = ex.ArmConfig("replay", spec.id, counts[0], variant, ex.parse_set(set_ or ()),
                       policy or settings.DEFAULT_POLICY,
                       ex.parse_seat_policies(seat_policy or ()), components)
    arm = ex.resolve_arm(cfg, 1).arm
    if out_dir is None:
        for k, i in enumerate(indices):
            if k:
                out.print()
            out.print(replay_text(arm, seed, i, *replay(arm, seed, i)), end="", markup=False,
                      highlight=False, emoji=False, soft_wrap=True)
        return
    width = len(str(max(indices)))
    paths = [out_dir / f"{spec.id}-{arm.n_players}p-{arm.variant}-seed{seed}-game{i:0{width}d}.txt"
             for i in indices]
    there = [p for p in paths if p.exists()]
    if there and not force:
        raise SpecError(f"--out {out_dir}: {there[0].name}"
                        + (f" and {count(len(there) - 1, 'other replay')}" if there[1:] else "")
                        + " exist; give another directory, or --force to overwrite them")
    out_dir.mkdir(parents=True, exist_ok=True)
    for i, path in zip(indices, paths):
        path.write_text(replay_text(arm, seed, i, *replay(arm, seed, i)), encoding="utf-8")
    out.print(f"wrote {count(len(paths), 'replay')} to {out_dir}: {paths[0].name}"
              + (f" … {paths[-1].name}" if len(paths) > 1 else ""), markup=False, soft_wrap=True)
