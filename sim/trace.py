"""Event logs for ``playtest replay``.

A log is an ``int64[capacity, EV_WIDTH]`` array. Row 0 column 0 holds the number of events
written; events occupy rows 1.. as ``(code, a0, a1, ..., a6)``. Each game defines its event codes
(``EV_*`` in its kernel) and a ``format_event`` that renders one event as text. ``play_many``
passes a 1-row dummy log, and :func:`emit` does nothing then, so tracing costs one branch.
"""
import numpy as np
from numba import njit

EV_WIDTH = 8


def new_log(capacity: int) -> np.ndarray:
    """An empty log that holds up to ``capacity`` events."""
    return np.zeros((capacity + 1, EV_WIDTH), dtype=np.int64)


def no_log() -> np.ndarray:
    """The 1-row dummy log used by ``play_many`` (tracing off)."""
    return np.zeros((1, EV_WIDTH), dtype=np.int64)


@njit(cache=True)
def _append(log, code, a0, a1, a2, a3, a4, a5, a6):
    """Append one event (all int64) to ``log`` if tracing is on and there is room."""
    if log.shape[0] <= 1:
        return
    n = log[0, 0]
    if n + 1 >= log.shape[0]:
        return
    r = n + 1
    log[r, 0] = code
    log[r, 1] = a0
    log[r, 2] = a1
    log[r, 3] = a2
    log[r, 4] = a3
    log[r, 5] = a4
    log[r, 6] = a5
    log[r, 7] = a6
    log[0, 0] = n + 1


@njit(cache=True)
def emit(log, code, a0=0, a1=0, a2=0, a3=0, a4=0, a5=0, a6=0):
    """Append one event to ``log`` if tracing is on and there is room. It casts its arguments
    to int64, so the body (``_append``) is compiled once even where ``emit`` itself is compiled
    per combination of argument types (with ``sim.borrow``'s patches off)."""
    _append(log, np.int64(code), np.int64(a0), np.int64(a1), np.int64(a2), np.int64(a3),
            np.int64(a4), np.int64(a5), np.int64(a6))


def events(log: np.ndarray) -> np.ndarray:
    """The written events, as an ``int64[n, EV_WIDTH]`` view."""
    return log[1 : 1 + int(log[0, 0])]
