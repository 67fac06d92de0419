"""Positions of the true entries of a mask, or of the set bits of a bitmap.

``cupy.flatnonzero`` scans the whole mask with 64-bit counters in several
passes: about 90 us for 2^23 entries and 560 us for 2^26 on an H200, where
reading the mask once takes 15 us. The multi-device exchange compacts a mask
over every shared slot several times per boundary, and a dense frontier
turns into ids the same way, so this module does it in two passes of its
own kernel (:file:`compact.cu`) and one device read (the count). On NumPy
arrays it is ``numpy.flatnonzero``.
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace
from ..graph import index_dtype
from .module import kernel, pointer
from .workspace import counter, read_last

#: Value types the compaction kernels write themselves (``where``).
_SELECTABLE = (np.dtype(np.int32), np.dtype(np.int64))
# Entries one block takes (COMPACT_TILE in compact.cu).
TILE = 256 * 16
#: 16 flags per thread (``compact_*_vector``): one 16-byte load of a bool
#: mask that starts on a 16-byte boundary, or two bytes of a bitmap; positions
#: staged in shared memory. False keeps the flag-per-thread kernels everywhere.
VECTOR_LOADS = True
#: Up to this many tiles (2^24 flags), the count kernel's last block scans
#: the tile counts itself; more go to CuPy's cumsum. One H200, µs per call
#: with its read (benchmarks/compaction.py, 2026-11-24), in-kernel scan
#: against cumsum: 44 vs 66 at 2^20 flags, 53 vs 66 at 2^23, but 155 vs 109
#: at 2^26 (16,384 tiles, one block scanning them). 0: always cumsum.
FUSED_SCAN_MAX_TILES = 4096


def flatnonzero(mask, dtype=np.int64, count: int | None = None):
    """The positions of ``mask``'s true entries (a 1-d bool array), in
    ascending order, as ``dtype`` (int32 or int64). ``count``: how many
    there are, if the caller knows (then a GPU reads nothing back; a wrong
    count is the caller's error, as for :func:`bit_positions`)."""
    xp = array_namespace(mask)
    if xp is np:
        return np.flatnonzero(mask).astype(dtype, copy=False)
    return _compact(xp.ascontiguousarray(mask).view(np.uint8), len(mask), False, dtype, count)


def where(values, mask, count: int | None = None):
    """``values[mask]`` for a 1-d array and a bool mask of its length. On a
    GPU, int32 or int64 values (vertex ids, as a filter keeps) are written
    by the compaction kernels themselves (one device read, no gather after
    it); other values are gathered at the positions :func:`flatnonzero`
    finds. ``count``: the number of true entries, if the caller knows it
    (then nothing is read back; a wrong count is the caller's error)."""
    xp = array_namespace(mask)
    if xp is np:
        return values[mask]
    if values.dtype in _SELECTABLE and values.ndim == 1 and values.flags.c_contiguous:
        return _compact(xp.ascontiguousarray(mask).view(np.uint8), len(mask), False,
                        values.dtype, count, values=values)
    return values[flatnonzero(mask, index_dtype(len(mask)), count)]


def bit_positions(bits, length: int, dtype=np.int64, count: int | None = None):
    """The positions of the set bits among the first ``length`` bits of a
    bitmap made by ``packbits`` (big-endian bit order), in ascending order:
    ``flatnonzero(unpackbits(bits)[:length])`` without unpacking.
    ``count``: the number of set bits, if the caller knows it (then nothing
    is read back from the device; a wrong count is the caller's error)."""
    xp = array_namespace(bits)
    if xp is np:
        return np.flatnonzero(np.unpackbits(bits)[:length]).astype(dtype, copy=False)
    if len(bits) * 8 < length:
        raise ValueError(f"a bitmap of {len(bits)} bytes has no bit {length - 1}")
    return _compact(xp.ascontiguousarray(bits), length, True, dtype, count)


def _compact(flags, length: int, packed: bool, dtype, found: int | None = None, values=None):
    """Positions of the set flags as ``dtype``, or with ``values`` (of that
    dtype) the values at them."""
    import cupy

    dtype = np.dtype(dtype)
    if length == 0:
        return cupy.empty(0, dtype=dtype)
    tiles = -(-length // TILE)
    vector = VECTOR_LOADS and (packed or flags.data.ptr % 16 == 0)
    if vector and tiles == 1:
        # One block counts and writes: one launch, no scan of tile counts.
        out = cupy.empty(length, dtype=dtype)
        total = cupy.empty(1, dtype=np.int64)
        kernel("compact_write_vector", packed, dtype, source="compact.cu")(
            (1,), (256,), (flags, np.int64(length), total, out, total, pointer(values)))
        return out[:read_last(total) if found is None else found]  # the one read
    counts = cupy.empty(tiles, dtype=np.int64)
    suffix = "_vector" if vector else ""
    fused = tiles <= FUSED_SCAN_MAX_TILES
    ticket = counter() if fused else np.uint64(0)  # null: no scan in the kernel
    kernel("compact_count" + suffix, packed, source="compact.cu")(
        (tiles,), (256,), (flags, np.int64(length), counts, ticket))
    ends = counts if fused else cupy.cumsum(counts)
    if found is None:
        found = read_last(ends)  # the one device read
    out = cupy.empty(found, dtype=dtype)
    if found:
        extra = (counts,) if vector else ()  # its single-tile total: unused here
        kernel("compact_write" + suffix, packed, dtype, source="compact.cu")(
            (tiles,), (256,), (flags, np.int64(length), ends, out, *extra, pointer(values)))
    return out
