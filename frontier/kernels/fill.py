"""Fill a device array with one value at the copy rate.

CuPy's ``ndarray.fill`` runs an elementwise kernel, one element per thread:
on an H200 it fills 2^24 int32 (64 MiB) in about 81 us and 2^24 bools in
the same 81 us (Nsight Compute, 2026-11-24), where the memory system writes
64 MiB in about 20 us. Every primitive fills its vertex arrays at the start
of a run, so :func:`fill` writes a value whose bytes are all equal (0, -1,
True) with the runtime's memset, and any other value (``inf``, ``1/n``)
with 16-byte stores (:file:`fill.cu`). NumPy arrays are filled by NumPy.

:func:`put` sets a few entries (a source's depth) in one launch, where
CuPy's indexed assignment ``array[slots] = value`` makes several and cost
45-90 us of host work in a DOBFS call at Kronecker 24 on an H200 (issue 29).
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace
from .module import NULL, grid_for, kernel

WORD = 16


#: Entries below which :func:`fill` writes with ``put_value`` (one thread an
#: entry, no alignment asked) rather than a memset or 16-byte stores.
SMALL = 4
#: Entry sizes in bytes that ``put_value`` writes.
_PUT_SIZES = (1, 2, 4, 8)


def fill(array, value) -> None:
    """Set every entry of ``array`` to ``value`` (a non-contiguous or NumPy
    array by its own ``fill``)."""
    xp = array_namespace(array)
    if xp is np or array.size == 0 or not array.flags.c_contiguous:
        array.fill(value)
        return
    element = np.asarray(value, dtype=array.dtype).tobytes()
    if array.size < SMALL and len(element) in _PUT_SIZES:
        _put_value(array, NULL, array.size, element)
        return
    if element.count(element[:1]) == len(element):
        xp.cuda.runtime.memsetAsync(array.data.ptr, element[0], array.nbytes,
                                    xp.cuda.get_current_stream().ptr)
        return
    if array.data.ptr % WORD or WORD % len(element):
        array.fill(value)
        return
    pattern = np.frombuffer(element * (WORD // len(element)), dtype=np.uint64)
    words, tail = divmod(array.nbytes, WORD)
    kernel("fill_pattern", source="fill.cu")(
        (grid_for(max(words, 1)),), (256,),
        (array, np.int64(words), pattern[0], pattern[1], np.int32(tail)))


def put(array, slots, value) -> None:
    """``array[slots] = value`` for one ``value`` (cast to the array's
    dtype, or refused, as NumPy's assignment does). On a GPU, for a
    contiguous CuPy array and int32 or int64 ``slots``, one launch
    (:file:`fill.cu`'s ``put_value``), which does not check the slots:
    each must be an entry of ``array`` (0 to ``len(array) - 1``).
    Otherwise the array library's own assignment."""
    xp = array_namespace(array)
    if xp is np or not isinstance(slots, xp.ndarray) or not array.flags.c_contiguous \
            or array.itemsize not in _PUT_SIZES or slots.dtype not in (np.int32, np.int64) \
            or not slots.flags.c_contiguous:
        array[slots] = value
        return
    entry = np.empty(1, dtype=array.dtype)
    entry[0] = value  # cast, or refused, as NumPy's assignment does
    if len(slots):
        _put_value(array, slots, len(slots), entry.tobytes(), slots.dtype)


def _put_value(array, slots, count: int, element: bytes, slot_dtype=np.int32) -> None:
    """One launch of ``put_value``: ``element`` (an entry's bytes) at
    ``slots`` (``NULL``: the first ``count`` entries; then the int32
    instantiation, which a source's slots use too: one kernel fewer to
    compile on a first call)."""
    kernel("put_value", slot_dtype, source="fill.cu")(
        (grid_for(count),), (256,),
        (array, slots, np.int64(count), np.int32(len(element)),
         np.uint64(int.from_bytes(element, "little"))))
