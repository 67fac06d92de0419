"""Segmented reductions over contiguous segments (the rows of a CSR).

``segment_reduce(values, ends, op)`` reduces ``values[ends[i-1]:ends[i]]`` for
every segment ``i``. Built-in ops use the fastest primitive of the array
library (``ufunc.reduceat`` on NumPy, atomic adds for sums on CuPy). Min and
max on CuPy, and a user combiner -- any vectorized binary function -- are
applied as a tree in ``log2(longest segment)`` vectorized steps.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..device import array_namespace

BUILTIN_OPS = ("sum", "min", "max", "any")


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
        ``f(a, b) -> c`` on arrays that is associative and commutative.
    identity : value for empty segments (default: the op's identity; required
        for a user combiner).
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
    starts = xp.concatenate([xp.zeros(1, dtype=ends.dtype), ends[:-1]])
    nonempty = xp.flatnonzero(ends > starts)
    if xp is np and not callable(op):
        ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum, "any": np.logical_or}[op]
        out[nonempty] = ufunc.reduceat(values, starts[nonempty])
    elif op in ("sum", "any"):
        out[nonempty] = _scatter_sum(xp, values, ends)[nonempty]
    else:
        # CuPy has no reduceat, and its minimum/maximum.at are not exact on
        # float64: reduce min, max and user combiners as a tree.
        combine = {"min": xp.minimum, "max": xp.maximum}.get(op, op)
        out[nonempty] = _tree_reduce(xp, values, starts, ends, combine)[starts[nonempty]]
    return out


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
