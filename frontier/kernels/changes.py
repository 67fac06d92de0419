"""One fused pass that finds which listed slots changed since a snapshot.

The multi-device exchange asks, at every boundary and for every list of
slots it may send, which of them hold a value (of any of a declaration's
arrays) other than the snapshot's. Gathering each array and its snapshot
and comparing them takes five CuPy operations and four temporaries per
array; this kernel reads each listed slot of every array once and writes
one bool.
"""

from __future__ import annotations

import functools

# One type placeholder per array pair (CuPy reads a one-letter type as one).
_PLACEHOLDERS = "TUVWXYZ"

_PREAMBLE = """
template <typename T> __device__ bool frontier_differs(T a, T b) {
    return a != b && !(a != a && b != b);  // NaN equals NaN here
}
"""


@functools.cache
def _kernel(count: int):
    import cupy

    pairs = ", ".join(f"raw {_PLACEHOLDERS[i]} a{i}, raw {_PLACEHOLDERS[i]} b{i}"
                      for i in range(count))
    test = " || ".join(f"frontier_differs(a{i}[s], b{i}[s])" for i in range(count))
    return cupy.ElementwiseKernel(f"S s, {pairs}", "bool changed", f"changed = {test};",
                                  f"frontier_changed_{count}", preamble=_PREAMBLE)


def fits(arrays) -> bool:
    """Whether :func:`changed_mask` takes this many arrays."""
    return 0 < len(arrays) <= len(_PLACEHOLDERS)


def changed_mask(slots, arrays, snapshots):
    """``any(array[slots] != snapshot[slots])`` over the arrays (NaN equal to
    NaN), as a bool array the length of ``slots``, in one launch."""
    arguments = [value for pair in zip(arrays, snapshots) for value in pair]
    return _kernel(len(arrays))(slots, *arguments)
