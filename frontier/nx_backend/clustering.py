"""Triangles and clustering with NetworkX's signatures, by Frontier's wedge
counting (:mod:`primitives.triangles`): per-node answers as NetworkX's dicts
(or a number for a single node), in its order.

Multigraphs (where NetworkX's clustering raises, and its triangle count
sees each neighbour once) and weighted clustering are left to NetworkX.
"""

from __future__ import annotations

import networkx as nx

from primitives import transitivity as frontier_transitivity
from primitives.triangles import clustering_coefficients, wedges

from .graph import BackendGraph, Declined


def _by_node(G: BackendGraph, values, nodes, cast):
    """NetworkX's ``nodes`` convention: every node (a dict in G's order), one
    node (a number), or a container (a dict in its order, others skipped)."""
    if nodes is None:
        return dict(zip(G.nodes, map(cast, values.tolist())))
    if nodes in G:
        return cast(values[G.index[nodes]].item())
    try:
        chosen = [node for node in nodes if node in G]
    except TypeError:
        raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from None
    return {node: cast(values[G.index[node]].item()) for node in chosen}


def _coefficient(value: float):
    return 0 if value == 0 else value  # NetworkX writes an int 0 without triangles


def triangles(G: BackendGraph, nodes=None):
    """``nx.triangles``."""
    counts = wedges(G.frontier_graph()).closed // 2
    return _by_node(G, counts, nodes, int)


def transitivity(G: BackendGraph):
    """``nx.transitivity``."""
    return frontier_transitivity(G.frontier_graph())


def clustering(G: BackendGraph, nodes=None, weight=None):
    """``nx.clustering`` without weights."""
    check_unweighted(weight)
    return _by_node(G, clustering_coefficients(G.frontier_graph()), nodes, _coefficient)


def average_clustering(G: BackendGraph, nodes=None, weight=None, count_zeros=True):
    """``nx.average_clustering`` without weights."""
    check_unweighted(weight)
    values = clustering(G, nodes)
    values = values.values() if isinstance(values, dict) else values  # NetworkX's error
    if not count_zeros:
        values = [v for v in values if abs(v) > 0]
    return sum(values) / len(values)


def check_unweighted(weight) -> None:
    if weight is not None:
        raise Declined("weighted clustering (geometric means of weights) is NetworkX's")


def check_simple(G) -> None:
    if G.is_multigraph():
        raise Declined("a multigraph: NetworkX's clustering refuses it")


KEYWORD_CHECKS = {
    "triangles": lambda a: check_simple(a["G"]),
    "transitivity": lambda a: check_simple(a["G"]),
    "clustering": lambda a: (check_simple(a["G"]), check_unweighted(a["weight"])),
    "average_clustering": lambda a: (check_simple(a["G"]), check_unweighted(a["weight"])),
}
