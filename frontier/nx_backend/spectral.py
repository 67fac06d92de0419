"""HITS, eigenvector and Katz centrality with NetworkX's signatures.

The primitives (:mod:`primitives.hits`, :mod:`primitives.eigenvector`,
:mod:`primitives.katz`) iterate as NetworkX does for eigenvector and Katz
centrality, so answers and convergence failures are NetworkX's. NetworkX's
``hits`` uses ARPACK instead of a power iteration: the backend gives its
answer where the leading singular vectors are unique, and leaves to NetworkX
what only ARPACK decides (see docs/networkx-backend.md).

Dict arguments NetworkX reads by iterating over their keys (``nstart``)
must name exactly the graph's nodes here; other dicts (NetworkX then raises
a ``KeyError`` or answers over a subset) are declined.
"""

from __future__ import annotations

from collections.abc import Mapping

import networkx as nx

import frontier as fr
from primitives import eigenvector_centrality as eigenvector_iteration
from primitives import hits as hits_iteration
from primitives import katz_centrality as katz_iteration

from .graph import BackendGraph, Declined
from .link_analysis import by_vertex
from .shortest_paths import check_weight


def _not_for_multigraphs(G: BackendGraph) -> None:
    """NetworkXNotImplemented, worded as NetworkX's ``not_implemented_for``."""
    if G.multigraph:
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")


def check_nstart(G, nstart) -> None:
    """Declined unless ``nstart`` is None or a dict over exactly ``G``'s nodes."""
    if nstart is None:
        return
    if not isinstance(nstart, Mapping):
        raise Declined(f"nstart is a {type(nstart).__name__}, not a dict")
    if len(nstart) != len(G) or not all(node in G for node in nstart):
        raise Declined("nstart does not have exactly one value per node of the graph")


def _frontier_graph(G: BackendGraph, weight):
    check_weight(weight)
    return G.frontier_graph(weight)


def _by_node(G: BackendGraph, values) -> dict:
    return dict(zip(G.nodes, fr.to_numpy(values).tolist()))


def eigenvector_centrality(G: BackendGraph, max_iter=100, tol=1.0e-6, nstart=None,
                           weight=None) -> dict:
    """``nx.eigenvector_centrality``: a dict of floats keyed by node."""
    _not_for_multigraphs(G)
    if not G.nodes:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    check_nstart(G, nstart)
    result = eigenvector_iteration(_frontier_graph(G, weight), max_iter=max_iter, tol=tol,
                                   nstart=by_vertex(G, nstart), weight=weight)
    return _by_node(G, result.centrality)


def katz_centrality(G: BackendGraph, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6,
                    nstart=None, normalized=True, weight=None) -> dict:
    """``nx.katz_centrality``: a dict of floats keyed by node ({} if empty)."""
    _not_for_multigraphs(G)
    if not G.nodes:
        return {}
    check_nstart(G, nstart)
    try:
        beta = float(beta)
    except (TypeError, ValueError, AttributeError) as error:
        # NetworkX then compares the keys it iterates with the nodes
        try:
            keys = set(beta)
        except TypeError:
            raise Declined(f"beta is a {type(beta).__name__}, not a number") from error
        if keys != set(G.nodes):
            raise nx.NetworkXError("beta dictionary must have a value for every node") \
                from error
        if not isinstance(beta, Mapping):
            raise Declined(f"beta is a {type(beta).__name__}, not a dict") from error
        beta = by_vertex(G, beta)
    result = katz_iteration(_frontier_graph(G, weight), alpha=alpha, beta=beta,
                            max_iter=max_iter, tol=tol, nstart=by_vertex(G, nstart),
                            normalized=normalized, weight=weight)
    return _by_node(G, result.centrality)


def hits(G: BackendGraph, max_iter=100, tol=1.0e-8, nstart=None, normalized=True) -> tuple:
    """``nx.hits``: dicts of hubs and authorities keyed by node."""
    if not G.nodes:
        return {}, {}
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    check_nstart(G, nstart)
    if len(G.nodes) < 2:
        raise Declined("a single node: NetworkX's ARPACK call raises its own error")
    weights = G.edge_weights("weight")
    if len(weights.values) and weights.values.min() < 0:
        raise Declined("negative weights: the power iteration needs non-negative ones")
    try:
        result = hits_iteration(G.frontier_graph("weight"), max_iter=max_iter,
                                tol=tol, nstart=by_vertex(G, nstart), normalized=normalized)
    except (nx.NetworkXError, nx.PowerIterationFailedConvergence) as error:
        # every score 0 (NetworkX's ARPACK raises its own error), or slower
        # convergence than ARPACK's restarts, which NetworkX counts instead
        raise Declined(f"hits: {error}") from error
    return _by_node(G, result.hub), _by_node(G, result.authority)
