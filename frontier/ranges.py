"""Index ranges: the one array idiom the CSR code keeps needing (NumPy or CuPy)."""

from __future__ import annotations

import numpy as np

from .device import array_namespace


def concatenated_ranges(starts, lengths) -> np.ndarray:
    """The positions ``starts[i] .. starts[i] + lengths[i] - 1`` for every
    ``i``, concatenated in order (int64, in ``starts``' array library): the
    arcs of a list of CSR rows, the characters of a list of fields.

    >>> concatenated_ranges(np.array([5, 0, 9]), np.array([2, 0, 3])).tolist()
    [5, 6, 9, 10, 11]
    """
    xp = array_namespace(starts)
    starts = xp.asarray(starts, dtype=np.int64)
    lengths = xp.asarray(lengths, dtype=np.int64)
    if len(lengths) and int(lengths.min()) <= 0:  # empty ranges add nothing
        kept = lengths > 0
        starts, lengths = starts[kept], lengths[kept]
    if not len(lengths):
        return xp.empty(0, dtype=np.int64)
    # A running sum of steps: 1 within a range, a jump at each range's first
    # position. One fill, one scatter and an in-place cumsum: half the memory
    # traffic of repeat + arange + add.
    ends = xp.cumsum(lengths)
    positions = xp.ones(int(ends[-1]), dtype=np.int64)
    positions[0] = starts[0]
    positions[ends[:-1]] = starts[1:] - (starts[:-1] + lengths[:-1]) + 1
    return xp.cumsum(positions, out=positions)
