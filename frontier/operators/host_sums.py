"""Neighbour-value sums on the CPU: SciPy's sparse matrix-vector product.

``neighbor_reduce(G, SourceValue(x), "sum")`` (PageRank's pull, HITS,
eigenvector, Katz) and ``neighbor_reduce(G, DestinationValue(x), "sum",
direction="push")`` (betweenness's dependencies) sum a neighbour's value
over each vertex's edges: a sparse matrix-vector product. The general path
expands the edges, gathers a value per edge and reduces the segments, four
passes over the arcs in NumPy; SciPy's CSR product makes one, in compiled
code, without a value per edge (7x faster over every vertex of a
Barabasi-Albert graph of a million edges, 5x over a list of vertices, on the
development CPU). The GPU's counterpart is the fused ``gather_sum`` kernel.

The sums may differ from the general path's in the last bits (another order
of additions). SciPy is optional: without it the general path runs.
"""

from __future__ import annotations

import weakref

import numpy as np

from ..frontier import as_frontier
from ..graph import INT32_MAX
from .host_levels import scipy_csgraph

#: graph -> {(pull, weighted): (columns, offsets, weights, matrix)}: a
#: graph's matrices, kept while its arrays are the same
_MATRICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def host_neighbor_sum(graph, functor, op, vertices, direction: str, identity):
    """:func:`~frontier.neighbor_reduce`'s result for a neighbour's value
    summed over each vertex's edges on the CPU (float32 or float64 values),
    or ``None`` where this does not apply (another functor or reduction, or
    no SciPy)."""
    kind = getattr(functor, "fused", None)
    if not ((kind == "source_value" and direction == "pull")
            or (kind == "destination_value" and direction == "push")):
        return None
    values = functor.values
    if op != "sum" or identity not in (None, 0) or values.dtype not in (np.float32, np.float64) \
            or scipy_csgraph() is None:
        return None
    weights = graph.weights if functor.weighted else None
    matrix = _matrix(graph, direction == "pull", weights)
    if vertices is not None:
        matrix = matrix[as_frontier(vertices, graph.num_vertices, graph.device).ids]
    if matrix.nnz == 0:  # no edge at all: the general path's result type (its dtype)
        return None
    # the general path's type: the values', times the weights' where weighted
    kind = values.dtype if weights is None else np.result_type(values.dtype, weights.dtype)
    return (matrix @ values).astype(kind, copy=False)


def _matrix(graph, pull: bool, weights):
    """The graph's out-edges (``pull``: its in-edges) as a SciPy CSR matrix
    whose entries are ``weights`` as float64 (their in-edge order for a
    pull), or 1 through a zero stride; kept for the graph's next sums."""
    if pull:
        in_edges = graph.in_edges()
        offsets, columns, edge_ids = in_edges.offsets, in_edges.sources, in_edges.edge_ids
    else:
        offsets, columns, edge_ids = graph.offsets, graph.columns, None
    kept = _MATRICES.setdefault(graph, {})
    found = kept.get((pull, weights is not None))
    if found is not None and found[0] is columns and found[1] is offsets and found[2] is weights:
        return found[3]
    from scipy.sparse import csr_array

    if weights is None:
        data = np.broadcast_to(np.float64(1), columns.shape)
    else:
        data = (weights if edge_ids is None else weights[edge_ids]).astype(np.float64, copy=False)
    index = columns.dtype if len(columns) <= INT32_MAX else offsets.dtype
    n = graph.num_vertices
    matrix = csr_array((data, columns, offsets.astype(index, copy=False)), shape=(n, n))
    kept[(pull, weights is not None)] = (columns, offsets, weights, matrix)
    return matrix
