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
    n = max(len(G.nodes), 1)
    found = fr.to_numpy(r.src).astype(np.int64) * n + fr.to_numpy(r.dst)
    order = np.argsort(found)
    wanted = G.edge_src * n + G.edge_dst
    at = np.minimum(np.searchsorted(found, wanted, sorter=order), max(len(found) - 1, 0))
    values = np.zeros(len(wanted))
    if len(found):
        hit = found[order[at]] == wanted  # misses are self loops: on no shortest path
        values[hit] = fr.to_numpy(r.centrality)[order[at[hit]]]
    nodes = G.nodes
    return {(nodes[u], nodes[v]): value for u, v, value in
            zip(G.edge_src.tolist(), G.edge_dst.tolist(), values.tolist())}


KEYWORD_CHECKS = {
    "edge_betweenness_centrality": lambda a: check_arguments(a["G"], a["k"], a["weight"]),
}
