"""The ``playtest`` command line (design §4), also ``python -m pipelines``.

One job per module:

* :mod:`~pipelines.cli.app`: the Typer app, every command registered in one table; ``main``;
* :mod:`~pipelines.cli.options`: the options that several commands take, declared once;
* :mod:`~pipelines.cli.common`: consoles, the error guard (bad input: one message, exit 2),
  the registry, value formatting (numbers and plurals: :mod:`analysis.words`);
* :mod:`~pipelines.cli.running`: running a command's experiment and printing its summary
  (``--precision`` included);
* :mod:`~pipelines.cli.tables`: the result tables several commands print (win rates, solo win
  probabilities, comparisons, sweeps, ladders), picked by experiment kind for ``run``/``show``;
* :mod:`~pipelines.cli.handles`: experiment handles (``latest``, a unique prefix, the short id)
  and the status ``list`` shows;
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
