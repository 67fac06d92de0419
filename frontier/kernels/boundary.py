"""The output boundary's split and collection on a GPU (:file:`boundary.cu`).

:class:`frontier.multi.output_exchange.OutputExchange` splits a step's
output frontier by owner part and, after merging its peers' offers, gathers
the next frontier: the owned output and the slots an offer changed, each
once. In whole-array CuPy that is a gather of owners, a histogram, a sort,
a gather of the sorted ids and of their slots on the owners (split), then a
scatter of the owned output into the mask, a concatenation, tickets per
slot, two gathers, a compaction and a reset (collection): some twenty
operations a boundary, each some tens of microseconds of host time, while
the data is often small. Here each is two kernels and one device read, and
the bitmap of a refresh of many owned slots one kernel (:func:`owned_bits`).
NumPy runs the whole-array code (the reference these are tested against).
"""

from __future__ import annotations

import numpy as np

from .module import NULL, THREADS, grid_for, kernel
from .workspace import counter, read_counter, read_counters


def split_by_owner(ids, owner, parts: int, rank: int, on_owner, marked):
    """``(counts, local, there)``: ``local`` the ids grouped by owner part
    (bucket ``p`` from ``sum(counts[:p])``, arbitrary order inside it),
    ``there`` each one's slot on its owner (``on_owner[id]``, or the id
    where ``on_owner`` is None), ``counts`` a host list per part (the one
    device read). The ids ``rank`` owns are also marked in ``marked``."""
    import cupy

    n = len(ids)
    counts = counter(2 * parts)  # the counts, then the buckets' cursors
    cursors = np.uint64(counts + 8 * parts)
    grid = (grid_for(n),)
    kernel("count_owners", ids.dtype, owner.dtype, source="boundary.cu")(
        grid, (THREADS,), (ids, np.int64(n), owner, np.int32(parts), counts),
        shared_mem=4 * parts)
    local = cupy.empty(n, dtype=ids.dtype)
    there = local if on_owner is None else cupy.empty(n, dtype=ids.dtype)
    kernel("place_by_owner", ids.dtype, owner.dtype, source="boundary.cu")(
        grid, (THREADS,), (ids, np.int64(n), owner, np.int32(parts), np.int32(rank),
                           NULL if on_owner is None else on_owner, counts, cursors,
                           local, there, marked))
    return read_counters(counts, parts), local, there


def collect_marked(segments: list, marked):
    """The slots of ``segments`` (device arrays of one index type) whose mark
    is set in ``marked``, each once, in arbitrary order; their marks are
    cleared (the others' were clear). One device read: the count."""
    import cupy

    total = sum(len(segment) for segment in segments)
    out = cupy.empty(total, dtype=segments[0].dtype)
    size = counter()
    for segment in segments:
        if len(segment):
            segment = segment.astype(out.dtype, copy=False)
            kernel("collect_marked", out.dtype, source="boundary.cu")(
                (grid_for(len(segment)),), (THREADS,),
                (segment, np.int64(len(segment)), marked, out, size))
    return out[:read_counter(size)]


def owned_bits(slots, owned):
    """``packbits`` of the mask over ``owned`` (sorted slots) that is true
    at the slots among ``slots`` (a device array of the same index type):
    one zeroed buffer and one kernel, where the whole-array code sorts the
    slots (a device synchronization in CuPy), zeroes a mask of every owned
    slot, searches, scatters and packs it."""
    import cupy

    count = len(owned)
    bits = cupy.zeros(-(-count // 32), dtype=np.uint32)
    if len(slots):
        slots = slots.astype(owned.dtype, copy=False)
        kernel("owned_bits", owned.dtype, source="boundary.cu")(
            (grid_for(len(slots)),), (THREADS,),
            (slots, np.int64(len(slots)), owned, np.int64(count), bits))
    return bits.view(np.uint8)[:-(-count // 8)]
