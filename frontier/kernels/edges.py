"""The edge lists the fused kernels walk, and how they are launched.

Every edge kernel of ``traversal.cu`` starts with the same six arguments:
the offsets and neighbour ids of a CSR (or CSC), a vertex list (null for all
vertices in id order), the inclusive scan of the listed vertices' degrees,
the list's length and the total number of edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .module import TILE, kernel, resident_blocks

NULL = np.uint64(0)


def pointer(array):
    """A kernel argument: the array, or a null pointer for ``None``."""
    return NULL if array is None else array


@dataclass
class EdgeList:
    """Every edge of ``vertices`` (``None``: all vertices) in ``offsets``/``neighbours``."""

    offsets: object
    neighbours: object
    vertices: object | None
    ends: object
    count: int
    total: int

    def launch(self, name: str, types: tuple, *rest) -> None:
        """Run edge kernel ``name<types>`` over these edges with arguments ``rest``."""
        if self.total == 0:
            return
        blocks = min(-(-self.total // TILE), resident_blocks())
        kernel(name, *types)((blocks,), (256,), (
            self.offsets, self.neighbours, pointer(self.vertices), self.ends,
            np.int64(self.count), np.int64(self.total)) + rest)


def vertex_ids(graph, ids):
    """``ids`` in the graph's vertex dtype (the kernels' V)."""
    return ids if ids.dtype == graph.columns.dtype else ids.astype(graph.columns.dtype)


def edges_of(graph, ids=None, *, incoming: bool = False) -> EdgeList:
    """The out-edges (or, with ``incoming``, in-edges) of vertex ids ``ids``,
    or of every vertex for ``None`` (then no scan is needed: the offsets are
    the scan). Costs one scalar device-to-host read for the edge count."""
    if incoming:
        in_edges = graph.in_edges()
        offsets, neighbours = in_edges.offsets, in_edges.sources
    else:
        offsets, neighbours = graph.offsets, graph.columns
    if ids is None:
        count = graph.num_vertices
        return EdgeList(offsets, neighbours, None, offsets[1:], count,
                        int(offsets[-1]) if count else 0)
    ids = vertex_ids(graph, ids)
    if len(ids) == 0:
        return EdgeList(offsets, neighbours, ids, ids.astype(np.int64), 0, 0)
    ends = graph.xp.cumsum(offsets[ids + 1] - offsets[ids])
    return EdgeList(offsets, neighbours, ids, ends, len(ids), int(ends[-1]))
