"""Known-answer vectors and distribution checks for sim.rng (jitted and NUMBA_DISABLE_JIT=1)."""
import os
import subprocess
import sys

import numpy as np

from sim import rng

KNOWN = "[2362414219991756761, 9602502921466100134, 17184255269593030908] [0, 1, 3, 0, 4, 2, 4, 2, 1, 0]"

SCRIPT = (
    "from sim import rng; s = rng.make_stream(12345, 7, 1); "
    "print([int(rng.next_u64(s)) for _ in range(3)], [int(rng.randint(s, 6)) for _ in range(10)])"
)


def _run(disable_jit: str) -> str:
    env = dict(os.environ, NUMBA_DISABLE_JIT=disable_jit)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT], env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_known_answers_are_identical_jitted_and_unjitted():
    jit, nojit = _run("0"), _run("1")
    assert jit == nojit
    assert jit == KNOWN


def test_streams_differ_by_seed_index_and_sub():
    firsts = set()
    for seed in (0, 1):
        for idx in (0, 1):
            for sub in (rng.SUB_SETUP, rng.SUB_DICE):
                firsts.add(int(rng.next_u64(rng.make_stream(seed, idx, sub))))
    assert len(firsts) == 8


def test_randint_is_uniform():
    s = rng.make_stream(1, 0, 0)
    counts = np.zeros(6, dtype=np.int64)
    for _ in range(60000):
        counts[rng.randint(s, 6)] += 1
    # chi-square with 5 dof; 99.9% quantile is 20.5
    chi2 = ((counts - 10000) ** 2 / 10000).sum()
    assert chi2 < 20.5


def test_shuffle_is_a_permutation():
    s = rng.make_stream(3, 4, 0)
    a = np.arange(32, dtype=np.int64)
    rng.shuffle(s, a)
    assert sorted(a.tolist()) == list(range(32))
    assert a.tolist() != list(range(32))




def test_streams_kept_in_a_state_array_draw_exactly_like_uint64_streams():
    """sim.rng.draw / start_in / substream_in / shuffle_in (the resumable games keep their
    streams in the int64 state) give the draws of make_stream / randint / substream / shuffle."""
    state = np.zeros(3, dtype=np.int64)
    rng.start_in(state, 1, 12345, 7, 1)
    s = rng.make_stream(12345, 7, 1)
    assert [rng.draw(state, 1, 6) for _ in range(50)] == [rng.randint(s, 6) for _ in range(50)]
    rng.substream_in(state, 2, state[1], 4099)
    rng.substream(s, s[0], 4099)
    assert np.uint64(state[2]) == s[0]
    a, b = np.arange(20), np.arange(20)
    rng.shuffle_in(state, 2, a)
    rng.shuffle(s, b)
    assert list(a) == list(b) and sorted(a) == list(range(20)) and list(a) != list(range(20))


def test_uniform_in_a_state_array_is_the_uniform_of_the_stream():
    """``uniform_in`` draws exactly ``uniform`` of the same uint64 stream (one draw each), over
    the whole of [0, 1): the fractions of draws below 0.5 and 0.25 are near those values
    (a 64-bit overflow once kept such a float below 0.002)."""
    s = rng.make_stream(np.uint64(3), np.int64(1), np.int64(2))
    state = np.zeros(2, dtype=np.int64)
    rng.start_in(state, 1, np.uint64(3), np.int64(1), np.int64(2))
    a = np.array([rng.uniform(s) for _ in range(20000)])
    b = np.array([rng.uniform_in(state, 1) for _ in range(20000)])
    assert np.array_equal(a, b)
    assert 0.0 <= b.min() and b.max() < 1.0
    for q in (0.5, 0.25):
        assert abs((b < q).mean() - q) < 0.015
