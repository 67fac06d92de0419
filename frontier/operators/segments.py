"""Segmented reductions over contiguous segments (the rows of a CSR).

``segment_reduce(values, ends, op)`` reduces ``values[ends[i-1]:ends[i]]`` for
every segment ``i``. Built-in ops use the fastest primitive of the array
library: on NumPy ``ufunc.reduceat``, which also serves the user combiners
``bitwise_or``, ``bitwise_and`` and ``bitwise_xor`` (NumPy's or CuPy's
ufuncs, recognized as such); on CuPy atomic adds for sums, and for min, max
and those three bitwise ufuncs a kernel that reduces each segment with a
warp (:mod:`frontier.kernels.segments`: int32, int64, float32 and float64
values for min and max, 32- and 64-bit integers for the bitwise ops). Any
other user combiner -- any vectorized binary function -- and the value
types no kernel takes (bool, 8- and 16-bit integers, ...) are applied on
CuPy as a tree in ``log2(longest segment)`` vectorized steps. Every path
gives the same answer.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..device import array_namespace
from ..kernels.segments import KERNELS, kernel_type, reduce_segments

BUILTIN_OPS = ("sum", "min", "max", "any")
#: The user combiners reduced like built-in ops (by ``reduceat`` on NumPy,
#: by a kernel on CuPy) when they are NumPy's or the array library's ufuncs.
BITWISE_COMBINERS = ("bitwise_or", "bitwise_and", "bitwise_xor")
#: NumPy's ufunc of each op that ``reduceat`` reduces on the host.
_REDUCEAT = {"sum": np.add, "min": np.minimum, "max": np.maximum, "any": np.logical_or,
             **{name: getattr(np, name) for name in BITWISE_COMBINERS}}


def identity_of(op: str, dtype) -> object:
    """The value an empty segment reduces to under ``op``."""
    dtype = np.dtype(dtype)
    if op == "sum":
        return dtype.type(0)
    if op == "any":
        return False
    if dtype.kind == "f":
        return np.inf if op == "min" else -np.inf
    info = np.iinfo(dtype)
    return info.max if op == "min" else info.min


def segment_ids(xp, ends, total: int):
    """The segment of each of ``total`` values, given inclusive segment ends."""
    return xp.searchsorted(ends, xp.arange(total), side="right")


def segment_reduce(values, ends, op: str | Callable, identity=None):
    """Reduce each segment of ``values``; ``ends`` are the inclusive scanned lengths.

    Parameters
    ----------
    values : 1-D array
    ends : int array, ``ends[i]`` is one past the last value of segment ``i``
    op : ``"sum"``, ``"min"``, ``"max"``, ``"any"`` or a binary function
        ``f(a, b) -> c`` on arrays that is associative and commutative; the
        ufuncs ``bitwise_or``, ``bitwise_and`` and ``bitwise_xor`` (of NumPy
        or of the values' array library) are reduced as fast as a built-in op.
    identity : value for empty segments (default: the op's identity; required
        for a user combiner).

    Returns
    -------
    array
        One value per segment, of ``values``' dtype (bool for ``"any"``).
    """
    xp = array_namespace(values)
    num_segments = len(ends)
    if not callable(op) and op not in BUILTIN_OPS:
        raise ValueError(f"unknown reduction {op!r}: expected one of {BUILTIN_OPS} or a function")
    if op == "any":
        values = values.astype(bool)
    if identity is None:
        if callable(op):
            raise ValueError("a user combiner needs identity= for empty segments")
        identity = identity_of(op, values.dtype)
    out = xp.full(num_segments, identity, dtype=values.dtype)
    if num_segments == 0 or len(values) == 0:
        return out
    name = _bitwise_name(xp, op) if callable(op) else op
    if xp is not np and name in KERNELS and kernel_type(name, values.dtype) is not None:
        reduce_segments(values, ends, name, out)  # leaves empty segments' identity
        return out
    starts = xp.concatenate([xp.zeros(1, dtype=ends.dtype), ends[:-1]])
    nonempty = xp.flatnonzero(ends > starts)
    if xp is np and name is not None:
        out[nonempty] = _REDUCEAT[name].reduceat(values, starts[nonempty])
    elif op in ("sum", "any"):
        out[nonempty] = _scatter_sum(xp, values, ends)[nonempty]
    else:
        # CuPy has no reduceat, and its minimum/maximum.at are not exact on
        # float64: the types and combiners no kernel takes reduce as a tree.
        combine = {"min": xp.minimum, "max": xp.maximum}.get(op, op)
        out[nonempty] = _tree_reduce(xp, values, starts, ends, combine)[starts[nonempty]]
    return out


def _bitwise_name(xp, op: Callable) -> str | None:
    """The name in :data:`BITWISE_COMBINERS` of ``op`` if it is that ufunc
    of NumPy or of ``xp``, else ``None``."""
    for name in BITWISE_COMBINERS:
        if op is getattr(np, name) or op is getattr(xp, name):
            return name
    return None


def _scatter_sum(xp, values, ends):
    """Per-segment sums (``any`` as a count of true values) by atomic adds."""
    sums = xp.zeros(len(ends), dtype=np.int64 if values.dtype == bool else values.dtype)
    xp.add.at(sums, segment_ids(xp, ends, len(values)), values.astype(sums.dtype))
    return sums.astype(bool) if values.dtype == bool else sums


def _tree_reduce(xp, values, starts, ends, combine: Callable):
    """Pairwise reduction within each segment, all segments in parallel.

    At stride ``s`` the entry at local offset ``k`` (``k`` a multiple of
    ``2s``) absorbs the entry at ``k + s`` if that is inside the segment, so
    after ``log2(longest)`` steps each segment's first entry holds its result.
    """
    work = values.copy()
    seg = segment_ids(xp, ends, len(values))
    local = xp.arange(len(values)) - starts[seg]
    length = (ends - starts)[seg]
    longest = int(length.max())
    stride = 1
    while stride < longest:
        left = xp.flatnonzero((local % (2 * stride) == 0) & (local + stride < length))
        work[left] = combine(work[left], work[left + stride])
        stride *= 2
    return work
