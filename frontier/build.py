"""Build a CSR from an edge stream in chunks, never holding the edge list.

:meth:`Graph.from_edges` sorts one int64 key per arc: simple, but it needs
about 16 bytes per arc on top of the input, which is what limits the largest
graph a device can build. :func:`csr_from_stream` takes a stream that can
produce any range of edges (:class:`frontier.kronecker.KroneckerStream`) and
builds in three passes over chunks:

1. **count**: generate each chunk and add its arcs to per-vertex degrees;
2. **fill**: allocate the columns for every arc (parallel arcs included),
   generate each chunk again and scatter its arcs into their rows;
3. **sort**: sort each batch of rows by destination (and weight), drop
   parallel arcs, and compact the columns in place.

The device holds the columns once, the offsets, a cursor per vertex and one
chunk or batch of temporaries: about ``4 * arcs + 20 * vertices`` bytes plus
the batch, against ``Graph.from_edges``'s ``>= 24 * arcs``. The result is the
graph ``Graph.from_edges`` builds from the same edges, array for array.
"""

from __future__ import annotations

import functools

import numpy as np

from .device import Device, to_numpy
from .graph import Graph, _row_ids, _vertex_dtype, sorted_arc_keys
from .memory import check_fits, free_bytes, memory_limit
from .progress import Progress

#: Edges generated at a time (each holds src, dst and maybe a weight).
CHUNK_EDGES = 1 << 26
#: Bytes per arc of Graph.from_edges (endpoints, an int64 key, the sort's buffer).
_FROM_EDGES_ARC_BYTES = 24
#: Arcs sorted at a time in the sort pass (a key, its sort's buffers, an order).
SORT_ARCS = 1 << 27


def csr_from_stream(stream, *, directed: bool, deduplicate: bool, remove_self_loops: bool,
                    device: Device, rows=None, progress: Progress | None = None,
                    chunk_edges: int = CHUNK_EDGES, sort_arcs: int = SORT_ARCS) -> Graph:
    """The graph of every edge of ``stream``, built on ``device`` in chunks.

    Parameters
    ----------
    stream
        Has ``num_vertices``, ``num_edges``, ``weights`` (``None`` or a
        ``(low, high)`` pair) and ``edges(xp, start, stop)`` returning
        ``(src, dst, weights_or_None)`` arrays for the edge range.
    directed, deduplicate, remove_self_loops
        As for :meth:`Graph.from_edges`.
    device : Device
    rows : boolean array on ``device``, optional
        Keep only the arcs that leave a marked vertex: the rows of one part
        of a partitioned graph (the graph still numbers every vertex).
    progress : Progress, optional
    chunk_edges, sort_arcs : int
        Edges generated, and arcs sorted, at a time (tests make them small).

    Raises
    ------
    DeviceMemoryError
        When the columns do not fit the device (checked after the count pass,
        before they are allocated).
    """
    progress = progress or Progress("csr_from_stream")
    xp = device.xp
    n = stream.num_vertices
    vertex_dtype = _vertex_dtype(None, n)
    weighted = stream.weights is not None
    if stream.num_edges <= chunk_edges and rows is None:
        # one chunk: sorting its keys at once is faster, and as small
        arcs = stream.num_edges * (1 if directed else 2)
        _check_room(device, f"the CSR of up to {arcs} arcs",
                    arcs * (_FROM_EDGES_ARC_BYTES + (8 if weighted else 0)) + 8 * n)
        src, dst, weights = stream.edges(xp, 0, stream.num_edges)
        progress.phase("building CSR", total=stream.num_edges, unit="edges")
        return Graph.from_edges(src, dst, weights, n, directed, deduplicate=deduplicate,
                                remove_self_loops=remove_self_loops, device=device)

    def arcs(phase: str):
        """Each chunk's arcs ``(tails, heads, weights)``: both directions of
        an undirected edge (a loop once), only those leaving ``rows``."""
        progress.phase(phase, total=stream.num_edges, unit="edges")
        for start in range(0, stream.num_edges, chunk_edges):
            src, dst, weights = stream.edges(xp, start, start + chunk_edges)
            if remove_self_loops:
                src, dst, weights = _where(src != dst, src, dst, weights)
            if not directed:
                back = src != dst
                src, dst = xp.concatenate([src, dst[back]]), xp.concatenate([dst, src[back]])
                weights = None if weights is None else \
                    xp.concatenate([weights, weights[back]])
            if rows is not None:
                src, dst, weights = _where(rows[src], src, dst, weights)
            yield src, dst, weights
            progress.update(min(start + chunk_edges, stream.num_edges))

    degree = xp.zeros(n, dtype=np.int64)
    for tails, _, _ in arcs("counting degrees"):
        _count(xp, degree, tails)
    offsets = xp.zeros(n + 1, dtype=np.int64)
    xp.cumsum(degree, out=offsets[1:])
    del degree
    raw_arcs = int(offsets[-1])
    weight_bytes = 4 if weighted else 0
    _check_room(device, f"the CSR of {raw_arcs} arcs",
                raw_arcs * (np.dtype(vertex_dtype).itemsize + weight_bytes)
                + 8 * n + _sort_bytes(min(raw_arcs, sort_arcs), weighted))

    columns = xp.empty(raw_arcs, dtype=vertex_dtype)
    weights = xp.empty(raw_arcs, dtype=np.int32) if weighted else None
    cursor = offsets[:-1].copy()
    for tails, heads, w in arcs("placing arcs"):
        _place(xp, cursor, columns, weights, tails, heads, w)
    del cursor

    offsets, kept, loops = _sort_rows(xp, offsets, columns, weights, n, deduplicate, sort_arcs,
                                      progress)
    columns = _trimmed(device, columns, kept)
    weights = None if weights is None else _trimmed(device, weights, kept)
    num_edges = kept if directed else (kept + loops) // 2
    graph = Graph(offsets, columns, weights, bool(directed), device, num_edges)
    if deduplicate and remove_self_loops:
        graph._simple = True
    return graph


def _where(keep, src, dst, weights):
    """The arcs where ``keep`` is true."""
    return src[keep], dst[keep], None if weights is None else weights[keep]


def _check_room(device: Device, what: str, needed: int) -> None:
    """DeviceMemoryError unless ``needed`` bytes fit the device's free memory
    and the ``FRONTIER_MEMORY_LIMIT`` budget."""
    check_fits(device, needed, what, memory_limit())


def _count(xp, degree, ids) -> None:
    """``degree[v] += (number of times v is in ids)``."""
    if xp is np:
        degree += np.bincount(ids, minlength=len(degree))
    else:
        _count_kernel()(ids, degree)


@functools.cache
def _count_kernel():
    import cupy

    return cupy.ElementwiseKernel(
        "S ids", "raw int64 degree",
        "atomicAdd((unsigned long long*)&degree[ids], 1ULL);", "frontier_count_arcs")


def _place(xp, cursor, columns, weights, src, dst, w) -> None:
    """Write arc ``src[i] -> dst[i]`` (weight ``w[i]``) at ``cursor[src[i]]`` and
    advance the cursor: arcs of a row land in its range in any order."""
    if len(src) == 0:
        return
    if xp is np:
        order = np.argsort(src)  # any order within a row: rows are sorted later
        rows = src[order]
        first = np.flatnonzero(np.concatenate([[True], rows[1:] != rows[:-1]]))
        counts = np.diff(np.append(first, len(rows)))
        rank = np.arange(len(rows)) - np.repeat(first, counts)
        positions = cursor[rows] + rank
        columns[positions] = dst[order]
        if weights is not None:
            weights[positions] = w[order]
        cursor[rows[first]] += counts
        return
    if weights is None:
        _place_kernel()(src, dst, cursor, columns)
    else:
        _place_weighted_kernel()(src, dst, w, cursor, columns, weights)


@functools.cache
def _place_kernel():
    import cupy

    return cupy.ElementwiseKernel(
        "S src, V dst, raw int64 cursor", "raw V columns",
        "columns[atomicAdd((unsigned long long*)&cursor[src], 1ULL)] = dst;",
        "frontier_place_arcs")


@functools.cache
def _place_weighted_kernel():
    import cupy

    return cupy.ElementwiseKernel(
        "S src, V dst, W w, raw int64 cursor", "raw V columns, raw W weights",
        "long long p = atomicAdd((unsigned long long*)&cursor[src], 1ULL);"
        " columns[p] = dst; weights[p] = w;",
        "frontier_place_weighted_arcs")


def _sort_bytes(arcs: int, weighted: bool) -> int:
    """Temporaries of sorting ``arcs`` arcs: the keys, the sort's own buffers
    and, with weights, the order and a copy of the weights."""
    return arcs * (8 * 3 + (16 if weighted else 0))


def _sort_rows(xp, offsets, columns, weights, n: int, deduplicate: bool, sort_arcs: int,
               progress: Progress):
    """Sort every row's arcs by destination (then weight) and, with
    ``deduplicate``, keep the first of each run of equal destinations,
    compacting ``columns``/``weights`` to the front in place.

    Returns the new offsets, the number of arcs kept and how many of them are
    self loops.
    """
    total = int(offsets[-1])
    bounds = _row_batches(xp, offsets, n, sort_arcs)
    arc_bounds = to_numpy(offsets[bounds])
    kept_per_row = xp.zeros(n + 1, dtype=np.int64)
    written = loops = 0
    progress.phase("sorting rows", total=total, unit="edges")
    width = max(n, 1)
    for first_row, last_row, begin, end in zip(bounds[:-1], bounds[1:], arc_bounds[:-1],
                                               arc_bounds[1:]):
        begin, end = int(begin), int(end)
        # the batch's arcs as keys (row - first_row) * n + column, sorted
        key = _row_ids(xp, offsets[first_row:last_row + 1], begin, end)
        key *= width
        key += columns[begin:end]
        key, order = sorted_arc_keys(xp, key, None if weights is None else weights[begin:end],
                                     deduplicate)
        row = key // width
        key -= row * width  # now the column
        loops += int(xp.count_nonzero(key == row + first_row))
        kept_per_row[first_row + 1:last_row + 1] = xp.bincount(row, minlength=last_row
                                                               - first_row)
        if weights is not None:
            weights[written:written + len(key)] = weights[begin:end][order]
        columns[written:written + len(key)] = key
        written += len(key)
        progress.update(end)
    return xp.cumsum(kept_per_row), written, loops


def _row_batches(xp, offsets, n: int, sort_arcs: int) -> list[int]:
    """Row bounds ``[0, ..., n]`` of batches of about ``sort_arcs`` arcs: a
    batch ends at the row that holds the next multiple of ``sort_arcs`` (a
    row with more arcs is a batch of its own)."""
    total = int(offsets[-1])
    targets = xp.arange(0, total, max(sort_arcs, 1), dtype=np.int64)
    rows = to_numpy(xp.searchsorted(offsets, targets, side="right") - 1)
    return sorted({0, n, *(int(r) for r in rows)})


def _trimmed(device: Device, array, length: int):
    """``array[:length]`` in an allocation of its own when the device has room
    for the copy, else a view (the unused tail stays allocated)."""
    if length == len(array):
        return array
    if isinstance(array, np.ndarray):
        array.resize(length, refcheck=False)  # shrinks in place
        return array
    needed = length * array.itemsize
    free = free_bytes(device)
    if free is not None and needed > free:
        return array[:length]
    return array[:length].copy()
