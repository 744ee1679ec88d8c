"""Analysis: DuckDB views, statistics, plots and HTML reports over the store.

Modules: :mod:`analysis.storage` (the store's read side: layout, manifests, finished parts),
:mod:`analysis.db` (``connect(store)`` and marts), :mod:`analysis.stats` (intervals, tests,
planning, Bradley-Terry ratings), :mod:`analysis.studies` (compare, sweep, plan),
:mod:`analysis.ladder` (policies head to head, how much is skill), :mod:`analysis.compensate`
(what fixes a favoured seat), :mod:`analysis.robust` (verdicts across policies),
:mod:`analysis.difficulty` (the solo ladder a game declares), :mod:`analysis.plots` (figures, no
I/O), :mod:`analysis.reports` (``write_report(store, experiment, out_dir)``; a package, one
module per job). ``analysis`` imports ``sim``, never ``pipelines``.

``connect``, ``open_store`` (the games and seats tables as Polars LazyFrames plus the DuckDB
connection) and ``write_report`` are also available here; they are imported lazily, so
``import analysis`` stays cheap.
"""

__all__ = ["connect", "open_store", "write_report"]


def __getattr__(name):
    if name == "open_store":
        from .db import open_store

        return open_store
    if name == "connect":
        from .db import connect

        return connect
    if name == "write_report":
        from .reports import write_report

        return write_report
    raise AttributeError(f"module 'analysis' has no attribute {name!r}")
