"""Edge expansion: the load-balanced core of advance and neighbor-reduce.

Given CSR offsets and a list of vertices, produce one entry per edge of
those vertices: the vertex it belongs to (as a position in the list) and the
edge id. Work is spread over edges, not vertices (each output edge finds its
vertex by binary search in the scanned degrees, as merge-path load balancing
does), so a hub costs no more than many small vertices. Large expansions are
cut into chunks so that temporary memory stays bounded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..device import to_numpy

# Edges expanded at once; bounds the temporaries of the general path.
DEFAULT_CHUNK_EDGES = 1 << 24


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
    cuts = np.unique(to_numpy(xp.searchsorted(ends, targets, side="left")))
    host_ends = to_numpy(ends[xp.asarray(cuts)])
    begin_pos, begin_edge = 0, 0
    for cut, cut_edge in zip(list(cuts) + [len(vertices) - 1], list(host_ends) + [total]):
        end_pos, end_edge = int(cut) + 1, int(cut_edge)
        if end_edge > begin_edge:
            yield _expand_range(xp, vertices, ends, base, begin_pos, end_pos,
                                begin_edge, end_edge)
        begin_pos, begin_edge = end_pos, end_edge
