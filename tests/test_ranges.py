"""concatenated_ranges (the CSR row walk of the CPU paths and of the
multi-device gather of per-arc results) against a plain loop."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import frontier as fr
from frontier.ranges import concatenated_ranges

ranges = st.lists(st.tuples(st.integers(-10, 10**6), st.integers(0, 6)), max_size=30)


def _check(pairs, device: str) -> None:
    xp = fr.get_device(device).xp
    starts = xp.asarray([start for start, _ in pairs], dtype=np.int64)
    lengths = xp.asarray([length for _, length in pairs], dtype=np.int64)
    want = [position for start, length in pairs for position in range(start, start + length)]
    got = concatenated_ranges(starts, lengths)
    assert got.dtype == np.int64
    assert type(got) is type(starts)
    assert fr.to_numpy(got).tolist() == want


@given(ranges)
def test_concatenated_ranges_equal_a_loop(pairs):
    _check(pairs, "cpu")


@pytest.mark.gpu
@given(ranges)
def test_concatenated_ranges_on_a_gpu_equal_a_loop(pairs):
    _check(pairs, "cuda:0")
