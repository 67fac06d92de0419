"""Betweenness centrality with NetworkX's signature, by Frontier's Brandes.

:func:`primitives.betweenness_centrality` already has NetworkX's semantics,
sampling included (the same ``seed.sample`` draw over the node list), so
this module only converts: the weight column, and the result back to a dict
keyed by node.
"""

from __future__ import annotations

import numbers

import frontier as fr
from primitives import betweenness_centrality as brandes

from .graph import BackendGraph, Declined
from .shortest_paths import check_weight


def check_sources(G, k) -> None:
    """Declined unless ``k`` is None or an integer NetworkX can sample (1..n);
    NetworkX then raises its own error for the others."""
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 1 <= k <= len(G):
        raise Declined(f"k={k!r}: NetworkX samples (or rejects) that itself")


def betweenness_centrality(G: BackendGraph, k=None, normalized=True, weight=None,
                           endpoints=False, seed=None) -> dict:
    """``nx.betweenness_centrality``: a dict of floats keyed by node."""
    check_weight(weight)
    check_sources(G, k)
    if weight is not None:
        column = G.edge_weights(weight)
        if len(column.values) and column.values.min() <= 0:
            # With zero weights NetworkX's path counts depend on its heap order.
            raise Declined(f"edge attribute {weight!r} has values <= 0")
    result = brandes(G.frontier_graph(weight, passes=G.source_passes(k or len(G))),
                     k=None if k is None else int(k), normalized=normalized, weight=weight,
                     endpoints=endpoints, seed=seed)
    return dict(zip(G.nodes, fr.to_numpy(result.centrality).tolist()))
