"""Declared layouts: every offset a kernel uses is derived at import from one declaration.

A game's kernels address flat arrays (the packed rule parameters, the packed policy
parameters, the game state, the output rows) through integer constants, because Numba freezes
them into the compiled code. Numbering those constants by hand makes every insertion shift the
rest and lets a table in a docstring drift from the code; so each array is declared once, as an
ordered list of named fields with their sizes, and :class:`Block` derives the offsets:

>>> STATE = Block("S_", (("day", 1, "current day"), ("row", 8, "tile ids of the row")))
>>> STATE.offsets
{'S_DAY': 0, 'S_ROW': 1}
>>> STATE.length
9

The declaring module exports the offsets of its blocks as module attributes with one line at
its end, ``__getattr__, __dir__ = exports(STATE, SEAT, ...)`` (:func:`exports`, a PEP 562
module hook: nothing is injected into the module's globals behind a linter's back). Every
other module reads them through the module, ``from . import layout as L`` then ``L.S_DAY``:
Numba resolves ``L.S_DAY`` when it compiles and freezes the value as a constant, exactly like a
global. The declaring module itself never names an exported constant (it uses
``STATE.offset("day")`` or ``STATE.offsets``). The module lists its blocks in
``GameSpec.layouts``; ``playtest layout GAME`` prints them as tables (:meth:`Block.table`), so
the human-readable layout is generated, never typed twice.

Rule and policy parameters are declared by their ``ParamSpec`` tables: :func:`params_block`
turns a table into a block of ``R_*`` (or ``P_*``) offsets identical to :func:`sim.spec.layout`.
Output columns are declared by ``GameSpec``'s ``Column`` lists: :func:`columns_block`.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    """One named run of ``size`` consecutive slots."""

    name: str
    size: int
    doc: str = ""


class Block:
    """An ordered list of fields packed one after the other from ``start``.

    ``prefix`` + the upper-cased field name is the exported constant (``S_`` + ``day`` ->
    ``S_DAY``). Names must be unique and sizes positive; a mistake raises at import.
    """

    def __init__(self, prefix: str, fields: Iterable, start: int = 0, title: str = ""):
        self.prefix = prefix
        self.start = start
        self.title = title
        self.fields: tuple[Field, ...] = tuple(
            f if isinstance(f, Field) else Field(*f) for f in fields)
        offsets: dict[str, int] = {}
        off = start
        for f in self.fields:
            if f.size < 1:
                raise ValueError(f"layout field {f.name!r}: size must be >= 1, got {f.size}")
            key = self.constant(f.name)
            if key in offsets:
                raise ValueError(f"layout field {f.name!r} is declared twice")
            offsets[key] = off
            off += f.size
        self.offsets = offsets
        self.end = off

    @property
    def length(self) -> int:
        """Slots the block takes (``end - start``)."""
        return self.end - self.start

    def constant(self, name: str) -> str:
        return self.prefix + name.upper()

    def offset(self, name: str) -> int:
        return self.offsets[self.constant(name)]

    def table(self) -> str:
        """The block as a plain-text table: constant, offset (range), size, meaning."""
        rows = [(self.constant(f.name),
                 str(self.offsets[self.constant(f.name)]) if f.size == 1 else
                 f"{self.offsets[self.constant(f.name)]}..{self.offsets[self.constant(f.name)] + f.size - 1}",
                 str(f.size), f.doc) for f in self.fields]
        w0 = max([len("constant")] + [len(r[0]) for r in rows])
        w1 = max([len("offset")] + [len(r[1]) for r in rows])
        w2 = max([len("size")] + [len(r[2]) for r in rows])
        head = f"{'constant':<{w0}}  {'offset':<{w1}}  {'size':>{w2}}  meaning"
        lines = [self.title, head, "-" * len(head)] if self.title else [head, "-" * len(head)]
        lines += [f"{a:<{w0}}  {b:<{w1}}  {c:>{w2}}  {d}".rstrip() for a, b, c, d in rows]
        lines.append(f"{'(length)':<{w0}}  {self.length}")
        return "\n".join(lines)


def params_block(prefix: str, params, title: str = "") -> Block:
    """The offsets of a ``ParamSpec`` table in its packed array (== ``sim.spec.layout``)."""
    return Block(prefix, [Field(p.name, p.width, f"{p.kind}: {p.doc}") for p in params],
                 title=title)


def columns_block(prefix: str, common: Iterable[str], columns, title: str = "") -> Block:
    """The indices of an output row: the ``common`` columns, then the game's ``Column`` list."""
    return Block(prefix, [Field(name, 1, "common column") for name in common]
                 + [Field(c.name, 1, c.doc) for c in columns], title=title)


def choice_code(params, name: str, value: str) -> int:
    """The packed code of ``value`` of the choice parameter ``name`` in ``params`` (its index in
    the choices), for kernel constants such as ``STACK_ADD``."""
    return next(p for p in params if p.name == name).choices.index(value)


def exports(*blocks: Block, **constants: int) -> tuple[Callable[[str], int], Callable[[], list]]:
    """The PEP 562 hooks ``(__getattr__, __dir__)`` that export the offsets of ``blocks`` (and
    the named ``constants``, such as codes derived from a tuple of names) as attributes of the
    module that calls it, at its end::

        __getattr__, __dir__ = exports(STATE, SEAT, GAME_OUT, SEAT_OUT)

    ``module.S_DAY`` (and ``from module import S_DAY``) then gives the offset; Numba compiles
    ``L.S_DAY`` into a constant. A name exported twice, or also assigned in the module, raises.
    """
    names: dict[str, int] = {}
    for mapping in [b.offsets for b in blocks] + [constants]:
        for name, value in mapping.items():
            if name in names:
                raise ValueError(f"{name} is exported twice")
            names[name] = value
    module = sys._getframe(1).f_globals
    clash = sorted(set(names) & set(module))
    if clash:
        raise ValueError(f"exported names also assigned in {module.get('__name__')}: {clash}")
    where = module.get("__name__")

    def __getattr__(name: str) -> int:
        try:
            return names[name]
        except KeyError:
            raise AttributeError(f"module {where!r} has no attribute {name!r}") from None

    def __dir__() -> list:
        return sorted(set(module) | set(names))

    return __getattr__, __dir__
