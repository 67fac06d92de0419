"""Shortest path lengths from one source, with NetworkX's signatures, types and
errors: hop counts by Frontier's BFS, weighted lengths by its SSSP.

NetworkX sums the weights as Python numbers: integer weights give integer
lengths, float weights float lengths, and the source always has length ``0``
(an int). SSSP sums in float64, exactly for integers below 2**53 (the
conversion checks the total), so the lengths are cast back to the type
NetworkX would give. A graph mixing integer and float weights is declined:
there the type of each length depends on which of several equal paths
NetworkX happens to find first. Negative weights are declined too (NetworkX's
Dijkstra is undefined for them).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr
from primitives import sssp

from .graph import BackendGraph, Declined
from .traversal import check_limit, depths_from, single_source_shortest_path_length


def check_weight(weight) -> None:
    """Declined for a ``weight`` function; any other value names an edge
    attribute (NetworkX allows any hashable key) or is None."""
    if callable(weight):
        raise Declined(f"weight={weight!r} is a function, called per edge by NetworkX")


def distances_from(G: BackendGraph, source: int, weight: str):
    """Weighted lengths from vertex ``source`` (float64, inf if unreached) and
    the Python type NetworkX's sums have (int or float)."""
    column = G.edge_weights(weight)
    if column.kind == "mixed":
        raise Declined(f"edge attribute {weight!r} mixes integers and floats")
    if len(column.values) and column.values.min() < 0:
        raise Declined(f"edge attribute {weight!r} has negative values")
    distance = fr.to_numpy(sssp(G.frontier_graph(weight), source=source).distance)
    return distance, int if column.kind == "int" else float


def single_source_dijkstra_path_length(G: BackendGraph, source, cutoff=None,
                                       weight="weight") -> dict:
    """``nx.single_source_dijkstra_path_length``: weighted lengths to every
    reachable node (at most ``cutoff``), nearest first."""
    check_weight(weight)
    check_limit("cutoff", cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if weight is None:  # NetworkX reads the attribute None: every edge weighs 1
        hops = single_source_shortest_path_length(G, source)
        return hops if cutoff is None else {v: d for v, d in hops.items() if not d > cutoff}
    s = G.index[source]
    distance, cast = distances_from(G, s, weight)
    reached = np.isfinite(distance)
    if cutoff is not None:  # NetworkX drops lengths > cutoff: a NaN cutoff drops none
        reached &= ~(distance > cutoff)
    reached[s] = False
    ids = np.flatnonzero(reached)
    ids = ids[np.argsort(distance[ids], kind="stable")]
    lengths = {source: 0}  # keyed by the caller's object, as NetworkX does
    nodes = G.nodes
    lengths.update(zip([nodes[i] for i in ids.tolist()], map(cast, distance[ids].tolist())))
    return lengths


def dijkstra_path_length(G: BackendGraph, source, target, weight="weight"):
    """``nx.dijkstra_path_length``: the weighted length from ``source`` to ``target``."""
    check_weight(weight)
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    t = G.index.get(target)
    if weight is None:  # NetworkX reads the attribute None: every edge weighs 1
        hops = -1 if t is None else int(depths_from(G, [G.index[source]])[t])
        if hops < 0:
            raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
        return hops
    distance, cast = distances_from(G, G.index[source], weight)
    if t is None or not np.isfinite(distance[t]):
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return cast(distance[t].item())


def shortest_path_length(G: BackendGraph, source=None, target=None, weight=None,
                         method="dijkstra"):
    """``nx.shortest_path_length`` from a given ``source`` (to every node, or
    to ``target``); without a source it is declined."""
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    check_weight(weight)
    if source is None:
        raise Declined("lengths without a source (all pairs, or to one target)")
    if weight is not None and method == "bellman-ford":
        raise Declined("method='bellman-ford' (negative weights) is NetworkX's")
    if weight is not None:
        if target is None:
            return single_source_dijkstra_path_length(G, source, weight=weight)
        return dijkstra_path_length(G, source, target, weight)
    if target is None:
        return single_source_shortest_path_length(G, source)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    hops = int(depths_from(G, [G.index[source]])[G.index[target]])
    if hops < 0:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return hops
