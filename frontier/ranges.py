"""Index ranges on the host: the one NumPy idiom the CSR code keeps needing."""

from __future__ import annotations

import numpy as np


def concatenated_ranges(starts, lengths) -> np.ndarray:
    """The positions ``starts[i] .. starts[i] + lengths[i] - 1`` for every
    ``i``, concatenated in order (int64): the arcs of a list of CSR rows, the
    characters of a list of fields.

    >>> concatenated_ranges(np.array([5, 0, 9]), np.array([2, 0, 3])).tolist()
    [5, 6, 9, 10, 11]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if len(ends) else 0
    return np.repeat(np.asarray(starts, dtype=np.int64) - (ends - lengths), lengths) + \
        np.arange(total, dtype=np.int64)
