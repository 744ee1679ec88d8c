"""The Typer app: every command registered once, in the order ``playtest --help`` lists them."""
import gc

import typer

from . import compensate, info, insights, run, store, studies
from .common import Group

app = typer.Typer(
    cls=Group,  # usage errors in one line, exit 2
    name="playtest",
    help="Game-balance analytics for tabletop dice games: simulate, store, query, report.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

COMMANDS = (
    ("games", info.games_cmd),
    ("rules", info.rules_cmd),
    ("layout", info.layout_cmd),
    ("run", run.run_cmd),
    ("compare", studies.compare_cmd),
    ("sweep", studies.sweep_cmd),
    ("plan", studies.plan_cmd),
    ("ladder", studies.ladder_cmd),
    ("compensate", compensate.compensate_cmd),
    ("tune", studies.tune_cmd),
    ("replay", run.replay_cmd),
    ("sql", store.sql_cmd),
    ("report", store.report_cmd),
    ("insights", insights.insights_cmd),
    ("list", store.list_cmd),
    ("show", store.show_cmd),
    ("demo", store.demo_cmd),
)
for _name, _command in COMMANDS:
    app.command(_name)(_command)


def main():  # console script entry point
    try:
        app()
    finally:
        # On exit the interpreter collects cyclic garbage over every object that Numba, LLVM
        # and the libraries made: a quarter of a second after a run, to free memory that the
        # process gives back anyway. Frozen objects are skipped by that collection (files,
        # stores and clusters are closed by then; reference counting still frees the rest).
        gc.freeze()
