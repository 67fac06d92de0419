"""The edge lists the fused kernels walk, and how they are launched.

Every edge kernel of ``traversal.cu`` starts with the same six arguments:
the offsets and neighbour ids of a CSR (or CSC), a vertex list (null for all
vertices in id order), the inclusive scan of the listed vertices' degrees,
the list's length, the total number of edges, and the first list position of
each tile of edge slots (computed by the ``tile_starts`` kernel per launch).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..device import array_namespace
from .module import TILE, grid_for, kernel, pointer, resident_blocks
from .workspace import read_last

#: An id list of at most this many vertices is scanned by one block of the
#: ``degree_scan`` kernel (one launch); a longer one's degrees are gathered
#: by ``list_degrees`` and scanned by CuPy (a multi-kernel scan, which pays
#: off only on long lists).
BLOCK_SCAN_MAX = 1 << 14


@dataclass
class EdgeList:
    """Every edge of ``vertices`` (``None``: all vertices) in ``offsets``/``neighbours``."""

    offsets: object
    neighbours: object
    vertices: object | None
    ends: object
    count: int
    total: int
    _tile_first: object = None

    def tile_first(self):
        """First list position of every tile of edge slots (computed once)."""
        if self._tile_first is None:
            tiles = -(-self.total // TILE)
            self._tile_first = array_namespace(self.ends).empty(tiles + 1, dtype=np.int64)
            kernel("tile_starts")((grid_for(tiles + 1),), (256,), (
                self.ends, np.int64(self.count), np.int64(self.total), np.int64(tiles),
                self._tile_first))
        return self._tile_first

    def launch(self, name: str, types: tuple, *rest) -> None:
        """Run edge kernel ``name<types>`` over these edges with arguments ``rest``."""
        if self.total == 0:
            return
        blocks = min(-(-self.total // TILE), resident_blocks())
        kernel(name, *types)((blocks,), (256,), (
            self.offsets, self.neighbours, pointer(self.vertices), self.ends,
            np.int64(self.count), np.int64(self.total), self.tile_first()) + rest)


def vertex_ids(graph, ids):
    """``ids`` in the graph's vertex dtype (the kernels' V)."""
    return ids if ids.dtype == graph.columns.dtype else ids.astype(graph.columns.dtype)


def edges_of(graph, ids=None, *, incoming: bool = False, total: int | None = None) -> EdgeList:
    """The out-edges (or, with ``incoming``, in-edges) of vertex ids ``ids``,
    or of every vertex for ``None`` (then no scan is needed: the offsets are
    the scan). An id list costs one scalar device-to-host read for its edge
    count, unless the caller knows it (``total``: the sum of the listed
    vertices' degrees); all vertices cost none (a CSR's last offset is its
    arc count)."""
    if incoming:
        in_edges = graph.in_edges()
        offsets, neighbours = in_edges.offsets, in_edges.sources
    else:
        offsets, neighbours = graph.offsets, graph.columns
    if ids is None:
        return EdgeList(offsets, neighbours, None, offsets[1:], graph.num_vertices,
                        len(neighbours))
    ids = vertex_ids(graph, ids)
    if len(ids) == 0:
        return EdgeList(offsets, neighbours, ids, ids.astype(np.int64), 0, 0)
    if graph.xp is np:
        ends = np.cumsum(offsets[ids + 1] - offsets[ids])
    elif len(ids) <= BLOCK_SCAN_MAX:
        ends = graph.xp.empty(len(ids), dtype=np.int64)
        kernel("degree_scan", ids.dtype)((1,), (256,), (offsets, ids, np.int64(len(ids)),
                                                       pointer(None), np.int64(1), ends))
    else:
        degrees = graph.xp.empty(len(ids), dtype=np.int64)
        kernel("list_degrees", ids.dtype)((grid_for(len(ids)),), (256,), (
            offsets, ids, np.int64(len(ids)), degrees))
        ends = graph.xp.cumsum(degrees)
    if total is None:
        total = int(ends[-1]) if graph.xp is np else read_last(ends)
    return EdgeList(offsets, neighbours, ids, ends, len(ids), int(total))
