"""numpy result columns -> Arrow arrays, built from their buffers (``pa.Array.from_buffers``).

The obvious calls are slow to start: ``pa.array(x)`` imports pandas to ask whether ``x`` is a
pandas object (a quarter of a second), and ``Array.take`` imports ``pyarrow.compute`` (a tenth);
together longer than writing a small run. The arrays built here are the same ones (same type,
same values, no nulls), without either import. Used by :func:`pipelines.store.build_tables`.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa

_NUMPY_TYPES = {pa.int64(): np.int64, pa.float64(): np.float64}


def column(values, typ: pa.DataType) -> pa.Array:
    """A numeric or boolean column as an Arrow array of ``typ`` (``int64``, ``float64`` or
    ``bool_``): ``pa.array(values, typ)``."""
    if typ == pa.bool_():
        flags = np.asarray(values, dtype=bool)
        bits = np.packbits(flags, bitorder="little")  # Arrow's bitmaps: least significant first
        return pa.Array.from_buffers(typ, flags.size, [None, pa.py_buffer(bits)])
    data = np.ascontiguousarray(values, dtype=_NUMPY_TYPES[typ])
    return pa.Array.from_buffers(typ, data.size, [None, pa.py_buffer(data)])


def strings(values, codes=None) -> pa.Array:
    """``values`` (strings) as an Arrow string array, or ``values[codes]`` for an integer array
    ``codes`` of indices into them: ``pa.array(values, pa.string()).take(codes)``."""
    encoded = [str(v).encode() for v in values]
    if codes is None:
        codes = np.arange(len(encoded))
    codes = np.asarray(codes, dtype=np.int64)
    lengths = np.array([len(b) for b in encoded], dtype=np.int64)
    offsets = np.zeros(codes.size + 1, dtype=np.int32)
    np.cumsum(lengths[codes], out=offsets[1:])
    width = int(lengths.max(initial=0))
    # one row of ``width`` bytes per value, then the first ``length`` bytes of each chosen row
    table = np.zeros((len(encoded), width), dtype=np.uint8)
    for i, b in enumerate(encoded):
        table[i, :len(b)] = np.frombuffer(b, dtype=np.uint8)
    data = table[codes][np.arange(width) < lengths[codes][:, None]]
    return pa.Array.from_buffers(pa.string(), codes.size,
                                 [None, pa.py_buffer(offsets), pa.py_buffer(data.tobytes())])


def repeat(value, n: int, typ: pa.DataType) -> pa.Array:
    """``value`` ``n`` times: ``pa.repeat(pa.scalar(value, typ), n)``."""
    one = strings([value]) if typ == pa.string() else column(np.array([value]), typ)
    return pa.repeat(one[0], n)
