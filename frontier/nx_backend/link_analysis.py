"""PageRank with NetworkX's signature, by Frontier's power iteration.

:func:`primitives.pagerank` has NetworkX's semantics for a graph of vertex
ids. NetworkX reads ``personalization``, ``nstart`` and ``dangling`` with
``dict.get(node, 0)`` over its nodes, ignoring other keys; this module does
the same lookup and hands the primitive dicts keyed by vertex id.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

import frontier as fr
from primitives import pagerank as power_iteration

from .graph import BackendGraph, Declined
from .shortest_paths import check_weight


def by_vertex(G, values: Mapping | None) -> dict | None:
    """``values`` keyed by vertex id, keeping only the graph's nodes."""
    if values is None:
        return None
    index = G.index
    return {index[node]: value for node, value in values.items() if node in index}


def check_distributions(G, personalization, nstart, dangling) -> None:
    """Declined where NetworkX's answer is not a ranking the primitive gives:
    arguments that are not dicts (NetworkX raises its own error), and
    ``nstart``/``dangling`` summing to 0 (NetworkX computes with NaN until
    it gives up, the primitive raises ZeroDivisionError)."""
    for name, values in (("personalization", personalization), ("nstart", nstart),
                         ("dangling", dangling)):
        if values is not None and not isinstance(values, Mapping):
            raise Declined(f"{name} is a {type(values).__name__}, not a dict")
    for name, values in (("nstart", nstart), ("dangling", dangling)):
        if values is not None and sum(v for node, v in values.items() if node in G) == 0:
            raise Declined(f"{name} values sum to 0 over the graph's nodes")


def check_numbers(alpha, max_iter, tol) -> None:
    """Declined unless ``alpha`` and ``tol`` are finite numbers, ``tol >= 0``
    and ``max_iter`` an integer ``>= 0``: the primitive refuses the others
    with a ValueError where NetworkX iterates anyway (NaN, infinity, a
    negative ``tol`` or ``max_iter``, a bool) or fails in its own way."""
    reals, integers = (int, float, np.integer, np.floating), (int, np.integer)
    finite = all(not isinstance(x, bool) and isinstance(x, reals) and math.isfinite(x)
                 for x in (alpha, tol))
    if not (finite and tol >= 0 and not isinstance(max_iter, bool)
            and isinstance(max_iter, integers) and max_iter >= 0):
        raise Declined(f"alpha={alpha!r}, tol={tol!r}, max_iter={max_iter!r}: the primitive "
                       "needs finite numbers, tol >= 0 and an integer max_iter >= 0")


def check_nonnegative(G: BackendGraph, weight) -> None:
    """Declined for negative weights: NetworkX normalizes each node's
    out-weights by their sum whatever their signs, the primitive refuses them."""
    if weight is not None:
        values = G.edge_weights(weight).values
        if len(values) and values.min() < 0:
            raise Declined(f"edge attribute {weight!r} has negative values")


def pagerank(G: BackendGraph, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6,
             nstart=None, weight="weight", dangling=None) -> dict:
    """``nx.pagerank``: a dict of floats keyed by node ({} for an empty graph)."""
    if not G.nodes:
        return {}
    check_weight(weight)
    check_numbers(alpha, max_iter, tol)
    check_distributions(G, personalization, nstart, dangling)
    check_nonnegative(G, weight)
    result = power_iteration(
        G.frontier_graph(weight), alpha=alpha, personalization=by_vertex(G, personalization),
        max_iter=max_iter, tol=tol, nstart=by_vertex(G, nstart), weight=weight,
        dangling=by_vertex(G, dangling))
    return dict(zip(G.nodes, fr.to_numpy(result.rank).tolist()))
