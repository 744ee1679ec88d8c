"""sim.borrow: a borrowed view is the same memory, shape and type as its owner."""
import numpy as np
from numba import njit

from sim.borrow import borrowed


@njit
def _write_through(a, t):
    v = borrowed(a)
    v[0] = 7
    u = borrowed(t)
    u[1][2] = 9
    w = v[1:3]          # slices of a view are views too
    w[1] = 5
    return v.sum() + u[0].shape[0] + u[1].shape[0]


def test_borrowed_views_alias_the_owner_arrays():
    a = np.zeros(4, np.int64)
    t = (np.zeros(3), np.zeros(5, np.int64))
    r = _write_through(a, t)
    assert list(a) == [7, 0, 5, 0]
    assert t[1][2] == 9
    assert r == 12 + 3 + 5

