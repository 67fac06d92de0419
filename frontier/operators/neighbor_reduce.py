"""The neighbor-reduce operator: reduce a value over each vertex's edges."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..frontier import as_frontier
from ..graph import Graph
from .expand import default_chunk_edges, expand
from .segments import segment_reduce


def neighbor_reduce(
    graph: Graph,
    functor: Callable,
    op: str | Callable = "sum",
    *,
    vertices=None,
    direction: str = "pull",
    identity=None,
    dtype=np.float64,
    chunk_edges: int | None = None,
):
    """For each vertex, reduce ``functor(src, dst, edge, weight)`` over its edges.

    Parameters
    ----------
    graph : Graph
    functor : callable ``(src, dst, edge, weight) -> values``
        A value per edge. With ``direction="pull"`` the edges are in-edges
        ``src -> v``; with ``"push"`` out-edges ``v -> dst``.
    op : ``"sum"``, ``"min"``, ``"max"``, ``"any"`` or a binary function
        A user combiner ``f(a, b)`` must be associative and commutative and is
        applied to arrays; it needs ``identity``.
    vertices : Frontier, id array or mask, optional
        Reduce only for these vertices (default: all, in id order).
    identity : the result for a vertex without edges (default: the op's identity).
    dtype : dtype of the result when the functor's values carry none
        (i.e. no vertex has an edge).
    chunk_edges : int, optional
        Largest number of edges handed to the functor at once; default: as
        many as fit the edge budget, as for :func:`~frontier.advance`.

    Returns
    -------
    array
        One value per vertex (of ``vertices`` if given, in that order).
    """
    if direction not in ("push", "pull"):
        raise ValueError(f"unknown direction {direction!r}: expected 'push' or 'pull'")
    xp = graph.xp
    if graph.device.is_gpu:
        from .fused import fused_neighbor_reduce

        result = fused_neighbor_reduce(graph, functor, op, vertices, direction, identity)
        if result is not None:
            return result
    else:
        from .host_sums import host_neighbor_sum

        result = host_neighbor_sum(graph, functor, op, vertices, direction, identity)
        if result is not None:
            return result
    if direction == "pull":
        in_edges = graph.in_edges()
        offsets, neighbours, edge_ids = in_edges.offsets, in_edges.sources, in_edges.edge_ids
    else:
        offsets, neighbours, edge_ids = graph.offsets, graph.columns, None
    if chunk_edges is None:
        chunk_edges = default_chunk_edges(graph, output_bytes=8)  # a float64 value per edge
    ids = xp.arange(graph.num_vertices) if vertices is None \
        else as_frontier(vertices, graph.num_vertices, graph.device).ids
    parts, covered = [], 0
    for batch in expand(xp, offsets, ids, chunk_edges):
        neighbour = neighbours[batch.edge]
        edge = batch.edge if edge_ids is None else edge_ids[batch.edge]
        weight = None if graph.weights is None else graph.weights[edge]
        if direction == "pull":
            values = functor(neighbour, batch.vertex, edge, weight)
        else:
            values = functor(batch.vertex, neighbour, edge, weight)
        values = xp.asarray(values)
        if values.shape != edge.shape:
            values = xp.broadcast_to(values, edge.shape)
        if batch.first > covered:
            parts.append(_empty_segments(xp, batch.first - covered, op, identity, values.dtype))
        parts.append(segment_reduce(values, batch.ends, op, identity))
        covered = batch.first + len(batch.ends)
    result_dtype = parts[0].dtype if parts else (bool if op == "any" else dtype)
    if covered < len(ids):
        parts.append(_empty_segments(xp, len(ids) - covered, op, identity, result_dtype))
    if not parts:  # no vertices at all
        return xp.zeros(0, dtype=result_dtype)
    return parts[0] if len(parts) == 1 else xp.concatenate(parts)


def _empty_segments(xp, count: int, op, identity, dtype):
    """Results for ``count`` vertices without edges."""
    return segment_reduce(xp.zeros(0, dtype=dtype), xp.zeros(count, dtype=np.int64), op, identity)
