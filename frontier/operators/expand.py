"""Edge expansion: the load-balanced core of advance and neighbor-reduce.

Given CSR offsets and a list of vertices, produce one entry per edge of
those vertices: the vertex it belongs to (as a position in the list) and the
edge id. Work is spread over edges, not vertices (each output edge finds its
vertex by binary search in the scanned degrees, as merge-path load balancing
does), so a hub costs no more than many small vertices. Large expansions are
cut into chunks so that temporary memory stays bounded: by default each
chunk's temporaries fit an edge budget (:func:`default_chunk_edges`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..device import to_numpy
from ..memory import free_bytes, memory_limit
from ..ranges import distinct_sorted

# The most edges a default chunk holds when the budget is a share of the
# free memory (or the free memory cannot be read).
DEFAULT_CHUNK_EDGES = 1 << 24
# The edge budget in bytes (same syntax as FRONTIER_MEMORY_LIMIT, e.g. 256M).
BUDGET_ENVIRONMENT = "FRONTIER_EDGE_BUDGET"
# Without FRONTIER_EDGE_BUDGET, the budget is this share of the device's
# free memory: the graph, the vertex data and the output need the rest.
FREE_MEMORY_SHARE = 1 / 8
# An expansion of at most this many edges is one chunk whatever the free
# memory (unless FRONTIER_EDGE_BUDGET says otherwise): 2^16 edges hold
# about 3 MB of temporaries.
SMALL_EXPANSION_EDGES = 1 << 16
# Per expanded edge, the general path holds four int64 indices (expansion
# slot, list position, source vertex, edge id) besides the destination, the
# weight and the functor's output.
_INDEX_BYTES_PER_EDGE = 4 * 8


def edge_bytes(graph, output_bytes: int) -> int:
    """Bytes the general path holds per expanded edge of ``graph`` for a
    functor returning ``output_bytes`` per edge (1 for a boolean mask)."""
    weight_bytes = 0 if graph.weights is None else graph.weights.dtype.itemsize
    return _INDEX_BYTES_PER_EDGE + graph.columns.dtype.itemsize + weight_bytes + output_bytes


def default_chunk_edges(graph, output_bytes: int, most_edges: int | None = None) -> int:
    """The number of edges per chunk when the caller gives none: as many as
    keep :func:`edge_bytes` per edge within ``FRONTIER_EDGE_BUDGET`` bytes
    if set, else within ``FREE_MEMORY_SHARE`` of the device's free memory
    and at most :data:`DEFAULT_CHUNK_EDGES`; at least 1. Reads the free
    memory (a system call): call it once per operator call, not per chunk.
    ``most_edges``, a bound on the edges about to be expanded: at most
    :data:`SMALL_EXPANSION_EDGES` of them are one chunk without a look at
    the free memory (their temporaries are a few MB; the look cost a
    quarter of an SSSP iteration on a road network on the CPU).

    Raises
    ------
    ValueError
        If ``FRONTIER_EDGE_BUDGET`` is not a positive byte count such as ``256M``.
    """
    per_edge = edge_bytes(graph, output_bytes)
    value = os.environ.get(BUDGET_ENVIRONMENT, "")
    if value:
        try:
            budget = memory_limit(value)
        except ValueError as error:
            raise ValueError(f"{BUDGET_ENVIRONMENT}={value!r}: expected a positive number "
                             f"of bytes, e.g. 268435456 or 256M") from error
        return max(1, budget // per_edge)
    if most_edges is not None and most_edges <= SMALL_EXPANSION_EDGES:
        return DEFAULT_CHUNK_EDGES
    free = free_bytes(graph.device)
    if free is None:
        return DEFAULT_CHUNK_EDGES
    return max(1, min(DEFAULT_CHUNK_EDGES, int(free * FREE_MEMORY_SHARE) // per_edge))


@dataclass
class EdgeBatch:
    """A batch of expanded edges: ``position[i]`` indexes the vertex list,
    ``vertex[i]`` is that vertex and ``edge[i]`` the edge id (CSR position).

    A batch covers whole vertices ``first..first+len(ends)-1`` of the list;
    ``ends`` are their scanned degrees counted from the batch's first edge.
    """

    position: object
    vertex: object
    edge: object
    first: int
    ends: object


def _expand_range(xp, vertices, ends, base, begin_pos: int, end_pos: int,
                  begin_edge: int, end_edge: int) -> EdgeBatch:
    """Edges ``begin_edge..end_edge`` (in expansion order) of vertices
    ``begin_pos..end_pos``."""
    slot = xp.arange(begin_edge, end_edge, dtype=np.int64)
    local_ends = ends[begin_pos:end_pos]
    if xp is np:
        # One linear pass: each position repeated by its degree (a binary
        # search per edge, below, suits a GPU better than the CPU).
        degrees = np.diff(local_ends, prepend=begin_edge)
        position = np.repeat(np.arange(begin_pos, end_pos), degrees)
        return EdgeBatch(position, np.repeat(vertices[begin_pos:end_pos], degrees),
                         np.repeat(base[begin_pos:end_pos], degrees) + slot, begin_pos,
                         local_ends - begin_edge)
    position = xp.searchsorted(local_ends, slot, side="right") + begin_pos
    return EdgeBatch(position, vertices[position], base[position] + slot, begin_pos,
                     local_ends - begin_edge)


def expand(xp, offsets, vertices, chunk_edges: int = DEFAULT_CHUNK_EDGES) -> Iterator[EdgeBatch]:
    """Yield :class:`EdgeBatch` es covering every edge of ``vertices`` in order.

    Each batch is whole vertices with fewer than ``chunk_edges`` edges before
    its last vertex, so it holds under ``chunk_edges`` plus that vertex's
    degree (a hub enlarges its batch). Costs one scalar device-to-host
    read, plus one small read per batch when there is more than one batch.
    """
    if len(vertices) == 0:
        return
    first_edge = offsets[vertices]
    degrees = offsets[vertices + 1] - first_edge
    ends = xp.cumsum(degrees)
    total = int(ends[-1])
    if total == 0:
        return
    # Per list position, the edge id of expansion slot 0 if its edges were
    # numbered from there: one gather per edge then finds the edge id.
    base = first_edge - (ends - degrees)
    if total <= chunk_edges:
        yield _expand_range(xp, vertices, ends, base, 0, len(vertices), 0, total)
        return
    # Cut at vertex boundaries near multiples of chunk_edges.
    targets = xp.arange(chunk_edges, total, chunk_edges, dtype=np.int64)
    cuts = distinct_sorted(to_numpy(xp.searchsorted(ends, targets, side="left")))
    host_ends = to_numpy(ends[xp.asarray(cuts)])
    begin_pos, begin_edge = 0, 0
    for cut, cut_edge in zip(list(cuts) + [len(vertices) - 1], list(host_ends) + [total]):
        end_pos, end_edge = int(cut) + 1, int(cut_edge)
        if end_edge > begin_edge:
            yield _expand_range(xp, vertices, ends, base, begin_pos, end_pos,
                                begin_edge, end_edge)
        begin_pos, begin_edge = end_pos, end_edge
