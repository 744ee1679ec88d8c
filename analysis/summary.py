"""A stored experiment's results as plain rows for the terminal: the numbers ``playtest`` prints
after ``run``, ``show``, ``demo``, ``ladder``, ``compare``, ``sweep`` and ``plan``
(:mod:`pipelines.cli` lays them out as tables).

:func:`win_rate_tables`, which ends every ``playtest run``, reads DuckDB and computes Wilson
intervals with numpy alone: importing pandas, scipy or statsmodels would take longer than a
small run. Its numbers are those of the ``seat_win_rates`` mart and of
:func:`analysis.db.win_rate_by` (``tests/analysis/test_summary.py``). The other functions open
the store, call the analysis functions that the HTML reports use, and close it again.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import duckdb
import numpy as np

from . import db, stats

__all__ = ["WinRateRow", "WinRateTable", "SoloRow", "win_rate_tables", "result_tables",
           "ladder_rows", "compare_tables", "sweep_table", "plan_blocks"]


@dataclass(frozen=True)
class WinRateRow:
    """Win rate (mean ``win_share``) of one seat or factor value in one arm, Wilson 95%."""

    n_players: int
    arm: str
    value: str  # the seat number, or the factor value's label ("I-A")
    n_games: int
    win_rate: float
    low: float
    high: float

    @property
    def fair_share(self) -> float:
        return 1 / self.n_players


@dataclass(frozen=True)
class WinRateTable:
    """Win rates by seat or by the balance factor, by player count (solo arms left out)."""

    by: str  # "seat", or the balance factor's name ("initiative die")
    experiment: str
    several_arms: bool  # some player count has several arms (e.g. --also-policy): name them
    rows: list[WinRateRow]
    game: str | None = None  # the game of the rows (None: every game of the experiment)


@dataclass(frozen=True)
class SoloRow:
    """Solo win probability of one arm and policy (the ``solo_ladder`` mart), Wilson 95%."""

    arm: str
    game: str
    variant: str
    policy: str
    n_games: int
    wins: int
    win_rate: float
    low: float
    high: float


@contextlib.contextmanager
def _reading(store, experiment: str):
    """A connection whose views read ``experiment`` only (another experiment's broken manifest
    changes nothing); its manifest unreadable raises :class:`analysis.storage.ManifestError`, a
    DuckDB failure on a part's data a StoreError naming the part's chunk
    (:func:`analysis.db.read_error`)."""
    con = None
    try:
        con = db.connect(store, experiments=[experiment])
        yield con
    except duckdb.Error as e:
        named = db.read_error(store, e, [experiment])
        if named is None:
            raise
        raise named from None
    finally:
        if con is not None:
            con.close()


def win_rate_tables(store, experiment: str, factor, factor_only: bool = False
                    ) -> list[WinRateTable]:
    """Win rate by seat and player count, and by the game's balance factor
    (``GameSpec.balance_factor``, e.g. Flower Shop's initiative dice) when that is not the seat;
    ``factor_only``: by the balance factor alone (the table ending ``playtest run``). A table
    with no multiplayer rows is left out. Rows in (players, arm, value) order."""
    with _reading(store, experiment) as con:
        return _win_rate_tables(con, experiment, None, factor, factor_only)


def result_tables(store, experiment: str, factors: dict, factor_only: bool = False
                  ) -> tuple[list[WinRateTable], list[SoloRow]]:
    """The results of a run on one connection: :func:`win_rate_tables` of every game of
    ``factors`` (game id -> its balance factor) and the solo arms' win probabilities
    (``solo_ladder``, Wilson 95%; rows in arm, policy order)."""
    with _reading(store, experiment) as con:
        tables = [t for game, factor in factors.items()
                  for t in _win_rate_tables(con, experiment, game if len(factors) > 1 else None,
                                            factor, factor_only)]
        return tables, _solo_rows(con, experiment)


def _win_rate_tables(con, experiment: str, game: str | None, factor, factor_only: bool
                     ) -> list[WinRateTable]:
    by = [] if factor_only and not factor.is_seat else [
        ("seat", _seat_counts(con, experiment, game), ())]
    if not factor.is_seat:
        by.append((factor.name, _factor_counts(con, experiment, factor.column, game),
                   factor.labels))
    return [_table(experiment, name, rows, labels, game) for name, rows, labels in by if rows]


def _game_filter(game: str | None) -> tuple[str, list]:
    return ("AND game = ?", [game]) if game is not None else ("", [])


def _seat_counts(con, experiment: str, game: str | None = None) -> list[tuple]:
    """(n_players, arm, seat, n_games, win_share_sum, win_rate) from the ``seat_win_rates``
    mart (what :func:`analysis.db.seat_win_rates` reads)."""
    if not db.has_view(con, "seat_win_rates"):
        return []
    where, params = _game_filter(game)
    return con.execute(f"""
        SELECT n_players, arm, seat AS value, n_games, win_share_sum, win_rate
        FROM seat_win_rates WHERE experiment = ? AND n_players > 1 {where}
        ORDER BY n_players, arm, value""", [experiment, *params]).fetchall()


def _factor_counts(con, experiment: str, column: str, game: str | None = None) -> list[tuple]:
    """The same by the values of seat column ``column`` (the query of
    :func:`analysis.db.win_rate_by`); none when the store has no such column."""
    if not db.has_view(con, "stg_seats") or column not in con.sql(
            "SELECT * FROM stg_seats LIMIT 0").columns:
        return []
    where, params = _game_filter(game)
    return con.execute(f"""
        SELECT n_players, arm, "{column}" AS value, count(*) AS n_games,
               sum(win_share) AS win_share_sum, avg(win_share) AS win_rate
        FROM stg_seats WHERE experiment = ? AND n_players > 1 AND "{column}" IS NOT NULL {where}
        GROUP BY ALL ORDER BY n_players, arm, value""", [experiment, *params]).fetchall()


def _solo_rows(con, experiment: str) -> list[SoloRow]:
    if not db.has_view(con, "solo_ladder"):
        return []
    rows = con.execute("""
        SELECT arm, game, variant, policy, n_games, wins, win_rate FROM solo_ladder
        WHERE experiment = ? ORDER BY arm, policy""", [experiment]).fetchall()
    if not rows:
        return []
    arm, game, variant, policy, n_games, wins, rate = zip(*rows)
    low, high = stats.wilson_interval(np.asarray(wins, dtype=float),
                                      np.asarray(n_games, dtype=float))
    return [SoloRow(str(a), str(g), str(v), str(p), int(n), int(w), float(r), float(lo),
                    float(hi))
            for a, g, v, p, n, w, r, lo, hi in zip(arm, game, variant, policy, n_games, wins,
                                                   rate, low, high)]


def _table(experiment: str, by: str, counts: list[tuple], labels,
           game: str | None = None) -> WinRateTable:
    n_players, arm, value, n_games, share_sum, rate = zip(*counts)
    low, high = stats.wilson_interval(np.asarray(share_sum, dtype=float),
                                      np.asarray(n_games, dtype=float))
    arms: dict[int, set] = {}
    for n, a in zip(n_players, arm):
        arms.setdefault(n, set()).add(a)
    rows = [WinRateRow(int(n), str(a), _label(int(v), labels), int(g), float(r), float(lo),
                       float(hi))
            for n, a, v, g, r, lo, hi in zip(n_players, arm, value, n_games, rate, low, high)]
    return WinRateTable(by, experiment, max(len(a) for a in arms.values()) > 1, rows, game)


def _label(value: int, labels) -> str:
    return labels[value] if 0 <= value < len(labels) else str(value)


def ladder_rows(store, experiment: str, source: dict) -> tuple[Any, dict]:
    """A stored ladder (:func:`analysis.ladder.summarize`) and its rows as the report shows
    them (``reports.ladder_rows``: solo rates and steps, or pairs and ratings)."""
    from . import ladder, reports

    with _reading(store, experiment) as con:
        lad = ladder.summarize(con, experiment, source)
    return lad, reports.ladder_rows(lad)


def compare_tables(store, experiment: str, pairs: list[dict]) -> list[tuple[dict, Any]]:
    """Each tweak-baseline pair of a comparison with its paired differences
    (:func:`analysis.studies.compare_frames`: one row per metric with a verdict)."""
    from . import studies

    with _reading(store, experiment) as con:
        return [(pair, studies.compare_frames(studies.arm_games(con, experiment, pair["tweak"]),
                                              studies.arm_games(con, experiment,
                                                                pair["baseline"])))
                for pair in pairs]


def sweep_table(store, experiment: str, source: dict):
    """The sweep's compact table: estimate ± 95% half-width per point (``reports.sweep_table``)."""
    from . import reports

    with _reading(store, experiment) as con:
        return reports.sweep_table(con, experiment, source, compact=True)


def plan_blocks(store, experiment: str, source: dict, delta: float, power: float) -> list[dict]:
    """Games needed to detect ``delta`` with ``power``, from a pilot run (``reports.plan_rows``:
    one block of rows per arm or pair)."""
    from . import reports

    with _reading(store, experiment) as con:
        return reports.plan_rows(con, experiment, source, delta, power)
