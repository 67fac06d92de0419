"""k-cores with NetworkX's signatures, by Frontier's peeling (:mod:`primitives.kcore`).

``core_number`` converts the answer to a dict keyed by node. ``k_core``
returns NetworkX's subgraph (built by :mod:`.answer_graphs`): the same
graph class, nodes and edges, and ``G``'s graph attributes; nodes come in
``G``'s order (NetworkX's order
follows its subgraph view, which for a small core iterates a set). The
backend's graph keeps no node or edge attributes, so ``can_run`` leaves
graphs that have any to NetworkX, which copies them.
"""

from __future__ import annotations

from itertools import chain

import networkx as nx
import numpy as np

import frontier as fr
from frontier.networkx_arcs import no_row_attributes
from primitives import core_number as peel

from .answer_graphs import networkx_graph
from .graph import BackendGraph, Declined


def core_number(G: BackendGraph) -> dict:
    """``nx.core_number``: ``{node: core number}``."""
    cores = fr.to_numpy(peel(G.frontier_graph()).core)
    return dict(zip(G.nodes, cores.tolist()))


def k_core(G: BackendGraph, k=None, core_number=None):
    """``nx.k_core``: the subgraph induced by the nodes of core number >= ``k``."""
    if core_number is None:
        cores = fr.to_numpy(peel(G.frontier_graph()).core)
        core_number = dict(zip(G.nodes, cores.tolist()))
    if k is None:
        k = max(core_number.values())  # NetworkX's ValueError for an empty graph
    inside = np.zeros(len(G.nodes), dtype=bool)
    for node, core in core_number.items():
        if core >= k and node in G:  # NetworkX keeps only nodes of G
            inside[G.index[node]] = True
    keep = inside[G.edge_src] & inside[G.edge_dst]
    return networkx_graph(nx.DiGraph if G.directed else nx.Graph, G.nodes,
                          np.flatnonzero(inside), G.edge_src[keep], G.edge_dst[keep], G.graph)


def check_no_attributes(a) -> None:
    """Declined for a graph with node or edge attributes, which ``k_core`` copies."""
    G = a["G"]
    if isinstance(G, BackendGraph):
        return
    if _has_attributes(G):
        raise Declined("node or edge attributes, which NetworkX copies into the k-core")


def _has_attributes(G) -> bool:
    """Whether a node or an edge of ``G`` holds an attribute. A graph's own
    dicts are tested one truth test a dict, in C
    (:func:`frontier.networkx_arcs.no_row_attributes`): 0.25-0.27 s for a
    million edges on the development CPU, where NetworkX's edge view took
    0.88-1.1 s (2026-11-28); a view's, through NetworkX's views."""
    if type(G._node) is dict and type(G._adj) is dict:
        if any(G._node.values()):
            return True
        rows = list(G._adj.values())
        if G.is_multigraph():  # neighbour -> key -> data
            rows = list(chain.from_iterable(map(dict.values, rows)))
        return not no_row_attributes(rows)
    return any(G.nodes[n] for n in G) or any(data for _, _, data in G.edges(data=True))


KEYWORD_CHECKS = {"k_core": check_no_attributes}
