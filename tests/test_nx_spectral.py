"""The backend's HITS, eigenvector and Katz centrality against NetworkX:
``nx.f(G, backend="frontier") == nx.f(G)`` on random graphs of every class
(string nodes out of order, isolated nodes, self loops, parallel edges,
integer, float or no weights), with NetworkX's types, order and errors,
and what the backend leaves to NetworkX."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_nx_backend import check, nx_graphs, quiet_cache  # noqa: F401 -- a fixture

from frontier import nx_backend


def some_values(graph, data, label):
    """None, or a dict with a value for every node."""
    if not len(graph) or data.draw(st.booleans(), label=f"no {label}"):
        return None
    return {node: data.draw(st.floats(0.1, 5.0), label=label) for node in graph}


@given(nx_graphs(), st.data())
def test_eigenvector_centrality_matches_networkx(graph, data):
    """Multigraphs raise NetworkXNotImplemented before dispatching."""
    check(nx.eigenvector_centrality, graph, weight=data.draw(st.sampled_from([None, "weight"])),
          nstart=some_values(graph, data, "nstart"), max_iter=data.draw(st.integers(0, 300)),
          tol=1e-8, dispatched=not graph.is_multigraph())


@given(nx_graphs(), st.data())
def test_katz_centrality_matches_networkx(graph, data):
    beta = data.draw(st.sampled_from(["dict", 1.0, 0.5, 2]))
    check(nx.katz_centrality, graph, weight=data.draw(st.sampled_from([None, "weight"])),
          alpha=data.draw(st.floats(0.01, 0.2)),
          beta=some_values(graph, data, "beta") or 1.0 if beta == "dict" else beta,
          nstart=some_values(graph, data, "nstart"), normalized=data.draw(st.booleans()),
          tol=1e-10, dispatched=not graph.is_multigraph())


def leading_singular_vectors_are_unique(graph) -> bool:
    matrix = nx.to_numpy_array(graph, weight="weight")
    singular = np.append(np.linalg.svd(matrix, compute_uv=False), [0.0, 0.0])
    return singular[0] > 0 and singular[1] < 0.9 * singular[0]


@given(nx_graphs(), st.data())
def test_hits_matches_networkx_where_its_answer_is_unique(graph, data):
    """Normalized: unnormalized, NetworkX's sign is ARPACK's (see below)."""
    if len(graph) < 2 or not leading_singular_vectors_are_unique(graph):
        return  # NetworkX raises, or ARPACK picks one of several answers
    check(nx.hits, graph,
          nstart=some_values(graph, data, "nstart"), tol=1e-12, max_iter=10000)


def test_hits_unnormalized_has_networkx_magnitudes():
    """Unnormalized, NetworkX's sign is ARPACK's; ours is >= 0."""
    g = nx.DiGraph([("a", "b"), ("a", "c"), ("b", "c"), ("c", "a"), ("d", "c")])
    hubs, authorities = nx.hits(g, backend="frontier", normalized=False)
    expected_hubs, expected_authorities = nx.hits(g, normalized=False)
    assert list(hubs) == list(g) and all(isinstance(v, float) for v in hubs.values())
    for got, expected in ((hubs, expected_hubs), (authorities, expected_authorities)):
        assert [abs(got[v]) for v in g] == pytest.approx([abs(expected[v]) for v in g],
                                                         abs=1e-7)


def test_edge_cases_match_networkx():
    check(nx.hits, nx.DiGraph())  # ({}, {})
    check(nx.hits, nx.path_graph(5), max_iter=0)  # PowerIterationFailedConvergence
    check(nx.katz_centrality, nx.Graph())  # {}
    check(nx.katz_centrality, nx.path_graph(3), beta={0: 1, 1: 1})  # NetworkXError
    check(nx.katz_centrality, nx.path_graph(3), beta="abc")  # NetworkXError
    check(nx.katz_centrality, nx.complete_graph(5), alpha=0.5)  # does not converge
    check(nx.eigenvector_centrality, nx.Graph())  # NetworkXPointlessConcept
    check(nx.eigenvector_centrality, nx.path_graph(3), nstart={0: 0, 1: 0, 2: 0})
    check(nx.eigenvector_centrality, nx.path_graph(30, nx.DiGraph))  # does not converge


@pytest.mark.parametrize("call", [
    lambda: nx.hits(nx.empty_graph(3), backend="frontier"),  # no edge: ARPACK's error
    lambda: nx.hits(nx.path_graph(1), backend="frontier"),
    lambda: nx.hits(nx.path_graph(60), max_iter=1, backend="frontier"),  # needs more
    lambda: nx.hits(nx.DiGraph([(0, 1, {"weight": -1.0}), (1, 2)]), backend="frontier"),
    lambda: nx.eigenvector_centrality(nx.path_graph(3), nstart={0: 1}, backend="frontier"),
    lambda: nx.katz_centrality(nx.path_graph(3), nstart={0: 1, 9: 1}, backend="frontier"),
])
def test_what_the_backend_leaves_to_networkx(call):
    before = sum(nx_backend.counts()["declined"].values())
    with pytest.raises(NotImplementedError):
        call()
    assert sum(nx_backend.counts()["declined"].values()) == before + 1
