"""NetworkX oracles shared by the tests of the spectral ranks."""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr


def summed_networkx(edges, weighted: bool):
    """The oracle's simple graph: parallel edges become one edge whose
    ``weight`` is their summed weight (their count when unweighted), as in
    an adjacency matrix."""
    g = nx.DiGraph() if edges.directed else nx.Graph()
    g.add_nodes_from(range(edges.num_vertices))
    weights = edges.weights if weighted and edges.weights is not None \
        else np.ones(len(edges.src))
    for u, v, w in zip(edges.src.tolist(), edges.dst.tolist(), weights.tolist()):
        previous = g[u][v]["weight"] if g.has_edge(u, v) else 0
        g.add_edge(u, v, weight=previous + w)
    return g


def outcome(function, *args, **kwargs):
    """``function``'s centrality as a vector over vertices 0..n-1 (from a
    dict keyed 0..n-1 or a result's ``centrality``), or the type of the
    NetworkX or division error it raised."""
    try:
        answer = function(*args, **kwargs)
    except (nx.PowerIterationFailedConvergence, nx.NetworkXError, ZeroDivisionError) as error:
        return type(error)
    if isinstance(answer, dict):
        return np.array([answer[v] for v in range(len(answer))])
    return fr.to_numpy(answer.centrality)


def assert_same_outcome(actual, expected, atol: float) -> None:
    """The same exception type, or vectors within ``atol``."""
    if isinstance(expected, type) or isinstance(actual, type):
        assert actual is expected
    else:
        np.testing.assert_allclose(actual, expected, rtol=0, atol=atol)
