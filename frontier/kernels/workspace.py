"""Buffers the fused kernels keep for the length of one enactor run.

Reusing them saves an allocation (and for the zeroed bitmap a memset) per
iteration; :func:`release` frees them all and is called by the enactor when
a run ends, so nothing outlives the run that needed it.
"""

from __future__ import annotations

import numpy as np

_buffers: dict = {}


def _words(n: int) -> int:
    return (n + 31) // 32


def scratch_bits(n: int):
    """A bitmap of ``n`` bits that is all zero on entry; the caller must clear
    every bit it sets before returning."""
    key = ("zeroed-bits", n)
    if key not in _buffers:
        import cupy

        _buffers[key] = cupy.zeros(_words(n), dtype=np.uint32)
    return _buffers[key]


def bits(n: int):
    """A bitmap buffer of ``n`` bits with arbitrary content."""
    key = ("bits", n)
    if key not in _buffers:
        import cupy

        _buffers[key] = cupy.empty(_words(n), dtype=np.uint32)
    return _buffers[key]


def in_adjacency(graph, weighted: bool, dtype):
    """The CSC of ``graph`` as a cuSPARSE-ready ``csr_matrix`` (row ``v`` holds
    the in-edges of ``v``; values are the weights or ones), or ``None`` if the
    graph is too large for 32-bit sparse indices."""
    key = ("in-adjacency", id(graph), weighted and graph.weights is not None, np.dtype(dtype))
    if key not in _buffers:
        import cupy
        from cupyx.scipy import sparse

        if graph.num_arcs >= np.iinfo(np.int32).max:
            return None
        in_edges = graph.in_edges()
        if key[2]:
            weights = graph.weights if in_edges.edge_ids is None \
                else graph.weights[in_edges.edge_ids]
            data = weights.astype(dtype)
        else:
            data = cupy.ones(graph.num_arcs, dtype=dtype)
        shape = (graph.num_vertices, graph.num_vertices)
        matrix = sparse.csr_matrix((data, in_edges.sources.astype(np.int32),
                                    in_edges.offsets.astype(np.int32)), shape=shape)
        _buffers[key] = (graph, matrix)  # the graph is held so its id stays unique
    return _buffers[key][1]


def release() -> None:
    """Free every buffer (called at the end of each enactor run)."""
    _buffers.clear()
