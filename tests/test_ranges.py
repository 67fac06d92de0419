"""concatenated_ranges (the CSR row walk of the CPU paths and of the
multi-device gather of per-arc results) against a plain loop, and
stable_argsort (the transpose and arc sorts of a CPU graph) against
NumPy's stable argsort, and distinct_sorted (the CPU paths' cuts into
pieces) against NumPy's unique."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import frontier as fr
from frontier.ranges import concatenated_ranges, distinct_sorted, stable_argsort

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


#: integer arrays of every kind stable_argsort meets: small values with many
#: repeats (labels), values near the packing limit, negative ones (the plain
#: argsort), and every integer dtype
integer_arrays = st.tuples(
    st.sampled_from([np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64]),
    st.integers(1, 2**62), st.integers(0, 200), st.integers(0, 2**32 - 1), st.booleans())


@given(integer_arrays)
def test_stable_argsort_equals_numpys_stable_argsort(case):
    dtype, bound, count, seed, negative = case
    info = np.iinfo(dtype)
    low = max(info.min, -bound) if negative else 0
    values = np.random.default_rng(seed).integers(low, min(bound, info.max), count,
                                                  endpoint=True, dtype=np.int64 if
                                                  dtype != np.uint64 else np.uint64).astype(dtype)
    order = stable_argsort(values)
    assert order.dtype == np.int64
    assert order.tolist() == np.argsort(values, kind="stable").tolist()


def test_stable_argsort_packs_positions_beside_values():
    """Values up to the packing limit for their count take the packed sort
    and still keep equal values in position order."""
    count = 1000
    shift = (count - 1).bit_length()
    values = np.array([2**(63 - shift) - 1, 0, 2**(63 - shift) - 1, 5] * (count // 4), np.int64)
    assert stable_argsort(values).tolist() == np.argsort(values, kind="stable").tolist()


@given(st.lists(st.integers(-5, 5), max_size=40), st.sampled_from([np.int32, np.int64]))
def test_distinct_sorted_equals_unique(values, dtype):
    array = np.sort(np.asarray(values, dtype=dtype))
    got = distinct_sorted(array)
    assert got.dtype == dtype
    assert got.tolist() == np.unique(array).tolist()
    if len(array) < 2:  # a copy, not the input itself
        assert got is not array
