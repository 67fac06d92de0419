"""NetworkX graphs built as answers (``k_core``'s subgraph, ``bfs_tree``'s
tree), without a Python step per edge.

``nx.Graph()`` with ``add_nodes_from`` and ``add_edges_from`` makes its
dicts one edge at a time: about 3 s for a million edges on the development
CPU, most of ``k_core``'s time on a 200,000-node Barabasi-Albert graph.
:func:`networkx_graph` makes the same dicts in C-level passes: each row is
one ``dict`` call over its neighbours and their edges' data dicts, laid
out in order by a sort of the arcs.
"""

from __future__ import annotations

from itertools import islice, repeat

import networkx as nx
import numpy as np


def networkx_graph(cls, labels: list, order, src, dst, graph_attrs: dict | None = None):
    """What ``H = cls()``, ``H.graph.update(graph_attrs)``,
    ``H.add_nodes_from(labels[i] for i in order)`` and
    ``H.add_edges_from((labels[u], labels[v]) for u, v in zip(src, dst))``
    build, dict for dict and in the same orders, for ``cls`` ``nx.Graph``
    or ``nx.DiGraph``.

    ``labels`` are the nodes by position, ``order`` the positions of the
    graph's nodes in the order they are added, ``src`` and ``dst`` (int
    arrays) the positions of each edge's ends, all among ``order`` and no
    edge twice (in an undirected graph, in either direction). Each edge gets
    a data dict of its own, shared by its two rows.

    Raises
    ------
    ValueError
        If an edge repeats or an end is not among ``order``.
    """
    if cls not in (nx.Graph, nx.DiGraph):
        raise ValueError(f"networkx_graph builds nx.Graph and nx.DiGraph, not {cls.__name__}")
    order = np.asarray(order, dtype=np.int64)
    src, dst = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    rank = np.full(len(labels), -1, dtype=np.int64)
    rank[order] = np.arange(len(order))
    directed = cls is nx.DiGraph
    _check_ends(rank, src, dst)
    graph = cls()
    if graph_attrs:
        graph.graph.update(graph_attrs)
    # (fromiter: a node that is a tuple stays one entry)
    nodes = np.fromiter(labels, dtype=object, count=len(labels))
    in_order = nodes[order].tolist()
    graph._node.update(zip(in_order, [{} for _ in in_order]))
    data = np.fromiter(({} for _ in range(len(src))), dtype=object, count=len(src))
    if directed:
        edges = np.arange(len(src))
        graph._adj.update(zip(in_order, _rows(nodes, data, rank, src, dst, edges, len(order))))
        graph._pred.update(zip(in_order, _rows(nodes, data, rank, dst, src, edges, len(order))))
    else:
        loop = src == dst  # a self loop is in its row once
        rows, neighbours = np.concatenate([src, dst[~loop]]), np.concatenate([dst, src[~loop]])
        edges = np.concatenate([np.arange(len(src)), np.flatnonzero(~loop)])
        graph._adj.update(zip(in_order, _rows(nodes, data, rank, rows, neighbours, edges,
                                               len(order))))
    return graph


def _rows(nodes, data, rank, rows, neighbours, edges, count: int) -> list:
    """Each node's row dict, in node order: neighbour -> the data dict of
    the arc's edge (``edges``: each arc's place in the edge list), arcs in
    a row in the order of their edges, as ``add_edges_from`` meets them;
    ``count`` nodes. ValueError if a row holds a neighbour twice: an edge
    listed twice (in an undirected graph, in either direction)."""
    place = rank[rows]
    arcs = np.argsort(place * max(len(data), 1) + edges)  # (row, edge): each key once
    pairs = zip(nodes[neighbours[arcs]].tolist(), data[edges[arcs]].tolist())
    # one dict call a row, each over the next `degree` pairs: all in C
    built = list(map(dict, map(islice, repeat(pairs),
                               np.bincount(place, minlength=count).tolist())))
    if sum(map(len, built)) != len(rows):  # a neighbour twice in a row
        raise ValueError("an edge is listed twice")
    return built


def _check_ends(rank, src, dst) -> None:
    """ValueError unless every edge has two ends, each a node of the graph."""
    if len(src) != len(dst):
        raise ValueError(f"{len(src)} sources against {len(dst)} targets")
    if len(src) and (rank[src].min() < 0 or rank[dst].min() < 0):
        raise ValueError("an edge's end is not among the graph's nodes")
