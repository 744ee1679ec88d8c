"""Borrowed array views for the game loops: no reference counting in the hot calls.

Numba counts references to every array with atomic increments and decrements, and many of them
survive its pruning pass at call boundaries: a kernel that passes a few arrays through
thousands of small calls per game pays for them on every call (``perf`` attributed about half of
the Flower Shop and most of the Rattlebones kernel samples to ``NRT_incref``/``NRT_decref``;
borrowing made Rattlebones 1.8x and Flower Shop 1.15x faster per thread, with identical results).

``borrowed(x)`` returns the same array (or tuple of arrays) without its memory-info pointer:
same data, shape, strides and type, but Numba's reference counting skips it (a null
memory-info is a no-op). It is only safe while the owner of the memory outlives every use of
the view, so it is used in exactly one pattern: a game's entry function borrows its own
*arguments* (which its caller keeps alive for the whole call) and passes the views down; the
views never escape (results are written into the caller's arrays, by value).

Under ``NUMBA_DISABLE_JIT=1`` it is the identity, so the pure-Python run executes the same
code.
"""
from numba import config, types
from numba.extending import intrinsic


def _borrow_array(context, builder, arrty, value):
    src = context.make_array(arrty)(context, builder, value=value)
    dst = context.make_array(arrty)(context, builder)
    context.populate_array(dst, data=src.data, shape=src.shape, strides=src.strides,
                           itemsize=src.itemsize, meminfo=None)
    return dst._getvalue()


if config.DISABLE_JIT:
    def borrowed(x):
        """Identity without the JIT (the pure-Python run has no reference counts to skip)."""
        return x
else:
    @intrinsic
    def borrowed(typingctx, x):
        """View of the array ``x`` (or of each array of the tuple ``x``) without reference
        counting; valid while the caller's ``x`` is alive (see the module docstring)."""
        if isinstance(x, types.Array):
            def codegen(context, builder, signature, args):
                return _borrow_array(context, builder, x, args[0])
            return x(x), codegen
        if isinstance(x, types.BaseTuple) and all(isinstance(t, types.Array) for t in x):
            def codegen(context, builder, signature, args):
                items = [_borrow_array(context, builder, t, builder.extract_value(args[0], i))
                         for i, t in enumerate(x)]
                return context.make_tuple(builder, x, items)
            return x(x), codegen
        return None
