"""Edge betweenness centrality with NetworkX's signature, by
:func:`primitives.edge_betweenness_centrality`.

The primitive has NetworkX's semantics (sampling included); this module
converts the weight column and lays the values out as NetworkX's dict: one
entry per edge of ``G.edges()``, in that order and orientation, self loops
with 0. Multigraphs (whose values NetworkX splits among parallel edges of
equal weight) are left to NetworkX.
"""

from __future__ import annotations

import numpy as np

import frontier as fr
from primitives import edge_betweenness_centrality as edge_brandes

from .centrality import check_sources
from .graph import BackendGraph, Declined
from .shortest_paths import check_weight


def check_arguments(G, k, weight) -> None:
    """Declined for what NetworkX answers itself (see the module docstring)."""
    check_weight(weight)
    check_sources(G, k)
    if G.is_multigraph():
        raise Declined("a multigraph: NetworkX splits values among parallel edges")


def edge_betweenness_centrality(G: BackendGraph, k=None, normalized=True, weight=None,
                                seed=None) -> dict:
    """``nx.edge_betweenness_centrality``: a dict of floats keyed by edge."""
    check_arguments(G, k, weight)
    if weight is not None:
        column = G.edge_weights(weight)
        if len(column.values) and column.values.min() <= 0:
            raise Declined(f"edge attribute {weight!r} has values <= 0")
    r = edge_brandes(G.frontier_graph(weight, passes=G.source_passes(k or len(G))),
                     k=None if k is None else int(k), normalized=normalized, weight=weight,
                     seed=seed)
    values = _in_edge_order(G, fr.to_numpy(r.src), fr.to_numpy(r.dst), fr.to_numpy(r.centrality))
    return dict(zip(_edge_keys(G.nodes, G.edge_src, G.edge_dst), values.tolist()))


def _in_edge_order(G: BackendGraph, src, dst, centrality) -> np.ndarray:
    """The value of each edge of ``G.edge_src``/``edge_dst`` among the
    primitive's ``(src, dst, centrality)``; 0 for a self loop, on no
    shortest path. Where both list the same edges in the same order (a
    graph whose NetworkX order is the CSR's), no search."""
    n = max(len(G.nodes), 1)
    found = src.astype(np.int64) * n + dst
    wanted = G.edge_src * n + G.edge_dst
    if np.array_equal(found, wanted):
        return centrality.astype(np.float64, copy=False)
    ordered = bool(np.all(found[1:] >= found[:-1]))  # CSR order: no sort needed
    order = None if ordered else np.argsort(found)
    at = np.minimum(np.searchsorted(found, wanted, sorter=order), max(len(found) - 1, 0))
    position = at if ordered else order[at]
    values = np.zeros(len(wanted))
    if len(found):
        hit = found[position] == wanted  # misses are self loops: on no shortest path
        values[hit] = centrality[position[hit]]
    return values


def _edge_keys(nodes: list, src: np.ndarray, dst: np.ndarray):
    """``(u, v)`` nodes for each edge's vertex ids: the ids themselves where
    every node is the ``int`` of its position (as NetworkX's generators
    number them), else looked up, node identity kept either way."""
    if all(type(node) is int for node in nodes) and nodes == list(range(len(nodes))):
        return zip(src.tolist(), dst.tolist())
    lookup = nodes.__getitem__
    return zip(map(lookup, src.tolist()), map(lookup, dst.tolist()))


KEYWORD_CHECKS = {
    "edge_betweenness_centrality": lambda a: check_arguments(a["G"], a["k"], a["weight"]),
}
