"""A NetworkX graph's nodes and edges as arrays, for :meth:`Graph.from_networkx`.

NetworkX keeps a graph as dicts of dicts: node -> neighbour -> edge data,
with one more level (edge key -> edge data) in a multigraph. Every pass
below walks those dicts with ``map``, ``itertools.chain`` and
``operator.methodcaller``, which iterate in C: no Python bytecode runs per
edge, only per call. (NetworkX's own ``to_scipy_sparse_array`` runs a
generator per edge, and sums parallel edges, which Frontier keeps apart.)
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from operator import itemgetter, methodcaller

import numpy as np

_VALUES = methodcaller("values")


def node_ids(nodes: list) -> np.ndarray | None:
    """The nodes as an int64 array when they are exactly the integers
    ``0 .. n-1`` in some order (Python or NumPy integers, not bools), else
    ``None``: such nodes are their own vertex ids."""
    if not all(map(isinstance, nodes, repeat((int, np.integer)))) \
            or any(map(isinstance, nodes, repeat(bool))):
        return None
    try:
        ids = np.fromiter(nodes, np.int64, len(nodes))
    except OverflowError:  # beyond int64, so not an id
        return None
    # Nodes are distinct, so n of them inside 0..n-1 are all of 0..n-1.
    if len(ids) and (ids.min() < 0 or ids.max() >= len(ids)):
        return None
    return ids


def networkx_arcs(graph, weight: str | None):
    """The nodes and edges of the NetworkX ``graph`` as :meth:`Graph.from_edges` takes them.

    Returns
    -------
    labels : list or None
        ``None`` when the nodes are the integers ``0 .. n-1`` (node ``k`` is
        vertex ``k``); otherwise the nodes in ``graph.nodes`` order (vertex
        ``i`` is ``labels[i]``).
    src, dst : int64 arrays
        One entry per edge: each edge of a multigraph (parallel edges apart),
        an undirected edge once, a self loop once.
    weights : array or None
        With ``weight`` set and at least one edge, each edge's ``weight``
        attribute, 1 where it has none (NetworkX's default): int64 when
        every value is an integer, else float64.

    Raises
    ------
    TypeError
        If ``graph`` is not a NetworkX graph.
    ValueError
        If a weight is a value that NumPy cannot read as a number (a string
        such as ``"2.5"`` reads as 2.5).
    """
    import networkx as nx

    if not isinstance(graph, nx.Graph):
        raise TypeError(f"expected a NetworkX graph, got {type(graph).__name__}")
    nodes = list(graph)
    labels = None if node_ids(nodes) is not None else nodes
    index = None if labels is None else dict(zip(nodes, range(len(nodes))))
    # graph._adj, not graph.adj: the public view wraps every row in a Python
    # object whose values() runs Python code per edge.
    adjacency = graph._adj
    rows = list(adjacency.values())
    degree = np.fromiter(map(len, rows), np.int64, len(rows))
    src = np.repeat(_vertex_ids(adjacency, len(rows), index), degree)
    dst = _vertex_ids(chain.from_iterable(rows), len(src), index)
    entries = chain.from_iterable(map(_VALUES, rows))  # edge data, or a multigraph's key dicts
    if graph.is_multigraph():
        keys = list(entries)
        parallel = np.fromiter(map(len, keys), np.int64, len(keys))
        src, dst = np.repeat(src, parallel), np.repeat(dst, parallel)
        entries = chain.from_iterable(map(_VALUES, keys))
    if not graph.is_directed():
        # An undirected edge is in the rows of both its ends, a self loop in one.
        once = src <= dst
        src, dst = src[once], dst[once]
        entries = compress(entries, once.tolist())
    weights = None
    if weight is not None and len(src):
        weights = np.asarray(_weights(list(entries), weight))
        if weights.dtype == object or weights.dtype.kind not in "iuf":
            try:
                weights = weights.astype(np.float64)
            except (TypeError, ValueError) as error:
                raise ValueError(f"edge attribute {weight!r} must hold numbers: {error}") \
                    from error
    return labels, src, dst, weights


def _vertex_ids(nodes, count: int, index: dict | None) -> np.ndarray:
    """The vertex ids of the ``count`` nodes ``nodes`` yields: their
    positions in ``index``, or the nodes themselves without one."""
    return np.fromiter(nodes if index is None else map(index.__getitem__, nodes), np.int64, count)


def _weights(edge_data: list, weight: str) -> list:
    """Each edge's ``weight`` attribute, 1 where it has none."""
    try:  # a third faster than dict.get, when every edge has the attribute
        return list(map(itemgetter(weight), edge_data))
    except KeyError:
        return list(map(methodcaller("get", weight, 1), edge_data))
