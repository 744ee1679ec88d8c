"""Generic loops over a game's step functions, compiled once per game.

A module (``sim.search``, ``sim.tracing``, ``sim.profile``) writes its loops once, as plain
functions over placeholders for the game's jitted functions (``_new``, ``_advance``, ...);
:func:`compile_for_game` compiles a copy of each with the placeholders bound to one game's
functions, named ``<name>__<suffix>``.

Numba caches these copies (``cache=True``): each has a name of its own in its module's file,
so the games' copies do not collide, and none is a closure (whose dispatcher cells Numba
hashes differently in every process, so a closure never hits the cache; a function taking the
game's functions as arguments is never found in the cache either: it would recompile in every
process, minutes under load). Numba tells cached functions apart by name and source file,
not by what their globals bind: the suffix must name everything bound that can differ (the
game, and for a trace the hooks). A change of any source under ``sim/`` starts a fresh cache
directory (``sim/__init__.py``).
"""
from __future__ import annotations

from types import FunctionType

from numba import njit

from .borrow import whole_program


class Kernel:
    """The compiled loop functions of one game, by their plain names."""

    def __init__(self, **fns):
        self.__dict__.update(fns)


def compile_for_game(module_globals: dict, loop: tuple, suffix: str, bindings: dict,
                     entry: str, nogil: tuple = ()) -> Kernel:
    """A copy of each function of ``loop`` (plain functions of the module whose globals are
    ``module_globals``), its globals the module's with ``bindings`` (the placeholders) set,
    and the other loop functions bound to their copies; ``entry`` (the name of one of them)
    is optimised as one program (``sim.borrow.whole_program``); the functions in ``nogil``
    release the GIL (a loop that ``sim.threads`` runs on threads)."""
    ns = dict(module_globals)
    ns.update(bindings)
    fns = {}
    for f in loop:
        name = f"{f.__name__}__{suffix}"
        code = f.__code__.replace(co_name=name, co_qualname=name)
        g = FunctionType(code, ns, name, f.__defaults__)
        g.__qualname__ = name
        g.__doc__ = f.__doc__
        ns[f.__name__] = fns[f.__name__] = njit(cache=True, nogil=f in nogil)(g)
    whole_program(module_globals["__name__"], f"{entry}__{suffix}", generated=True)
    return Kernel(**fns)
