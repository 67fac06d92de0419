"""Fused GPU kernels for the built-in functors (CuPy RawModule, compiled once).

The operators call :func:`fused_advance` and :func:`fused_neighbor_reduce` on
a GPU graph; each returns ``None`` when no fused kernel applies (a user
functor, an unsupported dtype), and the operator takes its general path.

Per-run state that the kernels keep beside the primitive's own arrays (the
visited-bitmap buffer, the zeroed "queued" bits of SSSP, the sparse matrix
of an SpMV) lives in :mod:`frontier.kernels.workspace` and is released by the
enactor at the end of each run.
"""

from __future__ import annotations

import numpy as np

from .. import functors
from ..frontier import Frontier, as_frontier
from . import workspace
from .module import grid_for, kernel, supported

NULL = np.uint64(0)
# Use the visited bitmap once a level expands at least n / BITMAP_FROM_EDGES
# edges: building it reads every label once, which then pays for itself.
BITMAP_FROM_EDGES = 8

__all__ = ["fused_advance", "fused_neighbor_reduce", "release_workspaces"]

release_workspaces = workspace.release


def _pointer(array):
    return NULL if array is None else array


def _frontier_ids(graph, frontier: Frontier):
    """Frontier ids in the graph's vertex dtype (the kernels' V)."""
    ids = frontier.ids
    return ids if ids.dtype == graph.columns.dtype else ids.astype(graph.columns.dtype)


def _scanned_degrees(graph, ids, offsets=None):
    """Inclusive scan of the degrees of ``ids`` in ``offsets`` (default: CSR)."""
    offsets = graph.offsets if offsets is None else offsets
    return graph.xp.cumsum(offsets[ids + 1] - offsets[ids])


def fused_advance(graph, frontier: Frontier, functor, direction: str, among):
    """The output frontier of a fused advance, or ``None`` if none applies."""
    if isinstance(functor, functors.ClaimUnvisited):
        if not _claim_fits(graph, functor):
            return None
        if direction == "push":
            return _claim_push(graph, frontier, functor)
        return _claim_pull(graph, frontier, functor, among)
    if isinstance(functor, functors.HookRoots):
        if functor.labels.dtype not in (np.int32, np.int64):
            return None
        return _hook(graph, frontier, functor, direction, among)
    if isinstance(functor, functors.RelaxMin) and direction == "push":
        if functor.distance.dtype != np.float64 or not _weights_fit(graph):
            return None
        return _relax_push(graph, frontier, functor)
    return None


def _claim_fits(graph, functor) -> bool:
    predecessor = functor.predecessor
    return (functor.labels.dtype == np.int32 and functor.unset == -1
            and (predecessor is None or predecessor.dtype in (np.int32, np.int64)))


def _weights_fit(graph) -> bool:
    return graph.weights is None or supported(graph.weights.dtype)


def _visited_bits(graph, labels):
    """A bitmap of ``labels != -1``, rebuilt from the labels (so it can never
    be stale) into a reused buffer."""
    n = graph.num_vertices
    visited = workspace.bits(n)
    kernel("labels_to_bits")((grid_for(n),), (256,), (labels, np.int64(n), visited))
    return visited


def _claim_push(graph, frontier: Frontier, functor) -> Frontier:
    xp = graph.xp
    ids = _frontier_ids(graph, frontier)
    out_count = xp.zeros(1, dtype=np.uint64)
    if len(ids) == 0:
        return Frontier.empty(graph.num_vertices, graph.device)
    ends = _scanned_degrees(graph, ids)
    total = int(ends[-1])
    out = xp.empty(min(total, graph.num_vertices), dtype=graph.columns.dtype)
    if total:
        visited = _visited_bits(graph, functor.labels) \
            if total >= graph.num_vertices // BITMAP_FROM_EDGES else None
        predecessor = functor.predecessor
        pred_type = predecessor.dtype if predecessor is not None else graph.columns.dtype
        launch = kernel("claim_push", graph.columns.dtype, pred_type)
        launch((grid_for(total),), (256,),
               (graph.offsets, graph.columns, ids, ends, np.int64(len(ids)), np.int64(total),
                _pointer(visited), functor.labels, np.int32(functor.value), _pointer(predecessor),
                out, out_count))
    return Frontier(graph.num_vertices, graph.device, ids=out[:int(out_count[0])])


def _claim_pull(graph, frontier: Frontier, functor, among) -> Frontier:
    xp = graph.xp
    n = graph.num_vertices
    in_edges = graph.in_edges()
    among_mask = None if among is None else as_frontier(among, n, graph.device).mask
    out = xp.zeros(n, dtype=bool)
    out_count = xp.zeros(1, dtype=np.uint64)
    predecessor = functor.predecessor
    pred_type = predecessor.dtype if predecessor is not None else graph.columns.dtype
    if n:
        launch = kernel("claim_pull", graph.columns.dtype, pred_type)
        launch((grid_for(n),), (256,),
               (in_edges.offsets, in_edges.sources, np.int64(n), _pointer(among_mask),
                frontier.mask, functor.labels, np.int32(functor.value),
                _pointer(predecessor), out, out_count))
    result = Frontier(n, graph.device, mask=out)
    result._size = int(out_count[0])
    return result


def _relax_push(graph, frontier: Frontier, functor) -> Frontier:
    xp = graph.xp
    ids = _frontier_ids(graph, frontier.unique())
    if len(ids) == 0:
        return Frontier.empty(graph.num_vertices, graph.device)
    ends = _scanned_degrees(graph, ids)
    total = int(ends[-1])
    if total == 0:
        return Frontier.empty(graph.num_vertices, graph.device)
    weights = graph.weights
    weight_type = weights.dtype if weights is not None else np.float64
    vertex_type = graph.columns.dtype
    queued = workspace.scratch_bits(graph.num_vertices)
    out = xp.empty(min(total, graph.num_vertices), dtype=vertex_type)
    out_count = xp.zeros(1, dtype=np.uint64)
    args = (graph.offsets, graph.columns, _pointer(weights), ids, ends, np.int64(len(ids)),
            np.int64(total), functor.distance)
    grid = (grid_for(total),)
    kernel("relax_push", vertex_type, weight_type)(grid, (256,),
                                                    args + (queued, out, out_count))
    size = int(out_count[0])
    out = out[:size]
    predecessor = functor.predecessor
    if predecessor is not None and size:
        kernel("relax_predecessor", vertex_type, weight_type, predecessor.dtype)(
            grid, (256,), args + (queued, predecessor))
    if size:
        kernel("clear_bits", vertex_type)((grid_for(size),), (256,),
                                          (out, np.int64(size), queued))
    return Frontier(graph.num_vertices, graph.device, ids=out)


def _hook(graph, frontier: Frontier, functor, direction: str, among) -> Frontier:
    """Hook over the out-edges of the frontier (push), or over the in-edges of
    ``among`` whose source is in the frontier (pull)."""
    n = graph.num_vertices
    if direction == "push":
        offsets, neighbours, active = graph.offsets, graph.columns, None
        vertices = _frontier_ids(graph, frontier)
    else:
        in_edges = graph.in_edges()
        offsets, neighbours, active = in_edges.offsets, in_edges.sources, frontier.mask
        vertices = graph.xp.arange(n, dtype=graph.columns.dtype) if among is None \
            else _frontier_ids(graph, as_frontier(among, n, graph.device))
    if len(vertices):
        ends = _scanned_degrees(graph, vertices, offsets)
        total = int(ends[-1])
        if total:
            kernel("hook", graph.columns.dtype, functor.labels.dtype)(
                (grid_for(total),), (256,),
                (offsets, neighbours, vertices, ends, np.int64(len(vertices)), np.int64(total),
                 _pointer(active), functor.labels))
    return Frontier.empty(n, graph.device)


def fused_neighbor_reduce(graph, functor, op, vertices, direction, identity):
    """The result of a fused neighbor-reduce, or ``None`` if none applies.

    Summing the neighbour's value -- ``SourceValue`` over in-edges or
    ``DestinationValue`` over out-edges -- is a sparse matrix-vector product.
    Over every vertex in pull direction it runs through cuSPARSE on the CSC
    arrays; otherwise (a subset of vertices, or push) through the
    edge-parallel ``gather_sum`` kernel.
    """
    neighbour_value = (
        (isinstance(functor, functors.SourceValue) and direction == "pull")
        or (isinstance(functor, functors.DestinationValue) and direction == "push"))
    values = getattr(functor, "values", None)
    if not (neighbour_value and op == "sum" and identity in (None, 0)
            and values.dtype in (np.float32, np.float64) and _weights_fit(graph)):
        return None
    weighted = functor.weighted and graph.weights is not None
    if vertices is None and direction == "pull":
        matrix = workspace.in_adjacency(graph, weighted, values.dtype)
        if matrix is not None:
            return matrix @ values
    return _gather_sum(graph, values, weighted, vertices, direction)


def _gather_sum(graph, values, weighted: bool, vertices, direction: str):
    xp = graph.xp
    if direction == "pull":
        in_edges = graph.in_edges()
        offsets, neighbours, edge_ids = in_edges.offsets, in_edges.sources, in_edges.edge_ids
    else:
        offsets, neighbours, edge_ids = graph.offsets, graph.columns, None
    if vertices is None:
        ids = xp.arange(graph.num_vertices, dtype=graph.columns.dtype)
    else:
        ids = _frontier_ids(graph, as_frontier(vertices, graph.num_vertices, graph.device))
    out = xp.zeros(len(ids), dtype=values.dtype)
    if len(ids) == 0:
        return out
    ends = _scanned_degrees(graph, ids, offsets)
    total = int(ends[-1])
    if total:
        weights = graph.weights if weighted else None
        edge_type = edge_ids.dtype if edge_ids is not None else graph.columns.dtype
        weight_type = weights.dtype if weights is not None else np.float64
        kernel("gather_sum", graph.columns.dtype, edge_type, weight_type, values.dtype)(
            (grid_for(total),), (256,),
            (offsets, neighbours, _pointer(edge_ids), _pointer(weights), ids, ends,
             np.int64(len(ids)), np.int64(total), values, out))
    return out
