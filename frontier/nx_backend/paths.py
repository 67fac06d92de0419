"""Weighted shortest paths with NetworkX's signatures, from Frontier's BFS
and SSSP trees (``single_source_shortest_path`` and ``has_path`` are in
:mod:`.traversal`).

Hop-count paths are NetworkX's own: :mod:`.order` lays the BFS levels out in
NetworkX's visiting order, whose first parent of each vertex is the one
NetworkX's path goes through (a Dijkstra with every weight 1 visits in the
same order, and so does one whose edges all weigh the same: ``weight=None``
and a weight attribute with one positive value on every edge, or on none,
get NetworkX's paths from the Dijkstra functions too). Weighted paths come from
:func:`primitives.single_source_dijkstra`: always shortest, but where several
are, not necessarily the one NetworkX's heap order picks. Integer weights
mixed with floats and negative weights are declined, as for the lengths
(:mod:`.shortest_paths`).
"""

from __future__ import annotations

import networkx as nx

from primitives import single_source_dijkstra as dijkstra

from .graph import BackendGraph, Declined
from .shortest_paths import check_weight
from .traversal import check_limit, tree_paths


def _uniform_weight(G: BackendGraph, weight):
    """The weight of every edge where all weigh the same positive number (1
    for ``weight=None``, and for an attribute that no edge has), else None;
    Declined where NetworkX's answer cannot be reproduced. NetworkX's
    Dijkstra with one weight visits in BFS order, breaking ties by the
    order it found the vertices in, so its paths are the hop-count ones."""
    if weight is None:
        return 1
    column = G.edge_weights(weight)
    if column.kind == "mixed":
        raise Declined(f"edge attribute {weight!r} mixes integers and floats")
    values = column.values
    if not len(values):
        return 1
    lightest = values.min()
    if lightest < 0:
        raise Declined(f"edge attribute {weight!r} has negative values")
    return lightest.item() if lightest > 0 and lightest == values.max() else None


def _lengths(paths: dict, each):
    """Each path's length where every edge weighs ``each``, summed edge by
    edge from the integer 0 as NetworkX sums it."""
    sums, lengths = [0], {}
    for node, path in paths.items():
        while len(sums) < len(path):
            sums.append(sums[-1] + each)
        lengths[node] = sums[len(path) - 1]
    return lengths


def single_source_dijkstra(G: BackendGraph, source, target=None, cutoff=None,
                           weight="weight"):
    """``nx.single_source_dijkstra``: ``(lengths, paths)``, or ``(length,
    path)`` to ``target``."""
    check_weight(weight)
    check_limit("cutoff", cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0, [source]
    each = _uniform_weight(G, weight)
    if each is not None and (cutoff is None or each == 1):  # a cutoff in hops
        paths = tree_paths(G, source, cutoff)
        lengths = _lengths(paths, each)
    else:
        t = G.index.get(target) if target is not None else None
        if target is not None and t is None:
            raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
        name = _namer(G, source)
        found = dijkstra(G.frontier_graph(weight), G.index[source], t, cutoff, weight)
        if target is not None:
            return found[0], [name(v) for v in found[1]]
        lengths = {name(v): d for v, d in found[0].items()}
        paths = {name(v): [name(u) for u in path] for v, path in found[1].items()}
    if target is None:
        return lengths, paths
    if target not in paths:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return lengths[target], paths[target]


def single_source_dijkstra_path(G: BackendGraph, source, cutoff=None, weight="weight") -> dict:
    """``nx.single_source_dijkstra_path``."""
    return single_source_dijkstra(G, source, cutoff=cutoff, weight=weight)[1]


def dijkstra_path(G: BackendGraph, source, target, weight="weight") -> list:
    """``nx.dijkstra_path``."""
    return single_source_dijkstra(G, source, target, weight=weight)[1]


def check_method(G, source, target, weight, method) -> None:
    """Declined for what NetworkX runs better itself: all pairs, and
    Bellman-Ford (meant for negative weights)."""
    check_weight(weight)
    if method not in ("dijkstra", "bellman-ford"):
        return  # the function raises NetworkX's ValueError
    if source is None and target is None:
        raise Declined("paths between all pairs")
    if weight is not None and method == "bellman-ford":
        raise Declined("method='bellman-ford' (negative weights) is NetworkX's")


def shortest_path(G: BackendGraph, source=None, target=None, weight=None, method="dijkstra"):
    """``nx.shortest_path`` from a source, to a target, or between the two."""
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    check_method(G, source, target, weight, method)
    if source is None:
        if target not in G:
            raise nx.NodeNotFound(f"Source {target} not in G")
        if _uniform_weight(G, weight) is None:
            return _weighted_to_target(G, target, weight)
        return {v: path[::-1] for v, path in
                tree_paths(G, target, reverse=G.directed).items()}
    if target is None:
        if weight is None:
            return _hops_from(G, source)
        return single_source_dijkstra_path(G, source, weight=weight)
    if source not in G or target not in G:
        raise nx.NodeNotFound(f"Either source {source} or target {target} is not in G")
    if weight is None:
        paths = _hops_from(G, source)
        if target not in paths:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return paths[target]
    return dijkstra_path(G, source, target, weight)


def _hops_from(G: BackendGraph, source) -> dict:
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return tree_paths(G, source)


def _weighted_to_target(G: BackendGraph, target, weight) -> dict:
    graph = G.frontier_graph(weight, reverse=G.directed)
    _, paths = dijkstra(graph, G.index[target], weight=weight)
    name = _namer(G, target)
    return {name(v): [name(u) for u in reversed(path)] for v, path in paths.items()}


def _namer(G: BackendGraph, source):
    """Vertex id -> node; ``source``'s id gives the caller's object, as in NetworkX."""
    s, nodes = G.index[source], G.nodes
    return lambda v: source if v == s else nodes[v]


def _check_dijkstra(a) -> None:
    check_weight(a["weight"])
    check_limit("cutoff", a.get("cutoff"))


# can_run's checks of the bound arguments (interface.KEYWORD_CHECKS)
KEYWORD_CHECKS = {
    "single_source_dijkstra": _check_dijkstra,
    "single_source_dijkstra_path": _check_dijkstra,
    "dijkstra_path": _check_dijkstra,
    "shortest_path": lambda a: check_method(a["G"], a["source"], a["target"], a["weight"],
                                            a["method"]),
}
