"""Segmented min, max and bitwise reductions on a GPU, one warp a segment.

CuPy has no ``reduceat``, and its ``minimum.at`` and ``maximum.at`` do not
store the exact float64 extreme, so
:func:`frontier.operators.segments.segment_reduce` reduced min, max and user
combiners as a tree of ``log2(longest segment)`` rounds of whole-array
operations. The greedy colouring that label propagation starts from ORs
bits over each vertex's neighbours that way: at Kronecker 20 a call took
26.2 s, 8.4 s of it in the tree over 2,719 reductions (issue 32,
docs/benchmarks.md). :file:`segments.cu` reduces every segment in one
launch: a warp takes a segment, its lanes read the values in turn and fold
them, and a warp shuffle combines the lanes. Min and max take int32, int64,
float32 and float64 values; the bitwise ops int32 and int64, and uint32 and
uint64 as the signed type of their size (the same bits).
"""

from __future__ import annotations

import numpy as np

from .module import THREADS, grid_for, kernel, supported

#: The operation (``segment_reduce``'s first template argument) of each
#: reduction here.
KERNELS = {"min": "Minimum", "max": "Maximum", "bitwise_or": "BitwiseOr",
           "bitwise_and": "BitwiseAnd", "bitwise_xor": "BitwiseXor"}
WARP = 32


def kernel_type(op: str, dtype) -> np.dtype | None:
    """The value type the kernel of ``op`` (a key of :data:`KERNELS`) reads
    ``dtype`` values as, or ``None`` if none is built for them."""
    dtype = np.dtype(dtype)
    if op in ("min", "max"):
        return dtype if supported(dtype) else None
    if op in KERNELS and dtype.kind in "iu" and dtype.itemsize in (4, 8):
        return np.dtype(f"int{8 * dtype.itemsize}")
    return None


def reduce_segments(values, ends, op: str, out) -> None:
    """``out[s]`` = ``op`` over ``values[ends[s - 1]:ends[s]]`` (``ends``
    inclusive, segment 0 starting at 0) for every non-empty segment ``s``;
    the entries of empty segments are left as they are.

    Parameters
    ----------
    values : cupy.ndarray
        1-d, of a type :func:`kernel_type` accepts for ``op``; at least
        ``ends[-1]`` entries.
    ends : cupy.ndarray
        1-d integer array, non-decreasing.
    op : str
        A key of :data:`KERNELS`.
    out : cupy.ndarray
        Contiguous, of ``values``' dtype, one entry a segment.

    Raises
    ------
    ValueError
        For an ``op`` or value type no kernel here reduces, or an ``out``
        that is not as described.
    """
    if op not in KERNELS:
        raise ValueError(f"no segmented reduction kernel {op!r}: expected one of "
                         f"{', '.join(KERNELS)}")
    dtype = kernel_type(op, values.dtype)
    if dtype is None:
        raise ValueError(f"no segmented {op} kernel for {values.dtype} values: min and max take "
                         "int32, int64, float32 or float64, the bitwise ops 32- and 64-bit "
                         "integers")
    if out.dtype != values.dtype or out.shape != ends.shape or not out.flags.c_contiguous:
        raise ValueError(f"out must be a contiguous {values.dtype} array of shape {ends.shape}, "
                         f"not {'a contiguous' if out.flags.c_contiguous else 'a strided'} "
                         f"{out.dtype} array of shape {out.shape}")
    count = len(ends)
    if count == 0:
        return
    import cupy

    values = cupy.ascontiguousarray(values).view(dtype)
    ends = cupy.ascontiguousarray(ends, dtype=np.int64)
    kernel("segment_reduce", KERNELS[op], dtype, source="segments.cu")(
        (grid_for(count * WARP),), (THREADS,), (values, ends, np.int64(count), out.view(dtype)))
