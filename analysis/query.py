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

#: Statements ``playtest sql`` runs: queries only (DESCRIBE, SHOW, SUMMARIZE parse as SELECT).
READ_ONLY_STATEMENTS = ("SELECT", "EXPLAIN")


def check_read_only_query(con, query: str) -> None:
    """One query statement, or SpecError: the store is never written through ``sql``."""
    kinds = [st.type.name for st in con.extract_statements(query)]
    if len(kinds) != 1:
        raise SpecError(f"SQL: give exactly one statement, not {len(kinds)}")
    if kinds[0] not in READ_ONLY_STATEMENTS:
        raise SpecError(f"SQL: {kinds[0]} statements are not allowed; `playtest sql` is "
                        f"read-only (valid: a SELECT query; write results with --out FILE)")


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
