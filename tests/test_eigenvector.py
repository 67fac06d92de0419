"""Eigenvector centrality against networkx.eigenvector_centrality: random
graphs (directed and undirected, weighted, isolated vertices, self loops,
parallel edges summed), named graphs, errors, and the multi-device matrix."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from device_matrix import matrix_tests, same_arrays
from graphs import named_graphs
from hypothesis import given
from hypothesis import strategies as st
from oracles import assert_same_outcome, outcome, summed_networkx
from strategies import edge_lists, with_device

import frontier as fr
from primitives import eigenvector_centrality

TIGHT = {"tol": 1e-9, "max_iter": 1000}


@with_device
@given(edge_lists(), st.booleans())
def test_random_graphs_match_networkx(device, edges, weighted):
    weight = "weight" if weighted else None
    actual = outcome(eigenvector_centrality, edges.graph(device), weight=weight, **TIGHT)
    # The oracle weights by the summed count even when weight=None, as the
    # primitive adds parallel edges.
    expected = outcome(nx.eigenvector_centrality, summed_networkx(edges, weighted),
                       weight="weight", **TIGHT)
    assert_same_outcome(actual, expected, atol=1e-8)


@given(edge_lists(max_vertices=20, max_edges=50), st.data())
def test_nstart_and_iterations_match_networkx(edges, data):
    n = edges.num_vertices
    nstart = data.draw(st.dictionaries(st.integers(0, n - 1), st.floats(0.1, 5.0),
                                       min_size=n, max_size=n))
    max_iter = data.draw(st.integers(0, 60))
    g = summed_networkx(edges, False)
    actual = outcome(eigenvector_centrality, edges.graph(), nstart=nstart, max_iter=max_iter)
    expected = outcome(nx.eigenvector_centrality, g, nstart=nstart, max_iter=max_iter,
                       weight="weight")
    assert_same_outcome(actual, expected, atol=1e-12)


@pytest.mark.parametrize("name", sorted(named_graphs()))
def test_named_graphs_match_networkx(device, name):
    g = named_graphs()[name]
    result = eigenvector_centrality(fr.Graph.from_networkx(g, device=device))
    expected = nx.eigenvector_centrality(g)
    np.testing.assert_allclose(fr.to_numpy(result.centrality), [expected[v] for v in g],
                               rtol=0, atol=1e-12)


def test_errors_match_networkx():
    with pytest.raises(nx.NetworkXPointlessConcept):
        eigenvector_centrality(fr.Graph.from_edges([], [], num_vertices=0, device="cpu"))
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with pytest.raises(nx.NetworkXError, match="zero"):
        eigenvector_centrality(G, nstart={0: 0, 1: 0})
    with pytest.raises(ZeroDivisionError):
        eigenvector_centrality(G, nstart={0: 1, 1: -1})
    with pytest.raises(nx.PowerIterationFailedConvergence):
        eigenvector_centrality(G, max_iter=0)
    with pytest.raises(ValueError, match="nstart names 7"):
        eigenvector_centrality(G, nstart={7: 1})
    with pytest.raises(ValueError, match="tol"):
        eigenvector_centrality(G, tol=-1)


# The multi-device matrix: the single-device answer, to 1e-9.
test_matrix_on_virtual_devices, test_parts_sharing_a_gpu = matrix_tests(
    lambda G, edges, **o: eigenvector_centrality(G, **TIGHT, **o),
    same_arrays("centrality", atol=1e-9))
