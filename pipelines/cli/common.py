"""What every command shares: the two consoles, the error guard that turns failures into one
message and an exit code (design §4), the game registry, value formatting.

Nothing here imports the simulation (Numba) or the analysis stack: ``playtest --help`` and the
parsing of any command stay cheap, and each command imports what it needs when it runs.
"""
from __future__ import annotations

import functools
import importlib
import os
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

try:  # typer >= 0.22 carries its own click
    from typer._click.exceptions import BadParameter, UsageError
except ImportError:  # pragma: no cover - typer on click
    from click.exceptions import BadParameter, UsageError

# Tables stay readable when piped to a file or a CI log (rich would assume 80 columns).
# No markup and no emoji codes: strings print as they are (SQL cells, names, policies, paths and
# error messages hold brackets and colons: '[/x]', 'root:x:0'); styling is explicit (Text).
out = Console(highlight=False, markup=False, emoji=False,
              width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, markup=False, emoji=False)


def printable(text: str) -> str:
    """``text`` with control characters other than newline and tab shown as ``\\xNN`` (a
    DuckDB message may quote a damaged file's bytes)."""
    return "".join(c if c.isprintable() or c in "\n\t" else f"\\x{ord(c):02x}" for c in text)


def error(message: str) -> None:
    """``error: message`` on stderr, the message as it is (no markup, no emoji)."""
    err.print(Text.assemble(("error:", "bold red"), " ", printable(message)), soft_wrap=True)


class CLIError(Exception):
    """A failure that is not bad input (exit code 1), e.g. a missing optional component."""


def _is_spec_error(e: BaseException) -> bool:
    """``isinstance(e, sim.spec.SpecError)`` without importing ``sim`` (and Numba) up front: a
    SpecError exists only once ``sim.spec`` has been imported."""
    spec = sys.modules.get("sim.spec")
    return spec is not None and isinstance(e, spec.SpecError)


def guarded(fn):
    """Bad input -> one message, exit 2; other known failures -> exit 1; no tracebacks."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except KeyboardInterrupt:
            err.print("interrupted; run the same command again to resume")
            raise typer.Exit(130) from None
        except Exception as e:
            if _is_spec_error(e):
                error(str(e))
                raise typer.Exit(2) from None
            if isinstance(e, CLIError):
                error(str(e))
                raise typer.Exit(1) from None
            if isinstance(e, OSError):  # a file the user named (or the disk) failed
                where = f"{e.filename}: " if e.filename else ""
                error(where + (e.strerror or str(e)))
                raise typer.Exit(2) from None
            raise

    return wrapper


def usage_message(e: UsageError) -> str:
    """A usage error in one line: ``--games: expected a whole number, got 'x'`` for a value of
    the wrong type, else click's message and where to read the usage."""
    param = getattr(e, "param", None)
    ctx = getattr(e, "ctx", None)
    where = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
    if isinstance(e, BadParameter) and param is not None \
            and type(e).__name__ != "MissingParameter":
        opts = list(getattr(param, "opts", None) or ())
        name = next((o for o in opts if o.startswith("--")), None) or \
            (opts[0] if opts and getattr(param, "param_type_name", "") == "option"
             else str(param.name or "").upper())
        cause = e.__cause__
        problems = cause.errors() if callable(getattr(cause, "errors", None)) else []
        if problems:  # pydantic's reading of the value
            kind, value = str(problems[0].get("type", "")), problems[0].get("input")
            if kind.startswith("int_"):
                return f"{name}: expected a whole number, got {value!r}"
            if kind.startswith("float_"):
                return f"{name}: expected a number, got {value!r}"
        return f"{name}: {' '.join(e.message.split())}"
    return " ".join(e.format_message().split()) + where


class Group(TyperGroup):
    """The app's command group: a usage error (unknown option or command, missing argument, a
    value of the wrong type) is one line and exit code 2 like any bad input (design §4), not
    Typer's usage box. ``playtest`` alone still prints the help."""

    def make_context(self, info_name, args, parent=None, **extra):
        with _one_line_usage_errors():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx):
        with _one_line_usage_errors():
            return super().invoke(ctx)


class _one_line_usage_errors:
    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if e is None or not isinstance(e, UsageError) or type(e).__name__ == "NoArgsIsHelpError":
            return False
        error(usage_message(e))
        raise typer.Exit(2)


def check_report_dir(out_dir: Path, store) -> None:
    """``--out DIR`` of a command that writes an HTML report, checked before anything runs:
    not a file, not inside the store (SpecError, exit 2)."""
    from sim.spec import SpecError

    from .. import settings

    if out_dir.exists() and not out_dir.is_dir():
        raise SpecError(f"--out {out_dir}: is a file; give a directory for the report")
    root = settings.store_root(store).expanduser().resolve()
    if out_dir.expanduser().resolve().is_relative_to(root):
        raise SpecError(f"--out {out_dir}: inside the store {root}; write reports elsewhere")


def reading_store(store) -> Path:
    """The store a reading command (``sql``, ``report``, ``list``, ``show``) reads:
    :func:`pipelines.settings.store_root`, checked (nothing is created).

    The rule: a store is a directory holding ``experiments/`` or ``results/``. An existing empty
    directory, or the default store before the first run, is an empty store (nothing to read
    yet). Refused (SpecError: one message, exit 2): a file; a directory the user named
    (``--store``, ``$PLAYTEST_STORE``) that does not exist; a directory that holds other things
    but neither ``experiments/`` nor ``results/`` (the folder above a store: the message names
    the stores below it).
    """
    from sim.spec import SpecError

    from .. import settings

    root = settings.store_root(store)
    named = "--store" if store is not None else (
        f"${settings.STORE_ENV}" if os.environ.get(settings.STORE_ENV) else "store")
    if root.exists() and not root.is_dir():
        raise SpecError(f"{named} {root}: is a file, not a store directory; give the directory "
                        f"that holds experiments/ and results/")
    if not root.exists():
        if named == "store":
            return root  # the default store before the first run
        raise SpecError(f"{named} {root}: does not exist; give a store directory (the one "
                        f"`playtest run --store DIR` wrote)")

    def is_store(d: Path) -> bool:
        return (d / "experiments").is_dir() or (d / "results").is_dir()

    if not is_store(root):
        held = [p for p in root.iterdir() if not p.name.startswith(".")]
        if held:
            below = sorted(str(p) for p in held if p.is_dir() and is_store(p))
            hint = (f"; did you mean --store {below[0]}?" if len(below) == 1 else
                    f"; the stores in it: {', '.join(below[:5])}" + (", ..." if below[5:] else "")
                    if below else "")
            raise SpecError(f"{named} {root}: not a store (it holds neither experiments/ nor "
                            f"results/){hint}")
    return root


def registry():
    """:mod:`sim.registry`, or CLIError while a game package cannot be imported."""
    try:
        return importlib.import_module("sim.registry")
    except ImportError as e:  # a game package under construction
        raise CLIError(f"the game registry cannot be imported yet ({e})") from None


def fmt(v: Any) -> str:
    """A parameter value as the user writes it: ``true``, ``3`` (not ``3.0``), ``[1, 2]``
    (:func:`analysis.words.option_value`)."""
    from analysis.words import option_value

    return option_value(v)


def did_you_mean(name: str, valid) -> str:
    """``did you mean 'x'?`` for the closest valid name (difflib), then the valid names."""
    import difflib

    valid = list(valid)
    close = difflib.get_close_matches(name, valid, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return hint + ("valid: " + ", ".join(valid) if valid else "(none yet)")


def print_items(items: list) -> None:
    """Print rich tables and plain sentences (as they are: policy options hold brackets)."""
    for item in items:
        out.print(item, soft_wrap=isinstance(item, str))
