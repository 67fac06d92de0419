"""Offers merged into owned vertex data on a GPU, with no device read.

The multi-device exchange merges the values its peers offer for the vertices
a device owns (:mod:`frontier.multi.merge`). On CuPy arrays the general
code compacts twice (the offers that beat the owner's value, then one
winner per slot for the followers), and each compaction reads its count back
to the host. These kernels (:file:`scatter.cu`) do the same work without
compacting: one atomic pass marks the changed slots in a mask the caller
keeps, and followers take their values from one winning offer through a
ticket per slot.
"""

from __future__ import annotations

import numpy as np

from .module import grid_for, kernel, supported

#: Leading value types merged as unsigned integers: ``"earliest"`` data, ids
#: viewed so that -1 (all bits set) loses to every other value (smaller only).
UNSIGNED = (np.dtype(np.uint32), np.dtype(np.uint64))


def fits(arrays: list, slots, values: list, unsigned_minimum: bool = False) -> bool:
    """Whether :func:`merge_extreme` (or :func:`mark_nonzero`) takes these
    arrays: value and follower dtypes the kernels are built for (with
    ``unsigned_minimum``, for an ``"earliest"`` merge, the leading array
    also :data:`UNSIGNED`), int32/int64 slots, and offers the arrays'
    dtypes, fewer than 2^31 of them (tickets are int32)."""
    leader = arrays[0].dtype
    return len(slots) < 2**31 and slots.dtype in (np.int32, np.int64) \
        and (supported(leader) or (unsigned_minimum and leader in UNSIGNED)) \
        and all(value.dtype == array.dtype for array, value in zip(arrays, values)) \
        and all(supported(array.dtype) for array in arrays[1:])


def merge_extreme(arrays: list, slots, values: list, larger: bool, changed) -> None:
    """``arrays[0][s] = min(arrays[0][s], offer)`` (max if ``larger``) for
    every offer (an unsigned ``arrays[0]``: the minimum only), a negative
    slot skipped; ``changed[s]`` set where an offer won; each follower
    ``arrays[k]`` takes ``values[k]`` of one winning offer. Launched on the
    current stream, nothing read back."""
    import cupy

    array, offers, count = arrays[0], values[0], len(slots)
    if count == 0:
        return
    grid = (grid_for(count),)
    beat = cupy.empty(count, dtype=bool)
    kernel("merge_offers", array.dtype, slots.dtype, larger, source="scatter.cu")(
        grid, (256,), (array, slots, offers, np.int64(count), beat, changed))
    if len(arrays) == 1:
        return
    ticket = cupy.empty(len(array), dtype=np.int32)
    kernel("merge_tickets", array.dtype, slots.dtype, source="scatter.cu")(
        grid, (256,), (array, slots, offers, beat, np.int64(count), ticket))
    for follower, followed in zip(arrays[1:], values[1:]):
        kernel("merge_follow", array.dtype, slots.dtype, follower.dtype, source="scatter.cu")(
            grid, (256,), (array, slots, offers, beat, ticket, np.int64(count), follower,
                           followed))


def mark_nonzero(changed, slots, amounts) -> None:
    """``changed[s] = True`` for every slot ``s`` given a non-zero amount (a
    negative slot skipped), without compacting."""
    count = len(slots)
    if count:
        kernel("mark_nonzero", amounts.dtype, slots.dtype, source="scatter.cu")(
            (grid_for(count),), (256,), (slots, amounts, np.int64(count), changed))
