"""Why a game plays as it does: round traces, how the game feels, which actions matter, rule
holes. Pure functions over pandas DataFrames of one arm's store tables; every metric with a
95% interval. Definitions, interval methods and sources: ``docs/metrics_play.md``.

Input tables (``shared/design.md`` §4)
---------------------------------------
``games`` and ``seats`` as stored (every game of the arm). The traced tables (``run --trace
N``: the first N games of every arm), hive-partitioned like ``games``
(``results/rounds/game=<g>/experiment=<e>/arm=<a>/part-<chunk>.parquet``, same for
``actions``):

``rounds``: one row per traced game x round x seat, the state after that round.

=============== ======= ============================================================
column          type    meaning
=============== ======= ============================================================
experiment      str     as in ``games``
arm             str
game            str
n_players       int64
master_seed     int64
game_index      int64
round           int64   1-based; a game of R rounds has rounds 1..R, every seat each
seat            int64   0 = start player
score           int64   the seat's score after the round (or the game's best running
                        proxy of it); after round R, the state before final scoring
                        may differ from ``seats.score``
<resource>...   int64   the game's declared key resources (names vary per game)
=============== ======= ============================================================

``actions``: one row per traced game x seat x decision point x option kind.

=============== ======= ============================================================
column          type    meaning
=============== ======= ============================================================
experiment      str     ``experiment, arm, game, n_players, master_seed, game_index``
...                     as in ``rounds``
seat            int64
point           str     decision point name (e.g. ``"DP-1 lock"``)
kind            str     option kind name (e.g. ``"lock"``, ``"skip"``)
legal           int64   real choices (>= 2 legal options) at this point where at
                        least one option of this kind was legal
chosen          int64   real choices at this point where the chosen option was of
                        this kind (sum over kinds = faced - forced - no_legal)
faced           int64   decisions of the seat at this point, all of them (forced and
                        no-legal ones included); repeated on each kind row of the
                        (game, seat, point)
forced          int64   of those, decisions with exactly one legal option; repeated
no_legal        int64   of those, decisions with no legal option; repeated
n_options_sum   int64   sum of the number of legal options over the ``faced``
                        decisions; repeated
=============== ======= ============================================================

A (game, seat, point) the seat faced has at least one row; if no kind was legal in a real
choice there (all its decisions forced or without options), a single row with ``kind = ""``
and ``legal = chosen = 0`` carries the point counts. Kinds never legal in a real choice may
be omitted (or written with ``legal = chosen = 0``). The policy of a seat comes from
``seats.policy``.

Public functions
----------------
:func:`insights` (one arm -> a JSON-ready dict), :func:`insights_by_arm`, :func:`load_arm`
(the four tables of one arm from a store); the sections: :func:`completion`,
:func:`duration` (with :func:`end_hazard`, :func:`loss_hazard`), :func:`closeness`,
:func:`trace_cube` + :func:`game_trace_table` -> :func:`lead_change_rate`, :func:`drama`,
:func:`decisiveness`, :func:`comeback` (:func:`comeback_table`), :func:`actions_summary`
(:func:`point_table`, :func:`kind_table`), :func:`flags`, :func:`verdict`. Figures:
:func:`analysis.plots.comeback_heatmap_plot`, :func:`analysis.plots.hazard_plot`. A stored
experiment's arms (read through the DuckDB views, side by side): :mod:`.arms`.
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ._intervals import LEVEL, N_RESAMPLES, SEED, clean
from .actions import (
    CAVEAT,
    actions_summary,
    kind_table,
    point_table,
    policy_win_rates,
    strongest_policy,
)
from .flags import flags, replay_command
from .outcome import closeness, completion, duration, end_hazard, is_solo, loss_hazard
from .traces import (
    comeback,
    comeback_table,
    decisiveness,
    drama,
    game_trace_table,
    lead_change_rate,
    trace_cube,
)
from .verdict import verdict

__all__ = [
    "KEYS", "ROUNDS_COLUMNS", "ACTIONS_COLUMNS", "CAVEAT", "insights", "insights_by_arm",
    "load_arm", "completion", "duration", "end_hazard", "loss_hazard", "closeness",
    "trace_cube", "game_trace_table", "lead_change_rate", "drama", "decisiveness", "comeback",
    "comeback_table", "actions_summary", "point_table", "kind_table", "policy_win_rates",
    "strongest_policy", "flags", "replay_command", "verdict",
]

#: The keys of :func:`insights`' dict, in order.
KEYS = ("completion", "duration", "closeness", "lead_change_rate", "drama", "comeback",
        "decisiveness", "actions", "flags", "verdict")
_ID = ("experiment", "arm", "game", "n_players", "master_seed", "game_index")
#: Contract columns of the traced tables (``rounds`` also has the game's key resources).
ROUNDS_COLUMNS = _ID + ("round", "seat", "score")
ACTIONS_COLUMNS = _ID + ("seat", "point", "kind", "legal", "chosen", "faced", "forced",
                         "no_legal", "n_options_sum")


def _one_arm(games: pd.DataFrame) -> None:
    if len(games) and games[["experiment", "arm"]].drop_duplicates().shape[0] > 1:
        raise ValueError("insights() takes one arm; use insights_by_arm() for several")


def insights(games: pd.DataFrame, seats: pd.DataFrame, rounds: pd.DataFrame | None = None,
             actions: pd.DataFrame | None = None, *, stall_rounds: int = 10,
             min_pick: int = 1, min_legal: int = 10, round_edges=None, deficit_edges=None,
             max_examples: int = 5, replay_options: str = "", level: float = LEVEL,
             n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict:
    """Every insight of one arm as a JSON-ready dict.

    Parameters
    ----------
    games, seats : DataFrame
        The arm's ``games`` and ``seats`` rows (all games).
    rounds, actions : DataFrame, optional
        The arm's traced tables (module docstring); without them the trace sections are empty
        (``n_games = 0``).
    stall_rounds : int, default 10
        K of the stall flag.
    min_pick : int, default 1
        A seat "picked" a kind when it chose it at least this many times (win lift).
    min_legal : int, default 10
        Kinds legal in fewer real choices are not listed as never / always picked.
    round_edges, deficit_edges : list of int, optional
        Bins of the comeback table (:func:`comeback_table`).
    max_examples : int, default 5
        Examples per flag.
    replay_options : str
        The arm's rule options (``--variant ... --set ...``) for the flags' replay commands.
    level : float, default 0.95
    n_resamples, seed : int
        Bootstrap over games (percentile intervals, fixed seed).

    Returns
    -------
    dict
        Keys :data:`KEYS`: ``completion, duration, closeness, lead_change_rate, drama,
        comeback, decisiveness, actions, flags, verdict``; ``json.dumps(d, allow_nan=False)``
        accepts it.
    """
    _one_arm(games)
    boot = dict(level=level, n_resamples=n_resamples, seed=seed)
    rounds = rounds if rounds is not None else pd.DataFrame()
    solo = is_solo(games)
    cube = trace_cube(rounds, seats)
    table = game_trace_table(cube)
    multi = table if not solo else table.iloc[0:0]
    out = {
        "completion": completion(games, level),
        "duration": duration(games, **boot),
        "closeness": closeness(seats if not solo else seats.iloc[0:0], **boot),
        "lead_change_rate": lead_change_rate(multi, level),
        "drama": drama(multi, level),
        "comeback": comeback(cube if not solo else trace_cube(pd.DataFrame(), seats),
                             round_edges, deficit_edges, level),
        "decisiveness": decisiveness(multi, level),
        "actions": actions_summary(actions, seats, min_pick, min_legal, **boot),
        "flags": flags(games, table if len(rounds) else None, actions, stall_rounds,
                       max_examples, replay_options, level),
    }
    out = clean(out)
    out["verdict"] = verdict(out)
    return out


def insights_by_arm(games: pd.DataFrame, seats: pd.DataFrame,
                    rounds: pd.DataFrame | None = None, actions: pd.DataFrame | None = None,
                    **kw) -> dict[str, dict]:
    """:func:`insights` of every arm, keyed by arm name (the tables may hold one experiment;
    filter by ``experiment`` first otherwise). ``kw`` goes to :func:`insights`."""
    exps = set(games["experiment"].unique()) if len(games) else set()
    if len(exps) > 1:
        raise ValueError(f"insights_by_arm() takes one experiment, got {sorted(exps)}: "
                         f"filter the tables by experiment first")

    def part(df, arm):
        return df[df["arm"] == arm] if df is not None and len(df) else df

    return {str(arm): insights(part(games, arm), part(seats, arm), part(rounds, arm),
                               part(actions, arm), **kw)
            for arm in sorted(games["arm"].unique())} if len(games) else {}


def load_arm(store, experiment: str, arm: str) -> dict[str, pd.DataFrame]:
    """The ``games``, ``seats``, ``rounds`` and ``actions`` rows of one arm of a local store.

    With a manifest, only the parts of the chunks it lists as finished are read (a killed
    run's unfinished chunks are left out; with part records, a trace part only when its
    chunk's record lists it); without one, or with one ``playtest run`` did not write (a
    hand-made store), every part of the arm. A table the arm lacks (no ``--trace``)
    is an empty DataFrame. The hive columns ``game``, ``experiment`` and ``arm`` come from
    the paths.
    """
    from ..storage import TRACE_TABLES, ManifestError, StoreReader, expand, part_records, read_arm

    root = Path(os.fspath(store))
    reader = StoreReader(root)
    try:
        manifest = reader.read_manifest(experiment)
    except ManifestError:  # not written by playtest run: read what is there
        manifest = None
    entry = next((a for a in (manifest or {}).get("arms", []) if a.get("name") == arm), None)
    out = {}
    for table in ("games", "seats", "rounds", "actions"):
        if entry is not None:
            plan, done = read_arm(entry)
            # a trace part counts once its chunk's record lists it (manifests that record
            # parts, format 3: a killed run's trace parts are left out)
            recs = part_records(entry) if "parts" in entry else None
            files = [reader.part_path(table, entry["game"], experiment, arm, c)
                     for c, _, _ in expand(plan) if c in done
                     and (recs is None or table not in TRACE_TABLES
                          or table in recs.get(c, {}))]
            files = [f for f in files if f.is_file()]
        else:
            files = sorted((root / "results" / table).glob(
                f"game=*/experiment={experiment}/arm={arm}/part-*.parquet"))
        frames = []
        for f in files:
            df = pd.read_parquet(f)
            parts = dict(p.split("=", 1) for p in f.parent.parts[-3:] if "=" in p)
            for k, v in parts.items():
                if k not in df:
                    df[k] = v
            frames.append(df)
        out[table] = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return out
