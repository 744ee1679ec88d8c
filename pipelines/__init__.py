"""Experiment orchestration: chunked runs, the Parquet store, executors and the CLI."""
