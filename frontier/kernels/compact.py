"""Positions of the true entries of a mask, or of the set bits of a bitmap.

``cupy.flatnonzero`` scans the whole mask with 64-bit counters in several
passes: about 90 us for 2^23 entries and 560 us for 2^26 on an H200, where
reading the mask once takes 15 us. The multi-device exchange compacts a mask
over every shared slot several times per boundary, and a dense frontier
turns into ids the same way, so this module does it in two passes of its
own kernel (:file:`compact.cu`), reading 32 flags (or 4 bools) at a time,
and one device read (the count). On NumPy arrays it is ``numpy.flatnonzero``.
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace
from .module import kernel

# 32-bit words of flags one block takes (COMPACT_WORDS in compact.cu).
TILE_WORDS = 256 * 8
# Bools one block takes: the tests' tile boundaries.
TILE = TILE_WORDS * 4


def flatnonzero(mask, dtype=np.int64):
    """The positions of ``mask``'s true entries (a 1-d bool array), in
    ascending order, as ``dtype`` (int32 or int64)."""
    xp = array_namespace(mask)
    if xp is np:
        return np.flatnonzero(mask).astype(dtype, copy=False)
    return _compact(xp.ascontiguousarray(mask).view(np.uint8), len(mask), False, dtype)


def bit_positions(bits, length: int, dtype=np.int64):
    """The positions of the set bits among the first ``length`` bits of a
    bitmap made by ``packbits`` (big-endian bit order), in ascending order:
    ``flatnonzero(unpackbits(bits)[:length])`` without unpacking."""
    xp = array_namespace(bits)
    if xp is np:
        return np.flatnonzero(np.unpackbits(bits)[:length]).astype(dtype, copy=False)
    if len(bits) * 8 < length:
        raise ValueError(f"a bitmap of {len(bits)} bytes has no bit {length - 1}")
    return _compact(xp.ascontiguousarray(bits), length, True, dtype)


def _compact(flags, length: int, packed: bool, dtype):
    """Positions of the set flags among the first ``length``: ``flags`` is a
    contiguous uint8 array (bools, or a bitmap when ``packed``)."""
    import cupy

    dtype = np.dtype(dtype)
    nbytes = min(len(flags), -(-length // 8)) if packed else length
    if nbytes == 0:
        return cupy.empty(0, dtype=dtype)
    if flags.data.ptr % 4:  # the kernels read 4-byte words
        flags = flags[:nbytes].copy()
    tiles = -(-nbytes // (4 * TILE_WORDS))
    counts = cupy.empty(tiles, dtype=np.int64)
    arguments = (flags, np.int64(nbytes), np.int64(length))
    kernel("compact_count", packed, source="compact.cu")((tiles,), (256,), (*arguments, counts))
    ends = cupy.cumsum(counts)
    found = int(ends[-1])  # the one device read
    out = cupy.empty(found, dtype=dtype)
    if found:
        kernel("compact_write", packed, dtype, source="compact.cu")(
            (tiles,), (256,), (*arguments, ends, out))
    return out
