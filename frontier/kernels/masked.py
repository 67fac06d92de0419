"""A sum over the entries a mask selects, without gathering them first.

``values[mask].sum()`` copies the selected entries into a temporary: a
multi-device run sums every owned slot of a vertex array this way (the
dangling mass and the change of every PageRank iteration), which at 2^30
slots is 4 GiB of float64 beside the part. One reduction kernel reads each
entry and its flag once and writes nothing but the sum.
"""

from __future__ import annotations

import functools

import numpy as np

from ..device import array_namespace


def sum_dtype(dtype) -> np.dtype:
    """The type NumPy's ``sum`` gives for ``dtype`` (int64 for bools and
    smaller integers, the type itself for floats)."""
    return np.zeros(0, dtype=dtype).sum().dtype


#: The C type of each sum type.
_C_TYPES = {"int64": "long long", "uint64": "unsigned long long", "float16": "float16",
            "float32": "float", "float64": "double"}


@functools.cache
def _kernel(total_type: str):
    import cupy

    c_type = _C_TYPES[total_type]
    return cupy.ReductionKernel("T value, bool selected", f"{total_type} total",
                                f"selected ? ({c_type})value : ({c_type})0", "a + b",
                                "total = a", "0", f"frontier_masked_sum_{total_type}")


#: Entries one block of the reduction sums: CuPy runs a reduction to one
#: value in a single block (13 ms for 2^24 entries on an H200), so the
#: entries are summed by rows, one block each, and the row sums by CuPy.
ROW = 1 << 14


def masked_sum(values, mask):
    """``values[mask].sum()`` for a 1-d contiguous array and a bool mask of
    its length, in NumPy's sum type, with no gathered copy (a 0-d array on
    GPUs)."""
    total_type = sum_dtype(values.dtype)
    if array_namespace(values) is np:
        return np.sum(values, where=mask, dtype=total_type)
    kernel = _kernel(total_type.name)
    whole = len(values) // ROW * ROW
    total = kernel(values[whole:], mask[whole:])  # fewer than ROW entries
    if whole:
        rows = kernel(values[:whole].reshape(-1, ROW), mask[:whole].reshape(-1, ROW), axis=1)
        total += rows.sum()
    return total
