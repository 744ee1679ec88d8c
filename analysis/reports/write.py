"""Writing a report: which one an experiment gets (its own, or that of the study that made it),
its context built from the store, rendered and written as one self-contained HTML file."""
from __future__ import annotations

import contextlib
from pathlib import Path

import duckdb

from .. import db
from .compensation import compensate_context
from .experiment import build_context
from .render import render, render_report, safe_name, write_html
from .study import compare_context, ladder_context, plan_context, study_kind, sweep_context

__all__ = ["write_report", "write_study_report"]


def write_report(store, experiment: str, out_dir, targets: dict | None = None) -> Path:
    """Write ``<out_dir>/<experiment>.html``, one self-contained report; return its path.

    Experiments made by ``playtest compare`` / ``sweep`` (or a spec with a ``baseline`` arm)
    get their study report (:func:`write_study_report`).

    Parameters
    ----------
    store : str or path-like
        Store root.
    experiment : str
        Experiment name (manifest ``name`` / ``experiment=`` partition).
    out_dir : str or path-like
        Created if missing.
    targets : dict, optional
        Target solo win probabilities the solo report grades each variant against,
        ``{variant: p}`` or ``{variant: {policy: p}}`` (e.g. ``{"solo_hell": 0.05}``); they
        update the ``targets`` the manifest records (top level, or its ``spec``).

    Raises
    ------
    sim.spec.SpecError
        Unknown experiment; the message lists the experiments in the store.
    analysis.storage.StoreError
        The experiment's manifest cannot be read (:class:`~analysis.storage.ManifestError`), or
        one of its parts is missing, damaged or not its chunk's (naming the arm and chunk).
    """
    if study_kind(db.load_manifest(store, experiment)) is not None:
        return write_study_report(store, experiment, out_dir, targets=targets)
    with _reading(store, experiment) as con:
        ctx = build_context(con, store, experiment, targets)
    return write_html(out_dir, f"{safe_name(experiment)}.html", render_report(ctx))


@contextlib.contextmanager
def _reading(store, experiment: str):
    """A connection whose views read ``experiment`` only (:func:`analysis.db.connect`); a
    DuckDB failure on a part's data comes out as a StoreError naming its chunk."""
    con = db.connect(store, experiments=[experiment])
    try:
        yield con
    except duckdb.Error as e:
        named = db.read_error(store, e, [experiment])
        if named is None:
            raise
        raise named from None
    finally:
        con.close()


def write_study_report(store, experiment: str, out_dir, plan: dict | None = None,
                       targets: dict | None = None) -> Path:
    """Write the comparison, sweep, ladder, compensation or (with ``plan={"delta": d,
    "power": p}``) sample-size report of ``experiment`` to
    ``<out_dir>/<experiment>[-plan].html``; return its path."""
    with _reading(store, experiment) as con:
        if plan is not None:
            ctx = plan_context(con, store, experiment, plan["delta"], plan.get("power", 0.8))
        else:
            kind = study_kind(db.load_manifest(store, experiment))
            if kind == "sweep":
                ctx = sweep_context(con, store, experiment)
            elif kind == "compare":
                ctx = compare_context(con, store, experiment)
            elif kind == "ladder":
                ctx = ladder_context(con, store, experiment)
            elif kind == "compensate":
                ctx = compensate_context(con, store, experiment)
            else:
                ctx = build_context(con, store, experiment, targets)
                ctx["kind"] = "report"
    template = {"report": "report.html.j2", "compare": "compare.html.j2",
                "sweep": "sweep.html.j2", "plan": "plan.html.j2",
                "ladder": "ladder.html.j2", "compensate": "compensate.html.j2"}[ctx["kind"]]
    html = render(template, ctx)
    suffix = "-plan" if ctx["kind"] == "plan" else ""
    return write_html(out_dir, f"{safe_name(experiment)}{suffix}.html", html)
