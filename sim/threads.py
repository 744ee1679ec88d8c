"""Games in parallel on Python threads.

Every game's ``play_many`` (and the search's) is a serial loop compiled with ``nogil=True``:
:func:`play_in_threads` cuts the output rows into contiguous slices and plays them on a pool
of ``numba.get_num_threads()`` threads, which run at the same time because the kernels release
the GIL. A game is a pure function of (seed, index), so the slicing never changes a result.

Why not ``prange``: a ``parallel=True`` kernel runs Numba's parfor passes and compiles a
second copy of the whole game into a gufunc, several seconds of a first run's compilation per
game (``sim.borrow`` on compile time); threads over a serial kernel cost nothing to compile
and play as fast.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

SLICES_PER_THREAD = 8  # more slices than threads, so that slow games even out


def slices(n: int, threads: int) -> list[tuple[int, int]]:
    """Contiguous ``(lo, hi)`` row ranges covering ``0..n`` for ``threads`` threads (one range
    for one thread)."""
    k = max(1, min(n, 1 if threads == 1 else threads * SLICES_PER_THREAD))
    bounds = [n * j // k for j in range(k + 1)]
    return [(bounds[j], bounds[j + 1]) for j in range(k) if bounds[j] < bounds[j + 1]]


def play_in_threads(play_many, args: tuple, first_index: int, games: np.ndarray,
                    seats: np.ndarray, threads: int | None = None) -> None:
    """``play_many(*args, first_index + lo, games[lo:hi], seats[lo:hi])`` over the slices of
    the rows, on ``threads`` threads (default ``numba.get_num_threads()``)."""
    threads = numba.get_num_threads() if threads is None else max(1, threads)
    parts = slices(games.shape[0], threads)

    def play(part):
        lo, hi = part
        play_many(*args, np.int64(first_index + lo), games[lo:hi], seats[lo:hi])

    if len(parts) <= 1:
        for part in parts:
            play(part)
        return
    with ThreadPoolExecutor(max_workers=min(threads, len(parts))) as pool:
        list(pool.map(play, parts))  # re-raises a slice's error
