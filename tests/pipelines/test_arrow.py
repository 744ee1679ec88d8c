"""pipelines.arrow builds the same Arrow arrays as pa.array / take, without importing pandas."""
import numpy as np
import pyarrow as pa
import pytest

from pipelines import arrow


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 1000])
def test_columns_equal_pa_array(n):
    rng = np.random.default_rng(n)
    ints = rng.integers(-2**62, 2**62, size=(n, 3))
    for col in (ints[:, 1], np.arange(n, dtype=np.int64)):  # strided and contiguous
        a = arrow.column(col, pa.int64())
        assert a.equals(pa.array(np.ascontiguousarray(col), pa.int64())) and a.null_count == 0
    flags = rng.random(n) < 0.5
    assert arrow.column(flags, pa.bool_()).equals(pa.array(flags, pa.bool_()))
    shares = rng.random(n)
    assert arrow.column(shares, pa.float64()).equals(pa.array(shares, pa.float64()))


def test_strings_and_take_equal_pa_array():
    values = ("target_score", "", "max_rounds", "émoji ✿ bloom", "x")
    codes = np.random.default_rng(1).integers(0, len(values), size=1001)
    a = arrow.strings(values, codes)
    assert a.type == pa.string() and a.equals(pa.array(values, pa.string()).take(codes))
    assert arrow.strings(values).equals(pa.array(values, pa.string()))
    assert arrow.strings(values, np.zeros(0, dtype=np.int64)).equals(pa.array([], pa.string()))
    assert arrow.strings(("", ""), [1, 0, 1]).to_pylist() == ["", "", ""]


def test_repeat_equals_pa_repeat():
    for value, typ in (("exp-1", pa.string()), (4, pa.int64()), (2**63 - 1, pa.int64())):
        assert arrow.repeat(value, 5, typ).equals(pa.repeat(pa.scalar(value, typ), 5))
    assert len(arrow.repeat("x", 0, pa.string())) == 0
