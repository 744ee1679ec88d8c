"""DuckDB views over a playtest store, and the marts the reports read.

Layering (dbt style, ``shared/style.md`` §5 example 12):

1. Base views over the store (``shared/design.md`` §4), queryable with plain DuckDB:

   * ``games``: ``<store>/results/games/**/part-*.parquet``, one row per game;
   * ``seats``: ``<store>/results/seats/**/part-*.parquet``, one row per game x seat;
   * ``rounds`` and ``actions``: ``<store>/results/{rounds,actions}/**/part-*.parquet``, the
     round traces of the traced games (``run --trace N``; columns: :mod:`analysis.insights`),
     scoped like ``games``: the recorded trace parts of finished chunks;
   * ``experiments``: ``<store>/experiments/*.json``, one row per manifest (``name``,
     ``master_seed``, ``n_games``, ``code_version``, ``created_at``, ``status``,
     ``finished_chunks``, ``arms``, the whole ``manifest`` as JSON, and its ``file``).

   Parquet is read with ``hive_partitioning=true`` and ``hive_types_autocast=false`` (an
   experiment named ``123`` stays a string). A local store's views read what
   :meth:`analysis.storage.StoreReader.scan` lists, experiment by experiment: the checked
   finished parts of each experiment ``run`` made (grouped by schema, and the groups stacked
   ``UNION ALL BY NAME``: games of different games have different extra columns, and a query
   opens only the parts its ``experiment``/``arm`` filter selects), every part of a hand-made
   one (``union_by_name=true``), nothing of one whose manifest cannot be read (named in the
   table ``store_warnings`` and as a :class:`analysis.storage.StoreWarning`). A URL store is
   read by glob. An empty store gives empty views with the contract columns.

2. Staging views in ``analysis/sql/stg_*.sql`` (types normalised; ``stg_arms`` unnests the
   manifests' arms).

3. Marts in ``analysis/sql/*.sql`` (``seat_win_rates``, ``score_summary``, ``solo_ladder``...).
   A mart whose first lines say ``-- requires: games.col, ...`` is created only when the store
   has those columns (e.g. Flower Shop solo ``loss_day``); :func:`has_view` tells.

The Python functions below filter a mart by experiment and add 95% intervals
(:mod:`analysis.stats`), returning pandas DataFrames.
"""
from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import numpy as np

from . import stats
from .storage import (TABLES, ManifestError, StoreError, StoreReader, StoreScan, StoreWarning,
                      manifests_glob, parts_glob)

if TYPE_CHECKING:  # imported where used: ``connect`` (``playtest run``, ``sql``) needs no pandas
    import pandas as pd
    import polars as pl

__all__ = [
    "SQL_VIEWS",
    "connect",
    "open_store",
    "StoreTables",
    "has_view",
    "store_warnings",
    "query",
    "experiment_names",
    "load_manifest",
    "arms",
    "seat_win_rates",
    "score_summary",
    "score_histogram",
    "game_length",
    "rounds_histogram",
    "end_reasons",
    "solo_ladder",
    "solo_loss_day",
    "solo_task_cards",
    "paired_values",
    "arm_games",
    "arms_games",
]

# Views created from analysis/sql/<name>.sql, in dependency order.
SQL_VIEWS = (
    "stg_games",
    "stg_seats",
    "stg_arms",
    "seat_win_rates",
    "score_summary",
    "score_histogram",
    "game_length",
    "rounds_histogram",
    "end_reasons",
    "solo_ladder",
    "solo_games",
    "solo_loss_day",
    "solo_task_cards",
)

# Contract columns (design.md §4) used for the empty placeholder views.
_GAMES_EMPTY = (
    "experiment VARCHAR, arm VARCHAR, game VARCHAR, n_players BIGINT, variant VARCHAR, "
    "master_seed BIGINT, game_index BIGINT, rounds BIGINT, truncated BOOLEAN, n_winners BIGINT, winner_seat BIGINT, "
    "end_reason VARCHAR"
)
_SEATS_EMPTY = (
    "experiment VARCHAR, arm VARCHAR, game VARCHAR, n_players BIGINT, variant VARCHAR, "
    "master_seed BIGINT, game_index BIGINT, seat BIGINT, policy VARCHAR, score BIGINT, rank BIGINT, won BOOLEAN, "
    "win_share DOUBLE"
)
_ROUNDS_EMPTY = (
    "experiment VARCHAR, arm VARCHAR, game VARCHAR, n_players BIGINT, master_seed BIGINT, "
    "game_index BIGINT, round BIGINT, seat BIGINT, score BIGINT"
)
_ACTIONS_EMPTY = (
    "experiment VARCHAR, arm VARCHAR, game VARCHAR, n_players BIGINT, master_seed BIGINT, "
    "game_index BIGINT, seat BIGINT, point VARCHAR, kind VARCHAR, legal BIGINT, chosen BIGINT, "
    "faced BIGINT, forced BIGINT, no_legal BIGINT, n_options_sum BIGINT"
)
_EMPTY = {"games": _GAMES_EMPTY, "seats": _SEATS_EMPTY, "rounds": _ROUNDS_EMPTY,
          "actions": _ACTIONS_EMPTY}
_EXPERIMENTS_EMPTY = (
    "name VARCHAR, master_seed BIGINT, n_games BIGINT, code_version VARCHAR, created_at VARCHAR, "
    "status VARCHAR, finished_chunks JSON, arms JSON, manifest JSON, file VARCHAR"
)


def _store_str(store) -> str:
    s = os.fspath(store)
    if "://" not in s:
        s = Path(s).expanduser().absolute().as_posix()
    return s.rstrip("/")


def _lit(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _empty_view(con, name: str, columns: str) -> None:
    cols = [c.strip().split(" ", 1) for c in columns.split(",")]
    body = ", ".join(f"CAST(NULL AS {t}) AS {n}" for n, t in cols)
    con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT {body} WHERE false")


_READ = "hive_partitioning=true, union_by_name={}, hive_types_autocast=false"


def _read_parquet(files, union: bool) -> str:
    src = _lit(files) if isinstance(files, str) else "[" + ", ".join(_lit(f) for f in files) + "]"
    return f"SELECT * FROM read_parquet({src}, {_READ.format(str(union).lower())})"


def _parquet_view(con, name: str, source, empty: str) -> None:
    """A view over ``source``: a glob (read with ``union_by_name``), or a :class:`StoreScan`'s
    parts of table ``name`` (nothing to read gives ``empty``)."""
    if isinstance(source, StoreScan):
        selects = [_read_parquet(g, False) for g in source.groups[name] if g]
        if source.unchecked.get(name):
            selects.append(_read_parquet(source.unchecked[name], True))
        if not selects:
            _empty_view(con, name, empty)
            return
        body = " UNION ALL BY NAME ".join(f"({q})" for q in selects) if len(selects) > 1 \
            else selects[0]
    else:
        body = _read_parquet(source, True)
    try:
        cols = con.execute(f"SELECT * FROM ({body}) LIMIT 0").description
    except duckdb.IOException:  # no files yet
        _empty_view(con, name, empty)
        return
    names = [c[0] for c in cols]
    select = "*"
    if "variant" not in names and "n_players" in names:
        # parts written before the ``variant`` column: the same columns, variant NULL
        at = names.index("n_players") + 1
        select = ", ".join([f'"{c}"' for c in names[:at]] + ["CAST(NULL AS VARCHAR) AS variant"]
                           + [f'"{c}"' for c in names[at:]])
    con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT {select} FROM ({body})")


def _experiments_view(con, glob) -> None:
    # read_text + json_valid: a malformed or half-written manifest is skipped, not fatal
    if isinstance(glob, list):
        if not glob:
            _empty_view(con, "experiments", _EXPERIMENTS_EMPTY)
            return
        src = "read_text([" + ", ".join(_lit(f) for f in glob) + "])"
    else:
        src = f"read_text({_lit(glob)})"
    try:
        con.execute(f"SELECT * FROM {src} LIMIT 0")
    except duckdb.IOException:
        _empty_view(con, "experiments", _EXPERIMENTS_EMPTY)
        return
    con.execute(f"""
        CREATE OR REPLACE VIEW experiments AS
        WITH m AS (
            SELECT CAST(content AS JSON) AS json, filename
            FROM {src}
            WHERE json_valid(content) AND json_type(CAST(content AS JSON)) = 'OBJECT'
        )
        SELECT coalesce(json ->> 'name', regexp_extract(filename, '([^/\\\\]+)\\.json$', 1)) AS name,
               TRY_CAST(json ->> 'master_seed' AS BIGINT) AS master_seed,
               TRY_CAST(json ->> 'n_games' AS BIGINT) AS n_games,
               json ->> 'code_version' AS code_version,
               json ->> 'created_at' AS created_at,
               json ->> 'status' AS status,
               json -> 'finished_chunks' AS finished_chunks,
               json -> 'arms' AS arms,
               json AS manifest,
               filename AS file
        FROM m
    """)


def _sql_text(name: str) -> str:
    return resources.files("analysis").joinpath("sql", f"{name}.sql").read_text(encoding="utf-8")


def _requires(sql: str) -> list[tuple[str, str]]:
    out = []
    for line in sql.splitlines():
        line = line.strip()
        if line.startswith("-- requires:"):
            for item in line.split(":", 1)[1].split(","):
                view, _, col = item.strip().partition(".")
                out.append((view, col))
    return out


def _columns(con, view: str) -> set[str]:
    return {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {view}").fetchall()}


def _scan(root: str, experiments=None) -> StoreScan | None:
    """What the views of a local store read (:meth:`analysis.storage.StoreReader.scan`: every
    experiment by its own manifest, each finished part checked; a damaged one raises with the
    repair), or None for a URL, read by glob.

    Raises
    ------
    ManifestError
        One of ``experiments`` has a manifest that cannot be read.
    """
    if "://" in root:
        return None
    scan = StoreReader(root).scan(experiments)
    for e in experiments or ():
        if e in scan.excluded:
            raise ManifestError(f"experiment '{e}' cannot be read: {scan.excluded[e]}; move it "
                                f"away (or fix it) to read the experiment")
    return scan


def _is_text(path: str) -> bool:
    """Whether the file reads as UTF-8 text (what DuckDB's ``read_text`` needs)."""
    try:
        Path(path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return True


def _lock_down(con, paths: list[str]) -> None:
    """No file access from now on except reading ``paths`` (no COPY TO, ATTACH, INSTALL, other
    files), and no setting can be changed back (``lock_configuration``)."""
    con.execute("SET allowed_paths = [" + ", ".join(_lit(p) for p in paths) + "]")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def connect(store, database: str = ":memory:", read_only: bool = False,
            experiments=None) -> duckdb.DuckDBPyConnection:
    """Open DuckDB with the store's views (``games``, ``seats``, ``rounds``, ``actions``,
    ``experiments``) and marts.

    Parameters
    ----------
    store : str or path-like
        Store root (the directory holding ``experiments/`` and ``results/``), local or any
        URL DuckDB can read.
    database : str, default ":memory:"
        DuckDB database; the views only reference the store, nothing is copied.
    read_only : bool, default False
        Lock the connection once the views exist (``playtest sql``): it may read the store's
        parts and manifests and nothing else, and can write no file (``COPY ... TO``,
        ``ATTACH``, ``INSTALL`` fail); local stores only.
    experiments : iterable of str, optional
        Read only these experiments' parts (a report reads its own); an experiment among them
        whose manifest cannot be read raises :class:`analysis.storage.ManifestError`.

    Returns
    -------
    duckdb.DuckDBPyConnection
        ``games`` and ``seats`` of a local store read, experiment by experiment, the parts of
        finished chunks (listed in the manifests, checked at connect time: reconnect to see
        chunks finished later) or a hand-made experiment's parts; an experiment whose manifest
        cannot be read is left out, with a :class:`analysis.storage.StoreWarning` and a row in
        the table ``store_warnings`` (:func:`store_warnings`). Marts that cannot be built are
        listed, with the reason, in the table ``skipped_views``.

    Raises
    ------
    analysis.storage.StoreError
        A finished part is missing, damaged or not its chunk's (naming experiment, arm, chunk).
    """
    root = _store_str(store)
    if read_only and "://" in root:
        raise ValueError(f"a read-only connection needs a local store, not {root}")
    return _connect(root, _scan(root, experiments), database, read_only)


def _connect(root: str, scan: StoreScan | None, database: str, read_only: bool
             ) -> duckdb.DuckDBPyConnection:
    for w in scan.warnings if scan is not None else ():
        warnings.warn(w, StoreWarning, stacklevel=3)
    if scan is None or (scan.hand_made and not read_only):
        manifests = manifests_glob(root)  # manifests written later show up too
    else:  # a manifest that is not UTF-8 text would fail every query of the experiments view
        manifests = [f for f in StoreReader(root).manifest_files() if _is_text(f)]
    con = duckdb.connect(database)
    for t, empty in ((t, _EMPTY[t]) for t in TABLES):
        by_glob = scan is None or (scan.hand_made and not read_only)  # parts written later too
        _parquet_view(con, t, parts_glob(root, t) if by_glob else scan, empty)
    _experiments_view(con, manifests)
    con.execute("CREATE OR REPLACE TEMP TABLE store_warnings (experiment VARCHAR, message VARCHAR)")
    if scan is not None and scan.excluded:
        con.executemany("INSERT INTO store_warnings VALUES (?, ?)",
                        [[e, w] for e, w in zip(sorted(scan.excluded), scan.warnings)])
    con.execute("CREATE OR REPLACE TEMP TABLE skipped_views (view_name VARCHAR, reason VARCHAR)")
    for name in SQL_VIEWS:
        sql = _sql_text(name)
        missing = []
        for view, col in _requires(sql):
            if not has_view(con, view) or col not in _columns(con, view):
                missing.append(f"{view}.{col}")
        if missing:
            con.execute("INSERT INTO skipped_views VALUES (?, ?)",
                        [name, "store has no column " + ", ".join(missing)])
            continue
        try:
            con.execute(sql)
        except duckdb.Error as exc:
            con.execute("INSERT INTO skipped_views VALUES (?, ?)", [name, str(exc).splitlines()[0]])
            warnings.warn(f"analysis view {name} not created: {exc}", stacklevel=2)
    if read_only:
        _lock_down(con, [f for t in TABLES for f in scan.files[t]] + manifests)
    return con


def read_error(store, exc: Exception, experiments=None) -> Exception | None:
    """A reader's failure on a part's data (a DuckDB error about a Parquet file, which names no
    file) as a :class:`analysis.storage.StoreError` naming the experiment, arm and chunk of the
    first part (of ``experiments``) that does not read in full; None when ``exc`` is not about a
    file or no part fails (then ``exc`` stands as it is). Reads every part: for error paths."""
    text = str(exc)
    if not (isinstance(exc, (duckdb.IOException, duckdb.InternalException))
            or type(exc) is duckdb.Error  # e.g. "don't know what type" on a damaged page
            or "parquet" in text.lower() or "corrupt" in text.lower()):
        return None
    root = _store_str(store)
    if "://" in root:
        return None
    reader = StoreReader(root)
    try:
        files = reader.scan(experiments, digests=False).files
    except StoreError as e:
        return e
    found = reader.explain([f for t in TABLES for f in files[t]])
    return StoreError(found) if found else None


def store_warnings(con: duckdb.DuckDBPyConnection) -> list[str]:
    """What :func:`connect` left out of the views and why (one line per experiment), for the
    caller to show; ``[]`` when everything is read."""
    if not has_view(con, "store_warnings"):
        return []
    return [r[0] for r in con.execute(
        "SELECT message FROM store_warnings ORDER BY experiment").fetchall()]


@dataclass
class StoreTables:
    """A store opened for one's own analysis (:func:`open_store`)."""

    games: "pl.LazyFrame"
    seats: "pl.LazyFrame"
    con: duckdb.DuckDBPyConnection
    #: experiments left out (their manifest cannot be read), one line each
    warnings: list[str] = field(default_factory=list)
    #: the round traces (``run --trace N``), empty when the store has none
    rounds: "pl.LazyFrame | None" = None
    actions: "pl.LazyFrame | None" = None

    def close(self) -> None:
        self.con.close()


_POLARS_TYPES = {"VARCHAR": "String", "BIGINT": "Int64", "BOOLEAN": "Boolean", "DOUBLE": "Float64"}


def _lazy_table(files: list[str], empty: str) -> "pl.LazyFrame":
    """One LazyFrame over parts of any games: each game's parts share a schema, so they are
    scanned per game and stacked with the union of the columns (other games' columns null)."""
    import polars as pl

    by_game: dict[str, list[str]] = {}
    for f in files:
        game = next((d[5:] for d in Path(f).parts if d.startswith("game=")), "")
        by_game.setdefault(game, []).append(f)
    if not by_game:
        cols = [c.strip().split(" ", 1) for c in empty.split(",")]
        return pl.LazyFrame(schema={n: getattr(pl, _POLARS_TYPES[t]) for n, t in cols})
    frames = [pl.scan_parquet(fs) for _, fs in sorted(by_game.items())]
    return frames[0] if len(frames) == 1 else pl.concat(frames, how="diagonal_relaxed")


def open_store(store, experiments=None) -> StoreTables:
    """The store's ``games`` and ``seats`` (and ``rounds``, ``actions``) as Polars LazyFrames, plus :func:`connect`'s DuckDB
    connection with every view: one line to start one's own analysis in Python::

        st = analysis.open_store("data")
        st.seats.group_by("game", "n_players", "seat").agg(pl.col("win_share").mean()).collect()
        st.con.sql("SELECT * FROM seat_win_rates")

    Both read the same parts, experiment by experiment (``experiments``: only these): the
    finished chunks of what ``run`` made (checked; a damaged part raises, naming the experiment
    and chunk), every part of a hand-made or remote store, nothing of an experiment whose
    manifest cannot be read (a :class:`analysis.storage.StoreWarning`, and ``warnings``).
    A store of several games has every game's columns (null in the other games' rows).
    """
    root = _store_str(store)
    scan = _scan(root, experiments)
    files = scan.files if scan is not None else {t: StoreReader(root).part_files(t)
                                                 for t in TABLES}
    return StoreTables(_lazy_table(files["games"], _GAMES_EMPTY),
                       _lazy_table(files["seats"], _SEATS_EMPTY),
                       _connect(root, scan, ":memory:", False),
                       list(scan.warnings) if scan is not None else [],
                       _lazy_table(files["rounds"], _ROUNDS_EMPTY),
                       _lazy_table(files["actions"], _ACTIONS_EMPTY))


def has_view(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """True if ``name`` is a view or table of this connection."""
    n = con.execute(
        "SELECT count(*) FROM (SELECT view_name AS n FROM duckdb_views() "
        "UNION ALL SELECT table_name FROM duckdb_tables()) WHERE n = ?", [name]).fetchone()[0]
    return n > 0


def query(con: duckdb.DuckDBPyConnection, sql: str, params=None) -> pd.DataFrame:
    """Run ``sql`` (with ``?`` parameters) and return a pandas DataFrame."""
    return con.execute(sql, params or []).df()


def _mart(con, view: str, experiment: str | None, order: str) -> pd.DataFrame:
    import pandas as pd

    if not has_view(con, view):
        return pd.DataFrame()
    where, params = ("WHERE experiment = ?", [experiment]) if experiment is not None else ("", [])
    return query(con, f"SELECT * FROM {view} {where} ORDER BY {order}", params)


def experiment_names(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Experiments in the store: those with a manifest or with stored results (sorted)."""
    rows = con.execute(
        "SELECT name FROM experiments UNION SELECT DISTINCT experiment FROM games "
        "UNION SELECT DISTINCT experiment FROM seats").fetchall()
    return sorted({r[0] for r in rows if r[0] is not None})


def load_manifest(store, experiment: str) -> dict:
    """The manifest of ``experiment`` as a dict, or ``{}`` when it has none (or it is unreadable)."""
    reader = StoreReader(_store_str(store))
    try:
        data = json.loads(reader.manifest_path(experiment).read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("name", experiment) == experiment:
            return data
    except (OSError, ValueError):
        pass
    # fall back to a manifest whose "name" matches but whose file is named otherwise
    try:
        for p in map(Path, reader.manifest_files()):
            try:
                data = json.loads(p.read_text(encoding="utf-8"))
            except ValueError:
                continue
            if isinstance(data, dict) and data.get("name") == experiment:
                return data
    except OSError:
        pass
    return {}


def _with_wilson(df: pd.DataFrame, successes: str, n: str = "n_games",
                 level: float = 0.95) -> pd.DataFrame:
    import pandas as pd

    if df.empty:
        return df.assign(low=pd.Series(dtype=float), high=pd.Series(dtype=float))
    lo, hi = stats.wilson_interval(df[successes].to_numpy(float), df[n].to_numpy(float), level)
    return df.assign(low=np.asarray(lo, dtype=float), high=np.asarray(hi, dtype=float))


def _t_quantile(n: pd.Series, level: float) -> np.ndarray:
    """Student-t quantile for a two-sided ``level`` interval of a mean of ``n`` values."""
    from scipy.stats import t as t_dist  # here: importing scipy.stats takes half a second

    return t_dist.ppf(0.5 + level / 2, np.maximum(n.to_numpy(float) - 1, 1))


def arms(con, experiment: str | None = None) -> pd.DataFrame:
    """Arms from the manifests (``stg_arms``): game, players, variant, policies, components..."""
    return _mart(con, "stg_arms", experiment, "experiment, arm_index")


def _with_t(df: pd.DataFrame, mean: str, sd: str, level: float) -> pd.DataFrame:
    """``df`` with a Student-t interval of column ``mean`` (``mean_low``/``mean_high``)."""
    if df.empty:
        return df
    t = _t_quantile(df["n_games"], level)
    se = df[sd].fillna(0.0) / np.sqrt(df["n_games"])
    return df.assign(mean_low=df[mean] - t * se, mean_high=df[mean] + t * se)


def seat_win_rates(con, experiment: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Win rate by experiment / arm / seat (``seat_win_rates``) with Wilson ``low``/``high``.

    The interval treats ``win_share_sum`` (ties split 1/k) as the number of successes.
    """
    df = _mart(con, "seat_win_rates", experiment, "experiment, arm, seat")
    return _with_wilson(df, "win_share_sum", level=level)


def win_rate_by(con, experiment: str, column: str, level: float = 0.95) -> pd.DataFrame:
    """Win rate by arm and the values of seat column ``column`` (e.g. a turn-order role), with
    Wilson ``low``/``high``; empty if the store has no such column."""
    import pandas as pd

    if not has_view(con, "stg_seats") or column not in query(
            con, "SELECT * FROM stg_seats LIMIT 0").columns:
        return pd.DataFrame()
    df = query(con, f"""
        SELECT arm, n_players, "{column}" AS value, count(*) AS n_games,
               sum(win_share) AS win_share_sum, avg(win_share) AS win_rate
        FROM stg_seats WHERE experiment = ? AND n_players > 1
        GROUP BY ALL ORDER BY arm, value""", [experiment])
    return _with_wilson(df, "win_share_sum", level=level)


def score_summary(con, experiment: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Score summary by seat, with a t interval of the mean score (``mean_low``/``mean_high``)."""
    df = _mart(con, "score_summary", experiment, "experiment, arm, seat")
    return _with_t(df, "mean_score", "sd_score", level)


def score_histogram(con, experiment: str | None = None) -> pd.DataFrame:
    """Score frequencies per arm and seat (``score_histogram``)."""
    return _mart(con, "score_histogram", experiment, "experiment, arm, seat, score")


def game_length(con, experiment: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Rounds per game by arm, with a t interval of the mean; truncated / tied / no-winner counts."""
    df = _mart(con, "game_length", experiment, "experiment, arm")
    return _with_t(df, "mean_rounds", "sd_rounds", level)


def rounds_histogram(con, experiment: str | None = None) -> pd.DataFrame:
    """Game-length frequencies per arm (``rounds_histogram``)."""
    return _mart(con, "rounds_histogram", experiment, "experiment, arm, rounds")


def end_reasons(con, experiment: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """End reasons per arm with counts, shares and Wilson intervals of the share."""
    df = _mart(con, "end_reasons", experiment, "experiment, arm, n_games DESC, end_reason")
    if df.empty:
        return df
    totals = df.groupby(["experiment", "arm"])["n_games"].transform("sum")
    lo, hi = stats.wilson_interval(df["n_games"].to_numpy(float), totals.to_numpy(float), level)
    return df.assign(low=lo, high=hi)


def solo_ladder(con, experiment: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Solo win probability per variant and policy (``solo_ladder``) with Wilson intervals."""
    df = _mart(con, "solo_ladder", experiment, "experiment, arm, policy")
    return _with_wilson(df, "wins", level=level)


def arm_fingerprints(con, experiment: str, arms) -> dict[str, tuple[int, int]]:
    """Per arm: (games, order-free fingerprint of every game's seeds and seat outcomes).

    Two arms with equal fingerprints played the same seeds to the same results game by game
    (every column of ``seats`` but the experiment and arm names: seed, game, seat, won, score
    and the game's own columns such as money or lock payments): whatever differs between their
    rules never came into play. Used by the solo report to flag variants that change nothing
    for a policy.
    """
    arms = list(arms)
    if not arms:
        return {}
    cols = [r[0] for r in con.execute("SELECT column_name FROM (DESCRIBE seats)").fetchall()
            if r[0] not in ("experiment", "arm", "variant", "policy")]
    marks = ", ".join("?" * len(arms))
    rows = con.execute(
        f"SELECT arm, count(*), bit_xor(hash({', '.join(cols)})) FROM seats "
        f"WHERE experiment = ? AND arm IN ({marks}) GROUP BY arm", [experiment, *arms]).fetchall()
    return {r[0]: (int(r[1]), int(r[2])) for r in rows}


def solo_loss_day(con, experiment: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Day the solo game ended per variant and policy, with shares (the game's
    ``GameSpec.solo_difficulty.end_day`` = played to the end).

    Empty when the store has no ``loss_day`` column.
    """
    df = _mart(con, "solo_loss_day", experiment, "experiment, arm, policy, loss_day")
    if df.empty:
        return df
    totals = df.groupby(["experiment", "arm", "variant", "policy"])["n_games"].transform("sum")
    lo, hi = stats.wilson_interval(df["n_games"].to_numpy(float), totals.to_numpy(float), level)
    return df.assign(low=lo, high=hi)


def solo_task_cards(con, experiment: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Solo win probability per task card, variant and policy, with Wilson intervals.

    Empty when the store has no ``task_card``/``task_card_2`` columns.
    """
    df = _mart(con, "solo_task_cards", experiment, "experiment, arm, policy, card")
    return _with_wilson(df, "wins", level=level)


def paired_values(con, experiment: str, arm: str, baseline_arm: str, column: str = "win_share",
                  seat: int | None = 0, baseline_experiment: str | None = None):
    """Per-game values of ``column`` in two arms, aligned on ``(master_seed, game_index)``.

    For common-random-number comparisons (``playtest compare``): feed the result to
    :func:`analysis.stats.paired_difference`. Games present in only one arm are dropped.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
    experiment, arm : str
        The treatment arm.
    baseline_arm : str
        The baseline arm (in ``baseline_experiment``, default the same experiment).
    column : str, default "win_share"
        A seats column (``win_share``, ``score``, ``rank``...) when ``seat`` is given, else a
        games column (``rounds``...).
    seat : int or None, default 0
        Seat to compare; None compares per-game columns from ``games``.

    Returns
    -------
    (a, b) : tuple of numpy.ndarray
        Values of the arm and of the baseline, in ``(master_seed, game_index)`` order.
    """
    table = "stg_seats" if seat is not None else "stg_games"
    if column not in _columns(con, table):
        raise ValueError(f"unknown column '{column}' of {table}; valid: "
                         f"{', '.join(sorted(_columns(con, table)))}")
    seat_cond = "AND a.seat = ? AND b.seat = ?" if seat is not None else ""
    params = [experiment, arm, baseline_experiment or experiment, baseline_arm]
    if seat is not None:
        params += [seat, seat]
    df = query(con, f"""
        SELECT CAST(a."{column}" AS DOUBLE) AS a, CAST(b."{column}" AS DOUBLE) AS b
        FROM {table} AS a JOIN {table} AS b
          ON a.master_seed = b.master_seed AND a.game_index = b.game_index
        WHERE a.experiment = ? AND a.arm = ? AND b.experiment = ? AND b.arm = ? {seat_cond}
        ORDER BY a.master_seed, a.game_index""", params)
    return df["a"].to_numpy(float), df["b"].to_numpy(float)


#: Seat rows fetched per query by :func:`arms_games` (about 100 MB of frames at a time).
ARMS_BATCH_ROWS = 2_000_000


def arms_games(con, experiment: str, arms=None, seat_columns=("win_share", "score"),
               batch_rows: int = ARMS_BATCH_ROWS):
    """``(arm, per-game table)`` of every arm of an experiment (or of ``arms``), in arm order:
    the tables :func:`arm_games` gives, fetched in one query per table for as many arms as fit
    in ``batch_rows`` seat rows (a study of a thousand small arms is two queries, not two
    thousand each opening the store's parts); arms without stored games are left out.

    Yields
    ------
    (str, pandas.DataFrame)
        Also the ``game`` of the arm as ``df.attrs["game"]``.
    """
    where, params = "experiment = ?", [experiment]
    if arms is not None:
        arms = list(dict.fromkeys(arms))
        if not arms:
            return
        where += f" AND arm IN ({', '.join('?' * len(arms))})"
        params += arms
    sizes = con.execute(f"SELECT arm, count(*) * any_value(n_players) FROM stg_games "
                        f"WHERE {where} GROUP BY arm ORDER BY arm", params).fetchall()
    batch: list[str] = []
    rows = 0
    for i, (arm, n) in enumerate(sizes):
        batch.append(arm)
        rows += int(n)
        if rows >= batch_rows or i == len(sizes) - 1:
            yield from _arms_batch(con, experiment, batch, seat_columns)
            batch, rows = [], 0


def _arms_batch(con, experiment: str, arms: list[str], seat_columns):
    import pandas as pd

    marks = ", ".join("?" * len(arms))
    g = query(con, f"""
        SELECT arm, game, master_seed, game_index, n_players, rounds, truncated, n_winners,
               end_reason
        FROM stg_games WHERE experiment = ? AND arm IN ({marks})
        ORDER BY arm, master_seed, game_index""", [experiment, *arms])
    cols = ", ".join(f'CAST("{c}" AS DOUBLE) AS "{c}"' for c in seat_columns)
    s = query(con, f"""
        SELECT arm, {cols}
        FROM stg_seats WHERE experiment = ? AND arm IN ({marks})
        ORDER BY arm, master_seed, game_index, seat""", [experiment, *arms])
    s_at = _runs(s["arm"].to_numpy(object))
    gcols = {c: g[c].to_numpy() for c in g.columns}  # once: a slice per arm below
    scols = {c: s[c].to_numpy(float) for c in seat_columns}
    for arm, (a, b) in _runs(gcols["arm"]).items():
        n_players = int(gcols["n_players"][a])
        sa, sb = s_at.get(arm, (0, 0))
        if sb - sa != (b - a) * n_players:
            raise ValueError(f"arm {experiment}/{arm}: {sb - sa} seat rows for {b - a} games of "
                             f"{n_players} players (store incomplete or mixed)")
        out = {c: v[a:b] for c, v in gcols.items() if c not in ("arm", "game")}
        for c in seat_columns:
            v = scols[c][sa:sb].reshape(b - a, n_players)
            for seat in range(n_players):
                out[f"{c}_{seat}"] = v[:, seat]
        df = pd.DataFrame(out)
        df.attrs["game"] = gcols["game"][a]
        yield arm, df


def _runs(keys: np.ndarray) -> dict:
    """``{key: (start, stop)}`` of the runs of equal values of a sorted array."""
    if not len(keys):
        return {}
    cut = np.flatnonzero(keys[1:] != keys[:-1]) + 1
    starts = np.r_[0, cut]
    stops = np.r_[cut, len(keys)]
    return {keys[a]: (int(a), int(b)) for a, b in zip(starts, stops)}


def arm_games(con, experiment: str, arm: str, seat_columns=("win_share", "score")) -> pd.DataFrame:
    """One row per game of one arm, seats spread into columns (``win_share_0``, ``score_0``...).

    The per-game table behind paired comparisons, sweeps and precision checks
    (:mod:`analysis.studies`): ``master_seed, game_index, n_players, rounds, truncated,
    n_winners, end_reason`` and, for every seat ``s`` and every name in ``seat_columns``, a
    column ``<name>_<s>``. Rows are in ``(master_seed, game_index)`` order; empty when the arm
    has no stored games.
    """
    import pandas as pd

    g = query(con, """
        SELECT master_seed, game_index, n_players, rounds, truncated, n_winners, end_reason
        FROM stg_games WHERE experiment = ? AND arm = ?
        ORDER BY master_seed, game_index""", [experiment, arm])
    if g.empty:
        return g
    n_players = int(g["n_players"].iloc[0])
    cols = ", ".join(f'CAST("{c}" AS DOUBLE) AS "{c}"' for c in seat_columns)
    s = query(con, f"""
        SELECT master_seed, game_index, seat, {cols}
        FROM stg_seats WHERE experiment = ? AND arm = ?
        ORDER BY master_seed, game_index, seat""", [experiment, arm])
    if len(s) != len(g) * n_players:
        raise ValueError(f"arm {experiment}/{arm}: {len(s)} seat rows for {len(g)} games of "
                         f"{n_players} players (store incomplete or mixed)")
    out = {c: g[c].to_numpy() for c in g.columns}
    for c in seat_columns:
        v = s[c].to_numpy(float).reshape(len(g), n_players)
        for seat in range(n_players):
            out[f"{c}_{seat}"] = v[:, seat]
    return pd.DataFrame(out)
