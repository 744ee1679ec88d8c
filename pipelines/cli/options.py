"""Every option (and the game argument) that more than one command takes, declared once.

Each is an ``Annotated`` type: a command takes ``--players`` by declaring
``players: opts.Players = None``. Where commands give an option a meaning of their own, the
flags and type are still written once (the ``_players``, ``_set``... helpers) and each meaning
has its own help text and name (``Players`` for ``run``, ``StudyPlayers`` for the studies...).
Options of a single command are declared with that command.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from .. import settings

#: Default of ``--out`` for the commands that write an HTML report.
REPORTS_DIR = Path("reports")

# ---- the game -------------------------------------------------------------------------------

Game = Annotated[str, typer.Argument(help="Game id (see `playtest games`).")]

# ---- what is played: players, rules, policies -----------------------------------------------


def _players(help: str, type_=str):
    return Annotated[Optional[type_], typer.Option("--players", "-p", help=help)]


Players = _players("Player count(s): 4, 2-4 or 2,3 (run: default all; one arm each).")
StudyPlayers = _players("Player count(s): 4, 2-4 or 2,3 (default: the maximum).")
_ONE_COUNT = "One player count (default: the maximum; 1 = solo, where the game has it)."
OnePlayerCount = _players(_ONE_COUNT)
ReplayPlayers = _players("Player count (default: the maximum).")
TunePlayers = _players("Player count(s): 4, 2-4 or 2,3 (default: the maximum; 1 = solo, on its "
                       "own). Several: one policy tuned for all of them.")

Variant = Annotated[Optional[str], typer.Option(
    "--variant", help="Named rule variant (see `playtest rules GAME`).")]


def _set(help: str):
    return Annotated[Optional[List[str]], typer.Option("--set", help=help)]


Set = _set("Rule tweak NAME=VALUE (repeatable).")
GameSet = _set("Rule tweak NAME=VALUE for every game (repeatable).")
TweakSet = _set("Tweak NAME=VALUE for the tweak arm (repeatable).")
SweepSet = _set("Fixed rule tweak for every point (repeatable).")
PlanSet = _set("A tweak to plan a comparison for (paired design).")

Policy = Annotated[Optional[str], typer.Option(
    "--policy", help="Policy for every seat: NAME[:k=v,...] or @PRESET.toml (default greedy).")]
AlsoPolicy = Annotated[Optional[List[str]], typer.Option(
    "--also-policy",
    help="Play the same arms again with every seat on this policy too (repeatable; e.g. "
         "search): the report says whether each verdict holds under every policy.")]


AlsoGames = Annotated[Optional[List[str]], typer.Option(
    "--also-games",
    help="NAME=N: the --also-policy NAME (as given, its slug, or its bare name: search=400) "
         "plays N games, the first N of the arms' games (1..--games; repeatable; compare: "
         "both arms of its pair, still paired). A search plays 1-150 games/s: give it fewer "
         "games than a heuristic.")]
Budget = Annotated[Optional[str], typer.Option(
    "--budget",
    help="Time for the --also-policy arms without --also-games (90s, 10m, 1h, 1h30m): a short "
         "timed pilot of each (nothing stored) picks the game count that fits its equal share "
         "(compare: a share per pair, both arms one count), rounded down, at most --games. The "
         "count depends on this machine's speed; the manifest records it and a rerun keeps "
         "it.")]


def _seat_policy(help: str):
    return Annotated[Optional[List[str]], typer.Option("--seat-policy", help=help)]


SeatPolicy = _seat_policy("SEAT=NAME[:k=v,...] or SEAT=@PRESET.toml for one seat (repeatable; "
                          "0 = start player).")
BothArmsSeatPolicy = _seat_policy("SEAT=NAME[:k=v,...] in both arms (repeatable).")
TweakSeatPolicy = Annotated[Optional[List[str]], typer.Option(
    "--tweak-seat-policy", help="SEAT=NAME[:k=v,...] in the tweak arm only (repeatable).")]

Components = Annotated[Optional[str], typer.Option(
    "--components", help="Directory with your own component data files.")]

# ---- how many games, which seed -------------------------------------------------------------


def _games(help: str, type_=Optional[int]):
    return Annotated[type_, typer.Option("--games", "-n", help=help)]


RunGames = _games(f"Games per arm (default {settings.DEFAULT_GAMES:,}).")
StudyGames = _games(f"Games per arm (default {settings.DEFAULT_GAMES:,}; "
                    f"with --precision: the first batch).")
LadderGames = _games(f"Games per arm, i.e. per pair and seat of the higher rung (default "
                     f"{settings.DEFAULT_GAMES:,}).")
DemoGames = _games("Games per player count.", int)
TuneGames = _games("Training games per trial (at each player count), split equally over the "
                   "seats; the same games in every trial.", int)

Seed = Annotated[Optional[int], typer.Option(
    "--seed", help=f"Master seed (default {settings.DEFAULT_SEED}).")]
Precision = Annotated[Optional[float], typer.Option(
    "--precision", help="Keep adding games until every 95% interval on the win-rate scale has "
                        "a half-width below this (e.g. 0.005); --games is then the first batch.")]
MaxGames = Annotated[Optional[int], typer.Option(
    "--max-games", help="Cap on games per arm for --precision (default 1,000,000).")]

Trace = Annotated[Optional[int], typer.Option(
    "--trace", help=f"Record round traces (the rounds and actions tables, for `playtest "
                    f"insights`) of the first N games of every arm (default "
                    f"{settings.DEFAULT_TRACE:,}; 0 = none). Not part of the experiment: a "
                    f"rerun with a larger N adds traces, a smaller one keeps them.")]

# ---- where and how it runs ------------------------------------------------------------------

Store = Annotated[Optional[str], typer.Option(
    "--store", help="Store directory (default: $PLAYTEST_STORE or data/).")]


def _experiment(help: str):
    return Annotated[Optional[str], typer.Option("--experiment", "-e", help=help)]


RunExperiment = _experiment("Experiment name (default: derived from the arguments).")
Experiment = _experiment("Experiment name (default: derived).")


def _workers(help: str):
    return Annotated[Optional[int], typer.Option("--workers", "-w", help=help)]


RunWorkers = _workers("Threads/workers (default: all cores).")
Workers = _workers("Threads (default: all cores).")

Executor = Annotated[str, typer.Option("--executor", help="local | dask")]
Scheduler = Annotated[Optional[str], typer.Option(
    "--scheduler", help="Dask scheduler address (default: a LocalCluster).")]


def _chunk_size(help: str):
    return Annotated[Optional[int], typer.Option("--chunk-size", help=help)]


RunChunkSize = _chunk_size(f"Games per chunk/part (default {settings.DEFAULT_CHUNK_SIZE:,}; "
                           f"{settings.SEARCH_CHUNK_SIZE:,} for arms with search seats).")
ChunkSize = _chunk_size("Games per chunk/part.")

Replan = Annotated[bool, typer.Option(
    "--replan", help="Apply a changed --games/--chunk-size to an unfinished experiment "
                     "(finished chunks within it are kept).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
Out = Annotated[Path, typer.Option("--out", "-o", help="Report directory.")]
Force = Annotated[bool, typer.Option("--force", help="Overwrite output files that exist.")]
