"""Connected and weakly connected components with NetworkX's signatures.

Frontier's :func:`primitives.connected_components` labels every vertex with
the smallest vertex id of its component. Vertex ids follow ``G``'s node
order, so ordering the components by label yields them in NetworkX's order
(by the first node of each in ``G``). Questions about one node's component
are answered by a BFS from it instead, which touches only that component.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr
from primitives import connected_components as label_components

from ..ranges import stable_argsort
from .graph import BackendGraph
from .traversal import depths_from


def _require(G: BackendGraph, directed: bool) -> None:
    """NetworkXNotImplemented for the wrong graph kind, worded as NetworkX's
    ``not_implemented_for`` words it (which runs first when dispatching)."""
    if G.directed != directed:
        kind = "directed" if G.directed else "undirected"
        raise nx.NetworkXNotImplemented(f"not implemented for {kind} type")


def _labels(G: BackendGraph) -> np.ndarray:
    return fr.to_numpy(label_components(G.frontier_graph()).labels)


def _components(G: BackendGraph):
    labels = _labels(G)
    order = stable_argsort(labels)
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    nodes = G.nodes
    for members in np.split(order, cuts) if len(order) else []:
        yield {nodes[i] for i in members.tolist()}


def connected_components(G: BackendGraph):
    """``nx.connected_components``: a generator of node sets."""
    _require(G, directed=False)
    return _components(G)


def weakly_connected_components(G: BackendGraph):
    """``nx.weakly_connected_components``: a generator of node sets."""
    _require(G, directed=True)
    return _components(G)


def number_connected_components(G: BackendGraph) -> int:
    """``nx.number_connected_components``."""
    _require(G, directed=False)
    return len(np.unique(_labels(G)))


def number_weakly_connected_components(G: BackendGraph) -> int:
    """``nx.number_weakly_connected_components``."""
    _require(G, directed=True)
    return len(np.unique(_labels(G)))


def is_connected(G: BackendGraph) -> bool:
    """``nx.is_connected``."""
    _require(G, directed=False)
    if not G.nodes:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool((depths_from(G, [0]) >= 0).all())


def node_connected_component(G: BackendGraph, n) -> set:
    """``nx.node_connected_component``: the set of nodes in ``n``'s component."""
    _require(G, directed=False)
    if n not in G.index:
        raise KeyError(n)  # as NetworkX's lookup of the missing node raises
    reached = np.flatnonzero(depths_from(G, [G.index[n]]) >= 0)
    nodes = G.nodes
    return {nodes[i] for i in reached.tolist()}
