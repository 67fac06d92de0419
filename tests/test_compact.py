"""Stream compaction (frontier.kernels.compact) against NumPy's flatnonzero,
on masks and on packbits bitmaps of every length around the kernel's tiles."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import with_device

from frontier.device import get_device, to_numpy
from frontier.kernels import compact

TILE = compact.TILE
lengths = st.one_of(st.integers(0, 70), st.sampled_from([TILE - 1, TILE, TILE + 1, 3 * TILE + 7]),
                    st.integers(0, 5 * TILE))
densities = st.sampled_from([0.0, 0.001, 0.3, 0.97, 1.0])


def _mask(length: int, density: float, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).random(length) < density


@with_device
@given(lengths, densities, st.integers(0, 2**16), st.sampled_from([np.int32, np.int64]))
def test_positions_of_a_mask_and_of_its_bitmap(device, length, density, seed, dtype):
    on = get_device(device)
    mask = _mask(length, density, seed)
    want = np.flatnonzero(mask)
    bits = on.asarray(np.packbits(mask))
    for vector_loads, fused_scan in ((True, 1 << 40), (False, 1 << 40), (True, 0)):
        # 16 flags per thread or one; tile counts scanned by the count kernel or by CuPy
        with mock.patch.multiple(compact, VECTOR_LOADS=vector_loads,
                                 FUSED_SCAN_MAX_TILES=fused_scan):
            found = [compact.flatnonzero(on.asarray(mask), dtype),
                     compact.flatnonzero(on.asarray(mask), dtype, count=len(want)),  # no read
                     compact.bit_positions(bits, length, dtype),
                     compact.bit_positions(bits, length, dtype, count=len(want))]  # no read
        for got in found:
            assert got.dtype == dtype
            np.testing.assert_array_equal(to_numpy(got), want)


def test_strided_and_unaligned_masks_and_bitmaps(device):
    on = get_device(device)
    mask = _mask(3 * TILE, 0.5, 1)
    strided = on.asarray(np.stack([mask, ~mask]))[:, ::3][0]  # not contiguous
    np.testing.assert_array_equal(to_numpy(compact.flatnonzero(strided)),
                                  np.flatnonzero(mask[::3]))
    for offset in (1, 2, 3, 5):  # contiguous views that start off a 4-byte boundary
        np.testing.assert_array_equal(to_numpy(compact.flatnonzero(on.asarray(mask)[offset:])),
                                      np.flatnonzero(mask[offset:]))
        bits = np.packbits(mask)[offset:]
        length = len(bits) * 8 - offset
        np.testing.assert_array_equal(
            to_numpy(compact.bit_positions(on.asarray(np.packbits(mask))[offset:], length)),
            np.flatnonzero(np.unpackbits(bits)[:length]))
    if on.is_gpu:
        with pytest.raises(ValueError, match="has no bit 16"):
            compact.bit_positions(on.asarray(np.zeros(2, dtype=np.uint8)), 17)


@with_device
@given(lengths, densities, st.integers(0, 2**16),
       st.sampled_from([np.int32, np.int64, np.float64]), st.integers(0, 3))
def test_where_is_boolean_indexing(device, length, density, seed, dtype, offset):
    """where(values, mask): on a GPU the compaction kernels write int32 and
    int64 values themselves (float64 takes the gather), with 16 flags per
    thread or one, in one tile or many, tile counts scanned in the kernel or
    by CuPy, and masks that start off a 16-byte boundary."""
    on = get_device(device)
    rng = np.random.default_rng(seed)
    values = rng.integers(-2**31, 2**31, length + offset).astype(dtype)
    keep = _mask(length + offset, density, seed)
    want = values[offset:][keep[offset:]]
    for vector_loads, fused_scan in ((True, 1 << 40), (False, 1 << 40), (True, 0)):
        with mock.patch.multiple(compact, VECTOR_LOADS=vector_loads,
                                 FUSED_SCAN_MAX_TILES=fused_scan):
            got = compact.where(on.asarray(values)[offset:], on.asarray(keep)[offset:])
        assert got.dtype == dtype
        np.testing.assert_array_equal(to_numpy(got), want)


@pytest.mark.gpu
@pytest.mark.parametrize("tiles", [4096, 4097, 4096 * 2 + 3])
def test_the_count_kernels_scan_runs_over_chunks(tiles):
    """Tile counts filling one chunk of the in-kernel scan (4,096), and
    more: the carry from chunk to chunk, with both count kernels."""
    mask = _mask(tiles * TILE - 5, 0.3, tiles)
    want = np.flatnonzero(mask)
    on_gpu = get_device("cuda:0").asarray(mask)
    for vector_loads in (True, False):
        with mock.patch.multiple(compact, VECTOR_LOADS=vector_loads,
                                 FUSED_SCAN_MAX_TILES=1 << 40):
            np.testing.assert_array_equal(to_numpy(compact.flatnonzero(on_gpu)), want)
