"""Analysis: DuckDB views, statistics, plots and HTML reports over the store."""
