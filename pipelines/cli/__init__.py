"""The ``playtest`` command line (design §4), also ``python -m pipelines``.

One job per module:

* :mod:`~pipelines.cli.app`: the Typer app, every command registered in one table; ``main``;
* :mod:`~pipelines.cli.options`: the options that several commands take, declared once;
* :mod:`~pipelines.cli.common`: consoles, the error guard (bad input: one message, exit 2),
  the registry, value formatting;
* :mod:`~pipelines.cli.running`: running a command's experiment and printing its summary
  (``--precision`` included);
* :mod:`~pipelines.cli.tables`: the win-rate and ladder tables several commands print;
* :mod:`~pipelines.cli.info`: ``games``, ``rules``, ``layout``;
* :mod:`~pipelines.cli.run`: ``run``, ``replay``;
* :mod:`~pipelines.cli.studies`: ``compare``, ``sweep``, ``plan``, ``ladder``, ``tune``;
* :mod:`~pipelines.cli.compensate`: ``compensate``;
* :mod:`~pipelines.cli.store`: ``sql``, ``report``, ``list``, ``show``, ``demo``.

The numbers behind the tables come from :mod:`analysis.summary` and the SQL guard from
:mod:`analysis.query`. Importing this package imports Typer and Rich only: each command imports
the simulation (Numba) and the analysis libraries it needs when it runs, so ``playtest --help``
is quick and ``playtest run`` loads neither scipy, statsmodels nor pandas
(``tests/pipelines/test_startup.py``).
"""
from .app import app, main

__all__ = ["app", "main"]
