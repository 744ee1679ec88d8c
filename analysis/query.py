"""Read-only SQL over the store (``playtest sql``): one query statement on a locked connection
(:func:`analysis.db.connect` with ``read_only=True``), its result written by Python.

The connection itself can write no file, so ``--out`` goes through :func:`write_result`
(:func:`pipelines.store.check_out_file` keeps it out of the store and off existing files).
Every refusal is a
:class:`~sim.spec.SpecError` (bad input: exit code 2).
"""
from __future__ import annotations

from pathlib import Path

from sim.spec import SpecError

__all__ = ["READ_ONLY_STATEMENTS", "check_read_only_query", "arrow_table", "write_result"]

#: Statements ``playtest sql`` runs: queries only (DESCRIBE, SHOW, SUMMARIZE, UNPIVOT and a
#: PIVOT with an IN list parse as SELECT; a PIVOT without one is a MULTI statement, checked by
#: :func:`_is_query`).
READ_ONLY_STATEMENTS = ("SELECT", "EXPLAIN")


def check_read_only_query(con, query: str) -> None:
    """One query statement, or SpecError: the store is never written through ``sql``."""
    statements = con.extract_statements(query)
    kinds = [st.type.name for st in statements]
    if len(kinds) != 1:
        raise SpecError(f"SQL: give exactly one statement, not {len(kinds)}")
    if kinds[0] == "MULTI" and _is_query(con, statements[0].query):
        return
    what = "this statement is" if kinds[0] == "MULTI" else f"{kinds[0]} statements are"
    if kinds[0] not in READ_ONLY_STATEMENTS:
        raise SpecError(f"SQL: {what} not allowed; `playtest sql` is read-only (valid: one "
                        f"query: SELECT, PIVOT, ...; write results with --out FILE)")


def _is_query(con, text: str) -> bool:
    """Whether a MULTI statement (what DuckDB makes of a PIVOT without an IN list: the query
    plus the statements that find the pivoted values) is a query: it still parses as one
    statement as a subquery, ``SELECT * FROM (<it>)`` (a CREATE ... AS PIVOT, COPY (PIVOT ...)
    TO, INSERT ... PIVOT or WITH ... INSERT does not). ``EXPLAIN [ANALYZE]`` in front and
    semicolons and comments at the end are left out of the check."""
    import duckdb

    tokens = duckdb.tokenize(text)
    kind = duckdb.token_type
    end = len(text)
    for pos, t in reversed(tokens):  # trailing comments and semicolons
        if t == kind.comment or (t == kind.operator and text[pos] == ";"):
            end = pos
        else:
            break
    start = 0
    words = [(pos, t) for pos, t in tokens if t != kind.comment and pos < end]
    for word in ("EXPLAIN", "ANALYZE"):
        if words and words[0][1] == kind.keyword \
                and text[words[0][0]:words[0][0] + len(word)].upper() == word:
            start = words[0][0] + len(word)
            words = words[1:]
        else:
            break
    body = text[start:end]
    try:
        wrapped = con.extract_statements(f"SELECT * FROM (\n{body}\n)")
    except duckdb.Error:
        return False
    return len(wrapped) == 1 and wrapped[0].type.name in ("SELECT", "MULTI")


def arrow_table(result):
    """A query result as one Arrow table (DuckDB may hand back a record batch reader)."""
    return result.read_all() if hasattr(result, "read_all") else result


def write_result(result, format: str, out_file: Path) -> None:
    """Write a query result (Arrow) to ``out_file`` as ``parquet`` or CSV, in Python: the
    DuckDB connection itself can write no file."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    table = arrow_table(result)
    try:
        if format == "parquet":
            pq.write_table(table, out_file)
        else:
            pacsv.write_csv(table, out_file)
    except OSError as e:
        raise SpecError(f"--out {out_file}: cannot write ({e.strerror or e})") from None
