"""concatenated_ranges (the CSR row walk of the CPU paths) against a plain loop."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from frontier.ranges import concatenated_ranges

ranges = st.lists(st.tuples(st.integers(-10, 10**6), st.integers(0, 6)), max_size=30)


@given(ranges)
def test_concatenated_ranges_equal_a_loop(pairs):
    starts = np.array([start for start, _ in pairs], dtype=np.int64)
    lengths = np.array([length for _, length in pairs], dtype=np.int64)
    want = [position for start, length in pairs for position in range(start, start + length)]
    got = concatenated_ranges(starts, lengths)
    assert got.dtype == np.int64
    assert got.tolist() == want
