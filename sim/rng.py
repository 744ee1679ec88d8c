"""Counter-based random streams for the kernels.

Game ``i`` of a run with master seed ``s`` draws only from streams keyed by ``(s, i, sub)``,
so a game's result does not depend on chunking, thread count or executor. ``sub`` separates
setup shuffles, dice and policy randomness (common random numbers across rule tweaks).

A stream is a ``uint64[1]`` array holding a splitmix64 counter. All arithmetic is in
``np.uint64`` (mixing uint64 with int64 in numba promotes to float64).

These are the only shared jitted helpers; kernels never touch ``np.random``.
"""
import numpy as np
from numba import njit

SUB_SETUP = 0
SUB_DICE = 1
SUB_POLICY = 2

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def mix64(z):
    """splitmix64 finaliser: a bijective avalanche of one uint64."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_start(master_seed, game_index, sub):
    """The initial state (uint64) of the stream for (master_seed, game_index, sub); kernels that
    keep their streams in their own arrays store it there (no allocation per game)."""
    k = mix64(np.uint64(master_seed) + _GOLDEN)
    k = mix64(k ^ (np.uint64(game_index) * _M2 + _GOLDEN))
    return mix64(k ^ (np.uint64(sub) + np.uint64(1)) * _M1)


@njit(cache=True)
def make_stream(master_seed, game_index, sub):
    """Return a new stream state for (master_seed, game_index, sub).

    Parameters
    ----------
    master_seed : int or uint64
        The run's master seed (0 <= seed < 2**63).
    game_index : int
        Global index of the game within the run.
    sub : int
        Sub-stream id (SUB_SETUP, SUB_DICE, SUB_POLICY, ...).

    Returns
    -------
    uint64[1] array, the stream state (``stream_start``).
    """
    s = np.zeros(1, dtype=np.uint64)
    s[0] = stream_start(master_seed, game_index, sub)
    return s


@njit(cache=True)
def substream(state, base, key):
    """Point ``state`` at sub-stream ``key`` of a stream whose initial state was ``base``.

    Kernels key draws by their position in the game (e.g. day and roll number), so a rule
    tweak that changes how many draws happen elsewhere does not shift them: two arms of a
    comparison then roll the same dice at the same moments (common random numbers).
    """
    state[0] = mix64(base ^ mix64(np.uint64(key) * _M1 + _GOLDEN))


@njit(cache=True)
def next_u64(state):
    """Advance the stream and return 64 random bits (splitmix64)."""
    state[0] += _GOLDEN
    return mix64(state[0])


@njit(cache=True)
def randint(state, n):
    """Uniform integer in [0, n) for 1 <= n <= 2048 (exact up to 2**-53 bias)."""
    x = next_u64(state) >> np.uint64(11)
    return np.int64((x * np.uint64(n)) >> np.uint64(53))


@njit(cache=True)
def uniform(state):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(state, arr):
    """Fisher-Yates shuffle of a 1-d array in place."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = randint(state, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


# ---- streams kept in a game's int64 state array -------------------------------------------
# A resumable game keeps its streams inside its state (sim.decide), so that a copy of the state
# carries them. The same splitmix64 counter is stored there as its int64 bit pattern; these
# give exactly the draws of the uint64[1] functions above.


@njit(cache=True)
def start_in(state, field, master_seed, game_index, sub):
    """Store the start of the stream for (master_seed, game_index, sub) in ``state[field]``."""
    state[field] = np.int64(stream_start(master_seed, game_index, sub))


@njit(cache=True)
def draw(state, field, n):
    """``randint`` on the stream kept in ``state[field]``: uniform integer in [0, n) for
    1 <= n <= 2048 (a larger n overflows the 64-bit product: use ``uniform_in``)."""
    u = np.uint64(state[field]) + _GOLDEN
    state[field] = np.int64(u)
    x = mix64(u) >> np.uint64(11)
    return np.int64((x * np.uint64(n)) >> np.uint64(53))


@njit(cache=True)
def uniform_in(state, field):
    """``uniform`` on the stream kept in ``state[field]``: a float in [0, 1), 53 random bits
    (one draw, like ``draw``)."""
    u = np.uint64(state[field]) + _GOLDEN
    state[field] = np.int64(u)
    return np.float64(mix64(u) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def substream_in(state, field, base, key):
    """``substream`` on the stream kept in ``state[field]``; ``base`` is the stream's start as
    kept in the state (int64 bits)."""
    state[field] = np.int64(mix64(np.uint64(base) ^ mix64(np.uint64(key) * _M1 + _GOLDEN)))


@njit(cache=True)
def shuffle_in(state, field, arr):
    """``shuffle`` of ``arr`` with the stream kept in ``state[field]``."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = draw(state, field, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
